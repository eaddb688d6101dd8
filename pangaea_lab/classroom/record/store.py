"""Where the class record is kept: :class:`RecordStore` over SQLAlchemy, SQLite by default
(one file, WAL mode, readable only by its owner), PostgreSQL by URL
(``postgresql+psycopg://...``).

Every write is one transaction.  An attempt is named by (user, id): it is inserted with the
database's own "insert unless it is there" (``ON CONFLICT DO NOTHING``), so a resent attempt is
stored once even when two writers send it at the same moment.  The schema is kept by Alembic
(:meth:`RecordStore.upgrade`, revisions in ``migrations/``).

>>> import tempfile
>>> from pangaea_lab.classroom.record.judge import judge, read_batch
>>> folder = tempfile.mkdtemp()
>>> store = RecordStore.in_folder(folder)
>>> store.upgrade()                      # the newest schema revision
'0002'
>>> body = (b'{"attempts": [{"id": "a1", "kind": "harmonies.tree_points", "seed": 3, '
...         b'"level": 1, "answer": null, "hints": 0, "shown": true, "first": true, "time": 1}]}')
>>> store.add("ada", [judge(a) for a in read_batch(body)])
Added(stored=('a1',), already=())
>>> store.add("ada", [judge(a) for a in read_batch(body)])
Added(stored=(), already=('a1',))
>>> [(row.user, row.kind, row.correct, row.source) for row in store.attempts()]
[('ada', 'harmonies.tree_points', False, 'hub')]
>>> store.close()
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, delete, event, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError

from ...core.errors import InvalidData
from ...core.jsonio import parse
from ...core.mastery import Attempt, read_attempts
from .judge import Judged, kinds, read_answer
from .schema import AttemptRow

#: the SQLite file's name in a folder (:meth:`RecordStore.in_folder`)
FILE_NAME = "class-record.sqlite"
#: the longest user name kept (JupyterHub's names are far shorter)
MAX_USER = 100
#: the folder of the Alembic environment and revisions, inside the package
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: how long a writer waits for another to finish (seconds, SQLite)
BUSY_TIMEOUT = 30
#: the execution option that marks a transaction that writes
WRITE_OPTION = "class_record_write"


@dataclass(frozen=True)
class Added:
    """The ids stored by a write, and those that were there already (a resend)."""

    stored: tuple = ()
    already: tuple = ()


@dataclass(frozen=True)
class Row:
    """One stored attempt (times in seconds since 1970; ``received`` is the server's)."""

    user: str
    id: str
    kind: str
    game: str
    notebook: str
    rule: str
    seed: int
    level: int
    answer: str
    answer_text: str
    correct: bool
    misconception: str
    reason: str
    hints: int
    shown: bool
    first: bool
    client_time: float
    received: float
    source: str

    def attempt(self) -> Attempt:
        """The attempt as the learner's own practice record holds it, timed by the server
        (the client's clock is kept, never trusted for order), so ``PracticeRecord`` gives a
        student's status the same way their progress line does."""
        return Attempt(self.kind, self.seed, self.level, self.answer_text, self.correct,
                       hints=self.hints, shown=self.shown, first=self.first,
                       misconception=self.misconception, time=self.received, id=self.id)


def check_user(user: Any) -> str:
    """A hub user name (from the hub's identity, still checked): a text of 1 to 100
    characters."""
    if not isinstance(user, str) or not 1 <= len(user) <= MAX_USER or not user.isprintable():
        raise InvalidData(f"user: expected a name of 1 to {MAX_USER} printable characters")
    return user


def _sqlite_file(path: Path) -> None:
    """Create the database file readable and writable by its owner only (0600), or tighten
    an existing one; SQLite gives its -wal and -shm files the same mode."""
    if path.exists():
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            path.chmod(0o600)
        return
    os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def _sqlite_engine(url: Any) -> Engine:
    database = url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        raise InvalidData("url: a SQLite record needs a file path (sqlite:///path)")
    _sqlite_file(Path(database))
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None     # transactions begun below, not by the driver
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000}")
        cursor.execute("PRAGMA secure_delete=ON")    # a deleted student's rows are overwritten
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # a write takes the write lock at once (two writers queue instead of failing on a
        # lock upgrade); a read takes none and never waits for a writer (WAL)
        writing = connection.get_execution_options().get(WRITE_OPTION)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")

    return engine


def migrations_config(connection: Any = None) -> Config:
    """Alembic's settings for the record: the revisions shipped in the package, run on
    ``connection`` (no alembic.ini is read)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def make_engine(url: str) -> Engine:
    """An engine for a record URL: ``sqlite:///path`` or ``postgresql+psycopg://...``."""
    if not isinstance(url, str) or len(url) > 2000:
        raise InvalidData("url: expected a database URL (sqlite:///path or "
                          "postgresql+psycopg://...)")
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise InvalidData("url: not a database URL (sqlite:///path or "
                          "postgresql+psycopg://...)") from None
    if parsed.get_backend_name() == "sqlite":
        return _sqlite_engine(parsed)
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() == "psycopg":
        try:
            return create_engine(parsed, pool_pre_ping=True)
        except ImportError:
            raise InvalidData("url: PostgreSQL needs the psycopg package, which is not "
                              "installed here (pip install 'pangaea_lab[hub]')") from None
    raise InvalidData(f"url: the record is kept in SQLite or PostgreSQL (psycopg), not "
                      f"{parsed.drivername!r}")


def _row(found: Any) -> Row:
    """A stored row as a :class:`Row`."""
    values = dict(found)
    return Row(user=values["user_name"], id=values["attempt_id"],
               **{name: values[name] for name in _ROW_COLUMNS})


_ROW_COLUMNS = tuple(name for name in Row.__dataclass_fields__ if name not in ("user", "id"))


def _given(given: str, where: str) -> str:
    """A progress file's raw answer (JSON text, checked as an attempt's answer is), or
    "null" when the file does not hold it."""
    if not given:
        return "null"
    try:
        value = read_answer(parse(given, "answer"), where)
    except InvalidData as exc:
        raise InvalidData(f"{where}: not an answer ({str(exc).split(': ', 1)[-1]})") from None
    return json.dumps(value, separators=(",", ":"))


class RecordStore:
    """Every student's attempts in one database (see the module's description)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        #: the same engine for transactions that write
        self.writer = self.engine.execution_options(**{WRITE_OPTION: True})

    @classmethod
    def in_folder(cls, folder: str | Path) -> "RecordStore":
        """The SQLite record ``class-record.sqlite`` in ``folder`` (which must exist)."""
        path = Path(folder)
        if not path.is_dir():
            raise InvalidData(f"folder: {str(folder)[:200]!r} is not a folder")
        return cls(f"sqlite:///{(path / FILE_NAME).resolve()}")

    def upgrade(self, revision: str = "head") -> str:
        """Bring the schema to the newest revision (a new database gets every one), or to
        ``revision``; returns the revision now in force.  Rows are kept."""
        with self.writer.begin() as connection:
            command.upgrade(migrations_config(connection), revision)
        return self.revision()

    def revision(self) -> str:
        """The schema revision of the database ("" before the first upgrade)."""
        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision() or ""

    # ----- writing -------------------------------------------------------------------

    def _insert(self) -> Any:
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        return dialect.insert(AttemptRow).on_conflict_do_nothing(
            index_elements=["user_name", "attempt_id"]).returning(AttemptRow.n)

    def _write(self, rows: list[dict]) -> Added:
        """Insert ``rows`` in one transaction, in the order of the client's clock, then id
        (so two writers sending the same attempts in another order take their locks in one
        order and never wait on each other); ids listed in the order given."""
        inserted: set[str] = set()
        with self.writer.begin() as connection:
            for row in sorted(rows, key=lambda r: (r["client_time"], r["attempt_id"])):
                # a row comes back only when it was inserted (not when it was there)
                if connection.execute(self._insert().values(**row)).first() is not None:
                    inserted.add(row["attempt_id"])
        ids = [row["attempt_id"] for row in rows]
        return Added(tuple(i for i in ids if i in inserted),
                     tuple(i for i in ids if i not in inserted))

    def add(self, user: str, judged: Iterable[Judged], source: str = "hub") -> Added:
        """Store judged attempts of ``user`` in one transaction; an attempt already stored
        (same user, same id) is left as it was and listed in ``already``."""
        user = check_user(user)
        if source not in ("hub", "file"):
            raise InvalidData("source: expected 'hub' or 'file'")
        now = time.time()
        rows = []
        for item in judged:
            sent = item.incoming
            rows.append(dict(
                user_name=user, attempt_id=sent.id, kind=sent.kind, game=item.game,
                notebook=item.notebook, rule=item.rule, seed=sent.seed, level=sent.level,
                answer=json.dumps(sent.answer, separators=(",", ":")),
                answer_text=item.answer_text[:300], correct=bool(item.correct),
                misconception=item.misconception[:60], reason=item.reason[:300],
                hints=sent.hints, shown=sent.shown, first=sent.first,
                client_time=sent.time / 1000, received=now, source=source))
        return self._write(rows)

    def import_file(self, user: str, text: str | bytes) -> Added:
        """Store a learner's saved progress file (read with every field checked) as
        ``user``'s attempts with source "file": its verdicts are the browser's own.  An
        attempt of an exercise this package does not have is refused, naming it."""
        user = check_user(user)
        attempts = read_attempts(text)
        known = kinds()
        now = time.time()
        rows = []
        for k, attempt in enumerate(attempts):
            kind = known.get(attempt.kind)
            if kind is None:
                raise InvalidData(f"attempts[{k}].kind: there is no exercise called "
                                  f"{attempt.kind[:40]!r}")
            if attempt.level not in kind.levels:
                raise InvalidData(f"attempts[{k}].level: {attempt.kind} has levels "
                                  f"{', '.join(map(str, kind.levels))}")
            rows.append(dict(
                user_name=user, attempt_id=attempt.id, kind=attempt.kind, game=kind.game,
                notebook=kind.notebook, rule=kind.rule, seed=attempt.seed,
                level=attempt.level, answer=_given(attempt.given, f"attempts[{k}].given"),
                answer_text=attempt.answer,
                correct=attempt.correct, misconception=attempt.misconception, reason="",
                hints=attempt.hints, shown=attempt.shown, first=attempt.first,
                client_time=attempt.time, received=now, source="file"))
        return self._write(rows)

    def delete_user(self, user: str) -> int:
        """Remove every attempt of ``user``; how many were removed.  In SQLite the removed rows
        are overwritten in the file and its write-ahead log, not only unlinked."""
        user = check_user(user)
        with self.writer.begin() as connection:
            removed = connection.execute(
                delete(AttemptRow).where(AttemptRow.user_name == user)).rowcount
        if self.engine.dialect.name == "sqlite":
            # the write-ahead log's copies of the removed rows go too
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        return removed

    # ----- reading -------------------------------------------------------------------

    def attempts(self, user: str | None = None, game: str | None = None,
                 notebook: str | None = None, since: float | None = None) -> list[Row]:
        """The stored attempts in the order they were received, of one user, game or
        notebook, received at or after ``since`` (seconds), when given."""
        table = AttemptRow.__table__
        query = select(table).order_by(table.c.n)
        if user is not None:
            query = query.where(table.c.user_name == user)
        if game is not None:
            query = query.where(table.c.game == game)
        if notebook is not None:
            query = query.where(table.c.notebook == notebook)
        if since is not None:
            query = query.where(table.c.received >= since)
        with self.engine.connect() as connection:
            return [_row(found) for found in connection.execute(query).mappings()]

    def users(self) -> list[str]:
        """Every user with a stored attempt, by name."""
        with self.engine.connect() as connection:
            names = connection.execute(select(AttemptRow.user_name).distinct()).scalars()
            return sorted(names)

    def count(self) -> int:
        """How many attempts are stored."""
        with self.engine.connect() as connection:
            return connection.execute(select(func.count()).select_from(AttemptRow)).scalar_one()

    def close(self) -> None:
        """Close every connection (the store cannot be used after)."""
        self.engine.dispose()
