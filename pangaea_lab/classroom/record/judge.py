"""The server is the judge: a batch of attempts sent by a student's kernel is read with every
field checked, then each attempt is judged again by the engine.

:func:`read_batch` takes the raw request body and returns :class:`Incoming` attempts, or raises
:class:`~pangaea_lab.core.errors.InvalidData` whose message starts with the field at fault
("attempts[2].kind: there is no exercise called 'x'").  Nothing the client says about
correctness is read: an attempt has no such field, and one that names it is refused.
:func:`judge` regenerates the exercise from (kind, seed, level), checks the answer with
``Exercise.check`` and returns a :class:`Judged` attempt with the engine's verdict and the
answer in the words the widget uses.

>>> body = b'{"attempts": [{"id": "a1", "kind": "harmonies.tree_points", "seed": 3, "level": 1,'
>>> body += b' "answer": 99, "hints": 0, "shown": false, "first": true, "time": 1}]}'
>>> [attempt] = read_batch(body)
>>> judged = judge(attempt)
>>> judged.correct, judged.answer_text
(False, '99')
>>> read_batch(body.replace(b'"hints"', b'"correct": true, "hints"'))
Traceback (most recent call last):
...
pangaea_lab.core.errors.InvalidData: attempts[0].correct: an attempt has no such field (its fields are id, kind, seed, level, answer, hints, shown, first, time)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...core.errors import InvalidData
from ...core.exercises import MAX_ANSWER_ITEMS, MAX_NUMBER, Exercise, ExerciseKind, short
from ...core.jsonio import Flag, Int, parse
from ...core.validate import kind_of
from ... import exercises

#: the largest request body read (bytes) and the most attempts in one batch
MAX_BODY = 256_000
MAX_BATCH = 100
#: the fields of one attempt, in the order a message lists them
FIELDS = ("id", "kind", "seed", "level", "answer", "hints", "shown", "first", "time")
#: limits of single fields
MAX_SEED = 10**9
MAX_HINTS = 20
MAX_TIME = 10**13          # ms since 1970: far beyond any real clock
MAX_TEXT_ITEM = 100        # characters of one string inside an answer
MAX_CELL = 4               # coordinates of one space
#: exercises kept ready (the same position is checked for many students)
CACHE_SIZE = 512

_ID = re.compile(r"[0-9a-z-]{1,40}")


class TooLarge(InvalidData):
    """A request body over :data:`MAX_BODY` bytes (a service answers 413)."""


@dataclass(frozen=True)
class Incoming:
    """One attempt as a kernel sent it, every field checked (``answer`` is the raw JSON
    value the widget gives to ``Exercise.check``; ``time`` the client's clock in ms)."""

    id: str
    kind: str
    seed: int
    level: int
    answer: Any
    hints: int
    shown: bool
    first: bool
    time: int


@dataclass(frozen=True)
class Judged:
    """An incoming attempt with the server's own verdict and where the kind is taught."""

    incoming: Incoming
    game: str
    notebook: str
    rule: str
    correct: bool
    misconception: str
    reason: str
    answer_text: str

    @property
    def id(self) -> str:
        return self.incoming.id


# ----- reading a batch -------------------------------------------------------------------

def kinds() -> dict[str, ExerciseKind]:
    """Every exercise kind of the package by its key."""
    return {kind.key: kind for kind in exercises.registry()}


def _whole(value: Any, where: str, low: int, high: int) -> int:
    return Int(low, high).read(value, where)


def _flag(value: Any, where: str) -> bool:
    return Flag().read(value, where)


def read_answer(value: Any, where: str) -> Any:
    """An answer of one of the shapes a widget gives: null, a whole number, an option key,
    a list of option keys, a list of spaces (each a list of up to four whole numbers)."""
    if value is None:
        return None
    if isinstance(value, str):
        return _answer_text(value, where)
    if isinstance(value, int) and not isinstance(value, bool):
        return _whole(value, where, -MAX_NUMBER, MAX_NUMBER)
    if not isinstance(value, list):
        raise InvalidData(f"{where}: expected null, a whole number, a text or a list, got "
                          f"{kind_of(value)}")
    if len(value) > MAX_ANSWER_ITEMS:
        raise InvalidData(f"{where}: expected at most {MAX_ANSWER_ITEMS} items, got "
                          f"{len(value)}")
    items = []
    for k, item in enumerate(value):
        at = f"{where}[{k}]"
        if isinstance(item, str):
            items.append(_answer_text(item, at))
        elif isinstance(item, list):
            if not 1 <= len(item) <= MAX_CELL:
                raise InvalidData(f"{at}: a space has 1 to {MAX_CELL} coordinates, got "
                                  f"{len(item)}")
            items.append([_whole(c, f"{at}[{j}]", -10_000, 10_000) for j, c in enumerate(item)])
        else:
            raise InvalidData(f"{at}: expected an option's key or a space, got {kind_of(item)}")
    return items


def _answer_text(value: str, where: str) -> str:
    if len(value) > MAX_TEXT_ITEM:
        raise InvalidData(f"{where}: expected a text of at most {MAX_TEXT_ITEM} characters, "
                          f"got {len(value)}")
    return value


def _attempt(item: Any, where: str, known: dict[str, ExerciseKind]) -> Incoming:
    """One attempt of a batch, every field checked in the order of :data:`FIELDS`."""
    if not isinstance(item, dict):
        raise InvalidData(f"{where}: expected an object, got {kind_of(item)}")
    for name in item:
        if name not in FIELDS:
            raise InvalidData(f"{where}.{short(str(name), 40)}: an attempt has no such field "
                              f"(its fields are {', '.join(FIELDS)})")
    for name in FIELDS:
        if name not in item:
            raise InvalidData(f"{where}.{name}: missing")
    ident = item["id"]
    if not isinstance(ident, str) or not _ID.fullmatch(ident):
        raise InvalidData(f"{where}.id: expected 1 to 40 characters from 0-9, a-z and '-', "
                          f"got {kind_of(ident) if not isinstance(ident, str) else 'another text'}")
    key = item["kind"]
    if not isinstance(key, str) or len(key) > 100:
        raise InvalidData(f"{where}.kind: expected an exercise's name, got {kind_of(key)}")
    if key not in known:
        raise InvalidData(f"{where}.kind: there is no exercise called {short(key, 40)!r}")
    seed = _whole(item["seed"], f"{where}.seed", 0, MAX_SEED)
    levels = known[key].levels
    level = _whole(item["level"], f"{where}.level", 1, max(levels))
    if level not in levels:
        raise InvalidData(f"{where}.level: {key} has levels {', '.join(map(str, levels))}")
    return Incoming(id=ident, kind=key, seed=seed, level=level,
                    answer=read_answer(item["answer"], f"{where}.answer"),
                    hints=_whole(item["hints"], f"{where}.hints", 0, MAX_HINTS),
                    shown=_flag(item["shown"], f"{where}.shown"),
                    first=_flag(item["first"], f"{where}.first"),
                    time=_whole(item["time"], f"{where}.time", 0, MAX_TIME))


def read_batch(body: Any) -> list[Incoming]:
    """The attempts of a request body (bytes), every field checked; raises
    :class:`InvalidData` (:class:`TooLarge` for a body over :data:`MAX_BODY` bytes) whose
    message starts with the field at fault.  All or nothing: one bad attempt refuses the
    batch."""
    if not isinstance(body, (bytes, bytearray)):
        raise InvalidData(f"body: expected bytes, got {kind_of(body)}")
    if len(body) > MAX_BODY:
        raise TooLarge(f"body: {len(body)} bytes is too large (at most {MAX_BODY})")
    try:
        text = bytes(body).decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidData("body: not UTF-8 text") from None
    try:
        data = parse(text, "request body")
    except InvalidData as exc:
        raise InvalidData(f"body: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidData(f"body: expected an object with the field attempts, got {kind_of(data)}")
    for name in data:
        if name != "attempts":
            raise InvalidData(f"{short(str(name), 40)}: not a field of a batch (its one field "
                              "is attempts)")
    batch = data.get("attempts")
    if not isinstance(batch, list):
        raise InvalidData(f"attempts: expected a list, got {kind_of(batch)}")
    if not 1 <= len(batch) <= MAX_BATCH:
        raise InvalidData(f"attempts: expected 1 to {MAX_BATCH} attempts, got {len(batch)}")
    known = kinds()
    read: list[Incoming] = []
    seen: set[str] = set()
    for k, item in enumerate(batch):
        attempt = _attempt(item, f"attempts[{k}]", known)
        if attempt.id in seen:
            raise InvalidData(f"attempts[{k}].id: {attempt.id!r} is named twice in this batch")
        seen.add(attempt.id)
        read.append(attempt)
    return read


# ----- judging ---------------------------------------------------------------------------

@lru_cache(maxsize=CACHE_SIZE)
def exercise(kind: str, seed: int, level: int) -> Exercise:
    """The exercise of (kind, seed, level), built once and kept (least recently used go)."""
    return exercises.generate(kind, seed, level)


def judge(incoming: Incoming) -> Judged:
    """The engine's verdict on one attempt: the exercise is regenerated from its kind, seed
    and level and the answer checked by ``Exercise.check``.  An attempt made after the answer
    was shown, or a Show answer itself, is never right."""
    kind = exercises.get(incoming.kind)
    try:
        ex = exercise(incoming.kind, incoming.seed, incoming.level)
    except Exception:  # noqa: BLE001 - a position that cannot be built is judged, not raised
        return Judged(incoming, kind.game, kind.notebook, kind.rule, False, "unjudged",
                      "That position could not be built on the server.", "")
    if incoming.shown and incoming.answer is None:
        return Judged(incoming, kind.game, kind.notebook, kind.rule, False, "",
                      "The answer was shown.", "")
    verdict = ex.check(incoming.answer)
    correct = verdict.correct and not incoming.shown
    return Judged(incoming, kind.game, kind.notebook, kind.rule, correct,
                  verdict.misconception, verdict.reason, ex.given_text(incoming.answer)[:300])
