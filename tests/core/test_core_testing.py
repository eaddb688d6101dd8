"""The shared playout checks pass on a sound game and catch broken ones."""

import itertools
from dataclasses import replace

import pytest

from pangaea_lab.core.testing import check_playout, check_replay

import toy_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sound_game_passes(players):
    for seed in range(5):
        final = check_playout(toy_game.new_game, players, seed)
        assert final.is_over
        check_replay(toy_game.new_game, players, seed)


def test_sampling_options_still_play_to_the_end():
    final = check_playout(toy_game.new_game, 2, 3, apply_all_every=4, json_every=3)
    assert final.is_over


# ----- broken games: each check must fail ---------------------------------------------------

class SelfChanging(toy_game.MossState):
    """Breaks "values in, values out": apply also moves the turn of the old state."""

    def apply(self, action):
        after = super().apply(action)
        object.__setattr__(self, "turn", after.turn)
        return after


class ForgetsPasses(toy_game.MossState):
    """Breaks the JSON round-trip: the pass counter is not saved."""

    def to_json(self):
        return super().to_json().replace(f'"passes":{self.passes}', '"passes":0')


class NeverEnds(toy_game.MossState):
    """Forgets to end: once the board is full, players pass for ever."""

    @property
    def is_over(self):
        return False


class BrokenCount(toy_game.MossState):
    """A stone lands on a rock once the second stone is placed."""

    def apply(self, action):
        after = super().apply(action)
        if len(after.stones) == 2 and self.rocks:
            return replace(after, stones=((self.rocks[0], 0),) + after.stones[1:])
        return after


class DuplicateActions(toy_game.MossState):
    def legal_actions(self):
        actions = super().legal_actions()
        return actions + actions[:1]


class ActionsAfterTheEnd(toy_game.MossState):
    def legal_actions(self):
        return [toy_game.Pass()] if self.is_over else super().legal_actions()


class StuckPlayer(toy_game.MossState):
    def legal_actions(self):
        return [] if self.stones else super().legal_actions()


def made_as(cls):
    def new_game(players, seed):
        base = toy_game.new_game(players=players, seed=seed)
        return cls(base.players, base.seed, base.rocks)
    return new_game


@pytest.mark.parametrize("cls, message", [
    (SelfChanging, "apply\\(\\) changed the old state"),
    (ForgetsPasses, "JSON round-trip changed the state"),
    (NeverEnds, "did not end within 300 steps"),
    (BrokenCount, "a stone on a rock"),
    (DuplicateActions, "duplicate legal actions"),
    (ActionsAfterTheEnd, "a finished game still lists actions"),
    (StuckPlayer, "no legal action at step"),
])
def test_check_playout_catches_a_broken_game(cls, message):
    with pytest.raises(AssertionError, match=message):
        for seed in range(5):
            check_playout(made_as(cls), 2, seed, max_steps=300)


def test_check_playout_catches_apply_mutating_even_when_sampling():
    with pytest.raises(AssertionError, match="changed the old state"):
        check_playout(made_as(SelfChanging), 2, 0, apply_all_every=1000)


def test_check_replay_catches_hidden_randomness():
    calls = itertools.count()

    def drifting_new_game(players, seed):
        # the rocks depend on how often the game was made, not only on the seed
        base = toy_game.new_game(players=players, seed=f"{seed}/{next(calls)}")
        return replace(base, seed=seed)

    with pytest.raises(AssertionError):
        check_replay(drifting_new_game, 2, 0)


