"""A class logs in at once: N students on the classroom hub, each opening two notebooks.

``make hub-load N=30`` (as root; not part of ``make test``).  The script starts the classroom
hub as ``make test-hub`` does (tests/hub/hub_support.py: classroom/jupyterhub_config.py on free
ports, HTTPS with a certificate made for the run, a roster s01..sNN with generated passwords,
each student's server as their own system user ``pl-sNN`` from $PANGAEA_HUB_ROOT/env), waits
until it answers, then lets every student start at the same moment:

1. log in with their own password (the hub's login form);
2. wait for their server (the hub starts it as their own user) -- *server start*;
3. receive the course (nbgitpuller, what their start link does first);
4. open the start notebook and run its first cell, then open a game's first notebook (student
   i gets game i mod 4) and run its first cell -- *working* once both cells have shown their
   output (a widget in these notebooks).

A few students (``--browsers``, default 2) use a real headless Chromium each (a context of
their own in one browser): the login form, the hub's spawn page, the start link into
JupyterLab, Shift+Enter on the first cell of each notebook, and the output drawn.  The others
do over HTTP exactly what JupyterLab asks of their server -- the notebook's contents, a session
with a kernel, the first cell sent through the kernel's websocket -- without drawing anything:
thirty Chromium JupyterLabs would take the two cores from the hub they are meant to measure,
whereas in a classroom each browser runs on the student's own computer.  For the same reason,
once the hub is up, this script and its browsers run at the lowest priority (``--clients-nice``,
default 19): they take only what the hub and the students' servers leave of the two cores
(their clocks may then read late, never early).

It prints, per step, the median, 95th percentile and slowest time (seconds from the login
click); the CPU seconds each student's own processes used per step (their server, with the
git it ran, and their kernels: unlike wall seconds, these hardly change with how busy the
machine is); the memory of the hub and of all the students' servers and kernels (the sum of
proportional set sizes, /proc/<pid>/smaps_rollup, over the hub's processes) before, at the
peak and at the end; and the machine's load average at the start and the end.  The goal:
every student working within 60 s.  The exit status is 1 when it is missed.  The hub is then
stopped, the pl-sNN users it made are removed with their folders and control groups.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import pwd
import signal
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "hub"))
sys.path.insert(0, str(REPO / "classroom"))

from hub_support import (PAGE, SPAWN, Hub, alive, descendants, execute,  # noqa: E402
                         hub_api, log_in, pull_course, wait_for)
from roster import system_user  # noqa: E402

GOAL_SECONDS = 60.0
START_NOTEBOOK = "course/00_start_here.ipynb"
GAME_NOTEBOOKS = ("course/pangaea/01_setup.ipynb", "course/harmonies/01_setup_and_turns.ipynb",
                  "course/forest_shuffle/01_setup_and_turns.ipynb",
                  "course/inori/01_setup_and_turns.ipynb")
STEPS = ("logged in", "server ready", "course received", "first notebook working", "working")
#: what a student's processes did between one step and the next (the CPU report's rows)
CPU_STEPS = {"server ready": "server start", "course received": "course (nbgitpuller)",
             "first notebook working": "first notebook (kernel, cell)",
             "working": "second notebook (kernel, cell)"}
WIDGET = "application/vnd.jupyter.widget-view+json"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


@dataclass
class Student:
    name: str
    password: str
    notebooks: tuple[str, str]
    browser: bool = False
    times: dict[str, float] = field(default_factory=dict)   # step -> s after the login click
    cpu: dict[str, tuple[float, float]] = field(default_factory=dict)  # step -> student_cpu
    widgets: int = 0
    retries: int = 0            # in Chromium: Shift+Enter again, a kernel question answered
    error: str = ""

    def mark(self, step: str, began: float, hub_pid: int) -> None:
        """``step`` reached: the time since the login click, the CPU used so far."""
        self.times[step] = time.monotonic() - began
        self.cpu[step] = student_cpu(hub_pid, self.name)


# ----- memory and load -------------------------------------------------------------------------


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _uid(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Uid:"):
                return int(line.split()[1])
    except OSError:
        pass
    return -1


def memory_mb(hub_pid: int) -> tuple[float, float]:
    """(the hub's side: hub, proxy, culler; the students': servers and kernels), in MB of
    proportional set size.  A student's processes run as their own user, the hub's as root."""
    hub_side = students = 0
    for pid in [hub_pid, *descendants(hub_pid)]:
        if _uid(pid) == os.getuid():
            hub_side += _pss_kb(pid)
        else:
            students += _pss_kb(pid)
    return hub_side / 1024, students / 1024


def _cpu_seconds(pid: int, waited: bool = False) -> float:
    """A process's CPU time (user and system), with ``waited`` also that of the programs it
    ran and waited for (git for nbgitpuller)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        used = int(fields[11]) + int(fields[12])
        if waited:
            used += int(fields[13]) + int(fields[14])
        return used / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def student_cpu(hub_pid: int, name: str) -> tuple[float, float]:
    """CPU seconds one student's processes (run as their system user) used so far: (their
    server with what it ran, their kernels).  A kernel that ended is no longer counted."""
    try:
        uid = pwd.getpwnam(system_user(name)).pw_uid
    except KeyError:                         # the hub has not made the user yet
        return 0.0, 0.0
    server = kernels = 0.0
    for pid in descendants(hub_pid):
        if _uid(pid) != uid:
            continue
        try:
            kernel = b"ipykernel" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if kernel:
            kernels += _cpu_seconds(pid)
        else:
            server += _cpu_seconds(pid, waited=True)
    return server, kernels


class Sampler:
    """The hub's memory every few seconds, keeping the peak of the total, and the CPU time
    its processes used (each process's last reading is kept once it has ended)."""

    def __init__(self, hub_pid: int, every: float = 3.0) -> None:
        self.hub_pid, self.every = hub_pid, every
        self.peak = (0.0, 0.0)
        self.cpu: dict[int, tuple[bool, float]] = {}      # pid -> (a student's?, seconds)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.sample()

    def sample(self) -> None:
        now = memory_mb(self.hub_pid)
        if sum(now) > sum(self.peak):
            self.peak = now
        for pid in [self.hub_pid, *descendants(self.hub_pid)]:
            used = _cpu_seconds(pid)
            if used:
                self.cpu[pid] = (_uid(pid) != os.getuid(), used)

    def cpu_used(self) -> tuple[float, float]:
        """CPU seconds used since the start: (the hub's side, the students')."""
        return (sum(s for student, s in self.cpu.values() if not student),
                sum(s for student, s in self.cpu.values() if student))

    def start(self) -> None:
        self.sample()
        self.base = self.cpu_used()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        self.sample()


# ----- a student over HTTP (what JupyterLab asks of their server) ------------------------------


def first_code_cell(notebook: dict) -> str:
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            source = cell.get("source", "")
            return "".join(source) if isinstance(source, list) else source
    raise RuntimeError("the notebook has no code cell")


def open_notebook(hub: Hub, name: str, token: str, path: str) -> int:
    """Open ``path`` as JupyterLab does (its contents, a session with a kernel) and run its
    first cell through the kernel's websocket; 1 if it showed a widget, else 0."""
    user = f"{hub.url}/user/{name}/api"
    headers = {"Authorization": f"token {token}"}
    contents = requests.get(f"{user}/contents/{path}?content=1&type=notebook", headers=headers,
                            verify=str(hub.cert), timeout=PAGE)
    if contents.status_code != 200:
        raise RuntimeError(f"{path}: contents answered {contents.status_code}")
    session = requests.post(f"{user}/sessions", headers=headers, verify=str(hub.cert),
                            timeout=PAGE, json={"path": path, "name": Path(path).name,
                                                "type": "notebook",
                                                "kernel": {"name": "python3"}})
    if session.status_code != 201:
        raise RuntimeError(f"{path}: a session answered {session.status_code}")
    code = first_code_cell(contents.json()["content"])
    answers = asyncio.run(execute(hub, name, token, session.json()["kernel"]["id"], code))
    kinds = [message["header"]["msg_type"] for message in answers]
    if "error" in kinds:
        error = next(m for m in answers if m["header"]["msg_type"] == "error")["content"]
        raise RuntimeError(f"{path}: the first cell failed: {error['ename']}: {error['evalue']}")
    shown = [m for m in answers
             if m["header"]["msg_type"] in ("display_data", "execute_result", "stream")]
    if not shown:
        raise RuntimeError(f"{path}: the first cell showed nothing ({', '.join(kinds)})")
    return int(any(WIDGET in m["content"].get("data", {}) for m in shown))


def start_server(hub: Hub, session: requests.Session, name: str) -> str:
    """Start ``name``'s server and follow its progress as the hub's spawn page does (one
    event stream, not a question to the hub every second); an API token of theirs for it."""
    started = hub_api(hub, session, "POST", f"/users/{name}/server")
    if started.status_code not in (201, 202):
        raise RuntimeError(f"the server's start answered {started.status_code}")
    xsrf = session.cookies.get("_xsrf", path="/hub/") or session.cookies.get("_xsrf") or ""
    with session.get(f"{hub.url}/hub/api/users/{name}/server/progress", stream=True,
                     headers={"X-XSRFToken": xsrf}, timeout=SPAWN) as progress:
        events = [json.loads(line[len(b"data:"):]) for line in progress.iter_lines()
                  if line.startswith(b"data:")]
    if not any(event.get("ready") for event in events):
        raise RuntimeError("the server did not start: "
                           + (events[-1].get("message", "") if events else "no progress"))
    token = hub_api(hub, session, "POST", f"/users/{name}/tokens",
                    json={"note": "hub-load", "expires_in": 3600})
    if token.status_code not in (200, 201):
        raise RuntimeError(f"a token for the server answered {token.status_code}")
    return token.json()["token"]


def http_student(hub: Hub, student: Student, go: threading.Event) -> None:
    go.wait()
    began = time.monotonic()
    mark = lambda step: student.mark(step, began, hub.process.pid)  # noqa: E731
    try:
        session = log_in(hub, student.name, student.password)
        if not session.logged_in:
            raise RuntimeError("the login was refused")
        mark("logged in")
        token = start_server(hub, session, student.name)
        mark("server ready")
        pulled = pull_course(hub, student.name, token)
        if '"phase": "error"' in pulled:
            raise RuntimeError("the course did not arrive: " + pulled[-300:])
        mark("course received")
        for number, path in enumerate(student.notebooks):
            student.widgets += open_notebook(hub, student.name, token, path)
            mark(("first notebook working", "working")[number])
    except Exception as error:              # reported with the student's name, not raised
        student.error = f"{type(error).__name__}: {(str(error).splitlines() or [''])[0][:300]}"


# ----- a student in Chromium (JupyterLab) -----------------------------------------------------


CURRENT_TAB = ".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current"


#: the status bar names the current notebook's kernel and its state, "Python 3 (ipykernel) |
#: Idle", once the kernel answers (the toolbar's indicator already reads idle with no kernel)
KERNEL_IDLE = "() => /[|]\\s*Idle/.test(document.querySelector('#jp-main-statusbar')?.innerText)"


async def run_first_cell(page, student: Student, path: str, wait_ms: int) -> int:
    """Shift+Enter on the first code cell of the notebook ``path`` (the current tab), once the
    status bar says its kernel is idle, as a student waits for it; again if the kernel was not
    listening yet (answering JupyterLab's "Select Kernel" question, asked when a kernel was
    slow to start, as a student would); wait for the output drawn; 1 if a widget was drawn in
    it, else 0."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout   # the browser extra
    tab = page.locator(CURRENT_TAB, has_text=Path(path).name)
    await tab.wait_for(timeout=wait_ms)
    panel = f'[id="{await tab.get_attribute("data-id")}"]'
    await page.wait_for_function(KERNEL_IDLE, timeout=wait_ms)
    cell = page.locator(f"{panel} .jp-CodeCell").first
    deadline = time.monotonic() + wait_ms / 1000
    while time.monotonic() < deadline:
        question = page.locator(".jp-Dialog .jp-mod-accept")
        if await question.count():
            await question.first.click()
            student.retries += 1
        try:                             # "[ ]:" becomes "[*]:" once the kernel takes it
            await cell.locator(".jp-InputArea-editor").click(timeout=15_000)
            await page.keyboard.press("Shift+Enter")
            await page.wait_for_function(
                "cell => !cell.querySelector('.jp-InputPrompt').textContent.includes('[ ]')",
                arg=await cell.element_handle(), timeout=15_000)
            break
        except PlaywrightTimeout:
            student.retries += 1
    await cell.locator(".jp-OutputArea-output").first.wait_for(timeout=wait_ms)
    return min(1, await cell.locator(".jp-OutputArea-output .jupyter-widgets").count())


async def open_in_file_browser(page, path: str) -> None:
    """Open ``path`` (inside the home folder) as a student does: from the home folder in
    JupyterLab's file browser, a double click on each folder, then on the notebook."""
    await page.locator(".jp-FileBrowser .jp-BreadCrumbs-home").click()
    for part in Path(path).parts:
        await page.locator(".jp-DirListing-content").get_by_text(part, exact=True).dblclick()


async def chromium_student(browser, hub: Hub, student: Student, began: float) -> None:
    wait_ms = SPAWN * 1000
    mark = lambda step: student.mark(step, began, hub.process.pid)  # noqa: E731
    context = await browser.new_context(ignore_https_errors=True,
                                        viewport={"width": 1280, "height": 900})
    context.set_default_timeout(wait_ms)       # a slow hub is measured, not given up on
    page = await context.new_page()
    try:
        await page.goto(hub.url + "/hub/login", timeout=wait_ms)
        await page.fill("input[name=username]", student.name)
        await page.fill("input[name=password]", student.password)
        await page.click("[type=submit]")
        await page.wait_for_url(lambda url: "/hub/login" not in url, timeout=wait_ms)
        mark("logged in")
        server = f"{hub.url}/user/{student.name}/"
        await page.wait_for_url(lambda url: url.startswith(server), timeout=wait_ms)
        mark("server ready")
        await page.wait_for_url(lambda url: url.startswith(server + "lab"), timeout=wait_ms)
        mark("course received")
        student.widgets += await run_first_cell(page, student, student.notebooks[0], wait_ms)
        mark("first notebook working")
        await open_in_file_browser(page, student.notebooks[1])
        student.widgets += await run_first_cell(page, student, student.notebooks[1], wait_ms)
        mark("working")
    except Exception as error:
        student.error = f"{type(error).__name__}: {(str(error).splitlines() or [''])[0][:300]}"
        shot = hub.log.parent / f"{student.name}.png"
        try:
            await page.screenshot(path=str(shot))
            student.error += f" (the page: {shot})"
        except Exception:               # the page may be gone with the browser
            pass
    finally:
        await context.close()


def chromium_students(hub: Hub, students: list[Student], go: threading.Event,
                      ready: threading.Event) -> None:
    """Every Chromium student, in one browser started before the class begins."""
    async def main() -> None:
        from playwright.async_api import async_playwright                # the browser extra
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=os.environ.get("PANGAEA_CHROMIUM", "/usr/bin/chromium"),
                args=CHROMIUM_ARGS)
            ready.set()
            await asyncio.get_running_loop().run_in_executor(None, go.wait)
            began = time.monotonic()
            await asyncio.gather(*(chromium_student(browser, hub, s, began) for s in students))
            await browser.close()
    try:
        asyncio.run(main())
    except Exception as error:
        for student in students:
            student.error = student.error or f"Chromium: {type(error).__name__}: {error}"
    finally:
        ready.set()


# ----- the class: start, report, clean up ------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]     # nearest rank


def step_cpu(student: Student, step: str) -> float | None:
    """CPU seconds the student's processes used between the step before ``step`` and it."""
    if step not in student.cpu:
        return None
    steps = list(CPU_STEPS)
    before = steps[steps.index(step) - 1] if steps.index(step) else None
    return sum(student.cpu[step]) - (sum(student.cpu[before]) if before else 0.0)


def report_cpu(students: list[Student]) -> None:
    """CPU seconds of each student's own processes, step by step (the median over the students
    who reached the step; over HTTP and in Chromium apart: JupyterLab asks its server for more
    than the HTTP students do), then the whole start split between server and kernels."""
    groups = {kind: group for kind, group in (
        ("over HTTP", [s for s in students if not s.browser]),
        ("in Chromium", [s for s in students if s.browser])) if group}

    def row(values: list[list[float]]) -> str:
        return "".join(f"{statistics.median(v):13.2f}" if v else f"{'-':>13}" for v in values)

    print(f"{'CPU seconds per student (their server and kernels), median':<60}"
          + "".join(f"{kind:>13}" for kind in groups))
    for step, label in CPU_STEPS.items():
        print(f"  {label:<58}" + row([[x for x in (step_cpu(s, step) for s in group)
                                       if x is not None] for group in groups.values()]))
    for label, index in (("all steps: the server", 0), ("all steps: the kernels", 1)):
        print(f"  {label:<58}" + row([[s.cpu["working"][index] for s in group
                                       if "working" in s.cpu] for group in groups.values()]))


def report(students: list[Student], memory: dict[str, tuple[float, float]],
           cpu: tuple[float, float], loads: dict[str, tuple[float, ...]], goal: float,
           browsers: int) -> bool:
    """Print the figures; whether every student was working within ``goal`` seconds."""
    count = len(students)
    print(f"\n{count} students on {os.cpu_count()} cores: {browsers} in headless Chromium "
          f"(JupyterLab, Shift+Enter on each notebook's first cell), {count - browsers} over HTTP "
          "(session and kernel through the server's API, first cell through the kernel's "
          "websocket)")
    print(f"{'seconds after the login click':<32}{'median':>8}{'95th':>8}{'slowest':>9}"
          f"{'done':>7}")
    for step in STEPS:
        times = [s.times[step] for s in students if step in s.times]
        if times:
            print(f"  {step:<30}{statistics.median(times):8.1f}"
                  f"{percentile(times, 0.95):8.1f}{max(times):9.1f}{len(times):>5}/{count}")
        else:
            print(f"  {step:<30}{'-':>8}{'-':>8}{'-':>9}{0:>5}/{count}")
    widgets = sum(s.widgets for s in students)
    print(f"first cells that showed a widget: {widgets} of {2 * count} notebooks (the others "
          "showed text or a drawing)")
    if browsers:
        retries = sum(s.retries for s in students)
        print(f"in Chromium, a cell run again or a kernel question answered: {retries} "
              f"time{'' if retries == 1 else 's'}")
    served = max(1, sum("server ready" in s.times for s in students))
    print(f"memory (proportional set size; 'each': per student whose server started, {served})")
    for moment, (hub_side, students_mb) in memory.items():
        print(f"  {moment:<22} hub, proxy, culler {hub_side:5.0f} MB   students "
              f"{students_mb:6.0f} MB ({students_mb / served:4.0f} MB each)   total "
              f"{hub_side + students_mb:6.0f} MB")
    report_cpu(students)
    cores = os.cpu_count() or 1
    print(f"CPU time used in the class: hub, proxy, culler {cpu[0]:.0f} s; students' servers "
          f"and kernels {cpu[1]:.0f} s ({cpu[1] / count:.1f} s per student): on {cores} idle "
          f"cores that alone takes {sum(cpu) / cores:.0f} s")
    for moment, load in loads.items():
        print(f"load average {moment:<6} " + " ".join(f"{x:.2f}" for x in load)
              + " (1, 5, 15 min)")
    late = [s for s in students if s.error or s.times.get("working", goal + 1) > goal]
    for student in late:
        print(f"  {student.name}: " + (student.error or
                                       f"working after {student.times['working']:.1f} s"))
    verdict = "met" if not late else f"missed by {len(late)} of {count}"
    print(f"goal (all {count} working within {goal:.0f} s): {verdict}")
    return not late


def class_of(count: int, browsers: int, passwords: dict[str, str]) -> list[Student]:
    names = [f"s{i:02d}" for i in range(1, count + 1)]
    spread = max(1, count // max(1, browsers)) if browsers else 0
    chosen = {names[i * spread] for i in range(browsers)} if browsers else set()
    return [Student(name, passwords[name], (START_NOTEBOOK, GAME_NOTEBOOKS[i % 4]),
                    browser=name in chosen) for i, name in enumerate(names)]


def run_class(hub: Hub, students: list[Student], sampler: Sampler) -> None:
    """Everyone starts at the same moment; returns when every student is done or gave up."""
    go, chromium_ready = threading.Event(), threading.Event()
    threads = [threading.Thread(target=http_student, args=(hub, s, go), daemon=True)
               for s in students if not s.browser]
    in_chromium = [s for s in students if s.browser]
    if in_chromium:
        threads.append(threading.Thread(target=chromium_students, daemon=True,
                                        args=(hub, in_chromium, go, chromium_ready)))
    else:
        chromium_ready.set()
    for thread in threads:
        thread.start()
    chromium_ready.wait(timeout=SPAWN)
    sampler.start()
    go.set()
    for thread in threads:
        thread.join(timeout=SPAWN + 3 * PAGE)


def remove_control_groups(names: list[str]) -> None:
    """The students' (empty) control groups, made by the hub's spawner."""
    for root in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/memory"),
                 Path("/sys/fs/cgroup/cpu")):
        for name in names:
            try:
                (root / "pangaea-lab" / name).rmdir()
            except OSError:
                pass


def stop_hub(hub: Hub, names: list[str]) -> None:
    family = descendants(hub.process.pid)
    code = hub.stop()
    left = [pid for pid in family if alive(pid)]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if code or left:
        print(f"the hub ended with code {code}; {len(left)} process(es) it left were ended")
    remove_control_groups(names)
    hub.clean_up(names)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30, help="how many (1 to 99)")
    parser.add_argument("--browsers", type=int, default=2,
                        help="how many of them use a real Chromium (default 2)")
    parser.add_argument("--clients-nice", type=int, default=19,
                        help="the priority this script and its browsers run at once the hub "
                             "is up (19, the lowest: in a classroom the students' browsers run "
                             "on their own computers, so the hub's cores are measured without "
                             "them; 0 puts them on an equal footing with the hub)")
    parser.add_argument("--goal", type=float, default=GOAL_SECONDS,
                        help="seconds within which everyone must be working (default 60)")
    args = parser.parse_args(argv)
    if not 1 <= args.students <= 99:
        parser.error("--students must be between 1 and 99")
    if not 0 <= args.browsers <= args.students:
        parser.error("--browsers must be between 0 and --students")
    if not 0 <= args.clients_nice <= 19:
        parser.error("--clients-nice must be between 0 and 19")
    if args.goal <= 0:
        parser.error("--goal must be a positive number of seconds")
    if os.geteuid() != 0:
        parser.error("the classroom hub makes a system user per student: run this as root")
    names = [f"s{i:02d}" for i in range(1, args.students + 1)]
    logs = REPO / "build" / "hub-load-logs"           # kept: the hub's log of the last run
    logs.mkdir(parents=True, exist_ok=True)
    hub = Hub("# load test\n" + "\n".join(names) + "\n", {}, logs)
    loads = {"start": os.getloadavg()}
    try:
        wait_for("the hub did not answer /hub/health", hub.healthy, SPAWN, hub.log)
        memory = {"before the class": memory_mb(hub.process.pid)}
        students = class_of(args.students, args.browsers, hub.passwords())
        # the hub and everything it starts keep their priority; the clients that stand for the
        # students' own computers (this process, its threads, Playwright and Chromium, all
        # started from here on) give way to them
        os.nice(args.clients_nice)
        print(f"the clients (this script and its browsers) run at nice {args.clients_nice}",
              flush=True)
        sampler = Sampler(hub.process.pid)
        print(f"hub ready at {hub.url}; {args.students} students start now", flush=True)
        run_class(hub, students, sampler)
        sampler.stop()
        end = memory_mb(hub.process.pid)
        memory["at the peak"] = max(sampler.peak, end, key=sum)
        memory["with everyone working"] = end
        loads["end"] = os.getloadavg()
        cpu = tuple(now - before for now, before in zip(sampler.cpu_used(), sampler.base))
        met = report(students, memory, cpu, loads, args.goal, args.browsers)
    finally:
        stop_hub(hub, names)
        print(f"the hub's log: {hub.log}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
