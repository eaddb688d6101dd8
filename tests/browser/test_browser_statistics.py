"""A statistics notebook in the Voilà app, as a student uses it: choose the computer player and
the number of games, press Run, see the progress bar finish and a new chart appear."""

from __future__ import annotations

import time

import pytest
from browser_support import CLICK, WIDGET, assert_clean, open_in_voila, screenshot

NOTEBOOK = "inori/05_statistics.ipynb"
GAMES = 12


def words(text: str) -> str:
    """A widget's text with the progress bar's fixed-width spaces read as spaces."""
    return text.replace("\u2007", " ")


def _chart_source(box) -> str:
    return box.locator("img").first.get_attribute("src", timeout=CLICK) or ""


@pytest.mark.xdist_group("voila")
def test_run_a_statistics_question_in_voila(voila, page):
    where = f"Voilà, {NOTEBOOK}"
    open_in_voila(page, voila, NOTEBOOK)
    tab = page.page
    tab.wait_for_selector(".pangaea-question", state="visible", timeout=WIDGET)
    box = tab.locator(".pangaea-question").first
    box.scroll_into_view_if_needed(timeout=CLICK)
    assert box.locator("img").count() == 1, f"{where}: the question shows no chart"
    before = _chart_source(box)
    numbers_before = box.locator(".pl-question-numbers").first.inner_text(timeout=CLICK)
    assert before, f"{where}: the chart of the first run is empty"
    assert "interval" in box.inner_text(), \
        f"{where}: no sentence with an interval under the chart"

    box.locator("select").first.select_option("greedy", timeout=CLICK)
    games = box.locator(".widget-inline-hbox:has-text('Games') input").first
    games.fill(str(GAMES), timeout=CLICK)
    games.press("Tab")
    tab.wait_for_timeout(500)   # the new value reaches the kernel
    box.locator("button:has-text('Run')").first.click(timeout=CLICK)

    bar = box.locator(".widget-hprogress")
    bar.first.wait_for(state="attached", timeout=CLICK)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = f"{GAMES} of {GAMES} games" in words(box.inner_text())
        if done and _chart_source(box) != before:
            break
        tab.wait_for_timeout(300)
    text = words(box.inner_text())
    assert f"{GAMES} of {GAMES} games" in text, \
        f"{where}: the progress did not reach {GAMES} games"
    assert "game/s" not in text and "<00:" not in text, f"{where}: progress in tqdm's numbers"
    assert box.locator(".pl-question-numbers").first.inner_text() != numbers_before, \
        f"{where}: pressing Run did not redraw the table of numbers"
    assert _chart_source(box) != before, f"{where}: pressing Run did not draw a new chart"
    width = box.locator("img").first.evaluate("img => img.naturalWidth")
    assert width > 100, f"{where}: the new chart is not a picture"
    assert "greedy" in text or "interval" in text
    screenshot(tab, "voila_statistics", focus=".pangaea-question")
    assert_clean(page, where)
