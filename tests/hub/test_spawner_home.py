"""A person's system user follows this hub's home folder: a user made earlier for another
folder (the hub's ROOT moved, or another hub on the machine made it) is moved to this one, so
their server never writes into the old folder.  Runs as root with the hub suite."""

from __future__ import annotations

import logging
import pwd
import subprocess
import sys
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "classroom"))

from pangaea_hub import StudentSpawner  # noqa: E402


@pytest.fixture
def system_name():
    name = "pl-home" + uuid.uuid4().hex[:6]
    yield name
    subprocess.run(["userdel", name], capture_output=True)


def spawner_for(name: str, homes: Path) -> SimpleNamespace:
    return SimpleNamespace(system_name=name, home=homes / "ada", homes=str(homes),
                           skeleton="", teacher_files="", runtime_dirs="",
                           user=SimpleNamespace(name="ada", admin=False),
                           log=logging.getLogger("test"))


def test_a_user_made_for_another_home_is_moved_to_this_hubs_home(tmp_path, system_name):
    old, new = tmp_path / "old-root" / "home", tmp_path / "new-root" / "home"
    StudentSpawner.ensure_system_user(spawner_for(system_name, old))
    assert pwd.getpwnam(system_name).pw_dir == str(old / "ada")

    StudentSpawner.ensure_system_user(spawner_for(system_name, new))

    account = pwd.getpwnam(system_name)
    assert account.pw_dir == str(new / "ada")
    home = new / "ada"
    assert home.stat().st_uid == account.pw_uid
    assert home.stat().st_mode & 0o777 == 0o700
