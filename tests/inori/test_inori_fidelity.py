"""Rules fidelity: what the rules summary and the reference notes say about cards that score
while incomplete, the 2-player marker schedule, rune timing and emptied root spaces."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from pangaea_lab import inori
from pangaea_lab.core.errors import IllegalAction, InvalidData
from pangaea_lab.core.players import RandomPlayer, play_game
from pangaea_lab.inori import widgets
from pangaea_lab.inori.actions import (EndTurn, OfferCard, OfferTree, PassRunes, RuneGain,
                                       RuneMove)
from pangaea_lab.inori.board import root_spaces

from inori_helpers import game, give, occupy, with_cards, with_runes


def last_marker(state, player=0, fill_tree=False):
    """The same position, but ``player`` holds the season's last marker; with ``fill_tree``
    the other markers of the season stand on the Great Tree's altar spaces, so every count
    adds up (a position a save accepts)."""
    hand = [0] * state.num_players
    hand[player] = 1
    if not fill_tree:
        return replace(state, hand=tuple(hand), turn=player)
    tree = list(state.tree_markers)
    free = [t for t, space in enumerate(state.edition.tree) if space.altar and tree[t] is None]
    for p in range(state.num_players):
        for _ in range(state.schedule[state.season - 1] - hand[p] - state.markers_on_board(p)):
            tree[free.pop(0)] = p
    return replace(state, hand=tuple(hand), turn=player, tree_markers=tuple(tree))


# ----- cards that score while incomplete -----------------------------------------------------

def test_cards_that_score_while_incomplete_belong_to_seasons_three_and_four():
    # reference notes, End of season: "some cards in seasons 3-4 have a bottom-right effect
    # that scores tokens of a shown colour even when incomplete"
    ed = inori.load_edition()
    late = [c for c in ed.cards.values() if c.incomplete_score]
    assert late and all(c.earliest_season == 3 for c in late)
    assert all(c.earliest_season == 1 for c in ed.cards.values() if not c.incomplete_score)


@pytest.mark.parametrize("seed", range(12))
def test_no_card_scores_while_incomplete_in_seasons_one_and_two(seed):
    final = play_game(inori.new_game(players=2 + seed % 3, seed=seed), RandomPlayer(seed))
    ed = final.edition
    for report in final.reports:
        for card in report["cards"]:
            if report["season"] <= 2:
                assert ed.cards[card["card"]].incomplete_score is None, (report["season"],
                                                                        card["card"])
            if not card["complete"] and card["points"]:
                assert report["season"] >= 3


@pytest.mark.parametrize("season, drawn_late", [(1, False), (2, True)])
def test_a_replacement_for_season_two_passes_over_a_season_three_card(season, drawn_late):
    s = with_cards(game(players=2), "J-water-1", "S-light-1", "S-wind-1")
    k = s.edition.colours.index("water")
    piles = list(s.piles)
    piles[k] = ("J-water-5",) + tuple(c for c in piles[k] if c != "J-water-5")
    s = replace(s, piles=tuple(piles), season=season)
    s = occupy(s, 0, 1, 1)
    end = last_marker(s).apply(OfferCard(0, 0))     # card 1 complete: a water card next
    new = end.slots[0][0]
    assert end.season == season + 1 and end.edition.cards[new].colour == "water"
    assert (new == "J-water-5") == drawn_late
    if not drawn_late:
        assert end.piles[k][0] == "J-water-5"          # still waiting on top of its pile


# ----- the marker schedule -------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_new_marker_at_each_season_end_except_the_first_at_four_players(players):
    # rules summary, End of Season: "players gain a new marker from the next season's space
    # (with 4 players, the first season end gives none)"
    state = inori.new_game(players=players, seed=3)
    steps = [b - a for a, b in zip(state.schedule, state.schedule[1:])]
    assert steps == ([0, 1, 1] if players == 4 else [1, 1, 1])
    assert state.schedule[-1] == state.edition.markers_total[players]
    s = with_cards(state, "S-light-1", "S-water-1", "S-wind-1")
    end = last_marker(s).apply(OfferCard(0, 0))
    assert end.hand == (state.schedule[0] + steps[0],) * players


def test_the_other_two_player_reading_stays_available_and_labelled():
    ed = inori.load_edition()
    assert ed.schedules["three_at_start"][2] == (3, 5, 6, 7)
    assert "rules summary" in ed.sources["marker schedule"]
    text = dict((t, x) for t, x, _ in ed.assumption_table())["Two-player markers"]
    assert "three_at_start" in text


# ----- rune timing ---------------------------------------------------------------------------

def test_the_reference_runes_use_both_timings_and_say_so_in_the_data():
    # reference notes, Rune tiles: "Some can be played at any time, others only at the start
    # of your turn"
    ed = inori.load_edition()
    timings = {r.timing for r in ed.runes.values()}
    assert timings == {"any_time", "turn_start"}
    assert all(r.any_time == (r.kind == "gain_favor") for r in ed.runes.values())
    assert all(raw["source"] == "assumption" and raw["timing"]
               for raw in ed.raw["runes"])
    text = dict((t, x) for t, x, _ in ed.assumption_table())["Rune tiles"]
    assert "any moment" in text and "start of your own turn" in text


def test_an_any_time_rune_is_played_outside_its_owners_turn_before_the_scoring():
    # ducksch: a rune used at scoring to gain one more favor token
    s = with_cards(game(players=2), "J-water-1", "S-light-1", "S-wind-1")
    s = occupy(give(s, 1, water=1), 0, 1, 1)
    s = with_runes(s, 1, "R-gain-water")
    s = last_marker(s, player=0, fill_tree=True)
    window = s.apply(OfferCard(0, 0))           # the season's last marker: card 1 complete
    assert window.season == 1 and window.current_player == 1 and window.turn == 0
    assert window.legal_actions() == [RuneGain("R-gain-water"), PassRunes()]
    with pytest.raises(IllegalAction, match="the season is ending"):
        window.apply(OfferCard(1, 0))
    played = window.apply(RuneGain("R-gain-water"))
    assert played.season == 2
    assert played.scores()[1]["Season cards"] == 3          # 1 + the 2 just gained
    passed = window.apply(PassRunes())
    assert passed.season == 2 and passed.scores()[1]["Season cards"] == 1
    for state in (window, played, passed):
        state.check_invariants()
        assert inori.GameState.from_json(state.to_json()) == state


def test_a_start_of_turn_rune_cannot_be_played_after_the_offering():
    s = with_cards(game(players=2), "S-light-1", "S-water-1", "S-wind-1")
    s = with_runes(occupy(s, 0, 0, 0), 0, "R-move-to-water", "R-gain-fire")
    assert any(isinstance(a, RuneMove) for a in s.legal_actions())
    after = s.apply(OfferCard(2, 0))
    assert after.current_player == 0            # the any-time rune still waits
    assert after.legal_actions() == [RuneGain("R-gain-fire"), EndTurn()]
    with pytest.raises(IllegalAction, match="only at the start of your turn"):
        after.apply(RuneMove("R-move-to-water", 0, 0, 1, 2))


def test_the_step_through_widget_asks_the_runes_owner_at_the_season_end():
    root = widgets.play(players=2, seed=5, computer={})
    model = root.model
    s = with_cards(model.state, "J-water-1", "S-light-1", "S-wind-1")
    s = last_marker(with_runes(s, 1, "R-gain-water"), player=0)
    model._states[-1] = s                        # a position built by hand, in the widget
    model.play(OfferCard(0, 0))
    assert model.state.current_player == 1 and "Player 2" in model.status()
    assert "Play a Rune tile" in model.legal_groups() and "Let the season be scored" in \
        model.legal_groups()
    assert "Player 2" in root.view.turn_line.value


# ----- emptied root spaces -------------------------------------------------------------------

def test_an_emptied_root_space_takes_no_more_offerings():
    s = game(players=2)
    root = root_spaces(s.edition)[0]
    s2 = s.apply(OfferTree(root)).apply(OfferCard(0, 0))
    assert s2.current_player == 0
    later = replace(s2, season=3, tree_markers=(None,) * len(s2.tree_markers),
                    slots=tuple((c, ((),) * len(sp)) for c, sp in s2.slots), hand=(6, 6))
    for state in (s2, later):                       # this season and the seasons after
        assert not any(isinstance(a, OfferTree) and a.space == root
                       for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="tokens of this root space are gone"):
        later.apply(OfferTree(root))


def test_the_other_reading_of_an_emptied_root_space_is_an_edition_choice():
    data = inori.reference_data()
    data["great_tree"]["emptied_root"] = "free_no_effect"
    s = inori.new_game(players=2, seed=0, edition=data)
    root = root_spaces(s.edition)[0]
    s1 = s.apply(OfferTree(root)).apply(OfferCard(0, 0))
    s1 = replace(s1, tree_markers=(None,) * len(s1.tree_markers), hand=(3, 4))
    assert OfferTree(root) in s1.legal_actions()
    text = dict((t, x) for t, x, _ in inori.load_edition().assumption_table())
    assert "free_no_effect" in text["Emptied root space"]


@pytest.mark.parametrize("change, field", [
    (lambda d: d["cards"][20].__setitem__("earliest_season", 9), "earliest_season"),
    (lambda d: d["cards"][20].__setitem__("earliest_season", "3"), "earliest_season"),
    (lambda d: d["cards"][0].__setitem__("earliest_season", 2), "earliest_season"),
    (lambda d: d["runes"][0].__setitem__("timing", "whenever"), "runes[0].timing"),
    (lambda d: d["great_tree"].__setitem__("emptied_root", "open"), "emptied_root"),
])
def test_the_new_edition_fields_are_checked_and_named(change, field):
    data = inori.reference_data()
    change(data)
    with pytest.raises(InvalidData, match=re.escape(field)):
        inori.load_edition(data)


# ----- readings labelled in the third audit ---------------------------------------------------

def _labelled(topic):
    ed = inori.load_edition()
    return next((text, label) for t, text, label in ed.assumption_table() if t == topic)


def test_majority_colour_points_count_the_tokens_left_after_paying():
    """A card space's cost and effect (labelled 'Counting after paying'): the rules summary
    says a cost may be of your majority colour and an effect may score your majority colour,
    not when the tokens are counted.  Here the cost is paid first: with 3 light and 2 water,
    paying a light token leaves 2 and 2, so the space scores 2, not 3."""
    text, label = _labelled("Counting after paying")
    assert label == "assumption" and "after" in text and "majority" in text
    s = with_cards(game(seed=1), "S-light-1", "S-water-1", "S-fire-1")
    s = replace(s, favor=tuple((0,) * 6 for _ in range(2)),
                supply=tuple(n + sum(p[k] for p in s.favor) for k, n in enumerate(s.supply)))
    s = give(s, 0, light=3, water=2)
    s = replace(s, turn=0)
    act = OfferCard(0, 3, "light")
    assert act in s.legal_actions()
    after = s.apply(act)
    assert sum(after.points[0]) - sum(s.points[0]) == 2
    assert after.favor[0][:3] == (2, 0, 2)


def test_the_occupied_space_rune_never_opens_a_neutral_markers_space():
    """Runes, the occupied space (labelled 'Occupied-space rune'): the rune's words only rule
    out a space you hold yourself; the neutral markers are there to block card spaces, and the
    project keeps them blocking, so the rune opens another player's space but not a neutral
    one."""
    from pangaea_lab.inori.actions import RuneOffer
    from pangaea_lab.inori.board import NEUTRAL
    text, label = _labelled("Occupied-space rune")
    assert label == "assumption" and "neutral" in text and "block" in text
    s = with_cards(game(players=2, seed=3), "S-light-1", "S-water-1", "S-fire-1")
    s = occupy(occupy(s, 0, 0, 1), 0, 1, NEUTRAL)
    s = with_runes(replace(s, turn=0), 0, "R-occupied-1")
    offers = {(a.slot, a.space) for a in s.legal_actions() if isinstance(a, RuneOffer)}
    assert (0, 0) in offers and (0, 1) not in offers
    with pytest.raises(IllegalAction):
        s.apply(RuneOffer("R-occupied-1", 0, 1, None))
