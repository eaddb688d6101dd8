"""A page left behind lets its kernel go: the classroom app shuts down the kernel of a page the
student leaves (another page, a reload, a closed tab) at once, not when the idle time runs out.

A Voilà server as ``make app`` runs it (app/classroom_app.py, app/voila.py, one ready kernel per
most used page, the classroom's 15-minute idle time so that no kernel goes for being idle): one
tab moves through ten pages (the five with a pool and five without, a reload among them, and
one more left before it had arrived) and a second tab is opened and closed.  Then the server must hold the current page's kernel and
otherwise only kernels waiting in the pools: every kernel a page was given, but the current
one, is gone."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from browser_support import (Watched, _children, assert_clean, kernel_of, open_in_voila,
                             running_voila)

POOL = 1                  # ready kernels per most used page, for this server
POOLED = ["00_start_here.ipynb", "pangaea/02_turns.ipynb", "harmonies/01_setup_and_turns.ipynb",
          "forest_shuffle/01_setup_and_turns.ipynb", "inori/01_setup_and_turns.ipynb"]
#: a lesson's walk: pages with a pool and pages without, one visited twice
WALK = ["00_start_here.ipynb", "pangaea/01_setup.ipynb", "pangaea/02_turns.ipynb",
        "harmonies/01_setup_and_turns.ipynb", "harmonies/03_habitats.ipynb",
        "forest_shuffle/01_setup_and_turns.ipynb", "inori/01_setup_and_turns.ipynb",
        "inori/02_great_tree_and_runes.ipynb", "pangaea/03_land_rituals.ipynb"]
KERNEL_FILE = re.compile(rb"kernel-([0-9a-f-]{36})\.json")


@pytest.fixture(scope="module")
def classroom(served, workdir, logs) -> Iterator[Any]:
    yield from running_voila(served, workdir / "voila-leave-home", logs / "voila-leave.log",
                             {"PANGAEA_APP_IDLE": "900", "PANGAEA_APP_POOL": str(POOL)})


def running_kernels(server: Any, started_for_a_page: bool = False) -> set[str]:
    """The ids of the kernels running under the server (from their processes); with
    ``started_for_a_page``, only those a page started itself (not started for a pool)."""
    found = set()
    for pid in _children(server.process.pid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"ipykernel_launcher" in command:
            match = KERNEL_FILE.search(command)
            if match and not (started_for_a_page and b"VOILA_PREHEAT=True" in environment):
                found.add(match.group(1).decode())
    return found


def wait_for_pools(server: Any, limit: float = 300.0) -> None:
    """Until the server has started its pools' kernels."""
    deadline = time.monotonic() + limit
    while len(running_kernels(server)) < POOL * len(POOLED):
        if time.monotonic() > deadline:
            raise AssertionError(f"the pools' {POOL * len(POOLED)} kernels did not start in "
                                 f"{limit:.0f} s ({len(running_kernels(server))} running)")
        time.sleep(1.0)


#: a page left before it armed its leave request holds no connection to its kernel, which is
#: shut down this long after the page was served (app/classroom_kernels.py, connect_within and
#: reconnect_grace), plus a margin
NEVER_CONNECTED = 120 + 10 + 60


def left_behind(server: Any, given: list[str], current: str,
                limit: float = NEVER_CONNECTED) -> set[str]:
    """The kernels of pages since left (those given to pages, and any a page started for
    itself) still running after ``limit`` s."""
    deadline = time.monotonic() + limit
    while True:
        alive = (running_kernels(server) & set(given)
                 | running_kernels(server, started_for_a_page=True)) - {current}
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(1.0)


@pytest.mark.xdist_group("voila-leave")
def test_moving_through_ten_pages_leaves_one_kernel_besides_the_pools(classroom, page: Watched,
                                                                      browser: Any, logs: Path):
    wait_for_pools(classroom)
    tab, given = page.page, []
    for number, notebook in enumerate(WALK, 1):
        open_in_voila(page, classroom, notebook)
        given.append(kernel_of(tab))
        assert given[-1] in running_kernels(classroom), f"page {number} ({notebook}) has no kernel"
        if number == 4:
            # a page left before it has arrived (its notebook still running on the server)
            tab.goto(f"{classroom.url}/voila/render/pangaea/04_scoring.ipynb",
                     wait_until="commit")
            tab.wait_for_timeout(1500)
    # the tenth page: the last one reloaded (a new kernel, the old one let go)
    tab.reload(wait_until="load")
    open_in_voila(page, classroom, WALK[-1])
    given.append(kernel_of(tab))
    assert len(set(given)) == 10, "a page was given a kernel another page had"

    # a classmate's tab, opened and closed (the browser asks the page before closing it)
    other = Watched(browser.new_page())
    open_in_voila(other, classroom, POOLED[1])
    closed = kernel_of(other.page)
    other.page.close(run_before_unload=True)

    current = given[-1]
    still = left_behind(classroom, [*given, closed], current)
    assert not still, (f"{len(still)} kernels of the pages left behind are still running "
                       f"(the closed tab's: {closed in still}; one no page was given: "
                       f"{bool(still - set(given) - {closed})})")
    alive = running_kernels(classroom)
    assert current in alive, "the current page's kernel was shut down"
    waiting = alive - {current}
    assert len(waiting) <= POOL * len(POOLED), \
        f"{len(waiting)} kernels besides the current page's; the pools hold {POOL * len(POOLED)}"
    assert not waiting & set(given), "a kernel given to a page is counted as a pool kernel"
    log = (logs / "voila-leave.log").read_text(errors="replace")
    log = log.rsplit("\n--- Voilà, attempt", 1)[-1]          # this server's part of the log
    assert "'_xsrf' argument missing" not in log, "the server refused a page's leave request"
    # a page left while it loads has its last requests (and its leave request, sent as it
    # goes) reported as aborted by the browser; anything else is a fault
    page.errors[:] = [e for e in page.errors if not e.endswith("(net::ERR_ABORTED)")]
    assert_clean(page, "ten pages in the classroom app")
