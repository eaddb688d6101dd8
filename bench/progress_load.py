"""A class sends its answers to the class record: N students, 100 attempts each.

``make progress-load N=30`` (as root; not part of ``make test``).  The script starts the
classroom hub as ``make test-hub`` does (tests/hub/hub_support.py: classroom/jupyterhub_config.py
on free ports, a roster s01..sNN with generated passwords, the ``class-record`` service on
SQLite, or on PostgreSQL with ``--database URL``), waits until the service answers, logs every
student in through the hub's login form and gives each an API token of their own (the hub's
tokens: the same identity their kernel's token carries).  Then every student, in a thread of
their own, sends their attempts one request at a time, as a kernel does after each Check,
spread over ``--minutes`` (default 5) with random gaps: each attempt a real exercise
(kinds of every game, seeds 0..19) answered right, wrong (a number one off) or with the
answer shown, judged by the service with the engine.  One request in ten sends an earlier
attempt again (as an outbox does after a lost answer).

It prints the write latency (the time from sending a request to its answer: median, 95th
percentile, slowest), the machine's load average at the start, its highest 1-minute value
during the run and at the end, and checks, reading each student's record back, that every
attempt was stored exactly once (resends answered "already").  The goal: p95 under 100 ms
and every attempt stored once; the exit status is 1 when either is missed.  The hub is then
stopped and the sNN users it made removed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "hub"))

from hub_support import SPAWN, Hub, alive, descendants, free_port, log_in, wait_for  # noqa: E402

from pangaea_lab.core.exercise_widget import given_json  # noqa: E402
from pangaea_lab.exercises import registry  # noqa: E402

GOAL_MS = 100.0
ATTEMPTS = 100
PREFIX = "/services/class-record/"
#: kinds sent (the first of each answer shape in each game, so the judge's work is mixed)
SEEDS = range(20)


@dataclass
class Student:
    name: str
    token: str = ""
    sent: dict[str, dict] = field(default_factory=dict)     # id -> attempt
    latencies: list[float] = field(default_factory=list)    # ms
    resent: int = 0
    already: int = 0
    errors: list[str] = field(default_factory=list)


def exercises_to_send(seeds: range = SEEDS) -> list[tuple[str, int, int, object, bool]]:
    """(kind, seed, level, answer, shown) for a mix of kinds: right answers, numbers one off,
    and shown answers (answer null), from the engine."""
    picked: dict[tuple[str, str], str] = {}
    for kind in registry():
        ex = kind.generate(0, 1)
        picked.setdefault((kind.game, ex.answer_kind), kind.key)
    out = []
    kinds = {k.key: k for k in registry()}
    for key in sorted(picked.values()):
        for seed in seeds:
            ex = kinds[key].generate(seed, 1)
            out.append((key, seed, 1, json.loads(given_json(ex.answer)), False))
            if ex.answer_kind == "number":
                out.append((key, seed, 1, ex.answer + 1, False))
            out.append((key, seed, 1, None, True))
    return out


def attempt(student: Student, number: int, pool: list, rng: random.Random) -> dict:
    key, seed, level, answer, shown = rng.choice(pool)
    return {"id": f"{student.name}-{number:04d}", "kind": key, "seed": seed, "level": level,
            "answer": answer, "hints": rng.choice((0, 0, 0, 1)), "shown": shown,
            "first": True, "time": int(time.time() * 1000)}


def send(session: requests.Session, url: str, student: Student, item: dict) -> dict | None:
    body = json.dumps({"attempts": [item]}).encode()
    began = time.perf_counter()
    try:
        answer = session.post(url, data=body, timeout=60, headers={
            "Authorization": f"token {student.token}", "Content-Type": "application/json"})
    except requests.RequestException as error:
        student.errors.append(f"{type(error).__name__}: {error}")
        return None
    student.latencies.append((time.perf_counter() - began) * 1000)
    if answer.status_code != 200:
        student.errors.append(f"{answer.status_code}: {answer.text[:200]}")
        return None
    return answer.json()


def run_student(url: str, student: Student, pool: list, seconds: float, seed: int,
                start: threading.Event) -> None:
    rng = random.Random(seed)
    gap = seconds / ATTEMPTS
    session = requests.Session()
    session.trust_env = False
    start.wait()
    time.sleep(rng.uniform(0, gap))
    for number in range(ATTEMPTS):
        item = attempt(student, number, pool, rng)
        if send(session, url, student, item) is not None:
            student.sent[item["id"]] = item
        if student.sent and rng.random() < 0.1:            # an outbox's resend
            again = student.sent[rng.choice(list(student.sent))]
            answer = send(session, url, student, again)
            student.resent += 1
            if answer is not None and answer.get("already") == [again["id"]]:
                student.already += 1
        time.sleep(rng.uniform(0.5, 1.5) * gap)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def stored_once(hub_url: str, cert: str, student: Student) -> str:
    """"" when the student's record holds every attempt sent, each once; else what is wrong."""
    answer = requests.get(f"{hub_url}{PREFIX}api/attempts", verify=cert, timeout=120,
                          headers={"Authorization": f"token {student.token}"})
    if answer.status_code != 200:
        return f"{student.name}: the record could not be read ({answer.status_code})"
    ids = [row["id"] for row in answer.json()["attempts"]]
    if len(ids) != len(set(ids)):
        return f"{student.name}: {len(ids) - len(set(ids))} attempts stored twice"
    if set(ids) != set(student.sent):
        return (f"{student.name}: {len(set(student.sent) - set(ids))} attempts missing, "
                f"{len(set(ids) - set(student.sent))} unknown")
    return ""


def report(students: list[Student], loads: dict[str, float], problems: list[str]) -> bool:
    latencies = [ms for s in students for ms in s.latencies]
    median, p95 = statistics.median(latencies), percentile(latencies, 0.95)
    sent = sum(len(s.sent) for s in students)
    print(f"{len(students)} students, {sent} attempts stored "
          f"(+{sum(s.resent for s in students)} resends, "
          f"{sum(s.already for s in students)} answered 'already'), "
          f"{len(latencies)} requests")
    print(f"write latency: median {median:.1f} ms, 95th percentile {p95:.1f} ms, "
          f"slowest {max(latencies):.1f} ms (goal: p95 under {GOAL_MS:.0f} ms)")
    print(f"load average (1 min): {loads['start']:.2f} at the start, {loads['peak']:.2f} at "
          f"the highest, {loads['end']:.2f} at the end, on {os.cpu_count()} cores")
    errors = [e for s in students for e in s.errors]
    for line in problems + errors[:10]:
        print("  problem:", line)
    ok = p95 < GOAL_MS and not problems and not errors and \
        all(s.already == s.resent for s in students)
    print("every attempt stored once" if not problems else "NOT every attempt stored once")
    print("goal met" if ok else "goal missed")
    return ok


def log_everyone_in(hub: Hub, students: list[Student]) -> None:
    for student in students:
        session = log_in(hub, student.name, hub.password(student.name))
        if not session.logged_in:
            raise SystemExit(f"{student.name} could not log in")
        xsrf = session.cookies.get("_xsrf", path="/hub/") or session.cookies.get("_xsrf") or ""
        made = session.post(f"{hub.url}/hub/api/users/{student.name}/tokens", timeout=60,
                            headers={"X-XSRFToken": xsrf}, json={"note": "progress-load",
                                                                 "expires_in": 7200})
        if made.status_code not in (200, 201):
            raise SystemExit(f"{student.name} got no token: {made.text[:200]}")
        student.token = made.json()["token"]


def load_peak(stop: threading.Event, loads: dict[str, float]) -> None:
    while not stop.wait(2):
        loads["peak"] = max(loads["peak"], os.getloadavg()[0])


def lesson(hub: Hub, port: int, students: list[Student], minutes: float) -> dict:
    url = f"http://127.0.0.1:{port}{PREFIX}api/attempts"
    pool = exercises_to_send()
    start, stop = threading.Event(), threading.Event()
    loads = {"start": os.getloadavg()[0], "peak": os.getloadavg()[0]}
    threads = [threading.Thread(target=run_student, args=(url, s, pool, minutes * 60, k, start))
               for k, s in enumerate(students)]
    watcher = threading.Thread(target=load_peak, args=(stop, loads), daemon=True)
    for thread in threads + [watcher]:
        thread.start()
    start.set()
    for thread in threads:
        thread.join()
    stop.set()
    loads["end"] = os.getloadavg()[0]
    return loads


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30, help="how many (1 to 200)")
    parser.add_argument("--minutes", type=float, default=5.0,
                        help="over how long each student sends 100 attempts (default 5)")
    parser.add_argument("--database", default="",
                        help="a PostgreSQL URL for the record (default: SQLite in the hub's "
                             "state folder)")
    args = parser.parse_args(argv)
    if not 1 <= args.students <= 200 or not 0.1 <= args.minutes <= 60:
        parser.error("--students is 1 to 200 and --minutes 0.1 to 60")
    if os.geteuid() != 0:
        raise SystemExit("The classroom hub makes a system user per student: run this as root")
    names = [f"s{k:02d}" for k in range(1, args.students + 1)]
    logs = REPO / "build" / "progress-load"
    logs.mkdir(parents=True, exist_ok=True)
    port = free_port()
    settings = {"PANGAEA_HUB_RECORD_PORT": str(port)}
    if args.database:
        settings["PANGAEA_HUB_RECORD_DB"] = args.database
    hub = Hub("# load test\n" + "\n".join(names) + "\n", settings, logs)
    try:
        wait_for("the hub did not answer /hub/health", hub.healthy, SPAWN, hub.log)
        wait_for("the class record did not answer", lambda: _answers(port), SPAWN, hub.log)
        students = [Student(name) for name in names]
        log_everyone_in(hub, students)
        print(f"{len(students)} students logged in; sending for {args.minutes:g} minutes")
        loads = lesson(hub, port, students, args.minutes)
        problems = [p for p in (stored_once(hub.url, str(hub.cert), s) for s in students) if p]
        return 0 if report(students, loads, problems) else 1
    finally:
        family = descendants(hub.process.pid)
        hub.stop()
        for pid in family:
            if alive(pid):
                os.kill(pid, 9)
        hub.clean_up(names)


def _answers(port: int) -> bool:
    try:
        return requests.get(f"http://127.0.0.1:{port}{PREFIX}api/attempts",
                            timeout=5).status_code == 401
    except requests.RequestException:
        return False


if __name__ == "__main__":
    sys.exit(main())
