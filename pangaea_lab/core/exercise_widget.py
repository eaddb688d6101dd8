"""The exercise widget: answer a generated exercise by clicking, and be told at once why.

Two layers, like the step-through widget, so the logic is testable without a browser:

* :class:`ExerciseModel` is plain Python.  It holds the current :class:`Exercise` (built from
  a kind's generator and a seed), the learner's answer so far (clicked spaces, picked options
  or a typed number), the verdict of the last Check, whether the hint and the answer are shown,
  and moves to "another one" (the next seed of the same kind).
* :class:`ExerciseView` is a thin ipywidgets layer: title, question, the board (clickable for
  space and path answers), option buttons or a number box, and the buttons Clear, Check,
  Hint, Show answer and Another one.

:class:`ExerciseProgress` counts, in one kernel, the exercises shown and those whose latest
Check was right ("3 of 5 right"); :func:`progress_widget` shows that line and keeps it current.
Notebooks use ``pangaea_lab.exercises.practice`` and ``pangaea_lab.exercises.progress``, which
build these on the kernel's one :data:`PROGRESS`.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING, Any, Callable

from .board_widget import clickable_board
from .errors import InvalidSetup
from .exercises import Exercise, Verdict, get, space_labels

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


class ExerciseModel:
    """One exercise kind at one seed, and the learner's answer to it; no ipywidgets needed.

    ``key`` names a registered kind (``generate`` defaults to that kind's generator)::

        m = ExerciseModel("pangaea.flying_seed_range", seed=12)
        m.click((2, 1)); m.click((3, 0))   # a "cells" exercise: toggle spaces
        m.check().correct                  # the engine's verdict; m.verdict keeps it
        m.another()                        # seed 13, a fresh position of the same kind
    """

    def __init__(self, key: str, seed: int = 0,
                 generate: Callable[[int], Exercise] | None = None) -> None:
        if not isinstance(key, str) or not key:
            raise InvalidSetup(f"an exercise kind is a name like 'pangaea.flying_seed_range', "
                             f"not {key!r}")
        self.key = key
        try:
            registered = get(key)
        except InvalidSetup:
            if generate is None:
                raise
            registered = None
        self.generate = generate if generate is not None else registered.generate
        #: the kind's short title and its rule in plain words (from the registry)
        self.title = registered.title if registered else key
        self.rule = registered.rule if registered else ""
        self._listeners: list[Callable[[], None]] = []
        #: the verdict of the latest Check on this widget, kept when the answer changes or
        #: another exercise is drawn (what the progress line counts); None before any Check
        self.last_correct: bool | None = None
        self.load(seed)

    # ----- listening ---------------------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every change (the view and the progress line use this)."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.remove(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # ----- the exercise ------------------------------------------------------------------

    def load(self, seed: int) -> None:
        """Show the exercise of this kind built from ``seed`` (a whole number from 0)."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise InvalidSetup(f"an exercise seed is a whole number from 0 to {MAX_SEED}, "
                               f"not {seed!r}")
        exercise = self.generate(seed)
        if not isinstance(exercise, Exercise):
            raise TypeError(f"the generator of {self.key!r} returned "
                            f"{type(exercise).__name__}, not an Exercise")
        self.seed = seed
        self.exercise = exercise
        self._reset_answer()
        #: checks made on this exercise
        self.attempts = 0
        self.hint_shown = False
        self.answer_shown = False
        self._changed()

    def another(self) -> None:
        """A fresh position of the same kind: the next seed."""
        self.load(self.seed + 1)

    @property
    def answer_kind(self) -> str:
        return self.exercise.answer_kind

    @property
    def seed_text(self) -> str:
        """What the screen says so a teacher can hand the same exercise to a class."""
        return f"Exercise seed {self.seed}"

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
        text = self.number_text.replace(" ", "")
        if not text:
            return None, "Type a number in the box first."
        if not re.fullmatch(r"[+-]?\d{1,%d}" % MAX_NUMBER_DIGITS, text):
            return None, f"{self.number_text!r} is not a whole number: type digits only, like 7."
        return int(text), ""

    def answer_text(self) -> str:
        """The answer given so far, in plain words."""
        kind = self.answer_kind
        if kind in ("cells", "path"):
            if not self.selection:
                return "no space clicked yet"
            words = self.exercise.cell_words
            if kind == "path":
                return " → ".join(words(c) for c in self.selection)
            return ", ".join(words(c) for c in self.selection)
        if kind in ("choice", "choices"):
            if not self.picked:
                return "nothing picked yet"
            return ", ".join(self.exercise.option_label(k) for k in self.picked)
        return self.number_text or "nothing typed yet"

    # ----- the buttons -------------------------------------------------------------------

    def check(self) -> Verdict:
        """Judge the answer with the engine; the verdict is kept in :attr:`verdict`."""
        kind = self.answer_kind
        if kind == "choice" and not self.picked:
            verdict = Verdict(False, "Pick one of the answers first.")
        elif kind == "path" and not self.selection:
            verdict = Verdict(False, "Click the spaces of the path first, in order.")
        elif kind == "number" and self._number()[0] is None:
            verdict = Verdict(False, self._number()[1])
        else:
            try:
                verdict = self.exercise.check(self.answer)
            except (ValueError, TypeError, KeyError, IndexError) as exc:
                # a checker that cannot read the answer refuses it, with its own words
                verdict = Verdict(False, f"That answer cannot be judged: {exc}")
            if not isinstance(verdict, Verdict):
                raise TypeError(f"the checker of {self.key!r} returned "
                                f"{type(verdict).__name__}, not a Verdict")
        self.attempts += 1
        self.verdict = verdict
        self.last_correct = verdict.correct
        self.message = ""
        self._changed()
        return verdict

    def show_hint(self) -> None:
        self.hint_shown = True
        self._changed()

    def show_answer(self) -> None:
        self.answer_shown = True
        self._changed()

    # ----- drawing -----------------------------------------------------------------------

    def svg(self) -> str:
        """The position with the learner's spaces marked ("" when there is no drawing)."""
        return self.exercise.svg(self.selection)

    def answer_svg(self) -> str:
        """The position with the engine's answer marked ("" when there is no drawing)."""
        return self.exercise.answer_svg()

    def feedback_text(self) -> str:
        """Right / Not quite and the reason, in plain words ("" before the first Check)."""
        if self.verdict is None:
            return ""
        word = "✓ Right." if self.verdict.correct else "✗ Not quite."
        return f"{word} {reason_text(self.verdict)}".strip()


class ExerciseProgress:
    """Counts the exercises shown in one kernel and those whose latest Check was right.

    An exercise is counted once per kind and starting seed, so running a page's cells again
    replaces its widgets instead of counting them twice.
    """

    def __init__(self) -> None:
        self._models: dict[tuple[str, int], ExerciseModel] = {}
        self._listeners: list[Callable[[], None]] = []

    def add(self, model: ExerciseModel) -> None:
        slot = (model.key, model.seed)
        old = self._models.get(slot)
        if old is not None and old is not model:
            old.unsubscribe(self._changed)
        self._models[slot] = model
        model.subscribe(self._changed)
        self._changed()

    def reset(self) -> None:
        """Forget every exercise (a fresh page)."""
        for model in self._models.values():
            model.unsubscribe(self._changed)
        self._models.clear()
        self._changed()

    @property
    def total(self) -> int:
        return len(self._models)

    @property
    def right(self) -> int:
        return sum(1 for m in self._models.values() if m.last_correct)

    def text(self) -> str:
        return f"{self.right} of {self.total} right"

    def subscribe(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()


#: the kernel's one progress count (one kernel per page in JupyterLab and Voilà)
PROGRESS = ExerciseProgress()


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
        self.style = w.HTML(_STYLE)
        self.title = w.HTML()
        self.seed_label = w.HTML()
        self.seed_box = w.BoundedIntText(min=0, max=MAX_SEED, description="Go to seed",
                                         layout=w.Layout(width="150px"),
                                         style={"description_width": "initial"})
        self.seed_button = w.Button(description="Go", layout=w.Layout(width="60px"),
                                    tooltip="Show the exercise with this seed (the one your "
                                            "teacher gave)")
        self.question = w.HTML()
        self.board = clickable_board()        # cells and path answers: click the spaces
        self.picture = w.HTML()               # choice and number answers: the position only
        self.selection_line = w.HTML()
        # the same clicks without a mouse: choose a space from the list, then Mark it
        self.space_list = w.Dropdown(description="Without a mouse", options=[],
                                     style={"description_width": "initial"})
        self.space_button = w.Button(description="Mark this space", layout=w.Layout(width="auto"),
                                     tooltip="Does what a click on that space does")
        self.keyboard_row = w.HBox([self.space_list, self.space_button])
        self._spaces_for: Exercise | None = None
        self.options_box = w.VBox()
        self.option_buttons: list[ipywidgets.Button] = []
        self.number_box = w.Text(placeholder="a whole number", description="Your answer",
                                 style={"description_width": "initial"})
        self.clear_button = w.Button(description="Clear", tooltip="Start your answer again")
        self.check_button = w.Button(description="Check", button_style="primary",
                                     tooltip="Is my answer right?")
        self.hint_button = w.Button(description="Hint", tooltip="A nudge, not the answer")
        self.answer_button = w.Button(description="Show answer",
                                      tooltip="Show the answer and why it is right")
        self.another_button = w.Button(description="Another one",
                                       tooltip="A new exercise of the same kind")
        self.message_line = w.HTML()
        self.feedback = w.HTML()
        self.hint_line = w.HTML()
        self.answer_text = w.HTML()
        self.answer_picture = w.HTML()
        buttons = w.HBox([self.clear_button, self.check_button, self.hint_button,
                          self.answer_button, self.another_button],
                         layout=w.Layout(flex_flow="row wrap"))
        self.answer_box = w.VBox([self.answer_text, self.answer_picture])
        header = w.HBox([self.title, w.HBox([self.seed_label, self.seed_box, self.seed_button])],
                        layout=w.Layout(justify_content="space-between", flex_flow="row wrap"))
        self.root = w.VBox([self.style, header,
                            self.question,
                            w.VBox([self.board, self.picture], layout=w.Layout(overflow="auto")),
                            self.selection_line, self.keyboard_row, self.options_box,
                            self.number_box, buttons,
                            self.message_line, self.feedback, self.hint_line, self.answer_box],
                           layout=w.Layout(border="1px solid #999", padding="6px",
                                           margin="8px 0"))
        for part, name in ((self.root, "exercise"), (self.title, "exercise-title"),
                           (self.seed_label, "exercise-seed"),
                           (self.seed_box, "exercise-seed-box"),
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
        self.root.add_class(f"pl-exercise-kind-{_css_name(model.key)}")
        self.root.model = model
        self.root.view = self

        if hasattr(self.board, "on_space"):
            self.board.on_space(model.click)
            self.board.on_play(model.click)      # Enter marks a space, as a click does
        self.number_box.observe(self._on_number, names="value")
        self.space_button.on_click(self._mark_listed_space)
        self.clear_button.on_click(lambda _b: model.clear())
        self.check_button.on_click(lambda _b: model.check())
        self.hint_button.on_click(lambda _b: model.show_hint())
        self.answer_button.on_click(lambda _b: model.show_answer())
        self.another_button.on_click(self._new_position(lambda: model.another()))
        self.seed_button.on_click(self._new_position(
            lambda: model.load(int(self.seed_box.value))))
        model.subscribe(self.refresh)
        self.refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    # ----- forwarding --------------------------------------------------------------------

    def _on_number(self, change: dict) -> None:
        if not self._quiet:
            self.model.set_number(change["new"])

    def _new_position(self, step: Callable[[], None]) -> Callable[[Any], None]:
        """A button that builds another exercise: if the generator cannot build that one,
        the learner is told so and keeps the current exercise."""
        def click(_button: Any) -> None:
            try:
                step()
            except (ValueError, TypeError) as exc:
                self.model.message = f"That exercise could not be made: {exc}"
                self.refresh()
        return click

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
                                    layout=self._w.Layout(width="auto"))
            button.add_class("pl-exercise-option")
            button.add_class(f"pl-option-{_css_name(option.key)}")
            button.option_key = option.key
            button.on_click(self._pick(option.key))
            self.option_buttons.append(button)
        self.options_box.children = tuple(self.option_buttons)

    def refresh(self) -> None:
        """Show the model's current state."""
        m, ex = self.model, self.model.exercise
        kind = ex.answer_kind
        self.title.value = f"<b>Exercise: {escape(m.title)}</b>"
        self.seed_label.value = (f'<span data-kind="{escape(m.key, quote=True)}" '
                                 f'data-seed="{m.seed}">{escape(m.seed_text)}</span>')
        if self.seed_box.value != m.seed:
            self.seed_box.value = m.seed
        self.question.value = (f"<p>{escape(ex.question)}</p>"
                               f"<p><i>{escape(INSTRUCTIONS[kind])}</i></p>")
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
        verdict = m.verdict
        if verdict is None:
            self.feedback.value = ""
        else:
            css = "pl-right" if verdict.correct else "pl-wrong"
            word = "✓ Right." if verdict.correct else "✗ Not quite."
            self.feedback.value = (f'<div class="{css}" data-correct="{str(verdict.correct).lower()}">'
                                   f"<b>{word}</b> {escape(reason_text(verdict))}</div>")
        self.hint_line.value = (f"<b>Hint:</b> {escape(ex.hint or 'Look again at the rule above.')}"
                                if m.hint_shown else "")
        if m.answer_shown:
            text = f"<b>Answer:</b> {escape(ex.answer_text())}"
            if ex.explanation:
                text += f"<br>{escape(ex.explanation)}"
            self.answer_text.value = text
            self.answer_picture.value = m.answer_svg() if (
                ex.answer_cells or kind in ("cells", "path")) else ""
        else:
            self.answer_text.value = ""
            self.answer_picture.value = ""
        self._show(self.answer_box, m.answer_shown)


def exercise_widget(key: str, seed: int = 0, *, progress: ExerciseProgress | None = None,
                    generate: Callable[[int], Exercise] | None = None) -> Any:
    """The root widget of an :class:`ExerciseView` on a new :class:`ExerciseModel`
    (``widget.model``, ``widget.view``), counted by ``progress`` when given."""
    model = ExerciseModel(key, seed, generate=generate)
    view = ExerciseView(model)
    if progress is not None:
        progress.add(model)
    return view.root


def progress_widget(progress: ExerciseProgress | None = None) -> Any:
    """A line "N of M right" for the exercises counted by ``progress`` (default: this
    kernel's), updated as the learner checks answers."""
    import ipywidgets as w  # the view layer only

    progress = PROGRESS if progress is None else progress
    line = w.HTML()
    line.add_class("pl-exercise-progress")

    def show() -> None:
        line.value = (f'<b data-right="{progress.right}" data-total="{progress.total}">'
                      f"Exercises on this page: {escape(progress.text())}</b>")

    progress.subscribe(show)
    show()
    line.progress = progress
    return line
