"""The kinds added by the audit "every rule taught gets a kind" (pangaea_lab.pangaea.exercises
.audit): the engine's answer agrees with the position, typical mistakes get their own
diagnosis, and no reason for a wrong answer names a piece of the answer."""

import pytest

from pangaea_lab import exercises
from pangaea_lab.pangaea.rituals import NOBODY

SEEDS = range(30)
LEVELS = (1, 2)


def gen(key, seed, level):
    return exercises.generate(key, seed, level=level)


def _pieces(ex):
    state, chain = ex.context["state"], ex.context["chain"]
    idx = state.board.index
    red_trees = {c for c in chain if state.trees[idx[c]] == 0}
    spirits = {c for c in chain if idx[c] in state.spirits and state.trees[idx[c]] == NOBODY}
    others = {c for c in chain if state.trees[idx[c]] not in (0, NOBODY)}
    return red_trees, spirits, others


@pytest.mark.parametrize("level", LEVELS)
def test_land_trees_back_is_red_trees_on_the_chain(level):
    for seed in SEEDS:
        ex = gen("pangaea.land_trees_back", seed, level)
        red_trees, _, _ = _pieces(ex)
        assert ex.answer == frozenset(red_trees)
        after = ex.context["after"]
        assert all(after.trees[after.board.index[c]] == NOBODY for c in red_trees)
        assert ex.check(sorted(ex.answer)).correct


@pytest.mark.parametrize("level", LEVELS)
def test_land_trees_back_diagnoses_typical_mistakes(level):
    seen = set()
    for seed in SEEDS:
        ex = gen("pangaea.land_trees_back", seed, level)
        red_trees, spirits, others = _pieces(ex)
        chain = ex.context["chain"]
        for extra, name in [(spirits, "spirit-goes-back"), (others, "other-colour-goes-back")]:
            for cell in extra:
                v = ex.check(sorted(red_trees | {cell}))
                assert not v.correct and v.misconception == name, (seed, cell, v)
                assert all(str(c) not in v.reason for c in red_trees)
                seen.add(name)
        ends = {chain[0], chain[-1]}
        if ends != red_trees:
            v = ex.check(sorted(ends))
            assert v.misconception == "only-end-trees" and not v.correct
            seen.add("only-end-trees")
    assert seen == {"spirit-goes-back", "other-colour-goes-back", "only-end-trees"}


def test_land_trees_back_level_two_always_has_a_piece_that_stays():
    for seed in SEEDS:
        ex = gen("pangaea.land_trees_back", seed, 2)
        _, spirits, others = _pieces(ex)
        assert spirits or others, seed


@pytest.mark.parametrize("level", LEVELS)
def test_chelon_bridge_score_is_the_engines_score(level):
    for seed in SEEDS:
        ex = gen("pangaea.chelon_bridge_score", seed, level)
        state, chain = ex.context["state"], ex.context["chain"]
        pos = state.position
        assert pos.chelon is not None
        crosses = state.board.cells[pos.chelon] in chain
        assert ex.context["bonus"] == (1 if crosses else 0)
        assert ex.check(ex.answer).correct


def test_chelon_bridge_score_diagnoses_the_bridge():
    seen = set()
    for level in LEVELS:
        for seed in range(60):
            ex = gen("pangaea.chelon_bridge_score", seed, level)
            if ex.context["bonus"]:
                v = ex.check(ex.answer - 1)
                assert v.misconception == "forgot-bridge", (seed, v)
            else:
                v = ex.check(ex.answer + 1)
                assert v.misconception == "bridge-off-chain", (seed, v)
            assert not v.correct and str(ex.answer) not in v.reason
            seen.add(v.misconception)
    assert seen == {"forgot-bridge", "bridge-off-chain"}
