"""Random playouts of the family game over 200 seeds and 2-4 players, checking the protocol's
promises: each legal action applies without changing the old state, JSON round-trips exactly,
pieces, tokens and cards are conserved (check_invariants, on every step), and every game ends.

A game of random players lasts several hundred steps, so on the 200 seeds every legal action
is tried on one step in 15 and the JSON round-trip on one in 10; a few seeds check both on
every single step."""

from functools import partial

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.players import GreedyPlayer, play_game
from pangaea_lab.core.testing import check_playout, check_replay

family_game = partial(pangaea.new_game, family=True)


@pytest.mark.parametrize("seed", range(200))
def test_random_family_playout(seed):
    final = check_playout(family_game, 2 + seed % 3, seed, max_steps=3000,
                          apply_all_every=15, json_every=10)
    assert final.is_over and final.winners() and final.family


@pytest.mark.parametrize("seed", [1000, 1003])
def test_random_family_playout_checked_on_every_step(seed):
    assert check_playout(family_game, 2 + seed % 3, seed, max_steps=3000).is_over


@pytest.mark.parametrize("seed", range(0, 200, 20))
def test_same_seed_replays_the_same_family_game(seed):
    check_replay(family_game, 2 + seed % 3, seed, steps=150)


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_players_finish_a_family_game(players):
    final = play_game(family_game(players=players, seed=players),
                      [GreedyPlayer(k) for k in range(players)])
    assert final.is_over
    assert max(s.total for s in final.scores()) > 0
