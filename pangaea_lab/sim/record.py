"""The run record: what made a run, kept as ``_run.json`` in its results folder.

It holds the run's settings (game, players, bots, options, ...), the package version and a
fingerprint of the engine's code (the game's rules package with its ``summary`` part, the
shared engine modules and the lab's own game reader), so that a resume after the rules changed is refused: games played by
two different rule sets are never mixed in one table.

>>> len(engine_fingerprint("inori")), engine_fingerprint("inori") == engine_fingerprint("inori")
(16, True)
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

#: the package folder (``pangaea_lab/``)
PACKAGE = Path(__file__).resolve().parents[1]
#: the engine modules every game shares (the core's teaching widgets are left out: they never
#: change a game)
CORE_ENGINE = ("engine.py", "errors.py", "game.py", "hexgrid.py", "jsonio.py", "players.py",
               "protocol.py", "rng.py", "validate.py")
#: the lab's modules that turn a game into a row
LAB = ("games.py", "play.py")
#: files of a game package that only draw or teach, so they never change a game
NOT_RULES = ("widget", "render", "exercise", "graph_lab")
#: the keys of a record that name the run itself rather than what decides its games
OWN_KEYS = ("run_id", "started")


def _rules_files(game: str, root: Path) -> list[Path]:
    package = root / game
    files = [p for p in package.rglob("*") if p.is_file() and p.suffix in (".py", ".json")
             and "__pycache__" not in p.parts
             and not any(word in p.name for word in NOT_RULES)
             and not any(word in part for part in p.relative_to(package).parts[:-1]
                         for word in NOT_RULES)]
    files += [root / "core" / name for name in CORE_ENGINE]
    files += [root / "sim" / name for name in LAB]
    return sorted(p for p in files if p.is_file())


@functools.lru_cache(maxsize=None)
def engine_fingerprint(game: str, root: Path = PACKAGE) -> str:
    """A short fingerprint (16 hex digits) of the code and data that decide a game of
    ``game``: any change to its rules, its data files, the shared engine or the lab's row
    maker gives another fingerprint."""
    digest = hashlib.sha256()
    for path in _rules_files(game, root):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The keys that decide a run's games and differ between two records, in words."""
    keys = sorted((set(old) | set(new)) - set(OWN_KEYS))
    return [f"{k}: {old.get(k)!r} in the file, {new.get(k)!r} now"
            for k in keys if old.get(k) != new.get(k)]


def refusal(path: Path, old: dict[str, Any], new: dict[str, Any]) -> str | None:
    """Why a run with record ``new`` may not continue the folder holding ``old`` (or None)."""
    diffs = differences(old, new)
    if not diffs:
        return None
    changed = {d.split(":")[0] for d in diffs}
    if changed & {"engine", "version", "format"} and not changed - {"engine", "version",
                                                                    "format"}:
        return (f"{path} was played by other rules or another version of pangaea_lab "
                f"({'; '.join(diffs)}); games of different rules are never mixed in one "
                "table: start a new results folder (load() still reads this one)")
    return (f"{path} holds a run with other settings ({'; '.join(diffs)}); results of "
            "different settings are never mixed: choose another results folder")


def as_json(record: dict[str, Any]) -> bytes:
    return json.dumps(record, indent=1, sort_keys=True).encode()
