"""Local worker processes for the simulation lab, that behave in a plain script.

Each worker is a fresh Python started as ``python -m pangaea_lab.sim.workers``; it never
imports the calling script, so ``simulate(..., workers=2)`` works in a script without an
``if __name__ == "__main__":`` guard.  Tasks and results travel as pickles over the worker's
standard input and a private copy of its standard output.  A worker

* runs in its own session, so a Ctrl-C in the terminal reaches only the parent (which prints
  one line and keeps what was done), never the workers;
* ends when its parent ends, however it ends (even ``kill -9``): it watches its parent and
  its input pipe, and leaves within a fraction of a second.
"""

from __future__ import annotations

import atexit
import os
import pickle
import selectors
import signal
import struct
import subprocess
import sys
import threading
import time
from typing import Any, Iterable, Iterator

from .play import play_chunk

HEADER = struct.Struct("!Q")
#: how often a worker checks that its parent is still there (seconds)
WATCH_SECONDS = 0.2


# ----- the worker side ----------------------------------------------------------------------

def _read_message(stream: Any) -> Any:
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        raise EOFError
    size = HEADER.unpack(head)[0]
    body = stream.read(size)
    if len(body) < size:
        raise EOFError
    return pickle.loads(body)


def _write_message(stream: Any, message: Any) -> None:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(body)) + body)
    stream.flush()


def _watch_parent(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(0)
        time.sleep(WATCH_SECONDS)


def _error(exc: BaseException) -> Any:
    """An exception as it can travel back (itself if it pickles, else its words)."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any exception that does not pickle travels as words
        return f"{type(exc).__name__}: {exc}"


def worker_main() -> None:
    """Play the tasks read from standard input until it closes (or the parent is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = int(os.environ.get("PANGAEA_LAB_PARENT", os.getppid()))
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)                      # anything printed goes to the terminal, not the pipe
    tasks = sys.stdin.buffer
    try:
        sys.path[:] = _read_message(tasks)
        while True:
            spec, seeds = _read_message(tasks)
            try:
                _write_message(results, ("ok", play_chunk(spec, seeds)))
            except Exception as exc:  # noqa: BLE001 - reported to the parent, which raises
                _write_message(results, ("error", _error(exc)))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        pass


# ----- the parent side ----------------------------------------------------------------------

class WorkerDied(Exception):
    """A worker process ended while it had a task."""


class Worker:
    def __init__(self) -> None:
        env = {**os.environ, "PANGAEA_LAB_PARENT": str(os.getpid())}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pangaea_lab.sim.workers"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=env, start_new_session=True)
        self.send(list(sys.path))

    def send(self, message: Any) -> None:
        _write_message(self.proc.stdin, message)

    def receive(self) -> Any:
        try:
            return _read_message(self.proc.stdout)
        except EOFError:
            code = self.proc.wait()
            raise WorkerDied(f"a worker process ended unexpectedly (exit code {code})") from None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self, kill: bool) -> None:
        if kill:
            self.proc.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()   # closing its input ends a waiting worker
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class WorkerPool:
    """``n`` worker processes playing tasks ``(spec, seeds)``, one at a time each."""

    def __init__(self, n: int) -> None:
        self.workers: list[Worker] = []
        try:
            for _ in range(n):
                self.workers.append(Worker())
        except BaseException:
            self.close(kill=True)
            raise

    def alive(self) -> bool:
        return bool(self.workers) and all(w.alive() for w in self.workers)

    def run(self, tasks: Iterable[tuple[Any, list[int]]]) -> Iterator[Any]:
        """Each task's result as it finishes (any order); a task's error is raised here."""
        feed = iter(tasks)
        idle = list(self.workers)
        busy: dict[Worker, Any] = {}
        with selectors.DefaultSelector() as selector:
            for worker in self.workers:
                selector.register(worker.proc.stdout, selectors.EVENT_READ, worker)
            while True:
                while idle:
                    task = next(feed, None)
                    if task is None:
                        break
                    worker = idle.pop()
                    worker.send(task)
                    busy[worker] = task
                if not busy:
                    return
                for key, _ in selector.select():
                    worker = key.data
                    status, value = worker.receive()
                    del busy[worker]
                    idle.append(worker)
                    if status == "error":
                        raise value if isinstance(value, BaseException) else RuntimeError(value)
                    yield value

    def close(self, kill: bool = False) -> None:
        while self.workers:
            self.workers.pop().stop(kill)


_POOL: dict[int, WorkerPool] = {}


def pool(n: int) -> WorkerPool:
    """The kept pool of ``n`` workers (starting Python processes costs about a second, as much
    as many games, so a session reuses them); a fresh one if it is gone."""
    kept = _POOL.get(n)
    if kept is None or not kept.alive():
        if kept is not None:
            kept.close(kill=True)
        kept = _POOL[n] = WorkerPool(n)
    return kept


def discard(n: int) -> None:
    """End the pool of ``n`` workers at once (after an interruption or an error)."""
    kept = _POOL.pop(n, None)
    if kept is not None:
        kept.close(kill=True)


def shutdown_pools() -> None:
    """End every kept worker process."""
    while _POOL:
        _POOL.popitem()[1].close()


atexit.register(shutdown_pools)


if __name__ == "__main__":
    worker_main()
