"""What the static site costs a class: ``make site-load`` (not in ``make test``).

Prints the site's size on disk (and gzipped, as a web host that compresses would send it), then
opens it in headless Chromium as a student would (a fresh browser profile on disk, so its cache
works as a student's browser's does), with every request outside 127.0.0.1 refused:
the start page on a first visit (empty browser cache), then rule pages of the four games in the
same browser (Pyodide and the packages now in its cache).  For each page: the bytes the server
sent and the time from asking for the page to its first widget.  The site is served by a plain
static file server of the standard library, in a thread of this process, that counts the bytes
it sends (uncompressed, as ``python -m http.server`` sends them).

Goals (issue "the app as a static site"): first page < 15 s, later pages < 5 s on the 2-core
machine (their median: ``--rounds`` opens the later pages that many times, in the same browser).
Exits with 1 if one is missed or a page sent a request outside the site.  The machine's
load average is printed with the figures: other work on a shared machine slows every figure.

    python bench/site_load.py --site build/site
"""

from __future__ import annotations

import argparse
import functools
import gzip
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: the pages opened, in order: the start page first (a first visit), then one rule page a game
PAGES = ("00_start_here", "harmonies/01_setup_and_turns", "pangaea/02_turns",
         "forest_shuffle/01_setup_and_turns", "inori/01_setup_and_turns")
#: what shows that a page's first widget is there
FIRST_WIDGET = {"00_start_here": ".jupyter-widgets"}
STEP_THROUGH = ".pl-step-through .pl-board svg"
GOAL_FIRST, GOAL_LATER = 15.0, 5.0
LOCAL = re.compile(r"^(https?|wss?)://127\.0\.0\.1[:/]|^(data|blob|about):")
TIMEOUT_MS = 180_000


def site_size(site: Path) -> tuple[int, int, int]:
    """(files, bytes, gzipped bytes) of the site."""
    files = [p for p in site.rglob("*") if p.is_file()]
    raw = sum(p.stat().st_size for p in files)
    packed = sum(len(gzip.compress(p.read_bytes(), compresslevel=6)) for p in files)
    return len(files), raw, packed


class Counter:
    """Bytes and requests the server answered since the last :meth:`take`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[tuple[int, str]] = []

    def add(self, size: int, path: str) -> None:
        with self.lock:
            self.sent.append((size, path))

    def take(self) -> list[tuple[int, str]]:
        with self.lock:
            out, self.sent = self.sent, []
        return out


def serve(site: Path, counter: Counter) -> ThreadingHTTPServer:
    class Handler(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def send_header(self, keyword: str, value: str) -> None:
            if keyword.lower() == "content-length":
                counter.add(int(value), self.path.split("?")[0])
            super().send_header(keyword, value)

    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def visit(site: Path, chromium: str, profile: Path,
          rounds: int = 1) -> tuple[list[tuple[str, float, list]], list[str]]:
    """Open :data:`PAGES` one after the other in one browser, the later pages ``rounds``
    times: (page, seconds to the first widget, the files sent as (bytes, path)) each, and the
    outside requests made."""
    from playwright.sync_api import sync_playwright
    counter, outside, rows = Counter(), [], []
    server = serve(site, counter)
    base = f"http://127.0.0.1:{server.server_address[1]}/voici/render"
    try:
        with sync_playwright() as playwright:
            # a browser profile on disk, as a student's browser has: its cache keeps large
            # files (Pyodide's 8.7 MB core) that a private window's memory cache does not;
            # outside hosts are refused by the browser's own resolver, since Playwright's
            # routing would turn the cache off, and the cache is what is measured here
            context = playwright.chromium.launch_persistent_context(
                str(profile), executable_path=chromium,
                args=["--headless", "--no-sandbox", "--disable-gpu",
                      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
            context.on("request", lambda request: outside.append(request.url)
                       if not LOCAL.match(request.url) else None)
            for name in PAGES[:1] + PAGES[1:] * rounds:
                page = context.new_page()
                counter.take()
                start = time.monotonic()
                page.goto(f"{base}/{name}.html", wait_until="load", timeout=TIMEOUT_MS)
                page.wait_for_selector(FIRST_WIDGET.get(name, STEP_THROUGH), state="visible",
                                       timeout=TIMEOUT_MS)
                seconds = time.monotonic() - start
                rows.append((name, seconds, counter.take()))
                page.close()
            context.close()
    finally:
        server.shutdown()
    return rows, outside


def report(site: Path, rows: list, outside: list[str]) -> bool:
    files, raw, packed = site_size(site)
    print(f"Site {site}: {files} files, {raw / 1e6:.1f} MB ({packed / 1e6:.1f} MB gzipped)")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'page':40} {'first widget':>13} {'downloaded':>11} {'requests':>9}  goal")
    for index, (name, seconds, files) in enumerate(rows):
        sent, requests = sum(size for size, _ in files), len(files)
        goal = GOAL_FIRST if index == 0 else GOAL_LATER
        print(f"{name:40} {seconds:>11.1f} s {sent / 1e6:>8.2f} MB {requests:>9}  "
              f"< {goal:.0f} s {'met' if seconds < goal else 'missed'}")
    first = rows[0][1]
    ok = first < GOAL_FIRST
    print(f"first page: {first:.1f} s (goal < {GOAL_FIRST:.0f} s: {'met' if ok else 'MISSED'}); "
          f"first visit (start page): {sum(s for s, _ in rows[0][2]) / 1e6:.1f} MB")
    later = sorted(seconds for _, seconds, _ in rows[1:])
    if later:
        middle = statistics.median(later)
        ok = ok and middle < GOAL_LATER
        print(f"later pages: median {middle:.1f} s over {len(later)} visits, {later[0]:.1f} to "
              f"{later[-1]:.1f} s (goal < {GOAL_LATER:.0f} s: "
              f"{'met' if middle < GOAL_LATER else 'MISSED'})")
    again = sorted({(size, path) for _, _, files in rows[1:] for size, path in files
                    if size > 100_000}, reverse=True)
    if again:
        print("sent again to later pages (over 100 kB):")
        for size, path in again:
            print(f"  {size / 1e6:6.2f} MB  {path}")
    if outside:
        print("Requests outside the site (refused):\n  " + "\n  ".join(outside))
    return ok and not outside


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=REPO / "build" / "site")
    parser.add_argument("--chromium", default=os.environ.get("PANGAEA_CHROMIUM",
                                                             "/usr/bin/chromium"))
    parser.add_argument("--rounds", type=int, default=2,
                        help="how many times the later pages are opened (default 2)")
    args = parser.parse_args(argv)
    if not (args.site / "voici" / "render" / "00_start_here.html").is_file():
        print(f"No site in {args.site}: build it with `make site`.", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="site-load-") as profile:
        rows, outside = visit(args.site, args.chromium, Path(profile), max(1, args.rounds))
    return 0 if report(args.site, rows, outside) else 1


if __name__ == "__main__":
    sys.exit(main())
