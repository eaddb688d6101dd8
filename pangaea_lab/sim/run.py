"""``simulate``: many seeded games into a table, on one of three backends.

* in-process (the default): the games are played one after another here;
* local processes (``workers=2`` or more): fresh worker processes (:mod:`.workers`);
* Dask distributed (``client=`` a ``dask.distributed.Client`` or a scheduler address).

Every backend plays the same games (a game depends only on its seed, its seats' bots and the
options) and the table is sorted by seed, so the table is the same on all of them.  Every
argument is checked before anything runs (:mod:`.checks`).  Rows go to the results folder as
games arrive (:mod:`.store`) and are not kept in memory meanwhile, and the summary is counted
as they arrive (:mod:`.tally`); the returned table is read back from the folder at the end, or,
with ``table=False``, not at all (a :class:`Run` is returned instead).
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import time
import uuid
from typing import Any, Callable, Iterable, Sequence

import pandas as pd

from .. import __version__
from ..core.errors import InvalidSetup
from ..core.players import GreedyPlayer, Player, RandomPlayer
from . import backends, checks
from .games import SimulationError, reader
from .play import RunSpec, bot_seed
from .record import engine_fingerprint
from .stats import figures_lines
from .store import FORMAT, ResultsFolder
from .tally import Tally, summary_columns  # noqa: F401 (summary_columns: part of the API)

#: the most games one run may ask for
MAX_GAMES = checks.MAX_GAMES
#: how often results are written to the results folder (seconds), at the latest
FLUSH_SECONDS = 2.0
#: ... and after how many games, at the latest
FLUSH_GAMES = 500


@dataclasses.dataclass
class Plan:
    """A run's checked arguments."""

    spec: RunSpec
    seeds: Sequence[int]
    out: Any
    resume: bool
    client: Any
    workers: int
    chunk: int | None
    save_every: float
    progress: bool
    #: return the whole table (False: a :class:`Run`, the rows staying in the folder)
    keep: bool = True


def simulate(game: str, players: int = 2, seeds: int | Iterable[int] = 100,
             bots: str | Sequence[Any] | None = None, options: dict[str, Any] | None = None,
             client: Any = None, out: str | Any = None, resume: bool = False,
             workers: int | None = None, events: bool = False, progress: bool = True,
             chunk: int | None = None, save_every: float | None = None,
             rotate_seats: bool = True, table: bool = True) -> Any:
    """Play ``seeds`` games of ``game`` between computer players; one table row per game.

    ``seeds`` is a count (``100`` plays seeds 0..99), a range or a list of distinct seeds
    (each from 0 to 2**63 - 1; at most 10,000,000 games); ``bots`` names a player per seat
    (``"greedy,random"``, a list of names, ``Player`` classes or instances; one name for
    everyone; random by default); ``options`` are the game's own (for example ``{"side": "B"}``
    in Harmonies; an option that changes nothing next to the others is refused).  ``out``
    names a results folder written as games arrive (at least every ``save_every`` seconds,
    2 by default, and every 500 games; ``0``: after every finished task); ``resume=True``
    continues it without playing a seed twice.  ``workers=2`` plays in local processes (1 to
    64), ``client=`` on a Dask cluster; ``chunk`` sets the games per task (1 to 10,000).
    With ``events=True`` the result is a pair ``(games, events)``: the second table has one
    row per scoring event (each Ritual Card in The Dawn of Pangaea, each animal card in
    Harmonies, each species in Forest Shuffle, each scored card in Inori).  ``rotate_seats``
    (on by default) moves the line-up of bots one seat round the table from seed to seed (see
    :func:`~pangaea_lab.sim.play.seat_bots`), so that a bot is not confused with the seat it
    sits in; ``False`` keeps each bot in its seat.  ``table=False`` (with ``out``) does not
    read the table back: a long run's memory stays flat, and a small :class:`Run` is returned
    (the folder, the summary counted as the games arrived, and ``.table()`` / ``.load()`` to
    read the tables when wanted).

    >>> table = simulate("inori", players=2, seeds=3, progress=False)
    >>> list(table.seed), list(table.columns[:4])
    ([0, 1, 2], ['seed', 'game', 'players', 'options'])
    """
    plan = make_plan(game, players, seeds, bots, options, client, out, resume, workers,
                     events, progress, chunk, save_every, rotate_seats, keep=table)
    if not plan.keep and plan.out is None:
        raise SimulationError("table=False leaves the games in the results folder only: give "
                              "out= as well (or leave table at True to get the table)")
    games, found, tally = execute(plan)
    if not plan.keep:
        return Run(plan.out, tally, plan.spec.events)
    return (games, found) if plan.spec.events else games


def make_plan(game: Any, players: Any, seeds: Any, bots: Any, options: Any, client: Any,
              out: Any, resume: Any, workers: Any, events: Any, progress: Any, chunk: Any,
              save_every: Any, rotate_seats: Any, keep: Any = True) -> Plan:
    """Every argument checked, in plain words, before anything runs."""
    if backends.spawned_child():
        raise SimulationError("simulate() was called again while a new process was reading "
                              "the script that started it: put the script's code under "
                              "'if __name__ == \"__main__\":'")
    resume = checks.check_flag("resume", resume)
    events = checks.check_flag("events", events)
    progress = checks.check_flag("progress", progress)
    rotate_seats = checks.check_flag("rotate_seats", rotate_seats)
    keep = checks.check_flag("table", keep)
    checks.check_backends(client, workers)
    out = checks.check_out(out, resume)
    spec = make_spec(game, players, bots, options, events, rotate_seats)
    seed_list = checks.check_seeds(seeds)
    workers = checks.check_workers(workers)
    chunk = checks.check_chunk(chunk)
    save_every = checks.check_save_every(save_every, out, FLUSH_SECONDS)
    if client is not None:
        backends.check_client(client)
    if workers > 1:
        backends.check_bots_travel(spec)
    return Plan(spec, seed_list, out, resume, client, workers, chunk, save_every, progress,
                keep)


def execute(plan: Plan, columns: Callable[[str], bool] | None = None
            ) -> tuple[pd.DataFrame | None, pd.DataFrame | None, Tally]:
    """Play the plan's missing games into its results folder (or memory); the games table
    (only the ``columns`` kept, if given), the events table and the summary counted game by
    game.  A plan that does not keep its table (``plan.keep`` False) reads nothing back: both
    tables are then None."""
    spec = plan.spec
    store = None
    if plan.out is not None:
        store = ResultsFolder.for_writing(plan.out, run_record(spec), plan.resume)
    try:
        tally = Tally()
        done: set[int] = set()
        if store is not None:
            done = store.seeds_done(tally)
        sink: Any = store if store is not None else (Collector(columns) if plan.keep
                                                     else Discard())
        _play(plan, done, sink, tally)
        if store is not None:
            store.compact()
        if not plan.keep:
            return None, None, tally
        if store is None:
            games, found = sink.tables()
        else:
            games, found = store.read(columns, events=spec.events and columns is None)
    finally:
        if store is not None:
            store.release()
    return games_table(games), events_table(found), tally


def _play(plan: Plan, done: set[int], sink: Any, tally: Tally) -> None:
    """Play every seed of the plan not in ``done``, writing batches to ``sink`` (at least
    every ``save_every`` seconds and ``FLUSH_GAMES`` games) and counting them in ``tally``;
    an interrupted run writes what it finished before the interruption goes on."""
    seeds = plan.seeds
    within = seeds if isinstance(seeds, range) else set(seeds)
    already = sum(1 for s in done if s in within)
    todo = (s for s in seeds if s not in done)
    bar = _progress_bar(len(seeds), already, read_title(plan.spec), plan.progress)
    rows: list[dict[str, Any]] = []
    found: list[dict[str, Any]] = []
    last = time.monotonic()
    every = plan.save_every if isinstance(sink, ResultsFolder) else float("inf")
    try:
        for results in backends.results(plan.spec, todo, len(seeds) - already, plan.client,
                                        plan.workers, plan.chunk):
            for row, evs in results:
                rows.append(row)
                found.extend(evs)
            bar.update(len(results))
            if len(rows) >= FLUSH_GAMES or time.monotonic() - last >= every:
                sink.append(rows, found)
                tally.add(rows)
                rows, found = [], []
                last = time.monotonic()
    finally:
        sink.append(rows, found)   # an interrupted run keeps every game it finished
        tally.add(rows)
        bar.close()


class Discard:
    """Where a run that keeps neither table nor folder sends its rows (the summary is
    counted all the same)."""

    def append(self, rows: list[dict[str, Any]], events: list[dict[str, Any]]) -> None:
        return None


@dataclasses.dataclass(frozen=True)
class Run:
    """What ``simulate(..., out=folder, table=False)`` returns: the results folder, the
    summary counted as the games arrived, and the tables only when asked for."""

    folder: Any
    tally: Tally
    events: bool = False

    @property
    def games(self) -> int:
        """How many games the folder holds."""
        return self.tally.games

    def figures(self) -> dict[str, Any]:
        """The summary's figures (see :func:`pangaea_lab.sim.stats.summary_figures`)."""
        return self.tally.figures()

    def summary(self) -> str:
        """The summary in a few plain lines, as the command line prints it."""
        return "\n".join(figures_lines(self.figures()))

    def table(self) -> pd.DataFrame:
        """The games table, read from the folder now (the whole table in memory)."""
        games, _ = ResultsFolder.for_reading(self.folder).read(events=False)
        return games_table(games)

    def load(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Both tables, read from the folder now (see :func:`load`)."""
        return load(self.folder)

    def __repr__(self) -> str:
        return f"Run of {self.games} games in {os.fspath(self.folder)}:\n{self.summary()}"


class Collector:
    """Where a run without a results folder keeps its rows: Arrow tables, batch by batch
    (only the ``columns`` kept, if given)."""

    def __init__(self, columns: Callable[[str], bool] | None = None) -> None:
        self.columns = columns
        self.games: list[Any] = []
        self.events: list[Any] = []

    def append(self, rows: list[dict[str, Any]], events: list[dict[str, Any]]) -> None:
        import pyarrow as pa  # tables in Arrow form: compact, and the same as a results file
        if rows:
            table = pa.Table.from_pylist(rows)
            if self.columns is not None:
                table = table.select([n for n in table.column_names if self.columns(n)])
            self.games.append(table)
        if events and self.columns is None:
            self.events.append(pa.Table.from_pylist(events))

    def tables(self) -> tuple[Any, Any]:
        import pyarrow as pa  # as above
        both = [pa.concat_tables(t, promote_options="default") if t else None
                for t in (self.games, self.events)]
        return both[0], both[1]


def read_title(spec: RunSpec) -> str:
    return reader(spec.game).title


def make_spec(game: str, players: int, bots: Any, options: dict[str, Any] | None,
              events: bool, rotate_seats: bool = True) -> RunSpec:
    """Check the arguments (plain-words errors) and gather them into a :class:`RunSpec`."""
    read = reader(game)
    players = checks.check_players(players, *read.players, read.title)
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
    checks.check_option_needs(game, options, chosen, read.title)
    classes, names = resolve_bots(read, bots, players)
    return RunSpec(game, players, tuple(sorted(chosen.items())), classes, names, events,
                   rotate_seats=rotate_seats)


#: the computer players every game shares: they play by the state's hooks (the greedy player
#: by the ``evaluate`` hook each game binds to its own greedy measure)
SHARED_PLAYERS = (GreedyPlayer, RandomPlayer)


def _shared_name(known: dict[str, type[Player]], cls: type) -> list[str]:
    """The short name of a shared computer player given as a class, where the game's own
    player of that name is built on it and plays the same (Inori's ``greedy`` is an
    ``OutlookPlayer``, a ``GreedyPlayer`` whose measure is the game's ``evaluate`` hook)."""
    if cls not in SHARED_PLAYERS or cls.name not in known:
        return []
    return [cls.name] if issubclass(known[cls.name], cls) else []


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
    if not isinstance(bots, (list, tuple)):
        raise SimulationError("bots must be a name, a list of names, or computer players "
                              f"(Player classes or instances), not {bots!r}")
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
            short = [k for k, v in known.items() if v is cls] or _shared_name(known, cls)
            names.append(short[0] if short else f"{cls.__module__}.{cls.__qualname__}")
        classes.append(cls)
    return tuple(classes), tuple(names)


def run_record(spec: RunSpec) -> dict[str, Any]:
    """What a results folder records about its run: every field of the spec (bots by name),
    the package version and the engine's fingerprint; a run with any other value is refused
    (``run_id`` and ``started`` name the run itself)."""
    settings = {f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)
                if f.name not in ("bots", "bot_names", "options")}
    return {"made_by": "pangaea_lab", "format": FORMAT, "version": __version__,
            "engine": engine_fingerprint(spec.game), **settings,
            "bots": list(spec.bot_names), "options": _plain(dict(spec.options)),
            "run_id": uuid.uuid4().hex[:12],
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def _plain(value: Any) -> Any:
    """An option value as JSON keeps it (tuples as lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def progress_words(done: int, total: int, elapsed: float, rate: float | None) -> str:
    """The progress of a run in words: "120 of 200 games, about 5 s left" (and at the end
    "200 of 200 games in 7 s").

    >>> progress_words(120, 200, 3.0, 16.0), progress_words(200, 200, 7.2, 28.0)
    ('120 of 200 games, about 5 s left', '200 of 200 games in 7 s')
    >>> progress_words(0, 200, 0.0, None), progress_words(1, 1, 90.0, 0.01)
    ('0 of 200 games', '1 of 1 game in 1 min 30 s')
    """
    text = f"{done} of {total} game{'' if total == 1 else 's'}"
    if done >= total:
        return f"{text} in {_duration(elapsed)}"
    if not rate or done == 0:
        return text
    return f"{text}, about {_duration((total - done) / rate)} left"


def _duration(seconds: float) -> str:
    if seconds < 0.5:
        return "under a second"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    return f"{minutes} min {rest} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


def _progress_bar(total: int, initial: int, title: str, show: bool) -> Any:
    from tqdm.auto import tqdm  # notebook bar under Jupyter, text bar in a terminal

    class WordsBar(tqdm):   # type: ignore[misc, valid-type]
        """tqdm's bar with its numbers in words ("120 of 200 games, about 5 s left")."""

        @property
        def format_dict(self) -> dict[str, Any]:
            d = super().format_dict
            return {**d, "words": progress_words(d["n"], d["total"] or 0, d["elapsed"],
                                                 d.get("rate") or _mean_rate(d))}

    return WordsBar(total=total, initial=initial, desc=f"{title} games", unit="game",
                    disable=not show, dynamic_ncols=True, bar_format="{desc}: {bar} {words}")


def _mean_rate(d: dict[str, Any]) -> float | None:
    """Games per second so far (tqdm gives no rate until it has smoothed a few updates)."""
    played = d["n"] - (d.get("initial") or 0)
    return played / d["elapsed"] if played > 0 and d["elapsed"] > 0 else None


def games_table(table: Any) -> pd.DataFrame:
    """One row per game, sorted by seed (the same table from every backend and file)."""
    if table is None:   # a run stopped before its first game ended
        return pd.DataFrame({"seed": pd.Series([], dtype="int64")})
    frame = table.to_pandas()
    return frame.sort_values("seed", kind="stable").reset_index(drop=True)


def events_table(table: Any) -> pd.DataFrame:
    """One row per event, sorted by game seed and order in the game."""
    if table is None or table.num_rows == 0:
        return pd.DataFrame({"seed": pd.Series([], dtype="int64"),
                             "n": pd.Series([], dtype="int64")})
    return table.to_pandas().sort_values(["seed", "n"], kind="stable").reset_index(drop=True)


def load(path: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The games and events tables of a results folder: only the run's own parts are read
    (any other file is reported by name, with what to do); a damaged part is refused by
    name, with what to do."""
    if not isinstance(path, (str, os.PathLike)):
        raise SimulationError(f"load needs the path of a results folder, not {path!r}")
    games, found = ResultsFolder.for_reading(path).read()
    return games_table(games), events_table(found)


