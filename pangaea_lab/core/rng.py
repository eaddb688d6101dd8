"""Seeded randomness.  Everything random in a game comes from its seed, so the same seed gives
the same game on every machine (Python's ``random.Random`` is the same Mersenne Twister
everywhere, and we seed it with integers or text only).
"""

from __future__ import annotations

import hashlib
import random

from .errors import InvalidSetup


def check_seed(seed: object) -> int | str:
    """The seed itself if it is an int or a str; a clear error otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise InvalidSetup(f"seed must be a whole number or a text, not {seed!r}")
    return seed


def make_rng(seed: int | str, *keys: object) -> random.Random:
    """A ``random.Random`` for ``seed``; extra ``keys`` derive an independent stream
    (e.g. ``make_rng(7, "market", 3)``) that is still the same on every machine.

    >>> make_rng(7).random() == make_rng(7).random()
    True
    """
    check_seed(seed)
    if not keys and isinstance(seed, int):
        return random.Random(seed)
    text = "|".join(map(repr, (seed, *keys))).encode("utf-8")
    return random.Random(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))


def shuffled(items, rng: random.Random) -> list:
    """A shuffled copy of ``items`` (the input is left alone)."""
    out = list(items)
    rng.shuffle(out)
    return out
