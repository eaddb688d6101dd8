"""Servers and page checks shared by the browser tests.

JupyterLab and Voilà run as child processes on free localhost ports; Playwright drives the
system Chromium.  Every check raises ``AssertionError`` with a sentence saying what a learner
would have seen go wrong, so the same functions serve the real tests and the demonstration
that a broken widget is caught (``test_browser_catches_breakage.py``).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from processes import descendants as _children  # noqa: E402
from processes import free_port  # noqa: E402,F401  (used by the tests too)
NOTEBOOKS = REPO / "notebooks"
APP = REPO / "app"                # the classroom app's settings and page template
SCREENSHOTS = REPO / "build" / "screenshots"

#: the notebook of each game that shows the step-through widget, and the Land Ritual one
STEP_THROUGH = {
    "pangaea": "pangaea/02_turns.ipynb",
    "harmonies": "harmonies/01_setup_and_turns.ipynb",
    "forest_shuffle": "forest_shuffle/01_setup_and_turns.ipynb",
    "inori": "inori/01_setup_and_turns.ipynb",
}
RITUALS = "pangaea/03_land_rituals.ipynb"

CHROMIUM = Path(os.environ.get("PANGAEA_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

#: generous but bounded waits, in milliseconds
PAGE_LOAD = 180_000       # a page whose notebook runs on the server first (Voilà)
RUN_ALL = 240_000         # every cell of a notebook in JupyterLab
WIDGET = 60_000           # a widget to appear once its cell has run
CLICK = 30_000            # the kernel to answer a click and the picture to change


def chromium_or_fail() -> Path:
    """The system Chromium, or a clear failure saying how to get it."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        raise FileNotFoundError(
            f"Chromium was not found at {CHROMIUM}. The browser tests use the system Chromium, "
            "never a downloaded one: install it with `apt-get install chromium` (make "
            "test-browser does this when run as root), or set PANGAEA_CHROMIUM to its path.")
    return CHROMIUM


def keep_local(context: Any) -> None:
    """Let the browser reach localhost only.  Voilà's standard page links the Font Awesome
    stylesheets from a CDN (the app's own template, pangaea-lab, leaves them out, and
    test_browser_access.py checks that no outside request is made); should such a request
    come, it is answered with an empty stylesheet.  Any other outside request is refused, so
    it shows up as a failed request in the checks."""
    def route(request_route: Any) -> None:
        url = request_route.request.url
        if "/@fortawesome/fontawesome-free" in url and url.endswith(".css"):
            request_route.fulfill(status=200, content_type="text/css", body="")
        else:
            request_route.abort()
    context.route(re.compile(r"^https?://(?!(127\.0\.0\.1|localhost)[:/])"), route)


# ----- servers -------------------------------------------------------------------------------


@dataclass
class Server:
    """A Jupyter server (JupyterLab or Voilà) in its own process group.

    ``argv(port)`` gives the command line for a port; ``ready`` is a path that answers 200
    once the server can take requests.  :meth:`start` retries on a new port when the server
    dies early (for example when another process took the port in between)."""

    name: str
    argv: Callable[[int], list[str]]
    ready: str
    cwd: Path
    env: dict[str, str]
    log_path: Path
    port: int = 0
    process: subprocess.Popen | None = None
    _log: Any = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, attempts: int = 3, timeout: float = 120.0) -> Server:
        for attempt in range(1, attempts + 1):
            self.port = free_port()
            self._log = open(self.log_path, "ab")
            self._log.write(f"\n--- {self.name}, attempt {attempt}, port {self.port}\n".encode())
            self._log.flush()
            self.process = subprocess.Popen(self.argv(self.port), cwd=self.cwd, env=self.env,
                                            stdout=self._log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    with urllib.request.urlopen(self.url + self.ready, timeout=10) as answer:
                        if answer.status == 200:
                            return self
                except (OSError, urllib.error.URLError):
                    pass
                time.sleep(0.5)
            self.stop()
        tail = self.log_path.read_text(errors="replace")[-3000:]
        raise RuntimeError(f"{self.name} did not start in {attempts} attempts of {timeout:.0f} s; "
                           f"the end of its log ({self.log_path}):\n{tail}")

    def stop(self) -> None:
        """Stop the server, its kernels and anything else it started; never raises."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            family = _children(process.pid)
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                process.wait(timeout=20)
            time.sleep(0.5)
            for pid in family:          # kernels live in their own sessions
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        elif process is not None:
            process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None


def _jupyter_env(home: Path) -> dict[str, str]:
    """A fresh Jupyter configuration: no user settings, extensions' news or update checks,
    and no autosave (the served notebooks are a copy anyway)."""
    env = dict(os.environ)
    dirs = {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_RUNTIME_DIR": "runtime",
            "JUPYTERLAB_SETTINGS_DIR": "settings", "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
            "IPYTHONDIR": "ipython", "MPLCONFIGDIR": "matplotlib"}
    for var, sub in dirs.items():
        (home / sub).mkdir(parents=True, exist_ok=True)
        env[var] = str(home / sub)
    settings = {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
            {"checkForUpdates": False, "fetchNews": "false"},
        "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
        # every cell in the page, so the checks see every output
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    }
    for name, values in settings.items():
        path = home / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    env["PYTHONWARNINGS"] = "ignore"      # the kernels' warnings are not under test here
    return env


def copy_notebooks(target: Path) -> Path:
    """A throw-away copy of ``notebooks/`` to serve, so running cells never touches the
    repository."""
    shutil.copytree(NOTEBOOKS, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return target


def lab_server(root: Path, home: Path, log: Path) -> Server:
    token = secrets.token_hex(16)
    server = Server(
        name="JupyterLab",
        argv=lambda port: [sys.executable, "-m", "jupyterlab", "--no-browser",
                           "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
                           "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
                           "--ServerApp.allow_root=True", f"--ServerApp.root_dir={root}",
                           "--LabApp.expose_app_in_browser=True"],
        ready=f"/api/status?token={token}", cwd=root, env=_jupyter_env(home), log_path=log)
    server.token = token  # type: ignore[attr-defined]
    return server


def voila_argv(root: Path, port: int) -> list[str]:
    """The Voilà command line; ``make app`` serves the notebooks the same way: Voilà as
    app/classroom_app.py runs it, with the classroom settings of app/voila.py (see
    :func:`voila_server` for its environment)."""
    return [sys.executable, str(APP / "classroom_app.py"), str(root), "--no-browser",
            "--Voila.ip=127.0.0.1", f"--port={port}", "--Voila.port_retries=0", "--show_tracebacks=True",
            f"--Voila.config_file_paths={APP}"]


def voila_server(root: Path, home: Path, log: Path, extra_env: dict | None = None) -> Server:
    """Voilà as ``make app`` runs it; ``extra_env`` may set PANGAEA_APP_IDLE and
    PANGAEA_APP_POOL (see app/voila.py)."""
    from pangaea_lab.core.fonts import jupyter_path
    env = _jupyter_env(home)
    env["JUPYTER_PATH"] = jupyter_path()     # the app's own template (as make app runs it)
    env.update(extra_env or {})
    return Server(name="Voilà", argv=lambda port: voila_argv(root, port), ready="/",
                  cwd=root, env=env, log_path=log)


def running_voila(root: Path, home: Path, log: Path, extra_env: dict) -> Iterator[Server]:
    """A module fixture's body: :func:`voila_server` started, yielded, and stopped after."""
    server = voila_server(root, home, log, extra_env=extra_env)
    try:
        yield server.start()
    finally:
        server.stop()


def kernel_of(page: Any) -> str:
    """The id of the kernel a Voilà page was given (from the page's own settings)."""
    return page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data')"
                         ".textContent).kernelId")


# ----- pages ---------------------------------------------------------------------------------


class Watched:
    """A page with its console errors and uncaught exceptions recorded."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))
        page.on("requestfailed", lambda request: self.errors.append(
            f"request failed: {request.url} ({request.failure})"))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            where = message.location.get("url", "") if message.location else ""
            self.errors.append(f"console: {message.text}" + (f" ({where})" if where else ""))


def open_in_voila(watched: Watched, server: Server, notebook: str) -> None:
    """Render ``notebook`` (a path under the served folder) in Voilà and wait for the page."""
    page = watched.page
    page.goto(f"{server.url}/voila/render/{notebook}", wait_until="load", timeout=PAGE_LOAD)
    # Voilà runs the notebook on the server and sends its outputs within the page; the
    # widgets then render from the kernel's state, one after the other
    count = ("() => [document.querySelectorAll('.jupyter-widgets').length, "
             "document.querySelectorAll('.jp-OutputArea-output').length]")
    last, since = page.evaluate(count), time.monotonic()
    deadline = time.monotonic() + WIDGET / 1000
    while time.monotonic() < deadline and time.monotonic() - since < 2.0:
        page.wait_for_timeout(250)
        now = page.evaluate(count)
        if now != last:
            last, since = now, time.monotonic()
    wait_for_widgets(page)


_PAGE_STATE_JS = """
() => ({
  widgets: document.querySelectorAll('.jupyter-widgets').length,
  outputs: document.querySelectorAll('.jp-OutputArea-output').length,
  stepThrough: document.querySelectorAll('.pl-step-through').length,
  boards: document.querySelectorAll('.pl-step-through .pl-board').length,
  boardText: (document.querySelector('.pl-step-through .pl-board') || {innerHTML: ''})
      .innerHTML.slice(0, 200),
  notice: (document.getElementById('pl-idle-notice') || {hidden: true}).hidden ? '' :
      document.getElementById('pl-idle-notice').textContent.trim().slice(0, 200),
  text: document.body.innerText.slice(0, 600),
})
"""


def voila_page_with(watched: Watched, server: Server, notebook: str, selector: str,
                    where: str) -> None:
    """Open ``notebook`` in Voilà and wait until ``selector`` is visible.

    A page whose widget does not show is described (what the page holds, the server log's
    end) in the test's output and opened once more; a second failure fails the test with the
    description.  One miss is reported as a warning: it has been seen only on an overloaded
    machine, where the page's kernel was still being started."""
    page = watched.page
    for attempt in (1, 2):
        open_in_voila(watched, server, notebook)
        try:
            page.wait_for_selector(selector, timeout=WIDGET)
            return
        except Exception as exc:  # noqa: BLE001 - Playwright's TimeoutError
            state = page.evaluate(_PAGE_STATE_JS)
            log = server.log_path.read_text(errors="replace")[-3000:] \
                if server.log_path and server.log_path.exists() else ""
            shot = screenshot(page, f"missing_{re.sub(r'[^a-z0-9]+', '_', where.lower())}")
            described = (f"{where}: {selector} did not show within {WIDGET // 1000} s "
                         f"(attempt {attempt}; {type(exc).__name__}).\nThe page: {state}\n"
                         f"Screenshot: {shot}\nEnd of the server log:\n{log}")
            print(described, file=sys.stderr)
            if attempt == 2:
                raise AssertionError(described) from None
            warnings.warn(f"{where}: the page was opened a second time ({state})")


_RUN_ALL_JS = """
async ([path, timeout]) => {
  const app = window.jupyterapp;
  const started = Date.now();
  const pause = () => new Promise(r => setTimeout(r, 250));
  const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  if (!panel) return `the notebook ${path} did not open`;
  await panel.context.ready;
  await panel.sessionContext.ready;
  app.shell.activateById(panel.id);
  while (Date.now() - started < timeout) {
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    if (kernel && kernel.status === 'idle' && app.shell.currentWidget === panel) break;
    await pause();
  }
  await app.commands.execute('notebook:run-all-cells');
  while (Date.now() - started < timeout) {
    const kernel = panel.sessionContext.session.kernel;
    const cells = panel.content.widgets.filter(c => c.model.type === 'code');
    if (cells.every(c => c.model.executionCount !== null) && kernel.status === 'idle') return '';
    await pause();
  }
  return `the cells of ${path} did not finish running in ${timeout / 1000} s`;
}
"""

_CLOSE_ALL_JS = """
async () => {
  for (const w of Array.from(window.jupyterapp.shell.widgets('main'))) {
    if (w.sessionContext) await w.sessionContext.shutdown();
    if (w.context) w.context.model.dirty = false;
    w.dispose();
  }
}
"""

_LAB_OUTPUTS_JS = """
() => {
  const found = [];
  for (const w of Array.from(window.jupyterapp.shell.widgets('main'))) {
    if (!w.content || !w.content.widgets) continue;
    for (const cell of w.content.widgets) {
      if (cell.model.type !== 'code') continue;
      for (const out of cell.model.outputs.toJSON()) {
        if (out.output_type === 'error') found.push(`${out.ename}: ${out.evalue}`);
        if (out.output_type === 'stream' && out.name === 'stderr')
          found.push('stderr: ' + [].concat(out.text).join('').slice(0, 400));
      }
    }
  }
  return found;
}
"""


def open_lab(watched: Watched, server: Server) -> None:
    """Load JupyterLab in the tab (once; notebooks are then opened inside it)."""
    page = watched.page
    token = server.token  # type: ignore[attr-defined]
    page.goto(f"{server.url}/lab?reset&token={token}", wait_until="load", timeout=PAGE_LOAD)
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell && "
                           "window.jupyterapp.serviceManager.isReady", timeout=PAGE_LOAD)
    page.wait_for_selector(".jp-LabShell", timeout=PAGE_LOAD)


def open_in_lab(watched: Watched, notebook: str) -> None:
    """Open ``notebook`` in the loaded JupyterLab with a fresh kernel, run all cells, and wait
    for the widgets."""
    problem = watched.page.evaluate(_RUN_ALL_JS, [notebook, RUN_ALL])
    assert not problem, f"JupyterLab: {problem}"
    wait_for_widgets(watched.page)


def close_in_lab(watched: Watched) -> None:
    """Shut down the open notebooks' kernels and close them without saving."""
    try:
        watched.page.evaluate(_CLOSE_ALL_JS)
    except Exception:  # the page may be broken: that is what the test reports instead
        pass
    watched.errors.clear()


def wait_for_widgets(page: Any) -> None:
    """Every widget output on the page has rendered (or shows its error)."""
    page.wait_for_function(
        """() => {
          const outs = [...document.querySelectorAll(
              '[data-mime-type="application/vnd.jupyter.widget-view+json"]')];
          return outs.every(o => o.querySelector('.jupyter-widgets, .widget-error') ||
                                 o.textContent.includes('Error'));
        }""", timeout=WIDGET)


_ERROR_OUTPUTS_JS = """
() => {
  const found = [];
  for (const node of document.querySelectorAll(
      '[data-mime-type="application/vnd.jupyter.stderr"], .jp-OutputArea-output.jp-mod-error')) {
    found.push(node.textContent.trim().slice(0, 400));
  }
  for (const node of document.querySelectorAll('.widget-error, .jupyter-widgets-error-widget')) {
    found.push('widget error: ' + node.textContent.trim().slice(0, 400));
  }
  const body = document.body.innerText;
  for (const phrase of ['Error displaying widget', 'There was an error when executing cell',
                        'Traceback (most recent call last)']) {
    if (body.includes(phrase)) found.push(`the page says "${phrase}"`);
  }
  return found;
}
"""


def assert_clean(watched: Watched, where: str) -> None:
    """No error or stderr output on the page, and no console errors."""
    outputs = watched.page.evaluate(_ERROR_OUTPUTS_JS)
    if watched.page.evaluate("() => Boolean(window.jupyterapp)"):
        outputs += watched.page.evaluate(_LAB_OUTPUTS_JS)
    assert not outputs, f"{where}: error output on the page:\n" + "\n".join(outputs)
    assert not watched.errors, f"{where}: browser console errors:\n" + "\n".join(watched.errors)


def screenshot(page: Any, name: str, focus: str | None = None) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if focus:
        page.locator(focus).first.scroll_into_view_if_needed(timeout=CLICK)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


# ----- the step-through widget ---------------------------------------------------------------


def _html(page: Any, selector: str) -> str:
    return page.locator(selector).first.inner_html(timeout=CLICK)


def _wait_until(page: Any, what: str, test: Callable[[], bool], timeout: int = CLICK) -> None:
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        if test():
            return
        page.wait_for_timeout(200)
    raise AssertionError(what)


def _settle(page: Any, selectors: tuple[str, ...], quiet: float = 1.0,
            timeout: int = CLICK) -> None:
    """Wait until the given parts have not changed for ``quiet`` seconds (the kernel has
    answered every click so far)."""
    def snapshot() -> tuple:
        return tuple(_html(page, s) for s in selectors)
    last, since = snapshot(), time.monotonic()
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        page.wait_for_timeout(250)
        now = snapshot()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
    raise AssertionError(f"the widget kept changing for {timeout / 1000} s")


def check_step_through(page: Any, where: str, steps: int = 2, patience: int = CLICK) -> None:
    """The step-through widget is there, Apply changes the board and the log, Undo brings the
    picture back; then ``steps`` more moves are played (for the screenshot).  ``patience`` is
    how long (ms) a click may take to show its effect."""
    root = ".pl-step-through"
    board, log, actions = f"{root} .pl-board", f"{root} .pl-log", f"{root} .pl-actions select"
    apply_, undo, new_game = (f"{root} button.pl-apply", f"{root} button.pl-undo",
                              f"{root} button.pl-new-game")
    page.wait_for_selector(root, state="visible", timeout=WIDGET)
    page.locator(root).first.scroll_into_view_if_needed(timeout=CLICK)
    assert page.locator(f"{board} svg").count() >= 1, f"{where}: the board shows no picture"
    for part, name in ((apply_, "Apply"), (undo, "Undo"), (new_game, "New game")):
        assert page.locator(part).first.is_visible(), f"{where}: no {name} button"

    # start from a known point: the notebook's later cells may have moved the game on
    page.locator(new_game).first.click(timeout=CLICK)
    _settle(page, (board, log, actions))
    options = page.locator(f"{actions} option")
    assert options.count() >= 1, f"{where}: the list of legal actions is empty"
    before = _html(page, board)
    # choose an action (the last of the kind shown), then Apply
    page.locator(actions).first.select_option(index=options.count() - 1, timeout=CLICK)
    _settle(page, (board, actions))
    chosen, log_before = _html(page, board), _html(page, log)
    page.locator(apply_).first.click(timeout=CLICK)
    _wait_until(page, f"{where}: pressing Apply did not change the board picture",
                lambda: _html(page, board) != chosen, patience)
    _wait_until(page, f"{where}: pressing Apply did not add to the log",
                lambda: _html(page, log) != log_before, patience)
    _settle(page, (board, log))
    page.locator(undo).first.click(timeout=CLICK)
    _wait_until(page, f"{where}: Undo did not bring back the picture from before Apply",
                lambda: _html(page, board) == before, patience)
    for _ in range(steps):
        shown = _html(page, board)
        page.locator(apply_).first.click(timeout=CLICK)
        _wait_until(page, f"{where}: a further Apply did not change the board",
                    lambda: _html(page, board) != shown, patience)
        _settle(page, (board, log))


def check_board_click(page: Any, where: str, patience: int = CLICK) -> None:
    """Clicking a Land Space of a new game's board (a Tree or a piece drawn on it counts too)
    selects the Flying Seed onto that space in the action list."""
    root = ".pl-step-through"
    board, actions = f"{root} .pl-board", f"{root} .pl-actions select"
    page.wait_for_selector(root, state="visible", timeout=WIDGET)
    page.locator(root).first.scroll_into_view_if_needed(timeout=CLICK)
    page.locator(f"{root} button.pl-new-game").first.click(timeout=CLICK)
    _settle(page, (board, actions))
    land = page.locator(board).first.evaluate(
        "b => [...b.querySelectorAll('[data-cell]')].filter(e => { const t = e.querySelector("
        "'title'); return t && t.textContent.includes('land'); })"
        ".map(e => e.getAttribute('data-cell'))")
    assert land, f"{where}: the board marks no Land Space as clickable"
    for cell in (land[0], land[len(land) // 2]):
        q, r = cell.split(",")
        space = page.locator(f"{board} [data-cell='{cell}']").first
        space.scroll_into_view_if_needed(timeout=CLICK)
        space.click(timeout=CLICK, force=True)

        def chosen() -> str:
            return page.locator(actions).first.evaluate(
                "s => s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].text"
            ).replace("\xa0", " ")   # option texts keep their spaces as no-break spaces
        try:
            _wait_until(page, "", lambda: f"({q}, {r})" in chosen(), patience)
        except AssertionError:
            raise AssertionError(f"{where}: clicking the space ({q}, {r}) did not select an "
                                 f"action on it (selected: {chosen()!r}; "
                                 f"{_html(page, root + ' .pl-board')[:300]})") from None


# ----- the Land Ritual explorer --------------------------------------------------------------


def notebook_object(notebook: str, call: str) -> Any:
    """Run the code cells of ``notebook`` in plain Python up to the first one containing
    ``call`` and return what that cell assigned the call to, so the checks follow the
    notebook when its example changes."""
    import contextlib
    import io

    cells = [c for c in json.loads((NOTEBOOKS / notebook).read_text())["cells"]
             if c["cell_type"] == "code"]
    namespace: dict[str, Any] = {}
    cwd = os.getcwd()
    os.chdir(NOTEBOOKS / Path(notebook).parent)
    try:
        for cell in cells:
            source = "".join(cell["source"])
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(source, notebook, "exec"), namespace)
            found = re.search(r"(\w+)\s*=\s*[\w.]*" + re.escape(call), source)
            if found:
                return namespace[found.group(1)]
    finally:
        os.chdir(cwd)
    raise AssertionError(f"{notebook} has no cell assigning {call}...)")


def ritual_plan() -> dict:
    """What the Land Ritual notebook's explorer should offer, worked out in Python from the
    notebook's own position: a card with a legal ritual, one pair of Trees, and how many paths
    the board draws and the table lists before and after choosing them."""
    from pangaea_lab.pangaea.widgets import RitualExplorer

    explorer = notebook_object(RITUALS, "ritual_explorer(")
    model = RitualExplorer(explorer.model.state, explorer.model.player)
    labels = model.cards()
    plans = []
    for card, label in labels.items():
        model.card, model.start, model.end = card, None, None
        drawn_any = model.svg().count("<polyline")
        for start, end in sorted({(o.start, o.end) for o in model.options()}):
            model.start, model.end = start, None
            start_rows = len(model.options())
            model.end = end
            plans.append({"card": card, "label": label, "start": str(start), "end": str(end),
                          "drawn_any": drawn_any, "drawn_pair": model.svg().count("<polyline"),
                          "pair_rows": len(model.options()), "start_rows": start_rows})
    assert plans, "no Land Ritual card gives the player a legal ritual in the notebook's position"
    # prefer a pair whose table is shorter than the start Tree's alone: the last step shows
    plan = min(plans, key=lambda p: p["pair_rows"] >= p["start_rows"])
    plan["others"] = [label for card, label in labels.items() if card != plan["card"]]
    return plan


def check_ritual_explorer(page: Any, where: str, plan: dict) -> None:
    """Choosing a card and two Trees highlights their path on the board."""
    root = ".pl-ritual-explorer"
    card, start, end = (f"{root} .pl-ritual-card select", f"{root} .pl-ritual-start select",
                        f"{root} .pl-ritual-end select")
    board, table = f"{root} .pl-ritual-board", f"{root} .pl-ritual-table"
    page.wait_for_selector(root, state="visible", timeout=WIDGET)
    page.locator(root).first.scroll_into_view_if_needed(timeout=CLICK)

    def drawn() -> int:
        return page.locator(f"{board} svg polyline").count()

    def offered(select: str) -> list[str]:
        return page.locator(select).first.evaluate("e => [...e.options].map(o => o.value)")

    # a change of card resets the explorer, whatever later cells did to its model
    if plan["others"]:
        page.locator(card).first.select_option(value=plan["others"][0], timeout=CLICK)
        _settle(page, (board, start))
    page.locator(card).first.select_option(value=plan["label"], timeout=CLICK)
    _wait_until(page, f"{where}: choosing the card did not offer Tree {plan['start']} to start",
                lambda: plan["start"] in offered(start))
    _settle(page, (board, start))
    assert drawn() == plan["drawn_any"], (
        f"{where}: with any Trees the board should draw {plan['drawn_any']} paths, "
        f"it draws {drawn()}")
    before = _html(page, board)
    page.locator(start).first.select_option(value=plan["start"], timeout=CLICK)
    _wait_until(page, f"{where}: choosing the start Tree did not offer {plan['end']} to end",
                lambda: plan["end"] in offered(end))
    _settle(page, (board, end))
    def rows() -> int:
        return page.locator(f"{table} tr").count() - 1

    page.locator(end).first.select_option(value=plan["end"], timeout=CLICK)
    _wait_until(page, f"{where}: choosing two Trees did not list their paths (expected "
                      f"{plan['pair_rows']} from {plan['start']} to {plan['end']})",
                lambda: rows() == plan["pair_rows"])
    _wait_until(page, f"{where}: choosing two Trees did not highlight their path "
                      f"(expected {plan['drawn_pair']} drawn paths, found {drawn()})",
                lambda: drawn() == plan["drawn_pair"] and _html(page, board) != before)
    text = page.locator(table).first.inner_text()
    def loose(cell: str) -> str:
        return r"\s*".join(map(re.escape, cell.split()))
    assert re.search(loose(plan["start"]) + r"\s*→\s*" + loose(plan["end"]), text), \
        f"{where}: the table does not show the chosen Trees {plan['start']} → {plan['end']}"
