"""Random playouts of Wild Woods over 200 seeds (2-4 players, with and without Elemental Storms)
and of Return of the Ancients with Wild Woods over 200 seeds (1-4 players, every difficulty).

After every step check_invariants holds: Trees, Seeds (supply + continent + score marker +
locked on the Player Board + given up), Treetops (board slots + Trees + a Treetop in hand),
Blessings (base and Wild Woods sets), Weather Tokens (with those on Storm-covered tiles),
Storm cards, Scourge and Shadow Markers; no two colours ever tie on Seeds.  JSON round-trips,
the same seed replays the same game, and every game ends (a co-op game won or lost)."""

from functools import partial

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.players import play_game
from pangaea_lab.core.testing import check_playout, check_replay
from pangaea_lab.pangaea import ForesterPlayer

DIFFICULTIES = ("standard", "cozy", "midnight")


def new_woods(seed):
    return partial(pangaea.new_game, wild_woods=True, storms=seed % 2 == 0)


def new_coop_woods(seed):
    return partial(pangaea.new_game, mode="coop", wild_woods=True,
                   difficulty=DIFFICULTIES[seed % 3])


def levels_change_by_rules(before, action, after):
    """Treetops only move one at a time: an action raises at most one Tree by one level,
    unless a Ritual, a Storm or the Shadow took Trees away."""
    raised = [i for i, (x, y) in enumerate(zip(before.woods.treetops, after.woods.treetops)) if y > x
              and before.trees[i] == after.trees[i]]
    assert len(raised) <= 1 and all(after.woods.treetops[i] == before.woods.treetops[i] + 1 for i in raised)
    assert all(0 <= t <= 2 for t in after.woods.treetops)


@pytest.mark.parametrize("seed", range(200))
def test_random_wild_woods_playout(seed):
    final = check_playout(new_woods(seed), 2 + seed % 3, seed, max_steps=4000,
                          apply_all_every=15, json_every=10, on_step=levels_change_by_rules)
    assert final.is_over and final.winners() and (final.woods is not None)
    assert [c for c, _ in final.scores()[0].categories][-1] == "Player Board"


@pytest.mark.parametrize("seed", range(200))
def test_random_co_op_wild_woods_playout(seed):
    final = check_playout(new_coop_woods(seed), 1 + seed % 4, seed, max_steps=4000,
                          apply_all_every=15, json_every=10, on_step=levels_change_by_rules)
    assert final.is_over and final.coop.result in ("won", "lost") and final.end_reason


@pytest.mark.parametrize("seed", [3000, 3001])
def test_random_wild_woods_checked_on_every_step(seed):
    assert check_playout(new_woods(seed), 2 + seed % 3, seed, max_steps=4000).is_over
    assert check_playout(new_coop_woods(seed), 1 + seed % 4, seed, max_steps=4000).is_over


@pytest.mark.parametrize("seed", range(0, 200, 40))
def test_same_seed_replays_the_same_wild_woods_game(seed):
    check_replay(new_woods(seed), 2 + seed % 3, seed, steps=150)
    check_replay(new_coop_woods(seed), 1 + seed % 4, seed, steps=150)


def test_foresters_play_wild_woods_to_the_summit_with_the_new_actions():
    kinds = set()
    for seed in range(4):
        n = 2 + seed % 3
        state = pangaea.new_game(players=n, seed=seed, wild_woods=True)
        final = play_game(state, [ForesterPlayer(seed * 5 + k) for k in range(n)],
                          on_step=lambda b, a, af: kinds.add(a.kind))
        assert final.is_over and "Sacred Mountain" in final.end_reason
    assert {"Add Treetop", "Expand Forest", "Play a Ritual Card"} <= kinds, kinds


def test_foresters_share_the_goal_in_co_op_wild_woods_and_can_win():
    results = []
    for seed in range(1, 4):
        n = 1 + seed % 4
        state = pangaea.new_game(players=n, seed=seed, mode="coop", wild_woods=True)
        final = play_game(state, [ForesterPlayer(seed * 5 + k) for k in range(n)])
        assert final.is_over and final.coop.result in ("won", "lost")
        assert final.winners() == (list(range(n)) if final.coop.result == "won" else [])
        results.append(final.coop.result)
    assert "won" in results
