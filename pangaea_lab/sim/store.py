"""The results file of a run: a folder of Parquet files, written as games arrive.

Layout of ``runs/h3.parquet/``::

    _run.json              what made the run: package version, game, players, bots, options
    games/part-00000.parquet, part-00001.parquet, ...     one row per game
    events/part-00000.parquet, ...                        one row per scoring event

Each part is written to a temporary name and renamed, so a run killed at any moment leaves only
whole parts; the games of a part are never played again when the run is resumed.
``pandas.read_parquet("runs/h3.parquet/games")`` reads the table with any Parquet reader
(the names starting with ``_`` are skipped); :func:`pangaea_lab.simulate.load` reads both.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .games import SimulationError

META = "_run.json"
FORMAT = 1
#: the largest ``_run.json`` read back (a results file is hostile input like any other)
MAX_META_BYTES = 100_000


class ResultsFolder:
    """A run's folder: checks that it belongs to the same run, lists the seeds already played,
    appends parts."""

    def __init__(self, path: str | os.PathLike, meta: dict[str, Any], resume: bool) -> None:
        self.path = Path(path)
        self.meta = meta
        if self.path.exists():
            old = self._read_meta()
            if old != meta:
                raise SimulationError(f"{self.path} holds a run with other settings "
                                      f"({_differences(old, meta)}); results of different "
                                      "settings are never mixed: choose another results file")
            if not resume:
                raise SimulationError(f"{self.path} already holds results of this run; "
                                      "ask to resume it (--resume) to play only the missing "
                                      "seeds, or choose another results file")
        else:
            (self.path / "games").mkdir(parents=True)
            (self.path / "events").mkdir()
            self._write(self.path / META, json.dumps(meta, indent=1, sort_keys=True).encode())
        self._next = len(self._parts("games"))

    @classmethod
    def existing(cls, path: str | os.PathLike) -> "ResultsFolder":
        """An existing results folder, opened for reading."""
        folder = cls.__new__(cls)
        folder.path = Path(path)
        folder.meta = folder._read_meta()
        folder._next = len(folder._parts("games"))
        return folder

    def _read_meta(self) -> dict[str, Any]:
        where = self.path / META
        if not self.path.is_dir() or not where.is_file():
            raise SimulationError(f"{self.path} exists but is not a results file of the "
                                  "simulation lab (no _run.json in it): choose another name")
        if where.stat().st_size > MAX_META_BYTES:
            raise SimulationError(f"{where} is too large to be a run description")
        try:
            meta = json.loads(where.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SimulationError(f"{where} is not readable JSON ({exc})") from None
        if not isinstance(meta, dict):
            raise SimulationError(f"{where} should hold a JSON object")
        return meta

    def _parts(self, table: str) -> list[Path]:
        folder = self.path / table
        return sorted(folder.glob("part-*.parquet")) if folder.is_dir() else []

    @staticmethod
    def _write(target: Path, data: bytes) -> None:
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)

    def seeds_done(self) -> set[int]:
        """Seeds whose games are already in the folder."""
        import pyarrow.parquet as pq  # Parquet support, needed only with a results file
        done: set[int] = set()
        for part in self._parts("games"):
            done.update(pq.read_table(part, columns=["seed"]).column("seed").to_pylist())
        return done

    def append(self, rows: list[dict[str, Any]], events: list[dict[str, Any]]) -> None:
        """Write one part of each table.  The events part goes first: a game counts as played
        once its row is there, and then its events are there too."""
        if not rows:
            return
        import pyarrow as pa  # Parquet support, needed only with a results file
        import pyarrow.parquet as pq  # as above
        name = f"part-{self._next:05d}.parquet"
        for table, data in (("events", events), ("games", rows)):
            if not data:
                continue
            sink = pa.BufferOutputStream()
            pq.write_table(pa.Table.from_pylist(data), sink)
            self._write(self.path / table / name, sink.getvalue().to_pybytes())
        self._next += 1

    def read(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Every game row and event row in the folder (events only of games with a row)."""
        import pyarrow.parquet as pq  # Parquet support, needed only with a results file
        rows: list[dict[str, Any]] = []
        for part in self._parts("games"):
            rows.extend(pq.read_table(part).to_pylist())
        seeds = {r["seed"] for r in rows}
        events: list[dict[str, Any]] = []
        for part in self._parts("events"):
            events.extend(e for e in pq.read_table(part).to_pylist() if e["seed"] in seeds)
        return rows, events


def _differences(old: dict[str, Any], new: dict[str, Any]) -> str:
    keys = sorted(set(old) | set(new))
    diffs = [f"{k}: {old.get(k)!r} in the file, {new.get(k)!r} now"
             for k in keys if old.get(k) != new.get(k)]
    return "; ".join(diffs)
