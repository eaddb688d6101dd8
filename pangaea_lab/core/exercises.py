"""Exercises that teach: a position, a question, the engine as the answer key, and feedback
that points at what is wrong in an answer without giving the right one away.

An *exercise kind* is a generator ``(seed, level) -> Exercise`` registered with
:func:`register`.  The generator builds a readable position with the rules engine, asks a
question in plain words, and stores the engine's answer together with a ``checker`` that
judges any answer a learner gives.  A wrong answer's reason says what is wrong *in that
answer* (the space that is out of range and why, the part of a score that was missed) and
never states the right answer; the answer itself is shown only by Show answer.  Each exercise
carries ``hints``, at least two, from a nudge ("look at the Trees next to the Spirit") to a
pointer on this very position.  Nothing here knows a game: the games register their kinds
(``pangaea_lab.<game>.exercises``) and ``pangaea_lab.exercises.registry()`` lists them all.

Answer kinds (what a learner does to answer):

``"cells"``   click one or several spaces of the board (a set of cells, order free)
``"path"``    click spaces in order (a tuple of cells)
``"choice"``  pick one of :attr:`Exercise.options` (an option key)
``"choices"`` pick several of :attr:`Exercise.options` (a list or set of option keys)
``"number"``  type a whole number

Every kind has at least two *levels*: level 1 isolates the rule on a small position, level 2
puts it in a fuller, game-like one with more to look past.

>>> ex = Exercise(kind="demo.sum", seed=3, question="What is 2 + 3?", answer_kind="number",
...               answer=5, checker=lambda a: number_verdict(a, 5, what="the sum",
...                                                          rule="Add both numbers."),
...               hints=("Add the two numbers.", "Start at 2 and count 3 on."))
>>> ex.check(5).correct, ex.check(5).reason
(True, 'Right: 5 is the sum.')
>>> ex.check(4).reason
'You said 4, which is not the sum. Add both numbers.'
>>> ex.check("many").reason
'Type a whole number, like 7.'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from html import unescape
from typing import Any, Callable, Iterable, Mapping

from .errors import InvalidSetup
from .memo import keep
from .words import a, listed, plural  # noqa: F401  (the words a learner reads, used here too)

Cell = tuple  # a board space, e.g. (q, r): the same tuples the game's drawings mark

ANSWER_KINDS = ("cells", "path", "choice", "choices", "number")

#: the longest reason a learner is shown (characters)
MAX_REASON = 300
#: the most spaces or options an answer may hold before it is refused unread
MAX_ANSWER_ITEMS = 200
#: the largest number (in size) an answer may be
MAX_NUMBER = 10**12
#: what every kind offers unless it says otherwise: level 1, then level 2
DEFAULT_LEVELS = ("the rule on its own, on a small position",
                  "the rule in a fuller position, with more to look past")


@dataclass(frozen=True)
class Option:
    """One answer a learner can pick: a stable ``key`` and a ``label`` in plain words."""

    key: str
    label: str


@dataclass(frozen=True)
class Verdict:
    """The engine's judgement of one answer.

    ``reason`` is plain words for the learner: why it is right, or what exactly is wrong in
    the answer ("(2, 1) is 3 spaces from your level-2 Tree, which sows only 2 spaces away"),
    never the right answer.  ``marks`` are cells the drawing may point at to show the
    mistake.  ``misconception`` names the typical mistake the answer shows, when the checker
    recognises one ("counted-end-trees"), so a teacher can see what a class gets wrong;
    ``"shape"`` is an answer of the wrong shape, ``"unjudged"`` a checker that failed.
    """

    correct: bool
    reason: str
    marks: tuple = ()
    misconception: str = ""


# ----- words for learners --------------------------------------------------------------

def whole_number(text: str, what: str = "The answer", low: int | None = None,
                 high: int | None = None, digits: int = 12) -> tuple[int | None, str]:
    """A whole number typed in a box, or ``None`` and a sentence saying what is wrong (never a
    silent change: "2.5" is refused, not read as 25).

    >>> whole_number(" 12 ", "The seed", 0, 1000)
    (12, '')
    >>> whole_number("2.5", "The seed", 0, 1000)[1]
    'The seed must be a whole number, like 7; “2.5” is not one.'
    >>> whole_number("-3", "The seed", 0, 1000)[1]
    'The seed must be a whole number from 0 to 1000, not -3.'
    """
    typed = str(text).strip()
    if not typed:
        return None, f"{what} is missing: type a whole number, like 7."
    if not re.fullmatch(r"[+-]?\d{1,%d}" % digits, typed.replace(" ", "")):
        return None, f"{what} must be a whole number, like 7; “{short(typed, 20)}” is not one."
    number = int(typed.replace(" ", ""))
    if (low is not None and number < low) or (high is not None and number > high):
        return None, f"{what} must be a whole number from {low} to {high}, not {number}."
    return number, ""


def short(text: str, limit: int = MAX_REASON) -> str:
    """``text`` cut at a word to at most ``limit`` characters (an ellipsis marks the cut).

    >>> short("one two three", 9)
    'one two…'
    """
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[:limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


#: what learner text must never show: labelled-assumption ids, Python's words, "(s)" plurals,
#: "a" before a vowel, card codes such as "C05" or "L20"
_NOT_FOR_LEARNERS = (
    (re.compile(r"\bassumption\s+['\"(]|'[a-z]+-[a-z-]+'"), "an assumption id"),
    (re.compile(r"NoneType|Traceback|object is not|not subscriptable|unhashable|"
                r"invalid literal|\bint\(|\bstr\(|KeyError|IndexError|TypeError|ValueError|"
                r"frozenset\(|\bNone\b|\bTrue\b|\bFalse\b|<\w+ object"), "Python's words"),
    (re.compile(r"\w\(s\)"), "a '(s)' plural"),
    (re.compile(r"\b[Aa] (?:[AIOU]\w|[aiou]\w\w)"), "'a' before a vowel"),
    (re.compile(r"\b[A-Z]{1,2}\d{2,3}\b"), "a card code"),
)


def learner_text_problems(text: str) -> list[str]:
    """What in ``text`` a learner should not read (empty when it is plain words).

    >>> learner_text_problems("Okuma moves 1 space(s) (assumption 'ww-range')")
    ['an assumption id', "a '(s)' plural"]
    >>> learner_text_problems("Okuma moves to a space next to him.")
    []
    """
    return [what for pattern, what in _NOT_FOR_LEARNERS if pattern.search(text)]


def cell_text(cell: Iterable[int]) -> str:
    """A space's coordinates as the learner reads them: ``(2, 1)``."""
    return "(" + ", ".join(str(c) for c in cell) + ")"


def space_labels(drawing: str) -> dict[tuple[int, ...], str]:
    """Each clickable space of a drawing (``data-cell``) with the words a learner reads for
    it: the drawing's own tooltip for the space (what is on it), else its coordinates.

    >>> space_labels('<g data-cell="2,1"><title>(2, 1) Sun land</title></g>'
    ...              '<g data-cell="0,1"><title>space 3: gain &amp; pay</title></g><g data-cell="1,1"/>')
    {(2, 1): '(2, 1) Sun land', (0, 1): 'space 3: gain & pay', (1, 1): '(1, 1)'}
    """
    labels: dict[tuple[int, ...], str] = {}
    for found in re.finditer(r'data-cell="(-?\d+(?:,-?\d+)*)"[^>]*?(/?)>'
                             r'(?:\s*<title>([^<]*)</title>)?', drawing):
        cell = tuple(int(x) for x in found.group(1).split(","))
        title = unescape(found.group(3) or "").strip() if not found.group(2) else ""
        if cell not in labels:
            labels[cell] = (title[:57] + "..." if len(title) > 60 else title) or cell_text(cell)
    return labels


# ----- reading an answer of any shape ---------------------------------------------------

class _Shape(ValueError):
    """An answer of the wrong shape; the message is the learner's reason."""


def _shown(value: Any) -> str:
    """A value from outside, described briefly in plain words for a reason.

    >>> _shown(None), _shown(True), _shown("BCE"), _shown([1, 2]), _shown((1, "x")), _shown(2.5)
    ('nothing', 'yes', '"BCE"', 'a list of 2 items', '(1, "x")', '2.5')
    """
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return f'"{short(value, 30)}"'
    if isinstance(value, float):
        return str(value) if math.isfinite(value) else "a number that is not a number"
    if isinstance(value, int):
        return short(str(value), 20)
    if isinstance(value, tuple) and len(value) <= 4:
        return "(" + ", ".join(_shown(v) for v in value) + ")"
    if isinstance(value, (list, tuple, set, frozenset)):
        return f"a list of {plural(len(value), 'item')}"
    if isinstance(value, dict):
        return f"a table of {plural(len(value), 'entry', 'entries')}"
    return "something that is not an answer"


def _items(answer: Any, what: str) -> list:
    """The items of a list-like answer (never a string read letter by letter)."""
    if answer is None:
        raise _Shape(f"No answer yet: give the {what} as a list.")
    if isinstance(answer, (str, bytes)) or not isinstance(
            answer, (list, tuple, set, frozenset)):
        raise _Shape(f"That is not a list of {what}: the answer given was {_shown(answer)}.")
    if len(answer) > MAX_ANSWER_ITEMS:
        raise _Shape(f"That answer holds {len(answer)} items: far more than this exercise "
                     f"has {what}.")
    return list(answer)


def _is_cell(cell: Any) -> bool:
    """A space's coordinates: a list or tuple of one to four whole numbers of sensible size."""
    return isinstance(cell, (list, tuple)) and 1 <= len(cell) <= 4 and all(
        isinstance(c, int) and not isinstance(c, bool) and abs(c) <= 10_000 for c in cell)


def _one_cell(cell: Any, spaces: frozenset | None) -> tuple[int, ...]:
    if not _is_cell(cell):
        raise _Shape(f"Click spaces on the board: {_shown(cell)} is not a space.")
    cell = tuple(cell)
    if spaces is not None and cell not in spaces:
        raise _Shape(f"Click spaces on the board: {cell_text(cell)} is not one of them.")
    return cell


def _normalise(kind: str, answer: Any, keys: frozenset = frozenset(),
               spaces: frozenset | None = None) -> Any:
    """The canonical form of an answer of the given kind (raises :class:`_Shape` with the
    learner's reason when it cannot be)."""
    if kind == "cells":
        return frozenset(_one_cell(c, spaces) for c in _items(answer, "spaces"))
    if kind == "path":
        if isinstance(answer, (set, frozenset)):
            raise _Shape("Give the spaces of a path in order, as a list.")
        return tuple(_one_cell(c, spaces) for c in _items(answer, "spaces"))
    if kind in ("choice", "choices"):
        picked = [answer] if kind == "choice" else _items(answer, "choices")
        if kind == "choice" and answer is None:
            raise _Shape("Pick one of the choices first.")
        for key in picked:
            if not isinstance(key, str) or key not in keys:
                raise _Shape(f"{_shown(key)[:1].upper() + _shown(key)[1:]} is not one of "
                             "the choices.")
        return picked[0] if kind == "choice" else frozenset(picked)
    if isinstance(answer, float) and answer.is_integer() and math.isfinite(answer):
        answer = int(answer)
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise _Shape("Type a whole number, like 7.")
    if abs(answer) > MAX_NUMBER:
        raise _Shape("That number is far larger than anything on this position.")
    return answer


# ----- feedback that diagnoses ----------------------------------------------------------

def _diagnosis(found: Any, fallback: str) -> tuple[str, str]:
    """(misconception name, reason) from a diagnosis given as a reason or as a pair."""
    if isinstance(found, tuple):
        name, reason = found
        return name, reason or fallback
    return "", found or fallback


def _lookup(why: Mapping[Any, Any] | Callable[[Any], Any], key: Any) -> Any:
    return why(key) if callable(why) else why.get(key, "")


def number_verdict(given: int, right: int, *, what: str, rule: str,
                   misconceptions: Mapping[int, Any] | Callable[[int], Any] | None = None,
                   right_reason: str = "") -> Verdict:
    """The verdict on a typed number.  A wrong number gets the misconception it shows, when
    ``misconceptions`` knows it (a mapping or a function: value -> (name, reason), or a
    reason), else "You said N, which is not <what>." and ``rule``: how to count, applied to
    this position, never the count.

    >>> number_verdict(3, 2, what="the number of Seeds that grow",
    ...                rule="Only Seeds next to the Spirit's space grow.",
    ...                misconceptions={3: ("counted-far-seed", "You counted a Seed two "
    ...                                    "spaces away.")}).reason
    'You counted a Seed two spaces away.'
    """
    if given == right:
        return Verdict(True, right_reason or f"Right: {given} is {what}.")
    found = _lookup(misconceptions, given) if misconceptions is not None else ""
    name, reason = _diagnosis(found, f"You said {given}, which is not {what}. {rule}")
    return Verdict(False, short(reason), misconception=name)


def choice_verdict(given: str, right: frozenset | set | str, *,
                   why_not: Mapping[str, Any] | Callable[[str], Any],
                   right_reason: str = "Right.", names: Mapping[str, str] | None = None
                   ) -> Verdict:
    """The verdict on one picked option.  ``right`` is the key (or keys) that are right;
    a wrong pick gets ``why_not[key]`` (a reason, or (misconception name, reason)): what rule
    that option breaks here, in words that do not name the right option.  ``names`` maps an
    option key to a misconception name (when ``why_not`` gives a reason alone)."""
    rights = {right} if isinstance(right, str) else set(right)
    if given in rights:
        return Verdict(True, right_reason)
    name, reason = _diagnosis(_lookup(why_not, given), "That choice does not fit this "
                              "position: read the rule again and check each part of it.")
    return Verdict(False, short(reason), misconception=name or (names or {}).get(given, ""))


def choices_verdict(given: frozenset, right: frozenset, *,
                    why_not: Mapping[str, Any] | Callable[[str], Any], missed: str,
                    right_reason: str = "Right.",
                    partial: Callable[[frozenset], Any] | None = None) -> Verdict:
    """The verdict on a set of picked options: the first wrong pick gets ``why_not`` for it
    (the rule it breaks); when every pick fits but some fitting option is left out, the
    reason is ``partial(given)`` when it recognises the gap, else ``missed`` (neither may
    name the option)."""
    if given == right:
        return Verdict(True, right_reason)
    extra = sorted(given - right)
    if extra:
        name, reason = _diagnosis(_lookup(why_not, extra[0]), "One of your picks does not "
                                  "fit: check each against the rule.")
        return Verdict(False, short(reason), misconception=name)
    name, reason = _diagnosis((partial(given) if partial else None) or ("missed-some", missed),
                              missed)
    return Verdict(False, short(reason), misconception=name)


def cells_verdict(given: frozenset, right: frozenset, *, refuse: Callable[[Cell], Any],
                  missed: str, words: Callable[[Cell], str] = cell_text,
                  right_reason: str = "Right.",
                  partial: Callable[[frozenset], Any] | None = None) -> Verdict:
    """The verdict on clicked spaces.  A clicked space that is wrong is named with
    ``refuse(cell)`` (the engine's reason about that space, or (misconception name,
    reason)); when every click is right but spaces are missing, the reason is
    ``partial(given)`` when it recognises the gap (only Red's Seeds, say), else ``missed``:
    a pointer to the rule that never names a missing space (that would be the answer).

    >>> v = cells_verdict(frozenset({(1, 0)}), frozenset({(0, 0), (0, 1)}),
    ...                   refuse=lambda c: ("far", "it is two steps away."),
    ...                   missed="Look at every neighbour.")
    >>> v.reason, v.misconception, v.marks
    ('Not (1, 0): it is two steps away.', 'far', ((1, 0),))
    >>> cells_verdict(frozenset({(0, 0)}), frozenset({(0, 0), (0, 1)}), refuse=str,
    ...               missed="Look at every neighbour.").reason
    'Look at every neighbour.'
    """
    if given == right:
        return Verdict(True, right_reason)
    extra = sorted(given - right)
    if extra:
        name, reason = _diagnosis(refuse(extra[0]), "it does not fit the rule.")
        return Verdict(False, short(f"Not {words(extra[0])}: {reason}"), marks=(extra[0],),
                       misconception=name)
    name, reason = _diagnosis((partial(given) if partial else None) or ("missed-some", missed),
                              missed)
    return Verdict(False, short(reason), misconception=name)


@dataclass
class Exercise:
    """One generated exercise.

    ``answer`` is the engine's answer (one of them when several are right: the checker
    accepts every right one); ``checker(answer) -> Verdict`` judges a learner's answer with
    the engine.  ``hints`` go from a nudge to a pointer on this position (at least two);
    ``hint_marks[i]``, where given, are the cells the i-th hint points at on the drawing.
    ``draw(marked)`` returns the position as SVG with the given cells marked (spaces carry
    ``data-cell="q,r"`` where they can be clicked); ``answer_svg()`` draws the answer.
    ``explanation`` says why the answer is right, shown with it by Show answer.
    """

    kind: str
    seed: int
    question: str
    answer_kind: str
    answer: Any
    checker: Callable[[Any], Verdict]
    draw: Callable[[Iterable[Cell]], str] | None = None
    options: tuple[Option, ...] = ()
    hints: tuple[str, ...] = ()
    hint_marks: tuple[tuple, ...] = ()
    explanation: str = ""
    #: cells to draw with the answer (for "cells"/"path", the answer itself by default)
    answer_cells: tuple = ()
    #: anything a teacher or a test may want to look at (the state, the path, ...)
    context: dict = field(default_factory=dict)
    #: 1 for the rule on its own, 2 and up for fuller positions
    level: int = 1

    def __post_init__(self) -> None:
        if self.answer_kind not in ANSWER_KINDS:
            raise InvalidSetup(f"answer_kind must be one of {ANSWER_KINDS}, "
                               f"not {self.answer_kind!r}")
        if self.answer_kind in ("choice", "choices") and not self.options:
            raise InvalidSetup(f"a {self.answer_kind!r} exercise needs options")
        self.hints = tuple(h for h in self.hints if h)
        if len(self.hints) < 2:
            raise InvalidSetup(f"exercise {self.kind!r} needs at least two hints, from a "
                               "nudge to a pointer")
        self.answer = _normalise(self.answer_kind, self.answer, self._keys())
        if not self.answer_cells and self.answer_kind in ("cells", "path"):
            self.answer_cells = tuple(self.answer)

    def _keys(self) -> frozenset:
        return frozenset(o.key for o in self.options)

    def spaces(self) -> frozenset | None:
        """The spaces a learner can click on the drawing (None when there is no drawing)."""
        if not self.draw:
            return None
        return frozenset(self.labels())

    def check(self, answer: Any) -> Verdict:
        """Judge any ``answer``: never raises.  An answer of the wrong shape (a string where
        options are asked, a space that is not on the board) gets a plain-words reason; the
        reason is at most :data:`MAX_REASON` characters."""
        try:
            answer = _normalise(self.answer_kind, answer, self._keys(),
                                self.spaces() if self.answer_kind in ("cells", "path")
                                else None)
        except _Shape as exc:
            return Verdict(False, str(exc), misconception="shape")
        try:
            verdict = self.checker(answer)
        except Exception:  # noqa: BLE001 - a learner sees words, never a traceback
            return Verdict(False, "That answer cannot be judged here: try the exercise again "
                           "with Another one.", misconception="unjudged")
        if not isinstance(verdict, Verdict):
            return Verdict(False, "That answer cannot be judged here.", misconception="unjudged")
        if len(verdict.reason) > MAX_REASON:
            verdict = Verdict(verdict.correct, short(verdict.reason), verdict.marks,
                              verdict.misconception)
        return verdict

    def option_label(self, key: str) -> str:
        for option in self.options:
            if option.key == key:
                return option.label
        return key

    def answer_text(self) -> str:
        """The engine's answer in plain words."""
        if self.answer_kind == "choice":
            return self.option_label(self.answer)
        if self.answer_kind == "choices":
            return ", ".join(self.option_label(o.key) for o in self.options
                             if o.key in self.answer) or "none of them"
        if self.answer_kind == "number":
            return str(self.answer)
        if self.answer_kind == "path":
            return " → ".join(self.cell_words(c) for c in self.answer)
        return ", ".join(self.cell_words(c) for c in sorted(self.answer)) or "no space"

    def given_text(self, given: Any) -> str:
        """An answer as a learner gave it, in the words the page shows: spaces by what is on
        them, in the order clicked (`` → `` between the steps of a path), options by their
        labels, a number as typed; anything of another shape described briefly.  The exercise
        widget words "Your answer" with it, and the class record its stored attempts.

        >>> ex = Exercise(kind="demo.pick", seed=0, question="Which?", answer_kind="choices",
        ...               answer=["a"], checker=lambda a: Verdict(True, "Right."),
        ...               options=(Option("a", "Ann"), Option("c", "Cy")), hints=("x", "y"))
        >>> ex.given_text(["c", "a"]), ex.given_text([]), ex.given_text(["zz"]), ex.given_text(7)
        ('Cy, Ann', 'nothing picked yet', '"zz"', '7')
        """
        kind = self.answer_kind
        many = isinstance(given, (list, tuple, set, frozenset))
        if given is None or given == "" or (many and not given):
            return {"cells": "no space clicked yet", "path": "no space clicked yet",
                    "number": "nothing typed yet"}.get(kind, "nothing picked yet")
        items = list(given)[:MAX_ANSWER_ITEMS] if many else [given]
        if kind in ("cells", "path") and many:
            words = [self.cell_words(tuple(c)) if _is_cell(c) else _shown(c) for c in items]
            return (" → " if kind == "path" else ", ").join(words)
        if kind in ("choice", "choices"):
            return ", ".join(self.option_label(k) if isinstance(k, str) and k in self._keys()
                             else _shown(k) for k in items)
        if kind == "number" and isinstance(given, str):
            return short(given, 40)
        return _shown(given)

    def labels(self) -> dict:
        """Each clickable space of the drawing with the words a learner reads for it."""
        labels = getattr(self, "_labels", None)
        if labels is None:
            labels = keep(self, "_labels", space_labels(self.svg()) if self.draw else {})
        return labels

    def cell_words(self, cell: Cell) -> str:
        """A space in the words the learner reads on the board: the drawing's tooltip for it
        ("(-1, 2) Sun land", "(0, 1): yellow (field)", "Birch (tree 1)"), else its
        coordinates.  A game may say it otherwise by overriding this."""
        return self.labels().get(tuple(cell)) or cell_text(cell)

    def svg(self, marked: Iterable[Cell] = ()) -> str:
        """The position with ``marked`` cells highlighted ("" when the exercise has no board)."""
        return self.draw(tuple(marked)) if self.draw else ""

    def answer_svg(self) -> str:
        """The position with the answer drawn on it."""
        return self.svg(self.answer_cells)

    def hint_svg(self, level: int) -> str:
        """The position with the cells the hint ``level`` (0 = the first) points at marked,
        or "" when that hint marks nothing."""
        if level < len(self.hint_marks) and self.hint_marks[level] and self.draw:
            return self.svg(self.hint_marks[level])
        return ""


@dataclass(frozen=True)
class ExerciseKind:
    """A registered generator: where it is taught, what rule it practises, its levels."""

    key: str
    game: str
    notebook: str
    rule: str
    title: str
    generate_at: Callable[[int, int], Exercise]
    #: what each level asks, level 1 first
    level_titles: tuple[str, ...] = DEFAULT_LEVELS

    @property
    def levels(self) -> tuple[int, ...]:
        """The levels this kind offers: (1, 2, ...)."""
        return tuple(range(1, len(self.level_titles) + 1))

    def generate(self, seed: int = 0, level: int = 1) -> Exercise:
        """The exercise of this kind built from ``seed`` at ``level``."""
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidSetup(f"an exercise seed is a whole number from 0, not {seed!r}")
        if isinstance(level, bool) or level not in self.levels:
            raise InvalidSetup(f"{self.key!r} has levels {', '.join(map(str, self.levels))}, "
                               f"not {level!r}")
        exercise = self.generate_at(seed, level)
        exercise.level = level
        return exercise

    __call__ = generate


_REGISTRY: dict[str, ExerciseKind] = {}
#: called with a kind's key when it is not registered yet (the package's exercise index
#: imports the game that registers it)
_FINDERS: list[Callable[[str], None]] = []


def register(key: str, *, game: str, notebook: str, rule: str, title: str | None = None,
             levels: tuple[str, ...] = DEFAULT_LEVELS
             ) -> Callable[[Callable[[int, int], Exercise]], Callable[[int, int], Exercise]]:
    """Decorator: register ``generate(seed, level) -> Exercise`` as the exercise kind ``key``.

    ``notebook`` is the path under ``notebooks/`` where the rule is taught; ``rule`` says the
    rule in plain words (it heads the README's exercise table); ``levels`` says in words what
    each level asks (at least two).
    """
    if len(levels) < 2:
        raise InvalidSetup(f"exercise kind {key!r} needs at least two levels")

    def wrap(generate: Callable[[int, int], Exercise]) -> Callable[[int, int], Exercise]:
        if key in _REGISTRY and _REGISTRY[key].generate_at is not generate:
            raise InvalidSetup(f"exercise kind {key!r} is registered twice")
        _REGISTRY[key] = ExerciseKind(key, game, notebook, rule, title or rule, generate,
                                      tuple(levels))
        return generate

    return wrap


def add_finder(finder: Callable[[str], None]) -> None:
    """``finder(key)`` is asked to register ``key`` when :func:`get` does not know it."""
    if finder not in _FINDERS:
        _FINDERS.append(finder)


def registered() -> list[ExerciseKind]:
    """Every kind registered so far, in registration order (see ``pangaea_lab.exercises``)."""
    return list(_REGISTRY.values())


def get(key: str) -> ExerciseKind:
    if not isinstance(key, str) or len(key) > 100:
        raise InvalidSetup(f"an exercise kind is a name like 'pangaea.flying_seed', "
                           f"not {_shown(key)}")
    if key not in _REGISTRY:
        for finder in _FINDERS:
            finder(key)
    try:
        return _REGISTRY[key]
    except KeyError:
        raise InvalidSetup(f"no exercise kind {key!r}; known kinds: "
                           + ", ".join(sorted(_REGISTRY))) from None
