"""The class record's schema migrations (Alembic, shipped in the package): a database made by
the first schema is upgraded with its rows kept, and the newest revision is exactly the
schema the models declare; on SQLite always and on PostgreSQL with the ``postgres`` marker."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from pangaea_lab import exercises
from pangaea_lab.classroom.record.judge import judge, read_batch
from pangaea_lab.classroom.record.schema import Base
from pangaea_lab.classroom.record.store import MIGRATIONS, RecordStore, migrations_config

FIRST_ROW = {"user_name": "ada", "attempt_id": "old1", "kind": "harmonies.tree_points",
             "game": "harmonies", "notebook": "x.ipynb", "seed": 3, "level": 1,
             "answer": "4", "answer_text": "4", "correct": True, "misconception": "",
             "reason": "Right.", "hints": 0, "shown": False, "first": True,
             "client_time": 100.0, "received": 200.0, "source": "hub"}


@pytest.fixture
def first_schema(record_url):
    """A database made by revision 0001, holding two students' rows."""
    store = RecordStore(record_url)
    assert store.upgrade("0001") == "0001"
    columns = ", ".join(FIRST_ROW)
    values = ", ".join(f":{name}" for name in FIRST_ROW)
    with store.engine.begin() as connection:
        assert "rule" not in {c["name"] for c in inspect(connection).get_columns("attempts")}
        for user, ident, kind in (("ada", "old1", "harmonies.tree_points"),
                                  ("bea", "old2", "pangaea.seeds_needed"),
                                  ("bea", "old3", "gone.kind")):
            connection.execute(text(f"INSERT INTO attempts ({columns}) VALUES ({values})"),
                               {**FIRST_ROW, "user_name": user, "attempt_id": ident,
                                "kind": kind})
    yield store
    store.close()


def test_the_revisions_are_one_line_from_0001_to_head():
    scripts = ScriptDirectory.from_config(migrations_config())
    assert [s.revision for s in scripts.walk_revisions()] == ["0002", "0001"]
    assert scripts.get_current_head() == "0002"


def test_an_upgrade_keeps_the_rows_of_the_first_schema(first_schema):
    store = first_schema
    assert store.upgrade() == "0002"
    rows = store.attempts()
    assert [(r.user, r.id, r.correct, r.received) for r in rows] == [
        ("ada", "old1", True, 200.0), ("bea", "old2", True, 200.0), ("bea", "old3", True, 200.0)]
    # the new column is filled from the exercise registry; a kind no longer shipped keeps ""
    assert [r.rule for r in rows] == [exercises.get("harmonies.tree_points").rule,
                                      exercises.get("pangaea.seeds_needed").rule, ""]
    with store.engine.connect() as connection:
        indexes = {i["name"] for i in inspect(connection).get_indexes("attempts")}
    assert "ix_attempts_game_notebook" in indexes
    # the upgraded record takes new attempts, and still knows the old ones' ids
    body = {"attempts": [{"id": i, "kind": "harmonies.tree_points", "seed": 1, "level": 1,
                          "answer": 0, "hints": 0, "shown": False, "first": True, "time": 1}
                         for i in ("old1", "new1")]}
    added = store.add("ada", [judge(a) for a in read_batch(json.dumps(body).encode())])
    assert added.stored == ("new1",) and added.already == ("old1",)
    assert store.upgrade() == "0002"            # a second upgrade changes nothing
    assert store.count() == 4


def test_a_downgrade_to_the_first_schema_keeps_the_rows(first_schema):
    store = first_schema
    assert store.upgrade() == "0002"
    with store.engine.begin() as connection:
        command.downgrade(migrations_config(connection), "0001")
    assert store.revision() == "0001"
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM attempts")).scalar_one() == 3


def test_the_newest_revision_is_the_models_schema(record_url):
    store = RecordStore(record_url)
    store.upgrade()
    with store.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    store.close()
    assert differences == []


def test_every_migration_file_is_package_data():
    """A hub upgraded with pip gets the revisions: pyproject.toml ships every file of
    migrations/ with the package."""
    tomllib = pytest.importorskip("tomllib")       # Python 3.11 and later
    root = Path(__file__).resolve().parents[2]
    settings = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    globs = settings["package-data"]["pangaea_lab.classroom.record"]
    files = [p.relative_to(MIGRATIONS.parent).as_posix() for p in MIGRATIONS.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts]
    assert len(files) >= 4
    assert [f for f in files if not any(fnmatch.fnmatch(f, g) for g in globs)] == []
