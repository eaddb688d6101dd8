"""The classroom app closes a page left idle, and the page then says so in plain words.

A Voilà server with the app's settings (app/voila.py) but a short idle time: a page is opened,
left alone until the server shuts its kernel down, then "the student comes back" and clicks;
the page must say that it was idle and was closed and offer to reload, and reloading must give
a working page again."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from typing import Any, Iterator

import pytest
from browser_support import (CLICK, STEP_THROUGH, WIDGET, Watched, assert_clean, kernel_of,
                             open_in_voila, running_voila, screenshot)

IDLE_SECONDS = 6          # the app's idle time for this server (the classroom default is 900)
PAGE = STEP_THROUGH["harmonies"]


@pytest.fixture(scope="module")
def quick_cull(served, workdir, logs) -> Iterator[Any]:
    """The app with a short idle time and no pre-heated kernels (every page its own)."""
    yield from running_voila(served, workdir / "voila-idle-home", logs / "voila-idle.log",
                             {"PANGAEA_APP_IDLE": str(IDLE_SECONDS), "PANGAEA_APP_POOL": "0"})


def kernel_exists(server: Any, kernel_id: str) -> bool:
    try:
        with urllib.request.urlopen(f"{server.url}/api/kernels/{kernel_id}", timeout=10):
            return True
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return False
        raise


def wait_until_gone(server: Any, kernel_id: str, limit: float = 120.0) -> float:
    """Seconds until the server has shut the kernel down."""
    started = time.monotonic()
    while kernel_exists(server, kernel_id):
        if time.monotonic() - started > limit:
            raise AssertionError(f"the kernel {kernel_id} of a page left alone was still "
                                 f"running after {limit:.0f} s (idle time {IDLE_SECONDS} s)")
        time.sleep(1.0)
    return time.monotonic() - started


@pytest.mark.xdist_group("voila-idle")
def test_an_idle_page_is_closed_and_says_so(quick_cull, page: Watched):
    where = f"Voilà with a {IDLE_SECONDS} s idle time, {PAGE}"
    open_in_voila(page, quick_cull, PAGE)
    tab = page.page
    tab.wait_for_selector(".pl-step-through .pl-board svg", timeout=WIDGET)
    assert_clean(page, where)
    notice = tab.locator("#pl-idle-notice")
    assert notice.is_hidden(), f"{where}: the idle notice shows on a page in use"
    first = kernel_of(tab)
    assert kernel_exists(quick_cull, first), f"{where}: the page's kernel is not running"

    # the student walks away with the tab open: the server shuts the kernel down
    wait_until_gone(quick_cull, first)

    # ... and comes back: the first click on the page makes it ask, and it says what happened
    tab.mouse.click(5, 5)
    notice.wait_for(state="visible", timeout=CLICK)
    text = " ".join(notice.inner_text().split())
    assert "This page was idle and was closed" in text, f"{where}: the notice says {text!r}"
    assert "reload the page to start again" in text.lower(), f"{where}: the notice says {text!r}"
    assert notice.get_attribute("role") == "alertdialog"
    assert tab.evaluate("() => document.activeElement && document.activeElement.id") == \
        "pl-idle-reload", f"{where}: the Reload button does not have the keyboard focus"
    screenshot(tab, "voila_idle_page_closed")

    # Reload gives a working page again, on a new kernel
    page.errors.clear()           # the closed page's lost connection logs errors; not under test
    with tab.expect_navigation(timeout=CLICK):
        tab.locator("#pl-idle-reload").click(timeout=CLICK)
    open_in_voila(page, quick_cull, PAGE)
    tab.wait_for_selector(".pl-step-through .pl-board svg", timeout=WIDGET)
    assert tab.locator("#pl-idle-notice").is_hidden(), f"{where}: the notice stayed after reload"
    second = kernel_of(tab)
    assert second != first and kernel_exists(quick_cull, second), \
        f"{where}: reloading did not start a new kernel"


@pytest.mark.xdist_group("voila-idle")
def test_a_page_in_use_is_not_closed(quick_cull, page: Watched):
    """Clicking counts as use: a page clicked every few seconds outlives the idle time."""
    where = f"Voilà with a {IDLE_SECONDS} s idle time, {PAGE}"
    open_in_voila(page, quick_cull, PAGE)
    tab = page.page
    apply_ = tab.locator(".pl-step-through button.pl-apply").first
    board = ".pl-step-through .pl-board"
    started = time.monotonic()
    while time.monotonic() - started < 3 * IDLE_SECONDS:
        shown = tab.locator(board).first.inner_html()
        apply_.click(timeout=CLICK)
        tab.wait_for_function("([sel, before]) => document.querySelector(sel).innerHTML !== before",
                              arg=[board, shown], timeout=CLICK)
        tab.wait_for_timeout(IDLE_SECONDS * 1000 // 3)
    tab.evaluate("() => window.plIdleCheck()")
    tab.wait_for_timeout(1000)
    assert tab.locator("#pl-idle-notice").is_hidden(), \
        f"{where}: a page clicked every {IDLE_SECONDS / 3:.0f} s was closed as idle"
    assert kernel_exists(quick_cull, kernel_of(tab))
    assert_clean(page, where)
