"""The class record's dashboard in Chromium, as a teacher uses it: signed in through the
hub's OAuth (a stand-in of the hub's API, tests/record/record_service_support.py), the
teacher chooses a game by keyboard, opens a student's history with Enter, and the page
updates itself while students answer without losing the filter or the open history.  Text
is readable: at least 14 px, and 4.5:1 contrast against its background."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "record"))
from record_service_support import (ACCESS, TEACHER_SCOPE, Person, StandInHub,  # noqa: E402
                                    start_service)

from browser_support import CLICK, Watched, _wait_until, assert_clean, screenshot  # noqa: E402
from pangaea_lab import exercises  # noqa: E402
from pangaea_lab.core.mastery import Attempt, PracticeRecord  # noqa: E402

TREES = "harmonies.tree_points"
SCORE = "pangaea.final_score"

# the smallest text and lowest contrast of the dashboard's tables, read in the page
_READABLE_JS = """() => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 4).map(Number);
  const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const back = el => { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el)
      .backgroundColor); if (c.length < 4 || c[3] > 0) return c; } return [255, 255, 255]; };
  let size = 99, contrast = 99;
  for (const el of document.querySelectorAll('td, th, caption, p, button, label, h1, h2')) {
    if (!el.offsetParent || !el.textContent.trim()) continue;
    const style = getComputedStyle(el);
    size = Math.min(size, parseFloat(style.fontSize));
    const [a, b] = [lum(rgb(style.color)), lum(back(el))];
    contrast = Math.min(contrast, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
  }
  return {size, contrast};
}"""


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    hub = StandInHub().start()
    for name in ("ana", "ben"):
        hub.add(Person(name, f"token-of-{name}"))
    hub.add(Person("tess", "token-of-tess", groups=("teachers",), scopes=(ACCESS, TEACHER_SCOPE)))
    hub.signed_in = "tess"
    running = start_service(hub, tmp_path_factory.mktemp("class-record"))
    try:
        yield hub, running
    finally:
        running.stop()
        hub.stop()


def send(running, who: str, kind: str, seed: int, offset: int = 0) -> None:
    answer = exercises.generate(kind, seed, 1).answer + offset
    reply = requests.post(running.url + "api/attempts", timeout=60,
                          headers={"Authorization": f"token token-of-{who}"},
                          json={"attempts": [{"id": f"{who}-{kind}-{seed}".replace(".", "-")
                                              .replace("_", "-"), "kind": kind, "seed": seed,
                                              "level": 1, "answer": answer, "hints": 0,
                                              "shown": False, "first": True,
                                              "time": 1_733_420_000_000}]})
    assert reply.status_code == 200, reply.text


def focus_by_tab(tab: Any, selector: str, most: int = 60) -> None:
    """Press Tab until ``selector`` has the focus (as a keyboard user reaches it)."""
    for _ in range(most):
        tab.keyboard.press("Tab")
        if tab.evaluate(f"() => document.activeElement === document.querySelector({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector} on the dashboard")


def test_a_teacher_filters_by_game_and_opens_a_history_by_keyboard(record, fresh_browser):
    hub, running = record
    for seed in (1, 2, 3):
        send(running, "ana", TREES, seed)
    send(running, "ben", SCORE, 4, offset=1)            # the latest attempt: The Dawn of Pangaea
    watched = Watched(fresh_browser.new_page())
    tab = watched.page
    tab.goto(running.url + "dashboard", wait_until="load", timeout=60_000)
    assert tab.url.startswith(running.url), "the sign-in did not come back to the dashboard"
    _wait_until(tab, "the first visit did not open on the game played last",
                lambda: tab.input_value("#game") == "pangaea")
    focus_by_tab(tab, "#game")
    tab.keyboard.press("h")                             # harmonies, chosen by keyboard
    _wait_until(tab, "choosing Harmonies did not change the table",
                lambda: "harmonies: " in tab.inner_text("#class-table thead")
                and "pangaea: " not in tab.inner_text("#class-table thead"))
    row = tab.locator("#class-table tbody tr", has_text="ana")
    assert "✓ mastered (level 1)" in row.inner_text(timeout=CLICK)
    assert "harmonies" in tab.url                       # the filter is kept in the address
    focus_by_tab(tab, 'button.student[data-student="ana"]')
    tab.keyboard.press("Enter")
    _wait_until(tab, "Enter on a student's name did not open the history",
                lambda: tab.is_visible("#history") and
                tab.evaluate("() => document.activeElement.id") == "history-heading")
    history = tab.inner_text("#history")
    assert "History of ana" in history and "✓ right" in history and "the server" in history
    # students keep answering: the page updates, the filter and the history stay
    send(running, "ana", TREES, 5, offset=1)
    _wait_until(tab, "the open history did not show the new attempt within a refresh",
                lambda: "✗ not right" in tab.inner_text("#history-table"), timeout=60_000)
    assert tab.input_value("#game") == "harmonies" and tab.is_visible("#history")
    readable = tab.evaluate(_READABLE_JS)
    assert readable["size"] >= 14, f"text of {readable['size']} px on the dashboard"
    assert readable["contrast"] >= 4.5, f"text contrast {readable['contrast']:.2f}:1"
    screenshot(tab, "record_dashboard_history")
    # delete asks first; No keeps the records, Yes removes them (the page's XSRF token goes
    # with the browser's sign-in cookie)
    tab.click("#delete")
    assert "Delete all 4 attempts of ana?" in tab.inner_text("#confirm")
    tab.keyboard.press("Enter")                         # the focus is on "No, keep them"
    assert tab.is_hidden("#confirm") and len(hub_rows(running, "ana")) == 4
    tab.click("#delete")
    tab.click("#confirm-yes")
    _wait_until(tab, "Yes did not delete the records",
                lambda: "Deleted 4 attempts of ana" in tab.inner_text("#status"))
    assert hub_rows(running, "ana") == [] and tab.is_hidden("#history")
    # a progress file saved without the hub, for a student chosen from the list
    saved = PracticeRecord([Attempt(TREES, 9, 1, "4", True, first=True, time=1.7e9, id="f1")])
    tab.select_option("#import-student", "ben")
    tab.set_input_files("#import-file", files=[{"name": "progress.json", "mimeType":
                                                "application/json",
                                                "buffer": saved.to_json().encode()}])
    tab.click("#import button[type=submit]")
    _wait_until(tab, "the progress file was not added",
                lambda: "Added 1 attempt to ben's record" in tab.inner_text("#import-status"))
    assert [row["source"] for row in hub_rows(running, "ben")].count("file") == 1
    assert_clean(watched, "the class record's dashboard")
    tab.close()


def hub_rows(running, who: str) -> list:
    reply = requests.get(running.url + "api/attempts", timeout=60,
                         headers={"Authorization": f"token token-of-{who}"})
    return reply.json()["attempts"]
