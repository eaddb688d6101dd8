"""Drawing Return of the Ancients: Scourge Markers, the Spirit of Shadows, and the status
lines of the Ancient Markers, the mountain's markers and the Moon Board, as the
:class:`~.render.Drawing` of the Return of the Ancients variant (registered with
:mod:`.render` on import; the rules in :mod:`.coop` draw nothing).
"""

from __future__ import annotations

from typing import Any

from ..core import hexgrid
from ..core.svg import Svg
from .coop import VARIANT, coop_data
from .render import SIZE, Drawing, _inner_hex, add_drawing


def _shadow_and_scourge(pic: Svg, state: Any) -> None:
    """Return of the Ancients: Scourge Markers as dark hexes, the Spirit of Shadows as a black
    disc with a crescent."""
    board = state.board
    co = state.coop
    for i in co.scourged:
        _inner_hex(pic, board.cells[i], 0.8, fill="#2b1d2f", stroke="#7d4e8c",
                    stroke_width=1.2, opacity="0.55", title=f"Scourge on {board.cells[i]}")
        if i in co.paired:
            x, y = hexgrid.to_pixel(board.cells[i], SIZE)
            pic.text(x + 8, y - 6, "×2", size=8, fill="#ffffff", font_weight="bold")
    x, y = hexgrid.to_pixel(board.cells[co.shadow], SIZE)
    pic.circle(x - 6, y + 6, 8.5, fill="#111111", stroke="#b39ddb", stroke_width=2,
               title=f"Spirit of Shadows on {board.cells[co.shadow]}")
    pic.text(x - 6, y + 6, "☾", size=9, fill="#e0d7f0", font_weight="bold")


def _coop_text(state: Any) -> list[str]:
    """The co-op status lines, short enough for the narrowest board (about 56 characters)."""
    data = coop_data(state.edition)
    co = state.coop
    summit = state.edition.summit_steps
    marks = " · ".join(f"{a} {'back' if s >= summit else s}"
                       for a, s in zip(("Okuma", "Chelon", "Thorondal"), co.ancient_steps))
    devour = ", ".join(map(str, co.devour_steps)) or "none"
    stacks = " | ".join(", ".join(st) for st in co.moon_stacks) or "empty"
    lines = [f"Ancient Markers: {marks}",
             f"Summit at {summit} · Devour on {devour} · Dance on {data.dance_step}",
             f"Scourge supply {co.scourge_supply} · Moon Cycle {co.cycle}/3 ({co.difficulty})"
             f" · bag {len(co.shadow_bag)}"]
    words = f"Moon Board stacks: {stacks}".split(" ")
    line = words.pop(0)
    for word in words:
        if len(line) + 1 + len(word) > 56:
            lines.append(line)
            line = "  " + word
        else:
            line += " " + word
    return lines + [line]


class CoopDrawing(Drawing):
    """Return of the Ancients in the drawing: the Shadow and the Scourge under the Spirits,
    the team's result after the round, and its status lines."""

    def under_spirits(self, pic: Svg, state: Any) -> None:
        _shadow_and_scourge(pic, state)

    def phase(self, state: Any) -> str:
        return f" — {state.coop.result}" if state.coop.result else ""

    def status_lines(self, state: Any) -> list[tuple[str, float, str]]:
        return [(line, 9.5, "#3b2060") for line in _coop_text(state)]


DRAWING = add_drawing(VARIANT, CoopDrawing())
