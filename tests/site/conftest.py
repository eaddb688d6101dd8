"""Fixtures for the static site's tests (``make test-site``): build/site served by a plain
static file server (``python -m http.server``) on a free localhost port, under a path
(http://127.0.0.1:PORT/class/site/, as a school web space or a repository's pages serve a
folder) and at the host's root, and the system Chromium driven by Playwright with every request
outside 127.0.0.1 refused and recorded.

The folder is skipped unless PANGAEA_SITE_TESTS=1 (``make test-site`` sets it after building
the site), so a plain ``pytest`` or ``make test`` never builds a site nor starts a browser.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests" / "browser"), str(REPO / "tests")]

if os.environ.get("PANGAEA_SITE_TESTS") != "1":
    collect_ignore_glob = ["test_*.py"]

SITE = Path(os.environ.get("PANGAEA_SITE", REPO / "build" / "site"))


#: the path the site is served under, as a school web space serves a folder
SUB_PATH = "class/site"


def serve(folder: Path, port: int, path: str = "") -> subprocess.Popen:
    """A plain static file server for ``folder``, ready to answer (``path``: where in the
    folder the site is)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
         "--directory", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}index.html",
                                        timeout=5):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"python -m http.server did not answer on port {port}")


def _served(folder: Path, path: str = "") -> Iterator[str]:
    from processes import free_port
    if not (SITE / "voici" / "render" / "00_start_here.html").is_file():
        raise FileNotFoundError(f"No site in {SITE}: build it first with `make site`.")
    port = free_port()
    process = serve(folder, port, path)
    try:
        yield f"http://127.0.0.1:{port}/{path}".rstrip("/")
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site's address under :data:`SUB_PATH` (no slash at its end): the server's folder
    holds the site at that path and nothing else, so a page that asked for a file from the
    host's root would get a 404."""
    host = tmp_path_factory.mktemp("host")
    (host / SUB_PATH).parent.mkdir(parents=True)
    (host / SUB_PATH).symlink_to(SITE.resolve(), target_is_directory=True)
    yield from _served(host, SUB_PATH + "/")


@pytest.fixture(scope="session")
def site_at_root() -> Iterator[str]:
    """The same site served at the host's root."""
    yield from _served(SITE)


class Outside:
    """Every request the pages tried to send outside 127.0.0.1 (each one refused)."""

    def __init__(self) -> None:
        self.urls: list[str] = []


@pytest.fixture(scope="session")
def outside() -> Outside:
    return Outside()


@pytest.fixture(scope="session")
def browser_context(outside: Outside) -> Iterator[Any]:
    from browser_support import CHROMIUM_ARGS, chromium_or_fail
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_or_fail()),
                                             args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})

        def refuse(route: Any) -> None:
            outside.urls.append(route.request.url)
            route.abort()

        context.route(re.compile(r"^(https?|wss?)://(?!127\.0\.0\.1[:/])"), refuse)
        try:
            yield context
        finally:
            context.close()
            browser.close()


@pytest.fixture
def page(browser_context: Any) -> Iterator[Any]:
    from browser_support import Watched
    tab = browser_context.new_page()
    try:
        yield Watched(tab)
    finally:
        tab.close()
