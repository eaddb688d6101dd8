"""A tiny deterministic SVG builder for board pictures.

Numbers are rounded to two decimals and attributes written in a fixed order, so the same
board always gives byte-identical SVG (which keeps notebook outputs stable).

Readable by everyone: a drawing is shown large enough that its smallest text is at least
:data:`MIN_TEXT_PX` pixels high (its ``width`` and ``height`` are its view box times that
zoom), and it shrinks to fit a narrow window (``max-width: 100%``) instead of making the
page scroll sideways.  Text uses the font shipped with the package (:data:`FONT_FAMILY`,
see :mod:`pangaea_lab.core.fonts`), with the browser's sans-serif as the fallback.

>>> pic = Svg(20, 10)
>>> pic.circle(5, 5, 4, fill="green", title="a seed")
>>> "<circle" in pic.render()
True
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable, Sequence

from . import hexgrid

#: the least height of any text in a drawing shown at its own size, in CSS pixels
MIN_TEXT_PX = 11.0
#: the font of every text in a drawing: the package's own first
FONT_FAMILY = "DejaVu Sans, sans-serif"


def _num(x: float) -> str:
    text = _NUMBERS.get(x)
    if text is None:
        text = f"{x:.2f}".rstrip("0").rstrip(".")
        if text in ("-0", ""):
            text = "0"
        if len(_NUMBERS) > 50_000:          # a bound on memory: start the table again
            _NUMBERS.clear()
        _NUMBERS[x] = text
    return text


#: numbers already written (boards are redrawn with the same coordinates after each click)
_NUMBERS: dict[float, str] = {}
#: attribute names as written: ``font_size`` -> ``font-size``, ``class_`` -> ``class``
_NAMES: dict[str, str] = {}
#: the characters :func:`html.escape` changes in an attribute value
_SPECIAL = frozenset('&<>"\'')


def _value(value: Any) -> str:
    """An attribute value as written: floats rounded (:func:`_num`), the rest escaped."""
    if isinstance(value, float):
        return _num(value)
    text = str(value)
    if _SPECIAL.isdisjoint(text):
        return text
    return escape(text, quote=True)


def _attrs(attrs: dict) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES[key] = key.rstrip("_").replace("_", "-")
        parts.append(f'{name}="{_value(value)}"')
    return " ".join(parts)


def _element(tag: str, attrs: dict, title: str | None, text: str | None) -> str:
    inner = ""
    if title:
        inner += f"<title>{escape(title)}</title>"
    if text is not None:
        inner += escape(text)
    return (f"<{tag} {_attrs(attrs)}>{inner}</{tag}>" if inner
            else f"<{tag} {_attrs(attrs)}/>")


#: elements already written: a board redrawn after a click repeats most of its shapes
_ELEMENTS: dict[tuple, str] = {}


class SvgImage(str):
    """SVG source that a notebook shows as a picture.

    It is a plain ``str`` (so it can be searched, saved or embedded in HTML), with a
    ``_repr_svg_`` so that a cell ending in a drawing shows the drawing, not its source text.

    >>> pic = SvgImage('<svg xmlns="http://www.w3.org/2000/svg"></svg>')
    >>> pic.startswith("<svg"), pic._repr_svg_() == pic
    (True, True)
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # the plain-text form (terminals, doctests' display) says what it is in one line
        printer.text(f"<drawing: SVG, {len(self)} characters>")


def as_image(svg: str) -> SvgImage:
    """Wrap SVG source so a notebook shows it as a drawing."""
    return svg if isinstance(svg, SvgImage) else SvgImage(svg)


class Svg:
    """Collects shapes and renders them as one ``<svg>`` element."""

    def __init__(self, width: float, height: float, min_x: float = 0.0, min_y: float = 0.0,
                 background: str | None = None) -> None:
        self.width, self.height = width, height
        self.min_x, self.min_y = min_x, min_y
        self.items: list[str] = []
        self.smallest_text = 0.0     # the smallest font size used so far (0: no text)
        if background:
            self.rect(min_x, min_y, width, height, fill=background)

    def _add(self, tag: str, attrs: dict, title: str | None = None, text: str | None = None) -> None:
        try:
            # the values' types too: True and 1 are equal keys but are written differently
            key = (tag, title, text, tuple(map(type, attrs.values())), *attrs.items())
            element = _ELEMENTS.get(key)
        except TypeError:                   # a value that cannot be a key: write it afresh
            key = element = None
        if element is None:
            element = _element(tag, attrs, title, text)
            if key is not None:
                if len(_ELEMENTS) > 20_000:     # a bound on memory: start the table again
                    _ELEMENTS.clear()
                _ELEMENTS[key] = element
        self.items.append(element)

    def polygon(self, points: Sequence[tuple[float, float]], title: str | None = None,
                **attrs) -> None:
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self._add("polygon", {"points": pts, **attrs}, title)

    def polyline(self, points: Sequence[tuple[float, float]], title: str | None = None,
                 **attrs) -> None:
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        self._add("polyline", {"points": pts, "fill": "none", **attrs}, title)

    def circle(self, cx: float, cy: float, r: float, title: str | None = None, **attrs) -> None:
        self._add("circle", {"cx": float(cx), "cy": float(cy), "r": float(r), **attrs}, title)

    def rect(self, x: float, y: float, w: float, h: float, title: str | None = None,
             **attrs) -> None:
        self._add("rect", {"x": float(x), "y": float(y), "width": float(w), "height": float(h),
                           **attrs}, title)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs) -> None:
        self._add("line", {"x1": float(x1), "y1": float(y1), "x2": float(x2), "y2": float(y2),
                           **attrs})

    def text(self, x: float, y: float, text: str, size: float = 10, anchor: str = "middle",
             **attrs) -> None:
        size = float(size)
        self.smallest_text = min(self.smallest_text or size, size)
        self._add("text", {"x": float(x), "y": float(y), "font_size": size,
                           "text_anchor": anchor, "font_family": FONT_FAMILY,
                           "dominant_baseline": "central", **attrs}, text=text)

    def hexagon(self, h: hexgrid.Hex, size: float, orientation: str = "pointy",
                origin: tuple[float, float] = (0.0, 0.0), title: str | None = None,
                **attrs) -> None:
        pts = [(x + origin[0], y + origin[1]) for x, y in hexgrid.corners(h, size, orientation)]
        self.polygon(pts, title=title, **attrs)

    def raw(self, fragment: str, smallest_text: float = 0.0) -> None:
        """Add an already-built SVG fragment (e.g. a ``<g>`` from another builder), telling
        the smallest font size inside it, if any."""
        self.items.append(fragment)
        if smallest_text:
            self.smallest_text = min(self.smallest_text or smallest_text, smallest_text)

    @property
    def zoom(self) -> float:
        """How much the drawing is enlarged on screen so its smallest text is
        :data:`MIN_TEXT_PX` high (1 when every text is large enough already)."""
        return max(1.0, MIN_TEXT_PX / self.smallest_text) if self.smallest_text else 1.0

    def render(self) -> SvgImage:
        zoom = self.zoom
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" '
                f'viewBox="{_num(self.min_x)} {_num(self.min_y)} {_num(self.width)} '
                f'{_num(self.height)}" width="{_num(self.width * zoom)}" '
                f'height="{_num(self.height * zoom)}" style="max-width: 100%; height: auto">')
        return SvgImage(head + "".join(self.items) + "</svg>")

    def _repr_svg_(self) -> str:
        return self.render()


def hex_canvas(cells: Iterable[hexgrid.Hex], size: float, orientation: str = "pointy",
               margin: float = 10.0, extra_bottom: float = 0.0,
               background: str | None = None) -> Svg:
    """An :class:`Svg` whose view box fits the given hexes with a margin."""
    x0, y0, x1, y1 = hexgrid.bounding_box(cells, size, orientation)
    return Svg(x1 - x0 + 2 * margin, y1 - y0 + 2 * margin + extra_bottom,
               min_x=x0 - margin, min_y=y0 - margin, background=background)
