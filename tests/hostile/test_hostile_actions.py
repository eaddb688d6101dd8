"""Hand-built actions with wrongly typed or out-of-range fields are refused with IllegalAction
naming the field, and the state is unchanged (issue 15, finding 7), for every game's actions."""

import dataclasses
import random
import typing

import pytest

from pangaea_lab import forest_shuffle, harmonies, inori, pangaea
from pangaea_lab.core.errors import IllegalAction
from pangaea_lab.core.players import RandomPlayer

GAMES = {
    "pangaea": [lambda: pangaea.new_game(players=2, seed=3),
                lambda: pangaea.new_game(players=2, seed=5, mode="coop"),
                lambda: pangaea.new_game(players=2, seed=6, wild_woods=True)],
    "harmonies": [lambda: harmonies.new_game(players=2, seed=3)],
    "forest_shuffle": [lambda: forest_shuffle.new_game(players=2, seed=3)],
    "inori": [lambda: inori.new_game(players=2, seed=3)],
}
WRONG_TYPES = ["1", 1.5, None, [1], True, {"a": 1}]


def positions(game):
    """A few positions along a seeded random game of each setup."""
    out = []
    for k, make in enumerate(GAMES[game]):
        state, bot = make(), RandomPlayer(k)
        for step in range(60):
            if step % 6 == 0:
                out.append(state)
            if state.is_over:
                break
            state = state.apply(bot.choose(state))
    return out


def declared_fits(action, name, value):
    """Does ``value`` have the type declared for the field (so it is not a wrong type)?"""
    tp = typing.get_type_hints(type(action))[name]
    options = typing.get_args(tp) if typing.get_origin(tp) in (typing.Union, type(int | None)) \
        else (tp,)
    return any(value is None if a is type(None) else
               isinstance(value, tuple) if typing.get_origin(a) is tuple else
               type(value) is a for a in options)


def same_type_oddities(value):
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [-1, -2**63, 10**6, value + 1, value - 1]
    if isinstance(value, str):
        return ["", "zzz", value + "x", value.upper()]
    if isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return [(99, 99), (-99, 5), (value[0] + 1, value[1])]
    if isinstance(value, tuple):
        return [(), value + value, value[:-1]]
    return []


def _fields(action):
    return [f.name for f in dataclasses.fields(action) if f.compare]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_wrong_types_are_refused_naming_the_field(game):
    for state in positions(game):
        before = state.to_json()
        for action in state.legal_actions()[:40]:
            for name in _fields(action):
                for bad in WRONG_TYPES:
                    if declared_fits(action, name, bad):
                        continue
                    wrong = dataclasses.replace(action, **{name: bad})
                    with pytest.raises(IllegalAction, match=f"{type(action).__name__}.{name}"):
                        state.apply(wrong)
        assert state.to_json() == before


@pytest.mark.parametrize("game", sorted(GAMES))
def test_odd_values_are_refused_or_legal(game):
    """Right type, odd value (a space off the board, a negative count, an unknown name): the
    action is either one the rules allow (and applies cleanly) or refused with IllegalAction."""
    rng = random.Random(game)
    for state in positions(game):
        before = state.to_json()
        legal = set(state.legal_actions())
        actions = list(legal)
        rng.shuffle(actions)
        for action in actions[:30]:
            for name in _fields(action):
                for odd in same_type_oddities(getattr(action, name)):
                    changed = dataclasses.replace(action, **{name: odd})
                    try:
                        after = state.apply(changed)
                    except IllegalAction:
                        continue
                    assert changed in legal, f"{changed!r} applied but is not listed as legal"
                    after.check_invariants()
        assert state.to_json() == before


@pytest.mark.parametrize("game", sorted(GAMES))
def test_something_that_is_not_an_action_is_refused(game):
    state = GAMES[game][0]()
    for thing in (None, "EndTurn", 3, object()):
        with pytest.raises(IllegalAction):
            state.apply(thing)


def test_harmonies_take_tokens_with_a_text_space():
    """The example from the review: TakeTokens(space="1") ended in a TypeError."""
    state = harmonies.new_game(players=2, seed=3, spirits=False)
    with pytest.raises(IllegalAction, match=r"TakeTokens\.space: expected a whole number"):
        state.apply(harmonies.TakeTokens(space="1"))
