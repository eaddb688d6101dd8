"""A class at once: N simulated students open the classroom app's game pages together.

``make app-load N=30`` (not part of ``make test``).  The script starts the app server as
``make app`` does (Voilà with app/voila.py, on a free port, here with a short idle time and a
pool of pre-heated kernels sized for the class), waits until the pools are ready and the server
is quiet, then lets N students open the first page of every game (student i gets game i mod 4)
within a couple of seconds: each waits for the step-through widget, clicks Apply and Undo a
few times with a pause in between, and leaves -- half of them by going to another page (which
shuts their kernel down at once), the other half by walking away with the tab open (their
kernel is shut down when the idle time has passed, and their page must then say so).

Thirty Chromium pages would take the two cores from the server they are meant to measure (a
Voilà page costs its browser a few CPU seconds of script), whereas in a classroom every
student's browser runs on the student's own computer.  So a few students (``--browsers``,
default 4: one per game) use one headless Chromium, with their pages in one context sharing
its cache, and measure the whole way to a drawn widget; the others make exactly the requests
a page makes -- the page itself, a websocket to its kernel, the state of every widget, a message
per click -- without drawing anything.  ``--browsers N`` puts every student in Chromium.

It prints time to widget and click to redraw (median, 95th percentile, slowest), the CPU used
by the server and by the browser, the memory of the server and its kernels (resident set size)
before, during and after, and the number of kernels left once the idle time has passed.  The
goals: every page shows its widget within 10 s, and memory comes back to where it started.
The exit status is 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

from browser_support import (CHROMIUM_ARGS, NOTEBOOKS, STEP_THROUGH,  # noqa: E402
                             _children, chromium_or_fail, voila_server)

WIDGET = ".pl-step-through .pl-board svg"
BOARD = ".pl-step-through .pl-board"
BUTTONS = {"Apply": ".pl-step-through button.pl-apply", "Undo": ".pl-step-through button.pl-undo"}
GOAL_SECONDS = 10.0

# The moment the widget's board picture first appears, in ms after the page's navigation began
# (checked every 50 ms inside the page, so the script's own pace does not count).
_WATCH_WIDGET_JS = """
(() => {
  const look = () => {
    if (document.querySelector('%s')) { window.__plWidgetAt = performance.now(); return; }
    setTimeout(look, 50);
  };
  look();
})();
""" % WIDGET

# Click a button and wait for the board picture to change: ms from the click to the change,
# or null after `limit` ms.
_CLICK_JS = """
async ([button, board, limit]) => {
  const before = document.querySelector(board).innerHTML;
  const t0 = performance.now();
  return await new Promise(resolve => {
    let done = false;
    const finish = value => { if (!done) { done = true; watcher.disconnect(); resolve(value); } };
    const watcher = new MutationObserver(() => {
      const now = document.querySelector(board);
      if (now && now.innerHTML !== before) finish(performance.now() - t0);
    });
    watcher.observe(document.body, {subtree: true, childList: true, attributes: true,
                                    characterData: true});
    setTimeout(() => finish(null), limit);
    document.querySelector(button).click();
  });
}
"""


# ----- the server's memory ---------------------------------------------------------------------


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _is_kernel(pid: int) -> bool:
    try:
        return b"ipykernel_launcher" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


class CpuClock:
    """CPU seconds used by a changing set of processes, counting those that have ended too
    (each process's last reading is kept)."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.lock = threading.Lock()          # read by the sampling thread too

    def total(self, pids: list[int]) -> float:
        with self.lock:
            return self._total(pids)

    def _total(self, pids: list[int]) -> float:
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                used = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            except (OSError, IndexError, ValueError):
                continue
            self.seen[pid] = max(used, self.seen.get(pid, 0.0))
        return sum(self.seen.values())


def _browser_family(server_pid: int) -> list[int]:
    """This script's other child processes: Playwright's driver and the browser."""
    server = {server_pid, *_children(server_pid)}
    return [pid for pid in _children(os.getpid()) if pid not in server]


@dataclass
class Sample:
    at: float
    phase: str
    rss_mb: float
    kernels: int


@dataclass
class Memory:
    """The server's memory (itself and every process under it), sampled once a second."""

    pid: int
    phase: str = "warm-up"
    samples: list[Sample] = field(default_factory=list)
    clock: CpuClock = field(default_factory=CpuClock)
    _stop: threading.Event = field(default_factory=threading.Event)

    def now(self) -> Sample:
        family = [self.pid, *_children(self.pid)]
        rss = sum(_rss_kb(pid) for pid in family) / 1024
        return Sample(time.monotonic(), self.phase, rss, sum(map(_is_kernel, family)))

    def cpu(self) -> float:
        return self.clock.total([self.pid, *_children(self.pid)])

    def run(self) -> None:
        while not self._stop.wait(1.0):
            self.samples.append(self.now())
            self.cpu()                  # a kernel's CPU is read before it is shut down

    def start(self) -> None:
        threading.Thread(target=self.run, daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def peak(self, phase: str) -> Sample | None:
        chosen = [s for s in self.samples if s.phase == phase]
        return max(chosen, key=lambda s: s.rss_mb) if chosen else None


def wait_until_quiet(memory: Memory, kernels: int, limit: float, quiet_share: float = 0.15,
                     window: float = 5.0) -> float:
    """Seconds until the server has used less than ``quiet_share`` of one core over
    ``window`` seconds, holding ``kernels`` kernels (its pools' notebooks have run) -- or the
    same number of kernels as a window before, if some kernel failed to start."""
    started, before_kernels = time.monotonic(), -1
    while time.monotonic() - started < limit:
        before = memory.cpu()
        time.sleep(window)
        busy = (memory.cpu() - before) / window
        now = memory.now().kernels
        if busy < quiet_share and (now >= kernels or (now == before_kernels and now > 0)):
            if now < kernels:
                print(f"warning: only {now} of the pools' {kernels} kernels started "
                      "(see the server log)", flush=True)
            return time.monotonic() - started
        before_kernels = now
    raise RuntimeError(f"the app server was not ready and quiet after {limit:.0f} s "
                       f"({memory.now().kernels} of {kernels} pool kernels)")


# ----- the students ----------------------------------------------------------------------------


@dataclass
class Student:
    number: int
    page: str
    walks_away: bool
    in_browser: bool
    widget_seconds: float | None = None
    html_seconds: float | None = None      # the page's HTML fully received
    loaded_seconds: float | None = None    # the page's scripts loaded (the load event)
    clicks_ms: list[float] = field(default_factory=list)
    missed_clicks: int = 0
    problem: str = ""
    tab: object = None
    kernel_id: str = ""


async def one_student(context, server_url: str, student: Student, clicks: int, pause: float,
                      spread: float, rng: random.Random, widget_limit: float) -> None:
    await asyncio.sleep(rng.uniform(0, spread))
    tab = await context.new_page()
    student.tab = tab
    try:
        await tab.goto(f"{server_url}/voila/render/{student.page}", wait_until="commit",
                       timeout=widget_limit * 1000)
        await tab.wait_for_function("() => window.__plWidgetAt !== undefined",
                                    timeout=widget_limit * 1000, polling=250)
        student.widget_seconds = await tab.evaluate("() => window.__plWidgetAt") / 1000
        html, loaded = await tab.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0]; "
            "return [n.responseEnd, n.loadEventEnd]; }")
        student.html_seconds, student.loaded_seconds = html / 1000, (loaded or 0) / 1000
        await tab.wait_for_timeout(rng.uniform(0.5, 1.5) * pause * 1000)
        for click in range(clicks):
            button = BUTTONS["Undo" if click % 3 == 2 else "Apply"]
            took = await tab.evaluate(_CLICK_JS, [button, BOARD, 30_000])
            if took is None:
                student.missed_clicks += 1
            else:
                student.clicks_ms.append(took)
            await tab.wait_for_timeout(rng.uniform(0.5, 1.5) * pause * 1000)
        if not student.walks_away:
            # leaving for another page: Voilà's page shuts its kernel down as it goes
            await tab.goto("about:blank")
            await tab.close()
            student.tab = None
    except Exception as exc:  # one student's trouble is reported, the class carries on
        student.problem = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"


# ----- students without a browser --------------------------------------------------------------
#
# A student's browser costs the server exactly this: the page (whose HTML carries the notebook's
# outputs and the kernel's id), a websocket to the kernel, one request for the state of every
# widget on the page, then a message per click.  The students below make those same requests
# without drawing anything, so the two shared cores go to the server, as in a classroom where
# each student's browser runs on the student's own computer.


def _message(msg_type: str, content: dict, session: str, metadata: dict) -> str:
    import datetime
    import json
    import uuid
    header = {"msg_id": uuid.uuid4().hex, "username": "student", "session": session,
              "msg_type": msg_type, "version": "5.3",
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat()}
    return json.dumps({"header": header, "parent_header": {}, "metadata": metadata,
                       "content": content, "channel": "shell", "buffers": []})


class KernelLine:
    """The Jupyter kernel websocket of one page, as the page's widget manager uses it."""

    def __init__(self, socket, session: str) -> None:
        self.socket, self.session = socket, session

    @classmethod
    async def open(cls, server_url: str, kernel_id: str, cookie: str) -> KernelLine:
        import uuid
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect
        session = uuid.uuid4().hex
        url = (server_url.replace("http", "ws", 1) +
               f"/api/kernels/{kernel_id}/channels?session_id={session}")
        socket = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookie}),
                                         max_message_size=256 * 1024 * 1024)
        return cls(socket, session)

    def send(self, msg_type: str, content: dict, metadata: dict | None = None) -> None:
        self.socket.write_message(_message(msg_type, content, self.session, metadata or {}))

    async def until(self, wanted, limit: float) -> dict | None:
        """The next message for which ``wanted(message)`` holds, or None after ``limit`` s."""
        import json
        deadline = time.monotonic() + limit
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                raw = await asyncio.wait_for(self.socket.read_message(), left)
            except asyncio.TimeoutError:
                return None
            if raw is None:
                raise ConnectionError("the server closed the kernel's connection")
            if isinstance(raw, bytes):      # a message with binary buffers: its JSON part
                count = int.from_bytes(raw[:4], "big")
                offsets = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big")
                           for i in range(count)] + [len(raw)]
                raw = raw[offsets[0]:offsets[1]].decode()
            message = json.loads(raw)
            if wanted(message):
                return message

    def close(self) -> None:
        self.socket.close()


def _comm_data(message: dict, method: str) -> dict | None:
    if message.get("msg_type", message.get("header", {}).get("msg_type")) != "comm_msg":
        return None
    data = message["content"].get("data", {})
    return data if data.get("method") == method else None


async def page_student(server_url: str, student: Student, clicks: int, pause: float,
                       spread: float, rng: random.Random, widget_limit: float) -> None:
    import json
    import uuid
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    await asyncio.sleep(rng.uniform(0, spread))
    client = AsyncHTTPClient(max_clients=200)
    try:
        started = time.monotonic()
        answer = await client.fetch(HTTPRequest(f"{server_url}/voila/render/{student.page}",
                                                request_timeout=widget_limit))
        student.html_seconds = time.monotonic() - started
        html = answer.body.decode()
        found = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)'
                          r"</script>", html, re.S)
        kernel_id = student.kernel_id = json.loads(found.group(1))["kernelId"]
        cookies = [c.split(";")[0] for c in answer.headers.get_list("Set-Cookie")]
        line = await KernelLine.open(server_url, kernel_id, "; ".join(cookies))
        student.tab = line
        line.send("kernel_info_request", {})
        control = uuid.uuid4().hex
        line.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                "data": {}}, {"version": "1.0.0"})
        line.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        reply = await line.until(lambda m: m.get("content", {}).get("comm_id") == control
                                 and _comm_data(m, "update_states") is not None,
                                 widget_limit - (time.monotonic() - started))
        if reply is None:
            raise TimeoutError("the widgets' state did not come")
        student.widget_seconds = time.monotonic() - started
        states = reply["content"]["data"]["states"]

        def having(css: str) -> str:
            for model_id, model in states.items():
                if css in model.get("state", {}).get("_dom_classes", ()):
                    return model_id
            raise LookupError(f"no widget with the class {css} on {student.page}")
        buttons = {"Apply": having("pl-apply"), "Undo": having("pl-undo")}
        board = having("pl-board")
        await asyncio.sleep(rng.uniform(0.5, 1.5) * pause)
        for click in range(clicks):
            button = buttons["Undo" if click % 3 == 2 else "Apply"]
            sent = time.monotonic()
            line.send("comm_msg", {"comm_id": button, "data": {"method": "custom",
                                                             "content": {"event": "click"}}})
            redrawn = await line.until(
                lambda m: m.get("content", {}).get("comm_id") == board
                and _comm_data(m, "update") is not None, 30.0)
            if redrawn is None:
                student.missed_clicks += 1
            else:
                student.clicks_ms.append((time.monotonic() - sent) * 1000)
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pause)
        if not student.walks_away:
            # leaving for another page: the page asks the server to shut its kernel down
            line.close()
            student.tab = None
            # the form field must match the _xsrf cookie, as the page's own request does
            xsrf = uuid.uuid4().hex
            await client.fetch(HTTPRequest(f"{server_url}/voila/api/shutdown/{kernel_id}",
                                           method="POST", body=f"_xsrf={xsrf}",
                                           headers={"Cookie": "; ".join([*cookies,
                                                                         f"_xsrf={xsrf}"])}),
                               raise_error=False)
    except Exception as exc:  # one student's trouble is reported, the class carries on
        student.problem = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"


async def run_class(args, server_url: str, students: list[Student], after) -> None:
    """Every student at once in one browser; then ``after(students)`` with the tabs of those
    who walked away still open."""
    from playwright.async_api import async_playwright

    rng = random.Random(args.seed)
    if not any(s.in_browser for s in students):
        await asyncio.gather(*(page_student(server_url, s, args.clicks, args.pause, args.spread,
                                            random.Random(rng.random()), args.widget_limit)
                               for s in students))
        await after(students)
        return
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(chromium_or_fail()), headless=True,
            args=[*CHROMIUM_ARGS, f"--renderer-process-limit={args.renderers}",
                  "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                  "--disable-backgrounding-occluded-windows"])
        context = await browser.new_context(viewport={"width": 1024, "height": 768})
        await context.add_init_script(_WATCH_WIDGET_JS)

        async def local_only(route):       # Voilà's template links a CDN stylesheet
            if route.request.url.endswith(".css"):
                await route.fulfill(status=200, content_type="text/css", body="")
            else:
                await route.abort()
        # a pattern, not a Python function: Chromium's requests need no round trip to here
        await context.route(re.compile(r"^https?://(?!(127\.0\.0\.1|localhost)[:/])"),
                            local_only)

        await asyncio.gather(*((one_student(context, server_url, s, args.clicks, args.pause,
                                            args.spread, random.Random(rng.random()),
                                            args.widget_limit)
                                if s.in_browser else
                                page_student(server_url, s, args.clicks, args.pause,
                                             args.spread, random.Random(rng.random()),
                                             args.widget_limit))
                               for s in students))
        await after(students)
        await context.close()
        await browser.close()


# ----- the report ------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def summary(values: list[float], unit: str, scale: float = 1.0) -> str:
    if not values:
        return "no measurements"
    values = [v * scale for v in values]
    return (f"median {statistics.median(values):.2f} {unit}, 95th percentile "
            f"{percentile(values, 0.95):.2f} {unit}, slowest {max(values):.2f} {unit}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30, help="students at once (30)")
    parser.add_argument("--pool", type=int, default=None,
                        help="pre-heated kernels per most used page (default: enough for the "
                             "class, a quarter of it plus one)")
    parser.add_argument("--idle", type=int, default=60,
                        help="seconds before an idle page is closed, for this run (60)")
    parser.add_argument("--clicks", type=int, default=4, help="clicks per student (4)")
    parser.add_argument("--pause", type=float, default=2.0,
                        help="seconds a student waits between clicks, on average (2)")
    parser.add_argument("--spread", type=float, default=2.0,
                        help="the students open their pages within this many seconds (2)")
    parser.add_argument("--browsers", type=int, default=4,
                        help="how many of the students use Chromium (4: one per game); the "
                             "others make the same requests without a browser, as each "
                             "student's browser would run on the student's own computer")
    parser.add_argument("--renderers", type=int, default=4,
                        help="Chromium renderer processes shared by the pages (4)")
    parser.add_argument("--widget-limit", type=float, default=180.0,
                        help="give up on a page after this many seconds (180)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the students' pauses")
    args = parser.parse_args(argv)
    for name in ("students", "idle", "clicks", "renderers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if not 0 <= args.browsers <= args.students:
        parser.error("--browsers must be between 0 and --students")
    if args.pool is None:
        args.pool = args.students // len(STEP_THROUGH) + 1
    if args.pool < 0:
        parser.error("--pool must be 0 or more")

    pages = list(STEP_THROUGH.values())
    students = [Student(i + 1, pages[i % len(pages)], walks_away=(i % 2 == 1),
                        in_browser=(i < args.browsers))
                for i in range(args.students)]
    pooled_pages = 5          # app/voila.py: the start page and each game's first page
    logs = REPO / "build" / "app-load"
    logs.mkdir(parents=True, exist_ok=True)
    print(f"App load: {args.students} students ({args.browsers} in Chromium) on "
          f"{len(pages)} game pages at once; pool "
          f"{args.pool} kernels per most used page, idle time {args.idle} s; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before starting "
          f"(a shared machine: other work runs too)", flush=True)

    with tempfile.TemporaryDirectory(prefix="app-load-") as home:
        server = voila_server(NOTEBOOKS, Path(home), logs / "voila.log",
                              extra_env={"PANGAEA_APP_IDLE": str(args.idle),
                                         "PANGAEA_APP_POOL": str(args.pool)})
        started = time.monotonic()
        server.start()
        try:
            memory = Memory(server.process.pid)
            warm = wait_until_quiet(memory, pooled_pages * args.pool, limit=1200)
            start = memory.now()
            print(f"warm-up: pools ready and server quiet after {time.monotonic() - started:.0f} s "
                  f"({warm:.0f} s after the server answered); {start.kernels} kernels, "
                  f"{start.rss_mb:.0f} MB", flush=True)
            memory.phase = "class"
            memory.start()
            after: dict[str, Sample] = {}
            notices: list[bool] = []             # connections of tabs left open, closed
            browser_notices: list[bool] = []     # tabs left open (in Chromium) saying so
            cpu: dict[str, float] = {}

            async def after_class(done: list[Student]) -> None:
                memory.phase = "after"
                await asyncio.sleep(3)
                after["left"] = memory.now()
                cpu["server"] = memory.cpu() - cpu_before[0]
                cpu["browser"] = (browser_clock.total(_browser_family(server.process.pid))
                                  - cpu_before[1])
                cpu["seconds"] = time.monotonic() - t0
                print(f"students done; {after['left'].kernels} kernels, "
                      f"{after['left'].rss_mb:.0f} MB; waiting for the idle time "
                      f"({args.idle} s)...", flush=True)
                memory.phase = "idle"
                # the idle time and two rounds of the culler (app/voila.py: every quarter of
                # the idle time, at most a minute); then until only the pools are left (or 3
                # minutes more)
                await asyncio.sleep(args.idle + 2 * max(1, min(60, args.idle // 4)) + 5)
                limit = time.monotonic() + 180
                while memory.now().kernels > pooled_pages * args.pool and \
                        time.monotonic() < limit:
                    await asyncio.sleep(2)
                await asyncio.sleep(5)
                after["idle"] = memory.now()
                # the tabs left open: the student comes back and clicks
                for s in done:
                    if s.tab is None or s.widget_seconds is None:
                        continue
                    if not s.in_browser:      # the server must have shut the kernel down
                        from tornado.httpclient import AsyncHTTPClient
                        answer = await AsyncHTTPClient().fetch(
                            f"{server.url}/api/kernels/{s.kernel_id}", raise_error=False)
                        notices.append(answer.code == 404)
                        s.tab.close()
                    else:
                        try:
                            await s.tab.mouse.click(3, 3)
                            await s.tab.wait_for_selector("#pl-idle-notice:not([hidden])",
                                                          timeout=15_000)
                            browser_notices.append(True)
                        except Exception:
                            browser_notices.append(False)
            t0 = time.monotonic()
            browser_clock = CpuClock()
            cpu_before = memory.cpu(), browser_clock.total(_browser_family(server.process.pid))
            asyncio.run(run_class(args, server.url, students, after_class))
            memory.stop()
            class_seconds = time.monotonic() - t0
        finally:
            server.stop()

    widget = [s.widget_seconds for s in students if s.widget_seconds is not None]
    in_browser = [s.widget_seconds for s in students
                  if s.in_browser and s.widget_seconds is not None]
    no_browser = [s.widget_seconds for s in students
                  if not s.in_browser and s.widget_seconds is not None]
    clicks = [ms for s in students for ms in s.clicks_ms]
    missed = sum(s.missed_clicks for s in students)
    problems = [f"student {s.number} ({s.page}): {s.problem}" for s in students if s.problem]
    peak = memory.peak("class")
    within = sum(1 for s in students if s.widget_seconds is not None
                 and s.widget_seconds <= GOAL_SECONDS)
    print(f"time to widget:  {summary(widget, 's')} ({within} of {len(students)} pages "
          f"within {GOAL_SECONDS:.0f} s)")
    html = [s.html_seconds for s in students if s.html_seconds is not None]
    loaded = [s.loaded_seconds for s in students if s.loaded_seconds]
    print(f"  the page's HTML from the server:   {summary(html, 's')}")
    if no_browser:
        print(f"  without a browser, widgets' state: {summary(no_browser, 's')} "
              f"({len(no_browser)} pages)")
    if in_browser:
        print(f"  in Chromium, the widget drawn:     {summary(in_browser, 's')} "
              f"({len(in_browser)} pages; the page's scripts loaded: {summary(loaded, 's')})")
    print(f"click to redraw: {summary(clicks, 's', 1 / 1000)} ({len(clicks)} clicks"
          f"{f', {missed} without a redraw in 30 s' if missed else ''})")
    print(f"server memory:   start {start.rss_mb:.0f} MB ({start.kernels} kernels); "
          f"peak during the class {peak.rss_mb if peak else 0:.0f} MB "
          f"({peak.kernels if peak else 0} kernels); students gone "
          f"{after['left'].rss_mb:.0f} MB ({after['left'].kernels} kernels); after the idle "
          f"time {after['idle'].rss_mb:.0f} MB ({after['idle'].kernels} kernels)")
    pool_kernels = pooled_pages * args.pool
    print(f"kernels left once idle: {after['idle'].kernels} (the pools hold {pool_kernels}); "
          f"pages left open: {sum(notices)} of {len(notices)} without a browser lost their "
          "kernel"
          + (f", {sum(browser_notices)} of {len(browser_notices)} in Chromium say "
             "they were closed" if browser_notices else ""))
    print(f"CPU used while the students worked ({cpu['seconds']:.0f} s, {os.cpu_count()} cores "
          f"shared with other work): server and kernels {cpu['server']:.0f} s, the browser "
          f"{cpu['browser']:.0f} s")
    print(f"the class took {class_seconds:.0f} s; server log: {logs / 'voila.log'}")
    for problem in problems:
        print("problem:", problem)

    goals = {
        f"every page shows its widget within {GOAL_SECONDS:.0f} s": within == len(students),
        "memory back to its starting level (within 10 %)":
            after["idle"].rss_mb <= start.rss_mb * 1.10,
        "no kernel left beyond the pools": after["idle"].kernels <= pool_kernels,
        "every tab left open lost its kernel, and says so": all(notices)
                                                             and all(browser_notices),
    }
    for goal, met in goals.items():
        print(f"{'met    ' if met else 'MISSED '} {goal}")
    return 0 if all(goals.values()) and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
