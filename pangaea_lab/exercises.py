"""Every exercise of the package, for the four games.

>>> from pangaea_lab import exercises
>>> kinds = exercises.registry()
>>> sorted({kind.game for kind in kinds}) == sorted(exercises.GAMES)
True
>>> ex = kinds[0].generate(12)                       # a fresh position from a seed
>>> ex.check(ex.answer).correct                      # the engine's own answer is right
True

Each kind has its ``game``, its ``notebook`` (path under ``notebooks/``), the ``rule`` in plain
words and ``generate(seed)``; a generated exercise has ``question``, ``answer`` (the engine's)
and ``check(answer)``, which returns a verdict with ``correct`` and ``reason``.
"""

from __future__ import annotations

import importlib

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


__all__ = ["Exercise", "ExerciseKind", "GAMES", "Option", "Verdict", "generate", "kinds_for",
           "registry"]
