"""Drawings as Chromium draws them (issue: the app in a real lesson): the arrow keys on a
board move as the rule checked over every board in tests/core/test_board_arrows.py says.

The boards are drawn in a plain page with the board widget's own script and style (no
Jupyter server needed)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from board_spaces import boards, space_centres  # noqa: E402  (the unit tests' helper)

from pangaea_lab.core.board_widget import _SCRIPT, _STYLE, ARROWS, arrow_target  # noqa: E402

_PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>{style}
body {{ margin: 8px; font-family: sans-serif; }}</style></head>
<body><div id="frame" style="width: {width}px"></div></body></html>"""

_MOUNT = """
([svg]) => {
  const el = document.createElement("div");
  document.getElementById("frame").appendChild(el);
  window.sent = [];
  const model = { get: (name) => (name === "value" ? svg : ""), on() {}, save_changes() {},
                  set: (name, value) => window.sent.push([name, value]) };
  window.plBoard.render({ model, el });
}
"""


def draw_board(tab, svg: str, width: int = 1000) -> None:
    """A page holding one board widget, drawn by the widget's own script."""
    tab.set_content(_PAGE.format(style=_STYLE, width=width))
    tab.add_script_tag(content=_SCRIPT.replace("export default { render };",
                                               "window.plBoard = { render };"), type="module")
    tab.wait_for_function("() => window.plBoard !== undefined")
    tab.evaluate(_MOUNT, [svg])


def tab_to_board(tab) -> str | None:
    """Tab until a space has the focus (past the button offering the full size)."""
    for _ in range(3):
        tab.keyboard.press("Tab")
        if focused(tab) is not None:
            break
    return focused(tab)


def focused(tab) -> str | None:
    return tab.evaluate("() => document.activeElement && "
                        "document.activeElement.getAttribute('data-cell')")


BOARDS = ["pangaea, 2 players", "harmonies, 4 players", "inori, 3 players",
          "exercise forest_shuffle.where_to_place level 1"]


@pytest.mark.parametrize("name", BOARDS)
def test_arrow_keys_on_a_drawn_board(page, name):
    """From every space, each arrow key moves the focus where arrow_target says; Tab
    reaches the board and Space chooses the space in focus."""
    tab = page.page
    svg = boards()[name]
    centres = space_centres(svg)
    draw_board(tab, svg)
    start = tab_to_board(tab)
    assert start in centres, f"{name}: Tab does not reach a space ({start})"
    wrong = []
    for cell in centres:
        for key in ARROWS:
            tab.evaluate("(cell) => document.querySelector("
                         "`.pl-space[data-cell='${cell}']`).focus()", cell)
            tab.keyboard.press(key)
            expected = arrow_target(centres, cell, key) or cell
            if focused(tab) != expected:
                wrong.append(f"{key} from {cell}: {focused(tab)}, not {expected}")
    assert not wrong, f"{name}:\n" + "\n".join(wrong[:10])
    tab.keyboard.press(" ")
    assert tab.evaluate("() => window.sent.at(-1)")[0] == "clicked"
    assert not page.errors, page.errors


def test_arrows_walk_to_every_space_of_a_drawn_board(page):
    """Pressing only arrows from the first space visits every space of the Pangaea board,
    and ArrowDown from (1,1) goes to the space just below it."""
    tab = page.page
    svg = boards()["pangaea, 2 players"]
    centres = space_centres(svg)
    draw_board(tab, svg, width=700)          # shrunk to fit: the moves stay the same
    seen, todo = {tab_to_board(tab)}, [focused(tab)]
    while todo:
        cell = todo.pop()
        for key in ARROWS:
            tab.evaluate("(cell) => document.querySelector("
                         "`.pl-space[data-cell='${cell}']`).focus()", cell)
            tab.keyboard.press(key)
            if focused(tab) not in seen:
                seen.add(focused(tab))
                todo.append(focused(tab))
    assert seen == set(centres), f"never reached: {sorted(set(centres) - seen)}"
    tab.evaluate("() => document.querySelector(`.pl-space[data-cell='1,1']`).focus()")
    tab.keyboard.press("ArrowDown")
    assert focused(tab) in {"1,2", "0,2"}
