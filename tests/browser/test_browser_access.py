"""Pages everyone can use (issue: readable by everyone), in the Voilà app: the board played
from the keyboard alone, no request leaving the server, and nothing scrolling sideways in a
768-pixel-wide window; the keyboard in JupyterLab too."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from browser_support import (CLICK, STEP_THROUGH, WIDGET, _html, _settle, _wait_until,
                             assert_clean, open_in_lab, screenshot, voila_page_with)

NARROW = {"width": 768, "height": 900}

_OVERFLOW_JS = """
() => {
  const width = document.scrollingElement.clientWidth;
  const found = [];
  const page = document.scrollingElement;
  if (page.scrollWidth > page.clientWidth)
    found.push(`the page is ${page.scrollWidth} px wide in a ${page.clientWidth} px window`);
  // a part that sticks out of the window, or scrolls sideways inside it
  for (const node of document.querySelectorAll(
      '.jp-OutputArea-output, .jupyter-widgets, svg, img, table')) {
    const box = node.getBoundingClientRect();
    if (box.width === 0 || node.closest('.jp-mod-hidden, [hidden]')) continue;
    const classes = node.className && node.className.baseVal === undefined
        ? String(node.className).trim().split(/\\s+/) : [];
    const own = classes.filter(c => c.startsWith('pl-') || c.startsWith('widget-'));
    const name = node.tagName.toLowerCase() + '.' + (own.length ? own : classes.slice(0, 2))
        .join('.') + (node.closest('[class*="pl-"]') ? ' in .' + [...node.closest(
        '[class*="pl-"]').classList].filter(c => c.startsWith('pl-')).join('.') : '');
    if (box.right > width + 1)
      found.push(`${name} reaches ${Math.round(box.right)} px`);
    const style = getComputedStyle(node);
    if (['auto', 'scroll'].includes(style.overflowX) && node.scrollWidth > node.clientWidth + 1)
      found.push(`${name} scrolls sideways (${node.scrollWidth} px in ${node.clientWidth} px)`);
  }
  return [...new Set(found)].slice(0, 12);
}
"""


@pytest.mark.xdist_group("voila")
@pytest.mark.parametrize("game", list(STEP_THROUGH))
def test_narrow_window_and_no_outside_request_in_voila(voila, page, game):
    """At 768 pixels wide nothing scrolls sideways, and every request the page makes goes to
    the app's own server (fonts included)."""
    where = f"Voilà at 768 px, {STEP_THROUGH[game]}"
    hosts: list[str] = []
    fonts: list[tuple[str, int]] = []
    page.page.on("request", lambda request: hosts.append(urlsplit(request.url).netloc))
    page.page.on("response", lambda answer: fonts.append((answer.url, answer.status))
                 if answer.url.endswith(".woff") else None)
    page.page.set_viewport_size(NARROW)
    voila_page_with(page, voila, STEP_THROUGH[game], ".pl-step-through .pl-board svg", where)
    screenshot(page.page, f"voila_768_{game}")
    server = urlsplit(voila.url).netloc
    outside = sorted({h for h in hosts if h and h != server})
    assert hosts and not outside, f"{where}: the page asked other servers: {outside}"
    # the drawings' font comes from the app itself
    assert any("DejaVuSans" in url and status == 200 for url, status in fonts), \
        f"{where}: the package's font was not served by the app ({fonts})"
    problems = page.page.evaluate(_OVERFLOW_JS)
    assert not problems, f"{where}: too wide for the window:\n" + "\n".join(problems)
    assert_clean(page, where)


def _focused(page) -> dict:
    return page.evaluate("""() => {
      const node = document.activeElement;
      const space = node && node.closest ? node.closest('.pl-step-through .pl-board [data-cell]')
                                         : null;
      if (!space) return {};
      const title = space.querySelector('title');
      const style = getComputedStyle(space);
      return {cell: space.getAttribute('data-cell'), title: title ? title.textContent : '',
              stroke: style.strokeWidth};
    }""")


def check_keyboard_play(tab, where: str) -> None:
    """From the New game button, Tab reaches a space of the board (outlined), the arrow keys
    move to an empty Land Space, and Enter plays the action on it (the log shows it)."""
    root = ".pl-step-through"
    board, log, actions = f"{root} .pl-board", f"{root} .pl-log", f"{root} .pl-actions select"
    tab.wait_for_selector(root, state="visible", timeout=WIDGET)
    new_game = tab.locator(f"{root} button.pl-new-game").first
    new_game.click(timeout=CLICK)
    _settle(tab, (board, log, actions))
    # from the New game button, Tab alone must reach a space of the board
    new_game.focus()
    for _ in range(80):
        tab.keyboard.press("Tab")
        if _focused(tab):
            break
    here = _focused(tab)
    assert here, f"{where}: pressing Tab never reached a space of the board"
    assert float(here["stroke"].rstrip("px") or 0) >= 4, \
        f"{where}: the space in focus is not outlined (stroke {here['stroke']})"
    # the arrow keys walk the board; find an empty Land Space (a Flying Seed can go there)
    seen = {here["cell"]}
    for key in ["ArrowRight"] * 6 + ["ArrowDown"] * 6 + ["ArrowLeft"] * 6 + ["ArrowUp"] * 3:
        if "land" in here["title"] and "Tree" not in here["title"]:
            break
        tab.keyboard.press(key)
        here = _focused(tab)
        assert here, f"{where}: {key} moved the focus off the board"
        seen.add(here["cell"])
    assert len(seen) > 3, f"{where}: the arrow keys did not move between spaces ({seen})"
    assert "land" in here["title"], f"{where}: the arrow keys found no Land Space"
    q, r = here["cell"].split(",")
    before_board, before_log = _html(tab, board), _html(tab, log)
    tab.keyboard.press("Enter")
    _wait_until(tab, f"{where}: Enter on ({q}, {r}) did not play a move",
                lambda: _html(tab, log) != before_log and _html(tab, board) != before_board)
    _settle(tab, (board, log))
    text = tab.locator(log).first.inner_text().replace("\xa0", " ")
    assert re.search(rf"\({q}, {r}\)", text), \
        f"{where}: the log does not show a move on ({q}, {r}): {text[-300:]}"
    # after the redraw the keyboard focus is still on the board
    assert _focused(tab), f"{where}: the focus left the board after the move"


@pytest.mark.xdist_group("voila")
def test_tab_reaches_a_space_and_enter_plays_it_in_voila(voila, page):
    where = f"Voilà, keyboard only, {STEP_THROUGH['pangaea']}"
    voila_page_with(page, voila, STEP_THROUGH["pangaea"], ".pl-step-through .pl-board svg", where)
    check_keyboard_play(page.page, where)
    screenshot(page.page, "voila_keyboard_play", focus=".pl-step-through")
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
def test_tab_reaches_a_space_and_enter_plays_it_in_lab(lab_page):
    """In JupyterLab the keys go to the board, not to the notebook's shortcuts."""
    where = f"JupyterLab, keyboard only, {STEP_THROUGH['pangaea']}"
    open_in_lab(lab_page, STEP_THROUGH["pangaea"])
    check_keyboard_play(lab_page.page, where)
    assert_clean(lab_page, where)


_SIZE_JS = """
() => {
  const board = document.querySelector('.pl-step-through .pl-clickable-board');
  const svg = board.querySelector('.pl-board-frame svg');
  const bar = board.querySelector('.pl-board-size');
  const button = bar.querySelector('button.pl-size-toggle');
  const frame = board.querySelector('.pl-board-frame');
  const shown = svg.getBoundingClientRect().width;
  const scale = shown / svg.viewBox.baseVal.width;
  let smallest = Infinity;
  for (const text of svg.querySelectorAll('text'))
    smallest = Math.min(smallest, parseFloat(text.getAttribute('font-size')) * scale);
  return {offered: !bar.hidden && bar.getBoundingClientRect().height > 0,
          pressed: button.getAttribute('aria-pressed'), label: button.textContent,
          smallest: smallest, shown: shown, natural: parseFloat(svg.getAttribute('width')),
          scrolls: frame.scrollWidth > frame.clientWidth + 1};
}
"""


@pytest.mark.xdist_group("voila")
def test_a_shrunk_drawing_offers_its_full_size_in_voila(voila, page):
    """In a window narrower than the drawings are made for (600 px: they fit 768 px) Inori's
    board shrinks, and its text with it; the button above it shows the drawing at full size
    (text at least 11 px, scrolling sideways inside its frame) and, pressed again, fits it to
    the window again.  In a wide window where the board fits, no button is offered."""
    where = f"Voilà at 600 px, {STEP_THROUGH['inori']}"
    page.page.set_viewport_size({"width": 600, "height": 900})
    voila_page_with(page, voila, STEP_THROUGH["inori"], ".pl-step-through .pl-board svg", where)
    tab = page.page
    fitted = tab.evaluate(_SIZE_JS)
    assert fitted["shown"] < fitted["natural"] - 1, f"{where}: the board is not shrunk: {fitted}"
    assert fitted["offered"] and fitted["pressed"] == "false", \
        f"{where}: a shrunk board offers no full size: {fitted}"
    assert fitted["smallest"] < 11, f"{where}: {fitted}"
    tab.locator(".pl-step-through button.pl-size-toggle").first.click(timeout=CLICK)
    _wait_until(tab, f"{where}: the full-size button did nothing",
                lambda: tab.evaluate(_SIZE_JS)["pressed"] == "true")
    full = tab.evaluate(_SIZE_JS)
    assert abs(full["shown"] - full["natural"]) <= 1, f"{where}: not at full size: {full}"
    assert full["smallest"] >= 10.9, f"{where}: text still small at full size: {full}"
    assert full["scrolls"] and full["offered"], f"{where}: {full}"
    assert "Fit" in full["label"], f"{where}: the button does not say how to go back: {full}"
    screenshot(tab, "voila_600_inori_full_size")
    tab.locator(".pl-step-through button.pl-size-toggle").first.click(timeout=CLICK)
    _wait_until(tab, f"{where}: the board was not fitted to the window again",
                lambda: tab.evaluate(_SIZE_JS)["pressed"] == "false")
    again = tab.evaluate(_SIZE_JS)
    assert not again["scrolls"] and again["shown"] < again["natural"] - 1, f"{where}: {again}"
    problems = tab.evaluate(_OVERFLOW_JS)
    assert not problems, f"{where}: too wide for the window:\n" + "\n".join(problems)
    # a wide window: the board fits, nothing offered
    tab.set_viewport_size({"width": 1900, "height": 1000})
    _wait_until(tab, f"{where}: at 1900 px the full-size button is still offered",
                lambda: not tab.evaluate(_SIZE_JS)["offered"])
    assert_clean(page, where)
