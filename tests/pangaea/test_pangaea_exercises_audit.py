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


# ----- pangaea.okuma_weather ------------------------------------------------------------------


def _biome(state, cell):
    return state.board.biome[state.board.index[tuple(cell)]]


@pytest.mark.parametrize("level", LEVELS)
def test_okuma_weather_goes_to_the_summoner_with_the_landing_biome(level):
    players = set()
    for seed in SEEDS:
        ex = gen("pangaea.okuma_weather", seed, level)
        state, player = ex.context["state"], ex.context["player"]
        assert ex.answer == f"{player}-{_biome(state, ex.context['target'])}"
        assert ex.check(ex.answer).correct
        wrong = [o.key for o in ex.options if o.key != ex.answer]
        assert all(not ex.check(k).correct for k in wrong)
        players.add(player)
    assert players == ({0} if level == 1 else {0, 1})


def test_okuma_weather_diagnoses_player_old_space_and_nobody():
    seen = set()
    for seed in range(60):
        ex = gen("pangaea.okuma_weather", seed, 2)
        state, player, old = ex.context["state"], ex.context["player"], ex.context["old"]
        biome = _biome(state, ex.context["target"])
        v = ex.check(f"{1 - player}-{biome}")
        assert v.misconception == "token-to-other-player" and biome not in v.reason
        seen.add(v.misconception)
        assert ex.check("nobody").misconception == "no-token"
        if _biome(state, old) != biome:
            v = ex.check(f"{player}-{_biome(state, old)}")
            assert v.misconception == "old-space-biome" and biome not in v.reason
            seen.add(v.misconception)
    assert seen == {"token-to-other-player", "old-space-biome"}


# ----- pangaea.okuma_seed_grows ---------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_okuma_seed_grows_with_the_seeds_by_the_water(level):
    for seed in SEEDS:
        ex = gen("pangaea.okuma_seed_grows", seed, level)
        state, water, okuma = ex.context["state"], ex.context["water"], ex.context["okuma"]
        b = state.board
        touching = {b.cells[j] for j in b.neighbours[b.index[water]] if state.seeds[j] != NOBODY}
        assert okuma not in touching   # Okuma's Seed is far from the Spirit's water
        assert ex.answer == frozenset(touching | {okuma})
        after = ex.context["after"]
        assert after.trees[b.index[okuma]] == state.seeds[b.index[okuma]]
        assert ex.check(sorted(ex.answer)).correct


def test_okuma_seed_grows_diagnoses_the_forgotten_and_the_far_seed():
    seen = set()
    for level in LEVELS:
        for seed in SEEDS:
            ex = gen("pangaea.okuma_seed_grows", seed, level)
            state, okuma = ex.context["state"], ex.context["okuma"]
            rest = ex.answer - {okuma}
            v = ex.check(sorted(rest))
            assert v.misconception == "okuma-seed-forgotten" and str(okuma) not in v.reason
            seen.add(v.misconception)
            far = [c for c in state.board.cells if c not in ex.answer
                   and state.seeds[state.board.index[c]] != NOBODY]
            for cell in far:
                v = ex.check(sorted(ex.answer | {cell}))
                assert v.misconception == "far-seed-grows" and not v.correct
                seen.add(v.misconception)
    assert seen == {"okuma-seed-forgotten", "far-seed-grows"}


# ----- pangaea.summon_again -------------------------------------------------------------------


def _may_stand(state, ancient):
    b = state.board
    if ancient == "Chelon":
        return {b.cells[i] for i in b.water}
    if ancient == "Okuma":
        return {b.cells[i] for i in b.land
                if state.trees[i] == NOBODY and state.seeds[i] == NOBODY}
    return {b.cells[i] for i in b.land if state.trees[i] != NOBODY}


@pytest.mark.parametrize("level", LEVELS)
def test_summon_again_moves_the_ancient_elsewhere(level):
    ancients = set()
    for seed in SEEDS:
        ex = gen("pangaea.summon_again", seed, level)
        state, ancient, here = (ex.context[k] for k in ("state", "ancient", "here"))
        assert here not in ex.answer
        assert ex.answer == frozenset(_may_stand(state, ancient) - {here})
        v = ex.check(sorted(ex.answer | {here}))
        assert not v.correct and v.misconception == "summon-stays"
        assert ex.check(sorted(ex.answer)).correct
        ancients.add(ancient)
    assert ancients == {"Okuma", "Chelon", "Thorondal"}


# ----- pangaea.graph_components ---------------------------------------------------------------


def _pieces_of(state, terrain):
    """The connected pieces of one terrain, by a walk of our own (not networkx)."""
    b = state.board
    left = {i for i, t in enumerate(b.terrain) if t == terrain}
    out = []
    while left:
        todo, piece = [left.pop()], set()
        while todo:
            i = todo.pop()
            piece.add(b.cells[i])
            for j in b.neighbours[i]:
                if j in left:
                    left.remove(j)
                    todo.append(j)
        out.append(piece)
    return out


def test_graph_components_counts_land_masses():
    seen = set()
    for seed in SEEDS:
        ex = gen("pangaea.graph_components", seed, 1)
        state = ex.context["state"]
        assert ex.answer == len(_pieces_of(state, "land"))
        waters = len(_pieces_of(state, "water"))
        if waters != ex.answer:
            v = ex.check(waters)
            assert v.misconception == "counted-water-bodies" and not v.correct
            seen.add(v.misconception)
    assert seen == {"counted-water-bodies"}


def test_graph_components_finds_the_body_of_water():
    seen = set()
    for seed in SEEDS:
        ex = gen("pangaea.graph_components", seed, 2)
        state, start = ex.context["state"], ex.context["start"]
        bodies = _pieces_of(state, "water")
        assert ex.answer == frozenset(next(b for b in bodies if start in b))
        other = next(b for b in bodies if start not in b)
        v = ex.check(sorted(ex.answer | {min(other)}))
        assert v.misconception == "separate-water-joined"
        land = min(c for c in state.board.cells if c not in set().union(*bodies))
        v = ex.check(sorted(ex.answer | {land}))
        assert v.misconception == "land-in-water-body"
        seen.add(len(bodies))
    assert len(seen) >= 2
