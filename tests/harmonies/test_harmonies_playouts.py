"""Random playouts over 300 seeds: 1-4 players, sides A and B, spirits on and off.

After every step ``check_playout`` checks the invariants of ``check_invariants`` (all 120
tokens accounted for in the pouch, central board, hand, boards and box; animal cubes conserved;
only stacks of the chart on every board; cards conserved), tries legal actions, and checks the
JSON round-trip; the game must end."""

from functools import partial

import pytest

from pangaea_lab import harmonies
from pangaea_lab.core.players import GreedyPlayer, play_game
from pangaea_lab.core.testing import check_playout, check_replay


def setup_for(seed):
    players = 1 + seed % 4
    side = "AB"[(seed // 4) % 2]
    spirits = (seed // 8) % 2 == 0
    return players, partial(harmonies.new_game, side=side, spirits=spirits)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_random_playouts(block):
    for seed in range(block * 30, block * 30 + 30):
        players, new_game = setup_for(seed)
        final = check_playout(new_game, players, seed, apply_all_every=23, json_every=9)
        assert final.is_over and final.end_reason
        assert final.winners()
        # every seat played the same number of turns (the round is finished)
        assert len({a.turns for a in final.areas}) == 1


@pytest.mark.parametrize("seed", range(0, 300, 15))
def test_seeded_replay(seed):
    players, new_game = setup_for(seed)
    check_replay(new_game, players, seed, steps=400)


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_players_finish_and_place_cubes(players):
    final = play_game(harmonies.new_game(players=players, seed=21, side="B"),
                      [GreedyPlayer(p) for p in range(players)])
    final.check_invariants()
    assert final.is_over
    assert sum(final.cubes_placed(p, count_spirit=True) for p in range(players)) > 0


def test_greedy_solo_game_reports_suns():
    final = play_game(harmonies.new_game(players=1, seed=23, side="A", spirits=False),
                      GreedyPlayer(0))
    total = final.scores()[0].total
    assert final.suns() == harmonies.solo_suns(total, "A") >= 3
    assert f"suns: {final.suns()}" in final.scores()[0].notes
