"""What Wild Woods keeps between positions to list actions faster (the Treetop actions per
slots and payment means, the reach of a player's Trees per Trees and levels, a board's
Flying Seed and Sow Seeds actions) agrees with working it out afresh, position after
position of seeded games."""

from functools import partial

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.testing import seeded_positions
from pangaea_lab.pangaea import woods
from pangaea_lab.pangaea.actions import AddTreetop, BlessStrongCanopy
from test_pangaea_caches import same_actions

MODES = {"woods": {"wild_woods": True}, "coop-woods": {"mode": "coop", "wild_woods": True}}


def positions(mode: str, seeds=range(3), every: int = 2):
    new_game = partial(pangaea.new_game, **MODES[mode])
    players = (1, 2) if mode.startswith("coop") else (2, 3, 4)
    return seeded_positions(new_game, seeds=seeds, players=players, every=every)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_treetop_actions_made_once_equal_fresh_ones(mode):
    checked = 0
    for s in positions(mode):
        for p in range(s.num_players):
            for cls in (AddTreetop, BlessStrongCanopy):
                checked += same_actions(woods.treetop_actions(s, p, cls),
                                        woods.treetop_actions_afresh(s, p, cls))
    assert checked > 200


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_kept_reach_of_a_players_trees_is_their_range(mode):
    checked = 0
    for s in positions(mode):
        for p in range(s.num_players):
            mine = tuple(i for i in s.board.land if s.trees[i] == p)
            tops = tuple(s.woods.treetops[i] for i in mine)
            assert woods._reach(s.board, mine, tops) == tuple(sorted(woods.in_range(s, p)))
            checked += len(mine)
    assert checked > 200


def test_a_boards_seed_actions_made_once_equal_new_ones():
    for s in positions("woods", seeds=range(1), every=50):
        made = woods._made_seeds(s.board)
        for i, c in enumerate(s.board.cells):
            assert made.flying[i] == woods.FlyingSeed(c)
            assert made.flying[i].label == woods.FlyingSeed(c).label
            for k in range(1, made.ROW):
                assert made.sow[i][k] == woods.SowSeeds(c, k)
                assert made.sow[i][k].label == woods.SowSeeds(c, k).label
            assert made.sowing(i, 9) == woods.SowSeeds(c, 9)
            assert made.bless[i] == woods.BlessFlyingSeed(c)
            assert made.bless[i].label == woods.BlessFlyingSeed(c).label


def plain_seed_free_actions(s, p):
    """Wild Woods take-backs and Flying Seed Blessings, listed plainly."""
    ps, b = s.players[p], s.board
    out = [woods.TakeBackSeed(b.cells[i]) for i in b.land if woods.may_take_back(s, p, i)]
    if ps.blessings[woods.FLY] and ps.seeds:
        for i in b.land:
            need = woods.flying_need(s, p, i) if s.trees[i] == -1 else 0
            if need == 1:
                out.append(woods.BlessFlyingSeed(b.cells[i]))
            elif 1 < need <= min(ps.blessings[woods.FLY], ps.seeds):
                out.append(woods.BlessFlyingSeed(b.cells[i], need))
    return out + woods.free_actions(s, p)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_seed_free_actions_equal_plain_ones(mode):
    checked = blessed = 0
    for s in positions(mode, every=1):
        for p in range(s.num_players):
            listed = woods.seed_free_actions(s, p)
            checked += same_actions(listed, plain_seed_free_actions(s, p))
            blessed += sum(isinstance(a, woods.BlessFlyingSeed) for a in listed)
    assert checked > 200 and blessed > 20
