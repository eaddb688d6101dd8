"""A board picture that reports which space was clicked.

Board drawings mark each space with a ``data-cell="q,r"`` attribute.  :class:`ClickableBoard`
shows such an SVG in the notebook and, when the learner clicks a space (or a piece standing on
it), sets its ``clicked`` trait to ``"q,r"``; the step-through widget listens and selects an
action on that space.  It needs the small ``anywidget`` package; :func:`clickable_board`
falls back to a plain HTML widget (no clicks) without it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

_SCRIPT = """
function spaceAt(root, event) {
  // the space under the pointer, even when a piece is drawn on top of it
  for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
    if (!root.contains(node)) continue;
    const marked = node.closest ? node.closest("[data-cell]") : null;
    if (marked && root.contains(marked)) return marked.getAttribute("data-cell");
  }
  return null;
}

function render({ model, el }) {
  el.classList.add("pl-clickable-board");
  const draw = () => { el.innerHTML = model.get("value"); };
  draw();
  model.on("change:value", draw);
  let clicks = 0;
  el.addEventListener("click", (event) => {
    const cell = spaceAt(el, event);
    if (cell === null) return;
    clicks += 1;
    // the counter makes a second click on the same space a change too
    model.set("clicked", cell + "#" + clicks);
    model.save_changes();
  });
}

export default { render };
"""

_STYLE = """
.pl-clickable-board [data-cell] { cursor: pointer; }
.pl-clickable-board [data-cell]:hover { filter: brightness(1.12); }
"""


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

    return ClickableBoard


def clickable_board() -> Any:
    """A :class:`ClickableBoard`, or a plain ``ipywidgets.HTML`` when anywidget is missing."""
    try:
        return _widget_class()()
    except ImportError:  # pragma: no cover - anywidget is a dependency of the project
        import ipywidgets  # a plain stand-in when the board widget is unavailable
        return ipywidgets.HTML()
