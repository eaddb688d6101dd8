"""The static site (build/site) in a real browser, served by a plain static file server under
a path (http://127.0.0.1:PORT/class/site/), with every request outside 127.0.0.1 refused: its
pages run Python in the browser (Pyodide) and behave like the app.  The start page and one
rule page per game open with their widgets; on each rule page a move is played and undone (and
a click on The Dawn of Pangaea's board picks the action on that space); an exercise is answered
wrong, then right, by clicking; a link with ?seed=&players= sets the board; every link on the
start page and on the teachers' guide opens a page of the site (links to the pages left out are
words); the start page works at the host's root too; and no page sent a request outside the
site.  Run by ``make test-site`` (after ``make site``)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_support import (CLICK, NOTEBOOKS, STEP_THROUGH, Watched, check_board_click,
                             check_step_through, wait_for_widgets)
from exercise_pages import OnPage, kept_in_browser, wait_until, wrong_answer

from pangaea_lab import exercises

#: a first page downloads Pyodide and the packages, on a loaded 2-core machine: generous
FIRST_WIDGET = 180_000

#: the one request known to fail, inside the site: the Pyodide kernel asks for the sqlite3
#: module, which neither PyPI nor npm has for Pyodide (nothing on the pages needs it)
KNOWN_MISSING = "sqlite3"

_spec = importlib.util.spec_from_file_location(
    "site_build", Path(__file__).resolve().parents[2] / "app" / "site" / "build.py")
site_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_build)

PRACTICE = re.compile(r"""practice\(\s*["']([\w.]+)["']\s*(?:,\s*(?:seed\s*=\s*)?(\d+))?"""
                      r"""(?:\s*,\s*(?:level\s*=\s*)?(\d+))?""")


def page_url(site: str, notebook: str) -> str:
    return f"{site}/voici/render/{notebook.replace('.ipynb', '.html')}"


def open_page(watched: Watched, site: str, notebook: str, selector: str) -> None:
    """Open a page of the site and wait until ``selector`` shows (its cells have run in the
    browser) and every widget on it has rendered."""
    watched.page.goto(page_url(site, notebook), wait_until="load", timeout=60_000)
    watched.page.wait_for_selector(selector, state="visible", timeout=FIRST_WIDGET)
    wait_for_widgets(watched.page)


def unexpected_errors(watched: Watched) -> list[str]:
    """Console errors and failed requests, but the known missing sqlite3 (and the generic
    "Failed to fetch" it logs)."""
    known = any(KNOWN_MISSING in e for e in watched.errors)
    return [e for e in watched.errors if KNOWN_MISSING not in e
            and not (known and e.startswith("console: Failed to fetch"))]


def assert_clean(watched: Watched, where: str, outside: Any) -> None:
    """No error on the page or in the console, and no request sent outside the site."""
    assert outside.urls == [], f"{where}: requests outside the site: {outside.urls}"
    text = watched.page.evaluate("() => document.body.innerText")
    for phrase in ("Traceback (most recent call last)", "Error displaying widget",
                   "ModuleNotFoundError"):
        assert phrase not in text, f"{where}: the page shows {phrase!r}"
    errors = unexpected_errors(watched)
    assert not errors, f"{where}: browser errors:\n" + "\n".join(errors)


def check_links(watched: Watched, site: str, where: str) -> int:
    """Every link on the page opens a page or file of the site (asked of the same server, as a
    click would): none leads outside the site, to a page the site lacks, or to a notebook's
    raw file.  Returns the number of links to other pages."""
    here = watched.page.url.split("#")[0]
    links = watched.page.evaluate(
        "() => Array.from(document.querySelectorAll('a[href]'), a => a.href)")
    problems, pages = [], set()
    for link in links:
        address = link.split("#")[0]
        if address == here:
            continue                                   # a part of this page
        if not address.startswith(site + "/"):
            problems.append(f"{link}: outside the site")
            continue
        if urlsplit(address).path.endswith(".ipynb"):
            problems.append(f"{link}: a notebook's file, not a page")
            continue
        if address not in pages:
            pages.add(address)
            status = watched.page.request.get(address).status
            if status != 200:
                problems.append(f"{link}: the server answers {status}")
    assert not problems, f"{where}: links that lead nowhere:\n" + "\n".join(problems)
    return len(pages)


def check_left_out_words(watched: Watched, where: str) -> None:
    """The pages left out of the site are named in plain words where the app links them."""
    text = watched.page.evaluate("() => document.body.innerText")
    assert f"({site_build.LEFT_OUT_WORDS})" in text, (
        f"{where}: no page left out of the site is named as such")


def test_start_page(site: str, page: Watched, outside: Any) -> None:
    open_page(page, site, "00_start_here.ipynb", ".jupyter-widgets")
    assert "pangaea" in page.page.evaluate("() => document.body.innerText").lower()
    # the list of the pages with exercises, written by the page's cell in the browser
    page.page.wait_for_selector(".pl-exercise-pages a", timeout=FIRST_WIDGET)
    assert check_links(page, site, "the start page") >= 20
    check_left_out_words(page, "the start page")
    assert_clean(page, "the start page", outside)


def test_teachers_guide_links(site: str, page: Watched, outside: Any) -> None:
    """The guide's lesson plans (its text) and its exercise list (written by its cell in the
    browser) link only pages the site has."""
    open_page(page, site, "teachers.ipynb", ".jp-OutputArea-output table a")
    assert check_links(page, site, "the teachers' guide") >= 20
    check_left_out_words(page, "the teachers' guide")
    assert_clean(page, "the teachers' guide", outside)


def test_start_page_at_the_hosts_root(site_at_root: str, page: Watched, outside: Any) -> None:
    """The same folder served at the root of a host works too."""
    open_page(page, site_at_root, "00_start_here.ipynb", ".jupyter-widgets")
    page.page.wait_for_selector(".pl-exercise-pages a", timeout=FIRST_WIDGET)
    assert check_links(page, site_at_root, "the start page at the host's root") >= 20
    assert_clean(page, "the start page at the host's root", outside)


@pytest.mark.parametrize("game", sorted(STEP_THROUGH))
def test_rule_page_plays_a_move_and_undoes_it(site: str, page: Watched, outside: Any,
                                              game: str) -> None:
    notebook = STEP_THROUGH[game]
    open_page(page, site, notebook, ".pl-step-through .pl-board svg")
    check_step_through(page.page, f"site, {notebook}", steps=0, patience=60_000)
    if game == "pangaea":       # a click on the board picks the action on that space
        check_board_click(page.page, f"site, {notebook}", patience=60_000)
    assert_clean(page, f"site, {notebook}", outside)


def first_practice(game: str) -> tuple[str, str, int, int]:
    """(notebook, kind, seed, level) of the first exercise a game's rule pages show."""
    for path in sorted((NOTEBOOKS / game).glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            found = PRACTICE.search("".join(cell["source"])) if cell["cell_type"] == "code" \
                else None
            if found:
                return (path.relative_to(NOTEBOOKS).as_posix(), found.group(1),
                        int(found.group(2) or 0), int(found.group(3) or 1))
    raise AssertionError(f"no exercise on {game}'s pages")


def test_exercise_answered_wrong_then_right(site: str, page: Watched, outside: Any) -> None:
    notebook, key, seed, level = first_practice("harmonies")
    open_page(page, site, notebook, ".pl-exercise .pl-exercise-seed [data-kind]")
    ex = exercises.generate(key, seed, level)       # the engine is the answer key
    on = OnPage(page.page, key, seed, f"site, {notebook}", level=level)
    on.give(wrong_answer(ex))
    on.check(right=False)
    assert ex.answer_text() not in on.text("feedback"), "a wrong try must not tell the answer"
    on.clear()
    on.give(ex.answer)
    on.check(right=True)
    # the practice record is kept in the browser, as in the app
    wait_until(page.page, "the browser keeps no record of the two answers",
               lambda: kept_in_browser(page.page) >= 2)
    assert_clean(page, f"site, {notebook}", outside)


def test_a_link_sets_the_board(site: str, page: Watched, outside: Any) -> None:
    notebook = STEP_THROUGH["harmonies"]             # the page's own call: seed 7, 2 players
    page.page.goto(page_url(site, notebook) + "?seed=12&players=3", wait_until="load",
                   timeout=60_000)
    line = ".pl-step-through .pl-board-link .pl-board-text"
    page.page.wait_for_selector(line, timeout=FIRST_WIDGET)
    text = page.page.locator(line).first.inner_text(timeout=CLICK)
    assert text == "This board: seed 12, 3 players (side A, Nature's Spirits)", text
    assert_clean(page, f"site, {notebook}?seed=12&players=3", outside)


def test_notebook_with_its_code_runs_in_jupyterlite(site: str, page: Watched,
                                                    outside: Any) -> None:
    """The same page with its code, in JupyterLite's notebook app: Run All Cells shows the
    step-through widget, drawn by the kernel in the browser."""
    notebook = STEP_THROUGH["harmonies"]
    page.page.goto(f"{site}/notebooks/index.html?path={notebook}", wait_until="load",
                   timeout=60_000)
    page.page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=FIRST_WIDGET)
    page.page.get_by_text("Python (Pyodide)").first.wait_for(timeout=FIRST_WIDGET)
    page.page.get_by_role("menuitem", name="Run").first.click(timeout=CLICK)
    page.page.get_by_text("Run All Cells").first.click(timeout=CLICK)
    page.page.wait_for_selector(".pl-step-through .pl-board svg", state="visible",
                                timeout=FIRST_WIDGET)
    check_step_through(page.page, f"JupyterLite, {notebook}", steps=0, patience=60_000)
    assert outside.urls == [], f"requests outside the site: {outside.urls}"
    errors = unexpected_errors(page)
    assert not errors, "browser errors:\n" + "\n".join(errors)


def test_no_request_left_the_site(outside: Any) -> None:
    """Run last: every page above was opened with outside requests refused and recorded."""
    assert outside.urls == [], "requests outside the site:\n" + "\n".join(outside.urls)
