"""The Harmonies exercise kinds, each over 50 seeds: a legal position, the engine's answer
accepted, wrong answers refused with a reason, plain-words questions, clickable answers."""

import re
from pathlib import Path

import pytest

from pangaea_lab import exercises
from pangaea_lab.core.svg import SvgImage
from pangaea_lab.harmonies.board import cells, stacks_tuple

ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(50)
KINDS = [k for k in exercises.registry() if k.game == "harmonies"]
CODE_TALK = re.compile(r"\bNone\b|\brun the cell\b|\b[a-z]+_[a-z_]+\b|\w\(\)|[{}\[\]]")


def _wrong_answers(ex):
    """A few answers that differ from the engine's."""
    if ex.answer_kind == "number":
        return [ex.answer + 1, max(ex.answer - 1, 0) if ex.answer else 5]
    if ex.answer_kind == "choice":
        return [o.key for o in ex.options if o.key != ex.answer]
    if ex.answer_kind == "choices":
        keys = [o.key for o in ex.options]
        return [set(ex.answer) ^ {k} for k in keys]
    side = "B" if ex.kind == "harmonies.islands" else "A"
    others = [c for c in cells(side) if c not in ex.answer]
    out = [set(ex.answer) | {c} for c in others[:4]]
    out += [set(ex.answer) - {c} for c in sorted(ex.answer)]
    return out


def test_at_least_four_kinds_for_each_rule_notebook():
    per_notebook = {}
    for kind in KINDS:
        per_notebook.setdefault(kind.notebook, []).append(kind.key)
    assert sorted(per_notebook) == [f"harmonies/0{n}_{name}.ipynb" for n, name in
                                    [(1, "setup_and_turns"), (2, "landscapes"),
                                     (3, "habitats"), (4, "spirits_and_solo")]]
    assert all(len(keys) >= 4 for keys in per_notebook.values()), per_notebook


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.key)
def test_every_kind_over_fifty_seeds(kind):
    for seed in SEEDS:
        ex = kind.generate(seed)
        where = f"{kind.key} seed {seed}"
        # the position is one the engine accepts
        state = ex.context.get("state")
        if state is not None:
            state.check_invariants()
        stacks = ex.context.get("stacks")
        if isinstance(stacks, dict) and all(isinstance(c, tuple) for c in stacks):
            stacks_tuple("B" if kind.key == "harmonies.islands" else "A", stacks)
        # the engine's answer is right, with a reason
        verdict = ex.check(ex.answer)
        assert verdict.correct and verdict.reason, where
        # wrong answers are refused, each with a reason
        wrong = _wrong_answers(ex)
        assert wrong, where
        for answer in wrong:
            v = ex.check(answer)
            assert not v.correct and v.reason.strip(), (where, answer, v)
        # plain words
        assert len(ex.question) > 20 and not CODE_TALK.search(ex.question), (where, ex.question)
        assert ex.hint and ex.explanation, where
        # a drawing that is a picture, with every answer space clickable
        if ex.draw is not None:
            pic = ex.svg(ex.answer_cells)
            assert isinstance(pic, SvgImage) and pic.startswith("<svg"), where
            for cell in ex.answer_cells if ex.answer_kind in ("cells", "path") else ():
                assert f'data-cell="{cell[0]},{cell[1]}"' in pic, (where, cell)
        else:
            assert ex.answer_kind in ("number", "choice", "choices"), where


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.key)
def test_same_seed_same_exercise(kind):
    a, b = kind.generate(7), kind.generate(7)
    assert (a.question, a.answer, a.svg()) == (b.question, b.answer, b.svg())


def test_a_wrong_cell_is_named_with_the_engines_reason():
    ex = exercises.generate("harmonies.token_on_stacks", seed=3)
    state, colour = ex.context["state"], ex.context["colour"]
    bad = next(c for c in ex.context["stacks"] if c not in ex.answer)
    v = ex.check(set(ex.answer) | {bad})
    assert not v.correct and f"({bad[0]}, {bad[1]})" in v.reason
    assert "cannot go on" in v.reason or "cube" in v.reason
    assert bad not in {a.cell for a in state.legal_actions() if getattr(a, "colour", "") == colour}


def test_a_wrong_score_names_the_part_that_was_missed():
    ex = exercises.generate("harmonies.landscape_total", seed=1)
    for name, pts in _rows(ex):
        if pts:
            v = ex.check(ex.answer - pts)
            assert not v.correct and "you left out" in v.reason and name in v.reason


def _rows(ex):
    from pangaea_lab.harmonies import score_board
    return score_board("A", ex.context["stacks"]).rows()


def test_river_exercise_follows_the_default_river_rule():
    from pangaea_lab.harmonies.scoring import river_length
    for seed in range(20):
        ex = exercises.generate("harmonies.river_length", seed=seed)
        board = stacks_tuple("A", ex.context["stacks"])
        assert ex.answer == river_length("A", board, "rings")


def test_each_kind_is_practised_in_its_notebook_after_progress():
    import nbformat
    for kind in KINDS:
        nb = nbformat.read(ROOT / "notebooks" / kind.notebook, as_version=4)
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        at = [k for k, src in enumerate(code) if f'practice("{kind.key}"' in src]
        top = [k for k, src in enumerate(code) if "progress()" in src]
        assert at, f"{kind.key} is not practised in {kind.notebook}"
        assert top and top[0] < at[0], f"{kind.notebook}: progress() should come first"
