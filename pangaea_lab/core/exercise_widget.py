"""The exercise widget: answer a generated exercise by clicking, be told what is wrong in the
answer (never the answer itself), ask for a hint, then a more specific one.

Two layers, like the step-through widget, so the logic is testable without a browser:

* :class:`ExerciseModel` is plain Python.  It holds the current :class:`Exercise` (built from
  a kind's generator, a seed and a level), the learner's answer so far (clicked spaces, picked
  options or a typed number), the verdict of the last Check, how many hints are open and
  whether the answer is shown, and moves to "another one" (the next seed, the same level).
  Every Check and every Show answer is recorded in a
  :class:`~pangaea_lab.core.mastery.PracticeRecord`, which decides mastery.  From the second
  wrong answer on a position, each wrong Check opens the next hint.
* :class:`ExerciseView` is a thin ipywidgets layer: title, level, question, the board
  (clickable for space and path answers), option buttons or a number box, and the buttons
  Clear, Check, Hint, Show answer and Another one.

:class:`ExerciseProgress` is a page's progress line: the kinds shown on the page and, from the
record, how many are practised and mastered and what to practise next; :func:`progress_widget`
shows it with the controls that keep the record in the browser and in a file.
:class:`ReviewModel` serves a mix of kinds, favouring those not mastered.  Notebooks use
``pangaea_lab.exercises.practice``, ``progress`` and ``review``, which build these on the
kernel's one :data:`RECORD`.
"""

from __future__ import annotations

import random
import re
from html import escape
from typing import TYPE_CHECKING, Any, Callable

from .board_widget import clickable_board
from .clicks import OneAtATime
from .errors import InvalidSetup
from .exercises import (DEFAULT_LEVELS, Exercise, Verdict, get, plural, space_labels,
                        whole_number)
from .jsonio import dumps
from .listeners import Listened
from .mastery import MASTERY_RUN, Attempt, KindStatus, PracticeRecord
from .practice_store import practice_controls
from .shared_models import shared, shared_style

if TYPE_CHECKING:  # pragma: no cover
    import ipywidgets

#: what each answer kind asks the learner to do, shown under the question
INSTRUCTIONS = {
    "cells": "Click the spaces on the board (click a space again to take it back), then Check.",
    "path": "Click the spaces in order (click the last one again to take it back), then Check.",
    "choice": "Pick one answer, then Check.",
    "choices": "Pick every answer that fits (maybe none), then Check.",
    "number": "Type a whole number, then Check.",
}

#: the largest seed the seed box takes
MAX_SEED = 10**9

#: the longest number a learner may type (digits), so a pasted novel is refused politely
MAX_NUMBER_DIGITS = 12


def _cell(cell: Any) -> tuple[int, ...]:
    """A clicked space as a tuple of whole numbers (raises ValueError with why)."""
    if isinstance(cell, str):
        parts = cell.split("#")[0].split(",")
        try:
            cell = tuple(int(p) for p in parts)
        except ValueError:
            raise ValueError(f"{cell!r} is not a space of the board") from None
    if not isinstance(cell, (tuple, list)) or not cell or len(cell) > 4 or any(
            isinstance(c, bool) or not isinstance(c, int) for c in cell):
        raise ValueError(f"{cell!r} is not a space of the board")
    return tuple(cell)


def given_json(answer: Any) -> str:
    """The answer as the widget gives it to ``Exercise.check``, as JSON text (spaces as
    ``[q, r]`` lists, a set sorted), so it can be judged again elsewhere."""
    def plain(value: Any) -> Any:
        if isinstance(value, (frozenset, set)):
            return sorted((plain(v) for v in value), key=dumps)
        if isinstance(value, (tuple, list)):
            return [plain(v) for v in value]
        return value
    return dumps(plain(answer))


#: a verdict word a reason may start with, which the widget already shows
_LEADING_WORD = re.compile(r"^\s*(right|correct|yes|wrong|not quite|no)\s*[.:!,;—-]\s*",
                           re.IGNORECASE)


def reason_text(verdict: Verdict) -> str:
    """The verdict's reason without a leading "Right:" or "Not quite." (the widget says that
    already, with its mark), so the learner never reads "Right. Right: ..."."""
    reason = verdict.reason.strip()
    stripped = _LEADING_WORD.sub("", reason, count=1)
    if stripped != reason:
        return stripped[:1].upper() + stripped[1:]
    return reason


class ExerciseModel(Listened):
    """One exercise kind at one seed and level, and the learner's answer to it; no ipywidgets
    needed.

    ``key`` names a registered kind (``generate(seed, level)`` defaults to that kind's
    generator); every Check and every Show answer is recorded in ``record`` (the kernel's
    :data:`RECORD` by default), which decides mastery::

        m = ExerciseModel("pangaea.flying_seed", seed=12)
        m.click((2, 1)); m.click((3, 0))   # a "cells" exercise: toggle spaces
        m.check().correct                  # the engine's verdict; m.verdict keeps it
        m.show_hint()                      # the first hint; a second press, the next one
        m.another()                        # seed 13, a fresh position of the same kind
    """

    def __init__(self, key: str, seed: int = 0,
                 generate: Callable[[int, int], Exercise] | None = None, *, level: int = 1,
                 record: PracticeRecord | None = None) -> None:
        self.record = RECORD if record is None else record
        self._generate = generate
        self._use_kind(key)
        self.level = 1
        self.load(seed, level)

    def _use_kind(self, key: str) -> None:
        """Practise the kind ``key`` from now on (a Review page moves between kinds)."""
        if not isinstance(key, str) or not key:
            raise InvalidSetup(f"an exercise kind is a name like 'pangaea.flying_seed', "
                               f"not {key!r}")
        try:
            registered = get(key)
        except InvalidSetup:
            if self._generate is None:
                raise
            registered = None
        self.key = key
        self.generate = self._generate if self._generate is not None else registered.generate
        #: the kind's short title, its rule in plain words, and what each level asks
        self.title = registered.title if registered else key
        self.rule = registered.rule if registered else ""
        self.level_titles = registered.level_titles if registered else DEFAULT_LEVELS

    @property
    def levels(self) -> tuple[int, ...]:
        return tuple(range(1, len(self.level_titles) + 1))

    # ----- the exercise ------------------------------------------------------------------

    def load(self, seed: int, level: int | None = None) -> None:
        """Show the exercise of this kind built from ``seed`` (a whole number from 0) at
        ``level`` (the current level when not given)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise InvalidSetup(f"an exercise seed is a whole number from 0 to {MAX_SEED}, "
                               f"not {seed!r}")
        level = self.level if level is None else level
        if isinstance(level, bool) or not isinstance(level, int) or level not in self.levels:
            raise InvalidSetup(f"this exercise has levels "
                               f"{', '.join(map(str, self.levels))}, not {level!r}")
        exercise = self.generate(seed, level)
        if not isinstance(exercise, Exercise):
            raise TypeError(f"the generator of {self.key!r} returned "
                            f"{type(exercise).__name__}, not an Exercise")
        self.seed, self.level, self.exercise = seed, level, exercise
        self._reset_answer()
        #: checks made on this position, and how many of them were wrong
        self.attempts = 0
        self.wrong = 0
        #: how many of the exercise's hints are open (each press of Hint opens the next)
        self.hints_open = 0
        self.answer_shown = False
        self.met_before = False
        self._changed()

    def another(self) -> None:
        """A fresh position of the same kind and level: the next seed."""
        self.load(self.seed + 1)

    def set_level(self, level: int) -> None:
        """The same seed at another level."""
        if level != self.level:
            self.load(self.seed, level)

    @property
    def answer_kind(self) -> str:
        return self.exercise.answer_kind

    @property
    def seed_text(self) -> str:
        """What the screen says so a teacher can hand the same exercise to a class."""
        return f"Exercise seed {self.seed}, level {self.level}"

    @property
    def hint_shown(self) -> bool:
        return self.hints_open > 0

    @property
    def hints(self) -> tuple[str, ...]:
        """The hints open so far, the nudge first."""
        return self.exercise.hints[:self.hints_open]

    @property
    def status(self) -> KindStatus:
        """The record of this kind: practised, right in a row, mastered."""
        return self.record.status(self.key)

    # ----- the learner's answer ----------------------------------------------------------

    def _reset_answer(self) -> None:
        #: spaces clicked so far, in click order (cells and path answers)
        self.selection: tuple[tuple[int, ...], ...] = ()
        #: option keys picked so far, in option order (choice and choices answers)
        self.picked: tuple[str, ...] = ()
        #: the number box's text (number answers)
        self.number_text = ""
        #: the verdict shown: the last Check's, cleared when the answer changes
        self.verdict: Verdict | None = None
        #: a problem with the last click or key, in plain words ("" when none)
        self.message = ""

    def _answer_changed(self) -> None:
        self.verdict = None
        self._changed()

    def click(self, cell: Any) -> None:
        """A click on a space: toggles it (cells) or extends the path (path; clicking the
        last space again takes it back).  Other answer kinds ignore the board."""
        if self.answer_kind not in ("cells", "path"):
            self.message = "This exercise is answered with the choices below the board."
            self._changed()
            return
        try:
            cell = _cell(cell)
        except ValueError as exc:
            self.message = str(exc)
            self._changed()
            return
        self.message = ""
        if self.answer_kind == "cells":
            if cell in self.selection:
                self.selection = tuple(c for c in self.selection if c != cell)
            else:
                self.selection = self.selection + (cell,)
        elif self.selection and self.selection[-1] == cell:
            self.selection = self.selection[:-1]
        else:
            self.selection = self.selection + (cell,)
        self._answer_changed()

    def choose(self, key: str) -> None:
        """Pick an option: the one answer (choice) or one more / one less (choices)."""
        keys = [o.key for o in self.exercise.options]
        if self.answer_kind not in ("choice", "choices"):
            self.message = "This exercise has no choices to pick."
            self._changed()
            return
        if key not in keys:
            self.message = f"{key!r} is not one of the choices."
            self._changed()
            return
        self.message = ""
        if self.answer_kind == "choice":
            self.picked = (key,)
        else:
            chosen = set(self.picked) ^ {key}
            self.picked = tuple(k for k in keys if k in chosen)
        self._answer_changed()

    def set_number(self, value: Any) -> None:
        """What the learner typed in the number box (any text; judged at Check)."""
        text = str(value).strip() if value is not None else ""
        if len(text) > 40:
            text = text[:40]
        if text == self.number_text:
            return
        self.number_text = text
        self.message = ""
        self._answer_changed()

    def clear(self) -> None:
        """Forget the answer given so far (the hint and the answer stay as they were)."""
        self._reset_answer()
        self._changed()

    @property
    def answer(self) -> Any:
        """The learner's answer in the exercise's own shape (None while there is none to
        give: no option picked, or nothing typed)."""
        kind = self.answer_kind
        if kind == "cells":
            return frozenset(self.selection)
        if kind == "path":
            return tuple(self.selection)
        if kind == "choice":
            return self.picked[0] if self.picked else None
        if kind == "choices":
            return frozenset(self.picked)
        return self._number()[0]

    def _number(self) -> tuple[int | None, str]:
        """The typed number, or None and why it is not one."""
        if not self.number_text.strip():
            return None, "Type a number in the box first."
        return whole_number(self.number_text, "Your answer", digits=MAX_NUMBER_DIGITS)

    def answer_text(self) -> str:
        """The answer given so far, in plain words."""
        kind = self.answer_kind
        given = (self.selection if kind in ("cells", "path") else
                 self.picked if kind in ("choice", "choices") else self.number_text)
        return self.exercise.given_text(given)

    # ----- the buttons -------------------------------------------------------------------

    def check(self) -> Verdict:
        """Judge the answer with the engine; the verdict is kept in :attr:`verdict` and the
        attempt recorded.  From the second wrong answer on, each wrong Check opens the next,
        more specific hint (never the answer)."""
        kind = self.answer_kind
        empty = None
        if kind == "choice" and not self.picked:
            empty = "Pick one of the answers first."
        elif kind == "path" and not self.selection:
            empty = "Click the spaces of the path first, in order."
        elif kind == "number" and self._number()[0] is None:
            empty = self._number()[1]
        if empty is not None:
            self.verdict = Verdict(False, empty)
            self.message = ""
            self._changed()
            return self.verdict
        verdict = self.exercise.check(self.answer)
        #: a right first answer on a position met before (another day, the same seed): it
        #: cannot count towards mastery, and the feedback says so
        self.met_before = self.attempts == 0 and self.record.met_before(
            self.key, self.seed, self.level)
        self.record.add(Attempt(self.key, self.seed, self.level, self.answer_text()[:300],
                                verdict.correct, hints=self.hints_open,
                                shown=self.answer_shown, first=self.attempts == 0,
                                misconception=verdict.misconception,
                                given=given_json(self.answer)))
        self.attempts += 1
        if not verdict.correct:
            self.wrong += 1
            if self.wrong >= 2:
                self.hints_open = min(len(self.exercise.hints), self.hints_open + 1)
        self.verdict = verdict
        self.message = ""
        self._changed()
        return verdict

    def show_hint(self) -> None:
        """Open the next hint (a nudge first, then a pointer on this position)."""
        self.hints_open = min(len(self.exercise.hints), self.hints_open + 1)
        self._changed()

    def show_answer(self) -> None:
        """Show the engine's answer; from now on this position counts as seen, not right."""
        if not self.answer_shown:
            self.answer_shown = True
            self.record.add(Attempt(self.key, self.seed, self.level, "", False,
                                    hints=self.hints_open, shown=True,
                                    first=self.attempts == 0, given="null"))
        self._changed()

    # ----- drawing -----------------------------------------------------------------------

    def svg(self) -> str:
        """The position with the learner's spaces marked ("" when there is no drawing)."""
        return self.exercise.svg(self.selection)

    def answer_svg(self) -> str:
        """The position with the engine's answer marked ("" when there is no drawing)."""
        return self.exercise.answer_svg()

    def hint_svg(self) -> str:
        """The position with the latest open hint's spaces marked ("" when it marks none)."""
        return self.exercise.hint_svg(self.hints_open - 1) if self.hints_open else ""

    def feedback_text(self) -> str:
        """Right / Not quite and the reason, in plain words ("" before the first Check)."""
        if self.verdict is None:
            return ""
        word = "✓ Right." if self.verdict.correct else "✗ Not quite."
        text = f"{word} {reason_text(self.verdict)}".strip()
        return (text + " " + self.not_counted()).strip()

    def not_counted(self) -> str:
        """Why a right answer does not count towards mastery ("" when it does)."""
        if self.verdict is None or not self.verdict.correct:
            return ""
        if self.answer_shown:
            return SEEN_NOT_LEARNED
        if self.met_before:
            return MET_BEFORE
        return ""

    def status_text(self) -> str:
        """This kind's record in words: mastered, or how far the current run has come."""
        s = self.status
        if s.mastered:
            more = (f" Try level {s.mastered_level + 1}." if s.mastered_level < self.levels[-1]
                    else "")
            return f"Mastered at level {s.mastered_level}.{more}"
        if not s.practised:
            return f"Not practised yet: {MASTERY_RUN} right in a row, with no hint, master it."
        return (f"Right in a row, with no hint: {s.run} of {MASTERY_RUN}."
                + (" Take it slowly: read the rule again, then try Hint."
                   if s.struggling else ""))


class ExerciseProgress(Listened):
    """The progress line of one page: the exercise kinds shown on it (in the order they
    appear) and what the learner's :class:`PracticeRecord` says of them: practised,
    mastered, and what to practise next.  Nothing is counted that was not answered, and a
    shown answer never counts as right."""

    def __init__(self, record: PracticeRecord | None = None) -> None:
        self.record = RECORD if record is None else record
        self.kinds: dict[str, str] = {}          # key -> title, in page order
        self.record.subscribe(self._changed)

    def add(self, model: ExerciseModel) -> None:
        """Count ``model``'s kind as one of this page's kinds."""
        self.add_kind(model.key, model.title)
        model.subscribe(lambda: self.add_kind(model.key, model.title))

    def add_kind(self, key: str, title: str) -> None:
        if key not in self.kinds:
            self.kinds[key] = title
            self._changed()

    def reset(self) -> None:
        """Forget the page's kinds (the record stays)."""
        self.kinds.clear()
        self._changed()

    def summary(self) -> dict:
        return self.record.summary(self.kinds)

    def text(self) -> str:
        s = self.summary()
        if not s["kinds"]:
            return "no exercise on this page yet"
        parts = [f"practised {s['practised']} of {plural(s['kinds'], 'kind')}",
                 f"mastered {s['mastered']}"]
        if s["mastered_level_2"]:
            parts[-1] += f" ({s['mastered_level_2']} at level 2)"
        if s["next"] is not None:
            parts.append(f"next: {self.kinds[s['next']]}")
        else:
            parts.append("every kind here is mastered")
        return " · ".join(parts)



#: the kernel's practice record (one learner per kernel: one page in JupyterLab and Voilà)
RECORD = PracticeRecord()
#: the kernel's progress line (one page)
PROGRESS = ExerciseProgress(RECORD)

#: said when an answer is checked right after the answer was shown
SEEN_NOT_LEARNED = "(The answer was shown, so this one counts as seen, not learned.)"
#: said when a right answer is given on a position met before
MET_BEFORE = ("(You have met this position before, so it does not count towards mastery: "
              "try Another one.)")


def _css_name(text: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]+", "-", text).strip("-") or "x"


_STYLE = """<style>
.pl-exercise .pl-exercise-option { height: auto; min-height: 32px; white-space: normal;
  text-align: left; max-width: 100%; }
.pl-exercise .pl-exercise-option.pl-picked { font-weight: bold; outline: 2px solid #333; }
.pl-exercise .pl-exercise-feedback .pl-right { border-left: 6px solid #1b7f3b;
  padding-left: 6px; }
.pl-exercise .pl-exercise-feedback .pl-wrong { border-left: 6px dashed #b3261e;
  padding-left: 6px; }
</style>"""


class ExerciseView:
    """A thin ipywidgets view of an :class:`ExerciseModel`.  ``view.root`` is the widget to
    display; the parts are attributes (``board``, ``check_button``, ``option_buttons``...)
    so tests drive them with ``button.click()`` and ``widget.value = ...``.  Every part has a
    ``pl-exercise-...`` CSS class for the browser tests."""

    def __init__(self, model: ExerciseModel) -> None:
        import ipywidgets as w  # the view layer only; the model needs no widgets

        self.model = model
        self._w = w
        self._quiet = False
        self._drawn: tuple | None = None
        self._options_for: Exercise | None = None
        self._spaces_for: Exercise | None = None
        self._make_parts(w)
        self._lay_out(w)
        self._wire(model)
        self.refresh()

    def _make_parts(self, w: Any) -> None:
        """Every part of the view, each an attribute (tests and the browser reach them).

        A page has up to fifteen exercises, and every layout and style model is one more for
        the browser to draw: those that nothing changes after they are made are shared by
        every exercise of the kernel (core/shared_models.py).  The parts that are hidden and
        shown (:meth:`_show`: the board, the picture, the keyboard row, the answer line, the
        options, the number box, the hint picture, the answer) keep a layout of their own."""
        fixed = shared(w.Layout)
        html_style, button_style = shared_style(w.HTML), shared_style(w.Button)
        auto = shared(w.Layout, width="auto")

        def line(own_layout: bool = False) -> Any:
            """An HTML part; with its own layout when it is hidden and shown."""
            if own_layout:
                return w.HTML(style=html_style)
            return w.HTML(layout=fixed, style=html_style)

        def button(description: str, tooltip: str, layout: Any = fixed,
                   **values: Any) -> Any:
            return w.Button(description=description, tooltip=tooltip, layout=layout,
                            style=button_style, **values)

        # the page's CSS never changes: one widget serves every exercise
        self.style = shared(w.HTML, value=_STYLE, layout=fixed, style=html_style)
        self.title = line()
        self.seed_label = line()
        # a text box, so that what is not a whole number is refused with a sentence (a
        # number box would read "2.5" as 25)
        self.seed_box = w.Text(description="Go to seed", layout=shared(w.Layout, width="150px"),
                               style=shared_style(w.Text, description_width="initial"))
        self.seed_button = button("Go", "Show the exercise with this seed (the one your "
                                        "teacher gave)", shared(w.Layout, width="60px"))
        self.level_box = w.Dropdown(description="Level",
                                    style=shared_style(w.Dropdown, description_width="initial"),
                                    layout=auto)
        self.question = line()
        self.status_line = line()
        self.board = clickable_board()        # cells and path answers: click the spaces
        # choice and number answers: the position only
        self.picture = line(own_layout=True)
        self.selection_line = line(own_layout=True)
        # the same clicks without a mouse: choose a space from the list, then Mark it
        self.space_list = w.Dropdown(description="Without a mouse", options=[], layout=fixed,
                                     style=shared_style(w.Dropdown,
                                                        description_width="initial"))
        self.space_button = button("Mark this space", "Does what a click on that space does",
                                   auto)
        self.keyboard_row = w.HBox([self.space_list, self.space_button])
        self.options_box = w.VBox()
        self.option_buttons: list[ipywidgets.Button] = []
        self.number_box = w.Text(placeholder="a whole number", description="Your answer",
                                 style=shared_style(w.Text, description_width="initial"))
        self.clear_button = button("Clear", "Start your answer again")
        self.check_button = button("Check", "Is my answer right?", button_style="primary")
        self.hint_button = button("Hint", "A nudge first, then a pointer; never the answer")
        self.answer_button = button("Show answer", "Show the answer and why it is right")
        self.another_button = button("Another one", "A new exercise of the same kind")
        self.message_line = line()
        self.feedback = line()
        self.hint_line = line()
        self.hint_picture = line(own_layout=True)
        self.answer_text = line()
        self.answer_picture = line()

    def _lay_out(self, w: Any) -> None:
        """The parts in their places, each with its ``pl-exercise-...`` class (the boxes
        nothing hides share their layouts, as in :meth:`_make_parts`)."""
        wrap = shared(w.Layout, flex_flow="row wrap")
        buttons = w.HBox([self.clear_button, self.check_button, self.hint_button,
                          self.answer_button, self.another_button], layout=wrap)
        self.answer_box = w.VBox([self.answer_text, self.answer_picture])
        header = w.HBox([self.title, w.HBox([self.seed_label, self.level_box, self.seed_box,
                                             self.seed_button], layout=wrap)],
                        layout=shared(w.Layout, justify_content="space-between",
                                      flex_flow="row wrap"))
        self.root = w.VBox([self.style, header,
                            self.question, self.status_line,
                            w.VBox([self.board, self.picture],
                                   layout=shared(w.Layout, overflow="auto")),
                            self.selection_line, self.keyboard_row, self.options_box,
                            self.number_box, buttons,
                            self.message_line, self.feedback, self.hint_line,
                            self.hint_picture, self.answer_box],
                           layout=shared(w.Layout, border="1px solid #999", padding="6px",
                                         margin="8px 0"))
        for part, name in ((self.root, "exercise"), (self.title, "exercise-title"),
                           (self.seed_label, "exercise-seed"),
                           (self.seed_box, "exercise-seed-box"),
                           (self.level_box, "exercise-level"),
                           (self.status_line, "exercise-status"),
                           (self.hint_picture, "exercise-hint-picture"),
                           (self.seed_button, "exercise-seed-go"),
                           (self.question, "exercise-question"), (self.board, "exercise-board"),
                           (self.picture, "exercise-picture"),
                           (self.selection_line, "exercise-selection"),
                           (self.space_list, "exercise-space-list"),
                           (self.space_button, "exercise-space-mark"),
                           (self.options_box, "exercise-options"),
                           (self.number_box, "exercise-number"),
                           (self.clear_button, "exercise-clear"),
                           (self.check_button, "exercise-check"),
                           (self.hint_button, "exercise-hint"),
                           (self.answer_button, "exercise-show-answer"),
                           (self.another_button, "exercise-another"),
                           (self.message_line, "exercise-message"),
                           (self.feedback, "exercise-feedback"),
                           (self.hint_line, "exercise-hint-text"),
                           (self.answer_box, "exercise-answer")):
            part.add_class(f"pl-{name}")
        self.root.add_class(f"pl-exercise-kind-{_css_name(self.model.key)}")
        self.root.model = self.model
        self.root.view = self

    def _wire(self, model: ExerciseModel) -> None:
        """Clicks and typed values go to the model; the model's changes come back."""
        if hasattr(self.board, "on_space"):
            self.board.on_space(model.click)
            self.board.on_play(model.click)      # Enter marks a space, as a click does
        self.number_box.observe(self._on_number, names="value")
        self.level_box.observe(self._on_level, names="value")
        self.space_button.on_click(self._mark_listed_space)
        # one click at a time: a double click on Check is one attempt, on Hint one hint
        # (core/clicks.py)
        self.clicks = OneAtATime([self.clear_button, self.check_button, self.hint_button,
                                  self.answer_button, self.another_button, self.seed_button],
                                 settle=self._button_states)
        for button, call in ((self.clear_button, model.clear), (self.check_button, model.check),
                             (self.hint_button, model.show_hint),
                             (self.answer_button, model.show_answer),
                             (self.another_button, self._new_position(lambda: model.another())),
                             (self.seed_button, self._new_position(self._go_to_seed))):
            button.on_click(self.clicks.wrap(call))
        model.subscribe(self.refresh)
        # the record also changes from outside this exercise: the copy kept in the browser
        # arrives after a reload, a progress file is loaded
        model.record.subscribe(self.show_status)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    # ----- forwarding --------------------------------------------------------------------

    def _on_level(self, change: dict) -> None:
        if not self._quiet and change["new"] is not None:
            self._new_position(lambda: self.model.set_level(int(change["new"])))(None)

    def _on_number(self, change: dict) -> None:
        if not self._quiet:
            self.model.set_number(change["new"])

    def _button_states(self) -> None:
        """Which buttons can be pressed now (Hint, until every hint is shown)."""
        self.hint_button.disabled = self.model.hints_open >= len(self.model.exercise.hints)

    def _new_position(self, step: Callable[[], None]) -> Callable[..., None]:
        """A button that builds another exercise: if the generator cannot build that one,
        the learner is told so and keeps the current exercise."""
        def click(_button: Any = None) -> None:
            try:
                step()
            except (ValueError, TypeError) as exc:
                self.model.message = f"That exercise could not be made: {exc}"
                self.refresh()
        return click

    def _go_to_seed(self) -> None:
        """The exercise with the typed seed, or a sentence saying why the box is refused."""
        seed, problem = whole_number(self.seed_box.value, "The seed", 0, MAX_SEED)
        if seed is None:
            self.model.message = problem
            self.refresh()
            return
        self.model.load(seed)

    def _mark_listed_space(self, _button: Any) -> None:
        if self.space_list.value is not None:
            self.model.click(self.space_list.value)

    def _list_spaces(self, drawing: str) -> None:
        """The spaces the drawing lets the learner click, for the keyboard list."""
        if self._spaces_for is self.model.exercise:
            return
        self._spaces_for = self.model.exercise
        self.space_list.options = [(label, c) for c, label in space_labels(drawing).items()]
        if self.space_list.options:
            self.space_list.index = 0

    def _pick(self, key: str) -> Callable[[Any], None]:
        return lambda _button: self.model.choose(key)

    # ----- display -----------------------------------------------------------------------

    @staticmethod
    def _show(widget: Any, visible: bool) -> None:
        widget.layout.display = None if visible else "none"

    def _build_options(self) -> None:
        """One button per option of the current exercise (rebuilt for a new exercise)."""
        exercise = self.model.exercise
        if self._options_for is exercise:
            return
        self._options_for = exercise
        self.option_buttons = []
        for option in exercise.options:
            button = self._w.Button(description=option.label, tooltip=option.label,
                                    layout=shared(self._w.Layout, width="auto"),
                                    style=shared_style(self._w.Button))
            button.add_class("pl-exercise-option")
            button.add_class(f"pl-option-{_css_name(option.key)}")
            button.option_key = option.key
            button.on_click(self._pick(option.key))
            self.option_buttons.append(button)
        self.options_box.children = tuple(self.option_buttons)

    def show_status(self) -> None:
        """The status line: this kind's record (mastered, the current run) in words."""
        status = self.model.status
        self.status_line.value = (f'<span data-mastered="{str(status.mastered).lower()}" '
                                  f'data-run="{status.run}">'
                                  f"{escape(self.model.status_text())}</span>")

    def refresh(self) -> None:
        """Show the model's current state."""
        self._refresh_header()
        self._refresh_answer()
        self._refresh_help()

    def _refresh_header(self) -> None:
        """Title, seed, level, the kind's record and the question."""
        m, ex = self.model, self.model.exercise
        self.title.value = f"<b>Exercise: {escape(m.title)}</b>"
        self.seed_label.value = (f'<span data-kind="{escape(m.key, quote=True)}" '
                                 f'data-seed="{m.seed}">{escape(m.seed_text)}</span>')
        if self.seed_box.value != str(m.seed):
            self.seed_box.value = str(m.seed)
        self._quiet = True
        try:
            levels = [(f"{n}: {t}", n) for n, t in zip(m.levels, m.level_titles)]
            if list(self.level_box.options) != levels:
                self.level_box.options = levels
            if self.level_box.value != m.level:
                self.level_box.value = m.level
        finally:
            self._quiet = False
        self.show_status()
        self.question.value = (f"<p>{escape(ex.question)}</p>"
                               f"<p><i>{escape(INSTRUCTIONS[ex.answer_kind])}</i></p>")

    def _refresh_answer(self) -> None:
        """The board or picture, the learner's answer so far and the ways to give it."""
        m, ex = self.model, self.model.exercise
        kind = ex.answer_kind
        clickable = kind in ("cells", "path")
        drawing = m.svg()
        key = (ex, m.selection)
        if self._drawn is None or self._drawn[0] is not ex or self._drawn[1] != m.selection:
            self._drawn = key
            if clickable:
                self.board.value = drawing
            else:
                self.picture.value = drawing
        self._show(self.board, clickable)
        self._show(self.keyboard_row, clickable)
        if clickable:
            self._list_spaces(drawing)
        self._show(self.picture, not clickable and bool(drawing))
        self._show(self.selection_line, kind != "number")
        self.selection_line.value = f"Your answer: {escape(m.answer_text())}"
        self._build_options()
        picked = set(m.picked)
        for button in self.option_buttons:
            on = button.option_key in picked
            mark = ("◉ " if on else "○ ") if kind == "choice" else ("☑ " if on else "☐ ")
            button.description = mark + ex.option_label(button.option_key)
            button.button_style = "info" if on else ""
            if on:
                button.add_class("pl-picked")
            else:
                button.remove_class("pl-picked")
        self._show(self.options_box, kind in ("choice", "choices"))
        self._show(self.number_box, kind == "number")
        if self.number_box.value != m.number_text:
            self._quiet = True
            try:
                self.number_box.value = m.number_text
            finally:
                self._quiet = False
        self.message_line.value = escape(m.message)

    def _refresh_help(self) -> None:
        """The verdict, the hints open so far and the answer when shown."""
        m, ex = self.model, self.model.exercise
        verdict = m.verdict
        if verdict is None:
            self.feedback.value = ""
        else:
            css = "pl-right" if verdict.correct else "pl-wrong"
            word = "✓ Right." if verdict.correct else "✗ Not quite."
            seen = f" {m.not_counted()}" if m.not_counted() else ""
            self.feedback.value = (f'<div class="{css}" data-correct="{str(verdict.correct).lower()}">'
                                   f"<b>{word}</b> {escape(reason_text(verdict))}"
                                   f"{escape(seen)}</div>")
        total = len(ex.hints)
        self.hint_line.value = "".join(
            f'<div class="pl-hint" data-hint="{n}"><b>Hint {n} of {total}:</b> {escape(text)}</div>'
            for n, text in enumerate(m.hints, start=1))
        self.hint_picture.value = m.hint_svg()
        self._show(self.hint_picture, bool(self.hint_picture.value))
        self.hint_button.description = ("Hint" if not m.hints_open else
                                        "Another hint" if m.hints_open < total else "No more hints")
        self.hint_button.disabled = m.hints_open >= total
        if m.answer_shown:
            text = f"<b>Answer:</b> {escape(ex.answer_text())}"
            if ex.explanation:
                text += f"<br>{escape(ex.explanation)}"
            self.answer_text.value = text
            self.answer_picture.value = m.answer_svg() if (
                ex.answer_cells or ex.answer_kind in ("cells", "path")) else ""
        else:
            self.answer_text.value = ""
            self.answer_picture.value = ""
        self._show(self.answer_box, m.answer_shown)


def exercise_widget(key: str, seed: int = 0, *, level: int = 1,
                    progress: ExerciseProgress | None = None,
                    generate: Callable[[int, int], Exercise] | None = None) -> Any:
    """The root widget of an :class:`ExerciseView` on a new :class:`ExerciseModel`
    (``widget.model``, ``widget.view``), counted by ``progress`` when given."""
    record = progress.record if progress is not None else None
    model = ExerciseModel(key, seed, generate=generate, level=level, record=record)
    view = ExerciseView(model)
    if progress is not None:
        progress.add(model)
    return view.root


class ReviewModel(ExerciseModel):
    """A Review page: one exercise at a time from ``keys`` (the kinds of a game's rule
    pages), each Another one choosing the next kind from the learner's record: a kind
    practised but not mastered first, then one not tried, one mastered least often; the
    kind just done is not asked twice in a row.  Seeds count on from ``seed``."""

    def __init__(self, keys: list[str], seed: int = 0, *, level: int = 1,
                 record: PracticeRecord | None = None) -> None:
        if not keys:
            raise InvalidSetup("a review needs at least one exercise kind")
        self.keys = list(keys)
        self.turn = 0
        self.start = seed
        self.record = RECORD if record is None else record
        first = self.pick()
        super().__init__(first, seed, level=min(level, len(get(first).level_titles)),
                         record=self.record)

    def pick(self, last: str | None = None) -> str:
        """The next kind to review (weighted by the record, drawn from a seeded choice)."""
        weights = []
        for key in self.keys:
            status = self.record.status(key)
            weight = 1 if status.mastered else 4 if status.practised else 3
            weights.append(0 if key == last and len(self.keys) > 1 else weight)
        rng = random.Random(f"review:{self.start}:{self.turn}")
        return rng.choices(self.keys, weights=weights)[0]

    def another(self) -> None:
        """The next kind to review, at the next seed (the level kept where it exists)."""
        self.turn += 1
        key, old, level = self.pick(self.key), self.key, self.level
        self._use_kind(key)
        try:
            self.load(self.start + self.turn, min(level, self.levels[-1]))
        except (ValueError, TypeError):
            self._use_kind(old)     # the exercise shown stays, and so does its kind
            raise


def review_widget(keys: list[str], seed: int = 0, *, level: int = 1,
                  progress: ExerciseProgress | None = None) -> Any:
    """The exercise widget of a :class:`ReviewModel` over ``keys``; every kind of the
    review counts on ``progress``'s line."""
    record = progress.record if progress is not None else None
    model = ReviewModel(keys, seed, level=level, record=record)
    view = ExerciseView(model)
    view.root.add_class("pl-exercise-review")
    if progress is not None:
        for key in keys:
            progress.add_kind(key, get(key).title)
        progress.add(model)
    return view.root


def progress_widget(progress: ExerciseProgress | None = None) -> Any:
    """The page's progress line (practised, mastered, what next), updated as the learner
    answers, with the controls that keep the record in this browser and in a file."""
    import ipywidgets as w  # the view layer only

    progress = PROGRESS if progress is None else progress
    line = w.HTML()
    line.add_class("pl-exercise-progress")

    def show() -> None:
        s = progress.summary()
        line.value = (f'<b data-practised="{s["practised"]}" data-mastered="{s["mastered"]}" '
                      f'data-kinds="{s["kinds"]}">'
                      f"Exercises on this page: {escape(progress.text())}</b>")

    progress.subscribe(show)
    show()
    parts = [line]
    link = progress.record.link
    if link is not None:            # a class record: how sending goes, in one quiet line
        sent = w.HTML()
        sent.add_class("pl-record-status")

        def tell() -> None:
            sent.value = f'<span data-state="{escape(link.state)}">{escape(link.text())}</span>'

        link.subscribe(tell)
        tell()
        parts.append(sent)
    box = w.VBox(parts + [practice_controls(progress.record)])
    box.add_class("pl-exercise-progress-box")
    box.progress = progress
    box.line = line
    return box
