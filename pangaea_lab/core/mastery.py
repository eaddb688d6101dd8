"""Honest mastery: every attempt a learner makes is recorded, and a kind counts as *mastered*
only after three right answers in a row, on different positions, with no hint and no shown
answer.

An :class:`Attempt` is one Check (or one Show answer) on one exercise: its kind, seed and
level, the answer given (in words), the verdict, how many hints were open, whether the answer
had been shown, whether it was the first check of that position, and when.  The
:class:`PracticeRecord` keeps them in order and answers what the progress line and a teacher
need: which kinds were practised, which are mastered (and at which level), the current run of
clean right answers, and what to practise next.  It is saved as a small JSON file and read back
with every field checked, like every other file from outside.

>>> record = PracticeRecord()
>>> for seed in (1, 2, 3):
...     _ = record.add(Attempt("demo.sum", seed, 1, "5", True, first=True))
>>> record.status("demo.sum").mastered, record.status("demo.sum").run
(True, 3)
>>> record = PracticeRecord()
>>> _ = record.add(Attempt("demo.sum", 1, 1, "5", True, first=True))
>>> _ = record.add(Attempt("demo.sum", 2, 1, "", False, shown=True))   # Show answer
>>> _ = record.add(Attempt("demo.sum", 2, 1, "5", True))            # checked after it
>>> record.status("demo.sum").run, record.status("demo.sum").mastered
(0, False)
"""

from __future__ import annotations

import itertools
import time
from dataclasses import asdict, dataclass
from typing import Callable, Iterable

from .errors import InvalidData
from .jsonio import Flag, Int, Record, Seq, Text, dumps, parse
from .listeners import Listened

#: right answers in a row (clean, on different positions) that make a kind mastered
MASTERY_RUN = 3
#: the attempts a record keeps (the oldest go first); a saved file holds at most these
MAX_ATTEMPTS = 5000
#: the longest raw answer kept with an attempt (characters of JSON text)
MAX_GIVEN = 4000
#: the largest progress file read (characters)
MAX_FILE = 2_000_000
#: the name and version written in every progress file
FILE_KIND = "pangaea_lab practice record"
FILE_VERSION = 1

_COUNTER = itertools.count()


def _attempt_id() -> str:
    """A name for one attempt, unique across the pages of one browser (time and a counter)."""
    return f"{time.time_ns():x}-{next(_COUNTER):x}"


@dataclass(frozen=True)
class Attempt:
    """One Check or one Show answer on one exercise.

    ``correct`` is the engine's verdict (False for a Show answer); ``hints`` how many hints
    were open; ``shown`` whether the answer had been shown; ``first`` whether this was the
    first Check of this position (a right answer after a wrong one on the same position does
    not count towards mastery); ``misconception`` the typical mistake the verdict named.
    """

    kind: str
    seed: int
    level: int
    answer: str
    correct: bool
    hints: int = 0
    shown: bool = False
    first: bool = False
    misconception: str = ""
    time: float = 0.0
    id: str = ""
    #: the raw answer as JSON text, as the widget gave it to ``Exercise.check`` ("null" for a
    #: Show answer; "" when not known): what a class record judges again, never shown
    given: str = ""

    @property
    def clean(self) -> bool:
        """Right at the first Check, with no hint and no shown answer."""
        return self.correct and self.first and not self.hints and not self.shown

    @property
    def position(self) -> tuple[int, int]:
        return (self.seed, self.level)


@dataclass(frozen=True)
class KindStatus:
    """What the record says of one kind."""

    kind: str
    practised: int          # positions answered (a Show answer, which records no answer,
                            # is not practice on its own)
    right: int              # attempts judged right (shown ones never count)
    run: int                # clean right answers in a row, on different positions, just now
    mastered: bool
    mastered_level: int     # the highest level mastered (0: none)
    struggling: bool        # several wrong in a row, or answers shown, just now
    last: float             # time of the latest attempt (0: never)


_SCHEMA = Record({
    "kind": Text((FILE_KIND,)),
    "version": Int(FILE_VERSION, FILE_VERSION),
    "attempts": Seq(Record({
        "kind": Text(longest=100), "seed": Int(0, 10**9), "level": Int(1, 9),
        "answer": Text(longest=300), "correct": Flag(), "hints": Int(0, 20),
        "shown": Flag(), "first": Flag(), "misconception": Text(longest=60),
        "time": Int(0, 10**13), "id": Text(longest=40)},
        optional={"given": (Text(longest=MAX_GIVEN), "")}), longest=MAX_ATTEMPTS),
})


class PracticeRecord(Listened):
    """Every attempt of one learner, in order; listeners are told of each change."""

    def __init__(self, attempts: Iterable[Attempt] = ()) -> None:
        self.attempts: list[Attempt] = []
        self._ids: set[str] = set()
        #: the attempts of each kind, in time order (the progress line asks per kind, often)
        self._by_kind: dict[str, list[Attempt]] = {}
        #: told of each attempt made here (by :meth:`add`, not merged from elsewhere): a
        #: class record's sender takes them (its ``link`` shows how sending goes, or None)
        self.on_new: list[Callable[[Attempt], None]] = []
        self.link: Listened | None = None
        self.merge(attempts, quiet=True)

    # ----- recording -----------------------------------------------------------------

    def add(self, attempt: Attempt) -> Attempt:
        """Record ``attempt`` (stamped with a time and an id when it has none; its texts cut
        to what a progress file holds, so the record always reads back)."""
        given = str(attempt.given or "")
        fitted = {"answer": str(attempt.answer)[:300], "hints": min(attempt.hints, 20),
                  "misconception": str(attempt.misconception or "")[:60],
                  "given": given if len(given) <= MAX_GIVEN else ""}
        if not attempt.id or not attempt.time or any(
                getattr(attempt, name) != value for name, value in fitted.items()):
            attempt = Attempt(**{**asdict(attempt), **fitted,
                                 "time": attempt.time or time.time(),
                                 "id": attempt.id or _attempt_id()})
        self.merge([attempt])
        for listener in list(self.on_new):
            listener(attempt)
        return attempt

    def merge(self, attempts: Iterable[Attempt], quiet: bool = False) -> int:
        """Add the attempts not recorded yet (by id), keep time order; how many were new."""
        new = [a for a in attempts if a.id not in self._ids or not a.id]
        if not new:
            return 0
        self.attempts.extend(new)
        self.attempts.sort(key=lambda a: a.time)
        del self.attempts[:-MAX_ATTEMPTS]
        self._ids = {a.id for a in self.attempts}
        self._by_kind = {}
        for attempt in self.attempts:
            self._by_kind.setdefault(attempt.kind, []).append(attempt)
        if not quiet:
            self._changed()
        return len(new)

    def clear(self) -> None:
        self.attempts.clear()
        self._ids.clear()
        self._by_kind.clear()
        self._changed()

    # ----- reading -------------------------------------------------------------------

    def of(self, kind: str) -> list[Attempt]:
        """The attempts of one kind, oldest first."""
        return list(self._by_kind.get(kind, ()))

    def status(self, kind: str) -> KindStatus:
        """Practised, right, the current clean run, mastered (and the level), struggling.

        Only a position's first attempt can count: a position shown or answered before (in
        this visit or an earlier one) never counts again, and a right answer on it does not
        break the run either.  Mastered at level L: three of the run at level L or higher."""
        attempts = self.of(kind)
        mastered_level = 0
        run: list[tuple[int, int]] = []
        tried: set[tuple[int, int]] = set()
        for attempt in attempts:
            fresh = attempt.position not in tried
            tried.add(attempt.position)
            if attempt.clean and fresh:
                run.append(attempt.position)
                # mastered at level L: three of the run at level L or higher
                levels = sorted((level for _, level in run), reverse=True)
                if len(levels) >= MASTERY_RUN:
                    mastered_level = max(mastered_level, levels[MASTERY_RUN - 1])
            elif attempt.correct and not attempt.shown and not fresh:
                continue    # a position tried before, right again: neither counts nor resets
            else:
                run = []
        tail = attempts[-3:]
        struggling = bool(tail) and (sum(not a.correct for a in tail) >= 2
                                     or any(a.shown for a in tail))
        return KindStatus(
            kind=kind, practised=len({a.position for a in attempts if a.answer}),
            right=sum(a.correct and not a.shown for a in attempts), run=len(run),
            mastered=mastered_level > 0, mastered_level=mastered_level,
            struggling=struggling and not run, last=attempts[-1].time if attempts else 0.0)

    def met_before(self, kind: str, seed: int, level: int) -> bool:
        """Whether this position was answered or shown before (it can no longer count)."""
        return any(a.position == (seed, level) for a in self.of(kind))

    def next_kind(self, kinds: Iterable[str]) -> str | None:
        """The kind to practise next among ``kinds`` (in page order): one practised but not
        mastered first, then one not tried yet; None when all are mastered."""
        statuses = [self.status(k) for k in kinds]
        for status in statuses:
            if status.practised and not status.mastered:
                return status.kind
        for status in statuses:
            if not status.mastered:
                return status.kind
        return None

    def summary(self, kinds: Iterable[str]) -> dict:
        """Counts for a page: kinds, practised, mastered, mastered at level 2 or more, next."""
        kinds = list(dict.fromkeys(kinds))
        statuses = [self.status(k) for k in kinds]
        return {"kinds": len(kinds), "practised": sum(1 for s in statuses if s.practised),
                "mastered": sum(1 for s in statuses if s.mastered),
                "mastered_level_2": sum(1 for s in statuses if s.mastered_level >= 2),
                "right": sum(s.right for s in statuses),
                "next": self.next_kind(kinds)}

    # ----- the progress file ---------------------------------------------------------

    def to_json(self) -> str:
        """The record as a small JSON file (a learner keeps it, or moves it to another
        computer, and loads it back with :meth:`from_json`)."""
        return dumps({"kind": FILE_KIND, "version": FILE_VERSION,
                      "attempts": [_saved(a) for a in self.attempts]})

    @classmethod
    def from_json(cls, text: str | bytes) -> "PracticeRecord":
        """A record read from a progress file; any problem raises :class:`InvalidData`
        naming the field (nothing from the file is trusted)."""
        return cls(read_attempts(text))


def _saved(attempt: Attempt) -> dict:
    """One attempt as a progress file holds it (time in ms; ``given`` only when known, so a
    file stays readable where the field is not known)."""
    saved = {**asdict(attempt), "time": int(attempt.time * 1000)}
    if not saved["given"]:
        del saved["given"]
    return saved


def read_attempts(text: str | bytes) -> list[Attempt]:
    """The attempts of a progress file, every field checked (raises :class:`InvalidData`)."""
    if isinstance(text, (str, bytes, bytearray)) and len(text) > MAX_FILE:
        raise InvalidData(f"the progress file is too large ({len(text)} characters, at most "
                          f"{MAX_FILE})")
    data = _SCHEMA.read(parse(text, "progress file"), "")
    attempts = []
    for row in data["attempts"]:
        attempts.append(Attempt(**{**row, "time": row["time"] / 1000}))
    for k, attempt in enumerate(attempts):
        if not attempt.id:
            raise InvalidData(f"attempts[{k}].id: empty (every attempt has a name)")
    if len({a.id for a in attempts}) != len(attempts):
        raise InvalidData("attempts: two attempts have the same id")
    return attempts
