"""Shared helpers for The Dawn of Pangaea tests: a small hand-built board and quick states."""

from dataclasses import replace

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.errors import IllegalAction
from pangaea_lab.pangaea import custom_board, load_edition


def strip_board():
    """A small board: a row of land with water below it, biomes cycling, one blessing space.

         land:  (0,0) Sun (1,0) Rain (2,0) Snow (3,0) Wind (4,0) Sun (5,0) Rain
        water:  (0,1) (1,1) (2,1) (3,1) (4,1)       [(2,1) carries the blessing icon]
         land:  (-1,2) Wind (0,2) Snow (1,2) Sun (2,2) Rain
    """
    biomes = ["Sun", "Rain", "Snow", "Wind", "Sun", "Rain"]
    spaces = {(q, 0): ("land", biomes[q]) for q in range(6)}
    spaces.update({(q, 1): ("water", "Rain") for q in range(5)})
    spaces.update({(-1, 2): ("land", "Wind"), (0, 2): ("land", "Snow"),
                   (1, 2): ("land", "Sun"), (2, 2): ("land", "Rain")})
    return custom_board(spaces, blessing=[(2, 1)])


@pytest.fixture
def small():
    """A 2-player family game on the strip board; Red (0) to play its first action."""
    s = pangaea.new_game(players=2, seed=5, board=strip_board(), family=True)
    return replace(s, first_player=0, turn_player=0)


def few_trees_edition(trees=3):
    """The reference edition with fewer Trees per player, to reach "no Tree left" quickly."""
    data = load_edition().to_dict()
    data["edition"] = f"reference with {trees} trees"
    data["trees_per_player"]["value"] = trees
    return data


def card_with(state, biomes):
    """The id of a Land Ritual card showing exactly these two biomes."""
    others = {c for ps in state.players[1:] for c in ps.hand}
    return next(c.id for c in state.edition.land_cards
                if sorted(c.biomes) == sorted(biomes) and c.id not in others)


@pytest.fixture
def full():
    """The same as ``small`` but with the full game's Ancients and Favor Tokens."""
    s = pangaea.new_game(players=2, seed=5, board=strip_board())
    return replace(s, first_player=0, turn_player=0)


def do(state, action):
    """Apply and check the action was listed as legal (the protocol's promise)."""
    assert action in state.legal_actions(), action
    return state.apply(action)


def end_turn(state):
    """Spend the remaining actions on keeping the Spirit still, then end the turn."""
    from pangaea_lab.pangaea import EndTurn, SpiritGrowth
    p = state.turn_player
    while state.actions_taken < 2:
        cell = state.spirit_cell(p)
        if cell is None:
            cell = next(a.cell for a in state.legal_actions() if isinstance(a, SpiritGrowth))
        state = state.apply(SpiritGrowth(cell))
        while state.pending is not None:
            state = state.apply(state.legal_actions()[0])
    return state.apply(EndTurn())


def forester_game(seed=77, steps=60, players=3, **options):
    """A game after ``steps`` actions by seeded foresters (a busy, realistic position)."""
    from pangaea_lab.pangaea import ForesterPlayer
    state = pangaea.new_game(players=players, seed=seed, **options)
    bots = [ForesterPlayer(k) for k in range(players)]
    for _ in range(steps):
        state = state.apply(bots[state.current_player].choose(state))
    return state


def rejected(state, action, match):
    """The action is refused with a message matching ``match``; the state is unchanged and the
    action is not among the legal ones."""
    before = state.to_json()
    with pytest.raises(IllegalAction, match=match):
        state.apply(action)
    assert state.to_json() == before
    assert action not in state.legal_actions()
