"""Every exercise of the package, for the four games.

>>> from pangaea_lab import exercises
>>> kinds = exercises.registry()
>>> sorted({kind.game for kind in kinds}) == sorted(exercises.GAMES)
True
>>> ex = kinds[0].generate(12)                       # a fresh position from a seed
>>> ex.check(ex.answer).correct                      # the engine's own answer is right
True

In a notebook, :func:`practice` shows one exercise as a widget a learner answers by clicking,
and :func:`progress` a line "2 of 5 right" for the exercises of the page::

    from pangaea_lab.exercises import practice, progress
    progress()
    practice("pangaea.flying_seed_range", seed=1)

Each kind has its ``game``, its ``notebook`` (path under ``notebooks/``), the ``rule`` in plain
words and ``generate(seed)``; a generated exercise has ``question``, ``answer`` (the engine's)
and ``check(answer)``, which returns a verdict with ``correct`` and ``reason``.
"""

from __future__ import annotations

import importlib
from typing import Any

from .core.exercises import Exercise, ExerciseKind, Option, Verdict, get, registered

#: the game packages whose ``exercises`` module registers exercise kinds
GAMES = ("pangaea", "harmonies", "forest_shuffle", "inori")


def registry() -> list[ExerciseKind]:
    """Every exercise kind of every game (importing each game's exercise module once)."""
    for game in GAMES:
        importlib.import_module(f"pangaea_lab.{game}.exercises")
    return registered()


def kinds_for(notebook: str) -> list[ExerciseKind]:
    """The exercise kinds taught in one notebook (path under ``notebooks/``)."""
    return [kind for kind in registry() if kind.notebook == notebook]


def generate(key: str, seed: int = 0) -> Exercise:
    """The exercise of kind ``key`` built from ``seed``."""
    registry()
    return get(key).generate(seed)


def practice(key: str, seed: int = 0) -> Any:
    """The exercise widget for kind ``key``, starting at ``seed``: the question, the board or
    the choices, and the buttons Check, Hint, Show answer and Another one.  It is counted by
    this kernel's :func:`progress` line (``widget.model`` is the
    :class:`~pangaea_lab.core.exercise_widget.ExerciseModel`)."""
    from .core import exercise_widget  # imports ipywidgets: only when a widget is asked for

    registry()
    get(key)  # an unknown kind is refused here, naming the known ones
    return exercise_widget.exercise_widget(key, seed, progress=exercise_widget.PROGRESS)


def progress() -> Any:
    """A line "N of M right": the exercises shown in this kernel (one page in JupyterLab and
    in the classroom app) and how many of them were last checked right; it updates live."""
    from .core import exercise_widget  # imports ipywidgets: only when a widget is asked for

    return exercise_widget.progress_widget(exercise_widget.PROGRESS)


__all__ = ["Exercise", "ExerciseKind", "GAMES", "Option", "Verdict", "generate", "kinds_for",
           "practice", "progress", "registry"]
