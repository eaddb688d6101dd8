"""Sending a student's answers to the class record, from their own kernel.

On the classroom hub (``classroom/jupyterhub_config.py``) with the class record on, the hub
gives every student's server two environment variables: ``PANGAEA_RECORD_URL`` (the
``class-record`` service's address inside the hub) and ``JUPYTERHUB_API_TOKEN`` (the
server's own token, which speaks for that student only).  Then :func:`connect` joins the
kernel's practice record to a :class:`Sender`: every Check and every Show answer made in
this kernel (:meth:`PracticeRecord.add <pangaea_lab.core.mastery.PracticeRecord.add>`) is
written first to an *outbox* in the student's own home
(``~/.local/share/pangaea_lab/outbox.jsonl``, readable by them only) and sent from there by
a background thread, so the widget never waits for the network:

* the service answers: the attempts it stored (or had already: each attempt has an id, so a
  resend is stored once) leave the outbox;
* the service is down, slow or restarting: the attempts stay in the outbox and are sent
  again later (waiting longer after each failure, at most :data:`LONGEST_WAIT` seconds); a
  new kernel (a reload, the next lesson) sends what an earlier one left;
* the service refuses an attempt (a 4xx answer for that attempt alone: it can never be
  stored): it leaves the outbox for ``refused.jsonl`` beside it, with the service's reason,
  and a line in the server's log, instead of being sent for ever.

The learner reads one quiet line of status under the progress line (:attr:`Sender.state`,
:meth:`Sender.text`).  Without both variables nothing is sent and nothing changes.
"""

from __future__ import annotations

import fcntl
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Mapping

from ..core import exercise_widget
from ..core.listeners import Listened
from ..core.mastery import Attempt, PracticeRecord

URL_VARIABLE = "PANGAEA_RECORD_URL"
TOKEN_VARIABLE = "JUPYTERHUB_API_TOKEN"
#: the outbox and the refusals, under the student's home
FOLDER = Path(".local") / "share" / "pangaea_lab"
#: what one request may carry (the service's own limits)
MAX_BATCH = 100
MAX_BODY = 256_000
#: seconds to wait for the service's answer to one request
TIMEOUT = 10.0
#: the longest wait (seconds) between tries while the service does not answer
LONGEST_WAIT = 60.0
#: the outbox lines read at once (a larger outbox is sent in turns)
MAX_READ = 5_000
#: answers that mean "not now" (the attempt is kept and sent again): no pass accepted yet,
#: not allowed yet, no service at that address, too slow, too many
RETRY = {401, 403, 404, 408, 425, 429}

#: what the learner reads, per state
TEXTS = {
    "kept": "Kept on the class record.",
    "waiting": ("The class record is not answering: your answers are kept here and sent "
                "when it is back."),
    "refused": ("The class record could not take one of your answers (your teacher can see "
                "why); the others are kept on it."),
}


class Outbox:
    """Attempts waiting to be sent, one JSON object a line, in a file only its owner can
    read; every change is made under a lock, so several kernels of one student share it."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / "outbox.jsonl"
        self.refused_path = self.folder / "refused.jsonl"

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle = os.open(self.folder / "outbox.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield
        finally:
            os.close(handle)            # closing lets the lock go

    def _append(self, path: Path, lines: list[str]) -> None:
        handle = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(handle, "a", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in lines))

    def put(self, item: dict) -> None:
        with self._locked():
            self._append(self.path, [json.dumps(item, separators=(",", ":"))])

    def _read(self) -> list[str]:
        try:
            with open(self.path, encoding="utf-8", errors="replace") as text:
                return [line for _, line in zip(range(MAX_READ), text) if line.strip()]
        except FileNotFoundError:
            return []

    def pending(self) -> list[dict]:
        """The attempts waiting (the first :data:`MAX_READ`); a line that is not an attempt
        is moved to the refusals."""
        with self._locked():
            items, bad = [], []
            for line in self._read():
                try:
                    item = json.loads(line)
                except ValueError:
                    item = None
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    items.append(item)
                else:
                    bad.append(line.strip()[:200])
            if bad:
                self._append(self.refused_path, [json.dumps(
                    {"time": int(time.time()), "error": "outbox: not an attempt",
                     "line": line}) for line in bad])
                self._remove_locked(set(), drop_bad=True)
        return items

    def remove(self, ids: set[str]) -> None:
        """Take the attempts ``ids`` out (sent, or refused for good)."""
        with self._locked():
            self._remove_locked(ids)

    def _remove_locked(self, ids: set[str], drop_bad: bool = False) -> None:
        try:
            with open(self.path, encoding="utf-8", errors="replace") as text:
                lines = text.readlines()
        except FileNotFoundError:
            return
        kept = []
        for line in lines:
            try:
                item = json.loads(line)
            except ValueError:
                item = None
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                if not drop_bad and line.strip():
                    kept.append(line)
            elif item["id"] not in ids:
                kept.append(line)
        fresh = self.path.with_name(self.path.name + ".new")
        handle = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write("".join(kept))
        os.replace(fresh, self.path)

    def refuse(self, item: dict, error: str) -> None:
        """Keep a refused attempt, with the reason, for the teacher; out of the outbox."""
        with self._locked():
            self._append(self.refused_path, [json.dumps(
                {"time": int(time.time()), "error": error[:300], "attempt": item})])
            self._remove_locked({item["id"]})


def wire(attempt: Attempt) -> dict | None:
    """The attempt as the service takes it (None when its raw answer is not known)."""
    if not attempt.given:
        return None
    try:
        answer = json.loads(attempt.given)
    except ValueError:
        return None
    return {"id": attempt.id, "kind": attempt.kind, "seed": attempt.seed,
            "level": attempt.level, "answer": answer, "hints": attempt.hints,
            "shown": attempt.shown, "first": attempt.first,
            "time": int(attempt.time * 1000)}


#: a poster: (url, body, token) -> (HTTP status, the answer's body); raises OSError when the
#: service cannot be reached
Post = Callable[[str, bytes, str], "tuple[int, bytes]"]

#: no proxy from the environment: the service is inside the hub
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_post(url: str, body: bytes, token: str) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Authorization": f"token {token}", "Content-Type": "application/json"})
    try:
        with _OPENER.open(request, timeout=TIMEOUT) as answer:
            return answer.status, answer.read(1_000_000)
    except urllib.error.HTTPError as error:
        return error.code, error.read(10_000)


def batches(items: list[dict]) -> Iterator[list[dict]]:
    """The items in requests of at most :data:`MAX_BATCH` attempts and :data:`MAX_BODY`
    bytes (an attempt too large on its own goes alone, to be refused alone)."""
    batch: list[dict] = []
    size = 20
    for item in items:
        length = len(json.dumps(item, separators=(",", ":")).encode()) + 1
        if batch and (len(batch) >= MAX_BATCH or size + length > MAX_BODY - 1000):
            yield batch
            batch, size = [], 20
        batch.append(item)
        size += length
    if batch:
        yield batch


def _error_text(body: bytes, status: int) -> str:
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        return f"{status}: {data['error'][:300]}"
    return f"{status}: the class record refused it"


class Sender(Listened):
    """Takes each new attempt into the outbox and sends the outbox from a background
    thread; :attr:`state` ("kept", "waiting" or "refused") says how it goes.

    :meth:`flush` sends everything once, in the caller's thread (the thread calls it; a test
    may too): True when the outbox is empty afterwards."""

    def __init__(self, url: str, token: str, outbox: Outbox, post: Post = http_post) -> None:
        self.url = url.rstrip("/") + "/api/attempts"
        self._token = token
        self.outbox = outbox
        self.post = post
        self.state = "kept"
        #: attempts the outbox could not hold (no room in the home folder): sent from memory
        self._memory: list[dict] = []
        self._memory_lock = threading.Lock()
        self._wake = threading.Event()
        self._sending = threading.Lock()
        self._thread: threading.Thread | None = None
        self.failures = 0
        self._refused_now = False

    def text(self) -> str:
        return TEXTS[self.state]

    def _set(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self._changed()

    def take(self, attempt: Attempt) -> None:
        """A new attempt (the record calls this; it never raises into the widget)."""
        try:
            item = wire(attempt)
            if item is None:
                return
            try:
                self.outbox.put(item)
            except OSError:
                with self._memory_lock:
                    self._memory.append(item)
        except Exception as error:      # the learner's answer was judged already: go on
            _log(f"an attempt could not be kept: {type(error).__name__}: {error}")
        self._wake.set()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="class-record-sender",
                                            daemon=True)
            self._thread.start()
            self._wake.set()        # what an earlier kernel left is sent at once

    def _run(self) -> None:
        while True:
            self._wake.wait(self._delay() if self.failures else None)
            self._wake.clear()
            try:
                self.flush()
            except Exception as error:   # the sender never stops: it tells the log, waits
                self.failures += 1
                _log(f"sending failed: {type(error).__name__}: {error}")

    def _delay(self) -> float:
        return min(LONGEST_WAIT, 2.0 ** min(self.failures, 10)) * random.uniform(0.5, 1.0)

    def flush(self) -> bool:
        with self._sending:
            try:
                items = self.outbox.pending()
            except OSError:
                items = []
            ids = {item["id"] for item in items}
            with self._memory_lock:
                items += [item for item in self._memory if item["id"] not in ids]
            if not items:           # nothing waits (another kernel may have sent it)
                self.failures = 0
                if self.state == "waiting":
                    self._set("kept")
                return True
            self._refused_now = False
            for batch in batches(items):
                if not self._send(batch):
                    self.failures += 1
                    self._set("waiting")
                    return False
            self.failures = 0
            # a refusal is said until answers are kept again
            self._set("refused" if self._refused_now else "kept")
            return True

    def _send(self, batch: list[dict]) -> bool:
        """One request; False when the service did not answer (everything is kept)."""
        body = json.dumps({"attempts": batch}, separators=(",", ":")).encode()
        try:
            status, answer = self.post(self.url, body, self._token)
        except (OSError, ValueError):
            return False
        if status == 200:
            return self._stored(batch, answer)
        if status in RETRY or status >= 500 or not 400 <= status < 500:
            return False
        if len(batch) > 1:          # one bad attempt refuses them all: find it alone
            return all(self._send([item]) for item in batch)
        self._refused(batch[0], _error_text(answer, status))
        return True

    def _stored(self, batch: list[dict], answer: bytes) -> bool:
        try:
            data = json.loads(answer)
            done = {i for i in data.get("stored", []) + data.get("already", [])
                    if isinstance(i, str)}
        except (ValueError, AttributeError, TypeError):
            return False
        self._forget(done & {item["id"] for item in batch})
        return all(item["id"] in done for item in batch)

    def _forget(self, ids: set[str]) -> None:
        with self._memory_lock:
            self._memory = [item for item in self._memory if item["id"] not in ids]
        try:
            self.outbox.remove(ids)
        except OSError:
            pass

    def _refused(self, item: dict, error: str) -> None:
        _log(f"attempt {item.get('id')!r} ({item.get('kind')!r}) refused: {error}")
        with self._memory_lock:
            self._memory = [kept for kept in self._memory if kept["id"] != item["id"]]
        try:
            self.outbox.refuse(item, error)
        except OSError:
            pass
        self._refused_now = True


def _log(message: str) -> None:
    """A line in the server's log (the kernel's own error stream, which the learner's page
    does not show)."""
    try:
        print(f"pangaea_lab class record: {message}", file=sys.__stderr__, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def connect(record: PracticeRecord, environ: Mapping[str, str] | None = None,
            home: Path | None = None, post: Post = http_post) -> Sender | None:
    """Join ``record`` to the class record when the environment names it (else None and
    nothing changes); joining twice gives the same sender."""
    environ = os.environ if environ is None else environ
    url, token = environ.get(URL_VARIABLE, ""), environ.get(TOKEN_VARIABLE, "")
    if not url or not token:
        return None
    if isinstance(record.link, Sender):
        return record.link
    if not url.startswith(("http://", "https://")) or len(url) > 500 or len(token) > 500:
        _log(f"{URL_VARIABLE} is not an http(s) address of at most 500 characters: not sending")
        return None
    sender = Sender(url, token, Outbox((home or Path.home()) / FOLDER), post)
    record.on_new.append(sender.take)
    record.link = sender
    sender.start()
    return sender


def connect_kernel() -> Sender | None:
    """Join this kernel's practice record (when the hub asked for it)."""
    return connect(exercise_widget.RECORD)


def pending_count(home: Path | None = None) -> int:
    """How many attempts wait in the outbox (for a teacher's check on a student's server)."""
    return len(Outbox((home or Path.home()) / FOLDER).pending())


__all__ = ["Outbox", "Sender", "connect", "connect_kernel", "wire", "batches", "TEXTS",
           "pending_count"]
