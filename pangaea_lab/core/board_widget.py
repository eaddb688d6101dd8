"""A board picture that reports which space was clicked.

Board drawings mark each space with a ``data-cell="q,r"`` attribute.  :class:`ClickableBoard`
shows such an SVG in the notebook and, when the learner clicks a space (or a piece standing on
it), sets its ``clicked`` trait to ``"q,r"``; the step-through widget listens and selects an
action on that space.  The keyboard does the same: Tab reaches the board (one Tab stop, on
the space last in focus), the arrow keys move to the nearest space in their direction, Space
chooses the space in focus (``clicked``) and Enter plays it (``played``); the space in focus
is outlined.  A drawing wider than the window is shrunk to fit it (and its text with it); a
button above it then offers the drawing at its full size, readable, scrolling sideways.
It needs the small ``anywidget`` package; :func:`clickable_board` falls back to a plain HTML
widget (no clicks) without it.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Callable, Mapping

from .clicks import BROWSER_GUARD

_SCRIPT = BROWSER_GUARD + """
function spaceAt(root, event) {
  // the space under the pointer, even when a piece is drawn on top of it
  for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (!root.contains(node)) continue;
    const marked = node.closest ? node.closest("[data-cell]") : null;
    if (marked && root.contains(marked)) return marked.getAttribute("data-cell");
  }
  return null;
}

function spaces(root) {
  // one entry per space: the first shape drawn for it (pieces on it repeat its data-cell),
  // placed where it is seen on the page
  const seen = new Map();
  for (const node of root.querySelectorAll("[data-cell]")) {
    const cell = node.getAttribute("data-cell");
    if (!seen.has(cell)) seen.set(cell, node);
  }
  return [...seen.entries()].map(([cell, node]) => {
    const box = node.getBoundingClientRect();
    const title = node.querySelector("title");
    return { cell, node, x: box.x + box.width / 2, y: box.y + box.height / 2,
             label: title ? title.textContent : "space " + cell };
  });
}

// The same rule as arrow_target in board_widget.py (a browser test compares the two):
// the spaces within 60 degrees of the arrow count; the nearest wins, a space off to the
// side counting as a little farther; of two about as near, Up leans left, Down right,
// Right up and Left down, so that a key and then its opposite come back.
const CONE = 0.49, SIDEWAYS = 0.5, TIE = 0.02;

function nearest(list, from, dx, dy) {
  const found = [];
  for (const s of list) {
    const vx = s.x - from.x, vy = s.y - from.y;
    const d = Math.hypot(vx, vy), along = vx * dx + vy * dy, turn = vx * dy - vy * dx;
    if (d === 0 || along < CONE * d) continue;
    found.push({ s, score: d + SIDEWAYS * Math.abs(turn), turn });
  }
  if (!found.length) return null;
  const least = Math.min(...found.map((f) => f.score));
  let best = null;
  for (const f of found) {
    if (f.score > least * (1 + TIE)) continue;
    if (best === null || f.turn > best.turn) best = f;
  }
  return best.s;
}

const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

function render({ model, el }) {
  guardDoubleClicks();    // a double click on a widget button is one click (core/clicks.py)
  el.classList.add("pl-clickable-board");
  el.setAttribute("role", "group");
  // in JupyterLab, keys pressed on the board are the board's, not the notebook's shortcuts
  el.setAttribute("data-lm-suppress-shortcuts", "true");
  el.setAttribute("aria-label", "Board: Tab reaches the spaces, the arrow keys move between "
                  + "them, Space chooses the one in focus, Enter plays it");
  let current = null;     // the data-cell of the space with the keyboard focus
  let clicks = 0;
  const send = (name, cell) => {
    clicks += 1;
    // the counter makes a second press on the same space a change too
    model.set(name, cell + "#" + clicks);
    model.save_changes();
  };
  const focusOn = (entry) => {
    for (const s of spaces(el)) s.node.setAttribute("tabindex", "-1");
    entry.node.setAttribute("tabindex", "0");
    current = entry.cell;
    entry.node.focus();
  };
  const prepare = () => {
    // one Tab stop for the whole board (the space last in focus, else the first one)
    const list = spaces(el);
    if (!list.length) return;
    const keep = list.find((s) => s.cell === current) || list[0];
    for (const s of list) {
      s.node.setAttribute("tabindex", s === keep ? "0" : "-1");
      s.node.setAttribute("role", "button");
      s.node.setAttribute("aria-label", s.label);
      s.node.classList.add("pl-space");
    }
  };
  // A drawing wider than the window shrinks to fit it, and so does its text.  Then a button
  // above it offers the drawing at its full size (its text readable), scrolling sideways.
  const bar = document.createElement("div");
  bar.className = "pl-board-size";
  const sizeButton = document.createElement("button");
  sizeButton.type = "button";
  sizeButton.className = "pl-size-toggle";
  bar.appendChild(sizeButton);
  const frame = document.createElement("div");
  frame.className = "pl-board-frame";
  el.append(bar, frame);
  let full = false;
  const fit = () => {
    el.classList.toggle("pl-full-size", full);
    sizeButton.setAttribute("aria-pressed", full ? "true" : "false");
    sizeButton.textContent = full ? "Fit the drawing to the window"
                                  : "Larger text: the drawing at full size (scroll sideways)";
    const svg = frame.querySelector("svg");
    const natural = svg ? parseFloat(svg.getAttribute("width")) : 0;
    const shown = svg ? svg.getBoundingClientRect().width : 0;
    // offered only while the drawing is shrunk (or shown at full size on request)
    bar.hidden = !full && !(natural && shown && shown < natural - 1);
  };
  sizeButton.addEventListener("click", () => { full = !full; fit(); });
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(fit).observe(el);
  const draw = () => {
    const hadFocus = el.contains(document.activeElement);
    frame.innerHTML = model.get("value");
    prepare();
    fit();
    if (hadFocus && current !== null) {
      const again = spaces(el).find((s) => s.cell === current);
      if (again) again.node.focus();
    }
  };
  draw();
  model.on("change:value", draw);
  el.addEventListener("click", (event) => {
    const cell = spaceAt(el, event);
    if (cell === null) return;
    send("clicked", cell);
  });
  el.addEventListener("focusin", (event) => {
    const marked = event.target.closest ? event.target.closest("[data-cell]") : null;
    if (marked) current = marked.getAttribute("data-cell");
  });
  el.addEventListener("keydown", (event) => {
    const marked = event.target.closest ? event.target.closest("[data-cell]") : null;
    if (!marked || !el.contains(marked)) return;
    const cell = marked.getAttribute("data-cell");
    if (event.key in ARROWS) {
      const list = spaces(el);
      const here = list.find((s) => s.cell === cell);
      const [dx, dy] = ARROWS[event.key];
      const next = here ? nearest(list, here, dx, dy) : null;
      if (next) focusOn(next);
    } else if (event.key === "Enter") {
      send("played", cell);
    } else if (event.key === " " || event.key === "Spacebar") {
      send("clicked", cell);
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  });
}

export default { render };
"""

_STYLE = """
.pl-clickable-board [data-cell] { cursor: pointer; }
.pl-clickable-board [data-cell]:hover { filter: brightness(1.12); }
.pl-clickable-board .pl-space:focus { outline: none; }
.pl-clickable-board .pl-space:focus-visible, .pl-clickable-board .pl-space:focus {
  stroke: #141414 !important; stroke-width: 5px !important; stroke-dasharray: none !important;
  filter: drop-shadow(0 0 2px #ffe14a) drop-shadow(0 0 2px #ffe14a); }
.pl-clickable-board svg { max-width: 100%; height: auto; }
.pl-clickable-board .pl-board-size { margin: 0 0 4px 0; }
.pl-clickable-board .pl-board-size[hidden] { display: none; }
.pl-clickable-board .pl-size-toggle { font-size: 14px; padding: 3px 8px; cursor: pointer; }
.pl-clickable-board .pl-size-toggle:focus-visible { outline: 3px solid #141414;
  outline-offset: 2px; }
.pl-clickable-board.pl-full-size .pl-board-frame { overflow-x: auto; max-width: 100%; }
.pl-clickable-board.pl-full-size svg { max-width: none !important; }
"""


#: the arrow keys and their directions on the page (y grows downwards)
ARROWS: dict[str, tuple[int, int]] = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0),
                                      "ArrowDown": (0, 1), "ArrowUp": (0, -1)}
#: a space counts as lying in an arrow's direction within 60 degrees of it (a hair more)
_CONE = 0.49
#: how much farther a space counts for each pixel it lies off to the side of the arrow
_SIDEWAYS = 0.5
#: spaces whose scores differ by less than this share are about as near
_TIE = 0.02


def arrow_target(centres: Mapping[str, tuple[float, float]], cell: str, key: str) -> str | None:
    """The space an arrow key moves to from ``cell`` (the script in the browser does the
    same with the spaces' centres on the page), or None when no space lies that way.

    Spaces within 60 degrees of the arrow count; the nearest wins, a space off to the side
    counting as a little farther; of two about as near, Up leans left, Down right, Right up
    and Left down, so that a key and then its opposite come back.

    >>> row = {"a": (0, 0), "b": (10, 0), "c": (20, 0), "d": (5, 9)}
    >>> arrow_target(row, "a", "ArrowRight"), arrow_target(row, "a", "ArrowDown")
    ('b', 'd')
    >>> arrow_target(row, "a", "ArrowLeft") is None
    True
    """
    dx, dy = ARROWS[key]
    x0, y0 = centres[cell]
    found = []
    for other, (x, y) in centres.items():
        vx, vy = x - x0, y - y0
        d, along, turn = math.hypot(vx, vy), vx * dx + vy * dy, vx * dy - vy * dx
        if d == 0 or along < _CONE * d:
            continue
        found.append((d + _SIDEWAYS * abs(turn), turn, other))
    if not found:
        return None
    least = min(score for score, _, _ in found)
    best = None
    for score, turn, other in found:
        if score <= least * (1 + _TIE) and (best is None or turn > best[0]):
            best = (turn, other)
    return best[1]


@lru_cache(maxsize=1)
def _widget_class() -> Any:
    import anywidget  # the widget toolkit, loaded only when a board is shown
    import traitlets  # comes with the widget toolkit

    class ClickableBoard(anywidget.AnyWidget):
        """An SVG board (``value``) whose spaces can be clicked (``clicked`` is "q,r#n")."""

        _esm = _SCRIPT
        _css = _STYLE
        value = traitlets.Unicode("").tag(sync=True)
        clicked = traitlets.Unicode("").tag(sync=True)
        played = traitlets.Unicode("").tag(sync=True)    # Enter on a space: play it

        def on_space(self, callback: Callable[[tuple[int, ...]], None]) -> None:
            """Call ``callback(cell)`` with the clicked space's coordinates."""
            def forward(change: dict) -> None:
                text = change["new"].split("#")[0]
                try:
                    cell = tuple(int(x) for x in text.split(","))
                except ValueError:
                    return
                callback(cell)
            self.observe(forward, names="clicked")

        def on_play(self, callback: Callable[[tuple[int, ...]], None]) -> None:
            """Call ``callback(cell)`` when Enter is pressed on a space (keyboard)."""
            def forward(change: dict) -> None:
                text = change["new"].split("#")[0]
                try:
                    cell = tuple(int(x) for x in text.split(","))
                except ValueError:
                    return
                callback(cell)
            self.observe(forward, names="played")

    return ClickableBoard


def clickable_board() -> Any:
    """A :class:`ClickableBoard`, or a plain ``ipywidgets.HTML`` when anywidget is missing."""
    try:
        return _widget_class()()
    except ImportError:  # pragma: no cover - anywidget is a dependency of the project
        import ipywidgets  # a plain stand-in when the board widget is unavailable
        return ipywidgets.HTML()
