"""Colours that everyone can tell apart, and the arithmetic that checks it.

Every colour in a drawing that carries meaning (whose piece, which terrain, which kind of
card) comes from one table per game; this module holds what they share: the highlight, and
the tools a test uses to check the tables for readers with a colour vision deficiency.

The check simulates the three common dichromacies (protanopia, deuteranopia, tritanopia) by
a linear map in linear RGB, then measures how far apart two simulated colours look with the
CIEDE2000 colour difference (1 is about the smallest difference a trained eye notices on
large patches; pieces on a board need far more).

>>> round(delta_e("#000000", "#ffffff"), 1)
100.0
>>> round(contrast_ratio("#000000", "#ffffff"), 1)
21.0
>>> simulate("#808080", "protan") == "#808080"      # a grey stays grey
True
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

from .errors import InvalidData

#: The highlight of a space, card or piece in every game: a dark line with a bright line
#: inside it.  One of the two always stands out against any fill (the bright line on dark
#: spaces, the dark line on light ones), so no highlight ever vanishes on a yellow space.
HIGHLIGHT_DARK = "#141414"
HIGHLIGHT_LIGHT = "#ffe14a"

#: The simulated colour vision deficiencies, by short name.
DEFICIENCIES = ("protan", "deutan", "tritan")

# Linear maps from a colour (linear RGB) to how a dichromat sees it, at full severity, after
# Machado, Oliveira & Fernandes (2009), "A physiologically-based model for simulation of
# color vision deficiency".  Each row sums to 1, so white stays white and greys stay grey.
_SIMULATION = {
    "protan": ((0.152286, 1.052583, -0.204868),
               (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968),
               (0.280085, 0.672501, 0.047413),
               (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779),
               (-0.078411, 0.930809, 0.147602),
               (0.004733, 0.691367, 0.303900)),
}


def rgb(colour: str) -> tuple[float, float, float]:
    """``"#rrggbb"`` (or ``"#rgb"``) as three numbers from 0 to 1."""
    text = colour.strip().lstrip("#") if isinstance(colour, str) else ""
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    try:
        if len(text) != 6:
            raise ValueError
        return tuple(int(text[k:k + 2], 16) / 255 for k in (0, 2, 4))  # type: ignore[return-value]
    except ValueError:
        raise InvalidData(f"colour: expected '#rrggbb', got {colour!r}") from None


def _to_linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _from_linear(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def _hex(values: Sequence[float]) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in values)


def simulate(colour: str, deficiency: str) -> str:
    """How ``colour`` looks to a reader with the given dichromacy ("protan", "deutan",
    "tritan"), as ``"#rrggbb"``."""
    if deficiency not in _SIMULATION:
        raise InvalidData(f"deficiency: expected one of {', '.join(DEFICIENCIES)}, "
                          f"got {deficiency!r}")
    lin = [_to_linear(c) for c in rgb(colour)]
    seen = [sum(m * c for m, c in zip(row, lin)) for row in _SIMULATION[deficiency]]
    return _hex([_from_linear(c) for c in seen])


def luminance(colour: str) -> float:
    """Relative luminance (0 for black, 1 for white), as the web contrast rules define it."""
    r, g, b = (_to_linear(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """The contrast ratio of two colours, from 1 (the same) to 21 (black on white); 3 is the
    usual least for shapes and large text, 4.5 for body text."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65 white) coordinates of an sRGB colour."""
    r, g, b = (_to_linear(c) for c in rgb(colour))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str, b: str) -> float:
    """The CIEDE2000 difference between two colours (0: the same)."""
    return delta_e_lab(lab(a), lab(b))


def delta_e_lab(first: Sequence[float], second: Sequence[float]) -> float:
    """The CIEDE2000 difference between two CIELAB colours."""
    l1, a1, b1 = first
    l2, a2, b2 = second
    # chroma, with the a axis stretched for nearly grey colours
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    # differences in lightness, chroma and hue
    dl, dc = l2 - l1, c2 - c1
    dh = 0.0
    if c1 and c2:
        dh = h2 - h1
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dh_big = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    # the means the weights depend on
    l_mean, c_mean2 = (l1 + l2) / 2, (c1 + c2) / 2
    if not (c1 and c2):
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * c_mean2
    s_h = 1 + 0.015 * c_mean2 * t
    rotation = (-2 * math.sqrt(c_mean2 ** 7 / (c_mean2 ** 7 + 25 ** 7))
                * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2
                     + rotation * (dc / s_c) * (dh_big / s_h))


def closest_pair(colours: dict[str, str], deficiency: str | None = None
                 ) -> tuple[float, str, str]:
    """The two entries of ``{name: colour}`` that look most alike (to a reader with
    ``deficiency``, or with normal vision when None): ``(difference, name, name)``."""
    seen = {name: simulate(c, deficiency) if deficiency else c for name, c in colours.items()}
    names = sorted(seen)
    best = (math.inf, "", "")
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            best = min(best, (delta_e(seen[a], seen[b]), a, b))
    return best


def too_close(colours: dict[str, str], least: float,
              visions: Iterable[str | None] = (None, *DEFICIENCIES)) -> list[str]:
    """Every pair of ``colours`` closer than ``least`` (CIEDE2000) for some vision, as
    sentences; empty when all can be told apart."""
    found = []
    for vision in visions:
        seen = {name: simulate(c, vision) if vision else c for name, c in colours.items()}
        names = sorted(seen)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                d = delta_e(seen[a], seen[b])
                if d < least:
                    found.append(f"{a} and {b} differ by only {d:.1f} "
                                 f"({vision or 'normal'} vision; at least {least} needed)")
    return found


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better as text or a letter on ``fill``."""
    return "#111111" if contrast_ratio("#111111", fill) >= contrast_ratio("#ffffff", fill) \
        else "#ffffff"
