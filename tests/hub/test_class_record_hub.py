"""The class record on the classroom hub, for real (``make test-hub``, as root): a teacher and
two students log in; the students answer an exercise in a notebook of their own server in
Chromium (right, wrong, with a hint, with the answer shown); the teacher's dashboard shows
exactly those attempts with the server's verdicts; a student gets 403 on the dashboard and on
a classmate's records; a forged claim of "right" is refused and a wrong answer is stored as
wrong; the service is killed mid-lesson and, restarted by the hub, ends with every attempt
once; hostile requests are refused with a 4xx and store nothing.  The whole scenario runs on
SQLite (the default) and on PostgreSQL, one hub each."""

from __future__ import annotations

import json
import os
import signal
import stat
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote, urlsplit

import pytest
import requests
from hub_support import (PAGE, REPO, SPAWN, Hub, alive, descendants, free_port, hub_api,
                         kernel, log_in, start_server, wait_for)

sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO / "tests" / "record"))
from exercise_pages import OnPage, wrong_answer  # noqa: E402

from pangaea_lab.exercises import generate  # noqa: E402

#: names of this run only (each becomes a system user, pl-<name>): two runs at once, or a run
#: and a test hub of another suite, never share an account
RUN = os.getpid() % 100_000
ANN, BEN, TEACHER = f"ann-{RUN}", f"ben-{RUN}", f"kerr-{RUN}"
STUDENTS = (ANN, BEN)
ROSTER = f"{ANN}\n{BEN}\n{TEACHER} teacher\n"
KEY, SEED = "pangaea.seeds_needed", 3          # a number exercise: typed, then Check
PREFIX = "/services/class-record/"
CHROMIUM = Path(os.environ.get("PANGAEA_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
#: how long the record may take to come back after its service was killed (the hub looks at
#: its services every half minute; a kernel's sender waits up to a minute between tries)
BACK = 240
NOTEBOOK = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {
    "name": "python3", "display_name": "Python 3", "language": "python"}}, "cells": [
    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "id": "a",
     "source": "from pangaea_lab.exercises import practice, progress\nprogress()"},
    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "id": "b",
     "source": f"practice({KEY!r}, seed={SEED})"}]}

if os.geteuid() != 0:
    pytest.skip("the classroom hub makes a system user per student: run make test-hub as root",
                allow_module_level=True)


def _database(kind: str) -> Iterator[str | None]:
    if kind == "sqlite":
        yield None
        return
    import postgres          # tests/record/postgres.py: a throwaway PostgreSQL cluster
    with postgres.cluster() as running:
        yield running.database()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def hub(request: Any) -> Iterator[Hub]:
    logs = REPO / "build" / "hub-logs" / f"record-{request.param}"
    logs.mkdir(parents=True, exist_ok=True)
    for url in _database(request.param):
        settings = {"PANGAEA_HUB_RECORD_PORT": str(free_port()),
                    "PANGAEA_HUB_IDLE_TIMEOUT": "3600", "PANGAEA_HUB_MEMORY": "1500M"}
        if url:
            settings["PANGAEA_HUB_RECORD_DB"] = url
        running = Hub(ROSTER, settings, logs)
        running.database = request.param
        try:
            wait_for("the hub did not answer /hub/health", running.healthy, SPAWN, running.log)
            yield running
        finally:
            running.stop_and_clean(list(STUDENTS) + [TEACHER])


@pytest.fixture(scope="module")
def people(hub: Hub) -> dict[str, Any]:
    """Everyone logged in; each student's server started, with the notebook of the lesson;
    a token of each person (as the hub's own API gives one) for reading the record."""
    out: dict[str, Any] = {}
    for name in STUDENTS + (TEACHER,):
        session = log_in(hub, name, hub.password(name))
        assert session.logged_in, f"{name} could not log in"
        token = hub_api(hub, session, "POST", f"/users/{name}/tokens",
                        json={"note": "record test", "expires_in": 3600}).json()["token"]
        out[name] = {"session": session, "token": token}
    for name in STUDENTS:
        server_token = start_server(hub, out[name]["session"], name)
        put = requests.put(f"{hub.url}/user/{name}/api/contents/lesson.ipynb",
                           verify=str(hub.cert), timeout=PAGE,
                           headers={"Authorization": f"token {server_token}"},
                           json={"type": "notebook", "format": "json", "content": NOTEBOOK})
        assert put.status_code in (200, 201), put.text[:300]
        out[name]["server_token"] = server_token
    return out


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    if not CHROMIUM.is_file():
        pytest.fail(f"Chromium was not found at {CHROMIUM}: apt-get install chromium",
                    pytrace=False)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        yield playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def browser_login(hub: Hub, driver: Any, name: str, landing: str) -> Any:
    """A Chromium window of its own, logged in as ``name`` through the login form and taken
    straight to ``landing`` (a path on the hub), as a link handed out in class does."""
    context = driver.new_context(ignore_https_errors=True,
                                 viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login?next={quote(landing)}", timeout=PAGE * 1000)
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", hub.password(name))
    page.click("[type=submit]")
    page.wait_for_url(lambda url: urlsplit(url).path == landing, timeout=PAGE * 1000)
    page.wait_for_load_state("load", timeout=PAGE * 1000)
    return page


def record_of(hub: Hub, people: dict, name: str, reader: str = TEACHER) -> requests.Response:
    return requests.get(f"{hub.url}{PREFIX}api/attempts/{name}", verify=str(hub.cert),
                        timeout=60, headers={"Authorization": f"token {people[reader]['token']}"})


def stored(hub: Hub, people: dict, name: str) -> list[dict]:
    answer = record_of(hub, people, name)
    assert answer.status_code == 200, answer.text[:300]
    return answer.json()["attempts"]


def lesson(hub: Hub, driver: Any, name: str) -> tuple[Any, OnPage]:
    page = browser_login(hub, driver, name, f"/user/{name}/voila/render/lesson.ipynb")
    return page, OnPage(page, KEY, SEED, name)


def status_line(page: Any) -> str:
    line = page.locator(".pl-record-status [data-state]").first
    return line.get_attribute("data-state", timeout=60_000) or ""


def wait_state(page: Any, state: str) -> None:
    wait_for(f"the record's status line should be {state!r}, it is {status_line(page)!r}",
             lambda: status_line(page) == state, BACK)


def summary(rows: list[dict]) -> list[tuple]:
    return sorted((r["seed"], json.dumps(r["answer"]), r["correct"], r["hints"], r["shown"],
                   r["first"]) for r in rows)


def service_pid(hub: Hub) -> int | None:
    for pid in descendants(hub.process.pid):
        try:
            line = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"pangaea_lab.classroom.record.service" in line:
            return pid
    return None


# ----- the lesson ------------------------------------------------------------------------------

def test_students_answers_reach_the_teachers_dashboard_judged_by_the_server(
        hub: Hub, people: dict, driver: Any) -> None:
    exercise = generate(KEY, SEED)
    right, wrong = exercise.answer, wrong_answer(exercise)
    page, ann = lesson(hub, driver, ANN)
    wait_state(page, "kept")
    ann.answer(right=False)                      # wrong, first check
    ann.press("hint")
    ann.twin.show_hint()
    ann.expect_hints(1)                          # she reads the hint before she clears
    ann.clear()
    ann.answer(right=True)                       # right, after a wrong one, with a hint
    ann.another()
    ann.press("show-answer")                     # seed 4: the answer shown
    ann.twin.show_answer()
    page_b, ben = lesson(hub, driver, BEN)
    ben.answer(right=True)                       # right at once, no hint
    want = {ANN: [(SEED, str(wrong), False, 0, False, True),
                    (SEED, str(right), True, 1, False, False),
                    (SEED + 1, "null", False, 0, True, True)],
            BEN: [(SEED, str(right), True, 0, False, True)]}
    for name, rows in want.items():
        wait_for(f"{name}'s attempts did not all reach the record",
                 lambda: len(stored(hub, people, name)) == len(rows), BACK, hub.log)
        assert summary(stored(hub, people, name)) == sorted(rows)
    wait_state(page, "kept")
    assert "Kept on the class record." in page.locator(".pl-record-status").inner_text()

    board = browser_login(hub, driver, TEACHER, f"{PREFIX}dashboard")
    for name in STUDENTS:
        board.locator(f'button.student[data-student="{name}"]').first.wait_for(timeout=60_000)
    board.locator(f'button.student[data-student="{ANN}"]').first.click()
    board.wait_for_function(
        "() => document.querySelectorAll('#history-table tbody tr').length === 3",
        timeout=60_000)
    verdicts = board.locator("#history-table tbody td.verdict").all_inner_texts()
    assert sorted(v.split(":")[0] for v in verdicts) == ["◌ answer shown", "✓ right",
                                                          "✗ not right"]
    for context in (page.context, page_b.context, board.context):
        context.close()


def test_a_student_gets_403_on_the_dashboard_and_a_classmates_records(
        hub: Hub, people: dict, driver: Any) -> None:
    page = browser_login(hub, driver, BEN, f"{PREFIX}dashboard")
    answer = page.goto(f"{hub.url}{PREFIX}dashboard", wait_until="load", timeout=PAGE * 1000)
    assert answer.status == 403 and "for the class's teachers" in page.content()
    for path in (f"api/attempts/{ANN}", "api/class", "export.csv"):
        assert page.request.get(f"{hub.url}{PREFIX}{path}").status == 403, path
    own = page.request.get(f"{hub.url}{PREFIX}api/attempts")
    assert own.status == 200 and len(own.json()["attempts"]) == 1
    assert record_of(hub, people, ANN, reader=BEN).status_code == 403
    page.context.close()


# ----- what a student's own token can and cannot do ---------------------------------------------

def kernel_token(hub: Hub, people: dict, name: str) -> tuple[str, str]:
    """The token and the record's address a kernel of ``name`` sees (as the client reads them)."""
    code = ("import os; print(os.environ['JUPYTERHUB_API_TOKEN']); "
            "print(os.environ['PANGAEA_RECORD_URL'])")
    # in a thread of its own: Chromium's driver keeps an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        printed = pool.submit(kernel, hub, name, people[name]["server_token"], code).result()
    token, url = printed.split()[:2]
    return token, url


def post(url: str, token: str | None, body: Any, raw: bytes | None = None) -> requests.Response:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"token {token}"
    data = raw if raw is not None else json.dumps(body).encode()
    return requests.post(url + "api/attempts", data=data, headers=headers, timeout=60)


def attempt(ident: str, answer: Any, **more: Any) -> dict:
    return {"id": ident, "kind": KEY, "seed": 7, "level": 1, "answer": answer, "hints": 0,
            "shown": False, "first": True, "time": int(time.time() * 1000), **more}


def test_a_forged_right_is_refused_and_a_wrong_answer_is_stored_wrong(
        hub: Hub, people: dict) -> None:
    token, url = kernel_token(hub, people, ANN)
    assert url.startswith("http://127.0.0.1:") and url.endswith(PREFIX)
    before = len(stored(hub, people, ANN))
    wrong = generate(KEY, 7).answer + 2
    claim = post(url, token, {"attempts": [attempt("forged-1", wrong, correct=True)]})
    assert claim.status_code == 400 and "correct" in claim.json()["error"]
    assert len(stored(hub, people, ANN)) == before
    plain = post(url, token, {"attempts": [attempt("forged-2", wrong)]})
    assert plain.status_code == 200 and plain.json()["verdicts"]["forged-2"]["correct"] is False
    rows = {r["id"]: r for r in stored(hub, people, ANN)}
    assert rows["forged-2"]["correct"] is False and "forged-1" not in rows
    # what is kept of an attempt: the exercise, the answer, hints, shown, the verdict, two
    # times (the guide's privacy section says nothing else)
    assert set(rows["forged-2"]) == {"id", "kind", "seed", "level", "answer", "answer_text",
                                     "correct", "misconception", "hints", "shown", "first",
                                     "time", "received", "source"}
    again = post(url, token, {"attempts": [attempt("forged-2", wrong)]})
    assert again.json()["already"] == ["forged-2"]
    assert len(stored(hub, people, ANN)) == before + 1


def test_hostile_requests_are_refused_with_a_4xx_and_store_nothing(
        hub: Hub, people: dict) -> None:
    token, url = kernel_token(hub, people, BEN)
    expired = hub_api(hub, people[BEN]["session"], "POST", f"/users/{BEN}/tokens",
                      json={"note": "short", "expires_in": 1}).json()["token"]
    revoked_made = hub_api(hub, people[BEN]["session"], "POST", f"/users/{BEN}/tokens",
                           json={"note": "revoked", "expires_in": 3600}).json()
    gone = hub_api(hub, people[BEN]["session"], "DELETE",
                   f"/users/{BEN}/tokens/{revoked_made['id']}")
    assert gone.status_code == 204
    time.sleep(2)                        # the short token's second has passed
    before = summary(stored(hub, people, BEN))
    good = attempt("h-1", 5)
    cases = {
        "wrong types": (token, {"attempts": [attempt("h-2", 5, seed="seven")]}, None),
        "not JSON": (token, None, b"{not json"),
        "huge body": (token, None, b'{"attempts": [' + b" " * 400_000 + b"]}"),
        "too many": (token, {"attempts": [attempt(f"m-{k}", 5) for k in range(101)]}, None),
        "unknown kind": (token, {"attempts": [attempt("h-3", 5, kind="pangaea.no_such")]},
                         None),
        "unknown level": (token, {"attempts": [attempt("h-4", 5, level=9)]}, None),
        "another user's name": (token, {"attempts": [attempt("h-5", 5, user=ANN)]}, None),
        "a user field beside": (token, {"user": ANN, "attempts": [good]}, None),
        "no token": (None, {"attempts": [good]}, None),
        "a made-up token": ("0" * 32, {"attempts": [good]}, None),
        "an expired token": (expired, {"attempts": [good]}, None),
        "a revoked token": (revoked_made["token"], {"attempts": [good]}, None),
    }
    for what, (who, body, raw) in cases.items():
        answer = post(url, who, body, raw)
        assert 400 <= answer.status_code < 500, f"{what}: {answer.status_code} {answer.text}"
        assert answer.json().get("error"), what
    assert summary(stored(hub, people, BEN)) == before
    assert record_of(hub, people, ANN).status_code == 200


# ----- the service killed mid-lesson ---------------------------------------------------------------

def test_the_service_killed_mid_lesson_loses_nothing_and_doubles_nothing(
        hub: Hub, people: dict, driver: Any) -> None:
    before = stored(hub, people, ANN)
    pid = service_pid(hub)
    assert pid, "the class record service is not running under the hub"
    page, ann = lesson(hub, driver, ANN)      # a reload: a new kernel, the same outbox
    wait_state(page, "kept")
    # the service hangs mid-lesson, then dies: the hub starts a killed service again within
    # seconds, so it is first stopped where it stands (it answers nothing) while ann answers,
    # and killed once her answers wait in her home
    os.kill(pid, signal.SIGSTOP)
    try:
        ann.answer(right=False)
        wait_state(page, "waiting")
        assert "not answering" in page.locator(".pl-record-status").inner_text()
        ann.clear()
        ann.answer(right=True)
        outbox = hub.root / "home" / ANN / ".local" / "share" / "pangaea_lab" / "outbox.jsonl"
        info = outbox.stat()
        assert stat.S_IMODE(info.st_mode) == 0o600 and info.st_uid != 0
        assert len(outbox.read_text().splitlines()) == 2, outbox.read_text()  # in ann's home
    finally:
        os.kill(pid, signal.SIGKILL)
    wait_for("the killed service did not stop", lambda: not alive(pid), 30)
    wait_for("the hub did not start the service again",
             lambda: (service_pid(hub) or pid) != pid, BACK, hub.log)
    wait_state(page, "kept")
    after = stored(hub, people, ANN)
    ids = [r["id"] for r in after]
    assert len(ids) == len(set(ids)) == len(before) + 2
    right = generate(KEY, SEED).answer
    assert summary(after) == sorted(summary(before) + [
        (SEED, str(right + 1), False, 0, False, True), (SEED, str(right), True, 0, False, False)])
    assert outbox.read_text() == ""
    page.context.close()
