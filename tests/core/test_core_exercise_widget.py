"""The exercise widget (model and view), driven like a learner would, on small toy exercises
registered here (not the games' own), so a change in a game cannot hide a widget bug."""

import html
import re

import ipywidgets as widgets
import pytest

from pangaea_lab import exercises
from pangaea_lab.core import exercises as core_exercises
from pangaea_lab.core import exercise_widget as ew
from pangaea_lab.core.errors import InvalidSetup
from pangaea_lab.core.exercises import Exercise, Option, Verdict, register
from pangaea_lab.core.exercise_widget import (ExerciseModel, ExerciseProgress, ExerciseView,
                                              exercise_widget, progress_widget)

GRID = [(q, r) for q in range(3) for r in range(3)]


def toy_draw(marked):
    """A 3 x 3 grid of squares; marked squares get a thick outline and their click number."""
    marked = [tuple(c) for c in marked]
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="90" height="90">']
    for q, r in GRID:
        thick = 4 if (q, r) in marked else 1
        parts.append(f'<rect data-cell="{q},{r}" x="{q * 30}" y="{r * 30}" width="30" '
                     f'height="30" stroke="black" stroke-width="{thick}" fill="white"/>')
        if (q, r) in marked:
            parts.append(f'<text x="{q * 30 + 10}" y="{r * 30 + 20}">'
                         f'{marked.index((q, r)) + 1}</text>')
    parts.append("</svg>")
    return "".join(parts)


def cells_exercise(seed):
    right = frozenset({(0, seed % 3), (1, 1)})

    def checker(answer):
        missing = sorted(right - answer)
        extra = sorted(answer - right)
        if extra:
            return Verdict(False, f"{extra[0]} is not a lake.")
        if missing:
            return Verdict(False, f"{missing[0]} is a lake too.")
        return Verdict(True, "Both lakes found.")

    return Exercise(kind="toy.lakes", seed=seed, question="Click every lake.",
                    answer_kind="cells", answer=right, checker=checker, draw=toy_draw,
                    hint="There are two.", explanation="Lakes are blue squares.")


def path_exercise(seed):
    right = ((0, 0), (0, 1), (1, 1))

    def checker(answer):
        if answer == right:
            return Verdict(True, "That is the shortest way.")
        return Verdict(False, f"A path of {len(answer)} steps is not the shortest one.")

    return Exercise(kind="toy.path", seed=seed, question="Click the shortest path.",
                    answer_kind="path", answer=right, checker=checker, draw=toy_draw,
                    explanation="Three steps.")


def choice_exercise(seed):
    options = (Option("a", "Take the red stack"), Option("b", "Take the blue stack"),
               Option("c", f"Take stack {seed}"))
    return Exercise(kind="toy.pick", seed=seed, question="Which stack is legal?",
                    answer_kind="choice", answer="b", options=options, draw=toy_draw,
                    checker=lambda a: Verdict(a == "b", "Blue is legal." if a == "b"
                                              else "Red is too tall."))


def choices_exercise(seed):
    options = (Option("a", "Ann"), Option("b", "Bo"), Option("c", "Cy"))
    return Exercise(kind="toy.many", seed=seed, question="Who scores?", answer_kind="choices",
                    answer={"a", "c"}, options=options,
                    checker=lambda a: Verdict(a == {"a", "c"}, "Ann and Cy score."
                                              if a == {"a", "c"} else "Look at Bo again."))


def number_exercise(seed):
    right = 5 + seed

    def checker(answer):
        if answer == right:
            return Verdict(True, f"{right} points.")
        return Verdict(False, f"{answer} misses {right - answer} points of the lakes.")

    return Exercise(kind="toy.score", seed=seed, question="How many points?",
                    answer_kind="number", answer=right, checker=checker, draw=toy_draw,
                    hint="Count the lakes.")


TOYS = {"toy.lakes": cells_exercise, "toy.path": path_exercise, "toy.pick": choice_exercise,
        "toy.many": choices_exercise, "toy.score": number_exercise}


@pytest.fixture(autouse=True)
def toys(monkeypatch):
    """Register the toy kinds in a copy of the registry (gone after the test), and start
    each test with an empty progress count."""
    monkeypatch.setattr(core_exercises, "_REGISTRY", dict(core_exercises._REGISTRY))
    monkeypatch.setattr(exercises, "registry", core_exercises.registered)
    for key, gen in TOYS.items():
        register(key, game="toy", notebook="toy/01.ipynb", rule=f"the rule of {key}",
                 title=f"Toy {key}")(gen)
    monkeypatch.setattr(ew, "PROGRESS", ExerciseProgress())
    yield


def text(widget):
    return html.unescape(re.sub("<[^>]+>", "", widget.value))


# ----- the model ---------------------------------------------------------------------------

def test_model_starts_with_no_answer_and_no_verdict():
    m = ExerciseModel("toy.lakes", seed=2)
    assert m.exercise.kind == "toy.lakes" and m.seed == 2
    assert m.seed_text == "Exercise seed 2"
    assert m.title == "Toy toy.lakes" and m.rule == "the rule of toy.lakes"
    assert m.selection == () and m.answer == frozenset()
    assert m.verdict is None and m.last_correct is None and m.feedback_text() == ""
    assert not m.hint_shown and not m.answer_shown and m.attempts == 0


def test_cells_click_toggles_and_check_uses_the_engine():
    m = ExerciseModel("toy.lakes", seed=0)
    m.click((1, 1))
    m.click((2, 2))
    assert m.selection == ((1, 1), (2, 2))
    assert m.svg() == toy_draw([(1, 1), (2, 2)])
    v = m.check()
    assert not v.correct and v.reason == "(2, 2) is not a lake."
    assert m.verdict == v and m.attempts == 1 and m.last_correct is False
    assert m.feedback_text() == "✗ Not quite. (2, 2) is not a lake."
    m.click((2, 2))                     # a second click takes the space back
    assert m.selection == ((1, 1),)
    assert m.verdict is None            # the shown verdict was for another answer
    assert m.last_correct is False      # ...but the latest Check still counts
    m.click("0,0")                      # the board's own report, as text
    assert m.answer == {(0, 0), (1, 1)}
    assert m.check().correct and m.feedback_text() == "✓ Right. Both lakes found."
    assert m.attempts == 2 and m.last_correct is True


def test_path_click_appends_and_clicking_the_last_again_removes_it():
    m = ExerciseModel("toy.path")
    for cell in [(0, 0), (0, 1), (0, 0), (1, 1)]:
        m.click(cell)
    assert m.answer == ((0, 0), (0, 1), (0, 0), (1, 1))   # a space can come back in a path
    m.click((1, 1))
    m.click((0, 0))
    assert m.answer == ((0, 0), (0, 1))
    assert not m.check().correct
    m.click((1, 1))
    assert m.answer_text() == "(0, 0) → (0, 1) → (1, 1)"
    assert m.check().correct


def test_empty_answers_are_refused_with_a_reason():
    path = ExerciseModel("toy.path")
    assert path.check() == Verdict(False, "Click the spaces of the path first, in order.")
    pick = ExerciseModel("toy.pick")
    assert pick.check().reason == "Pick one of the answers first."
    number = ExerciseModel("toy.score")
    assert number.check().reason == "Type a number in the box first."
    assert pick.attempts == 1 and pick.last_correct is False


def test_malformed_clicks_change_nothing_and_say_why():
    m = ExerciseModel("toy.lakes")
    m.click((1, 1))
    for bad in ["x,y", (1.5, 2), (True, 1), (), None, 7, "1,2,3,4,5", [[1]]]:
        m.click(bad)
        assert m.selection == ((1, 1),)
        assert "is not a space of the board" in m.message
    m.click((0, 0))
    assert m.message == "" and m.selection == ((1, 1), (0, 0))


def test_clicks_on_a_choice_exercise_and_unknown_options_are_ignored():
    m = ExerciseModel("toy.pick")
    m.click((1, 1))
    assert m.selection == () and "choices" in m.message
    m.choose("zzz")
    assert m.picked == () and m.message == "'zzz' is not one of the choices."
    n = ExerciseModel("toy.lakes")
    n.choose("a")
    assert n.picked == () and n.message == "This exercise has no choices to pick."


def test_choice_keeps_one_option():
    m = ExerciseModel("toy.pick", seed=4)
    m.choose("a")
    m.choose("c")
    assert m.answer == "c" and m.answer_text() == "Take stack 4"
    v = m.check()
    assert not v.correct and v.reason == "Red is too tall."
    m.choose("b")
    assert m.check() == Verdict(True, "Blue is legal.")


def test_choices_toggle_in_option_order():
    m = ExerciseModel("toy.many")
    m.choose("c")
    m.choose("b")
    m.choose("a")
    assert m.picked == ("a", "b", "c")
    assert not m.check().correct
    m.choose("b")
    assert m.answer == {"a", "c"} and m.answer_text() == "Ann, Cy"
    assert m.check().correct


def test_numbers_typed_and_malformed():
    m = ExerciseModel("toy.score", seed=1)
    for bad in ["abc", "4.5", "1e3", "--3", "9" * 13, "6 points"]:
        m.set_number(bad)
        v = m.check()
        assert not v.correct and "is not a whole number" in v.reason
    m.set_number(" 5 ")
    assert m.answer == 5
    assert m.check() == Verdict(False, "5 misses 1 points of the lakes.")
    m.set_number(6)
    assert m.check() == Verdict(True, "6 points.")
    m.set_number("-2")
    assert m.answer == -2 and not m.check().correct
    m.set_number("x" * 500)
    assert len(m.number_text) == 40


def test_a_checker_that_cannot_read_an_answer_refuses_it():
    def fussy(seed):
        def checker(answer):
            raise KeyError("no such space")
        return Exercise(kind="toy.fussy", seed=seed, question="?", answer_kind="cells",
                        answer=[(0, 0)], checker=checker, draw=toy_draw)

    m = ExerciseModel("toy.fussy", generate=fussy)
    m.click((5, 5))
    v = m.check()
    assert not v.correct and v.reason.startswith("That answer cannot be judged")


def test_a_generator_or_checker_returning_the_wrong_type_is_a_clear_error():
    with pytest.raises(TypeError, match="not an Exercise"):
        ExerciseModel("toy.bad", generate=lambda seed: "not an exercise")
    broken = cells_exercise(0)
    broken.checker = lambda answer: True
    m = ExerciseModel("toy.bad", generate=lambda seed: broken)
    with pytest.raises(TypeError, match="not a Verdict"):
        m.check()


def test_hint_answer_clear_and_another_one():
    m = ExerciseModel("toy.lakes", seed=11)
    seen = []
    m.subscribe(lambda: seen.append(m.seed))
    m.click((0, 0))
    m.show_hint()
    m.show_answer()
    assert m.hint_shown and m.answer_shown
    assert m.answer_svg() == toy_draw(m.exercise.answer_cells)
    m.check()
    m.clear()
    assert m.selection == () and m.verdict is None and m.hint_shown
    first = m.exercise
    m.another()
    assert m.seed == 12 and m.seed_text == "Exercise seed 12"
    assert m.exercise is not first and m.exercise.seed == 12
    assert m.exercise.answer == {(0, 0), (1, 1)}      # 12 % 3 == 0: a new position
    assert m.selection == () and m.verdict is None and m.attempts == 0
    assert not m.hint_shown and not m.answer_shown
    assert m.last_correct is False                    # the latest Check still counts
    assert len(seen) >= 6


def test_bad_seeds_and_kinds_are_refused_and_the_old_exercise_stays():
    with pytest.raises(InvalidSetup, match="no exercise kind 'toy.nope'"):
        ExerciseModel("toy.nope")
    with pytest.raises(InvalidSetup, match="exercise kind is a name"):
        ExerciseModel(3)
    m = ExerciseModel("toy.lakes", seed=3)
    for bad in [-1, 1.5, True, "4", 10**12]:
        with pytest.raises(InvalidSetup, match="whole number from 0"):
            m.load(bad)
    assert m.seed == 3 and m.exercise.seed == 3

    def flaky(seed):
        if seed == 4:
            raise InvalidSetup("no position for seed 4")
        return cells_exercise(seed)

    f = ExerciseModel("toy.lakes", seed=3, generate=flaky)
    with pytest.raises(InvalidSetup):
        f.another()
    assert f.seed == 3 and f.exercise.seed == 3


# ----- progress ----------------------------------------------------------------------------

def test_progress_counts_exercises_and_latest_checks():
    p = ExerciseProgress()
    heard = []
    p.subscribe(lambda: heard.append(p.text()))
    assert p.text() == "0 of 0 right"
    a, b = ExerciseModel("toy.score", seed=0), ExerciseModel("toy.pick")
    p.add(a)
    p.add(b)
    assert p.text() == "0 of 2 right"
    a.set_number(5)
    a.check()
    assert p.text() == "1 of 2 right" and heard[-1] == "1 of 2 right"
    a.another()                     # still right: its latest Check was
    assert p.right == 1
    a.set_number(1)
    a.check()
    assert p.text() == "0 of 2 right"
    again = ExerciseModel("toy.pick")   # the page's cells run again: counted once
    p.add(again)
    assert p.total == 2
    b.choose("b")
    b.check()                        # the replaced widget no longer counts
    assert p.right == 0
    p.reset()
    assert p.text() == "0 of 0 right"


def test_progress_widget_updates_live():
    line = exercises.progress()
    assert "pl-exercise-progress" in line._dom_classes
    assert text(line) == "Exercises on this page: 0 of 0 right"
    w1 = exercises.practice("toy.score", seed=2)
    w2 = exercises.practice("toy.lakes", seed=0)
    assert text(line).endswith("0 of 2 right")
    assert 'data-right="0" data-total="2"' in line.value
    w1.view.number_box.value = "7"
    w1.view.check_button.click()
    assert text(line).endswith("1 of 2 right")
    w2.view.board.clicked = "1,1#1"
    w2.view.board.clicked = "0,0#2"
    w2.view.check_button.click()
    assert text(line).endswith("2 of 2 right")
    w2.view.board.clicked = "0,0#3"
    w2.view.check_button.click()
    assert text(line).endswith("1 of 2 right")
    other = progress_widget(ExerciseProgress())
    assert text(other).endswith("0 of 0 right")


def test_practice_refuses_unknown_kinds_and_bad_seeds():
    with pytest.raises(InvalidSetup, match="toy.lakes"):
        exercises.practice("toy.unknown")
    with pytest.raises(InvalidSetup):
        exercises.practice("toy.lakes", seed=-3)


# ----- the view ----------------------------------------------------------------------------

def shown(widget):
    return widget.layout.display != "none"


def test_practice_returns_the_root_widget_with_model_and_view():
    w = exercises.practice("toy.lakes", seed=12)
    assert isinstance(w, widgets.VBox) and isinstance(w.view, ExerciseView)
    assert w.view.root is w and w.model.seed == 12
    assert "pl-exercise" in w._dom_classes and "pl-exercise-kind-toy-lakes" in w._dom_classes
    v = w.view
    assert "application/vnd.jupyter.widget-view+json" in v._repr_mimebundle_()
    assert "pl-exercise-seed" in v.seed_label._dom_classes
    assert 'data-kind="toy.lakes"' in v.seed_label.value
    assert 'data-seed="12"' in v.seed_label.value and text(v.seed_label) == "Exercise seed 12"
    assert text(v.title) == "Exercise: Toy toy.lakes"
    assert text(v.question).startswith("Click every lake.")
    for part, css in [(v.check_button, "pl-exercise-check"), (v.hint_button, "pl-exercise-hint"),
                      (v.answer_button, "pl-exercise-show-answer"),
                      (v.another_button, "pl-exercise-another"),
                      (v.clear_button, "pl-exercise-clear"),
                      (v.feedback, "pl-exercise-feedback"), (v.board, "pl-exercise-board")]:
        assert css in part._dom_classes
    assert [b.description for b in (v.clear_button, v.check_button, v.hint_button,
                                    v.answer_button, v.another_button)] == [
        "Clear", "Check", "Hint", "Show answer", "Another one"]


def test_view_cells_by_board_clicks():
    w = exercise_widget("toy.lakes", seed=1)
    v, m = w.view, w.model
    assert shown(v.board) and not shown(v.picture) and not shown(v.options_box)
    assert not shown(v.number_box)
    assert v.board.value == toy_draw([]) and 'data-cell="1,1"' in v.board.value
    assert v.feedback.value == ""                       # nothing before the first Check
    v.board.clicked = "1,1#1"
    v.board.clicked = "2,2#2"
    assert m.selection == ((1, 1), (2, 2)) and v.board.value == toy_draw([(1, 1), (2, 2)])
    assert text(v.selection_line) == "Your answer: (1, 1), (2, 2)"
    v.check_button.click()
    assert text(v.feedback) == "✗ Not quite. (2, 2) is not a lake."
    assert 'data-correct="false"' in v.feedback.value
    v.board.clicked = "2,2#3"                           # the same space again: taken back
    assert m.selection == ((1, 1),) and v.feedback.value == ""
    v.board.clicked = "0,1#4"
    v.check_button.click()
    assert text(v.feedback) == "✓ Right. Both lakes found."
    assert 'data-correct="true"' in v.feedback.value
    v.clear_button.click()
    assert m.selection == () and v.board.value == toy_draw([]) and v.feedback.value == ""


def test_view_path_by_board_clicks():
    w = exercise_widget("toy.path")
    v, m = w.view, w.model
    for n, cell in enumerate(["0,0", "0,1", "1,1", "1,1", "1,1"]):
        v.board.clicked = f"{cell}#{n}"
    assert m.selection == ((0, 0), (0, 1), (1, 1))
    assert ">3</text>" in v.board.value
    assert text(v.selection_line) == "Your answer: (0, 0) → (0, 1) → (1, 1)"
    v.check_button.click()
    assert text(v.feedback) == "✓ Right. That is the shortest way."


def test_view_choice_buttons():
    w = exercise_widget("toy.pick", seed=2)
    v, m = w.view, w.model
    assert shown(v.options_box) and shown(v.picture) and not shown(v.board)
    assert v.picture.value == toy_draw([])
    assert [b.description for b in v.option_buttons] == [
        "○ Take the red stack", "○ Take the blue stack", "○ Take stack 2"]
    v.option_buttons[0].click()
    assert v.option_buttons[0].description == "◉ Take the red stack"
    assert "pl-picked" in v.option_buttons[0]._dom_classes
    v.option_buttons[1].click()
    assert m.answer == "b" and "pl-picked" not in v.option_buttons[0]._dom_classes
    assert [b.description[0] for b in v.option_buttons] == ["○", "◉", "○"]
    v.check_button.click()
    assert text(v.feedback) == "✓ Right. Blue is legal."
    old = v.option_buttons
    v.another_button.click()
    assert m.seed == 3 and v.option_buttons is not old
    assert v.option_buttons[2].description == "○ Take stack 3"
    assert v.feedback.value == ""


def test_view_choices_buttons_without_a_drawing():
    w = exercise_widget("toy.many")
    v, m = w.view, w.model
    assert not shown(v.picture) and not shown(v.board)
    v.option_buttons[0].click()
    v.option_buttons[1].click()
    assert [b.description for b in v.option_buttons] == ["☑ Ann", "☑ Bo", "☐ Cy"]
    v.check_button.click()
    assert text(v.feedback) == "✗ Not quite. Look at Bo again."
    v.option_buttons[1].click()
    v.option_buttons[2].click()
    v.check_button.click()
    assert text(v.feedback) == "✓ Right. Ann and Cy score."


def test_view_number_box_hint_answer_and_another():
    w = exercise_widget("toy.score", seed=0)
    v, m = w.view, w.model
    assert shown(v.number_box) and not shown(v.options_box) and not shown(v.selection_line)
    v.check_button.click()
    assert text(v.feedback) == "✗ Not quite. Type a number in the box first."
    v.number_box.value = "five"
    v.check_button.click()
    assert "'five' is not a whole number" in text(v.feedback)
    v.number_box.value = "4"
    v.check_button.click()
    assert text(v.feedback) == "✗ Not quite. 4 misses 1 points of the lakes."
    assert v.hint_line.value == "" and not shown(v.answer_box)
    v.hint_button.click()
    assert text(v.hint_line) == "Hint: Count the lakes."
    v.answer_button.click()
    assert shown(v.answer_box) and text(v.answer_text) == "Answer: 5"
    assert v.answer_picture.value == ""          # a number's answer has no cells to draw
    v.another_button.click()
    assert m.seed == 1 and text(v.seed_label) == "Exercise seed 1"
    assert v.number_box.value == "" and v.hint_line.value == "" and not shown(v.answer_box)
    v.number_box.value = "6"
    v.check_button.click()
    assert text(v.feedback) == "✓ Right. 6 points."


def test_view_show_answer_draws_the_answer():
    w = exercise_widget("toy.lakes", seed=2)
    v, m = w.view, w.model
    v.answer_button.click()
    assert v.answer_picture.value == m.exercise.answer_svg()
    assert v.answer_picture.value.count('stroke-width="4"') == 2
    assert text(v.answer_text).startswith("Answer: (0, 2), (1, 1)Lakes are blue squares.")
    assert v.board.value == toy_draw([])      # the learner's own board is left alone


def test_view_another_one_changes_the_board_and_the_seed_box_jumps():
    w = exercise_widget("toy.lakes", seed=0)
    v, m = w.view, w.model
    v.board.clicked = "0,0#1"
    v.check_button.click()
    before = v.board.value
    v.another_button.click()
    assert m.seed == 1 and v.seed_box.value == 1 and v.board.value == toy_draw([])
    assert v.board.value != before and v.feedback.value == ""
    v.seed_box.value = 12
    v.seed_button.click()
    assert m.seed == 12 and 'data-seed="12"' in v.seed_label.value


def test_view_board_clicks_on_a_choice_exercise_say_so():
    w = exercise_widget("toy.pick")
    w.view.board.clicked = "1,1#1"
    assert "choices" in text(w.view.message_line)


def test_view_keeps_the_exercise_when_another_cannot_be_made():
    def flaky(seed):
        if seed == 1:
            raise InvalidSetup("no position for seed 1")
        return cells_exercise(seed)

    w = exercise_widget("toy.lakes", seed=0, generate=flaky)
    v, m = w.view, w.model
    v.another_button.click()
    assert m.seed == 0 and "could not be made: no position for seed 1" in text(v.message_line)
    v.seed_box.value = 2
    v.seed_button.click()
    assert m.seed == 2 and text(v.message_line) == ""


def test_a_reason_does_not_repeat_the_verdict_word():
    from pangaea_lab.core.exercise_widget import reason_text
    assert reason_text(Verdict(True, "Right: each of the 4 Water Spaces gets one.")) == \
        "Each of the 4 Water Spaces gets one."
    assert reason_text(Verdict(False, "Not quite. (2, 1) is too far.")) == "(2, 1) is too far."
    assert reason_text(Verdict(False, "No - 7 is one short.")) == "7 is one short."
    assert reason_text(Verdict(True, "Rightly so, 5 points.")) == "Rightly so, 5 points."
    assert reason_text(Verdict(False, "Nobody scores 2nd.")) == "Nobody scores 2nd."
    assert reason_text(Verdict(True, "Right.")) == ""


def test_view_spaces_can_be_marked_without_a_mouse():
    w = exercise_widget("toy.path")
    v, m = w.view, w.model
    assert shown(v.keyboard_row)
    assert [label for label, _ in v.space_list.options] == [f"({q}, {r})" for q, r in GRID]
    assert v.space_list.value == (0, 0)
    for cell in [(0, 0), (0, 1), (1, 1)]:
        v.space_list.value = cell
        v.space_button.click()
    assert m.selection == ((0, 0), (0, 1), (1, 1))
    v.space_button.click()                 # the last space again: taken back, as a click does
    assert m.selection == ((0, 0), (0, 1))
    assert not shown(exercise_widget("toy.score").view.keyboard_row)

