"""The class record service as a kernel and a teacher's browser use it: the real service (a
child process started with the environment the hub gives it) on a real SQLite store in a
temporary folder, identities from a stand-in of the hub's API (record_service_support.py)
asked by JupyterHub's own auth classes.  Each hostile request is refused with a 4xx answer
naming the field, and nothing is stored from it."""

from __future__ import annotations

import csv
import importlib.util
import io
import re
import sqlite3
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_service_support import (ACCESS, PREFIX, TEACHER_SCOPE, Person,  # noqa: E402
                                    StandInHub, start_service)

requests = pytest.importorskip("requests")

from pangaea_lab import exercises  # noqa: E402
from pangaea_lab.classroom.record import service  # noqa: E402
from pangaea_lab.classroom.record.dashboard import CSV_HEADINGS, FROM_FILE  # noqa: E402
from pangaea_lab.classroom.record.store import RecordStore  # noqa: E402
from pangaea_lab.core.mastery import Attempt, PracticeRecord  # noqa: E402

TREES = "harmonies.tree_points"          # a number answer
MOUNTAINS = "harmonies.mountain_points"  # its wrong answer names a misconception
STUDENTS = ("ana", "ben", "cleo", "dev", "eve", "finn", "gus", "hal", "ivy")


@pytest.fixture(scope="module")
def hub():
    standin = StandInHub().start()
    for name in STUDENTS:
        standin.add(Person(name, f"token-of-{name}"))
    standin.add(Person("tess", "token-of-tess", groups=("teachers",),
                       scopes=(ACCESS, TEACHER_SCOPE)))
    standin.add(Person("outsider", "token-of-outsider", scopes=()))
    yield standin
    standin.stop()


@pytest.fixture(scope="module",
                params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def running(request, hub, tmp_path_factory):
    """The service on the SQLite file in its folder (its default), or on a PostgreSQL
    database by URL (marked postgres: PANGAEA_POSTGRES_TESTS=1, as make test-hub runs)."""
    folder = tmp_path_factory.mktemp("class-record")
    database = ""
    if request.param == "postgresql":
        database = request.getfixturevalue("postgres_cluster").database()
    svc = start_service(hub, folder, database=database)
    yield svc
    assert svc.stop() == 0, svc.log.read_text()


@pytest.fixture(scope="module")
def store(running):
    opened = (RecordStore(running.database) if running.database
              else RecordStore.in_folder(running.folder))
    yield opened
    opened.close()


def call(running, method, path, who=None, **kwargs):
    headers = kwargs.pop("headers", {})
    if who:
        headers["Authorization"] = f"token token-of-{who}"
    return requests.request(method, running.url + path, headers=headers, timeout=60, **kwargs)


def attempt(kind, seed, answer, ident, level=1, hints=0, shown=False, first=True):
    return {"id": ident, "kind": kind, "seed": seed, "level": level, "answer": answer,
            "hints": hints, "shown": shown, "first": first, "time": 1_733_420_000_000 + seed}


def right(kind, seed):
    return exercises.generate(kind, seed, 1).answer


def send(running, who, *attempts):
    return call(running, "POST", "api/attempts", who, json={"attempts": list(attempts)})


def refused(response, status, field):
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error.startswith(f"{field}: ") and len(error) > len(field) + 10, error
    return error


# ----- a student's kernel --------------------------------------------------------------


def test_a_student_posts_attempts_and_reads_them_back(running, store):
    answer = right(TREES, 11)
    reply = send(running, "ana", attempt(TREES, 11, answer, "ana-1"))
    assert reply.status_code == 200, reply.text
    assert reply.json() == {"stored": ["ana-1"], "already": [],
                            "verdicts": {"ana-1": {"correct": True, "misconception": ""}}}
    mine = call(running, "GET", "api/attempts", "ana").json()
    assert mine["user"] == "ana"
    [row] = [a for a in mine["attempts"] if a["id"] == "ana-1"]
    assert (row["kind"], row["seed"], row["answer"], row["correct"], row["source"]) == (
        TREES, 11, answer, True, "hub")
    assert row["answer_text"]
    assert [r.user for r in store.attempts() if r.id == "ana-1"] == ["ana"]


def test_a_wrong_answer_is_stored_wrong_with_its_misconception(running, store):
    answer = right(MOUNTAINS, 1) + 1
    expected = exercises.generate(MOUNTAINS, 1, 1).check(answer)
    reply = send(running, "ben", attempt(MOUNTAINS, 1, answer, "ben-1"))
    assert reply.json()["verdicts"]["ben-1"] == {"correct": False,
                                                 "misconception": expected.misconception}
    [row] = [r for r in store.attempts("ben") if r.id == "ben-1"]
    assert row.correct is False and row.misconception == expected.misconception


def test_a_forged_verdict_is_refused_and_nothing_is_stored(running, store):
    before = store.count()
    forged = {**attempt(MOUNTAINS, 2, right(MOUNTAINS, 2) + 5, "ben-forged"), "correct": True}
    refused(send(running, "ben", forged), 400, "attempts[0].correct")
    assert store.count() == before


def test_a_resend_is_stored_once(running, store):
    batch = [attempt(TREES, 21, right(TREES, 21), "cleo-1"),
             attempt(TREES, 22, right(TREES, 22) + 1, "cleo-2")]
    first = send(running, "cleo", *batch).json()
    again = send(running, "cleo", *batch).json()
    assert first["stored"] == ["cleo-1", "cleo-2"] and first["already"] == []
    assert again["stored"] == [] and again["already"] == ["cleo-1", "cleo-2"]
    assert again["verdicts"] == first["verdicts"]
    assert sorted(r.id for r in store.attempts("cleo")) == ["cleo-1", "cleo-2"]


def test_the_record_belongs_to_the_token_not_to_a_name_in_the_body(running, store):
    named = {"attempts": [attempt(TREES, 31, right(TREES, 31), "dev-1")], "user": "ana"}
    refused(call(running, "POST", "api/attempts", "dev", json=named), 400, "user")
    sneaky = {**attempt(TREES, 31, right(TREES, 31), "dev-1"), "user": "ana"}
    refused(send(running, "dev", sneaky), 400, "attempts[0].user")
    assert not store.attempts("dev")


@pytest.mark.parametrize("change, field", [
    ({"seed": "12"}, "attempts[1].seed"),
    ({"level": 9}, "attempts[1].level"),
    ({"kind": "harmonies.no_such_rule"}, "attempts[1].kind"),
    ({"hints": -1}, "attempts[1].hints"),
    ({"shown": "no"}, "attempts[1].shown"),
    ({"id": "Not An Id!"}, "attempts[1].id"),
    ({"answer": {"a": 1}}, "attempts[1].answer"),
])
def test_wrong_types_are_refused_naming_the_field(running, store, change, field):
    before = store.count()
    good = attempt(TREES, 41, right(TREES, 41), "eve-good")
    refused(send(running, "eve", good, {**attempt(TREES, 42, 3, "eve-bad"), **change}), 400,
            field)
    assert store.count() == before, "one bad attempt refuses the whole batch"


def test_bodies_that_are_not_a_batch_are_refused(running, store):
    before = store.count()
    refused(call(running, "POST", "api/attempts", "eve", data=b"{not json"), 400, "body")
    refused(call(running, "POST", "api/attempts", "eve", json=[1, 2]), 400, "body")
    refused(call(running, "POST", "api/attempts", "eve", json={"attempts": []}), 400,
            "attempts")
    many = [attempt(TREES, s, 1, f"eve-{s}") for s in range(101)]
    refused(call(running, "POST", "api/attempts", "eve", json={"attempts": many}), 400,
            "attempts")
    assert store.count() == before


def test_a_huge_body_is_refused_with_413(running, store):
    before = store.count()
    padding = attempt(TREES, 51, right(TREES, 51), "finn-1")
    body = b'{"attempts": [' + b'{"x": "' + b"a" * 300_000 + b'"}]}'
    refused(call(running, "POST", "api/attempts", "finn", data=body), 413, "body")
    refused(call(running, "POST", "api/import?student=finn", "tess",
                 data=b"x" * (service.MAX_IMPORT + 10)), 413, "body")
    assert send(running, "finn", padding).status_code == 200
    assert store.count() == before + 1


def test_too_many_new_exercises_at_once_are_refused_for_a_while(running, store):
    batch = [attempt(TREES, seed, 1, f"ivy-{seed}") for seed in range(5000, 5100)]
    assert send(running, "ivy", *batch).json()["stored"] == [a["id"] for a in batch]
    # a resend costs nothing: those positions were judged a moment ago
    assert len(send(running, "ivy", *batch).json()["already"]) == 100
    before = store.count()
    more = [attempt(TREES, seed, 1, f"ivy-{seed}") for seed in range(5100, 5200)]
    reply = send(running, "ivy", *more)
    refused(reply, 429, "attempts")
    assert int(reply.headers["Retry-After"]) >= 1 and "sent again in" in reply.json()["error"]
    assert store.count() == before
    # everyone has their own budget
    assert send(running, "dev", attempt(TREES, 5100, 1, "dev-5100")).status_code == 200


def test_no_token_and_a_bad_token_get_401(running, store):
    before = store.count()
    batch = {"attempts": [attempt(TREES, 61, right(TREES, 61), "gus-1")]}
    refused(call(running, "POST", "api/attempts", json=batch), 401, "token")
    refused(call(running, "POST", "api/attempts", json=batch,
                 headers={"Authorization": "token not-a-token-the-hub-gave"}), 401, "token")
    refused(call(running, "GET", "api/class", headers={"Authorization": "token expired"}),
            401, "token")
    assert store.count() == before


def test_a_person_without_access_to_the_service_gets_403(running):
    refused(call(running, "GET", "api/attempts", "outsider"), 403, "user")


def test_a_student_gets_403_on_everything_of_the_class(running, store):
    send(running, "hal", attempt(TREES, 71, right(TREES, 71), "hal-1"))
    before = store.count()
    refused(call(running, "GET", "api/class", "ana"), 403, "user")
    refused(call(running, "GET", "api/attempts/hal", "ana"), 403, "name")
    refused(call(running, "GET", "api/attempts/nobody-at-all", "ana"), 403, "name")
    refused(call(running, "GET", "export.csv", "ana"), 403, "user")
    refused(call(running, "POST", "api/import?student=ana", "ana", data=b"{}"), 403, "user")
    refused(call(running, "DELETE", "api/students/hal", "ana"), 403, "user")
    page = call(running, "GET", "dashboard", "ana")
    assert page.status_code == 403 and "for the class's teachers" in page.text
    assert "Traceback" not in page.text
    assert store.count() == before and store.attempts("hal")
    # the student's own records, by name, are theirs to read
    assert call(running, "GET", "api/attempts/ana", "ana").status_code == 200


def test_unknown_names_and_addresses(running):
    refused(call(running, "GET", "api/attempts/nobody-at-all", "tess"), 404, "name")
    refused(call(running, "DELETE", "api/students/nobody-at-all", "tess"), 404, "name")
    refused(call(running, "GET", "api/nothing-here", "tess"), 404, "path")
    refused(call(running, "PUT", "api/attempts", "ana"), 405, "method")
    refused(call(running, "GET", "api/class?game=chess", "tess"), 400, "game")
    refused(call(running, "GET", "api/class?notebook=../../etc/passwd", "tess"), 400, "notebook")


# ----- the teacher -----------------------------------------------------------------------


def cells(view, name):
    return next(s for s in view["students"] if s["name"] == name)["cells"]


def test_the_teacher_sees_mastered_and_struggling_as_the_progress_line_does(running):
    for seed in (101, 102, 103):
        send(running, "gus", attempt(TREES, seed, right(TREES, seed), f"gus-t{seed}"))
    wrong = [attempt(MOUNTAINS, s, right(MOUNTAINS, s) + 1, f"gus-m{s}") for s in (1, 104)]
    send(running, "gus", *wrong)
    send(running, "tess", attempt(TREES, 106, 0, "tess-try"))   # a teacher trying it out
    view = call(running, "GET", "api/class?game=harmonies", "tess").json()
    assert {c["game"] for c in view["columns"]} == {"harmonies"}
    mine = cells(view, "gus")
    assert mine[TREES]["state"] == "mastered" and "mastered (level 1)" in mine[TREES]["text"]
    assert mine[MOUNTAINS]["state"] == "struggling"
    assert mine["harmonies.field_points"]["state"] == ""
    # the same attempts in the learner's own record give the same states
    record = PracticeRecord([Attempt(TREES, s, 1, "x", True, first=True, time=s, id=str(s))
                             for s in (101, 102, 103)])
    assert record.status(TREES).mastered
    missed = {m["kind"]: m for m in view["missed"]}
    assert missed[MOUNTAINS]["wrong"] >= 2 and "gus" in [s["name"] for s in view["students"]]
    assert missed[MOUNTAINS]["answers"] and missed[MOUNTAINS]["misconceptions"]
    idea = missed[MOUNTAINS]["misconceptions"][0]
    assert "-" not in idea["text"] and idea["reason"], idea     # in words, with the reason
    names = [s["name"] for s in view["students"]]
    # everyone on the hub (read page by page), a student with no record too, no teacher
    assert set(STUDENTS) - {"hal"} <= set(names) and "tess" not in names
    only = call(running, "GET", "api/class?game=harmonies&notebook="
                "harmonies/03_habitats.ipynb", "tess").json()
    assert {c["notebook"] for c in only["columns"]} == {"harmonies/03_habitats.ipynb"}


def test_the_teacher_reads_a_students_history(running):
    send(running, "dev", attempt(MOUNTAINS, 201, None, "dev-shown", shown=True))
    history = call(running, "GET", "api/attempts/dev", "tess").json()["history"]
    [shown] = [h for h in history if h["id"] == "dev-shown"]
    assert shown["verdict"] == "answer shown" and shown["checked"] == "the server"
    assert shown["title"] and shown["rule"]


def test_the_csv_export_has_one_line_per_attempt_with_headings_in_words(running, store):
    send(running, "cleo", attempt(TREES, 81, right(TREES, 81), "cleo-csv-right"),
         attempt(TREES, 82, right(TREES, 82) + 2, "cleo-csv-wrong"))
    reply = call(running, "GET", "export.csv?game=harmonies", "tess")
    assert reply.status_code == 200 and reply.headers["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(reply.content.decode("utf-8-sig"))))
    assert tuple(lines[0]) == CSV_HEADINGS
    assert len(lines) - 1 == len(store.attempts(game="harmonies"))
    verdicts = {line[-1]: line[CSV_HEADINGS.index("Verdict")] for line in lines[1:]}
    assert verdicts["cleo-csv-right"] == "right" and verdicts["cleo-csv-wrong"] == "not right"


def progress_file(*attempts):
    return PracticeRecord(attempts).to_json().encode()


def test_import_of_a_good_and_of_hostile_progress_files(running, store):
    good = progress_file(
        Attempt(TREES, 301, 1, "4", True, first=True, time=1_733_000_000.0, id="f-1"),
        Attempt(TREES, 302, 1, "=HYPERLINK(\"http://x\")", False, first=True,
                time=1_733_000_001.0, id="f-2"))
    before = store.count()
    for body, status, field in [
            (b"not json at all", 400, "file"),
            (b'{"kind": "pangaea_lab practice record", "version": 1, "attempts": "many"}',
             400, "attempts"),
            (progress_file(Attempt("chess.openings", 1, 1, "e4", True, id="x-1")), 400,
             "attempts[0].kind"),
            (b"\xff\xfe", 400, "file")]:
        reply = call(running, "POST", "api/import?student=eve", "tess", data=body)
        assert reply.status_code == status, reply.text
        assert reply.json()["error"].startswith(field), reply.text
    refused(call(running, "POST", "api/import?student=mallory", "tess", data=good), 400,
            "student")
    refused(call(running, "POST", "api/import", "tess", data=good), 400, "name")
    assert store.count() == before
    reply = call(running, "POST", "api/import?student=eve", "tess", data=good)
    assert reply.json() == {"student": "eve", "stored": 2, "already": 0}
    history = call(running, "GET", "api/attempts/eve", "tess").json()["history"]
    assert {h["checked"] for h in history} == {FROM_FILE}
    export = call(running, "GET", "export.csv", "tess").content.decode("utf-8-sig")
    assert "'=HYPERLINK" in export, "a formula from a file is kept as text"


def sign_in(running, hub, who):
    """A browser's OAuth sign-in through the hub: the page and its XSRF token."""
    hub.signed_in = who
    browser = requests.Session()
    page = browser.get(running.url + "dashboard", timeout=60)
    # back on the page asked for, the sign-in's PKCE verifier checked by the hub
    assert page.status_code == 200 and page.url == running.url + "dashboard", page.text
    xsrf = re.search(r'data-xsrf="([^"]+)"', page.text).group(1)
    return browser, page, xsrf


def test_the_teacher_signs_in_and_deletes_a_students_records_with_the_pages_token(
        running, hub, store):
    send(running, "hal", attempt(TREES, 91, right(TREES, 91), "hal-2"))
    browser, page, xsrf = sign_in(running, hub, "tess")
    assert "Class record" in page.text and "Signed in as tess" in page.text
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert "<script src=\"" + PREFIX + "static/dashboard.js" in page.text
    assert browser.get(running.url + "api/class", timeout=60).status_code == 200
    # the page's download link, followed with the sign-in cookie alone
    assert 'href="export.csv"' in page.text
    download = browser.get(running.url + "export.csv", timeout=60)
    assert download.status_code == 200 and download.text.lstrip("\ufeff").startswith("Student,")
    assert store.attempts("hal")
    # the cookie alone does not delete: the page's XSRF token must come with it
    refused(browser.delete(running.url + "api/students/hal", timeout=60), 401, "token")
    assert store.attempts("hal")
    gone = browser.delete(running.url + "api/students/hal", headers={"X-XSRFToken": xsrf},
                          timeout=60)
    assert gone.status_code == 200, gone.text
    assert gone.json()["deleted"] >= 1 and not store.attempts("hal")


def test_a_students_browser_is_refused_the_dashboard(running, hub):
    hub.signed_in = "ana"
    browser = requests.Session()
    page = browser.get(running.url + "dashboard", timeout=60)
    assert page.status_code == 403 and "for the class's teachers" in page.text
    refused(browser.get(running.url + "api/attempts/ben", timeout=60), 403, "name")
    assert browser.get(running.url + "api/attempts", timeout=60).json()["user"] == "ana"


def test_the_service_answers_while_the_database_is_busy(running, store):
    if running.database:
        pytest.skip("SQLite's one writer at a time; PostgreSQL writers do not wait this way")
    lock = sqlite3.connect(running.folder / "class-record.sqlite", timeout=30)
    lock.isolation_level = None
    lock.execute("BEGIN IMMEDIATE")          # another writer holds the database
    done = {}
    writer = threading.Thread(target=lambda: done.setdefault(
        "reply", send(running, "finn", attempt(TREES, 401, right(TREES, 401), "finn-busy"))))
    writer.start()
    try:
        # the write waits for the database in a worker thread; the service still answers,
        # and reads the record (SQLite's WAL: reading never waits for a writer)
        assert call(running, "GET", "dashboard", "tess").status_code == 200
        assert call(running, "GET", "api/attempts", "ana").status_code == 200
        assert call(running, "GET", "api/class?game=harmonies", "tess").status_code == 200
        refused(send(running, "gus", {**attempt(TREES, 402, 1, "gus-x"), "seed": -1}), 400,
                "attempts[0].seed")
        refused(call(running, "GET", "api/class", "ana"), 403, "user")
        assert "reply" not in done, "the write waits for the database"
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    writer.join(60)
    assert done["reply"].json()["stored"] == ["finn-busy"]


def test_a_hub_out_of_reach_is_said_in_words(tmp_path):
    gone = StandInHub().start()
    gone.add(Person("ana", "token-of-ana"))
    folder = tmp_path / "record"
    folder.mkdir()
    svc = start_service(gone, folder)
    try:
        gone.stop()                         # the hub stops answering
        reply = call(svc, "GET", "api/attempts", "ana")
        refused(reply, 503, "hub")
        page = call(svc, "GET", "dashboard", "ana")
        assert page.status_code == 503 and "Traceback" not in page.text
        assert "could not be asked who you are" in page.text
    finally:
        assert svc.stop() == 0


def test_bad_settings_stop_the_service_with_one_sentence(tmp_path, capsys):
    open_folder = tmp_path / "open"
    open_folder.mkdir(mode=0o755)
    open_folder.chmod(0o755)
    base = {"JUPYTERHUB_API_TOKEN": "t", "JUPYTERHUB_CLIENT_ID": "service-class-record",
            "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:8082"}
    for env, words in [
            ({}, "JUPYTERHUB_API_TOKEN is not set"),
            ({**base, "JUPYTERHUB_SERVICE_URL": "ftp://x"}, "JUPYTERHUB_SERVICE_URL"),
            ({**base, "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1"}, "must name a port"),
            (base, "Neither PANGAEA_RECORD_DB"),
            ({**base, "PANGAEA_RECORD_STATE": str(open_folder)}, "chmod 700"),
            ({**base, "PANGAEA_RECORD_DB": "mysql://x"}, "PANGAEA_RECORD_DB"),
            ({**base, "PANGAEA_RECORD_DB": "postgresql+psycopg://nobody@127.0.0.1:1/none"},
             # (make test installs no PostgreSQL driver; the hub's install has one)
             "the database could not be opened" if importlib.util.find_spec("psycopg")
             else "needs the psycopg package")]:
        assert service.main([], env=env) == 2
        said = capsys.readouterr().err.strip()
        assert said.startswith("class-record: ") and words in said and "\n" not in said
    with pytest.raises(SystemExit) as stopped:
        service.main(["--port", "80"], env=base)
    assert stopped.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err


def test_a_restart_keeps_every_record_and_the_teachers_sign_in(running, hub, store):
    send(running, "ana", attempt(TREES, 11, right(TREES, 11), "ana-1"))
    teacher, _, _ = sign_in(running, hub, "tess")
    before = sorted((r.user, r.id) for r in store.attempts())
    assert running.stop() == 0
    again = start_service(hub, running.folder, database=running.database)
    try:
        # the cookie is signed with the secret kept in the state folder: still signed in
        view = teacher.get(again.url + "api/class", timeout=60, allow_redirects=False)
        assert view.status_code == 200 and "students" in view.json()
        mine = call(again, "GET", "api/attempts", "ana").json()["attempts"]
        assert "ana-1" in [a["id"] for a in mine]
        reply = send(again, "ana", attempt(TREES, 11, right(TREES, 11), "ana-1"))
        assert reply.json()["already"] == ["ana-1"]
        assert sorted((r.user, r.id) for r in store.attempts()) == before
    finally:
        running.process = again.process     # the module's fixture stops this one
        running.port = again.port
