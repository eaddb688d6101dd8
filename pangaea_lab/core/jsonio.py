"""JSON save files and data files: canonical output and loading that names the bad field."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Callable, TypeVar

from .errors import InvalidData

T = TypeVar("T")
FORMAT_VERSION = 1


def dumps(obj: Any) -> str:
    """Canonical JSON text (sorted keys, compact), so equal states give equal text."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: limits of the JSON reader, for every file the package reads: text size in characters,
#: nesting depth of lists and objects, digits of a whole number
MAX_TEXT = 8_000_000
MAX_DEPTH = 64
MAX_DIGITS = 30

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """The deepest nesting of lists and objects in JSON text (strings skipped), without
    recursion, so a hostile file cannot exhaust the stack."""
    deepest = depth = 0
    for m in _BRACKETS.finditer(_STRINGS.sub("", text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _constant(name: str) -> Any:
    raise InvalidData(f"{name} is not a number a game can use (write a whole number)")


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise InvalidData(f"a number of {len(digits.lstrip('-'))} digits is far too large "
                          "for any game")
    return int(digits)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InvalidData(f"the number {text[:20]} is too large for any game")
    return value


def parse(text: str | bytes, what: str = "save file") -> Any:
    """Parse JSON text safely, turning every problem into :class:`InvalidData`.

    Refused before or while parsing: text over ``MAX_TEXT`` characters, nesting deeper than
    ``MAX_DEPTH``, ``Infinity``/``NaN``, decimals too large to be finite and whole numbers of
    more than ``MAX_DIGITS`` digits (so a few bytes cannot ask for a huge number).

    >>> parse('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> parse('[' * 100 + ']' * 100)
    Traceback (most recent call last):
    ...
    pangaea_lab.core.errors.InvalidData: the save file nests lists or objects 100 deep (at most 64)
    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_TEXT * 4:
            raise InvalidData(f"the {what} is too large ({len(text)} bytes)")
        text = bytes(text).decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InvalidData(f"the {what} must be JSON text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise InvalidData(f"the {what} is too large ({len(text)} characters, at most "
                          f"{MAX_TEXT})")
    depth = _depth(text)
    if depth > MAX_DEPTH:
        raise InvalidData(f"the {what} nests lists or objects {depth} deep (at most "
                          f"{MAX_DEPTH})")
    try:
        return json.loads(text, parse_constant=_constant, parse_int=_int, parse_float=_float)
    except InvalidData as exc:
        raise InvalidData(f"the {what}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise InvalidData(f"the {what} is not valid JSON: {exc.msg} at line {exc.lineno}, "
                          f"column {exc.colno}") from None
    except (RecursionError, ValueError, OverflowError) as exc:
        raise InvalidData(f"the {what} cannot be read as JSON: {exc}") from None


def load_file(path: str | Path, what: str = "data file") -> Any:
    """Read and parse a JSON file, with a clear error if it is missing or malformed.

    Only an ordinary file is read, and at most ``MAX_TEXT`` characters of it: a device
    (``/dev/zero``) or a named pipe is refused before it is opened."""
    p = Path(path)
    try:
        if not p.is_file():
            raise InvalidData(f"cannot read the {what} {str(p)!r}: not an ordinary file")
        with p.open("rb") as fh:
            raw = fh.read(MAX_TEXT * 4 + 1)
    except OSError as exc:
        raise InvalidData(f"cannot read the {what} {str(p)!r}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidData(f"the {what} {p.name!r} is not UTF-8 text") from None
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
