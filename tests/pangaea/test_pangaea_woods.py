"""The Wild Woods expansion: one or more tests per rule, each naming the rulebook section (or
the labelled assumption 'ww-...' of the edition data) it checks.

Most positions use the strip board of conftest.py, where every space is known:
land (0,0) Sun, (1,0) Rain, (2,0) Snow, (3,0) Wind, (4,0) Sun, (5,0) Rain; water (0,1)..(4,1);
land (-1,2) Wind, (0,2) Snow, (1,2) Sun, (2,2) Rain.  Red is player 0, Blue player 1.
Each space of that board is its own Biome Tile, so the Elemental Storm tests use the seeded
continent instead, where a tile has 3 Land Spaces and 2 Water Spaces.

The Player Board (assumption in the edition data): slot costs 0, 1, 1, 2, 2, 3; Blessings on
slots 1 and 2; extra Seed 0 held back by slots 0 and 1, Seed 1 by slots 2 and 3, Seed 2 by
slots 4 and 5; an empty slot 3 scores 2 and an empty slot 5 scores 3.
"""

import json
from collections import Counter
from dataclasses import replace

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.errors import IllegalAction, InvalidData, InvalidSetup
from pangaea_lab.pangaea import (BlessFlyingSeed, BlessVigorousSeed, DrawFromDeck, EndTurn,
                                 ExpandForest, FlyingSeed, GameState, MoveShadow, PlaceScourge,
                                 PlayCreature, PlayLand, SpiritGrowth, TakeBackSeed, woods)
from pangaea_lab.pangaea.actions import (AddTreetop, BlessForesight, BlessStrongCanopy,
                                         MoreSeeds, PlaceTreetop, ReturnTreetop, SowSeeds,
                                         StopSowing)
from pangaea_lab.pangaea.edition import ANCIENTS, BLESSING_KINDS
from pangaea_lab.pangaea.state import Pending

from conftest import card_with, do, rejected, strip_board

WOODS_KINDS = ("Strong Canopy", "Foresight")


# ----- helpers ---------------------------------------------------------------------------------


def wild(players=2, seed=5, storms=False, family=False):
    """A Wild Woods game on the strip board, Red to take the first action."""
    s = pangaea.new_game(players=players, seed=seed, board=strip_board(), wild_woods=True,
                         storms=storms, family=family)
    return replace(s, first_player=0, turn_player=0)


def coop(players=1, difficulty="standard", seed=5):
    """Return of the Ancients with Wild Woods on the strip board, Red to move."""
    s = pangaea.new_game(players=players, seed=seed, board=strip_board(), mode="coop",
                         difficulty=difficulty, wild_woods=True, storms=False)
    return replace(s, first_player=0, turn_player=0)



def at(s, cell):
    return s.board.index[cell]


def level(s, cell):
    return woods.level(s, at(s, cell))


def stack(s, cell):
    return s.woods.seed_stacks[at(s, cell)]


def weather_of(s, p, biome):
    return s.players[p].weather[s.edition.biomes.index(biome)]


def blessing(s, p, kind):
    return s.players[p].blessings[BLESSING_KINDS.index(kind)]


def give(s, p, kind, n=1):
    """Hand player ``p`` Wild Woods Blessings from the box (``arranged`` only draws from the
    base Blessing bag, which never holds Strong Canopy or Foresight)."""
    box = list(s.woods.woods_box)
    for _ in range(n):
        box.remove(kind)
    ps = s.players[p]
    got = list(ps.blessings)
    got[BLESSING_KINDS.index(kind)] += n
    players = list(s.players)
    players[p] = replace(ps, blessings=tuple(got))
    out = s.edited(players=tuple(players), woods_box=tuple(box))
    out.check_invariants()
    return out


def sow_cells(s):
    return sorted({a.cell for a in s.legal_actions() if type(a) is SowSeeds})


# ----- 1. Game Setup ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_player_boards(players):
    """Game Setup (Wild Woods) steps 1-2: a board with 6 Treetops and 3 locked extra Seeds;
    Blessings from the 20 Wild Woods Blessings lie on the two marked slots and never on the
    continent."""
    s = pangaea.new_game(players=players, seed=9, wild_woods=True)
    ed = s.edition
    assert (s.woods is not None) and len(s.woods.player_boards) == players
    board_kinds = []
    for p, pb in enumerate(s.woods.player_boards):
        assert pb.slots == (True,) * 6
        assert pb.unlocked == (False,) * 3 and pb.locked() == 3
        assert pb.given_up == 0 and pb.owed == 0
        assert [k for k, kind in enumerate(pb.blessings) if kind] == [1, 2]
        board_kinds += [kind for kind in pb.blessings if kind]
        assert s.players[p].seeds == 2            # the 3 extra Seeds are still locked
    assert s.woods.treetops == (0,) * len(s.board)
    # the boards and the box share exactly the 20 Wild Woods Blessings (4 of each of 5 kinds)
    assert Counter(board_kinds + list(s.woods.woods_box)) == Counter(
        {k: n for k, n in ed.woods.blessings if n})
    assert sum(n for _, n in ed.woods.blessings) == 20
    # ... while the continent and the bag hold the base 24, without the new kinds
    on_continent = [k for k in s.board_blessings if k]
    assert Counter(on_continent + list(s.blessing_bag)) == Counter(dict(ed.blessings))
    assert not set(WOODS_KINDS) & set(on_continent + list(s.blessing_bag))
    s.check_invariants()
    assert GameState.from_json(s.to_json()) == s


def test_setup_storms_in_each_ritual_deck():
    """Game Setup (Wild Woods) step 3: with Elemental Storms, 2 Storm cards are shuffled into
    each Ritual deck after the hands and the market are dealt; without them there are none."""
    s = pangaea.new_game(players=3, seed=4, wild_woods=True, storms=True)
    assert s.woods.storms
    land_storms = [c for c in s.land_deck if woods.is_storm(c)]
    creature_storms = [c for c in s.creature_deck if woods.is_storm(c)]
    assert len(land_storms) == 2 and len(creature_storms) == 2
    assert sorted(land_storms + creature_storms) == sorted(woods.storm_ids(s.edition))
    assert not any(woods.is_storm(c) for c in s.market)
    assert not any(woods.is_storm(c) for ps in s.players for c in ps.hand)
    assert [s.card(c).kind for c in s.market] == ["land", "land", "creature", "creature"]
    s.check_invariants()
    assert GameState.from_json(s.to_json()) == s

    calm = pangaea.new_game(players=3, seed=4, wild_woods=True, storms=False)
    assert not calm.woods.storms
    assert not any(woods.is_storm(c) for c in calm.land_deck + calm.creature_deck)
    calm.check_invariants()
    assert GameState.from_json(calm.to_json()) == calm


def test_setup_in_co_op_keeps_foresight_in_the_box():
    """Game Setup (assumption 'ww-board-blessings'): nobody holds Hand Rituals in co-op, so
    no Foresight goes on a Player Board."""
    for seed in range(4):
        s = pangaea.new_game(players=4, seed=seed, mode="coop", wild_woods=True)
        assert all("Foresight" not in pb.blessings for pb in s.woods.player_boards)
        assert s.woods.woods_box.count("Foresight") == 4
        s.check_invariants()
        assert GameState.from_json(s.to_json()) == s


def test_setup_player_counts():
    """Wild Woods: 2-4 players (1-4 with Return of the Ancients)."""
    with pytest.raises(InvalidSetup, match="2 to 4"):
        pangaea.new_game(players=1, wild_woods=True)
    assert pangaea.new_game(players=1, seed=1, mode="coop", wild_woods=True).woods is not None


# ----- 2. Add Treetop --------------------------------------------------------------------------


def test_add_treetop_pays_different_weather_types():
    """Add Treetop: a 2-token cost is paid with two different types, never twice the same."""
    s = wild().arranged(trees={(1, 0): 0}, weather={0: {"Sun": 2, "Rain": 1}})
    offered = {(a.pay, a.wild) for a in s.legal_actions()
               if type(a) is AddTreetop and a.slot == 3}
    assert offered == {(("Sun", "Rain"), 0)}
    rejected(s, AddTreetop(3, ("Sun", "Sun")), "different types")
    after = do(s, AddTreetop(3, ("Sun", "Rain")))
    assert weather_of(after, 0, "Sun") == 1 and weather_of(after, 0, "Rain") == 0
    assert after.weather_supply[after.edition.biomes.index("Rain")] == \
        s.weather_supply[s.edition.biomes.index("Rain")] + 1
    assert after.woods.player_boards[0].slots == (True, True, True, False, True, True)
    assert level(after, (1, 0)) == 2 and after.actions_taken == 1
    after.check_invariants()


def test_add_treetop_cost_zero_slot_is_free():
    """Add Treetop: the 0-cost slot takes nothing."""
    s = wild().arranged(trees={(1, 0): 0})
    after = do(s, AddTreetop(0))
    assert after.players[0].weather == s.players[0].weather
    assert level(after, (1, 0)) == 2 and not after.woods.player_boards[0].slots[0]
    rejected(s, AddTreetop(1), "costs 1")       # slot 1 is not free, and Red holds nothing


def test_wild_weather_blessing_stands_in_for_a_token():
    """Add Treetop (assumption 'ww-wild-weather-treetop'): a Wild Weather Blessing pays one
    token of the cost."""
    s = wild().arranged(trees={(1, 0): 0}, weather={0: {"Sun": 1, "Rain": 1}},
                        blessings={0: {"Wild Weather": 1}})
    after = do(s, AddTreetop(5, ("Sun", "Rain"), 1))
    assert after.players[0].weather == (0, 0, 0, 0)
    assert blessing(after, 0, "Wild Weather") == 0 and "Wild Weather" in after.blessing_discard
    assert not after.woods.player_boards[0].slots[5] and level(after, (1, 0)) == 2
    rejected(s.arranged(blessings={0: {}}), AddTreetop(5, ("Sun", "Rain"), 1), "Wild Weather")


def test_the_blessing_on_a_slot_goes_to_the_player():
    """Add Treetop: a Blessing Token attached to the slot is added to the player's supply."""
    s = wild().arranged(trees={(1, 0): 0}, weather={0: {"Snow": 1}})
    kind = s.woods.player_boards[0].blessings[1]
    assert kind
    after = do(s, AddTreetop(1, ("Snow",)))
    assert blessing(after, 0, kind) == blessing(s, 0, kind) + 1
    assert after.woods.player_boards[0].blessings[1] == "" and not after.woods.player_boards[0].slots[1]
    after.check_invariants()


def test_no_tree_above_level_three():
    """Add Treetop: a Tree has at most two Treetops (level 3); the action is offered only when
    a Tree can still take one."""
    s = wild().arranged(trees={(1, 0): 0}, treetops={(1, 0): 2}, weather={0: {"Sun": 1}})
    assert level(s, (1, 0)) == 3
    assert not any(type(a) is AddTreetop for a in s.legal_actions())
    rejected(s, AddTreetop(2, ("Sun",)), "at most 2 Treetops")
    # a second, lower Tree takes it without asking: the level-3 Tree is never a choice
    two = s.arranged(trees={(4, 0): 0})
    after = do(two, AddTreetop(2, ("Sun",)))
    assert after.pending is None
    assert level(after, (4, 0)) == 2 and level(after, (1, 0)) == 3


def test_add_treetop_needs_a_tree():
    """Add Treetop: the Treetop goes on one of your Trees."""
    s = wild()
    assert not s.trees_of(0)
    assert not any(type(a) is AddTreetop for a in s.legal_actions())
    rejected(s, AddTreetop(0), "None of your Trees")


def test_choose_the_tree_when_several_qualify():
    """Add Treetop: with several Trees the player chooses which one grows (a decision)."""
    s = wild().arranged(trees={(1, 0): 0, (4, 0): 0, (2, 2): 1})
    after = do(s, AddTreetop(0))
    assert after.pending.kind == "raise" and after.current_player == 0
    assert set(after.legal_actions()) == {PlaceTreetop((1, 0)), PlaceTreetop((4, 0))}
    rejected(after, EndTurn(), "decision is waiting")
    rejected(after, PlaceTreetop((2, 2)), "not one of the choices")   # Blue's Tree
    placed = do(after, PlaceTreetop((4, 0)))
    assert level(placed, (4, 0)) == 2 and level(placed, (1, 0)) == 1
    assert placed.pending is None and placed.actions_taken == 1
    placed.check_invariants()


def test_unknown_weather_in_a_payment_is_an_illegal_action():
    """Add Treetop: a payment naming no weather of the game is refused like any bad payment
    (not a crash)."""
    s = wild().arranged(trees={(1, 0): 0}, weather={0: {"Sun": 1}})
    rejected(s, AddTreetop(1, ("Moon",)), "Add Treetop|costs")


# ----- 3. Unlocking extra Seeds ----------------------------------------------------------------


def test_emptying_both_slots_unlocks_a_seed_for_good():
    """Add Treetop: once every Treetop tied to an extra Seed is taken, the Seed joins the
    supply, and it stays there even when Treetops go back to those slots."""
    s = wild()
    cid = card_with(s, ["Sun", "Snow"])
    s = s.arranged(trees={(0, 0): 0, (1, 0): 1, (2, 0): 0}, weather={0: {"Wind": 1}},
                   hands={0: [cid]})
    s = do(do(s, AddTreetop(0)), PlaceTreetop((0, 0)))
    assert s.players[0].seeds == 2 and s.woods.player_boards[0].unlocked == (False, False, False)
    s = do(do(s, AddTreetop(1, ("Wind",))), PlaceTreetop((0, 0)))
    assert s.woods.player_boards[0].unlocked == (True, False, False)
    assert s.players[0].seeds == 3 and level(s, (0, 0)) == 3
    s.check_invariants()
    # next turn: a Land Ritual lowers the Tree and a Treetop goes back to slot 0
    s = replace(s, actions_taken=0)
    s = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    s = do(s, DrawFromDeck("land"))
    assert s.pending.kind == "treetop"
    s = do(s, ReturnTreetop(0))
    assert s.woods.player_boards[0].slots[:2] == (True, False)
    assert s.woods.player_boards[0].unlocked == (True, False, False)
    assert s.players[0].seeds == 3
    s.check_invariants()


# ----- 4. Expand Forest (range, several spaces) ------------------------------------------------


@pytest.mark.parametrize("tops, reach", [
    (0, [(0, 0), (2, 0)]),
    (1, [(-1, 2), (0, 0), (0, 2), (1, 2), (2, 0), (3, 0)]),
    (2, [(-1, 2), (0, 0), (0, 2), (1, 2), (2, 0), (2, 2), (3, 0), (4, 0)]),
])
def test_range_grows_with_the_tree_level(tops, reach):
    """Expand Forest (Wild Woods): level 1 reaches adjacent Land Spaces, level 2 up to 2 spaces
    away, level 3 up to 3, even across water ((1,2) lies beyond the water (1,1))."""
    s = wild().arranged(trees={(1, 0): 0}, treetops={(1, 0): tops} if tops else {})
    assert sow_cells(s) == reach
    assert sorted(s.board.cells[i] for i in woods.in_range(s, 0)) == reach


def test_out_of_range_is_refused():
    """Expand Forest (Wild Woods): a level-1 Tree does not reach two spaces away."""
    s = wild().arranged(trees={(1, 0): 0})
    rejected(s, SowSeeds((3, 0), 1), "out of range")
    rejected(s, SowSeeds((1, 2), 1), "out of range")     # across the water needs level 2


def test_sowing_several_spaces_in_one_action():
    """Expand Forest (Wild Woods): all Seeds in supply (max 5) may be sown on the spaces in
    range, one space after the other, in a single action."""
    s = wild().arranged(trees={(1, 0): 0, (-1, 2): 0, (4, 0): 0},
                        treetops={(1, 0): 2, (-1, 2): 2, (4, 0): 2})
    assert s.players[0].seeds == 5 and s.woods.player_boards[0].unlocked == (True,) * 3
    assert max(a.count for a in s.legal_actions() if type(a) is SowSeeds) == 5
    rejected(s, SowSeeds((0, 0), 6), "only 5 Seed")
    first = do(s, SowSeeds((0, 0), 2))
    assert first.pending.kind == "expand" and first.actions_taken == 1
    assert StopSowing() in first.legal_actions()
    rejected(first, MoreSeeds((0, 0), 1), "not one of the choices")   # no space twice
    rejected(first, FlyingSeed((5, 0)), "decision is waiting")
    second = do(first, MoreSeeds((2, 0), 1))
    third = do(second, MoreSeeds((3, 0), 2))
    assert third.pending is None and third.players[0].seeds == 0 and third.actions_taken == 1
    assert [stack(third, c)[0] for c in [(0, 0), (2, 0), (3, 0)]] == [2, 1, 2]
    third.check_invariants()
    stopped = do(second, StopSowing())
    assert stopped.pending is None and stopped.players[0].seeds == 2
    assert stopped.actions_taken == 1
    # all five on one space at once
    one = do(s, SowSeeds((0, 2), 5))
    assert one.pending is None and stack(one, (0, 2)) == (5, 0)


def test_a_tree_is_never_a_sowing_target():
    """Expand Forest (Wild Woods): Seeds go on Land Spaces without a Tree."""
    s = wild().arranged(trees={(1, 0): 0, (2, 0): 1, (0, 0): 0})
    assert (2, 0) not in sow_cells(s) and (0, 0) not in sow_cells(s)
    rejected(s, SowSeeds((2, 0), 1), "holds a Tree")
    rejected(s, SowSeeds((0, 0), 1), "holds a Tree")
    rejected(s, SowSeeds((1, 1), 1), "not a Land Space")


def test_base_expand_forest_is_replaced():
    """Expand Forest (Wild Woods): the base game's ExpandForest(cells) is refused with a
    pointer to the Wild Woods action."""
    s = wild().arranged(trees={(1, 0): 0})
    assert not any(isinstance(a, ExpandForest) for a in s.legal_actions())
    rejected(s, ExpandForest(((0, 0),)), "SowSeeds")


# ----- 5. Seed Competition ---------------------------------------------------------------------


def test_flying_seed_onto_other_seeds_needs_the_strict_majority():
    """Seed Competition: Seeds join an opponent's only if their owner then holds more Seeds
    there; Flying Seed Blessings may join a Flying Seed to get there (assumption
    'ww-flying-together')."""
    s = wild().arranged(seeds={(0, 0): 1}, blessings={0: {"Flying Seed": 1}})
    rejected(s, FlyingSeed((0, 0)), "more Seeds there than anyone")
    rejected(s, BlessFlyingSeed((0, 0)), "more Seeds there than anyone")
    assert FlyingSeed((0, 0), 1) in s.legal_actions()
    after = do(s, FlyingSeed((0, 0), 1))
    assert stack(after, (0, 0)) == (2, 1) and after.seeds[at(after, (0, 0))] == 0
    assert after.players[0].seeds == 0 and blessing(after, 0, "Flying Seed") == 0
    used = after.blessing_discard.count("Flying Seed") - s.blessing_discard.count("Flying Seed")
    assert used == 1
    assert after.actions_taken == 1
    after.check_invariants()


def test_flying_seed_may_not_tie():
    """Seed Competition: never the same number of Seeds of two colours on a space."""
    s = wild().arranged(seeds={(0, 0): {1: 2}}, blessings={0: {"Flying Seed": 1}})
    assert stack(s, (0, 0)) == (0, 2)
    rejected(s, FlyingSeed((0, 0), 1), "tie")          # 2 against 2
    rejected(s, FlyingSeed((0, 0)), "tie")


def test_two_flying_seed_actions_together_outnumber_another_colour():
    """Seed Competition: several Flying Seed actions can be used to outnumber another colour's
    Seeds.  One Seed alone would tie, so both actions of the turn land their Seeds at once
    (assumption 'ww-flying-together')."""
    s = wild().arranged(seeds={(0, 0): 1})
    assert blessing(s, 0, "Flying Seed") == 0
    rejected(s, FlyingSeed((0, 0)), "tie")
    assert FlyingSeed((0, 0), 0, 2) in s.legal_actions()
    after = do(s, FlyingSeed((0, 0), 0, 2))
    assert stack(after, (0, 0)) == (2, 1) and after.seeds[at(after, (0, 0))] == 0
    assert after.actions_taken == 2 and after.players[0].seeds == 0
    after.check_invariants()


def test_flying_seed_actions_and_blessings_join_only_with_actions_left():
    """Seed Competition: with one action left, only Blessings can join that action; a second
    action that is already used cannot."""
    s = wild().arranged(trees={(1, 0): 0}, treetops={(1, 0): 2}, seeds={(0, 0): {1: 2}})
    s = s.arranged(blessings={0: {"Flying Seed": 1}})
    assert s.players[0].seeds == 3 and blessing(s, 0, "Flying Seed") == 1
    assert FlyingSeed((0, 0), 1, 2) in s.legal_actions()       # 3 Seeds against 2
    one_left = replace(s, actions_taken=1)
    assert not any(type(a) is FlyingSeed and a.cell == (0, 0) for a in one_left.legal_actions())
    rejected(one_left, FlyingSeed((0, 0), 1, 2), "only 1 action")
    rejected(one_left, FlyingSeed((0, 0), 1), "3 needed")
    after = do(s, FlyingSeed((0, 0), 1, 2))
    assert stack(after, (0, 0)) == (3, 2) and after.actions_taken == 2
    assert blessing(after, 0, "Flying Seed") == 0
    after.check_invariants()


def test_several_flying_seed_blessings_together_win_a_space():
    """Seed Competition: Flying Seed Blessings are Flying Seed actions too (played free); two
    of them together outnumber a single Seed of another colour."""
    s = wild().arranged(seeds={(0, 0): 1}, blessings={0: {"Flying Seed": 2}})
    rejected(s, BlessFlyingSeed((0, 0)), "tie")
    assert BlessFlyingSeed((0, 0), 2) in s.legal_actions()
    after = do(s, BlessFlyingSeed((0, 0), 2))
    assert stack(after, (0, 0)) == (2, 1) and after.actions_taken == 0
    assert blessing(after, 0, "Flying Seed") == 0
    after.check_invariants()


def test_flying_seeds_land_together_only_as_many_as_needed():
    """Seed Competition (assumption 'ww-flying-together'): Seeds land together only to win a
    space, exactly as many as needed; more can follow one at a time."""
    s = wild().arranged(blessings={0: {"Flying Seed": 2}})
    empty = next(c for c in s.board.cells if s.board.terrain[s.board.index[c]] == "land"
                 and s.seeds[s.board.index[c]] == -1 and s.trees[s.board.index[c]] == -1)
    rejected(s, FlyingSeed(empty, 0, 2), "is enough on")
    rejected(s, BlessFlyingSeed(empty, 2), "is enough on")
    rejected(s, FlyingSeed(empty, 0, 3), "'actions' is 1, or 2")
    once = do(s, FlyingSeed(empty))
    twice = do(once, FlyingSeed(empty))          # the holder adds to their own Seeds
    assert stack(twice, empty)[0] == 2 and twice.actions_taken == 2


def test_several_flying_seeds_together_belong_to_wild_woods():
    """Base game: every Flying Seed places 1 Seed on an empty space."""
    s = pangaea.new_game(players=2, seed=5).arranged(blessings={0: {"Flying Seed": 2}})
    empty = next(c for c in s.board.cells if s.board.terrain[s.board.index[c]] == "land"
                 and s.seeds[s.board.index[c]] == -1 and s.trees[s.board.index[c]] == -1)
    rejected(s, FlyingSeed(empty, 0, 2), "only in Wild Woods")
    rejected(s, BlessFlyingSeed(empty, 2), "only in Wild Woods")


def test_sowing_onto_other_seeds_needs_the_strict_majority():
    """Seed Competition with Expand Forest: sowing on an opponent's Seeds must win the space."""
    s = wild().arranged(trees={(1, 0): 0}, treetops={(1, 0): 2}, seeds={(0, 0): {1: 2}})
    assert s.players[0].seeds == 3
    counts = [a.count for a in s.legal_actions() if type(a) is SowSeeds and a.cell == (0, 0)]
    assert counts == [3]
    rejected(s, SowSeeds((0, 0), 2), "strict majority")   # a tie
    rejected(s, SowSeeds((0, 0), 1), "strict majority")
    after = do(s, SowSeeds((0, 0), 3))
    assert stack(after, (0, 0)) == (3, 2) and after.seeds[at(after, (0, 0))] == 0
    after.check_invariants()


def test_growth_returns_every_seed_and_only_the_majority_grows():
    """Seed Competition: a Growth returns all Seeds of the space to their owners; only the
    player with the most Seeds grows a Tree."""
    s = wild().arranged(seeds={(0, 0): {0: 2, 1: 1}})
    after = do(s, SpiritGrowth((0, 1)))            # (0,1) touches (0,0)
    assert after.trees_of(0) == [(0, 0)] and after.trees_of(1) == []
    assert stack(after, (0, 0)) == (0, 0)
    assert after.players[0].seeds == 2 and after.players[1].seeds == 2
    assert after.players[0].trees == 9 and after.players[1].trees == 10
    assert weather_of(after, 0, "Sun") == 1 and sum(after.players[1].weather) == 0
    after.check_invariants()


def test_vigorous_seed_on_a_shared_space_grows_the_majority():
    """Seed Competition: a Blessing (Vigorous Seed) grows the space the same way."""
    s = wild().arranged(seeds={(5, 0): {0: 1, 1: 2}}, blessings={0: {"Vigorous Seed": 1}})
    after = do(s, BlessVigorousSeed((5, 0)))
    assert after.trees_of(1) == [(5, 0)] and after.trees_of(0) == []
    assert after.players[0].seeds == 2 and after.players[1].seeds == 2
    assert after.actions_taken == 0
    after.check_invariants()


def test_taking_back_a_seed_may_not_leave_a_tie():
    """Seed Competition (assumption 'ww-take-back'): no Seed comes back if that leaves two
    colours tied."""
    s = wild().arranged(seeds={(0, 0): {0: 2, 1: 1}})
    rejected(s, TakeBackSeed((0, 0)), "tied")
    blue = replace(s, turn_player=1)
    assert TakeBackSeed((0, 0)) in blue.legal_actions()
    assert stack(do(blue, TakeBackSeed((0, 0))), (0, 0)) == (2, 0)
    # a third Seed of Red's comes from the board (two Treetops taken unlock one)
    three = wild().arranged(trees={(4, 0): 0}, treetops={(4, 0): 2}, seeds={(0, 0): {0: 3, 1: 1}})
    back = do(three, TakeBackSeed((0, 0)))
    assert stack(back, (0, 0)) == (2, 1) and back.players[0].seeds == three.players[0].seeds + 1


# ----- 6. Play Ritual Card (Wild Woods): Land Rituals ------------------------------------------


def test_land_ritual_lowers_own_trees_and_pays_higher_trees():
    """Play Ritual Card (Wild Woods): higher-level Trees on the path give their owners 1
    Weather Token of their space each; then the player's Trees there go down a level (a
    level-1 Tree back to the supply, a higher one gives a Treetop back to the board)."""
    s = wild()
    cid = card_with(s, ["Sun", "Snow"])
    s = s.arranged(trees={(0, 0): 0, (1, 0): 1, (2, 0): 0}, treetops={(0, 0): 1, (1, 0): 2},
                   hands={0: [cid]})
    after = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    assert after.trees_of(0) == [(0, 0)] and level(after, (0, 0)) == 1
    assert after.players[0].trees == 9
    assert after.woods.player_boards[0].slots == (True,) * 6    # the only empty slot took it back
    assert level(after, (1, 0)) == 3                     # Blue's Tree is not lowered
    assert weather_of(after, 0, "Sun") == 1              # Red's level-2 Tree on Sun
    assert weather_of(after, 1, "Rain") == 1             # Blue's level-3 Tree on Rain
    assert weather_of(after, 0, "Snow") == 0             # (2,0) was only level 1
    assert not any(d.kind == "treetop" for d in after.decisions)
    after.check_invariants()


def test_returned_treetop_slot_is_chosen_when_it_matters():
    """Play Ritual Card (Wild Woods): the owner puts a returned Treetop on an empty slot of
    their choice."""
    s = wild()
    cid = card_with(s, ["Sun", "Snow"])
    s = s.arranged(trees={(0, 0): 0, (1, 0): 0, (2, 0): 0}, treetops={(0, 0): 2, (2, 0): 1},
                   hands={0: [cid]})
    assert s.woods.player_boards[0].slots == (False, False, False, True, True, True)
    after = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    # (0,0) level 3 -> 2, (1,0) level 1 -> back to the supply, (2,0) level 2 -> 1
    assert [level(after, c) for c in [(0, 0), (1, 0), (2, 0)]] == [2, 0, 1]
    assert after.trees_of(0) == [(0, 0), (2, 0)]
    after.check_invariants()
    after = do(after, DrawFromDeck("land"))
    assert after.pending.kind == "treetop" and after.pending.amount == 2
    assert set(after.legal_actions()) == {ReturnTreetop(0), ReturnTreetop(1), ReturnTreetop(2)}
    rejected(after, ReturnTreetop(4), "not one of the choices")     # slot 4 is full
    once = do(after, ReturnTreetop(2))
    assert once.pending.kind == "treetop" and once.pending.amount == 1
    assert set(once.legal_actions()) == {ReturnTreetop(0), ReturnTreetop(1)}
    done = do(once, ReturnTreetop(0))
    assert done.pending is None
    assert done.woods.player_boards[0].slots == (True, False, True, True, True, True)
    done.check_invariants()


def test_thorondal_protects_the_tree_from_lowering():
    """Play Ritual Card (Wild Woods): a Tree under Thorondal keeps its level."""
    s = wild()
    cid = card_with(s, ["Sun", "Snow"])
    s = s.arranged(trees={(0, 0): 0, (1, 0): 0, (2, 0): 0}, treetops={(0, 0): 1},
                   hands={0: [cid]}, ancients={"Thorondal": (0, 0)})
    after = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    assert level(after, (0, 0)) == 2 and after.trees_of(0) == [(0, 0)]
    assert not after.woods.player_boards[0].slots[0]
    assert weather_of(after, 0, "Sun") == 1      # a higher Tree still earns its token
    protected_l1 = s.arranged(treetops={(0, 0): 0}, ancients={"Thorondal": (1, 0)})
    after = do(protected_l1, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    assert after.trees_of(0) == [(1, 0)]


def test_final_round_keeps_trees_and_treetops():
    """Final Scoring (Wild Woods): Treetops, like Trees, stay in the final Rituals."""
    s = wild()
    cid = card_with(s, ["Sun", "Snow"])
    s = s.arranged(trees={(0, 0): 0, (1, 0): 0, (2, 0): 0}, treetops={(0, 0): 1, (1, 0): 2},
                   hands={0: [cid]})
    s = replace(s, phase="final", end_triggered=True, final_ritual_done=False)
    after = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    assert after.trees_of(0) == [(0, 0), (1, 0), (2, 0)]
    assert [level(after, c) for c in [(0, 0), (1, 0), (2, 0)]] == [2, 3, 1]
    assert after.woods.player_boards[0] == s.woods.player_boards[0] and after.pending is None
    assert after.players[0].land_points == 3


# ----- 7. Elemental Storms ---------------------------------------------------------------------


def storm_game():
    """A 2-player game on the seeded continent (with Storms), Red to move, and one Biome Tile:
    ``(state, its 3 Land Spaces, one of its Water Spaces, its biome)``."""
    s = replace(pangaea.new_game(players=2, seed=5, wild_woods=True), first_player=0,
                turn_player=0)
    b = s.board
    tile = b.tile_of[b.land[0]]
    lands = [b.cells[i] for i in b.land if b.tile_of[i] == tile]
    water = next(b.cells[i] for i in b.water if b.tile_of[i] == tile)
    assert len(lands) == 3
    return s, lands, water, b.biome[b.land[0]]


def storm_card(s, same_as=None, other_than=None):
    for c in woods.storm_ids(s.edition):
        w = woods.storm_weather(s.edition, c)
        if (same_as is None or w == same_as) and (other_than is None or w != other_than):
            return c
    raise AssertionError("no such Storm card")


def storm_next(s, card):
    """``card`` on top of the Land deck (the other Storms out of the way), the first Land slot
    of the market empty and the turn's 2 actions taken: ending the turn reveals the Storm."""
    storms = [c for c in s.land_deck + s.creature_deck if woods.is_storm(c)]
    land = [c for c in s.land_deck if not woods.is_storm(c)]
    market = list(s.market)
    land.append(market[0])
    market[0] = None
    out = s.edited(land_deck=(card, *land),
                  creature_deck=tuple(c for c in s.creature_deck if not woods.is_storm(c)),
                  storm_box=tuple(c for c in storms if c != card), market=tuple(market),
                  actions_taken=2)
    out.check_invariants()
    return out


def test_storm_blows_over_the_tile_of_the_current_spirit():
    """Elemental Storms: a Storm revealed while refilling the market removes the level-1
    Trees of the current player's Spirit's tile (each owner draws a Blessing), leaves higher
    Trees, and covers the tile with a token per empty space."""
    s, lands, water, biome = storm_game()
    small, tall, empty = lands
    card = storm_card(s, other_than=biome)
    weather = woods.storm_weather(s.edition, card)
    s = s.arranged(trees={small: 0, tall: 1}, treetops={tall: 1}, spirits={0: water})
    s = storm_next(s, card)
    drawn = s.blessing_bag[0]
    k = s.edition.biomes.index(weather)
    after = do(s, EndTurn())
    assert after.trees_of(0) == [] and after.trees_of(1) == [tall] and level(after, tall) == 2
    assert after.players[0].trees == 10
    assert blessing(after, 0, drawn) == blessing(s, 0, drawn) + 1
    assert sum(after.players[1].blessings) == sum(s.players[1].blessings)
    tile = after.board.tile_of[at(after, empty)]
    assert after.woods.storm_tiles == ((tile, weather, 2),)     # (small) and (empty) are empty now
    assert after.weather_supply[k] == s.weather_supply[k] - 2
    assert after.woods.storm_discard == (card,)
    assert card not in after.land_deck and not any(woods.is_storm(c) for c in after.market)
    assert after.market[0] is not None and after.turn_player == 1
    assert woods.biome_at(after, at(after, empty)) == weather
    after.check_invariants()
    assert GameState.from_json(after.to_json()) == after


def storm_game_spared():
    """``storm_game`` with the other reading of Thorondal in a Storm (the game option)."""
    s, lands, water, biome = storm_game()
    spared = replace(pangaea.new_game(players=2, seed=5, wild_woods=True,
                                      storm_spares_thorondal=True),
                     first_player=0, turn_player=0)
    assert spared.board == s.board and spared.woods.storm_spares_thorondal
    return spared, lands, water, biome


def test_storm_blows_away_the_tree_under_thorondal_by_default():
    """Elemental Storms, read literally (assumption 'ww-storm-thorondal'): Thorondal's passive
    (Summon the Ancients: Thorondal) guards its Tree only against being taken away by a
    Ritual, and a Storm removes every level-1 Tree of the tile without naming an exception; so
    the Tree under Thorondal blows away too, and Thorondal, with no Tree to stand on, leaves
    the continent."""
    s, lands, water, biome = storm_game()
    assert not s.woods.storm_spares_thorondal
    guarded, small, _ = lands
    s = s.arranged(trees={guarded: 1, small: 1}, spirits={0: water},
                   ancients={"Thorondal": guarded})
    after = do(storm_next(s, storm_card(s, other_than=biome)), EndTurn())
    assert after.trees_of(1) == [] and after.ancients[2] == -1
    after.check_invariants()
    assert GameState.from_json(after.to_json()) == after
    assert "storm_spares_thorondal" not in after.to_json()


def test_storm_spares_the_tree_under_thorondal_with_the_option():
    """Elemental Storms, the other reading (option ``storm_spares_thorondal``, assumption
    'ww-storm-thorondal'): the level-1 Tree under Thorondal is not blown away; the other
    level-1 Tree on the tile is.  A save keeps the option."""
    s, lands, water, biome = storm_game_spared()
    guarded, small, _ = lands
    s = s.arranged(trees={guarded: 1, small: 1}, spirits={0: water},
                   ancients={"Thorondal": guarded})
    after = do(storm_next(s, storm_card(s, other_than=biome)), EndTurn())
    assert after.trees_of(1) == [guarded] and after.ancients[2] == at(after, guarded)
    after.check_invariants()
    back = GameState.from_json(after.to_json())
    assert back == after and back.woods.storm_spares_thorondal


def test_the_storm_step_of_setup_says_which_reading_is_used():
    """Game Setup (Wild Woods, Elemental Storms): the step says in words which reading of
    Thorondal in a Storm the game follows."""
    for spares, words in ((False, "only against Rituals"), (True, "spares the Tree")):
        steps = pangaea.setup_steps(players=2, seed=5, wild_woods=True,
                                    storm_spares_thorondal=spares)
        storm_step = next(st for st in steps if st.title == "Elemental Storms")
        assert words in storm_step.explanation
        assert "reading of the rules is ours" in storm_step.explanation


def test_storms_spare_thorondal_without_storms_is_refused():
    """The option ``storm_spares_thorondal`` decides what a Storm does; without Storms
    (``storms=False``) it would change nothing, so setup refuses it in words, and a save
    claiming it without Storms is refused naming the field."""
    for setup in (pangaea.new_game, pangaea.setup_steps):
        with pytest.raises(InvalidSetup, match="storm_spares_thorondal=True .* storms=False "
                                               ".* would change nothing"):
            setup(players=2, seed=5, wild_woods=True, storms=False,
                  storm_spares_thorondal=True)
    calm = pangaea.new_game(players=2, seed=5, wild_woods=True, storms=False)
    save = json.loads(calm.to_json())
    save["wild_woods"]["storm_spares_thorondal"] = True
    with pytest.raises(InvalidData, match="wild_woods.storm_spares_thorondal"):
        GameState.from_json(json.dumps(save))
    from pangaea_lab.simulate import SimulationError, simulate
    with pytest.raises(SimulationError, match="would change nothing"):
        simulate("pangaea", seeds=1, progress=False,
                 options={"wild_woods": True, "storms": False, "storm_spares_thorondal": True})


def test_storm_without_a_spirit_on_the_continent_blows_over():
    """Elemental Storms (assumption 'ww-storm-no-spirit'): with the current player's Spirit
    not yet on the continent, the Storm is discarded and nothing else happens."""
    s, lands, water, biome = storm_game()
    s = s.arranged(trees={lands[0]: 1})
    assert s.spirits[0] == -1
    card = storm_card(s, other_than=biome)
    after = do(storm_next(s, card), EndTurn())
    assert after.woods.storm_discard == (card,) and after.woods.storm_tiles == ()
    assert after.trees_of(1) == [lands[0]] and after.market[0] is not None


def test_a_second_storm_on_a_tile_returns_the_first_storms_tokens():
    """Elemental Storms (assumption 'ww-storm-empty'): a second Storm on a covered tile sends
    the first Storm's tokens back to the supply before laying its own."""
    s, lands, water, biome = storm_game()
    first, second = [c for c in woods.storm_ids(s.edition)
                     if woods.storm_weather(s.edition, c) != biome][:2]
    w1, w2 = (woods.storm_weather(s.edition, c) for c in (first, second))
    s = s.arranged(spirits={0: water})
    once = do(storm_next(s, first), EndTurn())
    tile = once.board.tile_of[at(once, lands[0])]
    assert once.woods.storm_tiles == ((tile, w1, 3),)
    again = replace(once, turn_player=0, actions_taken=2)
    land = [c for c in again.land_deck if not woods.is_storm(c)]
    market = list(again.market)
    land.append(market[0])
    market[0] = None
    again = again.edited(land_deck=(second, *land), storm_box=tuple(
        c for c in again.woods.storm_box if c != second), market=tuple(market))
    again.check_invariants()
    twice = do(again, EndTurn())
    assert twice.woods.storm_tiles == ((tile, w2, 3),)
    k1, k2 = (s.edition.biomes.index(w) for w in (w1, w2))
    assert twice.weather_supply[k1] == once.weather_supply[k1] + 3
    assert twice.weather_supply[k2] == once.weather_supply[k2] - 3
    twice.check_invariants()


def test_storm_in_co_op_when_the_market_is_refilled():
    """Return of the Ancients with Wild Woods and Elemental Storms: refilling the co-op market
    (1 Land, 3 Creature Rituals, no Favor Tokens) reveals a Storm the same way."""
    s = pangaea.new_game(players=1, seed=5, mode="coop", wild_woods=True, storms=True)
    b = s.board
    tile = b.tile_of[b.land[0]]
    lands = [b.cells[i] for i in b.land if b.tile_of[i] == tile]
    water = next(b.cells[i] for i in b.water if b.tile_of[i] == tile and i not in s.coop.scourged
                 and i != s.coop.shadow)
    biome = b.biome[b.land[0]]
    s = s.arranged(spirits={0: water})
    card = storm_card(s, other_than=biome)
    storms = [c for c in s.land_deck + s.creature_deck if woods.is_storm(c)]
    land = [c for c in s.land_deck if not woods.is_storm(c)] + [s.market[0]]
    s = s.edited(land_deck=(card, *land), market=(None, *s.market[1:]),
                creature_deck=tuple(c for c in s.creature_deck if not woods.is_storm(c)),
                storm_box=tuple(c for c in storms if c != card), actions_taken=2)
    s.check_invariants()
    empty = sum(1 for c in lands if s.trees[at(s, c)] == -1 and s.seeds[at(s, c)] == -1)
    after = do(s, EndTurn())
    assert after.woods.storm_discard == (card,) and after.market[0] == land[0]
    assert after.woods.storm_tiles == ((tile, woods.storm_weather(s.edition, card), empty),)
    assert after.market_favors == s.market_favors
    after.check_invariants()


def test_storm_of_the_tiles_own_weather_leaves_no_tokens():
    """Elemental Storms: no tokens when the Storm and the Biome have the same type (the
    level-1 Trees still go)."""
    s, lands, water, biome = storm_game()
    s = storm_next(s.arranged(trees={lands[0]: 0}, spirits={0: water}),
                   storm_card(s, same_as=biome))
    after = do(s, EndTurn())
    assert after.trees_of(0) == [] and after.woods.storm_tiles == ()
    assert after.weather_supply == s.weather_supply


def test_storm_tile_counts_as_the_storm_weather():
    """Elemental Storms: while tokens cover it, the tile is of the Storm's type for Land
    Rituals and for Weather Tokens gained there."""
    s, lands, water, biome = storm_game()
    card = storm_card(s, other_than=biome)
    weather = woods.storm_weather(s.edition, card)
    stormy = do(storm_next(s.arranged(spirits={0: water}), card), EndTurn())
    assert stormy.woods.storm_tiles and stormy.woods.storm_tiles[0][1] == weather
    a, b = lands[:2]
    storm_pair = card_with(stormy, [weather, weather])
    old_pair = card_with(stormy, [biome, biome])
    r = replace(stormy, turn_player=0, actions_taken=0).arranged(
        trees={a: 0, b: 0}, treetops={b: 1}, hands={0: [storm_pair, old_pair]})
    lands_ok = {a_.card for a_ in r.legal_actions() if isinstance(a_, PlayLand)}
    assert storm_pair in lands_ok and old_pair not in lands_ok
    rejected(r, PlayLand(old_pair, False, (a, b)), ".")
    after = do(r, PlayLand(storm_pair, False, (a, b)))
    assert weather_of(after, 0, weather) == weather_of(r, 0, weather) + 1   # level-2 Tree on b
    assert weather_of(after, 0, biome) == weather_of(r, 0, biome)


def test_growing_seeds_take_the_storm_tokens_until_none_remain():
    """Elemental Storms: Seeds growing on the tile take its tokens instead of the supply;
    with no token left the Biome is back to its own type."""
    s, lands, water, biome = storm_game()
    card = storm_card(s, other_than=biome)
    weather = woods.storm_weather(s.edition, card)
    k = s.edition.biomes.index(weather)
    # Blue's level-2 Trees keep two spaces full: the Storm finds one empty space, one token
    s = s.arranged(trees={lands[1]: 1, lands[2]: 1}, treetops={lands[1]: 1, lands[2]: 1},
                   spirits={0: water})
    stormy = do(storm_next(s, card), EndTurn())
    tile = stormy.board.tile_of[at(stormy, lands[0])]
    assert stormy.woods.storm_tiles == ((tile, weather, 1),)
    g = replace(stormy, turn_player=0, actions_taken=0).arranged(
        seeds={lands[0]: 0}, blessings={0: {"Vigorous Seed": 1}})
    grown = do(g, BlessVigorousSeed(lands[0]))
    assert grown.trees_of(0) == [lands[0]]
    assert weather_of(grown, 0, weather) == weather_of(g, 0, weather) + 1
    assert grown.weather_supply[k] == g.weather_supply[k]      # taken from the tile
    assert grown.woods.storm_tiles == ()
    assert woods.biome_at(grown, at(grown, lands[0])) == biome
    grown.check_invariants()


def test_a_hand_ritual_is_never_a_storm():
    """Elemental Storms: a Storm cannot be drawn as a Hand Ritual (the first Ritual below it
    is drawn, the Storm stays on top; assumption 'ww-storm-no-spirit')."""
    s, _, _, _ = storm_game()
    card = storm_card(s)
    s = s.arranged(hands={0: ["C01"]}, weather={0: {"Wind": 2, "Sun": 1}})
    real = [c for c in s.land_deck if not woods.is_storm(c)]
    s = s.edited(land_deck=(card, *real),
                creature_deck=tuple(c for c in s.creature_deck if not woods.is_storm(c)),
                storm_box=tuple(c for c in woods.storm_ids(s.edition) if c != card))
    s.check_invariants()
    s = do(s, PlayCreature("C01", False, (("Wind", 2), ("Sun", 1))))
    drawn = do(s, DrawFromDeck("land"))
    assert drawn.players[0].hand[-1] == real[0]
    assert drawn.land_deck[0] == card
    # a deck holding nothing but a Storm offers no draw
    only = s.edited(land_deck=(card,))
    assert DrawFromDeck("land") not in only.legal_actions()
    with pytest.raises(IllegalAction):
        only.apply(DrawFromDeck("land"))


# ----- 8. New Blessing Tokens ------------------------------------------------------------------


def test_strong_canopy_is_a_free_add_treetop():
    """New Blessing Tokens: Strong Canopy takes a Treetop (its cost paid) without using one of
    the 2 actions."""
    s = give(wild().arranged(trees={(1, 0): 0}, weather={0: {"Sun": 1, "Rain": 1}}), 0,
             "Strong Canopy")
    assert BlessStrongCanopy(3, ("Sun", "Rain")) in s.legal_actions()
    after = do(s, BlessStrongCanopy(3, ("Sun", "Rain")))
    assert after.actions_taken == 0 and level(after, (1, 0)) == 2
    assert after.players[0].weather == (0, 0, 0, 0)
    assert blessing(after, 0, "Strong Canopy") == 0 and "Strong Canopy" in after.blessing_discard
    assert not after.woods.player_boards[0].slots[3]
    rejected(s, BlessStrongCanopy(3, ("Sun", "Snow")), "costs 2")    # no Snow to pay with
    rejected(after, BlessStrongCanopy(0), "no Strong Canopy")
    # still usable once both actions are spent
    spent = replace(s, actions_taken=2)
    assert do(spent, BlessStrongCanopy(0)).actions_taken == 2


def test_foresight_takes_a_market_ritual_into_the_hand():
    """New Blessing Tokens: Foresight adds a market Ritual (and its Favor Token) to the hand,
    which from then on holds 3 Hand Rituals."""
    s = give(wild(), 0, "Foresight")
    card, token = s.market[2], s.market_favors[2]
    assert token is not None
    after = do(s, BlessForesight(card))
    ps = after.players[0]
    assert ps.hand == s.players[0].hand + (card,) and len(ps.hand) == 3
    assert after.market[2] is None and after.market_favors[2] is None
    k = ANCIENTS.index(token)
    assert ps.favors[k] == s.players[0].favors[k] + 1
    assert after.actions_taken == 0 and blessing(after, 0, "Foresight") == 0
    rejected(after, BlessForesight(after.market[0]), "no Foresight")
    after.check_invariants()
    # the slot is refilled at the end of the turn
    ended = do(replace(after, actions_taken=2), EndTurn())
    assert ended.market[2] is not None
    # playing a Hand Ritual and drawing keeps 3 cards in hand
    rich = after.arranged(weather={0: {b: 3 for b in after.edition.biomes}})
    play = next(a for a in rich.legal_actions()
                if isinstance(a, PlayCreature) and not a.from_market)
    played = do(do(rich, play), DrawFromDeck("land"))
    assert play.card not in played.players[0].hand and len(played.players[0].hand) == 3


def test_foresight_refuses_an_empty_market_slot():
    """New Blessing Tokens: Foresight names a Ritual of the Open Market; an empty slot is no
    card to take."""
    s = give(wild(), 0, "Foresight", 2)
    s = do(s, BlessForesight(s.market[0]))
    assert None in s.market
    before = s.to_json()
    with pytest.raises(IllegalAction):
        s.apply(BlessForesight(None))
    assert s.to_json() == before


def test_foresight_is_not_for_co_op():
    """New Blessing Tokens (assumption 'ww-board-blessings'): Return of the Ancients has no
    Hand Rituals, so Foresight does nothing there."""
    s = give(coop(), 0, "Foresight")
    assert not any(isinstance(a, BlessForesight) for a in s.legal_actions())
    rejected(s, BlessForesight(s.market[1]), "no Hand Rituals")


# ----- 9. Final Scoring ------------------------------------------------------------------------


def test_final_scoring_counts_the_free_slots():
    """Final Scoring (Wild Woods): every empty slot of the Player Board scores its printed
    points (slot 5: 3)."""
    s = wild().arranged(trees={(1, 0): 0}, weather={0: {"Sun": 1, "Rain": 1, "Snow": 1}},
                        points={0: 30})
    s = do(s, AddTreetop(5, ("Sun", "Rain", "Snow")))
    s = do(do(s, SpiritGrowth((3, 1))), EndTurn())
    assert s.end_triggered
    assert "Player Board" not in dict(s.scores()[0].categories)    # only in the final scoring
    s = do(do(do(s, SpiritGrowth((4, 1))), SpiritGrowth((4, 1))), EndTurn())
    assert s.phase == "final"
    s = do(do(s, EndTurn()), EndTurn())
    assert s.is_over
    red, blue = s.scores()
    assert red["Player Board"] == 3 and blue["Player Board"] == 0
    assert red.total == 30 + 3 and level(s, (1, 0)) == 2
    assert s.winners() == [0]


def test_board_points_of_several_free_slots():
    """Final Scoring (Wild Woods): slots 3 and 5 empty score 2 + 3; the others score 0."""
    s = wild().arranged(trees={(1, 0): 0, (4, 0): 0}, treetops={(1, 0): 2, (4, 0): 2})
    pb = s.woods.player_boards[0]
    assert pb.slots == (False, False, False, False, True, True)
    assert woods.board_points(s, 0) == 2
    ed = s.edition
    assert pb.free_points(ed.woods) == 2
    moved = replace(pb, slots=(True, True, False, False, True, False))
    assert moved.free_points(ed.woods) == 5


# ----- 10. Return of the Ancients with Wild Woods ----------------------------------------------


@pytest.mark.parametrize("difficulty", ["standard", "cozy", "midnight"])
def test_co_op_uses_the_wild_woods_moon_board(difficulty):
    """Return of the Ancients with Wild Woods: the Wild Woods side of the Moon Board (and its
    Moon Cards)."""
    s = pangaea.new_game(players=2, seed=3, mode="coop", difficulty=difficulty, wild_woods=True)
    plan = s.edition.woods.cycle_plan(difficulty)
    assert sorted(s.coop.shadow_bag) == sorted(plan[0][0])
    assert s.coop.moon_board == tuple(tuple(m) for m, _ in plan[1:])
    if difficulty == "standard":
        base = pangaea.new_game(players=2, seed=3, mode="coop", difficulty=difficulty)
        assert base.coop.moon_board != s.coop.moon_board
    else:   # the two Wild Woods Moon Cards make each player give up a Seed
        assert any("give_up_seed" in effects for _, effects in plan[1:])
    s.check_invariants()


def end_of_cycle_one(s):
    """The Shadow Phase of the last marker of Moon Cycle I (markers conserved)."""
    rest = list(s.coop.shadow_bag)
    rest.remove("Dream")
    return s.edited(shadow_bag=("Dream",), moon_stacks=(tuple(rest),),
                   decisions=(Pending("shadow", 0),))


def test_moon_card_gives_up_a_starting_seed():
    """Return of the Ancients with Wild Woods: when a Wild Woods Moon Card begins, each player
    gives up one of their starting Seeds for the rest of the game."""
    s = end_of_cycle_one(coop(players=2, difficulty="cozy"))
    s.check_invariants()
    after = do(s, s.legal_actions()[0])
    assert after.coop.cycle == 2
    for p in range(2):
        assert after.players[p].seeds == s.players[p].seeds - 1
        assert after.woods.player_boards[p].given_up == 1 and after.woods.player_boards[p].owed == 0
    after.check_invariants()
    plain = end_of_cycle_one(coop(players=2, difficulty="standard"))
    assert do(plain, plain.legal_actions()[0]).players[0].seeds == plain.players[0].seeds


def test_moon_card_with_no_seed_in_supply():
    """Return of the Ancients with Wild Woods (assumption 'ww-give-up-seed'): a player with
    every Seed on the continent still loses one of them for good."""
    s = end_of_cycle_one(coop(difficulty="cozy").arranged(seeds={(4, 0): 0, (5, 0): 0}))
    assert s.players[0].seeds == 0
    after = do(s, MoveShadow((2, 1)))
    pb = after.woods.player_boards[0]
    assert after.coop.cycle == 2 and pb.given_up + pb.owed == 1
    after.check_invariants()
    grown = do(after, SpiritGrowth((4, 1)))            # both Seeds grow and come back
    assert grown.woods.player_boards[0].given_up == 1 and grown.woods.player_boards[0].owed == 0
    assert grown.players[0].seeds == 1
    grown.check_invariants()


def test_a_level_three_tree_draws_the_shadow():
    """Return of the Ancients with Wild Woods: at the end of a turn in which a Tree reached
    level 3, the Shadow moves onto it and the Shadow Phase is skipped."""
    s = coop().arranged(trees={(4, 0): 0}, treetops={(4, 0): 1}, weather={0: {"Sun": 1}})
    s = do(do(s, AddTreetop(1, ("Sun",))), PlaceTreetop((4, 0)))
    assert level(s, (4, 0)) == 3
    after = do(replace(s, actions_taken=2), EndTurn())
    assert after.coop.shadow == at(after, (4, 0))
    assert not any(d.kind == "shadow" for d in after.decisions)
    assert after.current_player == 0 and after.actions_taken == 0 and after.round == s.round + 1
    # a level-2 Tree does not: the usual Shadow Phase follows
    low = coop().arranged(trees={(4, 0): 0}, weather={0: {"Sun": 1}})
    low = do(do(low, AddTreetop(1, ("Sun",))), PlaceTreetop((4, 0)))
    after = do(replace(low, actions_taken=2), EndTurn())
    assert after.pending.kind == "shadow" and after.coop.shadow == low.coop.shadow
    # a level-3 Tree gone again before the end of the turn draws nothing either
    gone = replace(s, actions_taken=2).arranged(trees={(4, 0): None})
    assert gone.woods.grown_tall == at(s, (4, 0))
    after = do(gone, EndTurn())
    assert after.pending.kind == "shadow" and after.coop.shadow == s.coop.shadow


def test_devour_returns_the_treetops_of_a_higher_tree():
    """Return of the Ancients with Wild Woods (assumption 'ww-removed-tree'): a Tree taken by
    Devour gives all its Treetops back to its owner's board."""
    s = coop().arranged(trees={(1, 0): 0}, treetops={(1, 0): 2})
    assert s.woods.player_boards[0].slots == (False, False, True, True, True, True)
    devour_first = tuple(sorted(s.coop.shadow_bag, key=lambda m: m != "Devour"))
    s = s.edited(shadow=at(s, (2, 1)), shadow_bag=devour_first,
                decisions=(Pending("shadow", 0),))
    s.check_invariants()
    after = do(s, MoveShadow((1, 0)))
    assert after.trees[at(after, (1, 0))] == -1 and after.woods.treetops[at(after, (1, 0))] == 0
    assert after.woods.player_boards[0].slots == (True,) * 6
    assert after.woods.player_boards[0].unlocked == (True, False, False)   # the Seed stays unlocked
    after.check_invariants()


def test_scourge_returns_the_treetops_of_a_higher_tree():
    """Return of the Ancients with Wild Woods (assumption 'ww-removed-tree'): a scourged Tree
    gives its Treetops back, on empty slots its owner chooses."""
    s = coop().arranged(trees={(1, 0): 0}, treetops={(1, 0): 2, (2, 0): 1})
    assert s.woods.player_boards[0].slots == (False, False, False, True, True, True)
    s = replace(s, decisions=(Pending("scourge", 0, area="any"),))
    after = do(s, PlaceScourge((1, 0)))
    assert after.trees[at(after, (1, 0))] == -1 and after.woods.treetops[at(after, (1, 0))] == 0
    assert after.pending.kind == "treetop" and after.pending.amount == 2
    after.check_invariants()
    after = do(do(after, ReturnTreetop(2)), ReturnTreetop(1))
    assert after.woods.player_boards[0].slots == (False, True, True, True, True, True)
    assert level(after, (2, 0)) == 2
    after.check_invariants()


# ----- 11. Saves -------------------------------------------------------------------------------


def save_game():
    """A Wild Woods position with a Treetop, a shared space and Storms in the decks."""
    s = wild(storms=True).arranged(trees={(1, 0): 0}, treetops={(1, 0): 1},
                                   seeds={(3, 0): {0: 2, 1: 1}})
    assert any(woods.is_storm(c) for c in s.land_deck + s.creature_deck)
    return s


def tampered(mutate):
    data = json.loads(save_game().to_json())
    mutate(data)
    return json.dumps(data)


def _ww(d):
    return d["wild_woods"]


def _tie(d):
    _ww(d)["seed_stacks"][0][2] = [1, 1]
    d["players"][0]["seeds"] += 1          # the Seed counts still add up


def _treetop_on_empty_land(d):
    _ww(d)["treetops"] = [[0, 0, 1]]       # moved from Red's Tree on (1,0) to an empty space


@pytest.mark.parametrize("mutate, message", [
    (lambda d: _ww(d).update(treetops="x"), r"wild_woods\.treetops"),
    (lambda d: _ww(d).update(seed_stacks=[[3, 0, [1, "a"]]]), r"wild_woods\.seed_stacks"),
    (lambda d: _ww(d).update(treetops=[[1, 0, 3]]), r"wild_woods\.treetops"),
    (lambda d: _ww(d)["boards"][0].update(slots=[True] * 5), r"wild_woods\.boards\[0\]\.slots"),
    (lambda d: _ww(d)["boards"][0].update(unlocked="no"), r"wild_woods\.boards\[0\]\.unlocked"),
    (lambda d: _ww(d).update(boards=[]), r"wild_woods\.boards"),
    (lambda d: _ww(d).update(storm_tiles=[[0, "Moon", 1]]), r"wild_woods\.storm_tiles"),
    (_tie, "tie"),
    (_treetop_on_empty_land, "(?i)treetops"),
    (lambda d: _ww(d).update(storms="yes"), r"wild_woods\.storms"),
    (lambda d: d.update(wild_woods=[]), "wild_woods"),
], ids=["treetops-type", "stack-count", "treetops-too-many", "slots-length", "unlocked-type",
        "boards-count", "storm-tile", "seed-tie", "treetop-without-tree", "storms-type",
        "section-type"])
def test_malformed_wild_woods_save_names_the_field(mutate, message):
    with pytest.raises(InvalidData, match=message):
        GameState.from_json(tampered(mutate))


def test_round_trip_with_wild_woods_decisions_and_storms():
    """Saves keep every Wild Woods field, waiting decisions included."""
    s = wild().arranged(trees={(1, 0): 0, (4, 0): 0}, treetops={(1, 0): 1},
                        weather={0: {"Sun": 1}})
    for state in (save_game(), do(s, SowSeeds((0, 0), 1)), do(s, AddTreetop(1, ("Sun",)))):
        again = GameState.from_json(state.to_json())
        assert again == state and again.legal_actions() == state.legal_actions()
    stormy_s, lands, water, biome = storm_game()
    stormy = do(storm_next(stormy_s.arranged(spirits={0: water}),
                           storm_card(stormy_s, other_than=biome)), EndTurn())
    assert stormy.woods.storm_tiles
    assert GameState.from_json(stormy.to_json()) == stormy


def test_saves_from_before_wild_woods_still_load():
    """A save written before the new Blessing kinds existed has no Strong Canopy or Foresight
    counts; they read as 0."""
    for s in (pangaea.new_game(players=2, seed=9), save_game()):
        data = json.loads(s.to_json())
        for ps in data["players"]:
            for kind in WOODS_KINDS:
                del ps["blessings"][kind]
        assert GameState.from_json(json.dumps(data)) == s
