"""``simulate``: many seeded games into a table, on one of three backends.

* in-process (the default): the games are played one after another here;
* local processes (``workers=2`` or more): a ``concurrent.futures`` process pool;
* Dask distributed (``client=`` a ``dask.distributed.Client`` or a scheduler address).

Every backend plays the same games (a game depends only on its seed, its seats' bots and the
options) and the table is sorted by seed, so the table is the same on all of them.
"""

from __future__ import annotations

import atexit
import inspect
import json
import math
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Iterable, Iterator, Sequence

import pandas as pd

from .. import __version__
from ..core.errors import InvalidSetup
from ..core.players import Player
from .games import SimulationError, reader
from .play import RunSpec, bot_seed, play_chunk
from .store import FORMAT, ResultsFolder

Result = tuple[dict[str, Any], list[dict[str, Any]]]

#: the most games one run may ask for (a list of seeds is held in memory)
MAX_GAMES = 10_000_000
#: how often results are written to the results file (seconds), at the latest
FLUSH_SECONDS = 2.0
#: ... and after how many games, at the latest
FLUSH_GAMES = 500


def simulate(game: str, players: int = 2, seeds: int | Iterable[int] = 100,
             bots: str | Sequence[Any] | None = None, options: dict[str, Any] | None = None,
             client: Any = None, out: str | os.PathLike | None = None, resume: bool = False,
             workers: int | None = None, events: bool = False, progress: bool = True,
             chunk: int | None = None, save_every: float = FLUSH_SECONDS,
             rotate_seats: bool = True) -> Any:
    """Play ``seeds`` games of ``game`` between computer players; one table row per game.

    ``seeds`` is a count (``100`` plays seeds 0..99) or the seeds themselves; ``bots`` names a
    player per seat (``"greedy,random"``, a list of names, ``Player`` classes or instances;
    one name for everyone; random by default); ``options`` are the game's own (for example
    ``{"side": "B"}`` in Harmonies).  ``out`` names a results folder written as games arrive
    (at least every ``save_every`` seconds and every 500 games; ``0``: after every finished
    batch); ``resume=True`` continues it without playing a seed twice.  ``workers=2`` plays in
    local processes, ``client=`` on a Dask cluster.  With ``events=True`` the result is a pair
    ``(games, events)``: the second table has one row per scoring event (each Ritual Card in
    The Dawn of Pangaea, each animal card in Harmonies, each species in Forest Shuffle, each
    scored card in Inori).  ``rotate_seats`` (on by default) moves the line-up of bots one
    seat round the table from seed to seed (see :func:`~pangaea_lab.sim.play.seat_bots`), so
    that a bot is not confused with the seat it sits in; ``False`` keeps each bot in its seat.

    >>> table = simulate("inori", players=2, seeds=3, progress=False)
    >>> list(table.seed), list(table.columns[:4])
    ([0, 1, 2], ['seed', 'game', 'players', 'options'])
    """
    spec = make_spec(game, players, bots, options, events, rotate_seats)
    seed_list = check_seeds(seeds)
    workers = check_workers(workers)
    save_every = check_save_every(save_every)
    store = None
    if out is not None:
        store = ResultsFolder(out, run_meta(spec), resume)
    elif resume:
        raise SimulationError("resume needs a results file to continue (out=... or --out)")
    done = store.seeds_done() if store else set()
    todo = [s for s in seed_list if s not in done]
    rows: list[dict[str, Any]] = []
    found: list[dict[str, Any]] = []
    bar = _progress_bar(len(seed_list), len(seed_list) - len(todo), read_title(spec), progress)
    pending_rows: list[dict[str, Any]] = []
    pending_events: list[dict[str, Any]] = []
    last_flush = time.monotonic()
    try:
        for results in _backend(spec, todo, client, workers, chunk):
            for row, evs in results:
                rows.append(row)
                found.extend(evs)
                pending_rows.append(row)
                pending_events.extend(evs)
            bar.update(len(results))
            if store and (len(pending_rows) >= FLUSH_GAMES
                          or time.monotonic() - last_flush >= save_every):
                store.append(pending_rows, pending_events)
                pending_rows, pending_events = [], []
                last_flush = time.monotonic()
    finally:
        if store:   # an interrupted run keeps every game it finished
            store.append(pending_rows, pending_events)
        bar.close()
    if store:
        rows, found = store.read()
        wanted = set(seed_list)
        rows = [r for r in rows if r["seed"] in wanted]
        found = [e for e in found if e["seed"] in wanted]
    table = games_table(rows)
    return (table, events_table(found)) if events else table


def read_title(spec: RunSpec) -> str:
    return reader(spec.game).title


def make_spec(game: str, players: int, bots: Any, options: dict[str, Any] | None,
              events: bool, rotate_seats: bool = True) -> RunSpec:
    """Check the arguments (plain-words errors) and gather them into a :class:`RunSpec`."""
    read = reader(game)
    low, high = read.players
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise SimulationError(f"{read.title} is played by {low} to {high} players, "
                              f"not {players!r}")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise SimulationError("options must be a dictionary of option names and values")
    allowed = read.options
    for name in options:
        if name not in allowed:
            raise SimulationError(f"{read.title} has no option {name!r}; its options are "
                                  f"{', '.join(allowed) or 'none'}")
    chosen = {**allowed, **options}
    try:
        read.new_game(players, 0, chosen)
    except InvalidSetup as exc:
        raise SimulationError(f"these options cannot start a game of {read.title}: {exc}") from None
    classes, names = resolve_bots(read, bots, players)
    if not isinstance(rotate_seats, bool):
        raise SimulationError(f"rotate_seats must be True or False, not {rotate_seats!r}")
    return RunSpec(game, players, tuple(sorted(chosen.items())), classes, names, events,
                   rotate_seats=rotate_seats)


def resolve_bots(read: Any, bots: Any, players: int) -> tuple[tuple[type[Player], ...],
                                                               tuple[str, ...]]:
    """Bots by seat: names (``"greedy,random"``), ``Player`` classes or instances.  Instances
    give only their class: every game builds fresh players seeded for its seed and seat."""
    known = read.bots
    if bots is None:
        bots = ["random"]
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    if isinstance(bots, (type, Player)):
        bots = [bots]
    bots = list(bots)
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise SimulationError(f"{players} players need {players} bots (or one for everyone), "
                              f"not {len(bots)}")
    classes, names = [], []
    for bot in bots:
        if isinstance(bot, str):
            if bot not in known:
                raise SimulationError(f"there is no computer player called {bot!r} for "
                                      f"{read.title}; choose from {', '.join(known)}")
            cls = known[bot]
            names.append(bot)
        else:
            cls = bot if isinstance(bot, type) else type(bot)
            if not issubclass(cls, Player):
                raise SimulationError(f"a bot must be a computer player (a Player), not {bot!r}")
            try:   # checked without making one: a bot may count the players it makes
                inspect.signature(cls).bind(bot_seed(0, 0))
            except TypeError as exc:
                raise SimulationError(f"the computer player {cls.__name__} cannot be made "
                                      f"from a seed alone ({exc}); a bot class is called as "
                                      "Bot(seed) for each game and seat") from None
            except ValueError:   # no signature to read (a class made in C): tried in play
                pass
            short = [k for k, v in known.items() if v is cls]
            names.append(short[0] if short else f"{cls.__module__}.{cls.__qualname__}")
        classes.append(cls)
    return tuple(classes), tuple(names)


def check_seeds(seeds: Any) -> list[int]:
    if isinstance(seeds, bool):
        raise SimulationError("seeds must be a number of games or a list of seeds")
    if isinstance(seeds, int):
        if seeds <= 0:
            raise SimulationError(f"the number of games must be at least 1, not {seeds}")
        if seeds > MAX_GAMES:
            raise SimulationError(f"at most {MAX_GAMES:,} games in one run, not {seeds:,}")
        return list(range(seeds))
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__iter__"):
        raise SimulationError("seeds must be a number of games or a list of seeds")
    if hasattr(seeds, "__len__") and len(seeds) > MAX_GAMES:
        raise SimulationError(f"at most {MAX_GAMES:,} games in one run, not {len(seeds):,}")
    seed_list = list(seeds)
    if not seed_list:
        raise SimulationError("there are no games to play: the list of seeds is empty")
    for s in seed_list:
        if isinstance(s, bool) or not isinstance(s, int) or s < 0:
            raise SimulationError(f"every seed must be a whole number 0 or more, not {s!r}")
    if len(set(seed_list)) != len(seed_list):
        raise SimulationError("a seed appears twice in the list: each game is played once")
    return seed_list


def check_workers(workers: Any) -> int:
    if workers is None:
        return 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"workers must be a whole number 1 or more, not {workers!r}")
    return workers


def check_save_every(seconds: Any) -> float:
    if (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
            or not math.isfinite(seconds) or not 0 <= seconds <= 3600):
        raise SimulationError("save_every must be a number of seconds from 0 to 3600, "
                              f"not {seconds!r}")
    return float(seconds)


def run_meta(spec: RunSpec) -> dict[str, Any]:
    """What a results file records about its run; a run with any other value is refused."""
    return {"made_by": "pangaea_lab", "version": __version__, "format": FORMAT,
            "game": spec.game, "players": spec.players, "bots": list(spec.bot_names),
            "options": json.loads(json.dumps(dict(spec.options))), "events": spec.events,
            "rotate_seats": spec.rotate_seats}


def _progress_bar(total: int, initial: int, title: str, show: bool) -> Any:
    from tqdm.auto import tqdm  # notebook bar under Jupyter, text bar in a terminal
    return tqdm(total=total, initial=initial, desc=f"{title} games", unit="game",
                disable=not show, dynamic_ncols=True)


def _chunks(todo: list[int], size: int) -> list[list[int]]:
    return [todo[i:i + size] for i in range(0, len(todo), size)]


def _backend(spec: RunSpec, todo: list[int], client: Any, workers: int,
             chunk: int | None) -> Iterator[list]:
    if not todo:
        return
    if client is not None:
        yield from _dask_results(spec, todo, client, chunk)
    elif workers > 1:
        parts = _chunks(todo, chunk or _chunk_size(len(todo), workers))
        yield from _process_results(spec, parts, workers)
    else:
        for seeds in _chunks(todo, chunk or 1):
            yield play_chunk(spec, seeds)


def _chunk_size(n: int, workers: int) -> int:
    """Small enough that every worker gets several tasks and the bar moves, large enough that
    the cost of sending a task is small next to the games in it."""
    return max(1, min(20, math.ceil(n / (workers * 6))))


#: process pools by number of workers, kept for the next run (starting fresh Python processes
#: costs about a second, as much as many games); ``shutdown_pools`` ends them
_POOLS: dict[int, Any] = {}


def _pool(workers: int) -> Any:
    pool = _POOLS.get(workers)
    if pool is None or getattr(pool, "_broken", False):
        # "spawn": fresh worker processes everywhere (no fork of a process running threads)
        pool = ProcessPoolExecutor(max_workers=workers,
                                   mp_context=multiprocessing.get_context("spawn"))
        _POOLS[workers] = pool
    return pool


def shutdown_pools() -> None:
    """End the worker processes kept by the local-process backend."""
    while _POOLS:
        _POOLS.popitem()[1].shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown_pools)


def _process_results(spec: RunSpec, parts: list[list[int]], workers: int) -> Iterator[list]:
    futures = [_pool(workers).submit(play_chunk, spec, seeds) for seeds in parts]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        for future in futures:   # an interrupted run leaves no work queued behind it
            future.cancel()


def _dask_threads(client: Any) -> int:
    """How many games the cluster plays at once (8 if it cannot say)."""
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - a scheduler that does not answer: a fair guess
        return 8


def _dask_results(spec: RunSpec, todo: list[int], client: Any,
                  chunk: int | None) -> Iterator[list]:
    from distributed import Client, as_completed  # optional backend: imported only when used
    own = isinstance(client, str)
    if own:
        try:
            client = Client(client, set_as_default=False, timeout=30)
        except OSError as exc:
            raise SimulationError(f"cannot reach the Dask scheduler at {client!r}: {exc}") from None
    elif not isinstance(client, Client):
        raise SimulationError("client must be a dask.distributed.Client or a scheduler "
                              f"address such as 'tcp://host:8786', not {client!r}")
    parts = _chunks(todo, chunk or _chunk_size(len(todo), _dask_threads(client)))
    futures = [client.submit(play_chunk, spec, seeds, pure=False) for seeds in parts]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
        if own:
            client.close()


def games_table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per game, sorted by seed (the same table from every backend and file)."""
    table = pd.DataFrame.from_records(rows)
    if table.empty:
        return table
    return table.sort_values("seed", kind="stable").reset_index(drop=True)


def events_table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per event, sorted by game seed and order in the game."""
    table = pd.DataFrame.from_records(rows)
    if table.empty:
        return pd.DataFrame({"seed": pd.Series([], dtype="int64"),
                             "n": pd.Series([], dtype="int64")})
    return table.sort_values(["seed", "n"], kind="stable").reset_index(drop=True)


def load(path: str | os.PathLike) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The games and events tables of a results folder, and nothing else."""
    rows, events = ResultsFolder.existing(path).read()
    return games_table(rows), events_table(events)
