"""Fixtures for the browser tests (``make test-browser``): JupyterLab and Voilà serving a copy
of the notebooks on free localhost ports, and the system Chromium driven by Playwright.

The folder is skipped unless PANGAEA_BROWSER_TESTS=1 (``make test-browser`` sets it), so a
plain ``pytest`` or ``make test`` never starts a browser.
"""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path
from typing import Any, Iterator

import pytest

if os.environ.get("PANGAEA_BROWSER_TESTS") != "1":
    collect_ignore_glob = ["test_*.py"]
else:
    def _interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    # a terminated run still stops its servers (the fixtures' finally blocks run)
    signal.signal(signal.SIGTERM, _interrupt)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    """When a check fails, keep a picture of the page next to the other screenshots."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    from browser_support import screenshot
    for name in ("page", "lab_page"):
        watched = getattr(item, "funcargs", {}).get(name)
        if watched is not None:
            try:
                screenshot(watched.page, "FAILED_" + re.sub(r"[^\w.-]+", "_", item.name))
            except Exception:  # a picture is a bonus; the failure itself is reported anyway
                pass


@pytest.fixture(scope="session")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("browser")


@pytest.fixture(scope="session")
def served(workdir: Path) -> Path:
    """A throw-away copy of notebooks/: running cells in JupyterLab never writes to the repo."""
    from browser_support import copy_notebooks
    return copy_notebooks(workdir / "notebooks")


@pytest.fixture(scope="session")
def logs() -> Path:
    from browser_support import REPO
    folder = REPO / "build" / "browser-logs"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def lab(served: Path, workdir: Path, logs: Path) -> Iterator[Any]:
    from browser_support import lab_server
    server = lab_server(served, workdir / "lab-home", logs / "jupyterlab.log")
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="session")
def voila(served: Path, workdir: Path, logs: Path) -> Iterator[Any]:
    from browser_support import voila_server
    server = voila_server(served, workdir / "voila-home", logs / "voila.log")
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture(scope="session")
def driver() -> Iterator[Any]:
    """Playwright and the system Chromium's path, for the run."""
    from browser_support import chromium_or_fail
    try:
        chromium, problem = chromium_or_fail(), ""
    except FileNotFoundError as exc:
        problem = str(exc)
    if problem:
        pytest.fail(problem, pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright, chromium


def _profile(driver: Any, folder: Path) -> Any:
    """A Chromium with its own profile in ``folder`` (reaching localhost only)."""
    from browser_support import CHROMIUM_ARGS, keep_local
    playwright, chromium = driver
    context = playwright.chromium.launch_persistent_context(
        user_data_dir=str(folder), executable_path=str(chromium), headless=True,
        args=CHROMIUM_ARGS, viewport={"width": 1280, "height": 960}, accept_downloads=True)
    keep_local(context)
    return context


@pytest.fixture(scope="session")
def browser(driver: Any, workdir: Path) -> Iterator[Any]:
    """One Chromium with a fresh profile for the whole run."""
    context = _profile(driver, workdir / "chromium-profile")
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def fresh_browser(driver: Any, tmp_path: Path) -> Iterator[Any]:
    """Another Chromium with a new, empty profile (nothing kept in its storage): a learner
    on another computer."""
    context = _profile(driver, tmp_path / "another-profile")
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A new tab with its console errors recorded (``page.errors``)."""
    from browser_support import Watched
    tab = browser.new_page()
    try:
        yield Watched(tab)
    finally:
        tab.close()


@pytest.fixture(scope="session")
def lab_tab(browser: Any, lab: Any) -> Iterator[Any]:
    """One JupyterLab tab for the run: loading Lab once, notebooks are opened inside it."""
    from browser_support import Watched, open_lab
    tab = Watched(browser.new_page())
    try:
        open_lab(tab, lab)
        yield tab
    finally:
        tab.page.close()


@pytest.fixture
def lab_page(lab_tab: Any) -> Iterator[Any]:
    """The JupyterLab tab, with no notebook open and no errors recorded yet; the notebooks a
    test opened are closed (kernels shut down, nothing saved) afterwards."""
    from browser_support import close_in_lab
    close_in_lab(lab_tab)
    try:
        yield lab_tab
    finally:
        close_in_lab(lab_tab)
