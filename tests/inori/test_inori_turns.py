"""A turn: Offer to a Card, Offer to the Great Tree, Rune tiles (rules summary, "Turn")."""

from __future__ import annotations

import pytest

from pangaea_lab import inori
from pangaea_lab.core.errors import IllegalAction
from pangaea_lab.inori.actions import (BlockSpace, ChooseAltar, EndTurn, OfferCard, OfferTree,
                                       RuneGain, RuneMove, RuneOffer, SetAside, TakeFavor)
from pangaea_lab.inori.board import NEUTRAL

from inori_helpers import favor_of, game, give, occupy, play_all, with_cards, with_runes


def tree_index(state, space_id):
    return [t.id for t in state.edition.tree].index(space_id)


# ----- Offer to a Card ---------------------------------------------------------------------

def test_offer_on_a_free_space_takes_its_effect_and_passes_the_turn():
    # "If there is an unoccupied space on a card ... place your marker there for the bonus"
    s = with_cards(game(), "S-light-1", "S-water-1", "S-wind-1")
    after = s.apply(OfferCard(0, 0))
    assert after.slots[0][1][0] == (0,)
    assert favor_of(after, 0, "light") == 1 and after.hand == (3, 4)
    assert after.current_player == 1
    assert s.slots[0][1][0] == ()          # the old state is unchanged


def test_an_occupied_space_is_refused_with_the_rule_and_the_state_is_unchanged():
    s = occupy(with_cards(game(), "S-light-1", "S-water-1", "S-wind-1"), 0, 0, 1)
    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        s.apply(OfferCard(0, 0))
    assert "each space holds one marker" in str(info.value)
    assert "Offer to a Card" in str(info.value) and "Legal choices include" in str(info.value)
    assert s.to_json() == before


def test_a_set_colour_cost_is_paid_before_the_effect():
    # "you may need to pay a cost ... a set colour"
    s = with_cards(game(), "S-light-2", "S-water-1", "S-wind-1")
    with pytest.raises(IllegalAction, match="cannot pay this space's cost"):
        s.apply(OfferCard(0, 2, "light"))
    s = give(s, 0, light=1)
    after = s.apply(OfferCard(0, 2, "light"))
    assert favor_of(after, 0, "light") == 0 and favor_of(after, 0, "fire") == 2
    assert after.supply[s.colour_index("light")] == s.supply[s.colour_index("light")] + 1


def test_a_majority_cost_is_paid_in_your_majority_colour_with_a_choice_on_ties():
    # "the cost ... can be the colour you hold the majority of"
    s = with_cards(game(), "S-light-1", "S-water-1", "S-wind-1")
    assert not any(isinstance(a, OfferCard) and a.space == 3 for a in s.legal_actions())
    s = give(s, 0, water=2, fire=2, wind=1)
    pays = sorted(a.pay for a in s.legal_actions() if isinstance(a, OfferCard)
                  and (a.slot, a.space) == (0, 3))
    assert pays == ["fire", "water"]
    with pytest.raises(IllegalAction, match="must be paid with"):
        s.apply(OfferCard(0, 3, "wind"))
    after = s.apply(OfferCard(0, 3, "fire"))
    # points_majority: 1 point per token of your majority colour, after paying (water 2)
    assert after.scores()[0]["Card spaces"] == 2


def test_card_effects_least_colour_rune_distinct_named_colour():
    # "favor tokens of the colour you have least of", "draw a Rune tile", "a point for each
    # unique colour", "a point for each of a specific colour"
    s = with_cards(game(), "S-light-1", "S-light-2", "N-water")
    s = give(s, 0, light=2, water=1, earth=1)
    # favor of your least-held colour: a choice among the colours you hold fewest of
    s1 = s.apply(OfferCard(0, 1))
    assert s1.current_player == 0
    assert sorted(a.colour for a in s1.legal_actions()) == ["darkness", "fire", "wind"]
    s1 = s1.apply(TakeFavor("wind"))
    assert favor_of(s1, 0, "wind") == 1 and s1.current_player == 1
    # draw a Rune tile
    s2 = s.apply(OfferCard(0, 2))
    assert s2.rune_hands[0] == (s.rune_deck[0],) and len(s2.rune_deck) == 14
    # 1 point per distinct colour held (light, water, earth)
    assert s.apply(OfferCard(1, 1)).scores()[0]["Card spaces"] == 3
    # 1 point per token of a named colour (water)
    assert s.apply(OfferCard(2, 2)).scores()[0]["Card spaces"] == 1
    # favor of set colours (2 water)
    assert favor_of(s.apply(OfferCard(2, 0)), 0, "water") == 3


def test_a_short_supply_gives_what_is_left():
    s = with_cards(game(), "N-water", "S-light-1", "S-wind-1")
    s = give(s, 1, water=s.supply[s.colour_index("water")] - 1)
    after = s.apply(OfferCard(0, 0))
    assert favor_of(after, 0, "water") == 1 and after.supply[s.colour_index("water")] == 0


# ----- Offer to the Great Tree ---------------------------------------------------------------

def test_first_use_of_a_tree_space_takes_its_effect_and_places_an_altar():
    # "place your marker on a space without cost, take the effect and place an unused Altar"
    s = game()
    t6 = tree_index(s, "T6")
    s1 = s.apply(OfferTree(t6))
    assert s1.current_player == 0
    assert sorted(a.colour for a in s1.legal_actions()) == sorted(s.edition.colours)
    s2 = s1.apply(ChooseAltar("wind"))
    assert s2.altars[t6] == "wind" and favor_of(s2, 0, "wind") == 3
    assert s2.current_player == 1
    # the altar cannot be used twice, and the space now costs 1 wind
    s3 = s2.apply(OfferTree(tree_index(s, "T2")))
    assert "wind" not in [a.colour for a in s3.legal_actions()]
    s4 = s3.apply(ChooseAltar("fire"))
    assert s4.scores()[1]["Great Tree"] == 5
    # next season the T6 space costs 1 wind and gives 3 wind again
    assert OfferTree(t6, None) not in s4.legal_actions()


def test_a_tree_space_with_an_altar_costs_one_token_of_its_colour():
    # "this becomes the cost to use this space later" (1 token: labelled assumption)
    s = game()
    t6 = tree_index(s, "T6")
    s = play_all(s, [OfferTree(t6), ChooseAltar("water")])
    from dataclasses import replace
    s = replace(s, tree_markers=(None,) * 9, hand=(s.hand[0] + 1, s.hand[1]))
    s = replace(s, turn=0)
    with pytest.raises(IllegalAction, match="pay 1 Water"):
        s.apply(OfferTree(t6))
    after = s.apply(OfferTree(t6, "water"))
    assert favor_of(after, 0, "water") == 3 - 1 + 3


def test_any_two_favors_and_points_per_altar_token():
    # "Take any two Favor tokens"; "Score a point for each token you have matching the Altar"
    s = give(game(), 0, earth=2)
    t1, t4 = tree_index(s, "T1"), tree_index(s, "T4")
    s1 = play_all(s, [OfferTree(t1), ChooseAltar("light"), TakeFavor("fire"),
                      TakeFavor("fire")])
    assert favor_of(s1, 0, "fire") == 2 and s1.current_player == 1
    s2 = play_all(s, [OfferTree(t4), ChooseAltar("earth")])
    assert s2.scores()[0]["Great Tree"] == 2


def test_rune_and_favor_and_block_two_spaces_with_the_neutral_markers():
    # "Take a Rune tile plus a Favor token matching the Altar"; "Block two card spaces with
    # the neutral markers and gain a Favor token matching the Altar"
    s = game()
    t3, t5 = tree_index(s, "T3"), tree_index(s, "T5")
    s1 = play_all(s, [OfferTree(t3), ChooseAltar("darkness")])
    assert favor_of(s1, 0, "darkness") == 1 and len(s1.rune_hands[0]) == 1
    s2 = play_all(s, [OfferTree(t5), ChooseAltar("light")])
    assert favor_of(s2, 0, "light") == 1
    assert all(isinstance(a, BlockSpace) for a in s2.legal_actions())
    s3 = play_all(s2, [BlockSpace(0, 0), BlockSpace(1, 2)])
    assert s3.slots[0][1][0] == (NEUTRAL,) and s3.slots[1][1][2] == (NEUTRAL,)
    assert s3.neutral_home == 0 and s3.current_player == 1
    # a blocked space is not free any more, and the occupied-space rune cannot take it
    assert OfferCard(0, 0) not in s3.legal_actions()


def test_root_spaces_give_the_set_aside_tokens_once():
    # "Take the two favor tokens set aside during setup" (not refilled)
    s = game(seed=4)
    root = tree_index(s, "R1")
    colour = s.root_colours[0]
    s1 = s.apply(OfferTree(root))
    assert favor_of(s1, 0, colour) == 2 and s1.root_tokens[0] == 0
    s1.check_invariants()


# ----- Rune tiles ----------------------------------------------------------------------------

def test_favor_rune_before_or_after_the_offering_then_end_turn():
    # "Some give you Favor tokens of a shown colour"; playable at any moment of your own turn
    # (labelled assumption for the timing)
    s = with_runes(with_cards(game(), "S-light-1", "S-water-1", "S-wind-1"), 0, "R-gain-fire")
    assert RuneGain("R-gain-fire") in s.legal_actions()
    s1 = s.apply(RuneGain("R-gain-fire"))
    assert favor_of(s1, 0, "fire") == 2 and s1.current_player == 0
    assert s1.runes_used == ("R-gain-fire",)
    # played after the offering: the turn waits for the rune or for End turn
    s2 = s.apply(OfferCard(0, 0))
    assert s2.current_player == 0 and EndTurn() in s2.legal_actions()
    assert s2.apply(EndTurn()).current_player == 1
    with pytest.raises(IllegalAction, match="before ending your turn"):
        s.apply(EndTurn())


def test_move_rune_to_a_card_of_its_colour():
    # "move a marker from any other card to an unoccupied space on a card of matching colour"
    s = with_cards(game(), "S-light-1", "S-water-1", "S-wind-1")
    s = with_runes(occupy(s, 0, 0, 0), 0, "R-move-to-water")
    moves = [a for a in s.legal_actions() if isinstance(a, RuneMove)]
    assert moves and all(a.to_slot == 1 and a.from_slot == 0 for a in moves)
    after = s.apply(RuneMove("R-move-to-water", 0, 0, 1, 2))
    assert after.slots[0][1][0] == () and after.slots[1][1][2] == (0,)
    assert after.rune_hands[0] == () and len(after.rune_deck) == 14  # no effect taken
    after.check_invariants()


def test_move_rune_off_a_named_card_slot():
    # "move a marker from a shown card to an unoccupied space on any other card"
    s = with_cards(game(), "S-light-1", "S-water-1", "S-wind-1")
    s = with_runes(occupy(occupy(s, 0, 0, 0), 1, 0, 0), 0, "R-move-from-2")
    moves = [a for a in s.legal_actions() if isinstance(a, RuneMove)]
    assert moves and {(a.from_slot, a.from_space) for a in moves} == {(1, 0)}
    assert all(a.to_slot != 1 for a in moves)


def test_offer_on_an_occupied_space_held_by_someone_else():
    # "play on an occupied space, as long as it is not you who occupies it"
    s = with_cards(game(), "S-light-1", "S-water-1", "S-wind-1")
    s = occupy(occupy(occupy(s, 0, 0, 1), 0, 1, 0), 0, 2, NEUTRAL)
    s = with_runes(s, 0, "R-occupied-1")
    offers = {(a.slot, a.space) for a in s.legal_actions() if isinstance(a, RuneOffer)}
    assert offers == {(0, 0)}
    after = s.apply(RuneOffer("R-occupied-1", 0, 0))
    assert after.slots[0][1][0] == (1, 0) and favor_of(after, 0, "light") == 1
    assert after.current_player == 1
    after.check_invariants()


def test_a_before_offering_rune_timing_from_the_edition_data():
    data = inori.reference_data()
    for r in data["runes"]:
        r["timing"] = "before_offering"
    s = with_runes(with_cards(inori.new_game(players=2, seed=0, edition=data),
                              "S-light-1", "S-water-1", "S-wind-1"), 0, "R-gain-fire")
    assert RuneGain("R-gain-fire") in s.legal_actions()
    after = s.apply(OfferCard(0, 0))
    assert after.current_player == 1          # the rune can no longer be played this turn


def test_a_player_who_cannot_offer_sets_the_marker_aside():
    # The summary is silent; labelled assumption "No legal offering".
    s = with_cards(game(), "S-light-1", "S-water-1", "S-wind-1")
    from dataclasses import replace
    ed = s.edition
    full = tuple((c, tuple((1,) for _ in sp)) for c, sp in s.slots)
    # every card space and every tree space is taken (a position built by hand)
    s = replace(s, slots=full, tree_markers=(1,) * len(ed.tree))
    assert s.legal_actions() == [SetAside()]
    after = s.apply(SetAside())
    assert after.set_aside == (1, 0) and after.hand == (3, 4)
    assert after.current_player == 1
