"""``python -m pangaea_lab.classroom.record``: upgrade, backup (SQLite) and delete, as the
hub's administrator runs them; every refusal is one sentence and exit status 2."""

from __future__ import annotations

import json
import sqlite3
import stat
import subprocess
import sys

import pytest

from pangaea_lab.classroom.record.__main__ import main
from pangaea_lab.classroom.record.judge import judge, read_batch
from pangaea_lab.classroom.record.store import FILE_NAME, RecordStore


def add(store, user, *ids):
    body = {"attempts": [{"id": i, "kind": "harmonies.tree_points", "seed": 1, "level": 1,
                          "answer": 0, "hints": 0, "shown": False, "first": True, "time": 1}
                         for i in ids]}
    store.add(user, [judge(a) for a in read_batch(json.dumps(body).encode())])


def test_upgrade_backup_and_delete_from_the_state_folder(tmp_path, capsys):
    env = {"PANGAEA_RECORD_STATE": str(tmp_path)}
    assert main(["upgrade"], env) == 0
    assert "revision 0002" in capsys.readouterr().out
    store = RecordStore.in_folder(tmp_path)
    add(store, "ada", "a1", "a2")
    add(store, "bea", "b1")
    copy = tmp_path / "copy.sqlite"
    assert main(["backup", str(copy)], env) == 0
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    with sqlite3.connect(copy) as connection:
        assert connection.execute("SELECT count(*) FROM attempts").fetchone() == (3,)
    assert main(["--db", f"sqlite:///{tmp_path / FILE_NAME}", "delete", "ada"], {}) == 0
    assert "Removed 2 attempts of ada." in capsys.readouterr().out
    assert store.users() == ["bea"]
    store.close()


@pytest.mark.parametrize("argv, env, words", [
    (["upgrade"], {}, "--db: name the record's database"),
    (["--db", "mysql://x/y", "upgrade"], {}, "url:"),
    (["delete", ""], {"PANGAEA_RECORD_STATE": "."}, "user:"),
    (["--state", "/no/such/folder", "upgrade"], {}, "folder:"),
])
def test_refusals_are_one_sentence(argv, env, words, capsys):
    assert main(argv, env) == 2
    assert capsys.readouterr().err.startswith(words)


def test_backup_never_overwrites_and_needs_a_record(tmp_path, capsys):
    env = {"PANGAEA_RECORD_STATE": str(tmp_path)}
    assert main(["backup", str(tmp_path / "b.sqlite")], env) == 2
    assert "no class record yet" in capsys.readouterr().err
    main(["upgrade"], env)
    existing = tmp_path / "keep.txt"
    existing.write_text("mine")
    assert main(["backup", str(existing)], env) == 2
    assert existing.read_text() == "mine"
    assert main(["backup", str(tmp_path / "no" / "b.sqlite")], env) == 2


@pytest.mark.postgres
def test_backup_of_postgresql_points_to_pg_dump(postgres_cluster, capsys):
    url = postgres_cluster.database()
    assert main(["--db", url, "upgrade"], {}) == 0
    assert main(["--db", url, "backup", "/tmp/never-written.sqlite"], {}) == 2
    assert "pg_dump" in capsys.readouterr().err


def test_the_module_runs_as_a_command(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pangaea_lab.classroom.record", "--state",
                           str(tmp_path), "upgrade"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "revision 0002" in done.stdout
