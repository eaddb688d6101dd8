"""Links that set the board, in a real browser: a Voilà page opened with ``?seed=12&players=3``
shows that board, the same board as JupyterLab shows for the same seed and players; the Copy
link button copies a link that opens the same board again; a hostile address is refused in
plain words on the page; the start page's picker starts the game a link names."""

from __future__ import annotations

import importlib
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_support import (CLICK, STEP_THROUGH, WIDGET, Watched, _settle, assert_clean,
                             open_in_lab, open_in_voila, screenshot)

PAGE = STEP_THROUGH["harmonies"]          # the notebook's own call: players=2, seed=7, side A
LINE = ".pl-step-through .pl-board-link"
BOARD = ".pl-step-through .pl-board svg"


#: the board's drawing without what the keyboard support adds in the browser (focus order,
#: roles and labels for screen readers): the drawing itself is what is compared
PLAIN = ("e => { const c = e.cloneNode(true); for (const n of [c, ...c.querySelectorAll('*')]) {"
         " for (const a of ['tabindex', 'role', 'aria-label', 'data-lm-suppress-shortcuts'])"
         " n.removeAttribute(a);"
         " if (n.classList) { n.classList.remove('pl-space', 'pl-clickable-board', 'pl-focus');"
         " if (!n.classList.length) n.removeAttribute('class'); } }"
         " return c.outerHTML; }")


def expected_svg(page: Any, **kwargs: Any) -> str:
    """The board the page should show, drawn in Python and read back by the browser (so both
    sides are written out the same way)."""
    widgets = importlib.import_module("pangaea_lab.harmonies.widgets")
    svg = widgets.play(link=False, side="A", spirits=True, **kwargs).model.svg()
    return page.evaluate("s => { const d = document.createElement('div'); d.innerHTML = s; "
                         "const svg = d.querySelector('svg'); return svg ? (" + PLAIN + ")(svg)"
                         " : ''; }", svg)


def shown_svg(page: Any) -> str:
    return page.locator(BOARD).first.evaluate(PLAIN, timeout=CLICK)


def line_text(page: Any) -> str:
    page.wait_for_selector(f"{LINE} .pl-board-text", timeout=WIDGET)
    return page.locator(f"{LINE} .pl-board-text").first.inner_text(timeout=CLICK)


def link_of(page: Any) -> str:
    return page.locator(f"{LINE} input.pl-board-url").first.input_value(timeout=CLICK)


def no_dialogs(watched: Watched) -> None:
    """A script smuggled into the address would show up as an alert: record and refuse it."""
    def refuse(dialog: Any) -> None:
        watched.errors.append(f"a dialog opened: {dialog.message}")
        dialog.dismiss()
    watched.page.on("dialog", refuse)


@pytest.mark.xdist_group("voila")
def test_a_link_sets_the_board_in_voila_and_copy_link_gives_it_back(voila, page, browser):
    where = f"Voilà, {PAGE}?seed=12&players=3"
    open_in_voila(page, voila, PAGE + "?seed=12&players=3")
    assert line_text(page.page) == ("This board: seed 12, 3 players (side A, Nature's "
                                    "Spirits)"), where
    assert shown_svg(page.page) == expected_svg(page.page, players=3, seed=12), (
        f"{where}: the board is not the one of seed 12 with 3 players")
    assert shown_svg(page.page) != expected_svg(page.page, players=2, seed=7)
    link = link_of(page.page)
    assert link == (f"{voila.url}/voila/render/{PAGE}?seed=12&players=3&side=A&spirits=yes"), \
        f"{where}: the link shown is {link!r}"

    browser.grant_permissions(["clipboard-read", "clipboard-write"], origin=voila.url)
    page.page.locator(f"{LINE} button.pl-copy-link").first.click(timeout=CLICK)
    page.page.wait_for_function(
        "() => document.querySelector('.pl-board-link .pl-copy-status').textContent"
        ".includes('copied')", timeout=CLICK)
    assert page.page.evaluate("() => navigator.clipboard.readText()") == link
    screenshot(page.page, "voila_board_link", focus=LINE)
    assert_clean(page, where)

    # the copied link, opened by a student, shows the same board
    second = Watched(browser.new_page())
    try:
        path = urlsplit(link)
        open_in_voila(second, voila, path.path.removeprefix("/voila/render/") + "?" + path.query)
        assert shown_svg(second.page) == shown_svg(page.page), "the copied link shows another board"
        assert_clean(second, "Voilà, the copied link")
    finally:
        second.page.close()


@pytest.mark.xdist_group("voila")
def test_a_hostile_link_is_refused_in_plain_words(voila, page):
    where = f"Voilà, {PAGE} with a hostile address"
    no_dialogs(page)
    query = ("seed=%3Cscript%3Ealert(1)%3C%2Fscript%3E&players=99"
             "&side=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(2)%3E&seed2=1")
    open_in_voila(page, voila, PAGE + "?" + query)
    assert line_text(page.page) == "This board: seed 7, 2 players (side A, Nature's Spirits)"
    shown = page.page.locator(f"{LINE} .pl-link-problems").first.inner_text(timeout=CLICK)
    from pangaea_lab.catalog import link_spec
    from pangaea_lab.core.links import read_board
    said = read_board(link_spec("harmonies"), query, 2, 7, {"side": "A", "spirits": True})
    assert len(said.problems) == 4
    for words in said.problems:
        assert words in shown, f"{where}: the page does not say {words!r}:\n{shown}"
    assert "is refused (a seed is a whole number" in shown
    assert page.page.locator(f"{LINE} img, {LINE} script").count() == 0
    assert shown_svg(page.page) == expected_svg(page.page, players=2, seed=7)
    screenshot(page.page, "voila_board_link_refused", focus=LINE)
    assert_clean(page, where)


@pytest.mark.xdist_group("voila")
def test_the_start_page_starts_the_game_a_link_names(voila, page):
    where = "Voilà, 00_start_here.ipynb?game=harmonies&seed=12&players=3"
    open_in_voila(page, voila, "00_start_here.ipynb?game=harmonies&seed=12&players=3&side=A")
    assert line_text(page.page) == ("This board: Harmonies, seed 12, 3 players (side A)"), where
    widgets = importlib.import_module("pangaea_lab.harmonies.widgets")
    svg = widgets.play(players=3, seed=12, side="A", link=False).model.svg()
    assert shown_svg(page.page) == page.page.evaluate(
        "s => { const d = document.createElement('div'); d.innerHTML = s; "
        "return (" + PLAIN + ")(d.querySelector('svg')); }", svg)
    assert link_of(page.page).endswith(
        "/voila/render/00_start_here.ipynb?game=harmonies&seed=12&players=3&side=A")
    assert_clean(page, where)


@pytest.mark.xdist_group("lab")
def test_the_same_seed_in_jupyterlab_gives_the_same_board_and_its_app_link(lab_page, lab,
                                                                         browser):
    where = f"JupyterLab, {PAGE}"
    open_in_lab(lab_page, PAGE)
    page = lab_page.page
    root = page.locator(".pl-step-through").first
    root.scroll_into_view_if_needed(timeout=CLICK)
    assert line_text(page) == "This board: seed 7, 2 players (side A, Nature's Spirits)"
    # the teacher's values typed in the widget: seed 12, three players, New game
    root.get_by_label("Seed").fill("12", timeout=CLICK)
    root.get_by_label("Seed").press("Enter")
    root.get_by_label("Players").select_option(label="3", timeout=CLICK)
    page.wait_for_timeout(500)
    root.locator("button.pl-new-game").click(timeout=CLICK)
    page.wait_for_function(
        "() => document.querySelector('.pl-board-link .pl-board-text').textContent"
        ".includes('seed 12, 3 players')", timeout=CLICK)
    _settle(page, (".pl-step-through .pl-board", ".pl-step-through .pl-log"))
    board = shown_svg(page)
    assert board == expected_svg(page, players=3, seed=12), (
        f"{where}: seed 12 with 3 players shows another board than in Python")
    # the Copy link of JupyterLab is the same server's app page for this notebook
    link = link_of(page)
    assert link == f"{lab.url}/voila/render/{PAGE}?seed=12&players=3&side=A&spirits=yes", link
    assert_clean(lab_page, where)

    app = Watched(browser.new_page())
    try:
        app.page.goto(link, wait_until="load", timeout=240_000)
        app.page.wait_for_selector(BOARD, timeout=WIDGET)
        assert shown_svg(app.page) == board, "the app link from JupyterLab shows another board"
        # Voilà served by the JupyterLab server (unlike the app of `make app`) asks a CDN for
        # MathJax, which the test browser refuses; that alone is not this test's business
        app.errors[:] = [e for e in app.errors if "mathjax" not in e.lower()]
        assert_clean(app, "the app link copied in JupyterLab")
    finally:
        app.page.close()
