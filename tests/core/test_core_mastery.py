"""Honest mastery (pangaea_lab.core.mastery): what a record of attempts says of a kind, what to
practise next, the page's counts, and the progress file read back like any file from outside."""

import json

import pytest

from pangaea_lab.core.errors import InvalidData
from pangaea_lab.core.mastery import (FILE_KIND, FILE_VERSION, MASTERY_RUN, MAX_ATTEMPTS,
                                      MAX_FILE, Attempt, PracticeRecord, read_attempts)

KIND = "demo.sum"


def right(seed, level=1, kind=KIND, **more):
    """A clean right answer: first Check of the position, no hint, no shown answer."""
    return Attempt(kind, seed, level, "5", True, first=True, **more)


def wrong(seed, level=1, kind=KIND, **more):
    return Attempt(kind, seed, level, "4", False, first=more.pop("first", True), **more)


def shown(seed, level=1, kind=KIND):
    return Attempt(kind, seed, level, "", False, shown=True, first=True)


def record_of(*attempts):
    record = PracticeRecord()
    for attempt in attempts:
        record.add(attempt)
    return record


# ----- the status of a kind ------------------------------------------------------------------

def test_mastery_run_is_three():
    assert MASTERY_RUN == 3


def test_nothing_recorded_is_nothing_practised():
    s = PracticeRecord().status(KIND)
    assert (s.practised, s.right, s.run, s.mastered, s.mastered_level, s.struggling,
            s.last) == (0, 0, 0, False, 0, False, 0.0)


def test_three_clean_right_answers_on_different_positions_master_a_kind():
    record = record_of(right(1), right(2))
    assert record.status(KIND).run == 2 and not record.status(KIND).mastered
    record.add(right(3))
    s = record.status(KIND)
    assert s.mastered and s.mastered_level == 1 and s.run == 3
    assert s.practised == 3 and s.right == 3 and not s.struggling and s.last > 0


@pytest.mark.parametrize("breaker", [
    wrong(9), shown(9),
    Attempt(KIND, 9, 1, "5", True, hints=1, first=True),      # right, with a hint
    Attempt(KIND, 9, 1, "5", True, first=False),               # right after a wrong check
])
def test_a_wrong_shown_or_helped_answer_resets_the_run(breaker):
    record = record_of(right(1), right(2), breaker, right(3), right(4))
    s = record.status(KIND)
    assert s.run == 2 and not s.mastered
    record.add(right(5))
    assert record.status(KIND).mastered


def test_mastery_once_earned_stays_when_the_run_breaks():
    record = record_of(right(1), right(2), right(3), wrong(4))
    s = record.status(KIND)
    assert s.mastered and s.run == 0


def test_the_same_position_again_neither_counts_nor_resets():
    record = record_of(right(1), right(1), right(1))
    assert record.status(KIND).run == 1 and not record.status(KIND).mastered
    record.add(Attempt(KIND, 1, 1, "5", True))        # checked again on the same exercise
    record.add(right(2))
    assert record.status(KIND).run == 2
    assert record.status(KIND).practised == 2


def test_a_position_shown_or_answered_wrong_before_never_counts_later():
    # Show answer on three seeds, then come back to each and answer it "first time"
    record = record_of(shown(1), shown(2), shown(3), right(1), right(2), right(3))
    s = record.status(KIND)
    assert s.run == 0 and not s.mastered and s.right == 3
    record = record_of(wrong(4), right(4), right(5))
    assert record.status(KIND).run == 1


def test_a_shown_answer_then_a_right_check_is_seen_not_right():
    record = record_of(shown(1), Attempt(KIND, 1, 1, "5", True, shown=True))
    s = record.status(KIND)
    assert s.right == 0 and s.run == 0 and s.practised == 1 and s.struggling


def test_the_same_seed_at_another_level_is_another_position():
    record = record_of(right(1, 1), right(1, 2), right(2, 1))
    assert record.status(KIND).run == 3


def test_mastered_level_needs_three_at_that_level_or_higher():
    record = record_of(right(1, 1), right(2, 1), right(3, 2))
    assert record.status(KIND).mastered_level == 1
    record = record_of(right(1, 2), right(2, 2), right(3, 1), right(4, 2))
    assert record.status(KIND).mastered_level == 2
    record = record_of(right(1, 2), right(2, 2), right(3, 2))
    s = record.status(KIND)
    assert s.mastered and s.mastered_level == 2


def test_struggling_is_several_wrong_lately_or_an_answer_shown():
    assert not record_of(wrong(1)).status(KIND).struggling
    assert record_of(wrong(1), wrong(1, first=False)).status(KIND).struggling
    assert record_of(shown(1)).status(KIND).struggling
    # a clean run since says the learner got past it
    assert not record_of(wrong(1), wrong(2), right(3)).status(KIND).struggling


def test_kinds_are_kept_apart():
    record = record_of(right(1), right(2), right(3), wrong(1, kind="demo.other"))
    assert record.status(KIND).mastered and not record.status("demo.other").mastered
    assert [a.kind for a in record.of("demo.other")] == ["demo.other"]


# ----- what next, and a page's counts --------------------------------------------------------

def test_next_kind_is_practised_not_mastered_first_then_not_tried():
    kinds = ["a.one", "a.two", "a.three"]
    assert PracticeRecord().next_kind(kinds) == "a.one"
    record = record_of(wrong(1, kind="a.three"))
    assert record.next_kind(kinds) == "a.three"
    for seed in (1, 2, 3):
        record.add(right(seed, kind="a.one"))
    assert record.next_kind(kinds) == "a.three"
    for seed in (4, 5, 6):
        record.add(right(seed, kind="a.three"))
    assert record.next_kind(kinds) == "a.two"
    for seed in (1, 2, 3):
        record.add(right(seed, kind="a.two"))
    assert record.next_kind(kinds) is None
    assert record.next_kind([]) is None


def test_summary_counts_kinds_once_and_only_answered_ones():
    record = record_of(right(1, 2, kind="a.one"), right(2, 2, kind="a.one"),
                       right(3, 2, kind="a.one"), shown(1, kind="a.two"),
                       wrong(1, kind="elsewhere"))
    s = record.summary(["a.one", "a.two", "a.three", "a.one"])
    # a.two was only shown: that is not practice
    assert s == {"kinds": 3, "practised": 1, "mastered": 1, "mastered_level_2": 1,
                 "right": 3, "next": "a.two"}
    assert PracticeRecord().summary([]) == {"kinds": 0, "practised": 0, "mastered": 0,
                                            "mastered_level_2": 0, "right": 0, "next": None}


# ----- recording ------------------------------------------------------------------------------

def test_add_stamps_a_time_and_a_unique_id_and_tells_listeners():
    record = PracticeRecord()
    heard = []

    def listener():
        heard.append(len(record.attempts))

    record.subscribe(listener)
    record.subscribe(listener)                 # once only
    one, two = record.add(right(1)), record.add(right(2))
    assert one.id and two.id and one.id != two.id and 0 < one.time <= two.time
    assert heard == [1, 2]
    kept = Attempt(KIND, 3, 1, "5", True, time=5.0, id="mine")
    assert record.add(kept) is kept
    assert record.attempts[0] is kept           # kept in time order
    record.unsubscribe(listener)
    record.unsubscribe(listener)
    record.clear()
    assert record.attempts == [] and heard == [1, 2, 3]


def test_merge_adds_only_new_attempts_and_keeps_the_newest():
    record = record_of(right(1), right(2))
    assert record.merge(record.attempts) == 0
    other = record_of(right(3))
    assert record.merge(other.attempts + record.attempts) == 1
    assert len(record.attempts) == 3
    many = [Attempt(KIND, n, 1, "", False, time=float(n + 1), id=f"n{n}")
            for n in range(MAX_ATTEMPTS + 10)]
    big = PracticeRecord(many)
    assert len(big.attempts) == MAX_ATTEMPTS and big.attempts[0].id == "n10"


# ----- the progress file ----------------------------------------------------------------------

def sample():
    record = record_of(right(1, misconception=""), wrong(2, misconception="counted-twice"),
                       shown(3), Attempt(KIND, 4, 2, "(1, 2) → (2, 2)", True, hints=2),
                       right(7, kind="demo.other"))
    return record


def test_to_json_and_from_json_round_trip():
    record = sample()
    text = record.to_json()
    data = json.loads(text)
    assert data["kind"] == FILE_KIND and data["version"] == FILE_VERSION
    assert len(data["attempts"]) == 5 and all(isinstance(a["time"], int)
                                              for a in data["attempts"])
    back = PracticeRecord.from_json(text)
    assert back.to_json() == text
    assert [(a.id, a.kind, a.seed, a.level, a.answer, a.correct, a.hints, a.shown, a.first,
             a.misconception) for a in back.attempts] == [
        (a.id, a.kind, a.seed, a.level, a.answer, a.correct, a.hints, a.shown, a.first,
         a.misconception) for a in record.attempts]
    assert all(abs(a.time - b.time) < 0.002 for a, b in zip(back.attempts, record.attempts))
    for kind in (KIND, "demo.other"):
        s, t = back.status(kind), record.status(kind)
        assert (s.practised, s.right, s.run, s.mastered) == (t.practised, t.right, t.run,
                                                             t.mastered)
    assert PracticeRecord.from_json(text.encode()).to_json() == text
    assert PracticeRecord.from_json(PracticeRecord().to_json()).attempts == []


def hostile(change):
    data = json.loads(sample().to_json())
    change(data)
    return json.dumps(data)


def set_field(name, value, row=0):
    return lambda data: data["attempts"][row].__setitem__(name, value)


@pytest.mark.parametrize("change, field", [
    (lambda d: d.__setitem__("kind", "a saved game"), "kind"),
    (lambda d: d.__setitem__("version", 2), "version"),
    (lambda d: d.__setitem__("version", "1"), "version"),
    (lambda d: d.pop("kind"), "kind"),
    (lambda d: d.__setitem__("attempts", {"0": {}}), "attempts"),
    (lambda d: d.__setitem__("extra", 1), "extra"),
    (lambda d: d.__setitem__("attempts", d["attempts"] * 0 + [dict(d["attempts"][0], id=f"x{n}")
                                                         for n in range(MAX_ATTEMPTS + 1)]),
     "attempts"),
    (set_field("seed", "3"), "attempts[0].seed"),
    (set_field("seed", -1), "attempts[0].seed"),
    (set_field("seed", 10**20), "attempts[0].seed"),
    (set_field("level", 0), "attempts[0].level"),
    (set_field("level", [[[[1]]]]), "attempts[0].level"),
    (set_field("correct", 1), "attempts[0].correct"),
    (set_field("shown", "no"), "attempts[0].shown"),
    (set_field("hints", 2.5), "attempts[0].hints"),
    (set_field("hints", 99), "attempts[0].hints"),
    (set_field("time", 1.5), "attempts[0].time"),
    (set_field("time", None), "attempts[0].time"),
    (set_field("kind", None), "attempts[0].kind"),
    (set_field("kind", "k" * 101), "attempts[0].kind"),
    (set_field("answer", "x" * 301), "attempts[0].answer"),
    (set_field("misconception", "m" * 61), "attempts[0].misconception"),
    (set_field("id", "i" * 41), "attempts[0].id"),
    (set_field("id", ""), "attempts[0].id"),
    (set_field("surprise", True, row=2), "attempts[2].surprise"),
    (lambda d: d["attempts"][1].pop("first"), "attempts[1].first"),
    (lambda d: d["attempts"][3].__setitem__("id", d["attempts"][0]["id"]), "attempts"),
    (lambda d: d["attempts"].append("an attempt"), "attempts[5]"),
])
def test_hostile_progress_files_are_refused_naming_the_field(change, field):
    with pytest.raises(InvalidData) as caught:
        read_attempts(hostile(change))
    assert str(caught.value).startswith(field + ":"), str(caught.value)
    record = sample()
    before = record.to_json()
    with pytest.raises(InvalidData):
        record.merge(PracticeRecord.from_json(hostile(change)).attempts)
    assert record.to_json() == before


@pytest.mark.parametrize("text, words", [
    ("[" * 200 + "]" * 200, "nests lists or objects 200 deep"),
    ('{"kind": ' * 70 + "1" + "}" * 70, "nests lists or objects 70 deep"),
    ("x" * (MAX_FILE + 1), "too large"),
    (b"x" * (MAX_FILE + 1), "too large"),
    ("not json", "not valid JSON"),
    ("", "not valid JSON"),
    (b"\xff\xfe\x00", "not valid JSON"),
    ("[]", "expected an object"),
    ('{"kind": "pangaea_lab practice record", "version": 1}', "attempts: missing"),
    ('{"kind": "pangaea_lab practice record", "version": 1, "attempts": [], "n": 1e999}',
     "too large"),
    ('{"kind": "pangaea_lab practice record", "version": 1, "attempts": [], "n": NaN}',
     "not a number"),
    ('{"kind": "pangaea_lab practice record", "version": 1, "attempts": [], "n": '
     + "9" * 40 + "}", "digits"),
])
def test_broken_or_huge_files_are_refused(text, words):
    with pytest.raises(InvalidData, match=words):
        read_attempts(text)


def test_a_huge_text_within_the_file_limit_is_refused_by_its_field():
    data = json.loads(sample().to_json())
    data["attempts"][0]["answer"] = "y" * (MAX_FILE - 2000)
    with pytest.raises(InvalidData, match=r"attempts\[0\]\.answer"):
        read_attempts(json.dumps(data))


def test_what_is_recorded_always_reads_back_from_its_file():
    record = PracticeRecord()
    record.add(Attempt(KIND, 1, 1, "x" * 500, False, hints=30, first=True,
                       misconception="a-very-long-name-" * 10))
    record.add(Attempt(KIND, 2, 1, "5", False, first=True, misconception=None))
    [long, odd] = record.attempts
    assert len(long.answer) == 300 and long.hints == 20 and len(long.misconception) == 60
    assert odd.misconception == ""
    back = PracticeRecord.from_json(record.to_json())
    assert [a.id for a in back.attempts] == [long.id, odd.id]
    kept = Attempt(KIND, 3, 1, "5", True, time=5.0, id="kept")
    assert record.add(kept) is kept               # nothing to cut: the very attempt
