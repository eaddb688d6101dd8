"""End of Season and End of Game (rules summary, "End of Season" and "End of Game")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pangaea_lab import inori
from pangaea_lab.core.players import RandomPlayer, play_game
from pangaea_lab.inori.actions import ChooseNewStart, OfferCard, OfferTree
from pangaea_lab.inori.board import NEUTRAL

from inori_helpers import favor_of, game, give, occupy, with_cards


def last_marker(state):
    """The same position, but Player 1 holds the season's last marker."""
    n = state.num_players
    return replace(state, hand=(1,) + (0,) * (n - 1), turn=0)


def test_a_complete_card_scores_its_colour_for_each_player_present():
    # "For complete cards, each player present scores 1 point per favor token of the card's
    # colour ... then the card is replaced by a new one of the top-right colour"
    s = with_cards(game(players=3), "J-water-1", "S-light-1", "S-wind-1")
    s = give(give(give(s, 0, water=2), 1, water=1), 2, water=5)
    s = occupy(s, 0, 1, 1)
    end = last_marker(s).apply(OfferCard(0, 0))
    assert end.season == 2
    season = dict((name, pts) for name, pts in end.scores()[0].categories)["Season cards"]
    assert season == 3                               # 2 water + the 1 just taken
    assert end.scores()[1]["Season cards"] == 1
    assert end.scores()[2]["Season cards"] == 0      # holds water but was not present
    new = end.slots[0][0]
    assert new != "J-water-1" and end.edition.cards[new].colour == "water"
    assert end.reports[0]["cards"][0]["complete"] is True


def test_several_markers_on_one_card_score_once():
    s = with_cards(game(players=2), "J-water-1", "S-light-1", "S-wind-1")
    s = give(s, 0, water=4)
    s = occupy(s, 0, 1, 0)
    end = last_marker(s).apply(OfferCard(0, 0))
    assert end.scores()[0]["Season cards"] == 5      # 4 + 1 water, once


def test_incomplete_cards_score_nothing_and_become_their_bottom_right_colour():
    s = with_cards(game(players=2), "S-light-1", "S-water-1", "S-wind-1")
    s = give(s, 0, light=3)
    s = occupy(s, 0, 0, 0)
    end = last_marker(s).apply(OfferCard(1, 0))
    ed = end.edition
    assert end.scores()[0]["Season cards"] == 0
    assert [ed.cards[c].colour for c, _ in end.slots[:3]] == ["darkness", "fire", "earth"]
    assert set(end.spent_cards) >= {"S-light-1", "S-water-1", "S-wind-1"}


def test_a_card_with_a_bottom_right_score_scores_even_when_incomplete():
    # Some later cards score a shown colour when incomplete (reference notes, End of season).
    s = with_cards(game(players=2), "J-water-5", "S-light-1", "S-wind-1")
    s = give(s, 0, water=2)
    end = last_marker(s).apply(OfferCard(0, 1))
    assert end.scores()[0]["Season cards"] == 3      # incomplete, still 1 per water


def test_neutral_markers_fill_spaces_and_come_back_with_every_marker():
    s = with_cards(game(players=2), "J-water-1", "S-light-1", "S-wind-1")
    s = occupy(s, 0, 1, NEUTRAL)
    s = replace(s, tree_markers=(1,) + (None,) * 8)
    end = last_marker(s).apply(OfferCard(0, 0))
    assert end.reports[0]["cards"][0]["complete"] is True
    assert end.neutral_home == 2 and end.tree_markers == (None,) * 9
    assert all(o == () for _, sp in end.slots for o in sp)


@pytest.mark.parametrize("players, second", [(2, 5), (3, 4), (4, 3)])
def test_new_markers_per_season_and_player_count(players, second):
    # "players gain a new marker from the next season's space (with 4 players, the first
    # season end gives none)"
    s = with_cards(game(players=players), "S-light-1", "S-water-1", "S-wind-1")
    end = last_marker(s).apply(OfferCard(0, 0))
    assert end.hand == (second,) * players


def test_the_lowest_score_picks_one_of_two_new_start_cards_and_plays_first():
    s = with_cards(game(players=3), "S-light-1", "S-water-1", "S-wind-1")
    s = replace(s, points=((5, 0, 0, 0), (0, 2, 0, 0), (3, 0, 0, 0)))
    end = last_marker(s).apply(OfferCard(0, 0))
    assert end.current_player == 1
    choices = end.legal_actions()
    assert len(choices) == 2 and all(isinstance(a, ChooseNewStart) for a in choices)
    assert all(end.edition.cards[a.card].type == "new_start" for a in choices)
    kept, other = choices[1].card, choices[0].card
    after = end.apply(ChooseNewStart(kept))
    assert len(after.slots) == 4 and after.slots[3][0] == kept
    assert other in after.spent_cards and after.first_player == 1
    assert after.current_player == 1 and after.season == 2


def test_a_tie_for_lowest_goes_to_the_latest_player_in_turn_order():
    s = with_cards(game(players=3), "S-light-1", "S-water-1", "S-wind-1")
    s = replace(s, points=((0, 0, 0, 0), (0, 4, 0, 0), (0, 0, 0, 0)))
    end = last_marker(s).apply(OfferCard(0, 0))     # a favor token, no points
    assert end.current_player == 2 and end.reports[0]["lowest"] == 2


def test_the_game_ends_after_season_four_with_majorities():
    s = with_cards(game(players=2), "S-light-1", "S-water-1", "S-wind-1")
    s = replace(s, season=4, altars=("fire",) + (None,) * 8)
    s = give(give(s, 0, fire=3), 1, fire=1)
    end = last_marker(s).apply(OfferCard(0, 0))
    assert end.is_over and end.current_player is None and end.legal_actions() == []
    assert end.scores()[0]["Altar majorities"] == 6
    assert end.scores()[1]["Altar majorities"] == 3
    assert end.reports[-1]["majorities"][0]["first"] == [0]
    assert end.winners() == [0]


@pytest.mark.parametrize("counts, first, second", [
    ((5, 5, 2), [0, 1], []),          # tied for 1st: all score 1st, nobody 2nd
    ((5, 3, 3), [0], [1, 2]),         # tied for 2nd: all score 2nd
    ((0, 4, 1), [1], [2]),
    ((0, 0, 0), [], []),              # nobody holds the colour
    ((2, 0, 0), [0], []),
])
def test_majority_ties_follow_the_rulebook(counts, first, second):
    ed = inori.load_edition()
    k = ed.colours.index("earth")
    favor = [[n if i == k else 0 for i in range(6)] for n in counts]
    altars = ["earth"] + [None] * 8
    (result,) = inori.score_majorities(ed, altars, favor)
    assert result["first"] == first and result["second"] == second
    expected = {p: 6 for p in first} | {p: 3 for p in second}
    assert result["points"] == expected


def test_overall_tie_break_is_most_favor_left_then_shared():
    s = replace(game(players=3), over=True, hand=(0, 0, 0),
                points=((10, 0, 0, 0), (4, 6, 0, 0), (1, 0, 0, 0)))
    s = give(give(s, 0, light=2), 1, light=3)
    assert s.winners() == [1]
    s = give(s, 0, fire=1)
    assert s.winners() == [0, 1]


def test_a_random_game_has_exactly_four_scored_seasons():
    final = play_game(inori.new_game(players=4, seed=21), RandomPlayer(21))
    assert final.is_over and [r["season"] for r in final.reports] == [1, 2, 3, 4]
    assert "majorities" in final.reports[-1]
    assert len(final.slots) == 6 and final.season == 4


def test_season_end_preview_matches_what_the_season_end_does():
    s = with_cards(game(players=3), "J-water-1", "S-light-1", "S-wind-1")
    s = give(give(s, 0, water=2), 1, water=1)
    s = occupy(occupy(s, 0, 1, 1), 0, 0, 0)
    preview = inori.season_end_preview(s)
    assert preview["cards"][0]["complete"] and preview["card_points"] == [2, 1, 0]
    end = last_marker(s).apply(OfferTree(6))
    assert [sc["Season cards"] for sc in end.scores()] == [2 + 0, 1, 0]
    assert favor_of(end, 0, s.root_colours[0]) == 2
