"""Exercises that check themselves: a position, a question, and the engine as the answer key.

An *exercise kind* is a generator ``(seed) -> Exercise`` registered with :func:`register`.
The generator builds a small readable position with the rules engine, asks a question in
plain words, and stores the engine's answer together with a ``checker`` that judges any
answer a learner gives, with the engine's own reason when it is wrong.  Nothing here knows a
game: the games register their kinds (``pangaea_lab.<game>.exercises``) and
``pangaea_lab.exercises.registry()`` lists them all.

Answer kinds (what a learner does to answer):

``"cells"``   click one or several spaces of the board (a set of cells, order free)
``"path"``    click spaces in order (a tuple of cells)
``"choice"``  pick one of :attr:`Exercise.options` (an option key)
``"choices"`` pick several of :attr:`Exercise.options` (a set of option keys)
``"number"``  type a whole number

>>> ex = Exercise(kind="demo.sum", seed=3, question="What is 2 + 3?", answer_kind="number",
...               answer=5, checker=lambda a: Verdict(a == 5, "2 + 3 is 5."))
>>> ex.check(5).correct, ex.check(4).reason
(True, '2 + 3 is 5.')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from typing import Any, Callable, Iterable

from .errors import IllegalAction, InvalidSetup

Cell = tuple  # a board space, e.g. (q, r): the same tuples the game's drawings mark

ANSWER_KINDS = ("cells", "path", "choice", "choices", "number")


@dataclass(frozen=True)
class Option:
    """One answer a learner can pick: a stable ``key`` and a ``label`` in plain words."""

    key: str
    label: str


@dataclass(frozen=True)
class Verdict:
    """The engine's judgement of one answer.

    ``reason`` is plain words for the learner: why it is right, or what exactly is wrong
    ("(2, 1) is 3 spaces from your level-2 Tree, which sows only 2 spaces away").
    ``marks`` are cells the drawing may point at to show the mistake (optional).
    """

    correct: bool
    reason: str
    marks: tuple = ()


def _normalise(kind: str, answer: Any) -> Any:
    """The canonical form of an answer of the given kind (raises on a shape that cannot be)."""
    if kind == "cells":
        return frozenset(tuple(c) for c in answer)
    if kind == "path":
        return tuple(tuple(c) for c in answer)
    if kind == "choice":
        return str(answer)
    if kind == "choices":
        return frozenset(str(a) for a in answer)
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise IllegalAction(f"a whole number is expected, not {answer!r}")
    return answer


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


@dataclass
class Exercise:
    """One generated exercise.

    ``answer`` is the engine's answer (one of them when several are right: the checker
    accepts every right one); ``checker(answer) -> Verdict`` judges a learner's answer with
    the engine.  ``draw(marked)`` returns the position as SVG with the given cells marked
    (spaces carry ``data-cell="q,r"`` where they can be clicked); ``answer_svg()`` draws
    the answer.  ``explanation`` says why the answer is right, shown with it.
    """

    kind: str
    seed: int
    question: str
    answer_kind: str
    answer: Any
    checker: Callable[[Any], Verdict]
    draw: Callable[[Iterable[Cell]], str] | None = None
    options: tuple[Option, ...] = ()
    hint: str = ""
    explanation: str = ""
    #: cells to draw with the answer (for "cells"/"path", the answer itself by default)
    answer_cells: tuple = ()
    #: anything a teacher or a test may want to look at (the state, the path, ...)
    context: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.answer_kind not in ANSWER_KINDS:
            raise InvalidSetup(f"answer_kind must be one of {ANSWER_KINDS}, "
                               f"not {self.answer_kind!r}")
        if self.answer_kind in ("choice", "choices") and not self.options:
            raise InvalidSetup(f"a {self.answer_kind!r} exercise needs options")
        self.answer = _normalise(self.answer_kind, self.answer)
        if not self.answer_cells and self.answer_kind in ("cells", "path"):
            self.answer_cells = tuple(self.answer)

    def check(self, answer: Any) -> Verdict:
        """Judge ``answer`` with the engine; a malformed answer is simply wrong, with why."""
        try:
            answer = _normalise(self.answer_kind, answer)
        except (TypeError, ValueError) as exc:
            return Verdict(False, f"That is not an answer of the right shape: {exc}")
        if self.answer_kind in ("choice", "choices"):
            keys = {o.key for o in self.options}
            unknown = [a for a in ([answer] if isinstance(answer, str) else answer)
                       if a not in keys]
            if unknown:
                return Verdict(False, f"{unknown[0]!r} is not one of the choices.")
        return self.checker(answer)

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

    def cell_words(self, cell: Cell) -> str:
        """A space in the words the learner reads on the board: the drawing's tooltip for it
        ("(-1, 2) Sun land", "(0, 1): yellow (field)", "Birch (tree 1)"), else its
        coordinates.  A game may say it otherwise by overriding this."""
        labels = self.__dict__.get("_labels")
        if labels is None:
            labels = self.__dict__["_labels"] = space_labels(self.svg()) if self.draw else {}
        return labels.get(tuple(cell)) or cell_text(cell)

    def svg(self, marked: Iterable[Cell] = ()) -> str:
        """The position with ``marked`` cells highlighted ("" when the exercise has no board)."""
        return self.draw(tuple(marked)) if self.draw else ""

    def answer_svg(self) -> str:
        """The position with the answer drawn on it."""
        return self.svg(self.answer_cells)


@dataclass(frozen=True)
class ExerciseKind:
    """A registered generator: where it is taught and what rule it practises."""

    key: str
    game: str
    notebook: str
    rule: str
    title: str
    generate: Callable[[int], Exercise]

    def __call__(self, seed: int = 0) -> Exercise:
        return self.generate(seed)


_REGISTRY: dict[str, ExerciseKind] = {}


def register(key: str, *, game: str, notebook: str, rule: str,
             title: str | None = None) -> Callable[[Callable[[int], Exercise]],
                                                   Callable[[int], Exercise]]:
    """Decorator: register ``generate(seed) -> Exercise`` as the exercise kind ``key``.

    ``notebook`` is the path under ``notebooks/`` where the rule is taught; ``rule`` says the
    rule in plain words (it heads the README's exercise table).
    """

    def wrap(generate: Callable[[int], Exercise]) -> Callable[[int], Exercise]:
        if key in _REGISTRY and _REGISTRY[key].generate is not generate:
            raise InvalidSetup(f"exercise kind {key!r} is registered twice")
        _REGISTRY[key] = ExerciseKind(key, game, notebook, rule, title or rule, generate)
        return generate

    return wrap


def registered() -> list[ExerciseKind]:
    """Every kind registered so far, in registration order (see ``pangaea_lab.exercises``)."""
    return list(_REGISTRY.values())


def get(key: str) -> ExerciseKind:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise InvalidSetup(f"no exercise kind {key!r}; known kinds: "
                           + ", ".join(sorted(_REGISTRY))) from None
