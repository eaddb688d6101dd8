"""The Forest Shuffle exercise kinds: every one, at every level, over 50 seeds, checked
against the engine; the typical mistakes each kind diagnoses; every right answer accepted."""

import re

import pytest

from pangaea_lab import exercises
from pangaea_lab import forest_shuffle as fs
from pangaea_lab.forest_shuffle import exercises as fx
from pangaea_lab.forest_shuffle.render import SIDE_NUMBER

SEEDS = range(50)
KINDS = [k for k in exercises.registry() if k.game == "forest_shuffle"]
CASES = [(k, level) for k in KINDS for level in k.levels]
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
    extra = sorted(c for c in ex.spaces() if c not in cells)[:1]
    return [cells - {c} for c in cells] + [cells | {c} for c in extra]


def test_four_kinds_per_rule_notebook_and_each_practised_there():
    by_notebook = {}
    for k in KINDS:
        by_notebook.setdefault(k.notebook, []).append(k.key)
    for nb in ("01_setup_and_turns", "02_effects_and_bonuses"):
        assert len(by_notebook[f"forest_shuffle/{nb}.ipynb"]) >= 4, nb
    # notebook 3 teaches the most: a kind for each of its scoring ideas
    assert len(by_notebook["forest_shuffle/03_scoring_every_species.ipynb"]) >= 8
    assert {"forest_shuffle.setup_counts", "forest_shuffle.starting_hand"} <= set(
        by_notebook["forest_shuffle/01_setup_and_turns.ipynb"])


@pytest.mark.parametrize("kind,level", CASES, ids=lambda c: getattr(c, "key", str(c)))
def test_each_kind_over_fifty_seeds(kind, level):
    for seed in SEEDS:
        ex = kind.generate(seed, level)
        assert ex.kind == kind.key and ex.seed == seed and ex.level == level
        # plain words, answerable: no code talk in what a learner reads
        for text in (ex.question, *ex.hints, ex.explanation, *(o.label for o in ex.options)):
            assert text.strip() and not CODE_TALK.search(text), (seed, text)
        assert len(ex.hints) >= 2
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
    for level in kind.levels:
        a, b = kind.generate(7, level), kind.generate(7, level)
        assert (a.question, a.answer, a.options, a.svg(), a.hints) == (
            b.question, b.answer, b.options, b.svg(), b.hints)
    assert kind.generate(7, 1).question != kind.generate(7, 2).question or \
        kind.generate(7, 1).svg() != kind.generate(7, 2).svg()


def test_where_to_place_answers_are_the_engines_legal_plays():
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.where_to_place(seed, level)
            st, card = ex.context["state"], ex.context["card"]
            legal = {(a.tree, SIDE_NUMBER[a.side]) for a in st.legal_actions()
                     if isinstance(a, fs.PlayDweller) and a.card == card}
            assert set(ex.answer) == legal
            # a click on a slot that is not legal names the slot and why
            for i in range(len(st.forests[0].trees)):
                for s in range(4):
                    if (i, s) not in legal:
                        verdict = ex.check(set(ex.answer) | {(i, s)})
                        assert f"tree {i + 1}" in verdict.reason
                        assert verdict.misconception in ("wrong-side", "slot-taken")


def test_clearing_answer_follows_the_limit_of_ten():
    seen = set()
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.clearing(seed, level)
            st, after = ex.context["state"], ex.context["after"]
            added = int(re.search(r"= (\d+)", ex.explanation).group(1))
            assert ex.answer == (0 if added >= 10 else added)
            assert after.turn == st.turn + 1 or after.current == 0
            seen.add(ex.answer == 0)
            if ex.answer == 0:
                assert ex.check(added).misconception == "kept-full-clearing"
            else:
                assert ex.check(0).misconception == "emptied-too-early"
    assert seen == {True, False}        # both outcomes are practised


def test_winter_story_matches_the_engine_and_names_the_mistake():
    outcomes = set()
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.winter(seed, level)
            after = ex.context["after"]
            assert ("ends the game" in ex.explanation) == after.is_over
            outcomes.add(after.is_over)
            got = int(ex.answer[0])
            flipped = f"{got}-{'on' if after.is_over else 'end'}"
            assert ex.check(flipped).misconception in ("missed-third-winter", "ends-too-early")
    assert outcomes == {True, False}


def test_scoring_answers_are_the_engines_scores():
    for make in (fx.species_points, fx.tree_points):
        for level in (1, 2):
            for seed in SEEDS:
                ex = make(seed, level)
                c = ex.context
                expected = fs.score([c["forest"], *c["others"]])[0].by_species[c["species"]]
                assert ex.answer == expected
                wrong = ex.check(expected + 3).reason
                assert "Rule:" in wrong or "You" in wrong
                assert c["species"] in ex.question


def test_the_fox_counts_only_its_own_forest():
    """The issue's example: hares counted in every forest get their own diagnosis."""
    found = 0
    for seed in range(120):
        ex = fx.species_points(seed, 2)
        c = ex.context
        if c["species"] not in ("Red Fox", "Gnat", "Goshawk") or not c["others"]:
            continue
        merged = fs.score([fx._merged(c["forest"], c["others"][0])])[0].by_species[c["species"]]
        if merged != ex.answer:
            verdict = ex.check(merged)
            assert verdict.misconception == "counted-rival-forest", verdict
            assert "only those in its own forest" in verdict.reason
            assert str(ex.answer) not in re.findall(r"\d+", verdict.reason)
            found += 1
    assert found >= 3


def test_mushroom_answers_count_the_engines_draws_spread_and_label_the_sapling_reading():
    labelled, answers = 0, []
    for level in (1, 2):
        for seed in range(100):
            ex = fx.mushrooms(seed, level)
            after = ex.context["after"]
            assert ex.answer == sum(1 for s in after.pending if s.kind == "mushroom")
            answers.append(ex.answer)
            if "sapling" in ex.question:
                assert "online version" in ex.explanation
                labelled += 1
    assert labelled > 0
    # the issue: "0 or 1 in 97 of 100 seeds"; now no answer dominates and 2 or more occur
    assert max(answers.count(v) for v in set(answers)) <= 0.6 * len(answers)
    assert sum(1 for v in answers if v >= 2) >= 0.2 * len(answers)


def test_every_mushroom_counted_is_diagnosed():
    for seed in SEEDS:
        ex = fx.mushrooms(seed, 2)
        forest = ex.context["state"].forests[0]
        everyone = sum(1 for _, _, d in forest.dwellers() if d.species in fx._MUSHROOMS)
        if everyone != ex.answer:
            assert ex.check(everyone).misconception == "counted-every-mushroom"


def test_a_malformed_answer_is_simply_wrong():
    ex = fx.where_to_place(1, 1)
    assert not ex.check([(0,)]).correct
    assert not fx.clearing(1, 1).check("ten").correct
    assert not fx.can_play(1, 1).check("BCE").correct


def test_draw_two_stops_at_the_hand_limit():
    for seed in SEEDS:
        ex = fx.draw_two(seed, 1)
        held = len(ex.context["state"].hands[0])
        assert ex.answer == max(0, min(2, 10 - held))
        if held == 9:
            assert ex.check(2).misconception == "ignored-hand-limit"
        ex = fx.draw_two(seed, 2)
        assert ex.answer == len(ex.context["after"].hands[0]) <= 10


def test_brown_bear_takes_the_clearing_with_the_payments():
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.brown_bear(seed, level)
            st = ex.context["state"]
            assert ex.answer == len(st.clearing) + 3 + len(st.caves[0])
            assert ex.context["after"].clearing == ()
            assert ex.check(ex.answer - 3).misconception == "forgot-payments"


def test_free_placement_answers_are_the_engines_free_placements():
    species = set()
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.free_placement(seed, level)
            after = ex.context["after"]
            assert after.step.kind == "free"
            engine = {str(a.card) for a in after.legal_actions() if isinstance(a, fs.PlaceFree)}
            assert set(ex.answer) == engine
            species.add(after.step.tag)
    assert species == {"pawed animal", "bird", "deer", "bat"}


def test_extra_turn_follows_the_engine_and_the_bonus_rule():
    outcomes = set()
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.extra_turn(seed, level)
            after = ex.context["after"]
            assert ex.answer == ("you" if after.current == 0 else "next")
            assert ("Player 2 plays next" in ex.explanation) == (ex.answer == "next")
            outcomes.add(ex.answer)
            other = "next" if ex.answer == "you" else "you"
            assert ex.check(other).misconception in (
                "one-match-enough", "bonus-for-free", "effect-needs-payment", "missed-bonus")
    assert outcomes == {"you", "next"}


def test_butterfly_put_in_two_sets_is_diagnosed():
    found = 0
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.butterflies(seed, level)
            counts = {}
            for _, _, d in ex.context["forest"].dwellers():
                if d.species in fx._BUTTERFLIES:
                    counts[d.species] = counts.get(d.species, 0) + 1
            table = [0, 3, 6, 12, 20]
            reused = max(counts.values()) * table[min(len(counts), 5) - 1]
            if reused != ex.answer:
                verdict = ex.check(reused)
                assert verdict.misconception == "butterfly-in-two-sets", (seed, verdict)
                found += 1
    assert found >= 10


def test_setup_counts_follow_the_engines_setup():
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.setup_counts(seed, level)
            game, after = ex.context["state"], ex.context["after"]
            assert ex.answer in (len(game.removed), len(after.deck))
            assert len(game.removed) == {2: 30, 3: 20, 4: 10, 5: 0}[game.players]
            if ex.answer == len(after.deck) and "winter" in ex.question:
                assert ex.check(ex.answer - 3).misconception == "forgot-winter-cards"
                assert ex.check(ex.answer + 6 * game.players).misconception in (
                    "forgot-starting-hands", "wrong-player-count")


def test_starting_hand_answers_are_the_engines_swaps():
    sizes = set()
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.starting_hand(seed, level)
            game = ex.context["state"]
            assert set(ex.answer) == {str(p) for p in game.mulligan_left}
            sizes.add(len(ex.answer))
            for option in ex.options:
                if option.key not in ex.answer:
                    verdict = ex.check(set(ex.answer) | {option.key})
                    assert verdict.misconception == "swapped-hand-with-trees"
    assert 0 in sizes and 1 in sizes


def test_cave_total_is_the_engines_total_and_a_forgotten_cave_is_named():
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.cave_total(seed, level)
            forest = ex.context["forest"]
            assert ex.answer == fs.score([forest])[0].total
            assert ex.check(ex.answer - forest.cave).misconception == "forgot-cave"


def test_majority_ties_keep_the_higher_value():
    ties = 0
    for level in (1, 2):
        for seed in range(100):
            ex = fx.majority(seed, level)
            c = ex.context
            counts = fx._majority_counts((c["forest"], *c["others"]), c["species"])
            n = c["forest"].count_species(c["species"])
            rule = fs.catalog().species(c["species"]).scoring
            if counts[0] == max(counts[1:]):
                ties += 1
                assert ex.answer == n * rule["points"]
                verdict = ex.check(n * rule.get("otherwise", 0))
                assert verdict.misconception == "tie-read-as-loss"
                assert "ours" in verdict.reason
    assert ties >= 10


def test_counted_cards_are_what_the_engine_scores():
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.counted_cards(seed, level)
            forest, scorer = ex.context["forest"], ex.context["species"]
            cards = sum(1 if len(c) == 1 else len(forest.trees[c[0]].slot(
                fx.NUMBER_SIDE[c[1]])) for c in ex.answer)
            points = fs.score([forest])[0].by_species[scorer]
            assert points == fs.catalog().species(scorer).scoring["points"] * cards
            # every right answer is accepted, in any order
            assert ex.check(list(reversed(sorted(ex.answer)))).correct


def test_scoring_spots_are_the_cards_that_score():
    names = set()
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.scoring_spots(seed, level)
            forest = ex.context["forest"]
            points = fs.score([forest])[0]
            for i, s in ex.answer:
                assert points.points_at((i, fx.NUMBER_SIDE[s], 0)) > 0
            for i, side, d in forest.dwellers():
                cell = (i, SIDE_NUMBER[side])
                if d.species in ex.context["asked"] and cell not in ex.answer:
                    verdict = ex.check(set(ex.answer) | {cell})
                    names.add(verdict.misconception)
    assert {"wrong-host", "sapling-as-host", "single-toad"} <= names


def test_bats_copies_are_not_species_and_friends_are_not_bats():
    names = set()
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.bat_points(seed, level)
            forest = ex.context["forest"]
            counts = {b: forest.count_species(b) for b in fx._BATS if forest.count_species(b)}
            assert ex.answer == (5 * sum(counts.values()) if len(counts) >= 3 else 0)
            if len(counts) < 3 and sum(counts.values()) >= 3:
                names.add(ex.check(5 * sum(counts.values())).misconception)
            if len(counts) >= 3:
                names.add(ex.check(5 * len(counts)).misconception)
    assert {"copies-as-species", "one-per-species"} <= names


def test_a_set_scores_once():
    for level in (1, 2):
        for seed in SEEDS:
            ex = fx.set_points(seed, level)
            forest, species = ex.context["forest"], ex.context["species"]
            n = forest.count_species(species)
            table = fs.catalog().species(species).scoring["table"]
            per_card = n * table[min(n, len(table)) - 1]
            if per_card != ex.answer:
                assert ex.check(per_card).misconception == "scored-set-per-card"


@pytest.mark.parametrize("level", (1, 2))
def test_mole_plays_are_the_engines_and_a_free_mole_play_is_diagnosed(level):
    """Through the Mole the answer is what the engine lets you play from the hand left; a
    card too dear for that hand is diagnosed as a Mole play taken for free."""
    seen = set()
    for seed in range(40):
        ex = exercises.generate("forest_shuffle.mole_plays", seed, level=level)
        after = ex.context["state"]
        assert after.step.kind == "mole"
        engine = {str(x.card) for x in after.legal_actions()
                  if isinstance(x, (fs.PlayTree, fs.PlayDweller))}
        assert ex.answer == frozenset(engine)
        assert ex.check(sorted(ex.answer)).correct
        for option in ex.options:
            if option.key not in ex.answer:
                v = ex.check(sorted(ex.answer | {option.key}))
                assert not v.correct and v.misconception in ("mole-plays-free", "no-free-slot")
                assert "1 other cards" not in v.reason
                seen.add(v.misconception)
    assert "mole-plays-free" in seen


@pytest.mark.parametrize("level", (1, 2))
def test_raccoon_follows_the_engine_and_diagnoses_typical_slips(level):
    """The Raccoon: the hand keeps its size through the cave swap (level 1) and the cave
    scores its old cards plus the ones put there (level 2); the usual slips are named."""
    seen = set()
    for seed in range(30):
        ex = exercises.generate("forest_shuffle.raccoon", seed, level=level)
        st, after = ex.context["state"], ex.context["after"]
        assert after.step is None or after.step.kind != "raccoon"
        if level == 1:
            assert ex.answer == len(after.hands[0]) == len(st.hands[0]) - 2
        else:
            assert ex.answer == len(after.caves[0]) == after.scores()[0].cave
        assert ex.check(ex.answer).correct
        for wrong in (ex.answer - 1, ex.answer + 1):
            v = ex.check(wrong)
            assert not v.correct and str(ex.answer) not in v.reason.split()
            seen.add(v.misconception)
    assert ("kept-raccoon-or-payment" in seen) if level == 1 else (
        "counted-raccoon-or-payment" in seen)
