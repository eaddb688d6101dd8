"""The Inori exercise generators, over many seeds: a legal position, the engine's answer
accepted, wrong answers refused with the engine's reason, plain-words questions, and answers
that can be clicked on the drawing."""

from __future__ import annotations

import functools
import re

import pytest

from pangaea_lab import exercises
from pangaea_lab.inori import exercises as inori_exercises
from pangaea_lab.inori.actions import OfferCard, OfferTree, RuneGain

KINDS = [k for k in exercises.registry() if k.game == "inori"]
KEYS = [k.key for k in KINDS]
SEEDS = range(50)
CODE_WORDS = re.compile(r"\b(None|True|False|def|print|state|slot\b|my_answer)|_[a-z]+\(|\(\)")


@functools.lru_cache(maxsize=None)
def ex(key, seed):
    return exercises.generate(key, seed)


def wrong_answers(e):
    """A few wrong answers of each answer kind (each must be refused)."""
    if e.answer_kind == "number":
        return [e.answer + 1, e.answer - 1]
    if e.answer_kind == "choice":
        return [o.key for o in e.options if o.key != e.answer][:2]
    if e.answer_kind == "choices":
        return [e.answer ^ {o.key} for o in e.options[:2]]
    cells = [tuple(int(x) for x in m.split(","))
             for m in re.findall(r'data-cell="([\d,]+)"', e.svg(()))]
    out = [e.answer - {min(e.answer)}]
    out += [e.answer | {c} for c in cells if c not in e.answer][:2]
    return out


def test_each_inori_notebook_has_four_kinds_or_more():
    for nb in ("inori/01_setup_and_turns.ipynb", "inori/02_great_tree_and_runes.ipynb",
               "inori/03_seasons_and_majorities.ipynb"):
        assert len(exercises.kinds_for(nb)) >= 4, nb
    assert len(KEYS) >= 12


@pytest.mark.parametrize("key", KEYS)
def test_generator_over_fifty_seeds(key):
    for seed in SEEDS:
        e = ex(key, seed)
        where = f"{key} seed {seed}"
        state = e.context["state"]
        state.check_invariants()                       # a position the engine accepts
        assert e.question.strip() and not CODE_WORDS.search(e.question), where
        assert e.hint.strip() and e.explanation.strip(), where
        right = e.check(e.answer)
        assert right.correct and right.reason.strip(), f"{where}: {right.reason}"
        for wrong in wrong_answers(e):
            verdict = e.check(wrong)
            assert not verdict.correct and verdict.reason.strip(), f"{where}: {wrong!r}"
            assert not CODE_WORDS.search(verdict.reason), f"{where}: {verdict.reason}"


@pytest.mark.parametrize("key", KEYS)
def test_drawings_let_every_answer_be_clicked(key):
    for seed in range(8):
        e = ex(key, seed)
        svg = e.svg(())
        if e.draw is None:
            assert e.answer_kind not in ("cells", "path")
            continue
        assert svg.startswith("<svg") and hasattr(svg, "_repr_svg_")
        if e.answer_kind in ("cells", "path"):
            assert e.answer, f"{key} seed {seed}: an empty answer"
            for cell in e.answer:
                assert 'data-cell="' + ",".join(map(str, cell)) + '"' in svg
            assert e.answer_svg() != svg


def test_legal_offerings_are_the_engines_and_a_cost_refusal_says_why():
    for seed in range(20):
        e = ex("inori.legal_offerings", seed)
        s = e.context["state"]
        legal = {(a.slot, a.space) for a in s.legal_actions() if isinstance(a, OfferCard)}
        assert e.answer == legal
        blocked = [(i, j) for i, (cid, sp) in enumerate(s.slots) for j, occ in enumerate(sp)
                   if not occ and (i, j) not in legal]
        for cell in blocked:
            reason = e.check(e.answer | {cell}).reason
            assert "cannot pay" in reason and f"card {cell[0] + 1}, space {cell[1] + 1}" in \
                reason
        tree = e.check(e.answer | {(0,)}).reason
        assert "Great Tree" in tree


def test_tree_offerings_follow_altar_costs_and_closed_roots():
    for seed in range(20):
        e = ex("inori.tree_offerings", seed)
        s = e.context["state"]
        assert e.answer == {(a.space,) for a in s.legal_actions() if isinstance(a, OfferTree)}
        for k, left in enumerate(s.root_tokens):
            t = [i for i, sp in enumerate(s.edition.tree) if not sp.altar][k]
            if not left:
                assert (t,) not in e.answer
                if s.tree_markers[t] is None:
                    assert "gone" in e.check(e.answer | {(t,)}).reason


def test_a_wrong_season_score_names_the_card_missed():
    seen = 0
    for seed in range(50):
        e = ex("inori.season_score", seed)
        s = e.context["state"]
        ed = s.edition
        for i, (cid, spaces) in enumerate(s.slots):
            complete = all(spaces)
            mine = any(0 in o for o in spaces)
            held = s.favor[0][ed.colours.index(ed.cards[cid].colour)]
            if complete and mine and held and e.answer - held != e.answer - 1:
                reason = e.check(e.answer - held).reason
                assert "missed" in reason and f"card {i + 1}" in reason
                seen += 1
                break
    assert seen >= 5


def test_rune_timing_at_a_season_end_offers_only_any_time_runes():
    for seed in range(2, 50, 3):                     # every third seed: the season's end
        e = ex("inori.rune_timing", seed)
        s = e.context["state"]
        assert s.current_player == 1 and s.turn == 0  # asked outside their turn
        ed = s.edition
        assert e.answer == {r for r in s.rune_hands[1] if ed.runes[r].any_time}
        assert all(isinstance(a, RuneGain) for a in s.legal_actions()[:-1])


def test_majority_points_refuses_a_missed_altar_by_name():
    for seed in range(30):
        e = ex("inori.majority_points", seed)
        s, who = e.context["state"], e.context["player"]
        from pangaea_lab.inori import score_majorities
        results = score_majorities(s.edition, s.altars, s.favor)
        assert e.answer == sum(m["points"].get(who, 0) for m in results)
        for m in results:
            pts = m["points"].get(who, 0)
            if pts and pts != 1:
                reason = e.check(e.answer - pts).reason
                assert "missed an altar" in reason
                same = [s.edition.tree[x["space"]].id for x in results
                        if x["points"].get(who, 0) == pts]
                assert any(name in reason for name in same)


def test_cell_names_are_plain_words():
    s = ex("inori.legal_offerings", 0).context["state"]
    assert inori_exercises.cell_name(s, (1, 2)) == "card 2, space 3"
    assert inori_exercises.cell_name(s, (3,)) == "Great Tree space T4"
    assert ex("inori.legal_offerings", 0).answer_text().startswith("card ")
    assert ex("inori.tree_offerings", 0).answer_text().startswith("Great Tree space T")


def test_the_exercise_widget_answers_an_inori_exercise_by_clicking():
    from pangaea_lab.exercises import practice
    root = practice("inori.legal_offerings", seed=1)
    model = root.model
    for cell in sorted(model.exercise.answer):
        model.click(",".join(map(str, cell)))          # what a click on the board reports
    assert model.check().correct
    model.another()
    assert model.exercise.seed != 1 and not model.check().correct
