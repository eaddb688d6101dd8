"""What a state of The Dawn of Pangaea keeps (or is handed by the action that made it) to
list and apply actions faster agrees with working it out afresh: the Most Trees holder by
the Trees, the empty Land Spaces, the active variants, the listing's targets, and the
players frozen back from a working copy.  A state read back from its save was handed
nothing, so its listing and the states its actions lead to are made the plain way."""

from dataclasses import replace
from functools import partial

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core import hexgrid
from pangaea_lab.core.engine import WorkingCopy
from pangaea_lab.core.testing import seeded_positions
from pangaea_lab.pangaea import board as board_module, rules, scoring, variant
from pangaea_lab.pangaea.actions import BlessVigorousSeed, TakeBackSeed
from pangaea_lab.pangaea.coop import CoopCopy, distances_to_mountain
from pangaea_lab.pangaea.draft import PlayerCopy
from pangaea_lab.pangaea.rituals import NOBODY
from pangaea_lab.pangaea.woods import WoodsCopy, _take_backs

MODES = {"full": {}, "family": {"family": True}, "coop": {"mode": "coop"},
         "woods": {"wild_woods": True}, "coop-woods": {"mode": "coop", "wild_woods": True}}


def positions(mode: str, seeds=range(2), every: int = 3):
    new_game = partial(pangaea.new_game, **MODES[mode])
    players = (1, 2) if mode.startswith("coop") else (2, 4)
    return seeded_positions(new_game, seeds=seeds, players=players, every=every)


def plain_empty_land(s):
    return [i for i in s.board.land if s.trees[i] == NOBODY and s.seeds[i] == NOBODY]


def plain_expand_targets(s, player):
    b = s.board
    near = {j for i in b.land if s.trees[i] == player for j in b.neighbours[i]}
    pairs = set(rules._second_seed_spaces(s, player))
    return sorted(j for j in near if b.terrain[j] == "land" and s.trees[j] == NOBODY
                  and (s.seeds[j] == NOBODY or j in pairs))


def plain_spirit_targets(s, player):
    taken = {i for p, i in enumerate(s.spirits) if p != player and i != NOBODY}
    for v in variant.registered():
        if v.is_on(s):
            taken.update(v.listing.barred_water(s))
    return [i for i in s.board.water if i not in taken]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_kept_and_handed_on_values_equal_fresh_ones(mode):
    handed = 0
    for s in positions(mode):
        kept = dict(s.__dict__)            # what the state was handed, before any question
        counts = [s.trees.count(p) for p in range(s.num_players)]
        holder = scoring.most_trees_holder(counts, s.edition.most_trees_minimum)
        assert rules.trees_holder(s) == holder == s.most_trees
        if "_trees_holder" in kept:
            assert kept["_trees_holder"] == holder
        if "_empty_land" in kept:
            assert list(kept["_empty_land"]) == plain_empty_land(s)
            handed += 1
        assert rules._empty_land(s) == plain_empty_land(s)
        plain_active = tuple(v for v in variant.registered() if v.is_on(s))
        if "_active" in kept:
            assert kept["_active"] == plain_active
        assert variant.active(s) == plain_active
        for p in range(s.num_players):
            assert rules._expand_targets(s, p) == plain_expand_targets(s, p)
            assert rules._spirit_targets(s, p) == plain_spirit_targets(s, p)
    assert handed > 10


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_state_read_back_from_its_save_lists_and_moves_alike(mode):
    checked = 0
    for s in positions(mode, seeds=range(1), every=7):
        if s.is_over:
            continue
        loaded = type(s).from_json(s.to_json())      # made afresh: nothing handed on
        listed = s.legal_actions()
        assert loaded.legal_actions() == listed
        assert [a.label for a in loaded.legal_actions()] == [a.label for a in listed]
        for action in listed[::3]:
            after = s.apply(action)
            again = loaded.apply(action)
            assert after == again and after.to_json() == again.to_json()
            assert hash(after) == hash(again)
            assert after.legal_actions() == again.legal_actions()
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_draft_frozen_back_shares_what_did_not_change(mode):
    for s in positions(mode, seeds=range(1), every=11):
        d = rules.Draft(s, variant.active(s))
        for p in range(s.num_players):
            d.players[p].hand     # read, not changed
        new = d.freeze()
        assert new == s and new.players is s.players
        assert new.trees is s.trees and new.decisions == s.decisions
        # the generic working copy (every field looked at) gives the same state
        plain = WorkingCopy(s, rules.Draft.THAW)
        assert WorkingCopy.freeze(plain) is s


def test_a_player_frozen_back_is_the_same_object_when_unchanged():
    s = pangaea.new_game(players=3, seed=2)
    for q in s.players:
        d = PlayerCopy(q)
        d.hand, d.chains, d.activated, d.weather
        assert d.freeze() is q
        d = PlayerCopy(q)
        d.hand, d.weather
        d.seeds -= 1
        d.chains.append(["L01"])
        new = d.freeze()
        assert new.seeds == q.seeds - 1 and new.chains == (*q.chains, ("L01",))
        assert new.hand is q.hand and new.weather is q.weather


def test_a_coop_record_copied_part_by_part_freezes_like_a_whole_copy():
    for s in positions("coop", seeds=range(1), every=9):
        record = s.coop
        d = CoopCopy(record)
        d.scourged, d.moon_stacks, d.shadow, d.paired, d.ancient_steps   # read only
        assert d.freeze() is record
        d = CoopCopy(record)
        d.ancient_steps[0] += 1
        d.scourged.add(-5)
        d.moon_stacks.append(["Dance"])
        d.result = "won"
        whole = replace(record, ancient_steps=(record.ancient_steps[0] + 1,
                                               *record.ancient_steps[1:]),
                        scourged=tuple(sorted({*record.scourged, -5})),
                        moon_stacks=(*record.moon_stacks, ("Dance",)), result="won")
        assert set(d._opened) == {"ancient_steps", "scourged",
                                  "moon_stacks"}   # the other parts were never copied
        new = d.freeze()
        assert new == whole and new.shadow_bag is record.shadow_bag


def test_the_neighbours_of_a_laid_continent_are_those_of_the_hex_grid():
    for players in (2, 3, 4):
        for seed in range(3):
            b = pangaea.new_game(players=players, seed=seed).board
            assert b.neighbours == tuple(
                tuple(b.index[n] for n in hexgrid.neighbours(c) if n in b.index)
                for c in b.cells)
            made = rules._made(b)
            assert made.land_near == tuple(
                tuple(j for j in near if b.terrain[j] == "land") for near in b.neighbours)
            assert made.vigorous == [BlessVigorousSeed(c) for c in b.cells]


def test_the_kept_mountain_layout_is_left_as_a_fresh_one_by_the_continents_laid_on_it():
    ed = pangaea.load_edition()
    shape = tuple(ed.land_shape) + tuple(ed.water_shape)
    for players in (2, 4):
        for seed in ("kept-mountain", 1):
            board_module._build.__wrapped__(ed, players, seed)   # laid afresh, not cached
    kept = board_module._mountain_laid(ed.mountain_radius, shape)
    fresh = board_module._Layout(ed.mountain_radius, shape)
    for name in ("kept", "tags", "blocked", "frontier", "overlap", "reach", "near_mountain",
                 "doubled"):
        assert getattr(kept, name) == getattr(fresh, name), name


def test_distances_to_the_mountain_are_hex_grid_distances():
    for players in (1, 2, 4):
        b = pangaea.new_game(players=players, seed=players, mode="coop").board
        assert distances_to_mountain(b) == {
            i: min(hexgrid.distance(c, m) for m in b.mountain) for i, c in enumerate(b.cells)}


def test_a_woods_record_copied_part_by_part_freezes_like_a_whole_copy():
    checked = 0
    for s in positions("woods", seeds=range(1), every=13):
        record = s.woods
        d = WoodsCopy(record)
        d.storm_tiles, d.grown_tall, d.treetops, d.to_return      # read only
        assert d.freeze() is record
        d = WoodsCopy(record)
        d.storm_tiles[999] = ("Sun", 2)
        d.grown_tall = 5
        whole = replace(record, storm_tiles=tuple(sorted((*record.storm_tiles, (999, "Sun", 2)))),
                        grown_tall=5)
        assert d._opened.keys() == {"storm_tiles"}   # the other parts were never copied
        new = d.freeze()
        assert new == whole and new.seed_stacks is record.seed_stacks
        checked += 1
    assert checked > 3


def test_seed_take_backs_made_once_per_board_equal_new_ones():
    b = pangaea.new_game(players=3, seed=4, wild_woods=True).board
    assert _take_backs(b) == [TakeBackSeed(c) for c in b.cells]
    assert all(a.label == "" for a in _take_backs(b))
