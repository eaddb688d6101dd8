"""Exercises that teach (issue "Practice that teaches"), checked over every kind and level.

For every kind, every level and seeds 0-49: a wrong answer's reason never contains the right
answer (a number one off, every wrong option, a set of spaces with one right space left out, a
path with a step left out); each exercise has at least two distinct hints and the hints differ
between positions; ``check()`` gives a verdict for any value (None, "", a float, a huge number,
a 10,000-item list, spaces off the board, mixed types) in at most 300 characters of plain
words; learner text has no assumption ids, Python words, card codes or "(s)" plurals.  Over
seeds 0-99 each kind and level gives at least 50 distinct positions, no answer is right in
more than 60% of the seeds, and a yes/no answer in between 30% and 70%.
"""

import collections
import functools
import re

import pytest

from pangaea_lab import exercises
from pangaea_lab.core.exercises import MAX_REASON, Verdict, cell_text, learner_text_problems

KINDS = exercises.registry()
CASES = [(kind.key, level) for kind in KINDS for level in kind.levels]
SEEDS = range(50)
VARIETY_SEEDS = range(100)

#: answers of every wrong shape a learner or a notebook user may give
HOSTILE = [None, "", " ", 1.5, float("nan"), float("inf"), 10**30, -(10**30), True, "BCE",
           "7", [(0, 0)] * 10_000, list(range(10_000)), [(99, 99)], [(-999, 999)],
           [[1, 2, 3, 4, 5]], ["a", 1, None], [(1, "x")], {"x": 1}, [None], [[0.5, 1]],
           (("a",),), b"bytes", object()]


@functools.lru_cache(maxsize=None)
def made(key, seed, level):
    return exercises.generate(key, seed, level=level)


def number_tokens(text):
    return re.findall(r"(?<![\w.])-?\d+(?![\w.])", text)


def words_of(ex, cell):
    return {ex.cell_words(cell), cell_text(cell)}


def leaks(ex, reason):
    """The part of the right answer that ``reason`` gives away, or None."""
    kind = ex.answer_kind
    if kind == "number":
        shown = str(ex.answer)
        if shown in number_tokens(reason) and shown not in number_tokens(ex.question):
            return shown
    return None


def wrong_answers(ex):
    """(answer, what must not be said) pairs: what the reason of that wrong answer must not
    name."""
    kind, answer = ex.answer_kind, ex.answer
    out = []
    if kind == "number":
        out = [(answer + 1, set()), (answer - 1, set())]
    elif kind == "choice":
        right = ex.option_label(answer)
        for option in ex.options:
            if option.key != answer and not ex.check(option.key).correct:
                out.append((option.key, {right} if len(right) >= 4
                            and right not in option.label and right not in ex.question
                            else set()))
    elif kind == "choices":
        for option in ex.options:
            given = answer ^ {option.key}
            if not ex.check(given).correct:
                hidden = {ex.option_label(k) for k in answer - given}
                out.append((given, {h for h in hidden if len(h) >= 4 and h not in ex.question
                                    and not any(h in ex.option_label(g) for g in given)}))
    elif kind == "cells":
        for cell in sorted(answer)[:3]:
            given = answer - {cell}
            if not ex.check(given).correct:
                named = {w for w in words_of(ex, cell) if not any(
                    w in ex.cell_words(g) for g in given) and w not in ex.question}
                out.append((given, named))
    else:
        for k in range(len(answer)):
            given = answer[:k] + answer[k + 1:]
            if given and not ex.check(given).correct:
                named = {w for w in words_of(ex, answer[k]) if not any(
                    w in ex.cell_words(g) for g in given) and w not in ex.question}
                out.append((given, named))
    return out


def test_every_kind_has_two_levels_and_the_registry_needs_no_import():
    assert len(KINDS) >= 110
    for kind in KINDS:
        assert len(kind.levels) >= 2 and kind.levels[0] == 1, kind.key
        assert all(title.strip() for title in kind.level_titles), kind.key


@pytest.mark.parametrize("key,level", CASES)
def test_wrong_answers_are_diagnosed_without_the_answer(key, level):
    hint_sets = set()
    for seed in SEEDS:
        ex = made(key, seed, level)
        where = f"{key} level {level} seed {seed}"
        assert ex.level == level and ex.seed == seed, where
        right = ex.check(ex.answer)
        assert right.correct, f"{where}: the engine's answer is refused: {right.reason}"
        assert len(ex.hints) >= 2 and len(set(ex.hints)) == len(ex.hints), \
            f"{where}: hints must be at least two, each different: {ex.hints}"
        hint_sets.add(ex.hints)
        texts = [ex.question, ex.explanation, right.reason, *ex.hints,
                 *(o.label for o in ex.options)]
        for wrong, unsaid in wrong_answers(ex):
            verdict = ex.check(wrong)
            assert not verdict.correct and verdict.reason.strip(), f"{where}: {wrong!r}"
            assert verdict.misconception != "unjudged", f"{where}: {wrong!r} unjudged"
            leak = leaks(ex, verdict.reason)
            assert leak is None, f"{where}: the reason for {wrong!r} names {leak}: " \
                                 f"{verdict.reason}"
            named = [w for w in unsaid if w in verdict.reason]
            assert not named, f"{where}: the reason for {wrong!r} names the answer " \
                              f"{named}: {verdict.reason}"
            texts.append(verdict.reason)
        if ex.answer_kind == "number":
            for hint in ex.hints:
                assert leaks(ex, hint) is None, f"{where}: a hint gives the answer: {hint}"
        for text in texts:
            problems = learner_text_problems(text)
            assert not problems, f"{where}: {problems} in {text!r}"
    assert len(hint_sets) >= 5, f"{key} level {level}: hints hardly depend on the position " \
                                f"({len(hint_sets)} different sets in {len(SEEDS)} seeds)"


@pytest.mark.parametrize("key,level", CASES)
def test_check_never_raises_and_says_why(key, level):
    for seed in range(3):
        ex = made(key, seed, level)
        for value in HOSTILE:
            verdict = ex.check(value)
            where = f"{key} level {level} seed {seed}: {str(value)[:30]}"
            assert isinstance(verdict, Verdict), where
            assert not verdict.correct, where
            assert verdict.reason.strip() and len(verdict.reason) <= MAX_REASON, where
            assert verdict.misconception != "unjudged", f"{where}: {verdict.reason}"
            assert not learner_text_problems(verdict.reason), f"{where}: {verdict.reason}"


def answer_key(ex):
    answer = ex.answer
    if isinstance(answer, frozenset):
        return tuple(sorted(answer))
    return answer


@pytest.mark.parametrize("key,level", CASES)
def test_positions_vary_and_no_answer_dominates(key, level):
    positions, answers = set(), collections.Counter()
    yes_no = True
    for seed in VARIETY_SEEDS:
        ex = made(key, seed, level)
        positions.add((ex.question, ex.svg(()), tuple(o.label for o in ex.options)))
        answers[answer_key(ex)] += 1
        yes_no = yes_no and ex.answer_kind == "choice" and len(ex.options) == 2
    n = len(VARIETY_SEEDS)
    assert len(positions) >= 50, f"{key} level {level}: {len(positions)} distinct positions"
    top, count = answers.most_common(1)[0]
    if yes_no:
        assert 0.3 * n <= count <= 0.7 * n, f"{key} level {level}: {top!r} in {count}/{n}"
    else:
        assert count <= 0.6 * n, f"{key} level {level}: {top!r} is right in {count} of {n}"
