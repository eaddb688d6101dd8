"""Hex grid geometry in axial coordinates ``(q, r)``.

The third cube coordinate is ``s = -q - r``.  Directions are listed counter-clockwise
starting from "east" (``+q``).  Pixel conversion supports pointy-topped and flat-topped
hexes; offset conversion supports the four usual layouts ("odd-r", "even-r", "odd-q",
"even-q").

>>> neighbours((0, 0))[:2]
((1, 0), (1, -1))
>>> distance((0, 0), (2, -1))
2
>>> rotate((1, 0), 1)
(1, -1)
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterable, Iterator

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
OFFSET_LAYOUTS = ("odd-r", "even-r", "odd-q", "even-q")
ORIENTATIONS = ("pointy", "flat")


def add(a: Hex, b: Hex) -> Hex:
    """The sum of two axial vectors."""
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Hex, b: Hex) -> Hex:
    """The difference ``a - b`` of two axial vectors."""
    return (a[0] - b[0], a[1] - b[1])


def neighbour(h: Hex, direction: int) -> Hex:
    """The hex next to ``h`` in one of the six directions (0..5, counter-clockwise from east)."""
    d = DIRECTIONS[direction % 6]
    return (h[0] + d[0], h[1] + d[1])


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes sharing an edge with ``h``, in direction order."""
    return tuple((h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS)


def are_adjacent(a: Hex, b: Hex) -> bool:
    """True when the two hexes share an edge."""
    return distance(a, b) == 1


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(h: Hex, steps: int, center: Hex = (0, 0)) -> Hex:
    """Rotate ``h`` about ``center`` by ``steps`` sixths of a turn counter-clockwise."""
    q, r = h[0] - center[0], h[1] - center[1]
    s = -q - r
    for _ in range(steps % 6):
        q, r, s = -s, -q, -r
    return (q + center[0], r + center[1])


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps from ``center`` (just ``center`` for radius 0)."""
    if radius < 0:
        raise ValueError("a ring's radius cannot be negative")
    if radius == 0:
        return [center]
    results = []
    h = (center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius)
    for side in range(6):
        for _ in range(radius):
            results.append(h)
            h = neighbour(h, side)
    return results


def spiral(center: Hex, radius: int) -> list[Hex]:
    """All hexes within ``radius`` of ``center``, ring by ring."""
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


def to_pixel(h: Hex, size: float = 1.0, orientation: str = "pointy") -> tuple[float, float]:
    """Centre of hex ``h`` in pixels (y grows downwards), for hexes of circumradius ``size``."""
    q, r = h
    if orientation == "pointy":
        return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)
    if orientation == "flat":
        return (size * 1.5 * q, size * math.sqrt(3) * (r + q / 2))
    raise ValueError(f"orientation must be one of {ORIENTATIONS}, not {orientation!r}")


def round_hex(q: float, r: float) -> Hex:
    """The hex containing fractional axial coordinates ``(q, r)``."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def from_pixel(x: float, y: float, size: float = 1.0, orientation: str = "pointy") -> Hex:
    """The hex whose area contains pixel ``(x, y)``; the inverse of :func:`to_pixel`."""
    if orientation == "pointy":
        q = (math.sqrt(3) / 3 * x - y / 3) / size
        r = (2 / 3 * y) / size
    elif orientation == "flat":
        q = (2 / 3 * x) / size
        r = (-x / 3 + math.sqrt(3) / 3 * y) / size
    else:
        raise ValueError(f"orientation must be one of {ORIENTATIONS}, not {orientation!r}")
    return round_hex(q, r)


def corners(h: Hex, size: float = 1.0, orientation: str = "pointy") -> list[tuple[float, float]]:
    """The six corner points of hex ``h`` in pixels, for drawing."""
    return list(_corners(h, size, orientation))


@lru_cache(maxsize=8192)
def _corners(h: Hex, size: float, orientation: str) -> tuple[tuple[float, float], ...]:
    # boards are redrawn after every click with the same hexes: each hex's corners are
    # worked out once
    cx, cy = to_pixel(h, size, orientation)
    start = 30 if orientation == "pointy" else 0
    return tuple((cx + size * math.cos(math.radians(start + 60 * i)),
                  cy + size * math.sin(math.radians(start + 60 * i))) for i in range(6))


def to_offset(h: Hex, layout: str = "odd-r") -> tuple[int, int]:
    """Axial ``(q, r)`` to offset ``(col, row)`` in one of :data:`OFFSET_LAYOUTS`."""
    q, r = h
    if layout == "odd-r":
        return (q + (r - (r & 1)) // 2, r)
    if layout == "even-r":
        return (q + (r + (r & 1)) // 2, r)
    if layout == "odd-q":
        return (q, r + (q - (q & 1)) // 2)
    if layout == "even-q":
        return (q, r + (q + (q & 1)) // 2)
    raise ValueError(f"offset layout must be one of {OFFSET_LAYOUTS}, not {layout!r}")


def from_offset(col: int, row: int, layout: str = "odd-r") -> Hex:
    """Offset ``(col, row)`` in one of :data:`OFFSET_LAYOUTS` to axial ``(q, r)``."""
    if layout == "odd-r":
        return (col - (row - (row & 1)) // 2, row)
    if layout == "even-r":
        return (col - (row + (row & 1)) // 2, row)
    if layout == "odd-q":
        return (col, row - (col - (col & 1)) // 2)
    if layout == "even-q":
        return (col, row - (col + (col & 1)) // 2)
    raise ValueError(f"offset layout must be one of {OFFSET_LAYOUTS}, not {layout!r}")


def bounding_box(hexes: Iterable[Hex], size: float = 1.0,
                 orientation: str = "pointy") -> tuple[float, float, float, float]:
    """``(min_x, min_y, max_x, max_y)`` of the drawn hexes, corners included."""
    xs: list[float] = []
    ys: list[float] = []
    for h in hexes:
        for x, y in corners(h, size, orientation):
            xs.append(x)
            ys.append(y)
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def line(a: Hex, b: Hex) -> Iterator[Hex]:
    """The hexes on a straight line from ``a`` to ``b``, both included."""
    n = distance(a, b)
    for i in range(n + 1):
        t = i / n if n else 0.0
        q = a[0] + (b[0] - a[0]) * t + 1e-6
        r = a[1] + (b[1] - a[1]) * t + 1e-6
        yield round_hex(q, r)
