"""The Harmonies exercise kinds, each over 50 seeds and every level: a legal position, the
engine's answer accepted, wrong answers refused with a reason that does not give the answer,
hints from a nudge to a pointer, plain-words questions, clickable answers; and the typical
mistakes each diagnosed by name."""

import re
from pathlib import Path

import pytest

from pangaea_lab.core.exercises import get, learner_text_problems, registered
from pangaea_lab.core.svg import SvgImage
from pangaea_lab.harmonies import exercises as harmonies_exercises  # noqa: F401 (registers)
from pangaea_lab.harmonies.board import cells, stacks_tuple
from pangaea_lab.harmonies.habitats import habitat_cells
from pangaea_lab.harmonies.scoring import island_count, river_length

ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(50)
KINDS = [k for k in registered() if k.game == "harmonies"]
CASES = [(k, level) for k in KINDS for level in k.levels]
CODE_TALK = re.compile(r"\bNone\b|\brun the cell\b|\b[a-z]+_[a-z_]+\b|\w\(\)|[{}\[\]]")
#: a data structure shown as text ("{'tokens': 'rulebook', ...}")
DATA_TALK = re.compile(r"[{}\[\]]|'\w+':|\(rule:")


def generate(key, seed, level=1):
    return get(key).generate(seed, level)


def _side(ex):
    return "B" if ex.kind == "harmonies.islands" else "A"


def _wrong_answers(ex):
    """A few answers that differ from the engine's."""
    if ex.answer_kind == "number":
        return [ex.answer + 1, max(ex.answer - 1, 0) if ex.answer else 5]
    if ex.answer_kind == "choice":
        return [o.key for o in ex.options if o.key != ex.answer]
    if ex.answer_kind == "choices":
        return [set(ex.answer) ^ {o.key} for o in ex.options]
    others = [c for c in cells(_side(ex)) if c not in ex.answer]
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
    assert all(len(k.levels) >= 2 for k in KINDS)


@pytest.mark.parametrize("kind,level", CASES, ids=lambda c: getattr(c, "key", str(c)))
def test_every_kind_over_fifty_seeds(kind, level):
    for seed in SEEDS:
        ex = kind.generate(seed, level)
        where = f"{kind.key} level {level} seed {seed}"
        # the position is one the engine accepts
        state = ex.context.get("state")
        if state is not None:
            state.check_invariants()
        stacks = ex.context.get("stacks")
        if isinstance(stacks, dict) and all(isinstance(c, tuple) for c in stacks):
            stacks_tuple(_side(ex), stacks)
        # the engine's answer is right, with a reason
        verdict = ex.check(ex.answer)
        assert verdict.correct and verdict.reason, where
        # wrong answers are refused, each with a reason in plain words
        wrong = _wrong_answers(ex)
        assert wrong, where
        for answer in wrong:
            v = ex.check(answer)
            assert not v.correct and v.reason.strip(), (where, answer, v)
            assert not DATA_TALK.search(v.reason), (where, v.reason)
            if ex.answer_kind == "number":
                assert str(ex.answer) not in re.findall(r"\d+", v.reason) or \
                    str(ex.answer) in re.findall(r"\d+", ex.question), (where, v.reason)
        # plain words, two different hints from a nudge to a pointer
        assert len(ex.question) > 20 and not CODE_TALK.search(ex.question), (where, ex.question)
        assert len(ex.hints) >= 2 and len(set(ex.hints)) == len(ex.hints), where
        assert ex.explanation, where
        for text in (ex.question, ex.explanation, *ex.hints):
            assert not learner_text_problems(text), (where, text)
            assert not DATA_TALK.search(text), (where, text)
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
    for level in kind.levels:
        a, b = kind.generate(7, level), kind.generate(7, level)
        assert (a.question, a.answer, a.svg(), a.hints) == (b.question, b.answer, b.svg(),
                                                            b.hints)


def test_a_wrong_cell_is_named_with_the_engines_reason():
    ex = generate("harmonies.token_on_stacks", 3)
    state, colour = ex.context["state"], ex.context["colour"]
    bad = next(c for c in ex.context["stacks"] if c not in ex.answer)
    v = ex.check(set(ex.answer) | {bad})
    assert not v.correct and f"({bad[0]}, {bad[1]})" in v.reason
    assert v.misconception and v.marks == (bad,)
    assert bad not in {a.cell for a in state.legal_actions() if getattr(a, "colour", "") == colour}


def test_a_missing_cell_is_never_named():
    for key in ("harmonies.token_on_stacks", "harmonies.scoring_buildings",
                "harmonies.habitat_cells", "harmonies.complete_habitat"):
        for seed in range(20):
            ex = generate(key, seed, 2)
            for cell in ex.answer:
                v = ex.check(set(ex.answer) - {cell})
                if set(ex.answer) - {cell}:
                    assert v.misconception == "missed-some", (key, seed, v)
                assert f"({cell[0]}, {cell[1]})" not in v.reason, (key, seed, v.reason)


def test_every_right_answer_is_what_the_engine_finds():
    for seed in range(20):
        ex = generate("harmonies.token_on_stacks", seed, 2)
        state, colour = ex.context["state"], ex.context["colour"]
        legal = {a.cell for a in state.legal_actions()
                 if getattr(a, "colour", "") == colour}
        assert set(ex.answer) == legal & set(ex.context["stacks"])
        ex = generate("harmonies.habitat_cells", seed, 2)
        assert set(ex.answer) == set(habitat_cells(ex.context["card"], "A",
                                                   ex.context["stacks"],
                                                   cubes=list(ex.context["cubes"])))
        ex = generate("harmonies.cards_that_fit", seed, 2)
        assert set(ex.answer) == {str(c) for c in ex.context["cards"]
                                  if habitat_cells(c, "A", ex.context["stacks"])}


def _find(key, level, test):
    """The first seed whose exercise passes ``test``."""
    for seed in range(200):
        ex = generate(key, seed, level)
        if test(ex):
            return ex
    raise AssertionError(f"no seed of {key} shows the case")


def test_a_tree_scored_at_another_height_is_diagnosed():
    ex = _find("harmonies.tree_points", 2, lambda e: ("brown", "brown", "green") in
               e.context["stacks"].values())
    v = ex.check(ex.answer - 7 + 3)
    assert not v.correct and v.misconception in ("wrong-height", "counted-trunks",
                                                 "height-as-points", "one-per-tree")
    if v.misconception == "wrong-height":
        assert "height" in v.reason and "under" in v.reason


def test_trunks_lone_mountains_and_lone_fields_are_diagnosed():
    ex = _find("harmonies.tree_points", 1, lambda e: any(
        s == ("brown",) for s in e.context["stacks"].values()))
    trunks = sum(1 if s == ("brown",) else 3 for s in ex.context["stacks"].values()
                 if s[-1] == "brown")
    assert ex.check(ex.answer + trunks).misconception == "counted-trunks"
    for seed in range(10):
        ex = generate("harmonies.mountain_points", seed, 2)
        alone = ex.hint_marks[1]     # the pointer marks the mountains that stand alone
        extra = sum((1, 3, 7)[len(ex.context["stacks"][c]) - 1] for c in alone)
        v = ex.check(ex.answer + extra)
        assert v.misconception == "counted-lone-mountain" and "next to" in v.reason
        ex = generate("harmonies.field_points", seed, 2)
        v = ex.check(ex.answer + 5 * len(ex.hint_marks[1]))
        assert v.misconception == "counted-lone-field" and "group" in v.reason


def test_a_river_counted_along_a_branch_is_diagnosed():
    def branched(e):
        water = [c for c, s in e.context["stacks"].items() if s == ("blue",)]
        return len(water) > e.answer + 1 and len(water) != e.answer + 1
    ex = _find("harmonies.river_length", 1, branched)
    facts = ex.context["stacks"]
    best = max((len(g) for g in _water_groups(facts)), default=0)
    v = ex.check(best)
    assert not v.correct and v.misconception == "counted-every-token"
    assert "branch" in v.reason and str(ex.answer) not in v.reason


def _water_groups(stacks):
    from pangaea_lab.harmonies.exercises import _water_groups as groups
    return groups("A", stacks)


def test_river_exercise_follows_the_default_river_rule():
    for level in (1, 2):
        for seed in range(20):
            ex = generate("harmonies.river_length", seed, level)
            board = stacks_tuple("A", ex.context["stacks"])
            assert ex.answer == river_length("A", board, "rings")


def test_islands_vary_and_an_island_counted_twice_is_diagnosed():
    for level in (1, 2):
        answers = [generate("harmonies.islands", seed, level).answer for seed in range(100)]
        assert max(answers.count(a) for a in set(answers)) <= 60, answers
    ex = generate("harmonies.islands", 1, 2)
    assert ex.answer == island_count("B", stacks_tuple("B", ex.context["stacks"]))
    v = ex.check(ex.answer + 1)
    assert not v.correct and v.misconception in ("counted-island-twice", "skipped-empty-spaces",
                                                 "counted-water-groups")
    assert str(ex.answer) not in re.findall(r"\d+", v.reason)


def test_a_wrong_score_names_the_row_that_was_missed():
    from pangaea_lab.harmonies import score_board
    ex = generate("harmonies.landscape_total", 1, 2)
    rows = score_board("A", ex.context["stacks"]).rows()
    named = 0
    for name, pts in rows:
        if pts and sum(1 for _, p in rows if p == pts) == 1:
            v = ex.check(ex.answer - pts)
            if v.misconception == "left-out-row":
                assert name.lower() in v.reason
                named += 1
    assert named


def test_spirit_and_card_mistakes_are_diagnosed():
    ex = _find("harmonies.spirit_points", 2,
               lambda e: not e.context["placed"] and e.context["stacks"])
    from pangaea_lab.harmonies.scoring import card_points
    full = card_points(ex.context["spirit"], 1, "A", ex.context["stacks"])
    if full:
        assert ex.check(full).misconception == "spirit-cube-not-placed"
    ex = _find("harmonies.card_points", 1, lambda e: 0 < e.context["placed"] <
               len(__import__("pangaea_lab.harmonies.cards", fromlist=["card"])
                   .card(e.context["card"]).points))
    from pangaea_lab.harmonies.cards import card
    c = card(ex.context["card"])
    v = ex.check(c.points[ex.context["placed"]])
    assert v.misconception == "read-covered-value" and "cube" in v.reason


def test_take_a_card_and_solo_discard_diagnose_the_rule_broken():
    ex = _find("harmonies.take_a_card", 2, lambda e: e.answer == "no"
               and e.context["state"].took_card)
    assert ex.check("yes").misconception == "two-cards-a-turn"
    ex = _find("harmonies.solo_discard", 2, lambda e: e.answer == "no"
               and not e.context["state"].deck)
    assert ex.check("yes").misconception == "empty-deck"
    ex = _find("harmonies.legal_stacks", 2, lambda e: any(
        s[0] in ("blue", "yellow") for s in e.context["stacks"].values()))
    key = next(k for k, s in ex.context["stacks"].items() if s[0] in ("blue", "yellow"))
    assert ex.check([key]).misconception == "stacked-on-lone-colour"


def test_yes_no_kinds_are_balanced():
    for key in ("harmonies.take_a_card", "harmonies.solo_discard", "harmonies.better_spirit"):
        for level in (1, 2):
            answers = [generate(key, seed, level).answer for seed in range(100)]
            top = max(answers.count(a) for a in set(answers))
            assert 30 <= top <= 70, (key, level, top)


def test_each_kind_is_practised_in_its_notebook_after_progress():
    import nbformat
    for kind in KINDS:
        nb = nbformat.read(ROOT / "notebooks" / kind.notebook, as_version=4)
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        at = [k for k, src in enumerate(code) if f'practice("{kind.key}"' in src]
        top = [k for k, src in enumerate(code) if "progress()" in src]
        assert at, f"{kind.key} is not practised in {kind.notebook}"
        assert top and top[0] < at[0], f"{kind.notebook}: progress() should come first"


def test_the_new_kinds_diagnose_their_typical_mistakes():
    ex = _find("harmonies.setup_counts", 1, lambda e: e.context["ask"] == "spirits"
               and e.context["players"] > 1)
    assert ex.check(2).misconception == "per-player-not-total"
    ex = _find("harmonies.setup_counts", 2, lambda e: e.context["ask"] == "pouch")
    assert ex.check(120).misconception == "forgot-central-board"
    ex = _find("harmonies.river_points", 1, lambda e: e.answer > 5)
    length = sum(1 for s in ex.context["stacks"].values() if s == ("blue",))
    v = ex.check(length)
    assert v.misconception == "length-not-points" and str(ex.answer) not in v.reason
    ex = _find("harmonies.shared_habitat", 2, lambda e: e.answer >= 2)
    assert ex.check(ex.answer - 1).misconception == "no-shared-tokens"
    ex = _find("harmonies.solo_box", 1, lambda e: True)
    assert ex.check(9 * ex.context["turns"]).misconception == "counted-taken-tokens"
    ex = _find("harmonies.turn_actions", 1, lambda e: e.context["state"].took_tokens
               and not e.context["state"].hand)
    assert "end" in ex.answer and "place" not in ex.answer
    assert ex.check(set(ex.answer) | {"tokens"}).misconception == "tokens-twice"


def test_the_turn_actions_are_the_engines_legal_actions():
    names = {"TakeTokens": "tokens", "PlaceToken": "place", "TakeCard": "card",
             "PlaceCube": "cube", "EndTurn": "end"}
    for level in (1, 2):
        for seed in range(30):
            ex = generate("harmonies.turn_actions", seed, level)
            legal = {names[type(a).__name__] for a in ex.context["state"].legal_actions()}
            assert set(ex.answer) == legal
