"""The exercises of notebooks 05-08 (Ancients, chains and Favor, Return of the Ancients, Wild
Woods): for every kind over 50 seeds the position is consistent, the engine's answer is
accepted, a wrong answer is refused with a reason, the question is plain words, and the drawing
lets every answer space be clicked."""

import re

import pytest

from pangaea_lab import exercises
from pangaea_lab.core.exercises import Exercise

NOTEBOOKS = ("pangaea/05_ancients.ipynb", "pangaea/06_chains_and_favor.ipynb",
             "pangaea/07_return_of_the_ancients.ipynb", "pangaea/08_wild_woods.ipynb")
KINDS = [k for k in exercises.registry() if k.notebook in NOTEBOOKS]
SEEDS = range(50)
CODE_TALK = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|run the cell|\w+\(\)|_\w+_|my_answer")


def wrong_answers(ex: Exercise):
    """Answers the engine must refuse: one right space or option too few or too many, another
    option, another number."""
    if ex.answer_kind in ("cells", "path"):
        cells = set(ex.answer)
        board = ex.context["state"].board
        others = [c for c in board.cells if c not in cells]
        if cells:
            yield set(list(sorted(cells))[1:])
        if others:
            yield cells | {others[len(others) // 2]}
    elif ex.answer_kind == "choice":
        right = ex.context.get("right", {ex.answer})     # every right option, if several
        yield from (o.key for o in ex.options if o.key not in right)
    elif ex.answer_kind == "choices":
        for o in ex.options:
            yield set(ex.answer) ^ {o.key}
    else:
        yield ex.answer + 1
        if ex.answer > 0:
            yield ex.answer - 1


def test_every_notebook_has_at_least_four_kinds():
    for nb in NOTEBOOKS:
        assert len([k for k in KINDS if k.notebook == nb]) >= 4, nb


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.key)
def test_exercise_kind_over_many_seeds(kind):
    for seed in SEEDS:
        ex = kind.generate(seed)
        assert ex.kind == kind.key and ex.seed == seed
        state = ex.context["state"]
        state.check_invariants()                       # a position the engine accepts
        verdict = ex.check(ex.answer)
        assert verdict.correct and verdict.reason, (seed, verdict)
        refused = [ex.check(w) for w in wrong_answers(ex)]
        assert refused and all(not v.correct and v.reason.strip() for v in refused), seed
        assert ex.question and not CODE_TALK.search(ex.question + ex.hint + ex.explanation)
        assert ex.hint and ex.explanation
        svg = ex.svg(ex.answer_cells)
        assert svg.startswith("<svg") and hasattr(svg, "_repr_svg_")
        if ex.answer_kind in ("cells", "path"):
            for cell in ex.answer:
                assert f'data-cell="{cell[0]},{cell[1]}"' in svg, (seed, cell)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.key)
def test_the_same_seed_gives_the_same_exercise(kind):
    a, b = kind.generate(7), kind.generate(7)
    assert a.question == b.question and a.answer == b.answer and a.svg() == b.svg()


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.key)
def test_answered_in_the_widget_by_clicking(kind):
    """With the code hidden: the engine's answer given by clicks (or picks, or typing) is
    judged right; a fresh position comes with "Another one"."""
    from pangaea_lab.exercises import practice
    widget = practice(kind.key, seed=1)
    model = widget.model
    ex = model.exercise
    if ex.answer_kind == "cells":
        for cell in sorted(ex.answer):
            model.click(f"{cell[0]},{cell[1]}")
    elif ex.answer_kind == "choice":
        model.choose(ex.answer)
    elif ex.answer_kind == "choices":
        for key in sorted(ex.answer):
            model.choose(key)
    else:
        model.set_number(str(ex.answer))
    assert model.check().correct
    assert "data-cell" in model.svg() or ex.answer_kind != "cells"
    model.another()
    assert model.exercise.seed != 1
