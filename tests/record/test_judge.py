"""The server is the judge: every field of a batch is checked before anything is built, and
each attempt is judged again by the engine (pangaea_lab.classroom.record.judge)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pangaea_lab import exercises
from pangaea_lab.classroom.record import judge as judge_module
from pangaea_lab.classroom.record.judge import (MAX_BATCH, MAX_BODY, Incoming, InvalidData,
                                                TooLarge, judge, read_batch)
from pangaea_lab.core.exercises import MAX_ANSWER_ITEMS


def attempt(**fields):
    base = {"id": "a1", "kind": "harmonies.tree_points", "seed": 3, "level": 1,
            "answer": 4, "hints": 0, "shown": False, "first": True, "time": 1733420000123}
    base.update(fields)
    return {name: value for name, value in base.items() if value is not ...}


def body(*attempts, **top):
    return json.dumps({"attempts": list(attempts), **top}).encode()


def refused(data) -> str:
    with pytest.raises(InvalidData) as caught:
        read_batch(data)
    return str(caught.value)


def as_sent(ex) -> object:
    """The engine's answer in the JSON shape a widget sends."""
    if ex.answer_kind == "cells":
        return [list(cell) for cell in sorted(ex.answer)]
    if ex.answer_kind == "path":
        return [list(cell) for cell in ex.answer]
    if ex.answer_kind == "choices":
        return sorted(ex.answer)
    return ex.answer


# ----- reading: what is refused, naming the field ------------------------------------------

def test_a_good_batch_is_read_field_by_field():
    [read] = read_batch(body(attempt(answer=[[0, 1], [2, -1]], hints=2)))
    assert read == Incoming("a1", "harmonies.tree_points", 3, 1, [[0, 1], [2, -1]], 2, False,
                            True, 1733420000123)


@pytest.mark.parametrize("fields, field, words", [
    ({"seed": "3"}, "attempts[0].seed", "a text"),
    ({"seed": 3.0}, "attempts[0].seed", "a decimal number"),
    ({"seed": True}, "attempts[0].seed", "true"),
    ({"seed": -1}, "attempts[0].seed", "from 0 to"),
    ({"seed": 10**9 + 1}, "attempts[0].seed", "from 0 to"),
    ({"level": False}, "attempts[0].level", "false"),
    ({"level": 7}, "attempts[0].level", "from 1 to 2"),
    ({"level": 1.5}, "attempts[0].level", "decimal"),
    ({"hints": 21}, "attempts[0].hints", "from 0 to 20"),
    ({"hints": None}, "attempts[0].hints", "null"),
    ({"shown": 0}, "attempts[0].shown", "true or false"),
    ({"first": "yes"}, "attempts[0].first", "true or false"),
    ({"time": -5}, "attempts[0].time", "from 0"),
    ({"time": 1.5e12}, "attempts[0].time", "decimal"),
    ({"kind": "x"}, "attempts[0].kind", "there is no exercise called 'x'"),
    ({"kind": 12}, "attempts[0].kind", "a whole number"),
    ({"kind": "k" * 500}, "attempts[0].kind", "expected an exercise's name"),
    ({"id": "A1"}, "attempts[0].id", "0-9, a-z"),
    ({"id": ""}, "attempts[0].id", "0-9, a-z"),
    ({"id": "a" * 41}, "attempts[0].id", "0-9, a-z"),
    ({"id": 5}, "attempts[0].id", "a whole number"),
    ({"id": "a1/../x"}, "attempts[0].id", "0-9, a-z"),
    ({"user": "bob"}, "attempts[0].user", "no such field"),
    ({"correct": True}, "attempts[0].correct", "no such field"),
    ({"verdict": "right"}, "attempts[0].verdict", "no such field"),
    ({"hints": ...}, "attempts[0].hints", "missing"),
    ({"answer": ...}, "attempts[0].answer", "missing"),
    ({"answer": True}, "attempts[0].answer", "true"),
    ({"answer": 2.5}, "attempts[0].answer", "decimal"),
    ({"answer": {"a": 1}}, "attempts[0].answer", "an object"),
    ({"answer": 10**13}, "attempts[0].answer", "whole number from"),
    ({"answer": "x" * 101}, "attempts[0].answer", "at most 100 characters"),
    ({"answer": [[1, 2]] * (MAX_ANSWER_ITEMS + 1)}, "attempts[0].answer", "at most 200 items"),
    ({"answer": [[1, 2, 3, 4, 5]]}, "attempts[0].answer[0]", "1 to 4 coordinates"),
    ({"answer": [[]]}, "attempts[0].answer[0]", "1 to 4 coordinates"),
    ({"answer": [[1, [2]]]}, "attempts[0].answer[0][1]", "a list"),
    ({"answer": [[1, True]]}, "attempts[0].answer[0][1]", "true"),
    ({"answer": [[1, 2.0]]}, "attempts[0].answer[0][1]", "decimal"),
    ({"answer": [None]}, "attempts[0].answer[0]", "null"),
    ({"answer": [[[[1]]]]}, "attempts[0].answer[0][0]", "a list"),
])
def test_each_bad_field_is_refused_by_name(fields, field, words):
    message = refused(body(attempt(**fields)))
    assert message.startswith(field + ":") and words in message, message


@pytest.mark.parametrize("data, field, words", [
    (b"not json", "body", "not valid JSON"),
    (b"\xff\xfe{}", "body", "UTF-8"),
    (b"[]", "body", "a list"),
    (b'"attempts"', "body", "a text"),
    (b"{}", "attempts", "expected a list, got null"),
    (b'{"attempts": {}}', "attempts", "an object"),
    (b'{"attempts": []}', "attempts", "1 to 100"),
    (b'{"attempts": [5]}', "attempts[0]", "an object"),
    (b'{"attempts": [[]]}', "attempts[0]", "a list"),
    (b'{"attempts": [], "user": "bob"}', "user", "not a field of a batch"),
    (b"[" * 5000 + b"]" * 5000, "body", "deep"),
    (b'{"attempts": [{"id": 1e999}]}', "body", ""),
    (b'{"attempts": [{"seed": ' + b"9" * 40 + b"}]}", "body", "digits"),
])
def test_a_bad_body_is_refused_by_name(data, field, words):
    message = refused(data)
    assert message.startswith(field + ":") and words in message, message


def test_not_bytes_is_refused():
    assert refused("{}").startswith("body: expected bytes")
    assert refused(None).startswith("body: expected bytes")


def test_a_huge_body_is_refused_before_it_is_read():
    data = b'{"attempts": [' + b" " * MAX_BODY + b"]}"
    with pytest.raises(TooLarge, match=r"^body: \d+ bytes is too large"):
        read_batch(data)


def test_too_many_attempts_are_refused():
    many = [attempt(id=f"a{k}") for k in range(MAX_BATCH + 1)]
    assert refused(body(*many)).startswith(f"attempts: expected 1 to {MAX_BATCH} attempts, "
                                           f"got {MAX_BATCH + 1}")
    assert len(read_batch(body(*many[:MAX_BATCH]))) == MAX_BATCH


def test_one_bad_attempt_refuses_the_whole_batch_naming_it():
    batch = [attempt(id="a0"), attempt(id="a1"), attempt(id="a2", kind="x")]
    assert refused(body(*batch)) == "attempts[2].kind: there is no exercise called 'x'"


def test_duplicate_ids_in_one_batch_are_refused():
    message = refused(body(attempt(id="a1"), attempt(id="b2"), attempt(id="a1", seed=4)))
    assert message.startswith("attempts[2].id: 'a1' is named twice")


def test_an_unknown_level_names_the_kinds_levels():
    assert refused(body(attempt(level=3))) == ("attempts[0].level: expected a whole number "
                                               "from 1 to 2, got 3")
    assert refused(body(attempt(level=0))).startswith("attempts[0].level:")


# ----- a fuzz: never anything but a list of attempts or InvalidData --------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=20) | st.sampled_from(["harmonies.tree_points", "a1", "attempts"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(list(judge_module.FIELDS) + ["attempts", "user", "x"]), inner,
        max_size=10),
    max_leaves=30)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, st.fixed_dictionaries({"attempts": st.lists(
    st.fixed_dictionaries({}, optional={name: json_values for name in judge_module.FIELDS}),
    max_size=3)})))
def test_fuzz_read_batch_gives_attempts_or_invalid_data(value):
    try:
        read = read_batch(json.dumps(value).encode())
    except InvalidData as exc:
        assert str(exc).split(":")[0].strip()      # the message starts with a field
        return
    assert isinstance(read, list) and all(isinstance(a, Incoming) for a in read)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_read_batch_on_any_bytes(data):
    try:
        read_batch(data)
    except InvalidData:
        pass


# ----- judging: the engine's verdict, never the client's -----------------------------------

#: a few kinds of each game, covering every answer kind
KINDS = ["pangaea.sowing_range", "pangaea.land_path", "pangaea.favor_land",
         "pangaea.shadow_effect", "pangaea.seeds_needed", "harmonies.tree_points",
         "harmonies.scoring_buildings", "harmonies.legal_stacks", "harmonies.take_a_card",
         "forest_shuffle.", "inori."]


def _kinds():
    keys = [kind.key for kind in exercises.registry()]
    picked = []
    for want in KINDS:
        picked.extend([k for k in keys if k == want] if not want.endswith(".") else
                      [k for k in keys if k.startswith(want)][:4])
    return picked


@pytest.mark.parametrize("key", _kinds())
def test_the_right_answer_is_judged_right_and_a_wrong_one_wrong(key):
    for seed, level in ((1, 1), (7, 2)):
        ex = exercises.generate(key, seed, level)
        [read] = read_batch(body(attempt(kind=key, seed=seed, level=level,
                                         answer=as_sent(ex))))
        judged = judge(read)
        assert judged.correct, (key, seed, level, judged.reason)
        assert judged.answer_text == ex.given_text(as_sent(ex))
        assert (judged.game, judged.notebook, judged.rule) == (
            exercises.get(key).game, exercises.get(key).notebook, exercises.get(key).rule)
        wrong = {"number": lambda: ex.answer + 1, "choice": lambda: [
            o.key for o in ex.options if not ex.check(o.key).correct][0]}.get(
            ex.answer_kind, lambda: [])()
        [read] = read_batch(body(attempt(kind=key, seed=seed, level=level, answer=wrong)))
        judged = judge(read)
        assert judged.correct is False and judged.correct == ex.check(wrong).correct
        assert judged.reason == ex.check(wrong).reason


def test_a_shown_attempt_is_never_right():
    ex = exercises.generate("harmonies.tree_points", 3, 1)
    [shown_only] = read_batch(body(attempt(answer=None, shown=True)))
    [checked_after] = read_batch(body(attempt(answer=ex.answer, shown=True)))
    assert judge(shown_only).correct is False and judge(shown_only).answer_text == ""
    assert judge(checked_after).correct is False
    assert judge(checked_after).answer_text == str(ex.answer)


def test_a_wrong_answer_stays_wrong_whatever_else_the_attempt_says():
    ex = exercises.generate("harmonies.tree_points", 3, 1)
    for hints, first in ((0, True), (3, False)):
        [read] = read_batch(body(attempt(answer=ex.answer + 2, hints=hints, first=first)))
        assert judge(read).correct is False


def test_an_answer_of_the_wrong_shape_is_judged_not_refused():
    [read] = read_batch(body(attempt(answer=["a", "b"])))
    judged = judge(read)
    assert judged.correct is False and judged.misconception == "shape"
    assert judged.answer_text == "a list of 2 items"


def test_cell_answers_are_worded_as_the_widget_words_them():
    ex = exercises.generate("pangaea.land_path", 2, 1)
    sent = as_sent(ex)
    [read] = read_batch(body(attempt(kind="pangaea.land_path", seed=2, answer=sent)))
    assert judge(read).answer_text == " → ".join(ex.cell_words(tuple(c)) for c in sent)


def test_exercises_are_generated_once_per_position():
    judge_module.exercise.cache_clear()
    [read] = read_batch(body(attempt(answer=1)))
    for _ in range(5):
        judge(read)
    info = judge_module.exercise.cache_info()
    assert info.misses == 1 and info.hits == 4 and info.maxsize == judge_module.CACHE_SIZE
