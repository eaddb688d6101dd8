"""The full game: Summon the Ancients (Okuma, Chelon, Thorondal), the Call Ancient Blessing,
Favor Tokens, Ritual Chains and Ecosystems, each test naming its rulebook section.

The strip board of conftest.py: land (0,0) Sun, (1,0) Rain, (2,0) Snow, (3,0) Wind, (4,0) Sun,
(5,0) Rain; water (0,1)..(4,1) with a blessing icon on (2,1); land (-1,2) Wind, (0,2) Snow,
(1,2) Sun, (2,2) Rain.  Red is player 0, Blue player 1.
"""

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.errors import IllegalAction
from pangaea_lab.pangaea import (ActivateFavor, BlessCallAncient, ConvertFavor, DrawFromDeck,
                                 EndTurn, MoveOkuma, MoveTree, PlaceAncient, PlaceInChain,
                                 PlayCreature, PlayLand, SpiritGrowth, SummonAncient,
                                 TakeBlessing, TakeMarketCard)

from conftest import do, few_trees_edition, forester_game, strip_board


def rejected(state, action, match):
    before = state.to_json()
    with pytest.raises(IllegalAction, match=match):
        state.apply(action)
    assert state.to_json() == before


def deck_card(state, kind, winds=None, ancient=None, biomes=None):
    """A card still in a deck, with the wanted kind / winds / Ancient / biomes."""
    for cid in state.land_deck + state.creature_deck:
        c = state.card(cid)
        if c.kind != kind or (winds is not None and c.winds != winds):
            continue
        if ancient is not None and getattr(c, "ancient", None) != ancient:
            continue
        if biomes is not None and sorted(c.biomes) != sorted(biomes):
            continue
        return cid
    raise LookupError((kind, winds, ancient, biomes))


def summon(state, ancient, cell, second=None):
    state = do(state, SummonAncient(ancient))
    assert state.pending.kind == "summon" and state.current_player == state.turn_player
    return do(state, PlaceAncient(ancient, cell, second))


# ----- Summon the Ancients ------------------------------------------------------------------------

def test_summon_is_a_main_action_of_the_full_game_only(full, small):
    assert {SummonAncient("Okuma"), SummonAncient("Chelon")} <= set(full.legal_actions())
    assert SummonAncient("Thorondal") not in full.legal_actions()   # no Tree to stand on yet
    assert not any(isinstance(a, SummonAncient) for a in small.legal_actions())
    with pytest.raises(IllegalAction, match="family game"):
        small.apply(SummonAncient("Okuma"))
    s = summon(full, "Okuma", (4, 0))
    assert s.actions_taken == 1


def test_okuma_direct_empty_land_and_a_weather_token(full):
    s = full.arranged(trees={(1, 0): 1}, seeds={(0, 0): 0})
    s = do(s, SummonAncient("Okuma"))
    spots = {a.cell for a in s.legal_actions()}
    assert (1, 0) not in spots and (0, 0) not in spots and (0, 1) not in spots
    assert (4, 0) in spots
    s = do(s, PlaceAncient("Okuma", (4, 0)))
    assert s.ancients[0] == s.board.index[(4, 0)]
    assert s.players[0].weather[s.edition.biomes.index("Sun")] == 1


def test_okuma_passive_its_seed_grows_with_any_spirit_growth_and_okuma_moves(full):
    s = full.arranged(seeds={(5, 0): 1}, ancients={"Okuma": (5, 0)})
    s = do(s, SpiritGrowth((0, 1)))          # far from (5,0): the Seed grows anyway
    assert (5, 0) in s.trees_of(1)
    assert s.board.cells[s.ancients[0]] == (4, 0)   # the only free neighbour: moved at once


def test_okuma_move_is_the_current_players_choice(full):
    s = full.arranged(seeds={(2, 0): 1}, ancients={"Okuma": (2, 0)})
    s = do(s, SpiritGrowth((3, 1)))
    assert s.pending.kind == "okuma" and s.current_player == 0
    assert {a.cell for a in s.legal_actions()} == {(1, 0), (3, 0)}
    rejected(s, MoveOkuma((5, 0)), "not one of the choices")
    s = do(s, MoveOkuma((1, 0)))
    assert s.board.cells[s.ancients[0]] == (1, 0) and s.pending is None


def test_okuma_stays_when_boxed_in(full):
    s = full.arranged(seeds={(5, 0): 1}, trees={(4, 0): 0}, ancients={"Okuma": (5, 0)})
    s = do(s, SpiritGrowth((0, 1)))
    assert s.board.cells[s.ancients[0]] == (5, 0)


def test_chelon_direct_any_water_shared_with_a_spirit_and_grows_one_seed(full):
    s = full.arranged(spirits={0: (1, 1)}, seeds={(1, 2): 1, (2, 0): 0})
    s = do(s, SummonAncient("Chelon"))
    choices = {(a.cell, a.second) for a in s.legal_actions()}
    assert ((1, 1), (1, 2)) in choices and ((1, 1), (2, 0)) in choices
    assert ((4, 1), None) in choices          # no Seed next to (4,1): Chelon just goes there
    s = do(s, PlaceAncient("Chelon", (1, 1), (1, 2)))
    assert (1, 2) in s.trees_of(1) and s.seeds_of(0) == [(2, 0)]
    assert s.spirit_cell(0) == (1, 1) == s.board.cells[s.ancients[1]]


def test_chelon_never_collects_blessings(full):
    kind = full.board_blessings[full.board.index[(2, 1)]]
    s = summon(full, "Chelon", (2, 1))
    assert s.board_blessings[s.board.index[(2, 1)]] == kind
    assert sum(s.players[0].blessings) == 0


def test_chelon_passive_a_bridge_worth_one_more_point(full):
    cid = deck_card(full, "land", biomes=["Sun", "Snow"])
    s = full.arranged(trees={(0, 0): 0, (0, 2): 0}, ancients={"Chelon": (0, 1)}, hands={0: [cid]})
    (option,) = pangaea.land_ritual_options(s.position, 0, s.card(cid))
    assert option.path == ((0, 0), (0, 1), (0, 2)) and option.points == 2 + 1
    assert "Chelon bridge" in option.explain()
    with_spirit = s.arranged(spirits={0: (0, 1)})
    (option,) = pangaea.land_ritual_options(with_spirit.position, 0, s.card(cid))
    assert option.points == 3 + 1            # your Spirit shares the space with Chelon
    after = do(s, PlayLand(cid, False, option.path))
    assert after.players[0].land_points == 3


def test_thorondal_direct_on_any_tree_then_one_of_your_seeds_next_to_it(full):
    s = full.arranged(trees={(3, 0): 1})
    s = do(s, SummonAncient("Thorondal"))
    choices = {(a.cell, a.second) for a in s.legal_actions()}
    assert choices == {((3, 0), (2, 0)), ((3, 0), (4, 0))}
    s = do(s, PlaceAncient("Thorondal", (3, 0), (4, 0)))
    assert s.seeds_of(0) == [(4, 0)] and s.players[0].seeds == 1


def test_thorondal_protects_its_tree_from_rituals(full):
    cid = deck_card(full, "land", biomes=["Sun", "Snow"])
    s = full.arranged(trees={(0, 0): 0, (1, 0): 0, (2, 0): 0}, hands={0: [cid]},
                      ancients={"Thorondal": (1, 0)})
    (option,) = pangaea.land_ritual_options(s.position, 0, s.card(cid))
    assert option.kept == ((1, 0),) and "Thorondal keeps your Tree on (1, 0)" in option.explain()
    s = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    assert s.trees_of(0) == [(1, 0)]         # the protected Tree stays, the others go home
    assert s.players[0].trees == 9


def test_thorondal_tree_is_not_moved_onto_a_growing_seed():
    from dataclasses import replace
    s = pangaea.new_game(players=2, seed=5, board=strip_board(), edition=few_trees_edition(3))
    s = replace(s, first_player=0, turn_player=0)
    s = s.arranged(trees={(3, 0): 1, (4, 0): 1, (5, 0): 1}, seeds={(0, 2): 1},
                   ancients={"Thorondal": (4, 0)})
    s = do(s, SpiritGrowth((0, 1)))
    assert {a.origin for a in s.legal_actions() if isinstance(a, MoveTree)} == {(3, 0), (5, 0)}


def test_call_ancient_blessing_is_a_free_summon(full):
    s = full.arranged(blessings={0: {"Call Ancient": 1}})
    s = do(s, BlessCallAncient("Chelon"))
    s = do(s, PlaceAncient("Chelon", (4, 1)))
    assert s.actions_taken == 0 and "Call Ancient" in s.blessing_discard
    rejected(s, BlessCallAncient("Okuma"), "no Call Ancient")


def test_summoning_again_moves_the_ancient(full):
    s = summon(full, "Chelon", (4, 1))
    s = do(s, SummonAncient("Chelon"))
    assert PlaceAncient("Chelon", (4, 1)) not in s.legal_actions()


# ----- Favor Tokens ---------------------------------------------------------------------------

def test_a_market_ritual_brings_its_favor_token(full):
    token = full.market_favors[2]
    s = full.arranged(weather={0: {b: 3 for b in full.edition.biomes}})
    play = next(a for a in s.legal_actions()
                if isinstance(a, PlayCreature) and a.from_market and a.card == s.market[2])
    s = do(s, play)
    while s.pending is not None:
        s = do(s, s.legal_actions()[0])
    assert s.players[0].favor_count(token) == 1 and s.market_favors[2] is None
    s = do(do(s, SpiritGrowth((0, 1))), EndTurn())
    assert s.market[2] is not None and s.market_favors[2] is not None   # refilled with a token


def test_step_3_takes_the_market_cards_token_or_draws_one(full):
    cid = deck_card(full, "creature", ancient="Okuma")
    card = full.card(cid)
    s = full.arranged(hands={0: [cid]}, weather={0: dict(card.cost)} if not card.wild else
                      {0: {**dict(card.cost), "Sun": dict(card.cost).get("Sun", 0) + 1}})
    play = next(a for a in s.legal_actions() if isinstance(a, PlayCreature) and a.card == cid)
    s = do(s, play)
    while s.pending.kind == "chain":
        s = do(s, s.legal_actions()[0])
    assert s.pending.kind == "draw"
    token = s.market_favors[0]
    took = do(s, TakeMarketCard(s.market[0]))
    assert took.players[0].favor_count(token) == 1
    top = s.favor_bag[0]
    drew = do(s, DrawFromDeck("land"))
    assert drew.players[0].favor_count(top) == 1 and drew.favor_bag == s.favor_bag[1:]


def creature_chain(full, ancient="Okuma"):
    c = deck_card(full, "creature", ancient=ancient)
    land = deck_card(full, "land", winds="LR")
    return full.arranged(chains={0: [[land, c]]}, favors={0: {ancient: 2}}), land, c


def test_activating_a_favor_token_summons_for_free(full):
    s, land, c = creature_chain(full, "Okuma")
    assert ActivateFavor(c, "Okuma") in s.legal_actions()
    assert ActivateFavor(land, "Okuma") in s.legal_actions()   # next to an Okuma Creature card
    s = do(s, ActivateFavor(c, "Okuma"))
    assert s.pending.kind == "summon" and s.pending.ancient == "Okuma"
    s = do(s, s.legal_actions()[0])
    assert s.actions_taken == 0 and s.ancients[0] != -1
    assert s.players[0].favor_count("Okuma") == 1 and (c, "Okuma") in s.players[0].activated
    rejected(s, ActivateFavor(c, "Okuma"), "already holds a Favor Token")
    rejected(s, ActivateFavor(land, "Chelon"), "does not match")


def test_converting_two_tokens_into_one_of_your_choice(full):
    s = full.arranged(favors={0: {"Chelon": 2}})
    before = s.favor_bag.count("Chelon")
    s = do(s, ConvertFavor("Chelon", "Thorondal"))
    assert s.players[0].favors == (0, 0, 1)
    assert s.favor_bag.count("Chelon") == before + 2
    rejected(s, ConvertFavor("Thorondal", "Okuma"), "need 2")


# ----- Ritual Chains and Ecosystems -----------------------------------------------------------

def play_land(state, cid, path):
    state = state.arranged(hands={0: [cid]}, trees={c: 0 for c in path})
    return do(state, PlayLand(cid, False, tuple(path)))


def test_first_card_starts_a_chain_and_cards_join_by_matching_winds(full):
    left_only = deck_card(full, "creature", winds="L")
    land = deck_card(full, "land", winds="LR")
    s = full.arranged(chains={0: [[land]]}, weather={0: {b: 5 for b in full.edition.biomes}},
                      hands={0: [left_only]})
    play = next(a for a in s.legal_actions() if isinstance(a, PlayCreature) and a.card == left_only)
    s = do(s, play)       # only the right end of the land card fits: placed at once
    assert s.players[0].chains == ((land, left_only),)
    assert s.pending.kind == "draw"


def test_no_connection_starts_a_new_chain_and_chains_never_rearrange(full):
    a = deck_card(full, "creature", winds="L")
    s = full.arranged(chains={0: [[a]]}, weather={0: {b: 5 for b in full.edition.biomes}})
    other = next(c for c in s.creature_deck if s.card(c).winds == "L")
    s = s.arranged(hands={0: [other]})
    play = next(x for x in s.legal_actions() if isinstance(x, PlayCreature) and x.card == other)
    s = do(s, play)
    assert s.players[0].chains == ((a,), (other,))


def test_choosing_the_chain_end_when_both_fit(full):
    land = deck_card(full, "land", winds="LR")
    s = full.arranged(chains={0: [[land]]})
    cid = next(c.id for c in s.edition.land_cards
               if sorted(c.biomes) == ["Snow", "Sun"] and c.id in s.land_deck and c.id != land)
    s = play_land(s, cid, [(0, 0), (1, 0), (2, 0)])
    assert s.pending.kind == "chain"
    ends = {(x.chain, x.side) for x in s.legal_actions()}
    assert ends == {(0, "left"), (0, "right")}
    s = do(s, PlaceInChain(cid, 0, "left"))
    assert s.players[0].chains == ((cid, land),)


def test_an_ecosystem_earns_a_blessing(full):
    land = deck_card(full, "land", winds="LR")
    creature = deck_card(full, "creature", winds="LR")
    s = full.arranged(chains={0: [[land, creature]]})
    s = s.arranged(blessings={0: {"Flying Seed": 1, "Vigorous Seed": 1}})
    # put two different Blessings in the discard pile by spending them
    s = do(s, pangaea.BlessFlyingSeed((5, 0)))
    s = do(s, pangaea.TakeBackSeed((5, 0)))
    cid = next(c.id for c in s.edition.land_cards
               if sorted(c.biomes) == ["Snow", "Sun"] and c.id in s.land_deck)
    s = s.arranged(hands={0: [cid]}, trees={(0, 0): 0, (1, 0): 0, (2, 0): 0},
                   seeds={(5, 0): 1})
    s = do(s, pangaea.BlessVigorousSeed((5, 0)))
    assert sorted(set(s.blessing_discard)) == ["Flying Seed", "Vigorous Seed"]
    s = do(s, PlayLand(cid, False, ((0, 0), (1, 0), (2, 0))))
    s = do(s, PlaceInChain(cid, 0, "right"))   # Land, Creature, Land: an Ecosystem
    assert s.pending.kind == "ecosystem"
    assert {x.blessing for x in s.legal_actions()} == {"Flying Seed", "Vigorous Seed"}
    s = do(s, TakeBlessing("Vigorous Seed"))
    assert s.players[0].blessing_count("Vigorous Seed") == 1
    assert s.blessing_discard == ("Flying Seed",)


def test_an_ecosystem_draws_from_the_bag_when_the_discard_pile_is_empty(full):
    land = deck_card(full, "land", winds="LR")
    creature = deck_card(full, "creature", winds="LR")
    s = full.arranged(chains={0: [[creature, land]]})
    cid = next(c.id for c in s.edition.land_cards
               if sorted(c.biomes) == ["Snow", "Sun"] and c.id in s.land_deck)
    top = s.blessing_bag[0]
    s = play_land(s, cid, [(0, 0), (1, 0), (2, 0)])
    s = do(s, PlaceInChain(cid, 0, "left"))
    assert s.players[0].blessing_count(top) == 1 and s.blessing_bag == full.blessing_bag[1:]


def test_full_game_save_round_trip(full):
    s, _, _ = creature_chain(full)
    s = do(s, ActivateFavor(s.players[0].played[1], "Okuma"))
    again = type(s).from_json(s.to_json())
    assert again == s and again.pending.kind == "summon"


# ----- explorers and players ------------------------------------------------------------------

def midgame(seed=77, steps=120):
    return forester_game(seed, steps)


def test_rank_rituals_lists_every_legal_ritual_best_first():
    from pangaea_lab.pangaea.rules import ritual_points
    s = midgame()
    while s.pending is not None or s.actions_taken == 2:
        s = s.apply(s.legal_actions()[-1])
    ranked = pangaea.rank_rituals(s)
    legal = {a for a in s.legal_actions() if isinstance(a, (PlayLand, PlayCreature))}
    assert {a for _, a in ranked} == legal
    points = [p for p, _ in ranked]
    assert points == sorted(points, reverse=True)
    for p, a in ranked:
        assert p == ritual_points(s, a)
        after = s.apply(a)
        assert after.players[s.turn_player].points - s.players[s.turn_player].points == p


def test_greedy_player_takes_what_raises_its_standing_most():
    from pangaea_lab.core.players import GreedyPlayer
    s = midgame()
    while s.pending is not None or s.actions_taken == 2:
        s = s.apply(s.legal_actions()[-1])
    assert pangaea.rank_rituals(s), "the position should offer a Ritual"
    choice = GreedyPlayer(3).choose(s)
    p = s.turn_player
    assert s.evaluate(choice, p) == max(s.evaluate(a, p) for a in s.legal_actions())
    # a Ritual's own points are the plain measure the ranking uses
    best, action = pangaea.rank_rituals(s)[0][:2]
    assert pangaea.scoring.evaluate(s, action, p) == best


def test_chains_picture_and_favor_exercise(full):
    from pangaea_lab.pangaea.render import chains_svg
    from pangaea_lab.pangaea.widgets import check_favor_answer
    s, land, c = creature_chain(full, "Chelon")
    s = do(s, ActivateFavor(c, "Chelon"))
    s = do(s, s.legal_actions()[0])
    svg = chains_svg(s, 0)
    assert land in svg and c in svg and "Favor Token activated" in svg
    assert check_favor_answer(s, 0, land, ["Chelon"]).startswith("Right")
    assert check_favor_answer(s, 0, land, ["Okuma"]).startswith("Not quite")
    assert "not one of" in check_favor_answer(s, 0, "L20", [])


def test_board_shows_the_ancients(full):
    s = summon(full, "Chelon", (4, 1))
    assert "Chelon on (4, 1)" in s.to_svg()
    assert "Okuma on" not in s.to_svg()
