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


# ----- text sizes and overlaps --------------------------------------------------------------

#: the least text height on screen (CSS pixels) by window width: the teachers' guide's promise
LEAST_TEXT = {1280: 11.0, 1024: 11.0, 768: 10.0}
#: the width a drawing gets in a page of the app, by window width (Voilà's margins measured)
OUTPUT_WIDTH = {1280: 1250, 1024: 994, 768: 738}

_MEASURE = """
() => {
  const found = [];
  const boxes = (svg) => [...svg.querySelectorAll("text")].map((t) => {
    const r = t.getBoundingClientRect(), m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
    return { t, r, px, text: t.textContent };
  }).filter((b) => b.r.width > 0);
  for (const holder of document.querySelectorAll("[data-drawing]")) {
    const name = holder.getAttribute("data-drawing");
    const svg = holder.querySelector("svg"), whole = svg.getBoundingClientRect();
    const rects = [...svg.querySelectorAll("rect")].map((r) => r.getBoundingClientRect());
    const texts = boxes(svg);
    for (const b of texts) {
      if (b.px < 0) continue;
      found.push({ name, kind: "size", px: b.px, text: b.text });
      const cx = b.r.x + b.r.width / 2, cy = b.r.y + b.r.height / 2;
      // the smallest box drawn under the text's middle: its card, label or the drawing
      let card = whole;
      for (const r of rects) {
        if (r.width < 4 || r.height < 4) continue;
        if (cx > r.left && cx < r.right && cy > r.top && cy < r.bottom
            && r.width * r.height < card.width * card.height) card = r;
      }
      const out = Math.max(card.left - b.r.left, b.r.right - card.right);
      if (out > 1.5) found.push({ name, kind: "overflow", px: out, text: b.text });
    }
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const a = texts[i].r, c = texts[j].r;
        const w = Math.min(a.right, c.right) - Math.max(a.left, c.left);
        const h = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
        // text boxes include the font's line gap: a sliver of overlap is no collision
        if (w > 2 && h > Math.min(a.height, c.height) * 0.3) {
          found.push({ name, kind: "overlap", px: h, text: texts[i].text + " / " + texts[j].text });
        }
      }
    }
  }
  return found;
}
"""


def readable_drawings() -> dict[str, str]:
    """Each game's drawings along a seeded game and every exercise's question and answer."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from test_drawings_readable import drawings

    from pangaea_lab.exercises import generate, registry
    out = dict(drawings())
    for kind in registry():
        level = kind.levels[-1]
        exercise = generate(kind.key, 1, level)
        out[f"{kind.key} question"] = exercise.svg()
        out[f"{kind.key} answer"] = exercise.answer_svg()
    return {name: svg for name, svg in out.items() if svg}


def measured(tab, width: int) -> list[dict]:
    from html import escape
    tab.set_viewport_size({"width": width, "height": 900})
    body = "".join(f'<div data-drawing="{escape(name)}" style="width: {OUTPUT_WIDTH[width]}px">'
                   f'{svg}</div>' for name, svg in readable_drawings().items())
    tab.set_content('<!doctype html><html><head><meta charset="utf-8"><style>'
                    'body { margin: 0 15px; } svg { max-width: 100%; height: auto; }'
                    f'</style></head><body>{body}</body></html>')
    return tab.evaluate(_MEASURE)


@pytest.mark.parametrize("width", sorted(LEAST_TEXT, reverse=True))
def test_drawings_text_is_readable_and_never_collides(page, width):
    """At 1280, 1024 and 768 pixels wide, every text of every drawing is at least 11 px
    (10 px at 768) high as drawn, no text runs out of the card or label drawn under it, and
    no two texts overlap."""
    found = measured(page.page, width)
    sizes = [f for f in found if f["kind"] == "size"]
    assert len(sizes) > 1000, "too few texts measured"
    small = sorted({f"{f['name']}: {f['text']!r} at {f['px']:.1f} px" for f in sizes
                    if f["px"] < LEAST_TEXT[width] - 0.05})
    clash = sorted({f"{f['name']}: {f['kind']} {f['text']!r} ({f['px']:.1f} px)"
                    for f in found if f["kind"] != "size"})
    assert not small, f"at {width} px, text too small ({len(small)}):\n" + "\n".join(small[:25])
    assert not clash, f"at {width} px, texts collide ({len(clash)}):\n" + "\n".join(clash[:25])


# ----- the same, on the app's pages ---------------------------------------------------------

_PAGE_DRAWINGS = """
() => {
  // every drawing of the page, named by its place, for _MEASURE
  let k = 0;
  for (const svg of document.querySelectorAll(".jp-OutputArea-output svg")) {
    if (svg.closest("[data-drawing]") || !svg.querySelector("text")) continue;
    const holder = svg.parentElement;
    holder.setAttribute("data-drawing", "drawing " + (++k));
  }
  return k;
}
"""


@pytest.mark.xdist_group("voila")
@pytest.mark.parametrize("game", ["pangaea", "harmonies", "forest_shuffle", "inori"])
def test_app_page_drawings_are_readable_at_each_width(voila, page, game):
    """Each game's step-through page in the Voilà app, drawn at 1280, 1024 and 768 pixels
    wide: every text of its drawings at least 11 px (10 px at 768), none running off its card,
    none overlapping another."""
    from browser_support import STEP_THROUGH, voila_page_with
    where = f"Voilà, {STEP_THROUGH[game]}"
    voila_page_with(page, voila, STEP_THROUGH[game], ".pl-step-through .pl-board svg", where)
    tab = page.page
    assert tab.evaluate(_PAGE_DRAWINGS) >= 1, f"{where}: no drawing with text"
    for width in sorted(LEAST_TEXT, reverse=True):
        tab.set_viewport_size({"width": width, "height": 900})
        tab.wait_for_timeout(500)
        found = tab.evaluate(_MEASURE)
        small = sorted({f"{f['text']!r} at {f['px']:.1f} px" for f in found
                        if f["kind"] == "size" and f["px"] < LEAST_TEXT[width] - 0.05})
        clash = sorted({f"{f['kind']} {f['text']!r}" for f in found if f["kind"] != "size"})
        assert not small, f"{where} at {width} px: text too small:\n" + "\n".join(small[:20])
        assert not clash, f"{where} at {width} px: texts collide:\n" + "\n".join(clash[:20])
