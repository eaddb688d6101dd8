"""The results folder of a run: Parquet parts written as games arrive, safe to resume.

Layout of ``runs/h3.parquet/``::

    _run.json          the run record: settings, package version, engine fingerprint, run id
    _lock              held by the one run writing the folder (a second writer is refused)
    games/part-<first seed>-<run id>-<unique id>.parquet     one row per game
    events/<the same names>                                  one row per scoring event

* A part is written under a hidden temporary name and then linked to its final name, which
  must not exist yet: a run killed at any moment leaves only whole parts, and no part is ever
  written over (each name holds a unique id).  The events part of a batch goes first, so a
  game counts as played once its row is there, and then its events are there too.
* Only one run writes a folder at a time: it holds an operating-system lock on ``_lock``,
  which the system releases when the process ends, however it ends.
* The run's own parts are those named with its run id; any other file in ``games/`` or
  ``events/`` is reported by name (with what to do) and never read.  A part that cannot be
  read (a damaged disk, a truncated copy) is refused by name, with what to do.
* When a run ends, its small parts are merged into parts of up to 100,000 games (a journal,
  ``_compacting.json``, makes the merge safe against a kill).  A merge streams: its parts
  are read in batches of ``BATCH_ROWS`` rows and written in row groups of ``ROW_GROUP`` rows,
  Arrow's unused memory handed back as it goes, so its memory does not grow with the run.
* ``pandas.read_parquet("runs/h3.parquet/games")`` and ``dask.dataframe.read_parquet`` read
  each table directly (names starting with ``_`` or ``.`` are skipped by Parquet readers).
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .games import SimulationError
from .record import as_json, refusal
from .tally import Tally, summary_columns

try:   # the lock on a results folder: POSIX systems
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

META = "_run.json"
LOCK = "_lock"
JOURNAL = "_compacting.json"
TABLES = ("games", "events")
FORMAT = 2
#: the largest ``_run.json`` read back (a results file is hostile input like any other)
MAX_META_BYTES = 100_000
#: the most games in one part after a run's parts are merged
COMPACT_ROWS = 100_000
#: the rows of one row group in a merged part (few large groups read faster and keep the
#: file's footer small)
ROW_GROUP = 16_384
#: the most rows read from a part at a time (reading back, merging)
BATCH_ROWS = 8_192
#: a part's name: ``part-<first seed, 19 digits>-<run id>-<unique id>.parquet``
PART = re.compile(r"part-(\d{19})-([0-9a-f]{12})-([0-9a-f]{12})\.parquet")


class SimulationWarning(UserWarning):
    """Something in a results folder that is not read (a foreign file), with what to do."""


def _parquet() -> tuple[Any, Any]:
    import pyarrow as pa  # Parquet support, needed only with a results file
    import pyarrow.parquet as pq  # as above
    return pa, pq


class FolderLock:
    """An exclusive lock on a results folder, held until :meth:`release` or the process ends."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK
        self.handle = open(self.path, "a+", encoding="utf-8")
        try:
            _lock_file(self.handle)
        except OSError:
            self.handle.seek(0)
            holder = self.handle.read(200).strip() or "another run"
            self.handle.close()
            raise SimulationError(f"{folder} is being written by another run ({holder}); "
                                  "two runs never write one folder: wait for that run to end "
                                  "(or stop it), or choose another results folder") from None
        self.handle.seek(0)
        self.handle.truncate()
        self.handle.write(f"process {os.getpid()} since "
                          f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}")
        self.handle.flush()

    def release(self) -> None:
        if not self.handle.closed:
            self.handle.close()   # closing the file releases the lock


def _lock_file(handle: Any) -> None:
    """Take an exclusive lock without waiting; ``OSError`` if another process holds it."""
    if fcntl is None:  # Windows
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        return
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def _read_record(path: Path) -> dict[str, Any]:
    where = path / META
    if not path.is_dir() or not where.is_file():
        raise SimulationError(f"{path} exists but is not a results folder of the simulation "
                              "lab (no _run.json in it): choose another name")
    if where.stat().st_size > MAX_META_BYTES:
        raise SimulationError(f"{where} is too large to be a run record")
    try:
        record = json.loads(where.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SimulationError(f"{where} is not readable JSON ({exc})") from None
    if not isinstance(record, dict):
        raise SimulationError(f"{where} should hold a JSON object")
    if record.get("format") != FORMAT or not isinstance(record.get("run_id"), str) \
            or not re.fullmatch(r"[0-9a-f]{12}", record["run_id"]):
        raise SimulationError(f"{where} is not a run record of this version of the lab "
                              f"(format {record.get('format')!r}, this version writes format "
                              f"{FORMAT}): start a new results folder; its Parquet files are "
                              "still read by pandas.read_parquet")
    return record


def _link_new(tmp: Path, target: Path) -> None:
    """Give the file ``tmp`` the name ``target``, which must not exist (never overwritten)."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError:   # a file system without hard links: checked, then renamed
        if target.exists():
            raise FileExistsError(target) from None
        os.rename(tmp, target)
        return
    os.unlink(tmp)


class ResultsFolder:
    """A run's folder: its record, its own parts, a lock while writing."""

    def __init__(self, path: Path, record: dict[str, Any]) -> None:
        self.path = path
        self.record = record
        self.run_id: str = record["run_id"]
        self.lock: FolderLock | None = None
        self.notes: list[str] = []
        self._warned: set[str] = set()

    # ----- opening ------------------------------------------------------------------------

    @classmethod
    def for_writing(cls, path: str | os.PathLike, record: dict[str, Any],
                    resume: bool) -> "ResultsFolder":
        """Create the folder (new run) or open it to resume; the lock is held either way."""
        path = Path(path)
        if not path.exists():
            made = cls._create(path, record)
            if made is not None:
                return made
        old = _read_record(path)
        why = refusal(path, old, record)
        if why:
            raise SimulationError(why)
        if not resume:
            raise SimulationError(f"{path} already holds results of this run; ask to resume "
                                  "it (resume=True, --resume) to play only the missing seeds, "
                                  "or choose another results folder")
        folder = cls(path, old)
        folder.lock = FolderLock(path)
        folder._tidy()
        return folder

    @classmethod
    def _create(cls, path: Path, record: dict[str, Any]) -> "ResultsFolder | None":
        """A new folder, built beside its place and renamed into it (None: another run made
        it first)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
        tmp.mkdir()
        folder = cls(tmp, record)
        folder.lock = FolderLock(tmp)   # the lock follows the folder through the rename
        for table in TABLES:
            (tmp / table).mkdir()
        (tmp / META).write_bytes(as_json(record))
        try:
            os.rename(tmp, path)
        except OSError:
            folder.release()
            for item in sorted(tmp.rglob("*"), reverse=True):
                item.rmdir() if item.is_dir() else item.unlink()
            tmp.rmdir()
            return None
        folder.path = path
        return folder

    @classmethod
    def for_reading(cls, path: str | os.PathLike) -> "ResultsFolder":
        path = Path(path)
        return cls(path, _read_record(path))

    def release(self) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    # ----- the parts ----------------------------------------------------------------------

    def _files(self, table: str) -> list[Path]:
        folder = self.path / table
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.iterdir() if not p.name.startswith((".", "_")))

    def _journal(self) -> dict[str, Any] | None:
        """An unfinished merge: its new part and the parts it replaces (None: no merge)."""
        where = self.path / JOURNAL
        if not where.is_file() or where.stat().st_size > 10 * MAX_META_BYTES:
            return None
        try:
            journal = json.loads(where.read_text(encoding="utf-8"))
            new, old = journal["new"], list(journal["old"])
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            return None   # a journal cut short: its merge never wrote anything
        if not all(isinstance(n, str) and self._own(n) for n in [new, *old]):
            return None   # names no part of this run: nothing of it is touched
        return {"new": new, "old": old}

    def _own(self, name: str) -> bool:
        """Whether ``name`` is the name of a part of this run (and nothing else: no path)."""
        match = PART.fullmatch(name)
        return match is not None and match.group(2) == self.run_id

    def parts(self, report: bool = True) -> list[Path]:
        """The run's own game parts, in order of their first seed.  Foreign files are noted
        (and, when ``report``, warned about), never read."""
        own: list[Path] = []
        foreign: list[Path] = []
        for table in TABLES:
            for path in self._files(table):
                match = PART.fullmatch(path.name)
                if match is None or match.group(2) != self.run_id:
                    foreign.append(path)
                elif table == "games":
                    own.append(path)
        journal = self._journal()
        if journal and (self.path / "games" / journal["new"]).is_file():
            own = [p for p in own if p.name not in journal["old"]]   # merged already
        elif journal:
            own = [p for p in own if p.name != journal["new"]]
        self.notes = [f"{p.relative_to(self.path)} is not a part of this run and was not "
                      "read; move it out of the folder (pandas.read_parquet of the folder "
                      "would read it too)" for p in foreign]
        if report:
            for note in self.notes:
                if note not in self._warned:
                    self._warned.add(note)
                    warnings.warn(note, SimulationWarning, stacklevel=4)
        return own

    def _tidy(self) -> None:
        """Under the lock, before writing: finish or undo a merge cut short, and remove the
        temporary files and orphan event parts that a killed run left."""
        journal = self._journal()
        if journal is not None:
            if (self.path / "games" / journal["new"]).is_file():
                for table in TABLES:
                    for name in journal["old"]:
                        (self.path / table / name).unlink(missing_ok=True)
            else:
                for table in TABLES:
                    (self.path / table / journal["new"]).unlink(missing_ok=True)
        (self.path / JOURNAL).unlink(missing_ok=True)
        for table in TABLES:
            (self.path / table).mkdir(exist_ok=True)
            for path in (self.path / table).glob(".part-*.tmp"):
                path.unlink()
        games = {p.name for p in self._files("games")}
        for path in self._files("events"):
            match = PART.fullmatch(path.name)
            if match and match.group(2) == self.run_id and path.name not in games:
                path.unlink()   # its games part never arrived, or was deleted

    def _read(self, path: Path, columns: list[str] | None = None,
              categories: list[str] | None = None) -> Any:
        """One part as an Arrow table, or a plain-words error naming the file."""
        pa, pq = _parquet()
        try:
            return pq.read_table(path, columns=columns, read_dictionary=categories)
        except (pa.ArrowException, OSError, ValueError) as exc:
            first = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
            raise SimulationError(f"{path} cannot be read as a results part ({first}); "
                                  "delete it and resume the run (resume=True, --resume): its "
                                  "games are played again") from None

    def seeds_done(self, tally: Tally | None = None) -> set[int]:
        """Seeds whose games are already in the folder (and, given a ``tally``, their games
        counted in it), read part by part in batches of ``BATCH_ROWS`` rows."""
        done: set[int] = set()
        for part in self.parts():
            names = ["seed"]
            if tally is not None:
                names, _ = self._names(part, summary_columns)
            for batch in self._batches(part, names):
                if tally is None:
                    done.update(batch.column("seed").to_pylist())
                else:
                    rows = batch.to_pylist()
                    done.update(row["seed"] for row in rows)
                    tally.add(rows)
        return done

    def _batches(self, path: Path, columns: list[str] | None = None) -> Iterator[Any]:
        """One part's rows in Arrow record batches of at most ``BATCH_ROWS`` rows (never the
        whole part in memory), or a plain-words error naming the file."""
        pa, pq = _parquet()
        try:
            with pq.ParquetFile(path) as source:
                yield from source.iter_batches(batch_size=BATCH_ROWS, columns=columns)
        except (pa.ArrowException, OSError, ValueError) as exc:
            self._read(path, columns)   # raises, naming the file
            raise SimulationError(f"{path} cannot be read as a results part ({exc})") from None

    def _rows(self, path: Path) -> int:
        """How many rows a part holds (read from its footer), or the error naming it."""
        pa, pq = _parquet()
        try:
            return int(pq.ParquetFile(path).metadata.num_rows)
        except (pa.ArrowException, OSError, ValueError):
            return self._read(path, ["seed"]).num_rows   # raises, naming the file

    def _name(self, first_seed: int) -> str:
        return f"part-{first_seed:019d}-{self.run_id}-{uuid.uuid4().hex[:12]}.parquet"

    def _publish(self, table: str, name: str, data: Any) -> None:
        _, pq = _parquet()
        target = self.path / table / name
        tmp = target.with_name(f".{name}.tmp")
        pq.write_table(data, tmp)
        _link_new(tmp, target)

    def append(self, rows: list[dict[str, Any]], events: list[dict[str, Any]]) -> None:
        """Write one part of each table (events first)."""
        if not rows:
            return
        pa, _ = _parquet()
        name = self._name(min(r["seed"] for r in rows))
        if events:
            self._publish("events", name, pa.Table.from_pylist(events))
        self._publish("games", name, pa.Table.from_pylist(rows))

    # ----- reading ------------------------------------------------------------------------

    def read(self, columns: Callable[[str], bool] | None = None,
             events: bool = True) -> tuple[Any, Any]:
        """The games table (only the columns whose names ``columns`` keeps, if given) and the
        events table of the run's own parts, as Arrow tables (the events of games whose part
        is there)."""
        pa, _ = _parquet()
        own = self.parts()
        games = _concat(pa, [self._read(p, *self._names(p, columns)) for p in own])
        found = []
        if events:
            found = [self._read(self.path / "events" / p.name) for p in own
                     if (self.path / "events" / p.name).is_file()]
        return games, _concat(pa, found)

    def _names(self, part: Path, keep: Callable[[str], bool] | None
               ) -> tuple[list[str] | None, list[str] | None]:
        """The columns of ``part`` that ``keep`` keeps, and those of them holding text (read
        as categories: a bot's name is then held once, not once per game)."""
        if keep is None:
            return None, None
        pa, pq = _parquet()
        try:
            schema = pq.read_schema(part)
        except Exception:  # noqa: BLE001 - a damaged part: reading it names the file
            return None, None
        names = [f.name for f in schema if keep(f.name)]
        return names, [f.name for f in schema if keep(f.name) and pa.types.is_string(f.type)]

    # ----- merging small parts ------------------------------------------------------------

    def compact(self, max_rows: int | None = None) -> None:
        """Merge runs of small parts into parts of up to ``max_rows`` games (by default
        ``COMPACT_ROWS``)."""
        max_rows = COMPACT_ROWS if max_rows is None else max_rows
        group: list[Path] = []
        rows = 0
        for part in self.parts(report=False) + [None]:   # type: ignore[list-item]
            size = self._rows(part) if part is not None else max_rows
            if group and (part is None or rows + size > max_rows):
                if len(group) > 1:
                    self._merge(group)
                group, rows = [], 0
            if part is not None:
                group.append(part)
                rows += size

    def _merge(self, group: list[Path]) -> None:
        first = int(PART.fullmatch(group[0].name).group(1))  # type: ignore[union-attr]
        new = self._name(first)
        old = [p.name for p in group]
        journal = self.path / JOURNAL
        tmp = journal.with_name(".compacting.tmp")
        tmp.write_text(json.dumps({"new": new, "old": old}), encoding="utf-8")
        os.replace(tmp, journal)
        for table in TABLES:   # events first, as when writing
            sources = [self.path / table / n for n in old if (self.path / table / n).is_file()]
            if sources:
                self._merge_files(table, new, sources)
        for table in TABLES:
            for name in old:
                (self.path / table / name).unlink(missing_ok=True)
        journal.unlink()

    def _merge_files(self, table: str, name: str, sources: list[Path]) -> None:
        """Stream ``sources`` into one new part, batch by batch, in row groups of
        ``ROW_GROUP`` rows: at most one row group and one batch in memory at a time."""
        pa, pq = _parquet()
        schema = pa.unify_schemas([self._schema(p) for p in sources])
        target = self.path / table / name
        tmp = target.with_name(f".{name}.tmp")
        waiting: list[Any] = []
        rows = 0
        with pq.ParquetWriter(tmp, schema) as writer:
            for source in sources:
                pa.default_memory_pool().release_unused()
                for batch in self._batches(source):
                    waiting.append(_conform(pa, pa.Table.from_batches([batch]), schema))
                    rows += batch.num_rows
                    while rows >= ROW_GROUP:
                        whole = pa.concat_tables(waiting)
                        writer.write_table(whole.slice(0, ROW_GROUP))
                        waiting = [whole.slice(ROW_GROUP)] if rows > ROW_GROUP else []
                        rows -= ROW_GROUP
                        del whole
                        pa.default_memory_pool().release_unused()
            if waiting:
                writer.write_table(pa.concat_tables(waiting))
        _link_new(tmp, target)
        pa.default_memory_pool().release_unused()

    def _schema(self, path: Path) -> Any:
        _, pq = _parquet()
        try:
            return pq.read_schema(path)
        except Exception:  # noqa: BLE001 - a damaged part: reading it names the file
            self._read(path)
            raise


def _conform(pa: Any, table: Any, schema: Any) -> Any:
    """``table`` with the columns of ``schema``, in its order and types (missing: nulls)."""
    columns = [table.column(f.name).cast(f.type) if f.name in table.column_names
               else pa.nulls(len(table), f.type) for f in schema]
    return pa.Table.from_arrays(columns, schema=schema)


def _concat(pa: Any, tables: Iterable[Any]) -> Any:
    tables = list(tables)
    if not tables:
        return None
    return pa.concat_tables(tables, promote_options="default")
