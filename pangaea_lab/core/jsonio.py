"""JSON save files and data files: canonical output and loading that names the bad field."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Callable, TypeVar

from .errors import InvalidData
from .validate import kind_of, load_guarded

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

#: a JSON string, quotes included (written so that the engine takes long strings in strides)
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
#: a whole number (not part of a decimal or an exponent) of more than MAX_DIGITS digits
_LONG_WHOLE = re.compile(r"(?<![0-9.eE+-])-?[0-9]{%d,}(?![0-9.eE])" % (MAX_DIGITS + 1))
#: bytes.translate tables: brackets only, as ``[`` and ``]``; every digit as ``0``
_BRACKETS_ONLY = (bytes.maketrans(b"{}", b"[]"), bytes(set(range(256)) - set(b"[]{}")))
_DIGITS_AS_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)


def _outside_strings(text: str) -> bytes:
    """The JSON text with its strings taken out (so that brackets and digits inside them do
    not count), as UTF-8 bytes."""
    if "\\" not in text:
        # no escapes: every quote opens or closes a string, so a plain split finds them
        return "".join(text.split('"')[0::2]).encode()
    return _STRINGS.sub("", text).encode()


def _depth(text: str | bytes) -> int:
    """The deepest nesting of lists and objects in JSON text (strings skipped), without
    recursion, so a hostile file cannot exhaust the stack."""
    bare = (text if isinstance(text, bytes) else _outside_strings(text)).translate(
        *_BRACKETS_ONLY)
    # Each pass takes away the innermost pairs, so a balanced text is empty after as many
    # passes as it is deep (a few, for any real file); what is left is counted one by one.
    passes = 0
    while bare and passes <= MAX_DEPTH:
        shorter = bare.replace(b"[]", b"")
        if len(shorter) == len(bare):
            break
        bare, passes = shorter, passes + 1
    deepest = depth = 0
    for bracket in bare:
        depth += 1 if bracket == 91 else -1      # 91: "["
        deepest = max(deepest, depth)
    return passes + deepest


def _long_whole(outside: bytes) -> str | None:
    """The first whole number of more than MAX_DIGITS digits in text outside strings."""
    if b"0" * (MAX_DIGITS + 1) not in outside.translate(_DIGITS_AS_ZERO):
        return None             # no run of that many digits at all (the usual case)
    found = _LONG_WHOLE.search(outside.decode())
    return found.group(0) if found else None


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
    outside = _outside_strings(text)
    depth = _depth(outside)
    if depth > MAX_DEPTH:
        raise InvalidData(f"the {what} nests lists or objects {depth} deep (at most "
                          f"{MAX_DEPTH})")
    try:
        long = _long_whole(outside)
        if long is not None:
            _int(long)      # refused here: whole numbers are read by json itself
        return json.loads(text, parse_constant=_constant, parse_float=_float)
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


# ----- the save pipeline: declared fields, then build, then invariants ----------------------
#
# A game declares the shape of its save as a tree of specs (:class:`Record`, :class:`Seq`,
# :class:`Int` ...).  ``spec.read(value, where)`` checks a parsed JSON value against it and
# returns it as Python data (lists become tuples), or raises :class:`InvalidData` naming the
# field by its path in the file, e.g. ``players[1].hand[3]: expected a text, got a list``.
# :func:`load_save` is the one template every game's ``from_json`` follows.

def _at(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


class Spec:
    """The declared shape of one field of a save."""

    def read(self, value: Any, where: str) -> Any:  # pragma: no cover - every spec overrides
        raise NotImplementedError

    def fail(self, where: str, wanted: str, value: Any) -> InvalidData:
        shown = f"a number of {len(str(abs(value)))} digits" if (
            isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12
        ) else kind_of(value)
        return InvalidData(f"{where or 'the file'}: expected {wanted}, got {shown}")


class Int(Spec):
    """A whole number (not true/false) from ``low`` to ``high``.

    >>> Int(0, 50).read(2**63, "shadow_markers")
    Traceback (most recent call last):
    ...
    pangaea_lab.core.errors.InvalidData: shadow_markers: expected a whole number from 0 to 50, got a number of 19 digits
    >>> Int(1, 2).read(3, "level")
    Traceback (most recent call last):
    ...
    pangaea_lab.core.errors.InvalidData: level: expected a whole number from 1 to 2, got 3
    """

    def __init__(self, low: int = 0, high: int = 10_000) -> None:
        self.low, self.high = low, high

    def read(self, value: Any, where: str) -> int:
        wanted = f"a whole number from {self.low} to {self.high}"
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, wanted, value)
        if not self.low <= value <= self.high:
            if abs(value) > 10**12:
                raise self.fail(where, wanted, value)
            raise InvalidData(f"{where or 'the file'}: expected {wanted}, got {value}")
        return value


class Flag(Spec):
    """true or false."""

    def read(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, "true or false", value)
        return value


class Text(Spec):
    """A text of at most ``longest`` characters, one of ``choices`` when given."""

    def __init__(self, choices: Any = None, longest: int = 200) -> None:
        self.choices = None if choices is None else tuple(choices)
        self.longest = longest

    def read(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or len(value) > self.longest:
            raise self.fail(where, f"a text of at most {self.longest} characters", value)
        if self.choices is not None and value not in self.choices:
            shown = value if len(value) <= 40 else value[:37] + "..."
            allowed = ", ".join(repr(c) for c in self.choices[:12])
            raise InvalidData(f"{where}: {shown!r} is not one of {allowed}")
        return value


class Maybe(Spec):
    """``null`` or the inner spec."""

    def __init__(self, inner: Spec) -> None:
        self.inner = inner

    def read(self, value: Any, where: str) -> Any:
        return None if value is None else self.inner.read(value, where)


class Either(Spec):
    """The first of several specs that accepts the value (e.g. a seed: a number or a text)."""

    def __init__(self, *options: Spec, wanted: str = "") -> None:
        self.options = options
        self.wanted = wanted

    def read(self, value: Any, where: str) -> Any:
        for option in self.options:
            try:
                return option.read(value, where)
            except InvalidData:
                continue
        raise self.fail(where, self.wanted or "another kind of value", value)


class Seq(Spec):
    """A list (read as a tuple) of items of one spec, at most ``longest`` long, or exactly
    ``length`` long when given."""

    def __init__(self, item: Spec, longest: int = 1000, length: int | None = None) -> None:
        self.item, self.longest, self.length = item, longest, length

    def read(self, value: Any, where: str) -> tuple:
        if not isinstance(value, list):
            raise self.fail(where, "a list", value)
        if self.length is not None and len(value) != self.length:
            raise InvalidData(f"{where}: expected a list of {self.length} items, "
                              f"got {len(value)}")
        if len(value) > self.longest:
            raise InvalidData(f"{where}: expected at most {self.longest} items, "
                              f"got {len(value)}")
        return tuple(self.item.read(v, _at(where, i)) for i, v in enumerate(value))


class Row(Spec):
    """A list of a fixed number of items, each read with its own spec (a compact record such
    as ``[card, sapling?, slots]``); read as a tuple."""

    def __init__(self, *items: Spec) -> None:
        self.items = items

    def read(self, value: Any, where: str) -> tuple:
        if not isinstance(value, list):
            raise self.fail(where, "a list", value)
        if len(value) != len(self.items):
            raise InvalidData(f"{where}: expected a list of {len(self.items)} items, "
                              f"got {len(value)}")
        return tuple(spec.read(v, _at(where, k))
                     for k, (spec, v) in enumerate(zip(self.items, value)))


class Record(Spec):
    """An object with named fields (read as a dict).  ``optional`` fields have a default;
    keys not declared are refused unless ``extra=True``."""

    def __init__(self, fields: dict[str, Spec], optional: dict[str, tuple[Spec, Any]] | None = None,
                 extra: bool = False) -> None:
        self.fields = fields
        self.optional = optional or {}
        self.extra = extra

    def read(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(where, "an object", value)
        out = {}
        for name, spec in self.fields.items():
            if name not in value:
                raise InvalidData(f"{_at(where, name)}: missing")
            out[name] = spec.read(value[name], _at(where, name))
        for name, (spec, default) in self.optional.items():
            out[name] = spec.read(value[name], _at(where, name)) if name in value else default
        if not self.extra:
            unknown = [k for k in value if k not in self.fields and k not in self.optional]
            if unknown:
                raise InvalidData(f"{_at(where, str(unknown[0])[:40])}: not a field of this "
                                  "file")
        return out


class Check(Spec):
    """A spec written as a function ``fn(value, where)`` for a shape the others don't cover
    (it raises :class:`InvalidData` naming ``where``)."""

    def __init__(self, fn: Callable[[Any, str], Any]) -> None:
        self.fn = fn

    def read(self, value: Any, where: str) -> Any:
        return self.fn(value, where)


def load_save(text: str | bytes, game: str, schema: Record, build: Callable[[dict], T],
              what: str = "save file") -> T:
    """The one way a save is read, for every game:

    1. parse the text (sizes and depth limited) and check its ``game`` and ``format``;
    2. read every declared field with ``schema`` (the error names the bad field's path);
    3. ``build(values)`` makes the state;
    4. the state's invariants are checked (they raise, never ``assert``) and the position is
       probed (its legal actions, scores and save text can be computed).
    Any failure is :class:`InvalidData`; nothing is read from any file a save names."""
    def run() -> T:
        data = open_save(text, game)
        values = schema.read({k: v for k, v in data.items() if k not in ("game", "format")}, "")
        state = build(values)
        state.check_invariants()
        return state
    return load_guarded(what, run)
