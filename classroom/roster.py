"""The class list and the hub's secrets, checked before JupyterHub starts (pure Python: no
JupyterHub needed, so the checks are tested by ``make test``).

A roster is a text file the teacher writes, one person per line::

    # class 7B
    ada
    grace
    hopper teacher

A name is 1 to 20 characters: lower-case letters, digits and hyphens, starting with a letter
(it becomes the system user ``pl-<name>`` that runs that person's server).  The word
``teacher`` after a name makes that person a hub admin.  Lines starting with ``#`` are notes.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

#: a roster name; the system user is SYSTEM_PREFIX + name (at most 23 characters)
NAME = re.compile(r"[a-z][a-z0-9-]{0,19}")
SYSTEM_PREFIX = "pl-"
MAX_ROSTER_BYTES = 64_000
MAX_NAMES = 1_000
ROLES = ("student", "teacher")

#: words for generated passwords: easy to read aloud and to type on a school keyboard
WORDS = (
    "acorn", "alder", "amber", "aspen", "badger", "beech", "birch", "bramble", "brook", "cedar",
    "clover", "comet", "coral", "crane", "dune", "ember", "falcon", "fern", "finch", "fjord",
    "flint", "frost", "gecko", "glade", "granite", "gull", "harbor", "hazel", "heron", "island",
    "ivy", "juniper", "kelp", "kestrel", "lagoon", "larch", "lichen", "lynx", "maple", "marsh",
    "meadow", "moss", "newt", "oak", "orchid", "otter", "pebble", "pine", "plover", "quartz",
    "raven", "reed", "ridge", "river", "robin", "sage", "salmon", "spruce", "stone", "thistle",
    "tundra", "vole", "willow", "wren",
)


class RosterError(ValueError):
    """A roster or a secret the hub cannot start with; the message says what to change."""


@dataclass(frozen=True)
class Roster:
    students: tuple[str, ...]
    teachers: tuple[str, ...]

    @property
    def everyone(self) -> tuple[str, ...]:
        return self.students + self.teachers


def system_user(name: str) -> str:
    """The system user that runs ``name``'s server."""
    if not NAME.fullmatch(name):
        raise RosterError(f"{name!r} is not a roster name")
    return SYSTEM_PREFIX + name


def parse_roster(text: str, source: str = "the roster") -> Roster:
    """The names in a roster's text; a line that is not a name (and an optional role) is
    refused with its line number."""
    if not isinstance(text, str):
        raise RosterError(f"{source} must be text")
    if len(text.encode("utf-8", "replace")) > MAX_ROSTER_BYTES:
        raise RosterError(f"{source} is longer than {MAX_ROSTER_BYTES:,} bytes: is it the "
                          "right file?")
    roles: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        name, role = words[0], (words[1] if len(words) > 1 else "student")
        where = f"{source}, line {number}"
        if len(words) > 2 or role not in ROLES:
            raise RosterError(f"{where}: write a name, optionally followed by the word "
                              f"'teacher' (found {line.strip()[:60]!r})")
        if not NAME.fullmatch(name):
            raise RosterError(
                f"{where}: {name[:40]!r} is not a usable name: 1 to 20 lower-case letters, "
                "digits or hyphens, starting with a letter")
        if name in roles:
            raise RosterError(f"{where}: {name} is on the roster twice")
        roles[name] = role
        if len(roles) > MAX_NAMES:
            raise RosterError(f"{source} holds more than {MAX_NAMES:,} names")
    if not roles:
        raise RosterError(f"{source} holds no names: write one name per line")
    return Roster(tuple(n for n, r in roles.items() if r == "student"),
                  tuple(n for n, r in roles.items() if r == "teacher"))


def read_roster(path: str | os.PathLike) -> Roster:
    """The roster file the hub was told about (the teacher's own file, named in the hub's
    settings, never by a student)."""
    path = Path(path)
    if not path.is_file():
        raise RosterError(f"The roster {path} does not exist: write the class's names in it, "
                          "one per line (see classroom/README.md)")
    if path.stat().st_size > MAX_ROSTER_BYTES:
        raise RosterError(f"The roster {path} is longer than {MAX_ROSTER_BYTES:,} bytes")
    return parse_roster(path.read_text(encoding="utf-8", errors="replace"), f"The roster {path}")


def new_password() -> str:
    """A password to hand out: three words and three digits (about 28 bits; with the
    hub's lock after a few wrong tries that is plenty for a classroom)."""
    words = [secrets.choice(WORDS) for _ in range(3)]
    return "-".join(words) + f"-{secrets.randbelow(1000):03d}"


def check_private_file(path: str | os.PathLike, what: str) -> Path:
    """``path`` is a regular file only its owner can read or write (a key or a secret)."""
    path = Path(path)
    try:
        info = path.stat()
    except OSError:
        raise RosterError(f"{what} {path} cannot be read: give the path of an existing file")
    if not stat.S_ISREG(info.st_mode):
        raise RosterError(f"{what} {path} is not a file")
    if info.st_mode & 0o077:
        raise RosterError(f"{what} {path} can be read by other users of this machine: "
                          f"run `chmod 600 {path}`")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise RosterError(f"{what} {path} belongs to another user: the hub's own user must "
                          "own it")
    return path


def check_private_folder(path: str | os.PathLike, what: str) -> Path:
    """Create ``path`` if needed and make sure only its owner can enter it."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    info = path.stat()
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise RosterError(f"{what} {path} belongs to another user: the hub's own user must "
                          "own it")
    if info.st_mode & 0o077:
        path.chmod(0o700)
    return path
