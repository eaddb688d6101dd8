"""The step-through view, driven like a learner would (clicks and picks), no browser."""

import html
import re
import time

import ipywidgets as widgets
import pytest

from clicks_support import page_clicks
from pangaea_lab.core import InvalidSetup
from pangaea_lab.core.players import Player
from pangaea_lab.core.widget import StepThroughModel, StepThroughView, step_through

import toy_game
from toy_game import Pass, Place


def make(**kwargs):
    kwargs.setdefault("rocks", 0)
    w = step_through(toy_game.new_game, **kwargs)
    return w, w.model, w.view


def log_lines(view):
    """The log box's lines as plain text."""
    return html.unescape(re.sub("<[^>]+>", "", view.log_box.value)).splitlines()[1:]


def labels(select):
    return [label for label, _ in select.options]


def test_step_through_returns_the_root_widget_with_model_and_view():
    w, m, v = make(seed=4)
    assert isinstance(w, widgets.VBox)
    assert isinstance(m, StepThroughModel) and isinstance(v, StepThroughView)
    assert v.root is w and v.model is m
    assert "application/vnd.jupyter.widget-view+json" in v._repr_mimebundle_()


def test_first_picture():
    w, m, v = make(players=3)
    assert v.board.value == m.svg() and v.board.value.startswith("<svg")
    assert v.turn_line.value == "<b>Move 1: Red to play.</b>"
    for name in ("Red", "Blue", "Yellow"):
        assert f"<b>{name}</b>: 0 stones, 0 links" in v.players_html.value
    assert v.players_html.value.startswith("<div>&#9654; <b>Red</b>")
    assert list(v.kind_picker.options) == ["place", "pass"]
    assert v.kind_picker.value == "place"
    assert labels(v.action_list)[0] == "Place a stone on (0, 0)"
    assert len(v.action_list.options) == 19 and v.action_list.value == 0
    assert not v.apply_button.disabled
    assert v.undo_button.disabled and v.redo_button.disabled
    assert v.message_line.value == "" and log_lines(v) == []
    assert "Scores so far" in v.scores_html.value and "<th" in v.scores_html.value
    assert v.seed_box.value == "0" and v.players_picker.value == 3
    assert list(v.players_picker.options) == [2, 3, 4]
    assert [p.value for p in v.seat_pickers] == ["human"] * 3
    assert [p.description for p in v.seat_pickers] == ["Red", "Blue", "Yellow"]


def test_picking_an_action_highlights_it():
    w, m, v = make()
    before = v.board.value
    v.action_list.value = 3
    assert m.selected == m.legal_groups()["place"][3]
    assert v.board.value == m.state.to_svg(highlight=[m.selected.cell]) != before


def test_picking_a_kind_lists_its_actions():
    w, m, v = make()
    v.kind_picker.value = "pass"
    assert labels(v.action_list) == ["Pass"] and v.action_list.value == 0
    assert m.selected == Pass()
    v.kind_picker.value = "place"
    assert m.selected == Place((0, 0))


def test_apply_undo_redo_buttons():
    w, m, v = make()
    v.action_list.value = 1
    chosen = m.selected
    v.apply_button.click()
    assert m.actions == [chosen]
    assert log_lines(v) == [f"1. Red: {chosen.describe()}"]
    assert v.turn_line.value == "<b>Move 2: Blue to play.</b>"
    assert "1 stones" in v.players_html.value
    assert not v.undo_button.disabled and v.redo_button.disabled
    assert chosen.describe() not in labels(v.action_list)
    v.kind_picker.value = "pass"
    v.apply_button.click()
    assert log_lines(v)[0] == "2. Blue: Pass", "newest first"
    v.undo_button.click()
    assert len(m.moves) == 1 and not v.redo_button.disabled
    v.undo_button.click()
    assert m.moves == [] and v.undo_button.disabled and log_lines(v) == []
    v.redo_button.click()
    v.redo_button.click()
    assert len(m.moves) == 2 and v.redo_button.disabled


def test_a_rejected_move_shows_the_reason_on_the_message_line():
    w, m, v = make()
    m.apply(Place((0, 0)))
    m.apply(Place((0, 0)))          # straight through the model: the view still redraws
    assert "cannot do this now" in v.message_line.value
    assert "rule: Placing a stone" in v.message_line.value
    v.apply_button.click()
    assert v.message_line.value == ""


def test_computer_move_and_play_to_end():
    w, m, v = make(seed=6)
    v.computer_button.click()
    assert len(m.moves) == 1 and "(random)" in log_lines(v)[0]
    v.end_button.click()
    assert m.is_over
    assert v.turn_line.value.startswith("<b>Game over: ")
    assert log_lines(v)[0].endswith(m.result_text())
    assert "Final scores" in v.scores_html.value and "&#9733;" in v.scores_html.value
    assert v.apply_button.disabled and v.computer_button.disabled and v.end_button.disabled
    assert list(v.kind_picker.options) == [] and list(v.action_list.options) == []
    v.undo_button.click()
    assert not m.is_over and not v.apply_button.disabled


def test_playing_a_whole_game_against_the_computer():
    w, m, v = make(seed=8)
    v.seat_pickers[1].value = "greedy"
    assert m.seat(1) == "greedy"
    assert "<i>(computer: greedy)</i>" in v.players_html.value
    for _ in range(40):
        if m.is_over:
            break
        assert m.state.current_player == 0, "the computer always answers at once"
        v.apply_button.click()
    assert m.is_over
    assert [mv.seat for mv in m.moves[:4]] == [0, 1, 0, 1]
    assert all(mv.by == "greedy" for mv in m.moves if mv.seat == 1)


def test_undo_and_redo_skip_the_computers_reply():
    w, m, v = make(computer={1: "greedy"})
    v.apply_button.click()
    v.apply_button.click()
    assert [mv.seat for mv in m.moves] == [0, 1, 0, 1]
    mine = m.history[2]
    v.undo_button.click()
    assert m.state is mine and m.state.current_player == 0
    v.redo_button.click()
    assert len(m.moves) == 4 and m.state.current_player == 0


def test_a_computer_seat_on_turn_moves_at_once():
    w, m, v = make()
    v.seat_pickers[0].value = "random"
    assert len(m.moves) == 1 and m.state.current_player == 1
    assert v.turn_line.value == "<b>Move 2: Blue to play.</b>"


def test_computer_first_seat_opens_the_game():
    w, m, v = make(computer={0: "greedy"})
    assert len(m.moves) == 1 and m.moves[0].by == "greedy"
    assert v.seat_pickers[0].value == "greedy"


def test_computers_only_step_one_move_at_a_time():
    w, m, v = make(computer={0: "random", 1: "greedy"})
    assert m.moves == [], "nobody to wait for: the learner steps through"
    v.computer_button.click()
    v.computer_button.click()
    assert [mv.by for mv in m.moves] == ["random", "greedy"]


def test_new_game_with_other_players_and_seed():
    w, m, v = make(seed=1)
    v.apply_button.click()
    v.players_picker.value = 4
    v.seed_box.value = "11"
    v.new_game_button.click()
    assert (m.players, m.seed) == (4, 11)
    assert m.state == toy_game.new_game(players=4, seed=11, rocks=0)
    assert m.moves == [] and log_lines(v) == []
    assert len(v.seat_pickers) == 4 and len(v.seats_box.children) == 4
    assert "Purple" in v.players_html.value
    v.seat_pickers[3].value = "random"
    assert m.seat(3) == "random"


def test_new_game_keeps_a_text_seed_unless_the_box_changes():
    w, m, v = make(seed="class-3b")
    assert v.seed_box.value == "class-3b"
    v.new_game_button.click()
    assert m.seed == "class-3b"
    v.seed_box.value = "5"
    v.new_game_button.click()
    assert m.seed == 5


def test_the_seed_box_refuses_what_is_not_a_whole_number_with_a_sentence():
    w, m, v = make(seed=4)
    v.apply_button.click()
    for typed in ("2.5", "abc", ""):
        v.seed_box.value = typed
        v.new_game_button.click()
        assert m.seed == 4 and len(m.moves) == 1          # the game goes on unchanged
        assert "The seed" in v.message_line.value and "whole number, like 7" in v.message_line.value
    assert "“2.5”" not in v.message_line.value and "missing" in v.message_line.value
    v.seed_box.value = "25"
    v.new_game_button.click()
    assert m.seed == 25 and m.moves == []


def test_a_game_that_refuses_to_start_shows_why():
    def picky_new_game(players, seed, **options):
        if seed == 13:
            raise InvalidSetup("seed 13 is not used in this classroom")
        return toy_game.new_game(players=players, seed=seed, **options)

    w = step_through(picky_new_game, seed=2, rocks=0)
    m, v = w.model, w.view
    v.apply_button.click()
    v.seed_box.value = "13"
    v.new_game_button.click()
    assert "seed 13 is not used" in v.message_line.value
    assert m.seed == 2 and len(m.moves) == 1


def test_own_player_seat_option():
    class Passer(Player):
        name = "passer"

        def choose(self, state):
            return Pass()

    w, m, v = make(computer={1: Passer()})
    picker = v.seat_pickers[1]
    assert ("Passer", "own") in list(picker.options) and picker.value == "own"
    assert ("Passer", "own") not in list(v.seat_pickers[0].options)
    v.apply_button.click()
    assert log_lines(v)[0] == "2. Blue: Pass (passer)"
    picker.value = "human"
    assert not m.is_computer(1)
    picker.value = "own"
    assert m.seat(1) == "own"


def test_the_view_is_quick():
    w, m, v = make(players=4)
    start = time.perf_counter()
    for _ in range(10):
        v.apply_button.click()
    assert (time.perf_counter() - start) / 10 < 0.1


@pytest.mark.parametrize("players", [2, 4])
def test_every_move_keeps_view_and_model_in_step(players):
    w, m, v = make(players=players, seed=players)
    while not m.is_over:
        v.computer_button.click()
        assert v.board.value == m.svg()
        assert v.turn_line.value == f"<b>{m.status()}</b>"
        assert len(log_lines(v)) == len(m.log)
        groups = m.legal_groups()
        if groups:
            assert labels(v.action_list) == [a.describe() for a in groups[m.selected_kind]]


def test_the_view_follows_changes_made_through_the_model():
    class Passer(Player):
        name = "passer"

        def choose(self, state):
            return Pass()

    w, m, v = make()
    m.restart(players=3, seed=7)
    assert v.players_picker.value == 3 and v.seed_box.value == "7"
    assert len(v.seat_pickers) == 3
    m.set_seat(2, Passer())
    assert v.seat_pickers[2].value == "own"
    m.set_seat(0, "greedy")
    assert v.seat_pickers[0].value == "greedy"


def test_the_history_slider_steps_through_the_game():
    w, m, v = make(seed=3)
    for _ in range(4):
        v.apply_button.click()
    assert (v.history_slider.value, v.history_slider.max) == (4, 4)
    v.history_slider.value = 1
    assert len(m.moves) == 1 and m.reachable == 4
    assert v.board.value == m.svg() and len(log_lines(v)) == 1
    v.undo_button.click()
    assert v.history_slider.value == 0 and v.history_slider.max == 4
    v.apply_button.click()
    assert (v.history_slider.value, v.history_slider.max) == (1, 1), "a new move drops the rest"


def test_a_click_on_the_board_picture_selects_an_action():
    from pangaea_lab.core.board_widget import clickable_board
    board = clickable_board()
    assert hasattr(board, "on_space") and "data-cell" not in board.value
    seen = []
    board.on_space(seen.append)
    board.clicked = "2,-1#1"
    board.clicked = "not a space#2"          # ignored
    board.clicked = "2,-1#3"
    assert seen == [(2, -1), (2, -1)]


def test_a_double_click_on_apply_plays_one_move(monkeypatch):
    """The second click of a double click reaches the kernel while the first one's work runs:
    it is dropped; a later click counts."""
    from pangaea_lab.core import clicks
    w, m, v = make(seed=1)
    clock = page_clicks(monkeypatch)
    for at in (100.0, 100.02):
        clock.now = at
        v.apply_button.click()
    assert len(m.moves) == 1
    clock.now = 105.0
    v.apply_button.click()
    assert len(m.moves) == 2
    assert not v.apply_button.disabled and not v.new_game_button.disabled


def test_buttons_are_disabled_while_a_click_is_worked_on():
    w, m, v = make(seed=1)
    seen = []
    m.subscribe(lambda: seen.append((v.apply_button.disabled, v.new_game_button.disabled)))
    v.apply_button.click()
    assert seen and all(new_game for _, new_game in seen)
    assert not v.new_game_button.disabled
