"""What a student reads on every page of the app, in Chromium: no Python (a repr, a name from
the code, a shell command, a progress bar's numbers) in any output the page shows, widgets
included, and no code in the Markdown it shows; cells tagged for teachers are not shown; a
double click on Apply plays one move.

The same check runs without a browser on every notebook cell nbval runs (``conftest.py``);
here it reads the text as drawn, after the widgets rendered (their text is not in the
notebooks' outputs)."""

from __future__ import annotations

import re

import pytest
from browser_support import (CLICK, NOTEBOOKS, PAGE_LOAD, STEP_THROUGH, _html, _settle,
                             assert_clean, open_in_voila, voila_page_with)

from pangaea_lab.core.page_text import is_teachers_page, raw_text_problems, rendered_code_problems

PAGES = sorted(str(p.relative_to(NOTEBOOKS)) for p in NOTEBOOKS.rglob("*.ipynb")
               if ".ipynb_checkpoints" not in p.parts and not is_teachers_page(p))

#: the text of each output the page shows (an output hidden by the page is left out)
_SHOWN_OUTPUTS_JS = """
() => [...document.querySelectorAll('.jp-OutputArea-output')]
  .filter(node => node.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}))
  .map(node => node.innerText.trim())
  .filter(text => text)
"""

#: the HTML of each Markdown cell the page shows (a cell's tags are on its rendered part)
_SHOWN_MARKDOWN_JS = """
() => [...document.querySelectorAll('.jp-MarkdownCell .jp-RenderedMarkdown')]
  .filter(node => node.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}))
  .map(node => node.innerHTML)
"""


def wait_for_every_cell(page) -> None:
    """Voilà shows the page's cells once the last one has run (until then they are hidden)."""
    page.wait_for_function(
        "() => { const cells = document.getElementById('rendered_cells');"
        " return !cells || cells.checkVisibility(); }", timeout=PAGE_LOAD)


def python_on_page(page) -> list[str]:
    """Each output of the page that shows Python, with what was found in it."""
    found = []
    for text in page.evaluate(_SHOWN_OUTPUTS_JS):
        found += raw_text_problems(text)
    for html in page.evaluate(_SHOWN_MARKDOWN_JS):
        found += rendered_code_problems(html)
    return found


def test_every_page_but_the_teachers_guide_is_scanned():
    assert "00_start_here.ipynb" in PAGES and "teachers.ipynb" not in PAGES
    assert set(STEP_THROUGH.values()) <= set(PAGES) and len(PAGES) >= 27


@pytest.mark.xdist_group("voila")
@pytest.mark.parametrize("notebook", PAGES)
def test_no_page_shows_a_student_python(voila, page, notebook):
    open_in_voila(page, voila, notebook)
    wait_for_every_cell(page.page)
    shown = page.page.evaluate(_SHOWN_OUTPUTS_JS)
    assert shown, f"{notebook}: the page shows no output at all"
    found = python_on_page(page.page)
    assert not found, f"{notebook} shows a student Python:\n" + "\n".join(found)
    assert_clean(page, f"Voilà, {notebook}")


@pytest.mark.xdist_group("voila")
def test_cells_for_teachers_are_hidden_in_the_app(voila, page):
    open_in_voila(page, voila, "00_start_here.ipynb")
    wait_for_every_cell(page.page)
    hidden = page.page.evaluate(
        "() => [...document.querySelectorAll('.celltag_teacher')]"
        ".map(node => node.checkVisibility())")
    assert hidden and not any(hidden), "a cell tagged 'teacher' is shown in the app"
    assert "For teachers and those who read code" not in page.page.inner_text("body")


@pytest.mark.xdist_group("voila")
def test_a_double_click_on_apply_plays_one_move(voila, page):
    """The same game from the same start: Apply clicked once, then Apply double-clicked,
    leave the same log (the computer seats' replies included)."""
    notebook = STEP_THROUGH["pangaea"]
    voila_page_with(page, voila, notebook, ".pl-step-through .pl-board svg", f"Voilà, {notebook}")
    root = ".pl-step-through"
    parts = (f"{root} .pl-board", f"{root} .pl-log")
    logs = []
    for double in (False, True):
        page.page.locator(f"{root} button.pl-new-game").first.click(timeout=CLICK)
        _settle(page.page, parts)
        apply_ = page.page.locator(f"{root} button.pl-apply").first
        if double:
            apply_.dblclick(timeout=CLICK)
        else:
            apply_.click(timeout=CLICK)
        _settle(page.page, parts, quiet=2.0)
        logs.append(_html(page.page, f"{root} .pl-log"))
    assert logs[0] == logs[1], "a double click on Apply played a different number of moves"
    # two clicks 0.3 s apart are two presses: two moves
    page.page.locator(f"{root} button.pl-new-game").first.click(timeout=CLICK)
    _settle(page.page, parts)
    apply_ = page.page.locator(f"{root} button.pl-apply").first
    apply_.click(timeout=CLICK)
    page.page.wait_for_timeout(300)
    apply_.click(timeout=CLICK)          # (waits until the button is enabled again)
    _settle(page.page, parts, quiet=2.0)
    assert moves(_html(page.page, f"{root} .pl-log")) > moves(logs[0]), \
        "two clicks on Apply 0.3 s apart did not play two moves"
    assert_clean(page, f"Voilà, {notebook}")


def moves(log_html: str) -> int:
    """The lines of a step-through log (each numbered)."""
    return len(re.findall(r"(?m)^\s*(?:<pre[^>]*>)?\d+\. ", log_html))


#: a click the browser numbers as the second of a double click, sent to a button alone
_SECOND_CLICK_JS = """
(button) => button.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true,
                                                          detail: 2}))
"""


@pytest.mark.xdist_group("voila")
def test_the_page_drops_the_second_click_of_a_double_click(voila, page):
    """The browser's side: the page itself stops a click numbered as the second of a double
    click on a widget button (the kernel never hears it, however long after the first), and
    lets a single click through."""
    notebook = STEP_THROUGH["pangaea"]
    voila_page_with(page, voila, notebook, ".pl-step-through .pl-board svg", f"Voilà, {notebook}")
    root = ".pl-step-through"
    parts = (f"{root} .pl-board", f"{root} .pl-log")
    assert page.page.evaluate("() => window.plDoubleClickGuard === true"), \
        "the widgets' script did not install the double-click guard"
    page.page.locator(f"{root} button.pl-new-game").first.click(timeout=CLICK)
    _settle(page.page, parts)
    fresh = _html(page.page, f"{root} .pl-log")
    apply_ = page.page.locator(f"{root} button.pl-apply").first
    apply_.evaluate(_SECOND_CLICK_JS)
    _settle(page.page, parts, quiet=2.0)
    assert _html(page.page, f"{root} .pl-log") == fresh, \
        "a click numbered as a double click's second reached the kernel and played a move"
    apply_.evaluate(_SECOND_CLICK_JS.replace("detail: 2", "detail: 1"))
    _settle(page.page, parts, quiet=2.0)
    assert moves(_html(page.page, f"{root} .pl-log")) > moves(fresh), \
        "a single click sent the same way did not play a move"
    assert_clean(page, f"Voilà, {notebook}")
