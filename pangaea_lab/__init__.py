"""pangaea_lab: learn nature board games step by step.

Each game is a sub-package with ``new_game(players=..., seed=...)``; see ``pangaea_lab.core``
for what they share.
"""

import importlib

from .core.exercises import add_finder

__version__ = "0.1.0"


def _find_exercise_kind(key: str) -> None:
    """Register every game's exercise kinds when a kind is asked for before
    ``pangaea_lab.exercises.registry()`` was called (``ExerciseModel("pangaea.flying_seed")``)."""
    importlib.import_module(".exercises", __name__).registry()


add_finder(_find_exercise_kind)


def __getattr__(name: str):
    """``pangaea_lab.simulate``: the simulation lab, imported on first use (it brings pandas)."""
    if name == "simulate":
        return importlib.import_module(".simulate", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
