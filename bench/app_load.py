"""A class in a lesson: N simulated students move through five pages of the classroom app together.

``make app-load N=30`` (not part of ``make test``).  The script starts the app server as
``make app CLASS=N`` does (app/classroom_app.py with app/voila.py, on a free port, here with a
short idle time (180 s): pools of ready kernels sized for the class, following it from page to page),
waits until the pools are ready and the server is quiet, then lets N students walk through a
lesson of five pages in waves: student i plays game i mod 4 and opens the start page, the
game's first playable page and the next three pages of that game, all students opening their
next page within a few seconds of each other (the teacher says "go on").  On each page a
student waits for the page's widgets, clicks Apply and Undo where the page has the game's
step-through widget, stays a while, and then goes on to the next page (which shuts the page's
kernel down at once).  After the last page, half of them close the page, the other half walk
away with it open (their kernel is shut down when the idle time has passed, and their page
must then say so).

Thirty Chromium pages would take the two cores from the server they are meant to measure (a
Voilà page costs its browser a few CPU seconds of script), whereas in a classroom every
student's browser runs on the student's own computer.  So a few students (``--browsers``,
default 4: one per game) use one headless Chromium and measure the whole way to a drawn widget;
the others make exactly the requests a page makes -- the page itself, a websocket to its kernel,
the state of every widget, a message per click, and on leaving the shutdown request with the
page's XSRF cookie -- without drawing anything.  ``--browsers N`` puts every student in Chromium.
The four Chromium students still share the two cores with the server.  By default they run at
the server's own CPU priority (``--clients-nice 0``): their drawing takes CPU the server would
have in a classroom, so every time reads a little high, never low.  At the lowest priority
(``--clients-nice 19``) they take only what the server leaves; the server's times are then
closer to a classroom's, but a Chromium page waits for its drawing behind every kernel and its
own time reads far too high (42 s for a page whose kernel answered in 4 s).

After each wave it prints time to widget (median, 95th percentile, slowest), the kernels alive
and the memory of the server and its kernels (resident set size); at the end click to redraw, the
time from a leave request to its kernel's end,
the CPU used, and the kernels and memory once the idle time has passed.  The goals: every page
shows its widgets within 10 s (5 s is the aim); after each wave, no more kernels than the
pools' plus one per student on a page (every page left has let its kernel go); after the
class, the kernels and memory back to the pools' level.  The exit status is 1 when a goal is
missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO / "app"))

from browser_support import (CHROMIUM_ARGS, NOTEBOOKS, STEP_THROUGH,  # noqa: E402
                             _children, chromium_or_fail, voila_server)
from classroom_pools import lesson_order  # noqa: E402

BOARD = ".pl-step-through .pl-board"
BUTTONS = {"Apply": ".pl-step-through button.pl-apply", "Undo": ".pl-step-through button.pl-undo"}
GOAL_SECONDS = 10.0
AIM_SECONDS = 5.0
START_PAGE = "00_start_here.ipynb"
#: seconds a leave request may wait for its kernel's end before it counts as a problem
LEAVE_LIMIT = 300.0
PAGES_PER_STUDENT = 5

# The moment the page's widgets first show, in ms after the page's navigation began (checked
# every 50 ms inside the page, so the script's own pace does not count): the game's board on a
# step-through page, else the first widget; a page without widgets counts once loaded.
_WATCH_WIDGET_JS = """
(() => {
  const stepThrough = %s.some(page => location.pathname.endsWith('/' + page));
  const wanted = stepThrough ? '.pl-step-through .pl-board svg' : '.jupyter-widgets';
  const look = () => {
    if (window.__plWidgetAt !== undefined) return;
    if (document.querySelector(wanted)) { window.__plWidgetAt = performance.now(); return; }
    // a page without widgets counts once loaded (a step-through page always has its board:
    // its widget scripts are gone once rendered, before the board's picture is drawn)
    if (!stepThrough && document.readyState === 'complete' &&
        !document.querySelector('script[type="application/vnd.jupyter.widget-view+json"]')) {
      window.__plWidgetAt = performance.now(); return;
    }
    setTimeout(look, 50);
  };
  look();
})();
""" % json.dumps(list(STEP_THROUGH.values()))

# Click a button and wait for the board picture to change: ms from the click to the change,
# or null after `limit` ms.
_CLICK_JS = """
async ([button, board, limit]) => {
  const drawn = document.querySelector(board);
  if (!drawn || !document.querySelector(button)) return null;
  const before = drawn.innerHTML;
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
class Visit:
    page: str
    wave: int
    widget_seconds: float | None = None
    html_seconds: float | None = None      # the page's HTML fully received
    kernel_id: str = ""
    began: float = 0.0                     # wall clock when the student set off for the page


@dataclass
class Student:
    number: int
    walk: list[str]
    walks_away: bool
    in_browser: bool
    visits: list[Visit] = field(default_factory=list)
    clicks_ms: list[float] = field(default_factory=list)
    missed_clicks: int = 0
    problems: list[str] = field(default_factory=list)
    tab: object = None                     # the Chromium tab, or the kernel's websocket
    current: Visit | None = None           # the page open in the tab (its kernel id known)
    leaving: list = field(default_factory=list)   # leave requests sent (tasks)
    ended_s: list[float] = field(default_factory=list)  # leave request to its kernel's end
    cookies: dict[str, str] = field(default_factory=dict)

    def trouble(self, page: str, exc: BaseException) -> None:
        text = str(exc).splitlines()[0][:200] if str(exc) else ""
        self.problems.append(f"{page}: {type(exc).__name__}: {text}")


def student_walk(number: int, games: list[str], order: dict[str, str]) -> list[str]:
    """The start page, then the game's first playable page and the next pages of that game."""
    walk = [START_PAGE, STEP_THROUGH[games[number % len(games)]]]
    while len(walk) < PAGES_PER_STUDENT and walk[-1] in order:
        walk.append(order[walk[-1]])
    return walk


async def _clicks_in_browser(tab, student: Student, clicks: int, pause: float,
                             rng: random.Random) -> None:
    for click in range(clicks):
        await tab.wait_for_timeout(rng.uniform(0.5, 1.5) * pause * 1000)
        button = BUTTONS["Undo" if click % 3 == 2 else "Apply"]
        took = await tab.evaluate(_CLICK_JS, [button, BOARD, 30_000])
        if took is None:
            student.missed_clicks += 1
        else:
            student.clicks_ms.append(took)


async def browser_visit(context, server_url: str, student: Student, visit: Visit, args,
                        rng: random.Random) -> None:
    """Open the visit's page in the student's tab (leaving the page before, which shuts its
    kernel down as it unloads) and wait for its widgets."""
    if student.tab is None:
        student.tab = await context.new_page()
    tab = student.tab
    await tab.goto(f"{server_url}/voila/render/{visit.page}", wait_until="commit",
                   timeout=args.widget_limit * 1000)
    await tab.wait_for_function("() => window.__plWidgetAt !== undefined",
                                timeout=args.widget_limit * 1000, polling=250)
    visit.widget_seconds = await tab.evaluate("() => window.__plWidgetAt") / 1000
    visit.html_seconds = await tab.evaluate(
        "() => performance.getEntriesByType('navigation')[0].responseEnd") / 1000
    visit.kernel_id = await tab.evaluate(
        "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
    if visit.page in STEP_THROUGH.values():
        await _clicks_in_browser(tab, student, args.clicks, args.pause, rng)
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


def _remember_cookies(student: Student, answer) -> None:
    for header in answer.headers.get_list("Set-Cookie"):
        name, _, value = header.split(";")[0].partition("=")
        student.cookies[name.strip()] = value.strip()


def _cookie_header(student: Student) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in student.cookies.items())}


async def leave_page(server_url: str, student: Student) -> None:
    """What a page does as it unloads: close its kernel's websocket and ask the server to shut
    the kernel down, with the value of the _xsrf cookie the server set (as Voilà's page does);
    a refused request is a problem of the student's."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    if student.tab is None:
        return
    student.tab.close()
    student.tab = None
    visit, student.current = student.current, None
    if visit is None or not visit.kernel_id:
        return
    body = urllib.parse.urlencode({"_xsrf": student.cookies.get("_xsrf", "")})
    # the server answers once the kernel has ended; during a class the kernels of the pages
    # left end one after another, so the answer may take a while (a browser does not wait)
    sent = time.monotonic()
    answer = await AsyncHTTPClient().fetch(
        HTTPRequest(f"{server_url}/voila/api/shutdown/{visit.kernel_id}", method="POST",
                    body=body, headers=_cookie_header(student), request_timeout=LEAVE_LIMIT),
        raise_error=False)
    if answer.code < 400:
        student.ended_s.append(time.monotonic() - sent)
    if answer.code >= 400:
        student.problems.append(f"{visit.page}: leaving it, the shutdown request was refused "
                                f"({answer.code})")


async def page_visit(server_url: str, student: Student, visit: Visit, args,
                     rng: random.Random) -> None:
    """The requests a page makes, without drawing: the page, its kernel's websocket, the state
    of every widget, then a message per click on the step-through widget."""
    import uuid
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    # as a browser does: the leave request goes as the page unloads, and the next page is
    # asked for without waiting for its answer
    leaving = asyncio.ensure_future(leave_page(server_url, student))
    student.leaving.append(leaving)
    await asyncio.sleep(0)
    started = time.monotonic()
    answer = await AsyncHTTPClient(max_clients=200).fetch(HTTPRequest(
        f"{server_url}/voila/render/{visit.page}", headers=_cookie_header(student),
        request_timeout=args.widget_limit))
    visit.html_seconds = time.monotonic() - started
    _remember_cookies(student, answer)
    found = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)'
                      r"</script>", answer.body.decode(), re.S)
    visit.kernel_id = json.loads(found.group(1))["kernelId"]
    student.current = visit
    line = student.tab = await KernelLine.open(server_url, visit.kernel_id,
                                               _cookie_header(student)["Cookie"])
    line.send("kernel_info_request", {})
    control = uuid.uuid4().hex
    line.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                            "data": {}}, {"version": "1.0.0"})
    line.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
    reply = await line.until(lambda m: m.get("content", {}).get("comm_id") == control
                             and _comm_data(m, "update_states") is not None,
                             args.widget_limit - (time.monotonic() - started))
    if reply is None:
        raise TimeoutError("the widgets' state did not come")
    visit.widget_seconds = time.monotonic() - started
    if visit.page in STEP_THROUGH.values():
        await _clicks_over_the_line(line, reply["content"]["data"]["states"], student, args, rng)


async def _clicks_over_the_line(line: KernelLine, states: dict, student: Student, args,
                                rng: random.Random) -> None:
    def having(css: str) -> str:
        for model_id, model in states.items():
            if css in model.get("state", {}).get("_dom_classes", ()):
                return model_id
        raise LookupError(f"no widget with the class {css}")
    buttons = {"Apply": having("pl-apply"), "Undo": having("pl-undo")}
    board = having("pl-board")
    for click in range(args.clicks):
        await asyncio.sleep(rng.uniform(0.5, 1.5) * args.pause)
        button = buttons["Undo" if click % 3 == 2 else "Apply"]
        sent = time.monotonic()
        line.send("comm_msg", {"comm_id": button, "data": {"method": "custom",
                                                         "content": {"event": "click"}}})
        redrawn = await line.until(lambda m: m.get("content", {}).get("comm_id") == board
                                   and _comm_data(m, "update") is not None, 30.0)
        if redrawn is None:
            student.missed_clicks += 1
        else:
            student.clicks_ms.append((time.monotonic() - sent) * 1000)


# ----- the lesson ------------------------------------------------------------------------------


async def one_wave(number: int, context, server_url: str, students: list[Student], args,
                   rngs: dict[int, random.Random]) -> None:
    """Every student opens the ``number``-th page of the walk (within ``args.spread`` s), then
    stays until ``args.stay`` s after the wave began."""
    began = time.monotonic()

    async def go(student: Student) -> None:
        if number >= len(student.walk):
            return
        visit = Visit(student.walk[number], number + 1)
        student.visits.append(visit)
        rng = rngs[student.number]
        await asyncio.sleep(rng.uniform(0, args.spread))
        visit.began = time.time()
        try:
            if student.in_browser:
                await browser_visit(context, server_url, student, visit, args, rng)
            else:
                await page_visit(server_url, student, visit, args, rng)
        except Exception as exc:  # one student's trouble is reported, the class carries on
            student.trouble(visit.page, exc)
    await asyncio.gather(*(go(s) for s in students))
    left = args.stay - (time.monotonic() - began)
    if left > 0:
        await asyncio.sleep(left)


async def end_of_lesson(server_url: str, students: list[Student]) -> None:
    """Half the class closes the last page (its kernel is shut down at once), the other half
    walks away with it open."""
    for student in students:            # the leave requests sent during the lesson
        for leaving in student.leaving:
            try:
                await leaving
            except Exception as exc:
                student.trouble("leaving a page", exc)
        student.leaving.clear()
    for student in students:
        if student.walks_away or student.tab is None:
            continue
        try:
            if student.in_browser:
                await student.tab.close(run_before_unload=True)
                student.tab = None
            else:
                await leave_page(server_url, student)
        except Exception as exc:
            student.trouble("leaving the last page", exc)


async def run_lesson(args, server_url: str, students: list[Student], after_wave,
                     after) -> None:
    """The lesson's waves, ``after_wave(number)`` after each; then ``after(students)`` with
    the tabs of those who walked away still open."""
    from playwright.async_api import async_playwright

    rng = random.Random(args.seed)
    rngs = {s.number: random.Random(rng.random()) for s in students}
    waves = max(len(s.walk) for s in students)

    async def lesson(context) -> None:
        for number in range(waves):
            await one_wave(number, context, server_url, students, args, rngs)
            after_wave(number + 1)
        await end_of_lesson(server_url, students)
        await after(students)

    if not any(s.in_browser for s in students):
        await lesson(None)
        return
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(chromium_or_fail()), headless=True,
            args=[*CHROMIUM_ARGS, f"--renderer-process-limit={args.renderers}",
                  "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                  "--disable-backgrounding-occluded-windows"])
        context = await browser.new_context(viewport={"width": 1024, "height": 768})
        await context.add_init_script(_WATCH_WIDGET_JS)

        async def local_only(route):
            await route.abort()
        # a pattern, not a Python function: Chromium's requests need no round trip to here
        await context.route(re.compile(r"^https?://(?!(127\.0\.0\.1|localhost)[:/])"),
                            local_only)
        await lesson(context)
        await context.close()
        await browser.close()


async def come_back(server_url: str, students: list[Student]) -> tuple[list[bool], list[bool]]:
    """The students who walked away come back and click: each page left open must have lost
    its kernel (and, in Chromium, say so)."""
    from tornado.httpclient import AsyncHTTPClient
    lost, told = [], []
    for s in students:
        if s.tab is None or not s.visits or s.visits[-1].widget_seconds is None:
            continue
        if not s.in_browser:
            answer = await AsyncHTTPClient().fetch(
                f"{server_url}/api/kernels/{s.visits[-1].kernel_id}", raise_error=False)
            lost.append(answer.code == 404)
            s.tab.close()
        else:
            try:
                await s.tab.mouse.click(3, 3)
                await s.tab.wait_for_selector("#pl-idle-notice:not([hidden])", timeout=15_000)
                told.append(True)
            except Exception:
                told.append(False)
    return lost, told


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


def pool_kernels_of(log: Path, since: int) -> int:
    """The pools' kernels, as the server printed them at its start (app/voila.py)."""
    text = log.read_bytes()[since:].decode(errors="replace")      # since: a size in bytes
    found = re.search(r"Pools of ready kernels: (\d+) kernels", text)
    if not found:
        raise RuntimeError(f"the server did not print its pools (see {log})")
    return int(found.group(1))


def wave_line(number: int, students: list[Student], sample: Sample, pools: int) -> tuple[str, bool]:
    visits = [v for s in students for v in s.visits if v.wave == number]
    shown = [v.widget_seconds for v in visits if v.widget_seconds is not None]
    on_a_page = sum(1 for v in visits if v.kernel_id)
    within = sum(1 for t in shown if t <= GOAL_SECONDS)
    aimed = sum(1 for t in shown if t <= AIM_SECONDS)
    ok = sample.kernels <= pools + on_a_page
    return (f"wave {number} ({len(visits)} pages opened): time to widget {summary(shown, 's')}"
            f" ({within} within {GOAL_SECONDS:.0f} s, {aimed} within {AIM_SECONDS:.0f} s); "
            f"kernels alive {sample.kernels} (pools {pools} + {on_a_page} students on a page: "
            f"{'within' if ok else 'MORE THAN'} that); memory {sample.rss_mb:.0f} MB"), ok


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30, help="students in the class (30)")
    parser.add_argument("--idle", type=int, default=180,
                        help="seconds before an idle page is closed, for this run (180; more "
                             "than --stay, or pages without clicks close as the class moves on)")
    parser.add_argument("--stay", type=float, default=120.0,
                        help="seconds from a wave's start until the class goes on (120: a "
                             "brisk lesson; a real one spends several minutes on a page)")
    parser.add_argument("--clicks", type=int, default=4,
                        help="clicks per student on a step-through page (4)")
    parser.add_argument("--pause", type=float, default=2.0,
                        help="seconds a student waits between clicks, on average (2)")
    parser.add_argument("--spread", type=float, default=5.0,
                        help="the students open a wave's page within this many seconds (5)")
    parser.add_argument("--browsers", type=int, default=4,
                        help="how many of the students use Chromium (4: one per game); the "
                             "others make the same requests without a browser, as each "
                             "student's browser would run on the student's own computer")
    parser.add_argument("--renderers", type=int, default=4,
                        help="Chromium renderer processes shared by the pages (4)")
    parser.add_argument("--widget-limit", type=float, default=180.0,
                        help="give up on a page after this many seconds (180)")
    parser.add_argument("--clients-nice", type=int, default=0,
                        help="CPU priority of the clients once the server runs, 0 (the "
                             "server's: the browsers' drawing takes CPU from the server, so the "
                             "times read high) to 19 (the lowest: only what the server leaves, "
                             "so the Chromium pages' own times read far too high)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the students' pauses")
    args = parser.parse_args(argv)
    for name in ("students", "idle", "clicks", "renderers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if not 0 <= args.clients_nice <= 19:
        parser.error("--clients-nice must be between 0 and 19")
    if not 0 <= args.browsers <= args.students:
        parser.error("--browsers must be between 0 and --students")
    if args.stay <= 0 or args.spread < 0 or args.pause < 0:
        parser.error("--stay must be more than 0, --spread and --pause 0 or more")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    games = list(STEP_THROUGH)
    order = lesson_order([str(p.relative_to(NOTEBOOKS)) for p in NOTEBOOKS.rglob("*.ipynb")])
    students = [Student(i + 1, student_walk(i, games, order), walks_away=(i % 2 == 1),
                        in_browser=(i < args.browsers)) for i in range(args.students)]
    logs = REPO / "build" / "app-load"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / "voila.log"
    print(f"App load: a class of {args.students} ({args.browsers} in Chromium), five pages each "
          f"in waves {args.stay:.0f} s apart; idle time {args.idle} s; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f} before starting (a shared machine: other "
          "work runs too)", flush=True)
    with tempfile.TemporaryDirectory(prefix="app-load-") as home:
        since = log.stat().st_size if log.exists() else 0
        server = voila_server(NOTEBOOKS, Path(home), log,
                              extra_env={"PANGAEA_APP_IDLE": str(args.idle),
                                         "PANGAEA_APP_CLASS": str(args.students)})
        started = time.monotonic()
        server.start()
        # the server and the kernels it starts keep their priority; the clients (this process,
        # Playwright and Chromium, all started from here on) give way to them
        os.nice(args.clients_nice)
        print(f"the clients (this script and its browsers) run at nice {args.clients_nice}",
              flush=True)
        try:
            report = lesson_with_server(args, server, students, pool_kernels_of(log, since),
                                        started)
        finally:
            server.stop()
    return final_report(args, students, report, log)


def lesson_with_server(args, server, students: list[Student], pools: int,
                       started: float) -> dict:
    """Warm-up, the lesson, the idle time: what the report needs."""
    memory = Memory(server.process.pid)
    warm = wait_until_quiet(memory, pools, limit=1800)
    start = memory.now()
    server_mb = _rss_kb(server.process.pid) / 1024
    print(f"warm-up: pools ready and server quiet after {time.monotonic() - started:.0f} s "
          f"({warm:.0f} s after the server answered); {start.kernels} kernels (the pools: "
          f"{pools}), {start.rss_mb:.0f} MB (the server {server_mb:.0f} MB, a kernel "
          f"{(start.rss_mb - server_mb) / max(1, start.kernels):.0f} MB on average)", flush=True)
    memory.phase = "class"
    memory.start()
    report: dict = {"start": start, "pools": pools, "waves_ok": [], "cpu": {}}
    cpu_before = memory.cpu()

    def after_wave(number: int) -> None:
        line, ok = wave_line(number, students, memory.now(), pools)
        report["waves_ok"].append(ok)
        print(line, flush=True)

    async def after(done: list[Student]) -> None:
        memory.phase = "after"
        await asyncio.sleep(3)
        report["left"] = memory.now()
        report["cpu"] = {"server": memory.cpu() - cpu_before, "seconds": time.monotonic() - t0}
        print(f"lesson over; {report['left'].kernels} kernels, {report['left'].rss_mb:.0f} MB; "
              f"waiting for the idle time ({args.idle} s) and the pools to settle...",
              flush=True)
        memory.phase = "idle"
        # the idle time, two rounds of the culler (app/voila.py: every quarter of the idle
        # time, at most a minute), then the pools back to their sizes and the server quiet
        await asyncio.sleep(args.idle + 2 * max(1, min(60, args.idle // 4)) + 5)
        limit = time.monotonic() + 600
        while memory.now().kernels > pools and time.monotonic() < limit:
            await asyncio.sleep(2)
        await asyncio.to_thread(wait_until_quiet, memory, pools, 600)
        report["idle"] = memory.now()
        report["lost"], report["told"] = await come_back(server.url, done)

    t0 = time.monotonic()
    asyncio.run(run_lesson(args, server.url, students, after_wave, after))
    memory.stop()
    report["peak"] = memory.peak("class")
    return report


def slow_pages(students: list[Student]) -> list[tuple[Student, Visit]]:
    """The pages whose widgets took longer than the goal, to find in the server's log (its
    lines carry the time of day)."""
    return [(s, v) for s in students for v in s.visits
            if v.widget_seconds is not None and v.widget_seconds > GOAL_SECONDS]


def final_report(args, students: list[Student], report: dict, log: Path) -> int:
    visits = [v for s in students for v in s.visits]
    shown = [v.widget_seconds for v in visits if v.widget_seconds is not None]
    within = sum(1 for t in shown if t <= GOAL_SECONDS)
    clicks = [ms for s in students for ms in s.clicks_ms]
    missed = sum(s.missed_clicks for s in students)
    start, left, idle, peak = report["start"], report["left"], report["idle"], report["peak"]
    pools = report["pools"]
    print(f"time to widget, every page: {summary(shown, 's')} ({within} of {len(visits)} "
          f"pages within {GOAL_SECONDS:.0f} s)")
    for label, chosen in (("in Chromium, widgets drawn", True),
                          ("without a browser, widgets' state", False)):
        values = [v.widget_seconds for s in students if s.in_browser == chosen
                  for v in s.visits if v.widget_seconds is not None]
        if values:
            print(f"  {label}: {summary(values, 's')} ({len(values)} pages)")
    ended = [t for s in students for t in s.ended_s]
    if ended:
        print(f"from a leave request to its kernel's end (browserless students): "
              f"{summary(ended, 's')} ({len(ended)} pages left)")
    print(f"click to redraw: {summary(clicks, 's', 1 / 1000)} ({len(clicks)} clicks"
          f"{f', {missed} without a redraw in 30 s' if missed else ''})")
    print(f"server memory: start {start.rss_mb:.0f} MB ({start.kernels} kernels); peak during "
          f"the lesson {peak.rss_mb if peak else 0:.0f} MB ({peak.kernels if peak else 0} "
          f"kernels); lesson over {left.rss_mb:.0f} MB ({left.kernels} kernels); after the idle "
          f"time {idle.rss_mb:.0f} MB ({idle.kernels} kernels; the pools hold {pools})")
    lost, told = report["lost"], report["told"]
    print(f"pages left open: {sum(lost)} of {len(lost)} without a browser lost their kernel"
          + (f", {sum(told)} of {len(told)} in Chromium say they were closed" if told else ""))
    print(f"CPU of the server and its kernels during the lesson: {report['cpu']['server']:.0f} s "
          f"in {report['cpu']['seconds']:.0f} s ({os.cpu_count()} cores shared with other "
          f"work); load average now {os.getloadavg()[0]:.2f}; server log: {log}")
    for student, visit in slow_pages(students):
        html = f"{visit.html_seconds:.2f} s" if visit.html_seconds is not None else "never"
        print(f"over {GOAL_SECONDS:.0f} s: student {student.number} "
              f"({'Chromium' if student.in_browser else 'no browser'}), wave {visit.wave}, "
              f"{visit.page}, set off at {time.strftime('%H:%M:%S', time.localtime(visit.began))}"
              f": page received after {html}, widgets after {visit.widget_seconds:.2f} s")
    problems = [f"student {s.number}: {p}" for s in students for p in s.problems]
    for problem in problems:
        print("problem:", problem)
    goals = {
        f"every page shows its widgets within {GOAL_SECONDS:.0f} s": within == len(visits),
        "after each wave, kernels alive <= the pools' + students on a page":
            all(report["waves_ok"]),
        "after the lesson, kernels back to the pools'": idle.kernels <= pools,
        "after the lesson, memory back to the pools' level (within 10 %)":
            idle.rss_mb <= start.rss_mb * 1.10,
        "every tab left open lost its kernel, and says so": all(lost) and all(told),
    }
    for goal, met in goals.items():
        print(f"{'met    ' if met else 'MISSED '} {goal}")
    return 0 if all(goals.values()) and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
