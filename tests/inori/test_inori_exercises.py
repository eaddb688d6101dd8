"""The Inori exercise generators, over many seeds and both levels: a legal position, the
engine's answer accepted, wrong answers refused with a reason that diagnoses them (the typical
mistakes by name), plain-words questions and hints that change with the position, and answers
that can be clicked on the drawing."""

from __future__ import annotations

import functools
import re

import pytest

from pangaea_lab import exercises
from pangaea_lab.inori import exercises as inori_exercises
from pangaea_lab.inori.actions import OfferCard, OfferTree, RuneGain
from pangaea_lab.inori.scoring import score_majorities, winners
from pangaea_lab.inori.setup import deal_start_cards

KINDS = [k for k in exercises.registry() if k.game == "inori"]
KEYS = [k.key for k in KINDS]
CASES = [(k.key, level) for k in KINDS for level in k.levels]
SEEDS = range(50)
CODE_WORDS = re.compile(r"\b(None|True|False|def|print|state|slot\b|my_answer)|_[a-z]+\(|\(\)"
                        r"|Counter\(|\{\d+: \(")


@functools.lru_cache(maxsize=None)
def ex(key, seed, level=1):
    return exercises.generate(key, seed, level=level)


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


def test_each_inori_notebook_has_four_kinds_or_more_and_setup_and_the_end_have_theirs():
    for nb in ("inori/01_setup_and_turns.ipynb", "inori/02_great_tree_and_runes.ipynb",
               "inori/03_seasons_and_majorities.ipynb"):
        assert len(exercises.kinds_for(nb)) >= 4, nb
    assert len(KEYS) >= 17
    assert {"inori.start_cards", "inori.root_tokens", "inori.game_winner"} <= set(KEYS)
    assert all(len(k.levels) >= 2 and len(set(k.level_titles)) == len(k.level_titles)
               for k in KINDS)


@pytest.mark.parametrize("key,level", CASES)
def test_generator_over_fifty_seeds(key, level):
    hints = set()
    for seed in SEEDS:
        e = ex(key, seed, level)
        where = f"{key} level {level} seed {seed}"
        state = e.context.get("state")
        if state is not None:
            state.check_invariants()                   # a position the engine accepts
        assert e.level == level
        assert e.question.strip() and not CODE_WORDS.search(e.question), where
        assert len(e.hints) >= 2 and e.explanation.strip(), where
        assert not any(CODE_WORDS.search(h) for h in e.hints), where
        hints.add(e.hints)
        right = e.check(e.answer)
        assert right.correct and right.reason.strip(), f"{where}: {right.reason}"
        for wrong in wrong_answers(e):
            verdict = e.check(wrong)
            assert not verdict.correct and verdict.reason.strip(), f"{where}: {wrong!r}"
            assert not CODE_WORDS.search(verdict.reason), f"{where}: {verdict.reason}"
    assert len(hints) >= 5, f"{key} level {level}: hints hardly change"


@pytest.mark.parametrize("key,level", CASES)
def test_the_same_seed_and_level_give_the_same_exercise(key, level):
    a = exercises.generate(key, 7, level=level)
    b = exercises.generate(key, 7, level=level)
    assert (a.question, a.answer, a.hints, a.svg(())) == (b.question, b.answer, b.hints,
                                                          b.svg(()))


@pytest.mark.parametrize("key", KEYS)
def test_drawings_let_every_answer_be_clicked(key):
    for seed in range(8):
        e = ex(key, seed, 2)
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


@pytest.mark.parametrize("key", [k for k in KEYS if exercises.generate(k, 0).answer_kind in
                                 ("cells", "choices")])
def test_every_right_answer_is_accepted_and_a_missing_one_is_never_named(key):
    """The questions with several right answers ask for all of them: the whole set is right,
    and a set with one left out is refused without naming what is missing."""
    for level in (1, 2):
        for seed in range(20):
            e = ex(key, seed, level)
            assert e.check(set(e.answer)).correct and e.check(list(e.answer)).correct
            for item in e.answer:
                verdict = e.check(e.answer - {item})
                assert not verdict.correct and verdict.misconception == "missed-some"
                label = e.cell_words(item) if e.answer_kind == "cells" else \
                    e.option_label(item)
                assert label not in verdict.reason


def test_legal_offerings_are_the_engines_and_a_cost_refusal_says_why():
    for level in (1, 2):
        for seed in range(20):
            e = ex("inori.legal_offerings", seed, level)
            s = e.context["state"]
            legal = {(a.slot, a.space) for a in s.legal_actions() if isinstance(a, OfferCard)}
            assert e.answer == legal
            blocked = [(i, j) for i, (cid, sp) in enumerate(s.slots)
                       for j, occ in enumerate(sp) if not occ and (i, j) not in legal]
            assert blocked
            for cell in blocked:
                verdict = e.check(e.answer | {cell})
                assert "cannot pay" in verdict.reason
                assert f"card {cell[0] + 1}, space {cell[1] + 1}" in verdict.reason
                assert verdict.misconception == "cost-not-paid"
            taken = [(i, j) for i, (cid, sp) in enumerate(s.slots)
                     for j, occ in enumerate(sp) if occ]
            assert e.check(e.answer | {taken[0]}).misconception == "taken-space"
            assert "Great Tree" in e.check(e.answer | {(0,)}).reason


def test_tree_offerings_follow_altar_costs_and_closed_roots():
    seen = 0
    for seed in range(20):
        e = ex("inori.tree_offerings", seed, 2)
        s = e.context["state"]
        assert e.answer == {(a.space,) for a in s.legal_actions() if isinstance(a, OfferTree)}
        for k, left in enumerate(s.root_tokens):
            t = [i for i, sp in enumerate(s.edition.tree) if not sp.altar][k]
            if not left:
                assert (t,) not in e.answer
                if s.tree_markers[t] is None:
                    verdict = e.check(e.answer | {(t,)})
                    assert "gone" in verdict.reason and verdict.misconception == "emptied-root"
                    seen += 1
    assert seen >= 5


def test_a_season_score_diagnoses_a_card_counted_per_marker_and_a_card_missed():
    per_marker = missed = 0
    for seed in range(50):
        e = ex("inori.season_score", seed, 2)
        s = e.context["state"]
        ed = s.edition
        for cid, spaces in s.slots:
            held = s.favor[0][ed.colours.index(ed.cards[cid].colour)]
            mine = sum(o.count(0) for o in spaces)
            if all(spaces) and mine >= 2 and held:
                verdict = e.check(e.answer + (mine - 1) * held)
                if verdict.misconception == "scored-per-marker":
                    assert "once for each of your markers" in verdict.reason
                    per_marker += 1
            if all(spaces) and mine and held:
                verdict = e.check(e.answer - held)
                assert verdict.misconception in ("missed-complete-card", "neutral-not-filling",
                                                 "scored-per-marker", "scored-absent-card",
                                                 "scored-incomplete-card")
                missed += verdict.misconception in ("missed-complete-card",
                                                    "neutral-not-filling")
    assert per_marker >= 3 and missed >= 5


def test_next_card_colour_names_the_corner_read_wrongly():
    for seed in range(30):
        e = ex("inori.next_card_colour", seed, 1)
        s = e.context["state"]
        slot = int(re.search(r"card (\d)", e.question).group(1)) - 1
        card = s.edition.cards[s.slots[slot][0]]
        other = card.incomplete_colour if e.answer == card.complete_colour else \
            card.complete_colour
        verdict = e.check(other)
        assert verdict.misconception == "wrong-corner"
        assert s.edition.names[e.answer] not in verdict.reason


def test_rune_timing_always_discriminates_and_a_season_end_allows_only_any_time_runes():
    for level in (1, 2):
        for seed in range(60):
            e = ex("inori.rune_timing", seed, level)
            keys = {o.key for o in e.options}
            assert e.answer and e.answer != keys, f"seed {seed}: the question does not choose"
            s = e.context["state"]
            if seed % 3 == 2:                      # the season's end, outside Player 2's turn
                assert s.current_player == 1 and s.turn == 0
                ed = s.edition
                assert e.answer == {r for r in s.rune_hands[1] if ed.runes[r].any_time}
                assert all(isinstance(a, RuneGain) for a in s.legal_actions()[:-1])
                late = next(iter(keys - e.answer))
                assert e.check(e.answer | {late}).misconception == \
                    "start-of-turn-rune-outside-turn"


def test_majority_points_diagnose_a_missed_altar_and_a_second_place_after_a_tie():
    ties = 0
    for level in (1, 2):
        for seed in range(40):
            e = ex("inori.majority_points", seed, level)
            s, who = e.context["state"], e.context["player"]
            results = score_majorities(s.edition, s.altars, s.favor)
            assert e.answer == sum(m["points"].get(who, 0) for m in results)
            for m in results:
                if len(m["first"]) > 1 and who not in m["first"] and m["counts"][who] and \
                        m["counts"][who] == max(n for p, n in m["counts"].items()
                                                if p not in m["first"]):
                    verdict = e.check(e.answer + m["values"][1])
                    assert verdict.misconception in ("second-after-tied-first", "missed-altar",
                                                     "tie-for-first-as-second",
                                                     "tied-second-lost", "no-tokens-placed")
                    ties += verdict.misconception == "second-after-tied-first"
    assert ties >= 3


def test_markers_per_season_diagnoses_a_marker_at_the_first_four_player_end():
    seen = 0
    for level in (1, 2):
        for seed in range(100):
            e = ex("inori.markers_per_season", seed, level)
            season = e.context["season"]
            if e.context["players"] == 4 and (level == 1 or season >= 3):
                # a new marker at every season end: one more per season end after the first
                naive = {1: e.answer + 1, 2: e.answer + season - 2}[level]
                verdict = e.check(naive)
                assert verdict.misconception == "four-player-first-end", e.question
                assert "no new marker" in verdict.reason
                seen += 1
    assert seen >= 20


def test_start_cards_are_the_engines_deal_and_opposed_spirits_are_diagnosed():
    opposed = 0
    for level in (1, 2):
        for seed in range(30):
            e = ex("inori.start_cards", seed, level)
            order = e.context["order"]
            ed = exercises.generate("inori.legal_offerings", 0).context["state"].edition
            assert e.answer == set(deal_start_cards(ed, order)[0]) and len(e.answer) == 3
            for key in set(order) - e.answer:
                verdict = e.check(e.answer | {key})
                assert verdict.misconception in ("opposed-spirits", "same-colour-twice",
                                                 "dealt-more-than-three")
                opposed += verdict.misconception == "opposed-spirits"
    assert opposed >= 10


def test_game_winner_is_the_engines_and_a_lost_tie_break_is_diagnosed():
    tie_breaks = shared = 0
    for level in (1, 2):
        for seed in range(50):
            e = ex("inori.game_winner", seed, level)
            end = e.context["end"]
            assert end.is_over
            assert e.answer == {str(p) for p in winners(end)}
            totals = [sum(p) for p in end.points]
            shared += len(e.answer) > 1
            for p in range(end.players):
                if totals[p] == max(totals) and str(p) not in e.answer:
                    verdict = e.check(e.answer | {str(p)})
                    assert verdict.misconception == "tie-break-ignored"
                    assert "favor tokens" in verdict.reason
                    tie_breaks += 1
    assert tie_breaks >= 5 and shared >= 3


def test_cell_names_are_plain_words():
    s = ex("inori.legal_offerings", 0).context["state"]
    assert inori_exercises.cell_name(s, (1, 2)) == "card 2, space 3"
    assert inori_exercises.cell_name(s, (3,)) == "Great Tree space T4"
    assert inori_exercises.card_words(s, 1).startswith("the second card (")
    assert ex("inori.legal_offerings", 0).answer_text().startswith("card ")
    assert ex("inori.tree_offerings", 0).answer_text().startswith("Great Tree space ")


def test_the_exercise_widget_answers_an_inori_exercise_by_clicking():
    from pangaea_lab.exercises import practice
    root = practice("inori.legal_offerings", seed=1)
    model = root.model
    for cell in sorted(model.exercise.answer):
        model.click(",".join(map(str, cell)))          # what a click on the board reports
    assert model.check().correct
    model.another()
    assert model.exercise.seed != 1 and not model.check().correct


@pytest.mark.parametrize("level", (1, 2))
def test_rune_slot_move_picks_player_ones_markers_on_the_named_card(level):
    """The slot rune moves only Player 1's markers on the named card; a marker elsewhere,
    another player's and a neutral one get their own diagnosis, and no reason names a space
    of the answer."""
    seen = set()
    for seed in range(40):
        ex = exercises.generate("inori.rune_slot_move", seed, level=level)
        s = ex.context["state"]
        rid = s.rune_hands[0][0]
        slot = s.edition.runes[rid].slot - 1
        mine = {(i, j) for i, (_, sp) in enumerate(s.slots) for j, o in enumerate(sp)
                if 0 in o and i == slot}
        assert ex.answer == frozenset(mine)
        assert ex.check(sorted(ex.answer)).correct
        for i, (_, sp) in enumerate(s.slots):
            for j, o in enumerate(sp):
                if o and (i, j) not in ex.answer:
                    v = ex.check(sorted(ex.answer | {(i, j)}))
                    assert not v.correct and v.misconception in (
                        "wrong-card", "other-players-marker", "neutral-marker"), v
                    seen.add(v.misconception)
    assert {"wrong-card", "other-players-marker"} <= seen
    if level == 2:
        assert "neutral-marker" in seen


@pytest.mark.parametrize("level", (1, 2))
def test_block_spaces_follows_the_engine_and_diagnoses_taken_spaces_and_full_cards(level):
    """Level 1: every empty card space may be blocked, a taken or tree space is diagnosed;
    level 2: a card is picked when its last empty spaces can be blocked (a blocked space
    counts as filled), and a card too empty or already complete is diagnosed."""
    from pangaea_lab.inori.scoring import is_complete
    seen = set()
    for seed in range(30):
        ex = exercises.generate("inori.block_spaces", seed, level=level)
        s = ex.context["state"]
        assert s.pending[0].kind == "block"
        free = {(i, j) for i, (_, sp) in enumerate(s.slots) for j, o in enumerate(sp) if not o}
        if level == 1:
            assert ex.answer == frozenset(free)
            for i, (_, sp) in enumerate(s.slots):
                for j, o in enumerate(sp):
                    if o:
                        v = ex.check(sorted(free | {(i, j)}))
                        assert not v.correct and v.misconception.startswith("blocked-"), v
                        seen.add(v.misconception)
            assert ex.check(sorted(free | {(0,)})).misconception == "blocked-tree-space"
            continue
        for i, (_, sp) in enumerate(s.slots):
            empty = sum(1 for o in sp if not o)
            fits = 0 < empty <= s.neutral_home
            assert (str(i) in ex.answer) == fits and not (fits and is_complete(sp))
            if not fits:
                v = ex.check(sorted(ex.answer | {str(i)}))
                assert not v.correct and str(i) not in v.reason
                seen.add(v.misconception)
        assert ex.check(sorted(ex.answer)).correct
    assert ("blocked-taken-space" in seen) if level == 1 else (
        {"too-many-free", "complete-already"} <= seen)


def test_occupied_rune_spaces_accepts_only_what_the_reading_allows():
    """Occupied-space rune (labelled reading: neutral markers keep blocking): the answer is
    the engine's legal rune offerings, never a neutral marker's space; clicking one is named
    and the explanation says the reading is ours."""
    from pangaea_lab.inori.board import NEUTRAL
    seen = 0
    for seed in SEEDS:
        e = ex("inori.occupied_rune_spaces", seed, 2)
        s = e.context["state"]
        neutral = {(i, j) for i, (_, sp) in enumerate(s.slots) for j, o in enumerate(sp)
                   if NEUTRAL in o}
        assert not neutral & set(e.answer)
        assert "This reading of the rules is ours" in e.explanation
        if neutral:
            seen += 1
            verdict = e.check(frozenset(e.answer) | {min(neutral)})
            assert not verdict.correct and verdict.misconception == "neutral-space"
    assert seen


def test_new_start_chooser_states_the_tie_rule_in_the_question():
    """New Start card (labelled 'Lowest-score ties'): the question itself says that the
    player latest in the season's turn order wins a tie for the fewest points, and on a tie
    the engine's chooser is that player."""
    ties = 0
    for seed in SEEDS:
        e = ex("inori.new_start_chooser", seed, 2)
        assert "tie for the fewest points" in e.question and "latest" in e.question
        totals = [sum(p) for p in e.context["end"].points]
        tied = [p for p, n in enumerate(totals) if n == min(totals)]
        if len(tied) > 1:
            ties += 1
            assert e.answer == str(max(tied))
    assert ties


def test_card_effect_points_says_the_cost_is_paid_before_counting():
    """Point effects (labelled 'Counting after paying'): at level 2 the space has a cost, the
    answer is the engine's count after paying, and the explanation labels the reading."""
    for seed in range(20):
        e = ex("inori.card_effect_points", seed, 2)
        assert "This reading of the rules is ours" in e.explanation
        assert e.context["action"].pay is not None
