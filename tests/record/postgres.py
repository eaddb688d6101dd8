"""A throwaway PostgreSQL cluster for the class record's tests: ``initdb`` into a temporary
folder (as the ``postgres`` system user when the tests run as root, since PostgreSQL refuses
to run as root), listening only on a unix socket in that folder, stopped and removed at the
end.  ``make postgres`` installs Debian's ``postgresql`` package when its programs are
missing.

:func:`cluster` yields a :class:`Cluster`; ``cluster.database()`` creates a fresh, empty
database and gives its SQLAlchemy URL (``postgresql+psycopg://...``).  The fixtures are
registered by ``conftest.py`` beside this file.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from processes import free_port  # noqa: E402

#: the system user that owns the cluster when the tests run as root
SYSTEM_USER = "postgres"


def find_program(name: str) -> str | None:
    """``initdb`` / ``pg_ctl`` on the PATH or in Debian's /usr/lib/postgresql/<version>/bin
    (the newest version)."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return versions[-1] if versions else None


class Cluster:
    """A running cluster: its socket folder, port and superuser."""

    def __init__(self, folder: Path, port: int, user: str) -> None:
        self.folder, self.port, self.user = folder, port, user
        self._names = itertools.count()

    def url(self, database: str = "postgres") -> str:
        return (f"postgresql+psycopg://{self.user}@/{database}"
                f"?host={self.folder}&port={self.port}")

    def database(self) -> str:
        """A new empty database; its URL."""
        import psycopg  # the hub extra's driver; only these tests need it
        name = f"record_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(host=str(self.folder), port=self.port, user=self.user,
                             dbname="postgres", autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _as_owner(command: list[str], owner: str | None) -> list[str]:
    return ["runuser", "-u", owner, "--", *command] if owner else command


@contextmanager
def cluster() -> Iterator[Cluster]:
    """Start a throwaway cluster; stop and remove it afterwards."""
    initdb, pg_ctl = find_program("initdb"), find_program("pg_ctl")
    if not initdb or not pg_ctl:
        raise RuntimeError("PostgreSQL's initdb and pg_ctl are missing: run `make postgres` "
                           "(installs Debian's postgresql package)")
    owner = SYSTEM_USER if os.geteuid() == 0 else None
    user = owner or pwd.getpwuid(os.geteuid()).pw_name
    folder = Path(tempfile.mkdtemp(prefix="pangaea-pg-"))
    data = folder / "data"
    if owner:
        entry = pwd.getpwnam(owner)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    port = free_port()
    try:
        subprocess.run(_as_owner([initdb, "-D", str(data), "-U", user, "--auth=trust",
                                  "--encoding=UTF8", "--no-sync"], owner),
                       check=True, capture_output=True, timeout=120)
        options = f"-c listen_addresses='' -k {folder} -p {port} -c fsync=off"
        subprocess.run(_as_owner([pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-w",
                                  "-t", "60", "-o", options, "start"], owner),
                       check=True, capture_output=True, timeout=120)
        try:
            yield Cluster(folder, port, user)
        finally:
            subprocess.run(_as_owner([pg_ctl, "-D", str(data), "-m", "immediate", "-w",
                                      "stop"], owner), capture_output=True, timeout=120)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
