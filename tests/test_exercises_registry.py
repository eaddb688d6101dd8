"""The exercise registry, checked as a whole (issue 13's "done means").

Every rule notebook (every notebook but the start page and the full-game ones) has at least
four exercise kinds, each of them shown in its notebook with ``practice("<key>"``; every kind's
generator, over many seeds, builds an exercise whose engine answer the checker accepts, whose
obvious wrong answer (one off, one space more or less, a step dropped, another option) is
refused with a reason, whose question is plain words, and whose drawing lets the answer be
clicked.  Generated exercises are cached, so the whole file takes seconds.
"""

import functools
import html
import itertools
import json
import re
from pathlib import Path

import pytest

from pangaea_lab import exercises
from pangaea_lab.core.exercises import ANSWER_KINDS, Exercise, Verdict

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
#: how many seeds each generator is checked on (drawings are slower: fewer of them)
SEEDS = range(50)
DRAW_SEEDS = range(50)
MIN_KINDS = 4


def rule_notebooks():
    """Every notebook that teaches rules: all but the start page, the teachers' guide, the
    full games and the statistics notebooks (which ask questions of many simulated games,
    not of one rule)."""
    return sorted(str(p.relative_to(NOTEBOOKS)) for p in NOTEBOOKS.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts
                  and p.name not in ("00_start_here.ipynb", "teachers.ipynb")
                  and not p.stem.endswith(("full_game", "statistics", "review")))


KINDS = exercises.registry()
KEYS = [kind.key for kind in KINDS]


@functools.lru_cache(maxsize=None)
def exercise(key, seed):
    return exercises.generate(key, seed)


@functools.lru_cache(maxsize=None)
def code_of(notebook):
    nb = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def cell_attr(cell):
    return 'data-cell="' + ",".join(str(int(c)) for c in cell) + '"'


def clickable_cells(svg):
    """The spaces a drawing lets the learner click."""
    return [tuple(int(x) for x in m.split(","))
            for m in re.findall(r'data-cell="(-?\d+(?:,-?\d+)*)"', svg)]


def refused(ex, answer):
    verdict = ex.check(answer)
    assert isinstance(verdict, Verdict), f"the checker returned {verdict!r}, not a Verdict"
    return not verdict.correct and bool(verdict.reason.strip()), verdict


def test_the_rule_notebooks_are_found():
    found = rule_notebooks()
    assert len(found) >= 18 and "00_start_here.ipynb" not in found
    assert not any("full_game" in nb for nb in found)
    assert "pangaea/03_land_rituals.ipynb" in found


@pytest.mark.parametrize("notebook", rule_notebooks())
def test_every_rule_notebook_has_four_exercise_kinds(notebook):
    kinds = [kind.key for kind in exercises.kinds_for(notebook)]
    assert len(kinds) >= MIN_KINDS, (f"{notebook} has {len(kinds)} exercise kinds "
                                     f"({', '.join(kinds) or 'none'}); at least {MIN_KINDS} "
                                     "are needed")


def test_keys_are_unique_and_named_for_their_game():
    assert len(KEYS) == len(set(KEYS))
    for kind in KINDS:
        assert kind.game in exercises.GAMES, kind.key
        assert kind.key.startswith(kind.game + "."), kind.key
        assert kind.rule.strip() and kind.title.strip(), kind.key


@pytest.mark.parametrize("key", KEYS)
def test_kind_is_shown_in_its_notebook(key):
    kind = next(k for k in KINDS if k.key == key)
    path = NOTEBOOKS / kind.notebook
    assert path.is_file(), f"{key}: no notebook {kind.notebook}"
    assert f'practice("{key}"' in code_of(kind.notebook), (
        f'{kind.notebook} never shows {key}: it needs practice("{key}", seed=...)')


@pytest.mark.parametrize("key", KEYS)
def test_generator_answers_are_right_and_wrong_answers_refused(key):
    for seed in SEEDS:
        ex = exercise(key, seed)
        where = f"{key} seed {seed}"
        assert isinstance(ex, Exercise), where
        assert ex.kind == key and ex.seed == seed, f"{where}: made {ex.kind} seed {ex.seed}"
        assert ex.answer_kind in ANSWER_KINDS, where
        assert ex.question.strip(), f"{where}: no question"
        assert "run the cell" not in ex.question.lower() and "my_answer" not in ex.question
        right = ex.check(ex.answer)
        assert right.correct, f"{where}: the engine's own answer is refused: {right.reason}"
        assert right.reason.strip(), f"{where}: a right answer needs a reason too"
        for wrong in wrong_answers(ex):
            ok, verdict = refused(ex, wrong)
            assert ok, f"{where}: the wrong answer {wrong!r} was not refused with a reason " \
                       f"({verdict})"


def wrong_answers(ex):
    """The obvious wrong answers of an exercise (each must be refused)."""
    kind, answer = ex.answer_kind, ex.answer
    if kind == "number":
        return [answer + 1, answer - 1]
    if kind == "choice":
        others = [o.key for o in ex.options if o.key != answer]
        assert others, f"{ex.kind} seed {ex.seed}: a choice needs more than one option"
        wrong = [k for k in others if not ex.check(k).correct]
        assert wrong, f"{ex.kind} seed {ex.seed}: every option is accepted"
        return wrong[:1]
    if kind == "choices":
        first = ex.options[0].key
        return [answer ^ {first}]
    if kind == "cells":
        wrong = [answer - {min(answer)}] if answer else []
        extra = [c for c in clickable_cells(ex.svg(())) if c not in answer]
        if extra:
            wrong.append(answer | {extra[0]})
        assert wrong, f"{ex.kind} seed {ex.seed}: no wrong answer can be clicked"
        return wrong
    # a path: drop a step (the middle one, or the last of a short path)
    drop = len(answer) // 2 if len(answer) >= 3 else len(answer) - 1
    return [answer[:drop] + answer[drop + 1:]]


@pytest.mark.parametrize("key", KEYS)
def test_options_are_labelled_and_distinct(key):
    for seed in SEEDS:
        ex = exercise(key, seed)
        if ex.answer_kind in ("choice", "choices"):
            keys = [o.key for o in ex.options]
            assert len(keys) == len(set(keys)), f"{key} seed {seed}: options repeat"
            assert all(o.label.strip() for o in ex.options), f"{key} seed {seed}"
            assert len({o.label for o in ex.options}) == len(keys), \
                f"{key} seed {seed}: two options read the same"


@pytest.mark.parametrize("key", KEYS)
def test_answers_can_be_clicked_on_the_drawing(key):
    for seed in DRAW_SEEDS:
        ex = exercise(key, seed)
        where = f"{key} seed {seed}"
        svg = ex.svg(())
        if ex.answer_kind in ("cells", "path"):
            assert svg.startswith("<svg"), f"{where}: a cells/path exercise needs a drawing"
            for cell in ex.answer:
                assert cell_attr(cell) in svg, f"{where}: the answer space {cell} cannot be clicked"
        if ex.answer_cells and svg:
            assert ex.answer_svg() != svg, f"{where}: the answer is not marked on the drawing"


@pytest.mark.parametrize("key", KEYS)
def test_every_kind_can_be_answered_in_the_widget(key):
    """The engine's answer, given through the widget as a learner gives it (clicks on the
    board, option buttons, the number box), is judged right; Another one moves on."""
    from pangaea_lab.core.exercise_widget import exercise_widget

    view = exercise_widget(key, seed=0).view
    model = view.model
    clicks = itertools.count()   # each report differs, as the board's own click counter makes
    for seed in range(3):
        ex = model.exercise
        assert ex.seed == seed
        if ex.answer_kind == "number":
            view.number_box.value = str(ex.answer)
        elif ex.answer_kind in ("cells", "path"):
            cells = sorted(ex.answer) if ex.answer_kind == "cells" else ex.answer
            for cell in cells:
                view.board.clicked = ",".join(map(str, cell)) + f"#{next(clicks)}"
        else:
            wanted = {ex.answer} if ex.answer_kind == "choice" else ex.answer
            for button in view.option_buttons:
                if button.option_key in wanted:
                    button.click()
        view.check_button.click()
        assert model.verdict is not None and model.verdict.correct, \
            f"{key} seed {seed}: {model.verdict}"
        assert "✓ Right." in view.feedback.value
        view.hint_button.click()
        view.answer_button.click()
        assert ex.answer_text() in html.unescape(view.answer_text.value)
        view.another_button.click()


def test_a_kind_is_found_without_asking_for_the_registry_first():
    """``ExerciseModel(key)`` in a fresh process, with nothing but the core imported."""
    import subprocess
    import sys

    code = ("from pangaea_lab.core.exercise_widget import ExerciseModel\n"
            "m = ExerciseModel('pangaea.flying_seed', seed=3, level=2)\n"
            "print(m.exercise.kind, m.level, len(m.exercise.hints) >= 2)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["pangaea.flying_seed", "2", "True"]


def test_the_readme_example_kind_exists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for key in set(re.findall(r'practice\("([a-z_]+\.[a-z_]+)"', readme)):
        assert key in KEYS, f"the README shows practice({key!r}), which is no exercise kind"
