"""The exercise widget (model and view), driven like a learner would, on small toy exercises
registered here (not the games' own), so a change in a game cannot hide a widget bug."""

import html
import re

import ipywidgets as widgets
import pytest

from clicks_support import page_clicks
from pangaea_lab import exercises
from pangaea_lab.core import exercises as core_exercises
from pangaea_lab.core import exercise_widget as ew
from pangaea_lab.core.errors import InvalidSetup
from pangaea_lab.core.exercises import Exercise, Option, Verdict, register
from pangaea_lab.core.exercise_widget import (MET_BEFORE, SEEN_NOT_LEARNED, ExerciseModel,
                                              ExerciseProgress, ExerciseView, ReviewModel,
                                              exercise_widget, progress_widget, review_widget)
from pangaea_lab.core.mastery import PracticeRecord

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


def cells_exercise(seed, level=1):
    right = frozenset({(0, seed % 3), (1, 1)})

    def checker(answer):
        missing = sorted(right - answer)
        extra = sorted(answer - right)
        if extra:
            return Verdict(False, f"{extra[0]} is not a lake.")
        if missing:
            return Verdict(False, "A lake is missing.")
        return Verdict(True, "Both lakes found.")

    question = "Click every lake." if level == 1 else "Click every lake, past the hills."
    return Exercise(kind="toy.lakes", seed=seed, question=question,
                    answer_kind="cells", answer=right, checker=checker, draw=toy_draw,
                    hints=("There are two.", f"One lake is in column 0, row {seed % 3} or "
                           "next to it."),
                    hint_marks=((), ((0, 0), (0, 1), (0, 2))),
                    explanation="Lakes are blue squares.")


def path_exercise(seed, level=1):
    right = ((0, 0), (0, 1), (1, 1))

    def checker(answer):
        if answer == right:
            return Verdict(True, "That is the shortest way.")
        return Verdict(False, f"A path of {len(answer)} steps is not the shortest one.")

    return Exercise(kind="toy.path", seed=seed, question="Click the shortest path.",
                    answer_kind="path", answer=right, checker=checker, draw=toy_draw,
                    hints=("Start in the corner.", f"Go down first (seed {seed})."),
                    explanation="Three steps.")


def choice_exercise(seed, level=1):
    options = (Option("a", "Take the red stack"), Option("b", "Take the blue stack"),
               Option("c", f"Take stack {seed}"))
    return Exercise(kind="toy.pick", seed=seed, question="Which stack is legal?",
                    answer_kind="choice", answer="b", options=options, draw=toy_draw,
                    hints=("Look at the heights.", f"Stack {seed} is too tall too."),
                    checker=lambda a: Verdict(a == "b", "Blue is legal." if a == "b"
                                              else "Red is too tall."))


def choices_exercise(seed, level=1):
    options = (Option("a", "Ann"), Option("b", "Bo"), Option("c", "Cy"))
    return Exercise(kind="toy.many", seed=seed, question="Who scores?", answer_kind="choices",
                    answer={"a", "c"}, options=options,
                    hints=("Count each player's lakes.", f"Bo has {seed} hills and no lake."),
                    checker=lambda a: Verdict(a == {"a", "c"}, "Ann and Cy score."
                                              if a == {"a", "c"} else "Look at Bo again."))


def number_exercise(seed, level=1):
    right = 5 + seed

    def checker(answer):
        if answer == right:
            return Verdict(True, f"{right} points.")
        return Verdict(False, f"{answer} misses some points of the lakes.")

    return Exercise(kind="toy.score", seed=seed, question="How many points?",
                    answer_kind="number", answer=right, checker=checker, draw=toy_draw,
                    hints=("Count the lakes.", f"There are {seed} extra lakes beyond five."))


TOYS = {"toy.lakes": cells_exercise, "toy.path": path_exercise, "toy.pick": choice_exercise,
        "toy.many": choices_exercise, "toy.score": number_exercise}
LEVELS = ("one lake on a small board", "lakes among hills")


@pytest.fixture(autouse=True)
def toys(monkeypatch):
    """Register the toy kinds in a copy of the registry (gone after the test), and start
    each test with an empty progress count."""
    monkeypatch.setattr(core_exercises, "_REGISTRY", dict(core_exercises._REGISTRY))
    monkeypatch.setattr(exercises, "registry", core_exercises.registered)
    for key, gen in TOYS.items():
        register(key, game="toy", notebook="toy/01.ipynb", rule=f"the rule of {key}",
                 title=f"Toy {key}", levels=LEVELS)(gen)
    record = PracticeRecord()
    monkeypatch.setattr(ew, "RECORD", record)
    monkeypatch.setattr(ew, "PROGRESS", ExerciseProgress(record))
    yield


def text(widget):
    return html.unescape(re.sub("<[^>]+>", "", widget.value))


# ----- the model ---------------------------------------------------------------------------

def attempts_of(key):
    return ew.RECORD.of(key)


def test_model_starts_with_no_answer_and_no_verdict():
    m = ExerciseModel("toy.lakes", seed=2)
    assert m.exercise.kind == "toy.lakes" and m.seed == 2 and m.level == 1
    assert m.exercise.level == 1 and m.levels == (1, 2) and m.level_titles == LEVELS
    assert m.seed_text == "Exercise seed 2, level 1"
    assert m.title == "Toy toy.lakes" and m.rule == "the rule of toy.lakes"
    assert m.selection == () and m.answer == frozenset()
    assert m.verdict is None and m.feedback_text() == ""
    assert not m.hint_shown and not m.answer_shown and m.attempts == 0 and m.wrong == 0
    assert m.hints == () and m.hint_svg() == ""
    assert m.record is ew.RECORD and attempts_of("toy.lakes") == []
    assert not m.status.practised and not m.status.mastered
    assert m.status_text().startswith("Not practised yet")


def test_cells_click_toggles_and_check_uses_the_engine():
    m = ExerciseModel("toy.lakes", seed=0)
    m.click((1, 1))
    m.click((2, 2))
    assert m.selection == ((1, 1), (2, 2))
    assert m.svg() == toy_draw([(1, 1), (2, 2)])
    v = m.check()
    assert not v.correct and v.reason == "(2, 2) is not a lake."
    assert m.verdict == v and m.attempts == 1 and m.wrong == 1
    assert m.feedback_text() == "✗ Not quite. (2, 2) is not a lake."
    [wrong] = attempts_of("toy.lakes")
    assert (wrong.seed, wrong.level, wrong.correct, wrong.first, wrong.hints) == (0, 1, False,
                                                                                   True, 0)
    assert wrong.answer == "(1, 1), (2, 2)" and wrong.id and wrong.time
    m.click((2, 2))                     # a second click takes the space back
    assert m.selection == ((1, 1),)
    assert m.verdict is None            # the shown verdict was for another answer
    m.click("0,0")                      # the board's own report, as text
    assert m.answer == {(0, 0), (1, 1)}
    assert m.check().correct and m.feedback_text() == "✓ Right. Both lakes found."
    assert m.attempts == 2 and m.wrong == 1
    right = attempts_of("toy.lakes")[-1]
    assert right.correct and not right.first and not right.clean   # right after a wrong one
    assert m.status.run == 0 and m.status.practised == 1 and m.status.right == 1


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


def test_empty_answers_are_refused_with_a_reason_and_not_recorded():
    path = ExerciseModel("toy.path")
    assert path.check() == Verdict(False, "Click the spaces of the path first, in order.")
    pick = ExerciseModel("toy.pick")
    assert pick.check().reason == "Pick one of the answers first."
    number = ExerciseModel("toy.score")
    assert number.check().reason == "Type a number in the box first."
    number.check()
    assert pick.attempts == 0 and number.wrong == 0 and number.hints_open == 0
    assert ew.RECORD.attempts == []     # nothing was answered, so nothing is counted


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
        assert not v.correct and "must be a whole number, like 7;" in v.reason
    assert m.attempts == 0 and m.hints_open == 0       # a typing slip is not a wrong answer
    m.set_number(" 5 ")
    assert m.answer == 5
    assert m.check() == Verdict(False, "5 misses some points of the lakes.")
    m.set_number(6)
    assert m.check() == Verdict(True, "6 points.")
    m.set_number("-2")
    assert m.answer == -2 and not m.check().correct
    m.set_number("x" * 500)
    assert len(m.number_text) == 40


def test_a_checker_that_cannot_read_an_answer_refuses_it():
    def fussy(seed, level):
        def checker(answer):
            raise KeyError("no such space")
        return Exercise(kind="toy.fussy", seed=seed, question="?", answer_kind="cells",
                        answer=[(0, 0)], checker=checker, draw=toy_draw,
                        hints=("Look.", "Look again."))

    m = ExerciseModel("toy.fussy", generate=fussy)
    m.click((1, 1))
    v = m.check()
    assert not v.correct and v.reason.startswith("That answer cannot be judged")
    assert v.misconception == "unjudged"
    m.click((5, 5))                     # off the drawing: refused for its shape
    v = m.check()
    assert not v.correct and "(5, 5) is not one of them" in v.reason
    assert "Traceback" not in v.reason and "KeyError" not in v.reason


def test_a_generator_or_checker_returning_the_wrong_type_is_a_clear_error():
    with pytest.raises(TypeError, match="not an Exercise"):
        ExerciseModel("toy.bad", generate=lambda seed, level: "not an exercise")
    broken = cells_exercise(0)
    broken.checker = lambda answer: True
    m = ExerciseModel("toy.bad", generate=lambda seed, level: broken)
    m.click((1, 1))
    v = m.check()                       # never a crash in front of a learner
    assert not v.correct and v.reason == "That answer cannot be judged here."


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
    assert m.seed == 12 and m.seed_text == "Exercise seed 12, level 1"
    assert m.exercise is not first and m.exercise.seed == 12
    assert m.exercise.answer == {(0, 0), (1, 1)}      # 12 % 3 == 0: a new position
    assert m.selection == () and m.verdict is None and m.attempts == 0
    assert not m.hint_shown and not m.answer_shown
    assert len(seen) >= 6
    m.unsubscribe(m.unsubscribe)        # not a listener: nothing happens


def test_bad_seeds_and_kinds_are_refused_and_the_old_exercise_stays():
    with pytest.raises(InvalidSetup, match="no exercise kind 'toy.nope'"):
        ExerciseModel("toy.nope")
    with pytest.raises(InvalidSetup, match="exercise kind is a name"):
        ExerciseModel(3)
    m = ExerciseModel("toy.lakes", seed=3)
    for bad in [-1, 1.5, True, "4", 10**12]:
        with pytest.raises(InvalidSetup, match="whole number from 0"):
            m.load(bad)
    for bad in [0, 3, True, "2", 1.0]:
        with pytest.raises(InvalidSetup, match="levels 1, 2"):
            m.load(3, bad)
    assert m.seed == 3 and m.exercise.seed == 3 and m.level == 1

    def flaky(seed, level):
        if seed == 4:
            raise InvalidSetup("no position for seed 4")
        return cells_exercise(seed, level)

    f = ExerciseModel("toy.lakes", seed=3, generate=flaky)
    with pytest.raises(InvalidSetup):
        f.another()
    assert f.seed == 3 and f.exercise.seed == 3


# ----- hints, Show answer, levels and mastery -------------------------------------------------

def test_hint_opens_the_nudge_then_the_pointer_and_no_more():
    m = ExerciseModel("toy.lakes", seed=1)
    m.show_hint()
    assert m.hints_open == 1 and m.hints == ("There are two.",)
    assert m.hint_svg() == ""                          # the nudge marks nothing
    m.show_hint()
    assert m.hints == ("There are two.", "One lake is in column 0, row 1 or next to it.")
    assert m.hint_svg() == toy_draw([(0, 0), (0, 1), (0, 2)])   # the area, not the answer
    m.show_hint()                                      # no third hint: nothing changes
    assert m.hints_open == 2 and not m.answer_shown
    assert ew.RECORD.attempts == []                    # a hint alone is not an answer
    m.click((0, 1))
    m.click((1, 1))
    assert m.check().correct
    [attempt] = attempts_of("toy.lakes")
    assert attempt.hints == 2 and not attempt.clean    # right, but not without help
    assert m.status.run == 0 and not m.status.mastered


def test_a_second_wrong_check_opens_a_hint_and_never_the_answer():
    m = ExerciseModel("toy.lakes", seed=2)
    m.click((2, 2))
    m.check()
    assert m.hints_open == 0                           # one slip: no help pushed on anyone
    m.check()
    assert m.wrong == 2 and m.hints_open == 1 and m.hints == ("There are two.",)
    m.check()
    assert m.hints_open == 2
    for _ in range(3):
        m.check()
    assert m.hints_open == 2 and not m.answer_shown     # never past the last hint
    assert m.wrong == 6 and all(not a.correct and not a.shown for a in attempts_of("toy.lakes"))
    assert m.status.struggling
    assert "Take it slowly" in m.status_text()
    assert all("(0, 2)" not in h for h in m.hints)      # no hint names a missing lake


def test_show_answer_is_recorded_and_a_later_right_check_is_seen_not_learned():
    m = ExerciseModel("toy.lakes", seed=4)
    m.show_answer()
    m.show_answer()                                    # a second press records nothing new
    [shown] = attempts_of("toy.lakes")
    assert shown.shown and not shown.correct and shown.first and shown.answer == ""
    # a shown answer alone is not practice
    assert m.status.practised == 0 and m.status.right == 0 and m.status.run == 0
    m.click((0, 1))
    m.click((1, 1))
    v = m.check()
    assert v.correct
    assert m.feedback_text() == f"✓ Right. Both lakes found. {SEEN_NOT_LEARNED}"
    later = attempts_of("toy.lakes")[-1]
    assert later.correct and later.shown and not later.clean
    s = m.status
    assert s.right == 0 and s.run == 0 and not s.mastered     # seen, not learned
    assert not m.status_text().startswith("Mastered")


def test_three_clean_right_answers_on_different_positions_master_a_kind():
    m = ExerciseModel("toy.score", seed=0)
    runs = []
    for _ in range(3):
        m.set_number(m.seed + 5)
        assert m.check().correct
        runs.append(m.status.run)
        if len(runs) < 3:
            assert not m.status.mastered
            assert m.status_text() == f"Right in a row, with no hint: {len(runs)} of 3."
            m.another()
    assert runs == [1, 2, 3]
    s = m.status
    assert s.mastered and s.mastered_level == 1 and s.right == 3 and s.practised == 3
    assert m.status_text() == "Mastered at level 1. Try level 2."
    m.set_number(99)                                    # a wrong answer resets the run...
    m.check()
    assert m.status.run == 0 and m.status.mastered      # ...but mastery, once earned, stays


def test_the_same_position_checked_again_does_not_count():
    m = ExerciseModel("toy.score", seed=3)
    for _ in range(4):
        m.set_number(8)
        assert m.check().correct
    assert m.status.run == 1 and not m.status.mastered
    m.load(3)                          # back to the same seed (the seed box): still one
    m.set_number(8)
    m.check()
    assert m.status.run == 1 and m.status.practised == 1
    m.load(4)
    m.set_number(9)
    m.check()
    assert m.status.run == 2


def test_a_shown_position_revisited_never_counts():
    m = ExerciseModel("toy.score", seed=0)
    for seed in (0, 1, 2):
        m.load(seed)
        m.show_answer()
    for seed in (0, 1, 2):             # come back to each with the seed box and answer it
        m.load(seed)
        m.set_number(seed + 5)
        assert m.check().correct
        assert m.feedback_text() == f"✓ Right. {seed + 5} points. {MET_BEFORE}"
    assert m.status.run == 0 and not m.status.mastered
    m.load(7)                          # a fresh position counts again
    m.set_number(12)
    m.check()
    assert m.status.run == 1


def test_another_one_keeps_the_level_and_records_nothing():
    m = ExerciseModel("toy.lakes", seed=5, level=2)
    assert m.level == 2 and m.exercise.level == 2
    assert m.exercise.question == "Click every lake, past the hills."
    m.show_hint()
    m.another()
    assert (m.seed, m.level, m.exercise.level) == (6, 2, 2) and m.hints_open == 0
    assert m.seed_text == "Exercise seed 6, level 2"
    assert ew.RECORD.attempts == []


def test_the_level_reloads_the_same_seed_at_the_other_level():
    m = ExerciseModel("toy.lakes", seed=7)
    m.click((0, 1))
    m.show_hint()
    first = m.exercise
    m.set_level(2)
    assert (m.seed, m.level) == (7, 2) and m.exercise is not first
    assert m.exercise.question == "Click every lake, past the hills."
    assert m.selection == () and m.hints_open == 0
    m.set_level(2)                     # the same level: nothing is rebuilt
    assert m.exercise.level == 2
    assert ew.RECORD.attempts == []


def test_mastery_at_level_two_is_read_from_level_two_answers():
    m = ExerciseModel("toy.score", seed=0, level=2)
    for _ in range(3):
        m.set_number(m.seed + 5)
        m.check()
        m.another()
    assert m.status.mastered_level == 2 and m.status_text() == "Mastered at level 2."


# ----- progress ----------------------------------------------------------------------------

def test_progress_counts_only_answered_kinds():
    p = ExerciseProgress()
    heard = []
    p.subscribe(lambda: heard.append(p.text()))
    assert p.text() == "no exercise on this page yet"
    a, b = ExerciseModel("toy.score", seed=0), ExerciseModel("toy.pick")
    p.add(a)
    p.add(b)
    assert p.text() == "practised 0 of 2 kinds · mastered 0 · next: Toy toy.score"
    a.check()                       # an empty answer: not an answer
    a.show_hint()                   # a hint alone: not an answer
    assert p.summary()["practised"] == 0
    b.choose("a")
    b.check()
    assert p.text() == "practised 1 of 2 kinds · mastered 0 · next: Toy toy.pick"
    assert heard[-1] == p.text()
    again = ExerciseModel("toy.pick")   # the page's cells run again: counted once
    p.add(again)
    assert p.summary()["kinds"] == 2
    for seed in (0, 1, 2):
        a.load(seed)
        a.set_number(seed + 5)
        a.check()
    assert p.text() == "practised 2 of 2 kinds · mastered 1 · next: Toy toy.pick"
    for seed in (10, 11, 12):
        b.load(seed)
        b.choose("b")
        b.check()
    assert p.text() == "practised 2 of 2 kinds · mastered 2 · every kind here is mastered"
    p.reset()
    assert p.text() == "no exercise on this page yet"


def test_progress_says_how_many_are_mastered_at_level_two():
    p = ExerciseProgress()
    m = ExerciseModel("toy.score", seed=0, level=2)
    p.add(m)
    for _ in range(3):
        m.set_number(m.seed + 5)
        m.check()
        m.another()
    assert p.text() == "practised 1 of 1 kind · mastered 1 (1 at level 2) · " \
                       "every kind here is mastered"


def test_progress_widget_updates_live():
    box = exercises.progress()
    line = box.line
    assert "pl-exercise-progress" in line._dom_classes
    assert "pl-exercise-progress-box" in box._dom_classes and box.progress is ew.PROGRESS
    assert text(line) == "Exercises on this page: no exercise on this page yet"
    w1 = exercises.practice("toy.score", seed=2)
    w2 = exercises.practice("toy.lakes", seed=0)
    assert text(line).endswith("practised 0 of 2 kinds · mastered 0 · next: Toy toy.score")
    assert 'data-practised="0" data-mastered="0" data-kinds="2"' in line.value
    w1.view.number_box.value = "7"
    w1.view.check_button.click()
    assert 'data-practised="1" data-mastered="0"' in line.value
    w2.view.board.clicked = "1,1#1"
    w2.view.board.clicked = "0,0#2"
    w2.view.check_button.click()
    assert 'data-practised="2" data-mastered="0"' in line.value
    for seed in (3, 4):
        w1.view.another_button.click()
        w1.view.number_box.value = str(seed + 5)
        w1.view.check_button.click()
    assert 'data-practised="2" data-mastered="1"' in line.value
    assert text(line).endswith("practised 2 of 2 kinds · mastered 1 · next: Toy toy.lakes")
    other = progress_widget(ExerciseProgress(PracticeRecord()))
    assert text(other.line).endswith("no exercise on this page yet")


def test_practice_refuses_unknown_kinds_and_bad_seeds():
    with pytest.raises(InvalidSetup, match="toy.lakes"):
        exercises.practice("toy.unknown")
    with pytest.raises(InvalidSetup):
        exercises.practice("toy.lakes", seed=-3)
    with pytest.raises(InvalidSetup, match="levels 1, 2"):
        exercises.practice("toy.lakes", level=3)


def test_record_is_the_kernels_record():
    w = exercises.practice("toy.score", seed=0)
    w.view.number_box.value = "5"
    w.view.check_button.click()
    assert exercises.record() is ew.RECORD and len(exercises.record().attempts) == 1


# ----- review ------------------------------------------------------------------------------

def test_review_never_asks_the_same_kind_twice_in_a_row():
    keys = list(TOYS)
    m = ReviewModel(keys, seed=3)
    assert m.key in keys and m.seed == 3
    shown = [m.key]
    for turn in range(1, 40):
        m.another()
        assert m.seed == 3 + turn and m.exercise.kind == m.key
        shown.append(m.key)
    assert all(x != y for x, y in zip(shown, shown[1:]))
    assert set(shown) == set(keys)
    assert ew.RECORD.attempts == []
    again = ReviewModel(keys, seed=3)           # the same seed: the same order
    assert [again.key] + [again.another() or again.key for _ in range(39)] == shown
    one = ReviewModel(["toy.pick"])
    one.another()
    assert one.key == "toy.pick" and one.seed == 1


def test_review_favours_kinds_not_mastered_by_the_record():
    record = PracticeRecord()
    mastered = ExerciseModel("toy.score", record=record)
    for seed in (0, 1, 2):
        mastered.load(seed)
        mastered.set_number(seed + 5)
        mastered.check()
    practised = ExerciseModel("toy.pick", record=record)
    practised.choose("a")
    practised.check()
    assert record.status("toy.score").mastered and not record.status("toy.pick").mastered
    m = ReviewModel(["toy.score", "toy.pick", "toy.lakes"], record=record)
    counts = {"toy.score": 0, "toy.pick": 0, "toy.lakes": 0}
    for _ in range(300):
        m.another()
        counts[m.key] += 1
    # weights 1 (mastered), 4 (practised, not mastered), 3 (not tried), never twice in a row
    assert counts["toy.pick"] > counts["toy.lakes"] > counts["toy.score"] > 0


def test_review_keeps_the_level_and_refuses_an_empty_list():
    with pytest.raises(InvalidSetup, match="at least one"):
        ReviewModel([])
    m = ReviewModel(list(TOYS), level=2)
    for _ in range(5):
        assert m.level == 2 and m.exercise.level == 2
        m.another()


def test_review_keeps_the_kind_shown_when_the_next_one_cannot_be_made():
    def broken(seed, level):
        if seed:
            raise InvalidSetup("no position")
        return cells_exercise(seed, level)

    register("toy.broken", game="toy", notebook="toy/01.ipynb", rule="broken",
             levels=LEVELS)(broken)
    m = ReviewModel(["toy.pick", "toy.broken"])
    if m.key == "toy.broken":        # two kinds alternate: move on to the other one
        m.another()
    assert m.key == "toy.pick"
    seed = m.seed
    with pytest.raises(InvalidSetup):
        m.another()
    assert m.key == "toy.pick" and m.exercise.kind == "toy.pick" and m.seed == seed
    assert m.title == "Toy toy.pick"


def test_review_widget_adds_all_its_kinds_to_the_progress_line():
    box = exercises.progress()
    w = review_widget(list(TOYS), seed=0, progress=ew.PROGRESS)
    assert "pl-exercise-review" in w._dom_classes and isinstance(w.model, ReviewModel)
    assert ew.PROGRESS.summary()["kinds"] == len(TOYS)
    assert f'data-kinds="{len(TOYS)}"' in box.line.value
    assert text(box.line).startswith(f"Exercises on this page: practised 0 of {len(TOYS)} kinds")
    before = w.model.key
    w.view.another_button.click()
    assert w.model.key != before and text(w.view.title) == f"Exercise: Toy {w.model.key}"


def test_review_refuses_an_unknown_game():
    with pytest.raises(InvalidSetup, match="no game 'chess'"):
        exercises.review("chess")


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
    assert 'data-seed="12"' in v.seed_label.value
    assert text(v.seed_label) == "Exercise seed 12, level 1"
    assert v.level_box.options == ((f"1: {LEVELS[0]}", 1), (f"2: {LEVELS[1]}", 2))
    assert v.level_box.value == 1 and "pl-exercise-level" in v.level_box._dom_classes
    assert 'data-mastered="false" data-run="0"' in v.status_line.value
    assert text(v.status_line).startswith("Not practised yet")
    assert text(v.title) == "Exercise: Toy toy.lakes"
    assert text(v.question).startswith("Click every lake.")
    for part, css in [(v.check_button, "pl-exercise-check"), (v.hint_button, "pl-exercise-hint"),
                      (v.answer_button, "pl-exercise-show-answer"),
                      (v.another_button, "pl-exercise-another"),
                      (v.clear_button, "pl-exercise-clear"),
                      (v.feedback, "pl-exercise-feedback"), (v.board, "pl-exercise-board"),
                      (v.status_line, "pl-exercise-status"),
                      (v.hint_line, "pl-exercise-hint-text"),
                      (v.hint_picture, "pl-exercise-hint-picture")]:
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
    assert "Your answer must be a whole number, like 7; “five” is not one." in text(v.feedback)
    v.number_box.value = "4"
    v.check_button.click()
    assert text(v.feedback) == "✗ Not quite. 4 misses some points of the lakes."
    assert v.hint_line.value == "" and not shown(v.answer_box)
    v.hint_button.click()
    assert text(v.hint_line) == "Hint 1 of 2: Count the lakes."
    v.answer_button.click()
    assert shown(v.answer_box) and text(v.answer_text) == "Answer: 5"
    assert v.answer_picture.value == ""          # a number's answer has no cells to draw
    v.another_button.click()
    assert m.seed == 1 and text(v.seed_label) == "Exercise seed 1, level 1"
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
    assert m.seed == 1 and v.seed_box.value == "1" and v.board.value == toy_draw([])
    assert v.board.value != before and v.feedback.value == ""
    v.seed_box.value = "12"
    v.seed_button.click()
    assert m.seed == 12 and 'data-seed="12"' in v.seed_label.value


def test_view_go_to_seed_refuses_what_is_not_a_whole_number_with_a_sentence():
    w = exercise_widget("toy.lakes", seed=3)
    v, m = w.view, w.model
    for typed, said in (("2.5", "The seed must be a whole number, like 7; “2.5” is not one."),
                        ("abc", "The seed must be a whole number, like 7; “abc” is not one."),
                        ("-1", "The seed must be a whole number from 0 to 1000000000, not -1."),
                        ("", "The seed is missing: type a whole number, like 7.")):
        v.seed_box.value = typed
        v.seed_button.click()
        assert m.seed == 3 and text(v.message_line) == said     # the exercise stays
    v.seed_box.value = " 25 "
    v.seed_button.click()
    assert m.seed == 25 and text(v.message_line) == "" and v.seed_box.value == "25"


def test_view_board_clicks_on_a_choice_exercise_say_so():
    w = exercise_widget("toy.pick")
    w.view.board.clicked = "1,1#1"
    assert "choices" in text(w.view.message_line)


def test_view_keeps_the_exercise_when_another_cannot_be_made():
    def flaky(seed, level):
        if seed == 1:
            raise InvalidSetup("no position for seed 1")
        return cells_exercise(seed, level)

    w = exercise_widget("toy.lakes", seed=0, generate=flaky)
    v, m = w.view, w.model
    v.another_button.click()
    assert m.seed == 0 and "could not be made: no position for seed 1" in text(v.message_line)
    v.seed_box.value = "2"
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



def test_view_hint_button_opens_the_hints_one_by_one():
    w = exercise_widget("toy.lakes", seed=1)
    v = w.view
    assert v.hint_button.description == "Hint" and not v.hint_button.disabled
    assert v.hint_line.value == "" and not shown(v.hint_picture)
    v.hint_button.click()
    assert text(v.hint_line) == "Hint 1 of 2: There are two."
    assert 'data-hint="1"' in v.hint_line.value and 'data-hint="2"' not in v.hint_line.value
    assert v.hint_button.description == "Another hint" and not v.hint_button.disabled
    assert not shown(v.hint_picture)              # the nudge marks nothing on the board
    v.hint_button.click()
    assert text(v.hint_line) == ("Hint 1 of 2: There are two.Hint 2 of 2: One lake is in "
                                 "column 0, row 1 or next to it.")
    assert v.hint_button.description == "No more hints" and v.hint_button.disabled
    assert shown(v.hint_picture)
    assert v.hint_picture.value == toy_draw([(0, 0), (0, 1), (0, 2)])
    assert not shown(v.answer_box) and v.feedback.value == ""
    v.another_button.click()
    assert v.hint_button.description == "Hint" and not v.hint_button.disabled
    assert v.hint_line.value == ""


def test_view_two_wrong_checks_open_a_hint_but_not_the_answer():
    w = exercise_widget("toy.lakes", seed=2)
    v = w.view
    v.board.clicked = "2,2#1"
    v.check_button.click()
    assert v.hint_line.value == ""
    v.check_button.click()
    assert text(v.hint_line) == "Hint 1 of 2: There are two."
    assert v.hint_button.description == "Another hint"
    v.check_button.click()
    assert 'data-hint="2"' in v.hint_line.value and v.hint_button.disabled
    v.check_button.click()
    assert not shown(v.answer_box) and v.answer_text.value == ""
    assert "(0, 2)" not in text(v.feedback) + text(v.hint_line)
    assert 'data-run="0"' in v.status_line.value
    assert "Take it slowly" in text(v.status_line)


def test_view_show_answer_then_a_right_check_is_seen_not_learned():
    box = exercises.progress()
    w = exercises.practice("toy.lakes", seed=0)
    v = w.view
    v.answer_button.click()
    assert shown(v.answer_box) and v.answer_picture.value == w.model.exercise.answer_svg()
    assert 'data-practised="0" data-mastered="0"' in box.line.value
    v.board.clicked = "0,0#1"
    v.board.clicked = "1,1#2"
    v.check_button.click()
    assert text(v.feedback) == f"✓ Right. Both lakes found. {SEEN_NOT_LEARNED}"
    assert 'data-mastered="false" data-run="0"' in v.status_line.value
    assert 'data-practised="1" data-mastered="0"' in box.line.value


def test_view_status_line_follows_the_run_to_mastered():
    w = exercise_widget("toy.pick", seed=0)
    v = w.view
    for n in (1, 2, 3):
        v.option_buttons[1].click()
        v.check_button.click()
        if n < 3:
            assert f'data-run="{n}"' in v.status_line.value
            assert text(v.status_line) == f"Right in a row, with no hint: {n} of 3."
            v.check_button.click()                   # the same position again: no count
            assert f'data-run="{n}"' in v.status_line.value
            v.another_button.click()
    assert 'data-mastered="true" data-run="3"' in v.status_line.value
    assert text(v.status_line) == "Mastered at level 1. Try level 2."


def test_view_level_dropdown_reloads_the_same_seed():
    w = exercise_widget("toy.lakes", seed=4)
    v, m = w.view, w.model
    v.board.clicked = "0,1#1"
    v.hint_button.click()
    v.level_box.value = 2
    assert (m.seed, m.level, m.exercise.level) == (4, 2, 2)
    assert text(v.question).startswith("Click every lake, past the hills.")
    assert text(v.seed_label) == "Exercise seed 4, level 2" and v.seed_box.value == "4"
    assert m.selection == () and v.hint_line.value == ""
    v.another_button.click()
    assert (m.seed, m.level) == (5, 2) and v.level_box.value == 2
    v.level_box.value = 1
    assert (m.seed, m.level) == (5, 1)
    assert ew.RECORD.attempts == []


def test_view_status_line_follows_a_record_loaded_from_outside():
    w = exercises.practice("toy.score", seed=0)
    v = w.view
    assert 'data-mastered="false" data-run="0"' in v.status_line.value
    saved = PracticeRecord()     # answered on another page, or before a reload
    other = ExerciseModel("toy.score", record=saved)
    for seed in (7, 8, 9):
        other.load(seed)
        other.set_number(seed + 5)
        other.check()
    ew.RECORD.merge(PracticeRecord.from_json(saved.to_json()).attempts)
    assert 'data-mastered="true" data-run="3"' in v.status_line.value
    assert text(v.status_line) == "Mastered at level 1. Try level 2."


def test_a_right_answer_on_a_position_met_before_says_it_does_not_count():
    """Another day, the same seed: right, but it cannot count towards mastery, and the
    learner is told why and what to do."""
    first = ExerciseModel("toy.score", seed=3)
    first.set_number(str(first.exercise.answer))
    assert first.check().correct and first.status.run == 1
    again = ExerciseModel("toy.score", seed=3)           # a new page, the same record
    again.set_number(str(again.exercise.answer))
    assert again.check().correct
    assert again.feedback_text().endswith(MET_BEFORE)
    assert again.status.run == 1                         # neither counted nor reset
    again.another()
    again.set_number(str(again.exercise.answer))
    again.check()
    assert MET_BEFORE not in again.feedback_text() and again.status.run == 2


def test_a_double_click_on_check_is_one_attempt(monkeypatch):
    """The second click of a double click reaches the kernel while the first one's work runs:
    one attempt is counted, not two (core/clicks.py)."""
    from pangaea_lab.core import clicks
    w = exercise_widget("toy.score", seed=0)
    v, m = w.view, w.model
    clock = page_clicks(monkeypatch)
    v.number_box.value = "4"
    for at in (50.0, 50.03):
        clock.now = at
        v.check_button.click()
    assert m.attempts == 1
    clock.now = 60.0
    v.check_button.click()
    assert m.attempts == 2 and not v.check_button.disabled
    clock.now = 60.1                 # another button at once: it counts
    v.clear_button.click()
    assert v.number_box.value == ""
