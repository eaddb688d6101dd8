"""Return of the Ancients (solo / co-op): one test per rule, each naming its rulebook section.

Most tests use the small strip board of conftest.py with one player, so every space is known;
a few fields are set by hand with ``replace`` to reach a situation quickly.
"""

from dataclasses import replace

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.errors import IllegalAction, InvalidData, InvalidSetup
from pangaea_lab.core.players import play_game
from pangaea_lab.pangaea import (AscendAncient, BlessCallAncient, BlessVigorousSeed, EndTurn,
                                 ExpandForest, FlyingSeed, PlaceAncient, PlayCreature,
                                 SpiritGrowth, SummonAncient)
from pangaea_lab.pangaea.actions import (LeaveSeed, MoveShadow, PlaceScourge, PlaceSeed,
                                         ShareWeather)
from pangaea_lab.pangaea.state import Pending

from conftest import do, strip_board

NOBODY = -1


def solo(seed=5, players=1, difficulty="standard"):
    """A co-op game on the strip board, first player to move."""
    s = pangaea.new_game(players=players, seed=seed, board=strip_board(), mode="ancients",
                         difficulty=difficulty)
    return replace(s, first_player=0, turn_player=0)


def cell(s, i):
    return s.board.cells[i]


def idx(s, c):
    return s.board.index[c]


def rich(s, p=0, each=4):
    """Give player ``p`` Weather Tokens of every kind from the supply."""
    ps = s.players[p]
    weather = tuple(w + each for w in ps.weather)
    supply = tuple(n - each for n in s.weather_supply)
    players = list(s.players)
    players[p] = replace(ps, weather=weather)
    return replace(s, players=tuple(players), weather_supply=supply)


def shadow_turn(s, at, bag):
    """A state where the Shadow Phase decision waits, the Shadow on ``at``, the bag ``bag``."""
    return s.edited(shadow=idx(s, at), shadow_bag=tuple(bag),
                   decisions=(Pending("shadow", 0),))


# ----- Game Setup -----------------------------------------------------------------------------


def test_setup_steps_one_to_nine():
    """Game Setup (Return of the Ancients), steps 1-9."""
    steps = pangaea.setup_steps(players=2, seed=4, mode="ancients")
    assert len(steps) == 9 and steps[0].title.startswith("1.") and steps[-1].title.startswith("9.")
    s = steps[-1].state
    s.check_invariants()
    ed = s.edition
    assert s.coop.ancient_steps == (23, 23, 23)                     # step 2
    assert s.coop.devour_steps == (19, 16)
    assert all(ed.card(c).solo for c in s.land_deck + s.creature_deck)   # step 4
    assert not any(ed.card(c).solo for c in s.coop.box_cards)
    kinds = [ed.card(c).kind for c in s.market]                 # step 5
    assert kinds == ["land", "creature", "creature", "creature"]
    assert len({ed.card(c).ancient for c in s.market[1:]}) == 3
    assert all(not ps.hand for ps in s.players)
    assert s.coop.scourge_supply + len(s.coop.scourged) == 10             # step 6: 5 per player
    assert s.coop.scourged == (s.coop.shadow,) and s.board.terrain[s.coop.shadow] == "water"   # step 7
    from pangaea_lab.pangaea.coop import distances
    far = distances(s.board, s.coop.shadow)
    trees = [i for i, o in enumerate(s.trees) if o != NOBODY]
    assert sorted(s.trees[i] for i in trees) == [0, 1] and all(far[i] == 2 for i in trees)  # step 8
    assert sorted(s.coop.shadow_bag) == ["Devour", "Dream", "Dream", "Dream", "Dream"]   # step 9
    assert s.coop.cycle == 1 and len(s.coop.moon_board) == 2


def test_difficulties_use_the_moon_cards():
    """Game Setup step 9: the Moon Cards replace Cycles II and III."""
    standard = pangaea.new_game(players=1, seed=2, mode="ancients")
    cozy = pangaea.new_game(players=1, seed=2, mode="ancients", difficulty="cozy")
    midnight = pangaea.new_game(players=1, seed=2, mode="ancients", difficulty="midnight")
    assert standard.coop.moon_board != cozy.coop.moon_board != midnight.coop.moon_board
    for s in (standard, cozy, midnight):
        s.check_invariants()
    with pytest.raises(InvalidSetup, match="difficulty"):
        pangaea.new_game(players=1, mode="ancients", difficulty="hard")


def test_player_counts_and_entry_points():
    """Return of the Ancients is for 1 to 4 players; the competitive game stays 2 to 4."""
    assert pangaea.new_game(players=1, seed=1, mode="ancients").num_players == 1
    with pytest.raises(InvalidSetup):
        pangaea.new_game(players=1, seed=1)
    with pytest.raises(InvalidSetup):
        pangaea.new_game(players=5, seed=1, mode="ancients")
    with pytest.raises(InvalidSetup, match="family"):
        pangaea.new_game(players=2, mode="ancients", family=True)
    with pytest.raises(InvalidSetup, match="mode"):
        pangaea.new_game(players=2, mode="coop-ish")
    assert pangaea.new_game(players=2, seed=1).coop is None


def test_assumptions_are_labelled_in_the_edition():
    """The Shadow Marker mix, Moon Board and Moon Cards are labelled assumptions."""
    sources = {k: src for k, src, _ in pangaea.load_edition().sources()}
    assert sources["shadow_markers"] == sources["moon_board"] == sources["moon_cards"] == "assumption"
    assert sources["ancients_mountain"] == sources["scourge_markers"] == "rulebook"


# ----- Changes in the Player Phase ------------------------------------------------------------


def test_creature_ritual_moves_its_ancient_up():
    """Changes in the Player Phase: Playing Ritual Cards (Creature: the matching Ancient)."""
    s = rich(solo())
    card = s.market[1]
    k = pangaea.edition.ANCIENTS.index(s.card(card).ancient)
    play = next(a for a in s.legal_actions() if isinstance(a, PlayCreature) and a.card == card)
    after = s.apply(play)
    while after.pending is not None and after.pending.kind == "chain":
        after = after.apply(after.legal_actions()[0])
    assert after.coop.ancient_steps[k] == 23 + s.card(card).points
    assert after.players[0].points == 0 and after.pending is None   # no draw: no hand


def test_land_ritual_moves_an_ancient_of_choice():
    """Changes in the Player Phase: Playing Ritual Cards (Land: any Ancient Marker)."""
    s = replace(solo(), decisions=(Pending("ascend", 0, amount=3),))
    assert {a.ancient for a in s.legal_actions()} == {"Okuma", "Chelon", "Thorondal"}
    after = do(s, AscendAncient("Chelon"))
    assert after.coop.ancient_steps == (23, 26, 23)


def test_land_ritual_asks_which_ancient():
    """Changes in the Player Phase: a played Land Ritual waits for the Ancient to move up."""
    s = solo()
    land = s.card(s.market[0])
    # a row of Red Trees along the top row, from one of the card's biomes to the other
    row = [s.board.biome[idx(s, (q, 0))] for q in range(6)]
    a = row.index(land.biomes[0])
    b = next(q for q in range(6) if row[q] == land.biomes[1] and q != a)
    s = s.arranged(trees={(q, 0): 0 for q in range(min(a, b), max(a, b) + 1)})
    play = next(a for a in s.legal_actions() if a.kind == "Play a Ritual Card"
                and a.card == land.id)
    after = s.apply(play)
    kinds = [d.kind for d in after.decisions]
    assert "ascend" in kinds and after.decisions[kinds.index("ascend")].amount >= 2


def test_matching_creature_next_in_chain_scores_one_more():
    """Changes in the Player Phase: +1 for a Creature placed next to one of the same Ancient."""
    s = rich(solo())
    card = s.card(s.market[2])           # Chelon, white wind on the right only
    partner = next(c for c in s.creature_deck if s.card(c).ancient == card.ancient
                   and "L" in s.card(c).winds)
    deck = tuple(c for c in s.creature_deck if c != partner)
    p0 = replace(s.players[0], played=(partner,), chains=((partner,),))
    s = replace(s, creature_deck=deck, players=(p0,))
    play = next(a for a in s.legal_actions() if isinstance(a, PlayCreature) and a.card == card.id)
    after = s.apply(play)
    while after.pending is not None and after.pending.kind == "chain":
        after = after.apply(next(a for a in after.legal_actions() if a.chain == 0))
    k = pangaea.edition.ANCIENTS.index(card.ancient)
    assert after.players[0].chains[0] in ((card.id, partner), (partner, card.id))
    assert after.coop.ancient_steps[k] == 23 + card.points + 1


def test_ancient_reaching_the_summit_returns_and_is_placed():
    """Changes in the Player Phase: Returned Ancients are placed and activated at once."""
    s = rich(solo())
    card = s.card(s.market[3])          # Okuma
    s = s.edited(ancient_steps=(28, 23, 23))
    play = next(a for a in s.legal_actions() if isinstance(a, PlayCreature) and a.card == card.id)
    after = s.apply(play)
    while after.pending is not None and after.pending.kind == "chain":
        after = after.apply(after.legal_actions()[0])
    assert after.coop.ancient_steps[0] == 30
    assert after.pending.kind == "summon" and after.pending.ancient == "Okuma"
    placed = after.apply(after.legal_actions()[0])
    assert placed.ancients[0] != NOBODY


def test_returned_ancients_rituals_are_free_and_give_favor_tokens():
    """Changes in the Player Phase: a returned Ancient's Rituals cost nothing, give Favor Tokens."""
    s = solo().edited(ancient_steps=(30, 23, 23))
    okuma = s.market[3]
    plays = [a for a in s.legal_actions() if isinstance(a, PlayCreature) and a.card == okuma]
    assert plays == [PlayCreature(okuma, True, ())]
    after = s.apply(plays[0])
    while after.pending is not None and after.pending.kind == "chain":
        after = after.apply(after.legal_actions()[0])
    assert after.players[0].favors == (1, 0, 0) and after.coop.ancient_steps == (30, 23, 23)
    assert after.players[0].weather == s.players[0].weather


def test_summon_only_returned_ancients_and_call_ancient_climbs():
    """Changes in the Player Phase: Call Ancient moves an Ancient one step up until it returns."""
    s = solo()
    assert not any(isinstance(a, SummonAncient) for a in s.legal_actions())
    p0 = replace(s.players[0], blessings=(0, 0, 1, 0))
    s = replace(s, players=(p0,), blessing_bag=tuple(s.blessing_bag[1:]))
    after = do(s, BlessCallAncient("Thorondal"))
    assert after.coop.ancient_steps == (23, 23, 24) and after.players[0].blessings[2] == 0
    back = s.edited(ancient_steps=(30, 23, 23))
    assert SummonAncient("Okuma") in back.legal_actions()


def test_weather_sharing_once_per_turn_with_adjacent_players():
    """Changes in the Player Phase: Weather Token Sharing."""
    s = rich(solo(players=2), 0, 2)
    red = next(i for i in s.board.land if s.trees[i] == 0)
    near = next(j for j in s.board.neighbours[red] if s.board.terrain[j] == "land"
                and s.trees[j] == NOBODY)
    assert not any(isinstance(a, ShareWeather) for a in s.legal_actions())   # not adjacent yet
    s = s.arranged(trees={cell(s, near): 1})
    share = ShareWeather(1, "Sun")
    after = do(s, share)
    assert after.players[1].weather[1] == s.players[1].weather[1] + 1
    with pytest.raises(IllegalAction, match="once|one Weather Token per turn"):
        after.apply(ShareWeather(1, "Rain"))


def test_market_refills_three_creatures_and_one_land():
    """Changes in the Player Phase: End of Turn refill."""
    s = rich(solo())
    play = next(a for a in s.legal_actions() if isinstance(a, PlayCreature))
    s = s.apply(play)
    while s.pending is not None:
        s = s.apply(s.legal_actions()[0])
    s = s.apply(SpiritGrowth(next(a.cell for a in s.legal_actions() if isinstance(a, SpiritGrowth))))
    after = s.apply(EndTurn())
    assert [after.card(c).kind for c in after.market] == ["land", "creature", "creature", "creature"]


# ----- Shadow Phase ---------------------------------------------------------------------------


def test_end_turn_starts_the_shadow_phase():
    """Shadow Phase: at the end of a turn the player moves the Shadow 2 spaces away."""
    s = replace(solo(), actions_taken=2)
    after = s.apply(EndTurn())
    assert after.pending.kind == "shadow" and after.current_player == 0
    from pangaea_lab.pangaea.coop import distances
    far = distances(s.board, s.coop.shadow)
    targets = [idx(s, a.cell) for a in after.legal_actions()]
    assert targets and all(far[i] == 2 for i in targets)


def test_shadow_never_onto_spirits_or_ancients():
    """Shadow Phase: any space except those with other Spirits or Ancient Guardians."""
    s = shadow_turn(solo(), (2, 1), ["Dream"])
    spirit, ancient = (0, 1), (4, 1)
    s = replace(s, spirits=(idx(s, spirit),), ancients=(NOBODY, idx(s, ancient), NOBODY))
    cells = {a.cell for a in s.legal_actions()}
    assert spirit not in cells and ancient not in cells and (4, 0) in cells
    with pytest.raises(IllegalAction, match="Shadow Phase"):
        s.apply(MoveShadow(spirit))


def test_shadow_on_an_empty_space_scourges_it():
    """Shadow Phase: on an empty space the Shadow places a Scourge Marker."""
    s = shadow_turn(solo(), (2, 1), ["Dream", "Dream"])
    after = do(s, MoveShadow((4, 0)))
    assert idx(s, (4, 0)) in after.coop.scourged and after.coop.scourge_supply == s.coop.scourge_supply - 1
    assert after.coop.moon_stacks == (("Dream",),)


def test_shadow_on_a_scourge_lowers_the_ancients():
    """Shadow Phase: on a Scourge Marker every Ancient Marker goes down a step."""
    s = shadow_turn(solo(), (2, 1), ["Dream"])
    s = s.edited(scourged=tuple(sorted({*s.coop.scourged, idx(s, (4, 0))})),
                scourge_supply=s.coop.scourge_supply - 1)
    after = do(s, MoveShadow((4, 0)))
    assert after.coop.ancient_steps == (22, 22, 22)


def test_shadow_on_a_tree_does_nothing_and_dream_gives_weather():
    """Shadow Phase: a Tree stops the Shadow; Dream gives its owner a Weather Token."""
    s = shadow_turn(solo().arranged(trees={(4, 0): 0}), (2, 1), ["Dream", "Dream"])
    after = do(s, MoveShadow((4, 0)))
    assert after.trees[idx(s, (4, 0))] == 0 and after.coop.scourged == s.coop.scourged
    assert after.players[0].weather[s.edition.biomes.index("Sun")] == 1


def test_shadow_on_a_seed_lying_on_scourge_does_nothing():
    """Shadow Phase (assumption 'coop-shadow-seed-on-scourge'): a scourged Land Space may hold
    a Seed (Scourge: Healing Scourge).  The Shadow Phase lists what the Shadow does by what
    lies on its space, the Tree-or-Seed case first and saying it does nothing; the project
    reads the Seed as covering the marker, so no Ancient Marker goes down and no marker is
    added.  The Shadow Marker drawn next still acts: a Devour takes the Seed back."""
    base = solo().arranged(seeds={(4, 0): 0})
    land = idx(base, (4, 0))
    base = base.edited(scourged=tuple(sorted({*base.coop.scourged, land})),
                       scourge_supply=base.coop.scourge_supply - 1)
    s = shadow_turn(base, (2, 1), ["Dream", "Dream"])
    after = do(s, MoveShadow((4, 0)))
    assert after.coop.ancient_steps == s.coop.ancient_steps == (23, 23, 23)
    assert after.coop.scourged == s.coop.scourged and after.seeds[land] == 0
    assert after.coop.shadow == land
    eaten = do(shadow_turn(base, (2, 1), ["Devour", "Dream"]), MoveShadow((4, 0)))
    assert eaten.coop.ancient_steps == (23, 23, 23) and eaten.seeds[land] == NOBODY
    assert land in eaten.coop.scourged


def test_no_spirit_goes_onto_the_shadows_space():
    """Spirit Growth and the Shadow Phase (assumption 'coop-shadow-spirit'): a Spirit goes only
    to a Water Space no other Spirit holds, and the Shadow Phase counts the Spirit of Shadows
    among the Spirits.  Once a returned Chelon heals the Shadow's Water Space, the space is
    still closed to every player's Spirit (1 player, seed 5, the strip board)."""
    s = solo().edited(ancient_steps=(30, 30, 23),
                      decisions=(Pending("summon", 0, ancient="Chelon"),))
    shadow = cell(s, s.coop.shadow)
    after = do(s, PlaceAncient("Chelon", shadow))
    assert s.coop.shadow not in after.coop.scourged and after.ancients[1] == s.coop.shadow
    assert SpiritGrowth(shadow) not in after.legal_actions()
    assert any(isinstance(a, SpiritGrowth) for a in after.legal_actions())
    with pytest.raises(IllegalAction, match="Spirit of Shadows.*counts as a Spirit") as err:
        after.apply(SpiritGrowth(shadow))
    assert "reading of the rules" in str(err.value)
    moved = replace(after.edited(shadow=idx(after, (3, 1))), actions_taken=0)
    assert SpiritGrowth(shadow) in moved.legal_actions()       # the Shadow gone, it is free
    assert SpiritGrowth((3, 1)) not in moved.legal_actions()


def test_devour_removes_the_tree_and_may_leave_a_seed():
    """Shadow Phase: Devour removes the Tree; its owner may leave a Seed behind."""
    s = shadow_turn(solo().arranged(trees={(4, 0): 0}), (2, 1), ["Devour", "Dream"])
    after = do(s, MoveShadow((4, 0)))
    assert after.trees[idx(s, (4, 0))] == NOBODY and after.pending.kind == "devour"
    left = do(after, LeaveSeed(True))
    assert left.seeds[idx(s, (4, 0))] == 0
    s2 = shadow_turn(solo().arranged(seeds={(4, 0): 0}), (2, 1), ["Devour", "Dream"])
    assert do(s2, MoveShadow((4, 0))).seeds[idx(s, (4, 0))] == NOBODY


def test_dance_scourges_and_lowers_by_black_markers():
    """Shadow Phase: Dance places a Scourge per player and lowers the Ancients by the black
    markers in the current stack (the Tree under the Shadow is scourged away)."""
    s = shadow_turn(solo(players=2).arranged(trees={(4, 0): 1}), (2, 1), ["Dance", "Dream"])
    s = s.edited(moon_stacks=(("Devour",),))
    after = do(s, MoveShadow((4, 0)))
    i = idx(s, (4, 0))
    assert i in after.coop.scourged and after.trees[i] == NOBODY
    assert after.coop.moon_stacks == (("Devour", "Dance"),)
    assert after.coop.ancient_steps == (21, 21, 21)
    assert after.pending.kind == "scourge"
    spots = {idx(s, a.cell) for a in after.legal_actions()}
    assert spots and all(any(j in {i, *after.coop.scourged} for j in s.board.neighbours[k]) for k in spots)
    placed = after.apply(after.legal_actions()[0])
    assert len(placed.coop.scourged) == len(after.coop.scourged) + 1


def test_new_stack_after_a_dance():
    """Shadow Phase: after a stack ended with a Dance marker a new stack starts."""
    s = shadow_turn(solo(), (2, 1), ["Dream", "Dream"]).edited(moon_stacks=(("Dream", "Dance"),))
    after = do(s, MoveShadow((4, 0)))
    assert after.coop.moon_stacks == (("Dream", "Dance"), ("Dream",))


def test_devour_marker_on_the_mountain_joins_the_bag():
    """Shadow Phase (example note): an Ancient falling to a Devour Marker sends it to the bag."""
    s = shadow_turn(solo(), (2, 1), ["Dream", "Dream"])
    s = s.edited(ancient_steps=(20, 25, 25), scourged=tuple(sorted({*s.coop.scourged, idx(s, (4, 0))})),
                scourge_supply=s.coop.scourge_supply - 1)
    after = do(s, MoveShadow((4, 0)))
    assert after.coop.ancient_steps[0] == 19 and after.coop.devour_steps == (16,)
    assert after.coop.shadow_bag.count("Devour") == 1


# ----- Scourge --------------------------------------------------------------------------------


def test_spirits_cannot_enter_scourged_water():
    """Scourge: Spirits can't move onto scourged Water Spaces."""
    s = solo()
    water = cell(s, s.coop.shadow)
    assert SpiritGrowth(water) not in s.legal_actions()
    with pytest.raises(IllegalAction, match="scourged"):
        s.apply(SpiritGrowth(water))


def test_one_seed_does_not_grow_on_scourged_land_two_do_and_heal():
    """Healing Scourge: a scourged Land Space needs 2 Seeds; the Tree heals it."""
    s = solo()
    land = idx(s, (1, 0))
    s = s.edited(scourged=tuple(sorted({*s.coop.scourged, land})), scourge_supply=s.coop.scourge_supply - 1)
    s = do(s, FlyingSeed((1, 0)))
    grown = s.apply(SpiritGrowth((1, 1)))
    assert grown.seeds[land] == 0 and grown.trees[land] == NOBODY   # one Seed: no growth
    s = do(s, FlyingSeed((1, 0)))                                     # the second Seed
    assert land in s.coop.paired
    s = replace(s, actions_taken=0)
    after = do(s, SpiritGrowth((1, 1)))
    assert after.trees[land] == 0 and land not in after.coop.scourged and not after.coop.paired
    assert after.players[0].seeds == 2
    after.check_invariants()


def test_vigorous_seed_grows_a_single_seed_and_heals():
    """Healing Scourge: one Seed activated by a Vigorous Seed Blessing is enough."""
    s = solo()
    land = idx(s, (1, 0))
    s = s.edited(scourged=tuple(sorted({*s.coop.scourged, land})), scourge_supply=s.coop.scourge_supply - 1)
    s = do(s, FlyingSeed((1, 0)))
    p0 = replace(s.players[0], blessings=(0, 1, 0, 0))
    s = replace(s, players=(p0,), blessing_bag=tuple(s.blessing_bag[1:]))
    after = do(s, BlessVigorousSeed((1, 0)))
    assert after.trees[land] == 0 and land not in after.coop.scourged


def test_returned_chelon_heals_and_thorondal_places_two_seeds():
    """Healing Scourge: returned Chelon and Okuma heal the space they enter; Thorondal sows 2."""
    s = solo().edited(ancient_steps=(30, 30, 23), decisions=(Pending("summon", 0, ancient="Chelon"),))
    after = do(s, PlaceAncient("Chelon", cell(s, s.coop.shadow)))
    assert s.coop.shadow not in after.coop.scourged and after.coop.scourge_supply == s.coop.scourge_supply + 1
    s = solo().arranged(trees={(0, 2): 0})
    s = s.edited(ancient_steps=(30, 23, 30), decisions=(Pending("summon", 0, ancient="Thorondal"),))
    place = next(a for a in s.legal_actions() if a.cell == (0, 2) and a.second is not None)
    after = do(s, place)
    assert after.pending.kind == "seed"
    done = do(after, after.legal_actions()[0])
    assert done.seeds.count(0) == 2


# ----- End of Cycle and the end of the game ----------------------------------------------------


def test_end_of_cycle_refills_the_bag():
    """End of Cycle: all markers go back into the bag with the next cycle's markers."""
    s = shadow_turn(solo(), (2, 1), ["Dream"]).edited(moon_stacks=(("Dream", "Dream", "Devour", "Dream"),))
    after = do(s, MoveShadow((4, 0)))
    assert after.coop.cycle == 2 and after.coop.moon_stacks == ()
    assert sorted(after.coop.shadow_bag) == sorted(["Dream"] * 5 + ["Devour", "Dance"])
    assert len(after.coop.moon_board) == 1


def test_moon_cards_apply_their_effects():
    """End of Cycle: a Moon Card's effects (Cozy Afternoon: Blessings; Midnight Hour: a Dream
    leaves the bag and each player spreads a Scourge)."""
    cozy = shadow_turn(solo(difficulty="cozy"), (2, 1), ["Dream"]).edited(moon_stacks=(("Dream",),))
    after = do(cozy, MoveShadow((4, 0)))
    assert sum(after.players[0].blessings) == 1
    night = shadow_turn(solo(difficulty="midnight"), (2, 1), ["Dream"]).edited(moon_stacks=(("Dream",),))
    after = do(night, MoveShadow((4, 0)))
    assert after.coop.shadow_box.count("Dream") == night.coop.shadow_box.count("Dream") + 1
    assert after.pending.kind == "scourge" and after.pending.area == "any"


def test_win_when_the_last_ancient_reaches_the_summit():
    """End of the Game (Solo/Co-op): the last Ancient at the summit wins at once."""
    s = solo().edited(decisions=(Pending("ascend", 0, amount=4),), ancient_steps=(30, 30, 27))
    after = do(s, AscendAncient("Thorondal"))
    assert after.is_over and after.coop.result == "won" and after.winners() == [0]
    assert after.legal_actions() == []


def test_lose_after_the_third_cycle():
    """End of the Game (Solo/Co-op): the end of the third Moon Cycle loses."""
    s = shadow_turn(solo(), (2, 1), ["Dream"]).edited(cycle=3, moon_board=())
    after = do(s, MoveShadow((4, 0)))
    assert after.coop.result == "lost" and "third Moon Cycle" in after.end_reason
    assert after.winners() == []


def test_lose_when_an_ancient_reaches_the_dance_marker():
    """End of the Game (Solo/Co-op): an Ancient reaching the Dance Marker loses."""
    s = shadow_turn(solo(), (2, 1), ["Dream", "Dream"])
    s = s.edited(ancient_steps=(14, 25, 25), devour_steps=(),
                scourged=tuple(sorted({*s.coop.scourged, idx(s, (4, 0))})), scourge_supply=s.coop.scourge_supply - 1)
    after = do(s, MoveShadow((4, 0)))
    assert after.coop.result == "lost" and "Dance" in after.end_reason


def test_lose_when_the_last_scourge_is_placed():
    """End of the Game (Solo/Co-op): placing the last Scourge Marker loses."""
    s = shadow_turn(solo(), (2, 1), ["Dream"]).edited(scourge_supply=1)
    after = do(s, MoveShadow((4, 0)))
    assert after.coop.result == "lost" and after.coop.scourge_supply == 0 and after.is_over


# ----- saves, errors, computer players ---------------------------------------------------------


def test_saves_round_trip_with_decisions_and_reject_bad_fields():
    """A co-op save keeps the Shadow, Scourge, bag and pending choices; bad fields are named."""
    s = replace(solo(players=2), decisions=(Pending("scourge", 1, area="shadow"),
                                            Pending("ascend", 0, amount=3)))
    again = pangaea.GameState.from_json(s.to_json())
    assert again == s
    bad = s.to_json().replace('"scourge_supply":9', '"scourge_supply":-1')
    with pytest.raises(InvalidData, match="scourge_supply"):
        pangaea.GameState.from_json(bad)
    assert '"ancients_mode"' not in pangaea.new_game(players=2, seed=1).to_json()


def test_rejections_leave_the_state_unchanged():
    """Errors teach: a wrong Scourge space names the rule and changes nothing."""
    s = replace(solo(), decisions=(Pending("scourge", 0, area="shadow"),))
    text = s.to_json()
    with pytest.raises(IllegalAction, match="Scourge"):
        s.apply(PlaceScourge((5, 0)))
    with pytest.raises(IllegalAction):
        s.apply(ExpandForest(((3, 0),)))
    with pytest.raises(IllegalAction, match="Place Seed|decision"):
        solo().apply(PlaceSeed((3, 0)))
    assert s.to_json() == text


def test_computer_players_finish_a_co_op_game():
    """The forester players take every co-op decision and the game ends won or lost."""
    for players in (1, 3):
        s = pangaea.new_game(players=players, seed=11, mode="ancients")
        final = play_game(s, [pangaea.ForesterPlayer(k) for k in range(players)])
        assert final.is_over and final.coop.result in ("won", "lost")


def test_step_through_widget_plays_a_solo_game():
    """The step-through widget plays Return of the Ancients solo to its end, showing the Shadow."""
    import random
    from pangaea_lab.pangaea.widgets import play
    widget = play(players=1, seed=3, mode="ancients")
    model = widget.model
    assert not model.is_computer(0) and model.state.coop is not None
    rng = random.Random(3)
    for _ in range(3000):
        if model.is_over:
            break
        model.play(rng.choice(model.legal_actions()))
    assert model.is_over and model.state.coop.result in ("won", "lost")
    assert "Spirit of Shadows" in model.state.to_svg()


def test_co_op_scores_show_the_team_progress_not_competitive_points():
    s = pangaea.new_game(players=2, seed=3, mode="coop")
    for score in s.scores():
        assert dict(score.categories) == {"Okuma Marker step": 23, "Chelon Marker step": 23,
                                          "Thorondal Marker step": 23}
        assert score.total == sum(s.coop.ancient_steps)


def test_returned_okuma_heals_the_land_it_enters():
    """Healing Scourge: a returned Okuma placed on (or moved onto) a scourged Land Space heals
    it; the Scourge Marker goes back to the supply."""
    s = solo()
    land = idx(s, (3, 0))
    s = s.edited(scourged=tuple(sorted((*s.coop.scourged, land))), scourge_supply=s.coop.scourge_supply - 1,
                ancient_steps=(30, 23, 23), decisions=(Pending("summon", 0, ancient="Okuma"),))
    s.check_invariants()
    after = do(s, PlaceAncient("Okuma", (3, 0)))
    assert land not in after.coop.scourged and after.coop.scourge_supply == s.coop.scourge_supply + 1
    assert after.ancients[0] == land
    # an Okuma not yet returned heals nothing: Summon is not even offered before it returns
    assert not any(isinstance(a, SummonAncient) for a in s.edited(ancient_steps=(23, 23, 23), decisions=()).legal_actions())
