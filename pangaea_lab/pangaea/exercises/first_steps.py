"""Exercise generators for The Dawn of Pangaea: see the package docstring."""

from __future__ import annotations

from ...core.exercises import Exercise, Option, Verdict, register  # noqa: F401
