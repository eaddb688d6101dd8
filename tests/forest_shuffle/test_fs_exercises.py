"""The Forest Shuffle exercise kinds: every one over 50 seeds, checked against the engine."""

import re

import pytest

from pangaea_lab import exercises
from pangaea_lab import forest_shuffle as fs
from pangaea_lab.forest_shuffle import exercises as fx
from pangaea_lab.forest_shuffle.render import SIDE_NUMBER

SEEDS = range(50)
KINDS = [k for k in exercises.registry() if k.game == "forest_shuffle"]
CODE_TALK = re.compile(r"\bNone\b|run the cell|\w+_\w+|\w+\(|\bTrue\b|\bFalse\b")


def wrong_answers(ex):
    """Some answers the engine must refuse, of the exercise's own kind."""
    if ex.answer_kind == "number":
        return [ex.answer + 1, ex.answer - 1 if ex.answer > 0 else ex.answer + 2]
    if ex.answer_kind == "choice":
        return [o.key for o in ex.options if o.key != ex.answer][:3]
    if ex.answer_kind == "choices":
        keys = [o.key for o in ex.options]
        return [set(ex.answer) ^ {k} for k in keys]
    cells = set(ex.answer)
    return [cells - {c} for c in cells] + [cells | {(0,)}]


def test_four_kinds_per_rule_notebook_and_each_practised_there():
    by_notebook = {}
    for k in KINDS:
        by_notebook.setdefault(k.notebook, []).append(k.key)
    for nb in ("01_setup_and_turns", "02_effects_and_bonuses", "03_scoring_every_species"):
        assert len(by_notebook[f"forest_shuffle/{nb}.ipynb"]) >= 4, nb


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.key)
def test_each_kind_over_fifty_seeds(kind):
    for seed in SEEDS:
        ex = kind.generate(seed)
        assert ex.kind == kind.key and ex.seed == seed
        # plain words, answerable: no code talk in what a learner reads
        for text in (ex.question, ex.hint, ex.explanation, *(o.label for o in ex.options)):
            assert text.strip() and not CODE_TALK.search(text), (seed, text)
        # the engine's own answer is right, with a reason
        verdict = ex.check(ex.answer)
        assert verdict.correct and verdict.reason, (seed, verdict)
        # wrong answers are refused, each with a reason
        refused = [ex.check(w) for w in wrong_answers(ex)]
        assert refused and all(not v.correct and v.reason.strip() for v in refused), seed
        # the position is one the game can reach
        state = ex.context.get("state")
        if state is not None:
            state.check_invariants()
        forest = ex.context.get("forest")
        if forest is not None:
            forest.check_copies()
        # the drawing shows the position; a clickable answer has a mark for every cell
        svg = ex.svg()
        assert svg.startswith("<svg") and hasattr(svg, "_repr_svg_")
        if ex.answer_kind in ("cells", "path"):
            for cell in ex.answer:
                assert f'data-cell="{",".join(map(str, cell))}"' in svg, (seed, cell)
            assert ex.answer_svg().count('stroke="#ffe14a"') >= len(ex.answer)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.key)
def test_the_same_seed_gives_the_same_exercise(kind):
    a, b = kind.generate(7), kind.generate(7)
    assert (a.question, a.answer, a.options, a.svg()) == (b.question, b.answer, b.options,
                                                           b.svg())


def test_where_to_place_answers_are_the_engines_legal_plays():
    for seed in SEEDS:
        ex = fx.where_to_place(seed)
        st, card = ex.context["state"], ex.context["card"]
        legal = {(a.tree, SIDE_NUMBER[a.side]) for a in st.legal_actions()
                 if isinstance(a, fs.PlayDweller) and a.card == card}
        assert set(ex.answer) == legal
        # a click on a slot that is not legal names the slot and why
        for i in range(len(st.forests[0].trees)):
            for s in range(4):
                if (i, s) not in legal:
                    reason = ex.check(set(ex.answer) | {(i, s)}).reason
                    assert f"Tree {i + 1}" in reason


def test_clearing_answer_follows_the_limit_of_ten():
    seen = set()
    for seed in SEEDS:
        ex = fx.clearing(seed)
        st, after = ex.context["state"], ex.context["after"]
        added = int(re.search(r"= (\d+)", ex.explanation).group(1))
        assert ex.answer == (0 if added >= 10 else added)
        assert after.turn == st.turn + 1 or after.current == 0
        seen.add(ex.answer == 0)
    assert seen == {True, False}        # both outcomes are practised


def test_winter_story_matches_the_engine():
    outcomes = set()
    for seed in SEEDS:
        ex = fx.winter(seed)
        after = ex.context["after"]
        assert ("ends the game" in ex.explanation) == after.is_over
        outcomes.add(after.is_over)
    assert outcomes == {True, False}


def test_scoring_answers_are_the_engines_scores():
    for make in (fx.species_points, fx.tree_points):
        for seed in SEEDS:
            ex = make(seed)
            c = ex.context
            expected = fs.score([c["forest"], *c["others"]])[0].by_species[c["species"]]
            assert ex.answer == expected
            wrong = ex.check(expected + 3).reason
            assert "Rule:" in wrong and c["species"] in ex.question


def test_mushroom_answers_count_the_engines_draws_and_show_the_sapling_label():
    labelled = 0
    for seed in SEEDS:
        ex = fx.mushrooms(seed)
        after = ex.context["after"]
        assert ex.answer == sum(1 for s in after.pending if s.kind == "mushroom")
        if "sapling" in ex.question:
            assert "online version" in ex.explanation
            labelled += 1
    assert labelled > 0


def test_a_malformed_answer_is_simply_wrong():
    ex = fx.where_to_place(1)
    assert not ex.check([(0,)]).correct
    assert not fx.clearing(1).check("ten").correct


def test_draw_two_stops_at_the_hand_limit():
    for seed in SEEDS:
        ex = fx.draw_two(seed)
        held = len(ex.context["state"].hands[0])
        assert ex.answer == max(0, min(2, 10 - held))


def test_brown_bear_takes_the_clearing_with_the_payments():
    for seed in SEEDS:
        ex = fx.brown_bear(seed)
        st = ex.context["state"]
        assert ex.answer == len(st.clearing) + 3 + len(st.caves[0])
        assert ex.context["after"].clearing == ()


def test_free_placement_answers_are_the_engines_free_placements():
    species = set()
    for seed in SEEDS:
        ex = fx.free_placement(seed)
        after = ex.context["after"]
        assert after.step.kind == "free"
        engine = {str(a.card) for a in after.legal_actions() if isinstance(a, fs.PlaceFree)}
        assert set(ex.answer) == engine
        species.add(after.step.tag)
    assert species == {"pawed animal", "bird", "deer", "bat"}


def test_extra_turn_follows_the_engine_and_the_bonus_rule():
    outcomes = set()
    for seed in SEEDS:
        ex = fx.extra_turn(seed)
        after = ex.context["after"]
        assert ex.answer == ("you" if after.current == 0 else "next")
        assert ("Player 2 plays next" in ex.explanation) == (ex.answer == "next")
        outcomes.add(ex.answer)
    assert outcomes == {"you", "next"}
