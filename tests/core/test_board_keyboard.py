"""The board played from the keyboard (issue: readable by everyone): the clickable board
reports Enter on a space as ``played``; the step-through widget plays the action on that
space, the exercise widget marks it.  (The keys themselves are driven in a real browser by
tests/browser/test_browser_access.py.)"""

from __future__ import annotations

from pangaea_lab import pangaea
from pangaea_lab.core.board_widget import _SCRIPT, _STYLE
from pangaea_lab.pangaea.widgets import play


def land_space(state) -> tuple[int, int]:
    return next(state.board.cells[i] for i in state.board.land
                if state.trees[i] == -1 and state.seeds[i] == -1)


def test_enter_on_a_space_plays_its_first_action():
    w = play(players=2, seed=3, computer={})
    view, m = w.view, w.model
    before = m.state
    cell = land_space(before)
    view.board.played = f"{cell[0]},{cell[1]}#1"
    assert m.state is not before
    assert m.state.seeds_of(before.current_player) == [cell]


def test_enter_plays_the_action_chosen_with_space_on_that_space():
    w = play(players=2, seed=3, computer={})
    view, m = w.view, w.model
    cell = land_space(m.state)
    view.board.clicked = f"{cell[0]},{cell[1]}#1"         # Space (or a click): choose
    chosen = m.selected
    assert chosen is not None
    before = m.state
    view.board.played = f"{cell[0]},{cell[1]}#2"          # Enter: play it
    assert m.state == before.apply(chosen)


def test_enter_on_a_space_without_actions_says_so_and_changes_nothing():
    w = play(players=2, seed=3, computer={})
    m = w.model
    before = m.state
    w.view.board.played = "99,99#1"
    assert m.state is before and "Nothing can be played" in m.message
    w.view.board.played = "not a space#2"                    # a garbled report is ignored
    assert m.state is before


def test_exercise_board_marks_a_space_on_enter():
    from pangaea_lab.exercises import practice
    w = practice("pangaea.flying_seed", seed=3)
    model = w.model
    cell = sorted(model.exercise.answer)[0]
    w.view.board.played = f"{cell[0]},{cell[1]}#1"
    assert tuple(cell) in {tuple(c) for c in model.answer}


def test_the_script_handles_tab_arrows_enter_and_space_with_a_visible_focus():
    for needle in ('"tabindex", "0"', "ArrowRight", "ArrowUp", '"Enter"', '" "',
                   'send("played"', 'send("clicked"', "aria-label"):
        assert needle in _SCRIPT
    assert ":focus" in _STYLE and "max-width: 100%" in _STYLE
