"""The class record's sender in a student's kernel (pangaea_lab.classroom.record_client):
answers given in the exercise widget go to an outbox in the student's home and from there to
the service; a service that is down loses nothing, a resend is taken once, a refusal is kept
for the teacher, and without the hub's environment nothing changes.  The service is stood in
for by a small function (and, for the real HTTP path, a local HTTP server)."""

from __future__ import annotations

import io
import json
import stat
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pangaea_lab import exercises
from pangaea_lab.classroom import record_client as rc
from pangaea_lab.core.errors import InvalidData
from pangaea_lab.core.exercise_widget import (ExerciseModel, ExerciseProgress, given_json,
                                              progress_widget)
from pangaea_lab.core.mastery import MAX_GIVEN, Attempt, PracticeRecord, read_attempts

ENV = {rc.URL_VARIABLE: "http://127.0.0.1:9/services/class-record/",
       rc.TOKEN_VARIABLE: "secret-token"}
KINDS = {"number": "pangaea.seeds_needed", "choice": "pangaea.setup_order",
         "choices": "pangaea.favor_cards", "cells": "pangaea.okuma_direct",
         "path": "pangaea.land_path"}


class Service:
    """Stands in for the service: stores each id once, refuses what ``refuse`` says, or is
    down (raises as an unreachable address does) while ``down`` is set."""

    def __init__(self) -> None:
        self.stored: dict[str, dict] = {}
        self.requests: list[dict] = []
        self.down = False
        self.status = 200
        self.refuse: set[str] = set()

    def __call__(self, url: str, body: bytes, token: str) -> tuple[int, bytes]:
        if self.down:
            raise ConnectionRefusedError("connection refused")
        data = json.loads(body)
        self.requests.append({"url": url, "token": token, "body": data})
        if self.status != 200:
            return self.status, b'{"error": "token: not accepted"}'
        bad = [a["id"] for a in data["attempts"] if a["id"] in self.refuse]
        if bad:
            return 400, json.dumps({"error": f"attempts[0].kind: unknown ({bad[0]})"}).encode()
        new = [a for a in data["attempts"] if a["id"] not in self.stored]
        old = [a["id"] for a in data["attempts"] if a["id"] in self.stored]
        self.stored.update({a["id"]: a for a in new})
        return 200, json.dumps({"stored": [a["id"] for a in new], "already": old,
                                "verdicts": {}}).encode()


def answer(model: ExerciseModel, right: bool) -> None:
    """Give the engine's answer (``right``) or a wrong one, by the widget's own controls."""
    kind, key = model.answer_kind, model.exercise.answer
    if kind == "number":
        model.set_number(str(key if right else key + 1))
    elif kind == "choice":
        keys = [o.key for o in model.exercise.options]
        model.choose(key if right else next(k for k in keys if k != key))
    elif kind == "choices":
        keys = [o.key for o in model.exercise.options]
        for k in (key if right else set(keys) - set(key)):
            model.choose(k)
    else:
        for cell in (key if right else ()):
            model.click(cell)
        if kind == "path" and not right:
            model.click(key[-1])


def from_given(kind: str, text: str):
    """The answer back from its JSON text, in the shape Exercise.check takes."""
    value = json.loads(text)
    if kind == "cells":
        return frozenset(tuple(c) for c in value)
    if kind == "path":
        return tuple(tuple(c) for c in value)
    if kind == "choices":
        return frozenset(value)
    return value


@pytest.fixture
def linked(tmp_path):
    """A record joined to a stand-in service (the sender thread not started: flush() is
    called as the thread would)."""
    record, service = PracticeRecord(), Service()
    sender = rc.Sender(ENV[rc.URL_VARIABLE], "secret-token", rc.Outbox(tmp_path / rc.FOLDER),
                       service)
    record.on_new.append(sender.take)
    record.link = sender
    return record, sender, service


# ----- the raw answer kept with each attempt -------------------------------------------------

@pytest.mark.parametrize("answer_kind", sorted(KINDS))
def test_each_check_keeps_the_raw_answer_which_judges_the_same(answer_kind):
    record = PracticeRecord()
    model = ExerciseModel(KINDS[answer_kind], seed=3, record=record)
    assert model.answer_kind == answer_kind
    for right in (False, True):
        answer(model, right)
        verdict = model.check()
        given = record.attempts[-1].given
        again = model.exercise.check(from_given(answer_kind, given))
        assert (verdict.correct, again.correct) == (right, right)
        model.clear()
    model.show_answer()
    assert record.attempts[-1].shown and record.attempts[-1].given == "null"


def test_the_raw_answer_is_saved_in_the_progress_file_and_old_files_still_read():
    record = PracticeRecord()
    record.add(Attempt("demo.sum", 1, 1, "5", True, first=True, given="5"))
    record.add(Attempt("demo.sum", 2, 1, "", False, shown=True))
    text = record.to_json()
    back = read_attempts(text)
    assert [a.given for a in back] == ["5", ""]
    assert '"given"' in text and text.count('"given"') == 1    # left out when not known
    old = json.loads(text)
    for row in old["attempts"]:
        row.pop("given", None)
    assert [a.given for a in read_attempts(json.dumps(old))] == ["", ""]


def test_a_raw_answer_of_the_wrong_type_or_too_long_is_refused_naming_the_field():
    record = PracticeRecord()
    record.add(Attempt("demo.sum", 1, 1, "5", True, given="5"))
    data = json.loads(record.to_json())
    data["attempts"][0]["given"] = 5
    with pytest.raises(InvalidData, match=r"attempts\[0\]\.given"):
        read_attempts(json.dumps(data))
    data["attempts"][0]["given"] = "1" * (MAX_GIVEN + 1)
    with pytest.raises(InvalidData, match=r"attempts\[0\]\.given"):
        read_attempts(json.dumps(data))


def test_given_json_sorts_a_set_and_writes_spaces_as_lists():
    assert given_json(frozenset({(2, 1), (0, 3)})) == "[[0,3],[2,1]]"
    assert given_json(((1, 1), (0, 2))) == "[[1,1],[0,2]]"
    assert given_json(frozenset({"b", "a"})) == '["a","b"]'
    assert given_json(12) == "12" and given_json("x") == '"x"'


# ----- sending -------------------------------------------------------------------------------

def test_without_the_hubs_environment_nothing_is_sent_and_nothing_changes(tmp_path):
    record = PracticeRecord()
    for environ in ({}, {rc.URL_VARIABLE: "http://x/"}, {rc.TOKEN_VARIABLE: "t"}):
        assert rc.connect(record, environ, home=tmp_path) is None
    assert record.link is None and record.on_new == []
    ExerciseModel(KINDS["number"], seed=1, record=record).show_answer()
    assert not (tmp_path / rc.FOLDER).exists()
    box = progress_widget(ExerciseProgress(record))
    assert "pl-record-status" not in str([c._dom_classes for c in box.children])


def test_every_check_and_show_answer_is_sent_with_its_raw_answer(linked):
    record, sender, service = linked
    model = ExerciseModel(KINDS["number"], seed=5, record=record)
    answer(model, False)
    model.check()
    model.show_hint()
    answer(model, True)
    model.check()
    model.show_answer()
    assert sender.flush() and sender.state == "kept"
    sent = service.requests[0]["body"]["attempts"]
    assert service.requests[0]["url"].endswith("/services/class-record/api/attempts")
    assert service.requests[0]["token"] == "secret-token"
    right = model.exercise.answer
    assert [(a["answer"], a["hints"], a["shown"], a["first"]) for a in sent] == [
        (right + 1, 0, False, True), (right, 1, False, False), (None, 1, True, False)]
    assert [a["id"] for a in sent] == [a.id for a in record.attempts]
    assert set(sent[0]) == {"id", "kind", "seed", "level", "answer", "hints", "shown",
                            "first", "time"}          # no verdict is ever claimed
    assert sent[0]["kind"] == KINDS["number"] and sent[0]["seed"] == 5
    assert rc.pending_count(sender.outbox.folder.parents[2]) == 0


def test_the_outbox_is_readable_by_its_owner_only(linked):
    record, sender, service = linked
    service.down = True
    ExerciseModel(KINDS["choice"], seed=1, record=record).show_answer()
    assert stat.S_IMODE(sender.outbox.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(sender.outbox.folder.stat().st_mode) == 0o700


def test_a_service_that_is_down_loses_nothing_and_gets_everything_once_back(linked):
    record, sender, service = linked
    service.down = True
    model = ExerciseModel(KINDS["choice"], seed=2, record=record)
    for right in (False, True, True):
        answer(model, right)
        model.check()
        assert not sender.flush()
    assert sender.state == "waiting" and "not answering" in sender.text()
    assert len(sender.outbox.pending()) == 3
    service.down = False
    assert sender.flush() and sender.state == "kept"
    assert sorted(service.stored) == sorted(a.id for a in record.attempts)
    assert sender.outbox.pending() == []


def test_what_another_kernel_sent_leaves_this_one_at_rest(linked):
    record, sender, service = linked
    service.down = True
    ExerciseModel(KINDS["number"], seed=1, record=record).show_answer()
    assert not sender.flush() and sender.state == "waiting"
    service.down = False
    other = rc.Sender(ENV[rc.URL_VARIABLE], "t", sender.outbox, service)   # a second kernel
    assert other.flush() and len(service.stored) == 1
    assert sender.flush() and sender.state == "kept" and sender.failures == 0


def test_a_resend_is_taken_once(linked):
    record, sender, service = linked
    model = ExerciseModel(KINDS["number"], seed=1, record=record)
    model.show_answer()
    item = sender.outbox.pending()[0]
    assert sender.flush()
    sender.outbox.put(item)            # sent again (as after an answer that was lost)
    assert sender.flush() and sender.outbox.pending() == []
    assert len(service.stored) == 1 and len(service.requests) == 2


def test_a_refused_attempt_is_kept_for_the_teacher_and_not_sent_again(linked, monkeypatch):
    record, sender, service = linked
    log = io.StringIO()             # the kernel's own error stream: the server's log
    monkeypatch.setattr(sys, "__stderr__", log)
    model = ExerciseModel(KINDS["number"], seed=1, record=record)
    answer(model, True)
    model.check()
    model.show_answer()
    bad = record.attempts[0].id
    service.refuse = {bad}
    assert sender.flush()
    assert sender.state == "refused" and "teacher" in sender.text()
    assert list(service.stored) == [record.attempts[1].id]
    assert sender.outbox.pending() == []
    kept = [json.loads(line) for line in sender.outbox.refused_path.read_text().splitlines()]
    assert [k["attempt"]["id"] for k in kept] == [bad] and "kind" in kept[0]["error"]
    asked = len(service.requests)
    assert sender.flush() and len(service.requests) == asked      # not tried again
    assert sender.state == "refused"
    ExerciseModel(KINDS["number"], seed=2, record=record).show_answer()
    assert sender.flush() and sender.state == "kept"              # kept again, said so
    assert f"attempt '{bad}'" in log.getvalue() and "refused: 400" in log.getvalue()


@pytest.mark.parametrize("status", [401, 403, 500, 503])
def test_a_token_not_accepted_yet_or_a_failing_service_keeps_the_attempts(linked, status):
    record, sender, service = linked
    ExerciseModel(KINDS["number"], seed=1, record=record).show_answer()
    service.status = status
    assert not sender.flush() and sender.state == "waiting"
    assert len(sender.outbox.pending()) == 1 and sender.failures == 1
    service.status = 200
    assert sender.flush() and len(service.stored) == 1


def test_batches_stay_within_the_services_limits():
    items = [{"id": f"a{k}", "answer": "x" * 3000} for k in range(250)]
    sizes = [len(b) for b in rc.batches(items)]
    assert sum(sizes) == 250 and max(sizes) <= rc.MAX_BATCH
    for batch in rc.batches(items):
        assert len(json.dumps({"attempts": batch}).encode()) <= rc.MAX_BODY
    many = [{"id": f"b{k}"} for k in range(230)]
    assert [len(b) for b in rc.batches(many)] == [100, 100, 30]


def test_a_broken_outbox_line_is_set_aside_and_the_rest_is_sent(linked):
    record, sender, service = linked
    ExerciseModel(KINDS["number"], seed=1, record=record).show_answer()
    with open(sender.outbox.path, "a") as out:
        out.write("not json\n[1, 2]\n")
    assert sender.flush() and len(service.stored) == 1
    assert sender.outbox.path.read_text() == ""
    assert "not an attempt" in sender.outbox.refused_path.read_text()


def test_a_home_that_cannot_be_written_breaks_nothing(tmp_path):
    (tmp_path / ".local").write_text("a file where the folder would be")
    record, service = PracticeRecord(), Service()
    sender = rc.Sender("http://127.0.0.1:9/", "t", rc.Outbox(tmp_path / rc.FOLDER), service)
    record.on_new.append(sender.take)
    model = ExerciseModel(KINDS["number"], seed=1, record=record)
    answer(model, True)
    assert model.check().correct            # the widget answers as always
    assert sender.flush() and len(service.stored) == 1    # sent from memory


def test_a_sender_that_fails_unexpectedly_never_breaks_the_widget(tmp_path, monkeypatch):
    log = io.StringIO()
    monkeypatch.setattr(sys, "__stderr__", log)
    record = PracticeRecord()
    sender = rc.Sender("http://127.0.0.1:9/", "t", rc.Outbox(tmp_path), Service())

    def broken(item):
        raise RuntimeError("something unforeseen")
    monkeypatch.setattr(sender.outbox, "put", broken)
    record.on_new.append(sender.take)
    model = ExerciseModel(KINDS["number"], seed=1, record=record)
    answer(model, True)
    assert model.check().correct and len(record.attempts) == 1
    assert "could not be kept: RuntimeError" in log.getvalue()


def test_a_new_kernel_sends_what_an_earlier_one_left(tmp_path):
    """Two connects on two records (two kernels, one home): the first one's attempts wait in
    the outbox while the service is down; the second kernel's sender thread sends them."""
    service = Service()
    service.down = True
    first = PracticeRecord()
    sender = rc.connect(first, ENV, home=tmp_path, post=service)
    assert rc.connect(first, ENV, home=tmp_path, post=service) is sender     # once per record
    for seed in (1, 2):
        ExerciseModel(KINDS["number"], seed=seed, record=first).show_answer()
    waited = time.monotonic() + 60
    while sender.state != "waiting" and time.monotonic() < waited:
        time.sleep(0.05)
    assert sender.state == "waiting" and rc.pending_count(tmp_path) == 2
    service.down = False
    second = PracticeRecord()
    rc.connect(second, ENV, home=tmp_path, post=service)
    waited = time.monotonic() + 60
    # the sender empties the outbox once the service has answered: both are waited for
    while ((len(service.stored) < 2 or rc.pending_count(tmp_path))
           and time.monotonic() < waited):
        time.sleep(0.05)
    assert sorted(service.stored) == sorted(a.id for a in first.attempts)
    assert rc.pending_count(tmp_path) == 0


def test_the_learner_reads_one_quiet_line_in_plain_words(linked):
    record, sender, service = linked
    box = progress_widget(ExerciseProgress(record))
    line = next(c for c in box.children if "pl-record-status" in c._dom_classes)
    assert "Kept on the class record." in line.value
    service.down = True
    ExerciseModel(KINDS["number"], seed=1, record=record).show_answer()
    sender.flush()
    assert rc.TEXTS["waiting"] in line.value and 'data-state="waiting"' in line.value
    service.down = False
    sender.flush()
    assert "Kept on the class record." in line.value


def test_an_address_that_is_not_http_is_not_used(tmp_path):
    record = PracticeRecord()
    assert rc.connect(record, {rc.URL_VARIABLE: "file:///etc/passwd",
                               rc.TOKEN_VARIABLE: "t"}, home=tmp_path) is None
    assert record.on_new == []


# ----- the real HTTP request -----------------------------------------------------------------

def test_http_post_sends_the_token_and_reads_a_refusal():
    seen = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            seen["auth"] = self.headers["Authorization"]
            seen["type"] = self.headers["Content-Type"]
            seen["body"] = self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(400 if b"bad" in seen["body"] else 200)
            self.end_headers()
            self.wfile.write(b'{"error": "attempts[0].kind: unknown"}')

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/api/attempts"
        assert rc.http_post(url, b'{"ok": 1}', "tok")[0] == 200
        assert seen == {"auth": "token tok", "type": "application/json", "body": b'{"ok": 1}'}
        status, body = rc.http_post(url, b'"bad"', "tok")
        assert status == 400 and b"kind" in body
    finally:
        server.shutdown()
        server.server_close()
    with pytest.raises(OSError):
        rc.http_post(url, b"{}", "tok")             # nobody listens there any more


def test_the_games_exercises_module_joins_the_kernels_record_only_under_the_hub():
    from pangaea_lab.core import exercise_widget
    assert exercises.record() is exercise_widget.RECORD
    assert exercise_widget.RECORD.link is None      # no hub here: nothing joined


# ----- what is sent is what the service judges -------------------------------------------------

@pytest.mark.parametrize("answer_kind", sorted(KINDS))
def test_the_service_judges_what_the_kernel_sends_as_the_widget_did(answer_kind, linked):
    """Every answer shape, right, wrong and shown, sent as the sender sends it, read and
    judged by the service's own judge: the same verdict as the learner saw."""
    from pangaea_lab.classroom.record.judge import judge, read_batch
    record, sender, service = linked
    model = ExerciseModel(KINDS[answer_kind], seed=4, record=record)
    seen = []
    for right in (False, True):
        answer(model, right)
        seen.append(model.check().correct)
        model.clear()
    model.show_answer()
    seen.append(False)
    assert sender.flush()
    body = json.dumps(service.requests[0]["body"]).encode()
    judged = [judge(item) for item in read_batch(body)]
    assert [j.correct for j in judged] == seen == [False, True, False]
    assert [j.id for j in judged] == [a.id for a in record.attempts]
