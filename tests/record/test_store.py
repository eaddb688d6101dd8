"""The class record's store (pangaea_lab.classroom.record.store): round trip, resends stored
once (also by concurrent writers), received order, deletion, progress files imported (good
and hostile ones), on SQLite always and on PostgreSQL with the ``postgres`` marker."""

from __future__ import annotations

import json
import os
import sys
import stat
import threading
from pathlib import Path

import pytest

from pangaea_lab import exercises
from pangaea_lab.classroom.record.judge import judge, read_batch
from pangaea_lab.classroom.record.store import FILE_NAME, Added, RecordStore, Row
from pangaea_lab.core.errors import InvalidData
from pangaea_lab.core.mastery import Attempt, PracticeRecord


def sent(ident, kind="harmonies.tree_points", seed=3, level=1, answer=None, **fields):
    return {"id": ident, "kind": kind, "seed": seed, "level": level, "answer": answer,
            "hints": 0, "shown": False, "first": True, "time": 1733420000123, **fields}


def judged(*attempts):
    return [judge(a) for a in read_batch(json.dumps({"attempts": list(attempts)}).encode())]


def right(kind="harmonies.tree_points", seed=3, level=1):
    return exercises.generate(kind, seed, level).answer


@pytest.fixture
def store(record_url):
    opened = RecordStore(record_url)
    opened.upgrade()
    yield opened
    opened.close()


def test_round_trip_keeps_every_field(store):
    added = store.add("ada", judged(sent("a1", answer=right()),
                                    sent("a2", answer=right() + 1, hints=2, first=False)))
    assert added == Added(stored=("a1", "a2"), already=())
    first, second = store.attempts()
    kind = exercises.get("harmonies.tree_points")
    assert isinstance(first, Row) and first.user == "ada" and first.id == "a1"
    assert (first.kind, first.game, first.notebook, first.rule) == (
        kind.key, kind.game, kind.notebook, kind.rule)
    assert (first.seed, first.level, first.correct, first.source) == (3, 1, True, "hub")
    assert json.loads(first.answer) == right() and first.answer_text == str(right())
    assert first.client_time == pytest.approx(1733420000.123)
    assert (second.correct, second.hints, second.first, second.shown) == (False, 2, False, False)
    assert second.reason == exercises.generate(kind.key, 3, 1).check(right() + 1).reason
    assert second.received >= first.received > 0


def test_a_resend_is_stored_once(store):
    batch = judged(sent("a1", answer=1), sent("a2", answer=2))
    assert store.add("ada", batch).stored == ("a1", "a2")
    assert store.add("ada", batch) == Added(stored=(), already=("a1", "a2"))
    mixed = store.add("ada", judged(sent("a2", answer=2), sent("a3", answer=3)))
    assert mixed == Added(stored=("a3",), already=("a2",))
    assert [r.id for r in store.attempts()] == ["a1", "a2", "a3"]
    # the same id from another student is another attempt
    assert store.add("bea", judged(sent("a1", answer=1))).stored == ("a1",)
    assert store.count() == 4 and store.users() == ["ada", "bea"]


def test_a_resend_never_changes_what_was_stored(store):
    store.add("ada", judged(sent("a1", answer=right())))
    store.add("ada", judged(sent("a1", answer=right() + 5)))
    [row] = store.attempts()
    assert row.correct and json.loads(row.answer) == right()


def test_concurrent_writers_store_each_attempt_once(record_url):
    stores = [RecordStore(record_url) for _ in range(4)]
    stores[0].upgrade()
    batches = [judged(*[sent(f"a{k}", answer=k) for k in range(start, start + 20)])
               for start in (0, 10, 20, 0)]
    batches[3].reverse()            # the same attempts sent in another order
    results: list[Added] = []
    barrier = threading.Barrier(len(stores))

    def write(store, batch):
        barrier.wait()
        for _ in range(3):
            results.append(store.add("ada", batch))

    threads = [threading.Thread(target=write, args=pair) for pair in zip(stores, batches)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ids = [r.id for r in stores[0].attempts(user="ada")]
    assert sorted(ids) == sorted(f"a{k}" for k in range(40)) and len(ids) == 40
    stored = [i for added in results for i in added.stored]
    assert sorted(stored) == sorted(ids)            # each stored by exactly one writer
    assert all(len(a.stored) + len(a.already) == 20 for a in results)
    for opened in stores:
        opened.close()


def test_reading_never_waits_for_a_writer(record_url):
    writer, reader = RecordStore(record_url), RecordStore(record_url)
    writer.upgrade()
    writer.add("ada", judged(sent("a1", answer=1)))
    with writer.writer.begin() as connection:       # a write under way, not committed yet
        connection.execute(writer._insert().values(**{
            "user_name": "bea", "attempt_id": "b1", "kind": "harmonies.tree_points",
            "game": "harmonies", "notebook": "n", "rule": "", "seed": 1, "level": 1,
            "answer": "1", "answer_text": "1", "correct": False, "misconception": "",
            "reason": "", "hints": 0, "shown": False, "first": True, "client_time": 0.0,
            "received": 0.0, "source": "hub"}))
        assert [r.id for r in reader.attempts()] == ["a1"]      # the committed rows only
    assert [r.id for r in reader.attempts()] == ["a1", "b1"]
    writer.close()
    reader.close()


def test_one_batch_is_kept_in_the_order_of_the_clients_clock(store):
    added = store.add("ada", judged(sent("b", answer=1, time=3_000), sent("c", answer=1,
                                                                      time=1_000),
                                    sent("a", answer=1, time=2_000)))
    assert added.stored == ("b", "c", "a")
    assert [r.id for r in store.attempts()] == ["c", "a", "b"]


def test_attempts_come_in_received_order_and_filter(store):
    store.add("ada", judged(sent("z9", answer=1, time=5_000)))
    store.add("bea", judged(sent("a1", kind="pangaea.seeds_needed", answer=1, time=1_000)))
    store.add("ada", judged(sent("m5", kind="pangaea.seeds_needed", answer=1, time=1)))
    assert [r.id for r in store.attempts()] == ["z9", "a1", "m5"]
    assert [r.id for r in store.attempts(user="ada")] == ["z9", "m5"]
    assert [r.id for r in store.attempts(game="pangaea")] == ["a1", "m5"]
    notebook = exercises.get("harmonies.tree_points").notebook
    assert [r.id for r in store.attempts(notebook=notebook)] == ["z9"]
    last = store.attempts()[-1].received
    assert [r.id for r in store.attempts(since=last)] == ["m5"]
    assert store.attempts(since=last + 1) == []


def test_mastery_from_stored_rows_is_the_learners_own(store):
    kind = "harmonies.tree_points"
    batch = [sent(f"c{seed}", seed=seed, answer=right(kind, seed)) for seed in (1, 2, 3)]
    store.add("ada", judged(*batch))
    store.add("bea", judged(sent("w1", answer=right() + 1), sent("w2", seed=4, answer=0),
                            sent("s3", seed=5, shown=True)))
    ada = PracticeRecord([r.attempt() for r in store.attempts(user="ada")]).status(kind)
    bea = PracticeRecord([r.attempt() for r in store.attempts(user="bea")]).status(kind)
    assert ada.mastered and ada.run == 3
    assert bea.struggling and not bea.mastered and bea.right == 0
    assert isinstance(store.attempts()[0].attempt(), Attempt)


def test_delete_user_removes_only_theirs(store):
    store.add("ada", judged(sent("a1", answer=1), sent("a2", answer=2)))
    store.add("bea", judged(sent("a1", answer=1)))
    assert store.delete_user("ada") == 2
    assert store.delete_user("ada") == 0
    assert store.users() == ["bea"] and store.count() == 1


def test_a_deleted_student_leaves_nothing_in_the_sqlite_files(tmp_path):
    store = RecordStore.in_folder(tmp_path)
    store.upgrade()
    store.add("zelda-quokka", judged(*[sent(f"z{k}", seed=k, answer=k) for k in range(30)]))
    store.add("ada", judged(sent("a1", answer=1)))
    files = lambda: b"".join(p.read_bytes() for p in tmp_path.iterdir())  # noqa: E731
    assert b"zelda-quokka" in files()
    assert store.delete_user("zelda-quokka") == 30
    assert b"zelda-quokka" not in files() and [r.user for r in store.attempts()] == ["ada"]
    store.close()


@pytest.mark.parametrize("user", ["", "x" * 101, None, 7, "a\nb"])
def test_a_bad_user_name_is_refused_and_nothing_stored(store, user):
    with pytest.raises(InvalidData, match="^user:"):
        store.add(user, judged(sent("a1", answer=1)))
    assert store.count() == 0


# ----- progress files ----------------------------------------------------------------------

def progress_file(*attempts: Attempt) -> str:
    return PracticeRecord(attempts).to_json()


def test_import_of_a_good_progress_file(store):
    text = progress_file(
        Attempt("harmonies.tree_points", 1, 1, "4", True, first=True, time=100.5, id="f1"),
        Attempt("harmonies.tree_points", 2, 1, "", False, shown=True, time=200.0, id="f2"),
        Attempt("pangaea.seeds_needed", 2, 2, "3", False, hints=1, misconception="far",
                time=300.0, id="f3"))
    assert store.import_file("cy", text) == Added(stored=("f1", "f2", "f3"), already=())
    assert store.import_file("cy", text.encode()) == Added((), ("f1", "f2", "f3"))
    rows = store.attempts(user="cy")
    assert [(r.id, r.correct, r.source, r.answer_text) for r in rows] == [
        ("f1", True, "file", "4"), ("f2", False, "file", ""), ("f3", False, "file", "3")]
    assert rows[2].misconception == "far" and rows[2].hints == 1 and rows[2].level == 2
    assert rows[2].game == "pangaea" and rows[0].client_time == 100.5
    assert [r.answer for r in rows] == ["null"] * 3      # these attempts kept no raw answer


def test_import_keeps_the_raw_answer_a_file_holds(store):
    text = progress_file(
        Attempt("pangaea.land_path", 1, 1, "(0, 1) → (1, 1)", False, time=1.0, id="g1",
                given="[[0, 1], [1, 1]]"),
        Attempt("harmonies.tree_points", 1, 1, "4", True, time=2.0, id="g2", given="4"))
    store.import_file("cy", text)
    assert [json.loads(r.answer) for r in store.attempts()] == [[[0, 1], [1, 1]], 4]


@pytest.mark.parametrize("given", ["{\"a\": 1}", "not json", "[[1, 2, 3, 4, 5]]", "true",
                                   "[" * 100 + "]" * 100])
def test_import_refuses_a_raw_answer_of_no_answer_shape(store, given):
    text = progress_file(Attempt("harmonies.tree_points", 1, 1, "4", True, time=2.0, id="g2",
                                 given=given))
    with pytest.raises(InvalidData, match=r"^attempts\[0\]\.given: not an answer"):
        store.import_file("cy", text)
    assert store.count() == 0


@pytest.mark.parametrize("change, field", [
    (lambda d: d["attempts"][1].update(kind="nope.kind"), "attempts[1].kind"),
    (lambda d: d["attempts"][0].update(level=5), "attempts[0].level"),
    (lambda d: d["attempts"][0].update(seed="3"), "attempts[0].seed"),
    (lambda d: d["attempts"][0].update(correct=1), "attempts[0].correct"),
    (lambda d: d["attempts"][0].update(user="bob"), "attempts[0].user"),
    (lambda d: d["attempts"][0].update(id=""), "attempts[0].id"),
    (lambda d: d["attempts"].append(dict(d["attempts"][0])), "attempts"),
    (lambda d: d.update(kind="something else"), "kind"),
    (lambda d: d.update(attempts={}), "attempts"),
])
def test_import_of_a_hostile_file_is_refused_by_field_and_stores_nothing(store, change, field):
    data = json.loads(progress_file(
        Attempt("harmonies.tree_points", 1, 1, "4", True, first=True, time=1.0, id="f1"),
        Attempt("harmonies.tree_points", 2, 1, "4", True, first=True, time=2.0, id="f2")))
    change(data)
    with pytest.raises(InvalidData) as caught:
        store.import_file("cy", json.dumps(data))
    assert str(caught.value).startswith(field), str(caught.value)
    assert store.count() == 0


@pytest.mark.parametrize("text", ["", "not json", "[]", "{}", "x" * 2_000_001, b"\x00" * 10,
                                  "[" * 200 + "]" * 200, 42, None])
def test_import_of_something_that_is_no_progress_file_is_refused(store, text):
    with pytest.raises(InvalidData):
        store.import_file("cy", text)
    assert store.count() == 0


# ----- SQLite: the file ----------------------------------------------------------------------

def test_sqlite_file_is_0600_in_wal_mode(tmp_path):
    store = RecordStore.in_folder(tmp_path)
    store.upgrade()
    store.add("ada", judged(sent("a1", answer=1)))
    path = tmp_path / FILE_NAME
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()
             if p.name.startswith(FILE_NAME)}
    assert modes[FILE_NAME] == 0o600 and set(modes.values()) == {0o600}, modes
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    store.close()
    # an existing file readable by others is tightened when it is opened
    path.chmod(0o644)
    RecordStore(f"sqlite:///{path}").close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_sqlite_file_is_0600_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        RecordStore.in_folder(tmp_path).close()
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / FILE_NAME).stat().st_mode) == 0o600


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "mysql://x@y/z",
                                 "postgresql+psycopg2://x@y/z", "not a url", 5])
def test_only_sqlite_files_and_postgresql_by_psycopg(url):
    with pytest.raises(InvalidData, match="^url:"):
        RecordStore(url)


def test_postgresql_without_psycopg_installed_is_refused_in_a_sentence(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)       # as where it is not installed
    with pytest.raises(InvalidData, match="^url: PostgreSQL needs the psycopg package"):
        RecordStore("postgresql+psycopg://nobody@127.0.0.1:1/none")


def test_in_folder_needs_a_folder(tmp_path):
    with pytest.raises(InvalidData, match="^folder:"):
        RecordStore.in_folder(tmp_path / "missing")
    assert not (tmp_path / "missing").exists()


def test_a_restart_keeps_every_record(record_url):
    first = RecordStore(record_url)
    first.upgrade()
    first.add("ada", judged(sent("a1", answer=1)))
    first.close()
    again = RecordStore(record_url)
    assert again.upgrade() == "0002"
    assert [r.id for r in again.attempts()] == ["a1"]
    assert again.add("ada", judged(sent("a1", answer=1))).already == ("a1",)
    again.close()
