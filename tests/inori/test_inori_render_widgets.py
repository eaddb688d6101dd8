"""The board drawing, the step-through widget with Inori, and the season-end explorer."""

from __future__ import annotations

from pangaea_lab import inori
from pangaea_lab.core.players import RandomPlayer, play_game
from pangaea_lab.inori import widgets
from pangaea_lab.inori.actions import ChooseAltar, OfferCard, OfferTree, RuneMove
from pangaea_lab.inori.render import HIGHLIGHT

from inori_helpers import give, occupy, with_cards


def test_board_svg_shows_cards_spaces_tree_and_favor_and_is_deterministic():
    s = with_cards(inori.new_game(players=3, seed=2), "S-light-1", "S-water-1", "S-wind-1")
    s = occupy(give(s, 1, fire=4), 0, 0, 1)
    svg = s.to_svg()
    assert svg == s.to_svg() and svg.startswith("<svg")
    for words in ("Light Shrine", "The Great Tree", "Fire: 4", "space 1: gain Light favor",
                  "Player 2", "[assumption]", "set-aside"):
        assert words in svg
    assert HIGHLIGHT not in svg
    assert HIGHLIGHT in s.to_svg(highlight=[("card", 0, 1)])
    assert HIGHLIGHT in s.to_svg(highlight=[("tree", 4)])
    assert s._repr_svg_() == svg


def test_action_highlight_points_at_the_space_an_action_uses():
    s = inori.new_game(players=2, seed=1)
    # card spaces are (slot, space) and tree spaces (space,): the tuples a click reports
    assert s.action_highlight(OfferCard(1, 2)) == [(1, 2)]
    assert s.action_highlight(OfferTree(3)) == [(3,)]
    assert s.action_highlight(RuneMove("R-move-from-1", 0, 1, 2, 0)) == [(0, 1), (2, 0)]
    pending = s.apply(OfferTree(3))
    assert pending.action_highlight(ChooseAltar("fire")) == [(3,)]
    svg = s.to_svg()
    assert 'data-cell="1,2"' in svg and 'data-cell="3"' in svg


def test_clicking_a_space_in_the_widget_selects_the_offering_there():
    root = widgets.play(players=2, seed=1, computer={})
    model = root.model
    target = [a for a in model.legal_actions() if isinstance(a, OfferCard)][-1]
    model.pick_cell((target.slot, target.space))
    assert model.selected == target
    model.pick_cell((3,))
    assert model.selected == OfferTree(3)


def test_actions_describe_the_card_and_effect_in_plain_words():
    s = with_cards(inori.new_game(players=2, seed=1), "S-light-2", "S-water-1", "S-wind-1")
    texts = [a.describe() for a in s.legal_actions()]
    assert "Offer to card 1, space 1: Light Spring, gain Light + Water favor (free)" in texts
    assert any("then place an Altar tile" in t for t in texts)
    assert "Light Spring" in s.describe_card(0) and "source: assumption" in s.describe_card(0)


def test_step_through_widget_plays_inori_against_computer_players():
    root = widgets.play(players=3, seed=4)
    model, view = root.model, root.view
    assert model.is_computer(1) and model.is_computer(2) and not model.is_computer(0)
    assert set(model.legal_groups()) >= {"Offer to a card", "Offer to the Great Tree"}
    view.apply_button.click()                       # your move; the computers reply
    assert model.state.current_player == 0 and len(model.moves) >= 3
    assert "Move" in view.turn_line.value and "<svg" in view.board.value
    view.end_button.click()
    assert model.is_over and "Game over" in model.result_text()
    assert "Altar majorities" in view.scores_html.value


def test_an_illegal_choice_in_the_widget_is_explained_and_changes_nothing():
    root = widgets.play(players=2, seed=9, computer={})
    model = root.model
    model.play(OfferCard(0, 0))
    before = model.state
    model.apply(OfferCard(0, 0))                    # now taken by Player 1
    assert model.state is before and "each space holds one marker" in model.message


def test_season_explorer_shows_complete_cards_scores_and_majorities():
    s = with_cards(inori.new_game(players=2, seed=3), "J-water-1", "S-light-1", "S-wind-1")
    s = occupy(occupy(give(s, 0, water=3), 0, 0, 0), 0, 1, 1)
    explorer = widgets.season_explorer(s)
    html = explorer.tables.value
    assert "J-water-1" not in html and "Water Journey 1" in html
    assert "complete" in html and "Player 1 +3" in html and "[label: assumption]" in html
    assert explorer.model.card_points() == [3, 0]
    assert explorer.model.highlight() == [("slot", 0)] and HIGHLIGHT in explorer.board.value

    final = play_game(inori.new_game(players=3, seed=8), RandomPlayer(8))
    explorer = widgets.season_explorer(final)
    assert [v for _, v in explorer.model.choices] == [1, 2, 3, 4]
    explorer.picker.value = 4
    assert "Great Tree majorities" in explorer.tables.value
    explorer.picker.value = 2
    assert "Season 2: cards" in explorer.tables.value
    assert "New Start card" in explorer.tables.value


def test_a_learner_plays_a_whole_game_with_the_widget_controls_only():
    # Done means: a full game in the widget against computer players.
    root = widgets.play(players=2, seed=6)
    model, view = root.model, root.view
    clicks = 0
    while not model.is_over:
        assert model.state.current_player == 0          # the computer has replied
        kinds = list(view.kind_picker.options)
        view.kind_picker.value = kinds[clicks % len(kinds)]
        view.action_list.value = len(view.action_list.options) - 1
        view.apply_button.click()
        clicks += 1
        assert clicks < 200 and model.message == ""
    assert "Game over" in view.turn_line.value and len(model.state.reports) == 4
    assert [row[0] for row in model.scores_table()][1:] == list(
        ("Card spaces", "Great Tree", "Season cards", "Altar majorities", "Total"))


def test_season_explorer_draws_the_board_of_the_season_chosen():
    # a scored season is drawn as it was scored, not with the cards on the board today
    final = play_game(inori.new_game(players=3, seed=8), RandomPlayer(8))
    explorer = widgets.season_explorer(final)
    ed = final.edition
    explorer.picker.value = 1
    first = [c["card"] for c in final.reports[0]["cards"]]
    now = [c for c, _ in final.slots]
    assert set(first) != set(now)
    svg = explorer.board.value
    assert "Season 1 as it was scored" in svg
    assert all(ed.cards[c].name in svg for c in first)
    assert not any(ed.cards[c].name in svg for c in now if c not in first)
    state = explorer.model.board_state()
    assert [c for c, _ in state.slots] == first and state.season == 1
    assert sum(map(sum, state.points)) < sum(map(sum, final.points))   # points back then
