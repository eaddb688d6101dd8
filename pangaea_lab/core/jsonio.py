"""JSON save files and data files: canonical output and loading that names the bad field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, TypeVar

from .errors import InvalidData

T = TypeVar("T")
FORMAT_VERSION = 1


def dumps(obj: Any) -> str:
    """Canonical JSON text (sorted keys, compact), so equal states give equal text."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def parse(text: str | bytes, what: str = "save file") -> Any:
    """Parse JSON text, turning a syntax error into :class:`InvalidData`."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InvalidData(f"the {what} must be JSON text, not {type(text).__name__}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidData(f"the {what} is not valid JSON: {exc.msg} at line {exc.lineno}, "
                          f"column {exc.colno}") from None


def load_file(path: str | Path, what: str = "data file") -> Any:
    """Read and parse a JSON file, with a clear error if it is missing or malformed."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidData(f"cannot read the {what} {str(p)!r}: {exc.strerror}") from None
    return parse(text, what=f"{what} {p.name!r}")


def open_save(text: str | bytes, game: str) -> dict:
    """Parse a save file and check its ``game`` and ``format`` fields; returns the object."""
    data = parse(text)
    if not isinstance(data, dict):
        raise InvalidData("the save file must hold a JSON object at the top level")
    if data.get("game") != game:
        raise InvalidData(f"field 'game': this is a save of {data.get('game')!r}, "
                          f"not of {game!r}")
    if data.get("format") != FORMAT_VERSION:
        raise InvalidData(f"field 'format': expected {FORMAT_VERSION}, "
                          f"found {data.get('format')!r}")
    return data


def field(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``obj[key]`` checked to be of ``kind``; :class:`InvalidData` names ``where.key``."""
    if not isinstance(obj, dict):
        raise InvalidData(f"{where} must be a JSON object")
    if key not in obj:
        raise InvalidData(f"missing field {where}.{key}")
    value = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise InvalidData(f"field {where}.{key} has the wrong type (found true/false)")
    if not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise InvalidData(f"field {where}.{key} must be {names}, found {type(value).__name__}")
    return value


def convert(where: str, fn: Callable[[], T]) -> T:
    """Run ``fn``; any KeyError/TypeError/IndexError/ValueError becomes :class:`InvalidData`
    mentioning ``where`` (for deep structures where checking each field by hand is noise)."""
    try:
        return fn()
    except InvalidData:
        raise
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
        raise InvalidData(f"{where} is malformed: {exc}") from None
