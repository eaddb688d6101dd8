"""The three backends of a run: here (in-process), local worker processes, Dask distributed.

Each takes the run's spec and its seeds still to play, lazily, and yields the results of one
task (a few games) at a time.  Only a few tasks are ever in flight, so a run of any length
holds a bounded number of results in memory.
"""

from __future__ import annotations

import itertools
import math
import sys
from typing import Any, Iterable, Iterator

from .games import SimulationError
from .play import RunSpec, play_chunk
from . import workers as local

Results = list


def chunks(seeds: Iterable[int], size: int) -> Iterator[list[int]]:
    """The seeds in lists of ``size`` (the last may be shorter), read lazily."""
    it = iter(seeds)
    while True:
        part = list(itertools.islice(it, size))
        if not part:
            return
        yield part


def chunk_size(n: int, slots: int) -> int:
    """Small enough that every worker gets several tasks and the bar moves, large enough that
    the cost of sending a task is small next to the games in it."""
    return max(1, min(20, math.ceil(n / (slots * 6))))


def check_client(client: Any) -> None:
    """A Dask client or a scheduler address, checked before the run starts."""
    if isinstance(client, str):
        if not client.strip() or len(client) > 2000:
            raise SimulationError(f"client must be a Dask scheduler address such as "
                                  f"'tcp://host:8786', not {client[:40]!r}")
        return
    try:
        from distributed import Client  # optional backend: imported only when used
    except ImportError:
        raise SimulationError("the Dask backend needs dask.distributed installed") from None
    if not isinstance(client, Client):
        raise SimulationError("client must be a dask.distributed.Client or a scheduler "
                              f"address such as 'tcp://host:8786', not {client!r}")


def check_bots_travel(spec: RunSpec) -> None:
    """Bots for worker processes must be importable there: a class written in the calling
    script itself cannot be (the workers never run the script)."""
    for cls in spec.bots:
        if cls.__module__ == "__main__":
            raise SimulationError(f"the computer player {cls.__name__} is defined in the "
                                  "script itself, which worker processes never run: put it in "
                                  "a module of its own and import it, or play in-process")


def results(spec: RunSpec, todo: Iterable[int], count: int, client: Any, workers: int,
            chunk: int | None) -> Iterator[Results]:
    """The results of the games of ``todo`` (``count`` of them), task by task."""
    if count == 0:
        return
    if client is not None:
        yield from _dask_results(spec, todo, count, client, chunk)
    elif workers > 1:
        tasks = ((spec, part) for part in chunks(todo, chunk or chunk_size(count, workers)))
        yield from _process_results(tasks, workers)
    else:
        for part in chunks(todo, chunk or 1):
            yield play_chunk(spec, part)


def _process_results(tasks: Iterator[Any], workers: int) -> Iterator[Results]:
    finished = False
    try:
        yield from local.pool(workers).run(tasks)
        finished = True
    except local.WorkerDied as exc:
        raise SimulationError(f"{exc}; the games finished before it are kept") from None
    finally:
        if not finished:   # interrupted, failed or abandoned: no worker keeps playing
            local.discard(workers)


def _dask_threads(client: Any) -> int:
    """How many games the cluster plays at once (8 if it cannot say)."""
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - a scheduler that does not answer: a fair guess
        return 8


def _dask_results(spec: RunSpec, todo: Iterable[int], count: int, client: Any,
                  chunk: int | None) -> Iterator[Results]:
    from distributed import Client, as_completed  # optional backend: imported only when used
    own = isinstance(client, str)
    if own:
        try:
            client = Client(client, set_as_default=False, timeout=30)
        except (OSError, ValueError) as exc:
            raise SimulationError(f"cannot reach the Dask scheduler at {client!r}: "
                                  f"{str(exc).splitlines()[0] if str(exc) else exc!r}") from None
    slots = _dask_threads(client)
    parts = chunks(todo, chunk or chunk_size(count, slots))
    running = as_completed(loop=client.loop)
    live: set[Any] = set()

    def submit() -> None:
        part = next(parts, None)
        if part is not None:
            future = client.submit(play_chunk, spec, part, pure=False)
            live.add(future)
            running.add(future)

    try:
        for _ in range(slots * 3):   # a few tasks queued per thread, never the whole run
            submit()
        for future in running:
            result = future.result()
            live.discard(future)
            future.release()
            submit()
            yield result
    finally:
        if live:
            client.cancel(list(live))
        if own:
            client.close()


def spawned_child() -> bool:
    """Whether this process is a ``multiprocessing`` child still re-reading its parent's
    script (a script without a main guard that starts processes runs itself again there)."""
    mp = sys.modules.get("multiprocessing")
    return bool(mp is not None and getattr(mp.current_process(), "_inheriting", False))
