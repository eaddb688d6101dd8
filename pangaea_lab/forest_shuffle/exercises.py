"""Exercise generators for forest_shuffle (see :mod:`pangaea_lab.core.exercises`): each registered kind
builds a small position from a seed and lets the rules engine answer it."""

from __future__ import annotations

from ..core.exercises import Exercise, Option, Verdict, register  # noqa: F401
