"""The Dawn of Pangaea exercises of notebooks 01-04, each kind at each level over 50 seeds: the
position is consistent, the engine's answer is accepted, a wrong answer is refused with a
reason, the question, hints and explanation are plain words and the drawing lets every answer
space be clicked.  Then the diagnoses: each typical mistake (a chain clicked from B to A, a
longer chain taken for a shortest, each piece of another colour counted, the end Trees left
out, a tie read as a win ...) gets its own reason, and every right answer is accepted."""

import re

import pytest

from pangaea_lab import exercises
from pangaea_lab.core import exercises as core
from pangaea_lab.pangaea.exercises import first_steps

NOTEBOOKS = ("pangaea/01_setup.ipynb", "pangaea/02_turns.ipynb",
             "pangaea/03_land_rituals.ipynb", "pangaea/04_scoring.ipynb")
#: the kinds of this module (other modules add kinds to the same notebooks)
KINDS = [k for k in core.registered() if k.generate_at.__module__ == first_steps.__name__]
CASES = [(kind, level) for kind in KINDS for level in kind.levels]
SEEDS = range(50)


def make(key, seed, level=2):
    return core.get(f"pangaea.{key}").generate(seed, level)


def wrong_answers(ex):
    """A few answers that differ from the engine's."""
    if ex.answer_kind == "number":
        return [ex.answer + 1, ex.answer - 1]
    if ex.answer_kind == "choice":
        return [o.key for o in ex.options if o.key != ex.answer]
    if ex.answer_kind == "choices":
        return [ex.answer ^ {o.key} for o in ex.options]
    if ex.answer_kind == "cells":
        cells = set(ex.answer)
        out = [cells - {c} for c in sorted(cells)]
        return out + [cells | {c} for c in _board_cells(ex) if c not in cells][:3]
    path = list(ex.answer)
    return [path[:1] + path[2:], path[:-1], path + [path[-2]], path[::-1]]


def _board_cells(ex):
    return [(int(q), int(r)) for q, r in re.findall(r'data-cell="(-?\d+),(-?\d+)"', ex.svg())]


def test_seventeen_kinds_with_two_levels_each():
    assert len(KINDS) == 17 and {k.notebook for k in KINDS} == set(NOTEBOOKS)
    for kind in KINDS:
        assert kind.levels == (1, 2), kind.key
        assert all(title.strip() and title != core.DEFAULT_LEVELS[k]
                   for k, title in enumerate(kind.level_titles)), kind.key


def test_at_least_four_kinds_for_each_notebook():
    for notebook in NOTEBOOKS:
        assert len(exercises.kinds_for(notebook)) >= 4, notebook


@pytest.mark.parametrize("kind,level", CASES, ids=lambda c: getattr(c, "key", str(c)))
def test_every_seed_gives_a_sound_exercise(kind, level):
    for seed in SEEDS:
        ex = kind.generate(seed, level)
        assert ex.kind == kind.key and ex.seed == seed and ex.level == level
        state = ex.context.get("state")
        if state is not None:
            state.check_invariants()
        # the engine's answer is right, with a reason
        verdict = ex.check(ex.answer)
        assert verdict.correct and verdict.reason, (seed, verdict)
        # wrong answers are refused, each with a reason
        wrong = wrong_answers(ex)
        assert wrong, seed
        for answer in wrong:
            verdict = ex.check(answer)
            assert not verdict.correct, (seed, answer)
            assert verdict.reason.strip(), (seed, answer)
        # plain words: a question, hints from a nudge to a pointer, an explanation, no code
        assert len(ex.hints) >= 2 and len(set(ex.hints)) == len(ex.hints), ex.hints
        for text in (ex.question, *ex.hints, ex.explanation):
            assert text and not re.search(r"\b(None|True|False|def|_\w+|\w+\(\))\b", text), text
            assert not core.learner_text_problems(text), text
        if ex.answer_kind in ("choice", "choices"):
            assert len({o.key for o in ex.options}) == len(ex.options) >= 2
            assert all(o.label for o in ex.options)
        if ex.answer_kind in ("cells", "path"):
            svg = ex.svg(ex.answer_cells)
            cells = set(_board_cells(ex))
            assert set(ex.answer) <= cells, seed
            for c in ex.answer_cells:
                assert f'data-cell="{c[0]},{c[1]}"' in svg
        # a hint never marks the answer spaces themselves
        if ex.answer_kind in ("cells", "path"):
            for marks in ex.hint_marks:
                assert set(marks) != set(ex.answer) or not marks, (seed, marks)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.key)
def test_the_same_seed_gives_the_same_exercise(kind):
    for level in kind.levels:
        a, b = kind.generate(7, level), kind.generate(7, level)
        assert (a.question, a.answer, a.svg(), a.hints) == (b.question, b.answer, b.svg(), b.hints)
    assert kind.generate(7, 1).question != kind.generate(7, 2).question or \
        kind.generate(7, 1).svg() != kind.generate(7, 2).svg()


def test_flying_seed_refuses_water_with_the_engines_reason():
    ex = make("flying_seed", 3)
    board = ex.context["state"].board
    water = board.cells[board.water[0]]
    verdict = ex.check(set(ex.answer) | {water})
    assert not verdict.correct and "Water Space" in verdict.reason
    assert verdict.misconception == "seed-on-water"


def test_flying_seed_kept_next_to_the_trees_is_taken_for_expand_forest():
    for seed in SEEDS:
        ex = make("flying_seed", seed)
        state = ex.context["state"]
        board = state.board
        reds = [board.cells[i] for i in board.land if state.trees[i] == 0]
        near = {board.cells[j] for t in reds for j in board.neighbours[board.index[t]]}
        given = near & ex.answer
        if given and given != ex.answer:
            verdict = ex.check(given)
            assert verdict.misconception == "expand-forest-range"
            assert "Expand Forest" in verdict.reason
            return
    pytest.fail("no Flying Seed position with spaces far from Red's Trees")


def test_only_reds_seeds_is_diagnosed_in_spirit_growth():
    ex = make("spirit_growth_seeds", 4, 1)
    state = ex.context["state"]
    reds = {c for c in ex.answer if state.seeds[state.board.index[c]] == 0}
    verdict = ex.check(reds)
    assert not verdict.correct and verdict.misconception == "only-own-seeds"
    assert "whoever owns it" in verdict.reason


def test_a_missing_space_is_never_named():
    for key in ("setup_blessings", "flying_seed", "expand_forest", "spirit_growth_seeds"):
        for seed in range(10):
            ex = make(key, seed)
            for cell in ex.answer:
                verdict = ex.check(ex.answer - {cell})
                assert core.cell_text(cell) not in verdict.reason, (key, seed, verdict.reason)


def test_every_shortest_chain_is_accepted_from_a_to_b_only():
    for level in (1, 2):
        for seed in range(20):
            ex = make("land_path", seed, level)
            paths = ex.context["paths"]
            assert ex.answer in paths
            for path in paths:
                assert path[0] == ex.context["start"] and path[-1] == ex.context["end"]
                assert ex.check(list(path)).correct, (seed, path)
                back = ex.check(list(path[::-1]))
                assert not back.correct and back.misconception == "reversed"
                assert "from A" in back.reason


def test_a_skipped_step_is_refused_as_not_adjacent():
    for seed in SEEDS:
        ex = make("land_path", seed)
        path = list(ex.answer)
        verdict = ex.check(path[:1] + path[2:])
        assert not verdict.correct and "adjacent" in verdict.reason


def test_a_longer_chain_is_refused_as_not_a_shortest_one():
    import networkx as nx
    for seed in SEEDS:
        ex = make("land_path", seed)
        state = ex.context["state"]
        pos, board = state.position, state.board
        carrying = board.graph.subgraph([c for i, c in enumerate(board.cells) if pos.connects(i)])
        longer = [p for p in nx.all_simple_paths(carrying, ex.context["start"],
                                                 ex.context["end"], cutoff=len(ex.answer))
                  if len(p) > len(ex.answer)]
        if longer:
            verdict = ex.check(longer[0])
            assert not verdict.correct and verdict.misconception == "longer-than-shortest"
            assert "shorter" in verdict.reason
            return
    pytest.fail("no position with a longer chain in 50 seeds")


def test_the_chain_score_mistakes_are_each_diagnosed():
    seen = set()
    for level in (1, 2):
        for seed in SEEDS:
            ex = make("land_path_score", seed, level)
            state, path = ex.context["state"], ex.context["path"]
            pos = state.position
            holders = [pos.holder(state.board.index[c]) for c in path]
            own = holders.count(0)
            pieces = sum(1 for h in holders if h not in (0, -1))
            colours = len({h for h in holders} - {0, -1})
            if colours:
                verdict = ex.check(own)
                assert "not the other colours" in verdict.reason
                seen.add(verdict.misconception)
            if pieces > colours:
                verdict = ex.check(own + pieces)
                assert verdict.misconception == "counted-each-other-piece", verdict
                assert "once" in verdict.reason
                seen.add(verdict.misconception)
            verdict = ex.check(ex.answer - 2)
            if verdict.misconception == "forgot-end-trees":
                assert "end Trees" in verdict.reason
                seen.add(verdict.misconception)
    assert seen == {"forgot-other-colours", "counted-each-other-piece", "forgot-end-trees"}


def test_a_better_chain_and_a_longer_chain_are_told_apart_in_the_best_score():
    seen = set()
    for seed in SEEDS:
        ex = make("land_best_score", seed)
        for given in range(1, ex.answer + 4):
            seen.add(ex.check(given).misconception)
    assert {"not-the-best", "longer-than-shortest", "forgot-end-trees"} <= seen


def test_a_forgotten_most_trees_bonus_is_named():
    for seed in SEEDS:
        ex = make("final_score", seed)
        state, p = ex.context["state"], ex.context["player"]
        if state.most_trees == p:
            verdict = ex.check(ex.answer - state.edition.most_trees_bonus)
            assert "Most Trees" in verdict.reason and verdict.misconception == "forgot-most-trees"
            return
    pytest.fail("the scored player never held Most Trees in 50 seeds")


def test_every_fault_of_a_proposed_chain_is_asked_about():
    for level in (1, 2):
        seen = {make("land_is_legal", seed, level).answer for seed in SEEDS}
        assert seen == {key for key, _ in first_steps._VERDICTS}


def test_a_detour_called_legal_is_diagnosed_as_any_chain_for_a_shortest():
    for seed in SEEDS:
        ex = make("land_is_legal", seed)
        if ex.answer == "detour":
            verdict = ex.check("legal")
            assert verdict.misconception == "shortest-confused-with-any"
            assert "shortest" in verdict.reason
            return
    pytest.fail("no detour in 50 seeds")


def test_a_tie_read_as_a_win_is_diagnosed():
    found = set()
    for seed in SEEDS:
        ex = make("most_trees", seed)
        counts = ex.context["counts"]
        top = max(counts)
        if counts.count(top) > 1:
            verdict = ex.check(str(counts.index(top)))
            assert verdict.misconception == "tie-read-as-win" and "as many" in verdict.reason
            found.add("most_trees")
        ex = make("winner", seed)
        state = ex.context["state"]
        totals = [s.total for s in state.scores()]
        won = state.winners()
        losers = [q for q, t in enumerate(totals) if t == max(totals) and q not in won]
        if len(won) == 1 and losers:
            verdict = ex.check(str(losers[0]))
            assert verdict.misconception == "tie-read-as-win"
            assert "Weather Tokens" in verdict.reason
            found.add("winner")
    assert found == {"most_trees", "winner"}


def test_the_score_marker_seed_is_diagnosed_in_the_setup_counts():
    for seed in range(100):
        ex = make("setup_counts", seed, 1)
        if ex.context["items"] == ["seeds"]:
            verdict = ex.check(ex.answer + len(ex.context["group"]))
            assert verdict.misconception == "counted-score-marker"
            return
    pytest.fail("no question about Seeds in 100 seeds")


def test_the_numbers_in_the_scoring_notebook_are_the_editions():
    """Notebook 4 says Most Trees needs at least 5 Trees and is worth 2 points."""
    import json
    from pathlib import Path
    from pangaea_lab.pangaea import load_edition
    ed = load_edition()
    nb = json.loads((Path(__file__).resolve().parents[2] / "notebooks/pangaea/04_scoring.ipynb")
                    .read_text(encoding="utf-8"))
    text = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert f"gains {ed.most_trees_bonus} points" in text
    assert f"at least {ed.most_trees_minimum} Trees" in text


@pytest.mark.parametrize("level", (1, 2))
def test_most_trees_and_the_winner_follow_the_rules_as_written(level):
    """The exercises take the engine's Most Trees marker and winners; hold them to the rule:
    Most Trees needs the minimum and a strict lead, the win goes to most points, then most
    Weather Tokens left, then is shared."""
    from pangaea_lab.pangaea.scoring import most_trees_holder, rank
    low = first_steps._edition().most_trees_minimum
    for seed in SEEDS:
        ex = make("most_trees", seed, level)
        counts = ex.context["counts"]
        top = max(counts)
        expected = counts.index(top) if top >= low and counts.count(top) == 1 else -1
        assert most_trees_holder(counts, low) == expected
        assert ex.answer == (str(expected) if expected >= 0 else "nobody")
        ex = make("winner", seed, level)
        state = ex.context["state"]
        totals = [s.total for s in state.scores()]
        left = [sum(ps.weather) for ps in state.players]
        assert state.winners() == rank(totals, left)
        best = [q for q, t in enumerate(totals) if t == max(totals)]
        most = max(left[q] for q in best)
        won = [q for q in best if left[q] == most]
        assert ex.answer == (str(won[0]) if len(won) == 1 else "shared")
