"""The class record from the command line, for the hub's administrator:

``python -m pangaea_lab.classroom.record upgrade``         bring the schema to the newest revision
``python -m pangaea_lab.classroom.record backup FILE``     copy a SQLite record to a new file
``python -m pangaea_lab.classroom.record delete NAME``     remove every attempt of one student

The database is the service's: ``--db URL``, else ``PANGAEA_RECORD_DB``, else the SQLite file
in ``--state FOLDER`` or ``PANGAEA_RECORD_STATE``.  A backup of SQLite is taken with SQLite's
own online backup (safe while the service writes); PostgreSQL is backed up with ``pg_dump``.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path
from typing import Mapping

from ...core.errors import InvalidData
from .store import RecordStore, check_user


def _store(args: argparse.Namespace, env: Mapping[str, str]) -> RecordStore:
    url = args.db or env.get("PANGAEA_RECORD_DB", "")
    if url:
        return RecordStore(url)
    state = args.state or env.get("PANGAEA_RECORD_STATE", "")
    if not state:
        raise InvalidData("--db: name the record's database (--db URL or --state FOLDER, or "
                          "set PANGAEA_RECORD_DB or PANGAEA_RECORD_STATE)")
    return RecordStore.in_folder(state)


def backup(store: RecordStore, target: str) -> Path:
    """Copy a SQLite record to ``target``, a new file (0600) that must not exist yet."""
    if store.engine.dialect.name != "sqlite":
        raise InvalidData("backup: this record is in PostgreSQL: back it up with pg_dump "
                          "(pg_dump --format=custom --file=FILE DATABASE)")
    path = Path(target)
    if path.exists() or not path.parent.is_dir():
        raise InvalidData(f"backup: {target[:200]!r} exists already or its folder does not: "
                          "name a new file in an existing folder")
    os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    source = sqlite3.connect(store.engine.url.database)
    copy = sqlite3.connect(path)
    try:
        with copy:
            source.backup(copy)
    finally:
        copy.close()
        source.close()
    return path


def main(argv: list[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Run one command; 0 when done, 2 with one sentence on stderr when refused."""
    parser = argparse.ArgumentParser(prog="python -m pangaea_lab.classroom.record",
                                     description="The class record's database.")
    parser.add_argument("--db", help="database URL (sqlite:///path or postgresql+psycopg://...)")
    parser.add_argument("--state", help="folder holding class-record.sqlite")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("upgrade", help="bring the schema to the newest revision")
    commands.add_parser("backup", help="copy a SQLite record to a new file").add_argument("file")
    commands.add_parser("delete", help="remove one student's attempts").add_argument("name")
    args = parser.parse_args(argv)
    env = os.environ if env is None else env
    try:
        if args.command == "delete":
            check_user(args.name)
        store = _store(args, env)
        try:
            if args.command != "upgrade" and not store.revision():
                raise InvalidData("--db: this database holds no class record yet (run "
                                  "upgrade first, or name another database)")
            if args.command == "upgrade":
                print(f"The class record is at schema revision {store.upgrade()}.")
            elif args.command == "backup":
                print(f"Backed up {store.count()} attempts to {backup(store, args.file)}.")
            else:
                print(f"Removed {store.delete_user(args.name)} attempts of {args.name}.")
        finally:
            store.close()
    except InvalidData as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
