"""The classroom JupyterHub (classroom/jupyterhub_config.py) started for real on this machine:
two students log in over HTTP with the class password, each gets their own server with the
project's notebooks in their folder, opens a notebook (its file through the server's API, and
the start page run by the Voilà app, which needs pangaea_lab installed in the student's
kernel), the idle culler stops the servers once they are left alone, and the hub stops
cleanly with nothing left running."""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import requests   # the hub extra (make test-hub installs it, with JupyterHub and the culler)

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "classroom" / "jupyterhub_config.py"
STUDENTS = ("ada", "grace")
#: generous bounds (seconds) for a loaded 2-core machine; nothing is timed, only waited for
START, SPAWN, PAGE, CULL, STOP = 120, 180, 240, 300, 60
IDLE_TIMEOUT = 45


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants(pid: int) -> list[int]:
    """Every process started under ``pid`` (read from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents.setdefault(int(stat[stat.rindex(")") + 2:].split()[1]), []).append(
                int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] != "Z"


def wait_for(what: str, test: Any, timeout: float, log: Path | None = None) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = test()
        if result:
            return result
        time.sleep(1)
    tail = log.read_text(errors="replace")[-4000:] if log else ""
    raise AssertionError(f"{what} (waited {timeout} s)" + (f"\nhub log:\n{tail}" if tail else ""))


class Hub:
    def __init__(self, state: Path, log: Path) -> None:
        self.state, self.log = state, log
        self.url = f"http://127.0.0.1:{free_port()}"
        self.password = secrets.token_urlsafe(12)
        env = dict(os.environ)
        env.update({
            "PANGAEA_HUB_STATE": str(state), "PANGAEA_HUB_URL": self.url,
            "PANGAEA_HUB_API_PORT": str(free_port()),
            "PANGAEA_HUB_PROXY_API_PORT": str(free_port()),
            "PANGAEA_HUB_PASSWORD": self.password, "PANGAEA_HUB_STUDENTS": ",".join(STUDENTS),
            "PANGAEA_HUB_IDLE_TIMEOUT": str(IDLE_TIMEOUT), "PANGAEA_HUB_CULL_EVERY": "5",
            "PYTHONWARNINGS": "ignore",
        })
        self._log = open(log, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)], cwd=state, env=env,
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)

    def healthy(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError("the hub stopped while starting:\n"
                                 + self.log.read_text(errors="replace")[-4000:])
        try:
            return requests.get(self.url + "/hub/health", timeout=5).status_code == 200
        except requests.RequestException:
            return False

    def stop(self) -> int | None:
        """SIGTERM, as a teacher's Ctrl-C or a service manager does; the exit code."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=STOP)
        self._log.close()
        return self.process.returncode


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    state = tmp_path_factory.mktemp("hub")
    logs = REPO / "build" / "hub-logs"
    logs.mkdir(parents=True, exist_ok=True)
    running = Hub(state, logs / "jupyterhub.log")
    try:
        wait_for("the hub did not answer /hub/health", running.healthy, START, running.log)
        yield running
    finally:
        family = descendants(running.process.pid)
        running.stop()
        for pid in family:           # whatever the hub left behind is ended, then reported
            if alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def log_in(hub: Hub, name: str, password: str | None = None) -> Any:
    """Log in through the hub's login form, as a browser does."""
    session = requests.Session()
    form = session.get(hub.url + "/hub/login", timeout=30)
    assert form.status_code == 200, form.text[:500]
    xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', form.text)
    data = {"username": name, "password": hub.password if password is None else password}
    if xsrf:
        data["_xsrf"] = xsrf.group(1)
    answer = session.post(hub.url + "/hub/login", data=data, allow_redirects=False, timeout=30)
    session.logged_in = answer.status_code == 302   # type: ignore[attr-defined]
    return session


def hub_api(hub: Hub, session: Any, method: str, path: str) -> Any:
    xsrf = session.cookies.get("_xsrf", path="/hub/") or session.cookies.get("_xsrf") or ""
    return session.request(method, f"{hub.url}/hub/api{path}", timeout=30,
                           headers={"X-XSRFToken": xsrf, "Accept": "application/json"})


def server_of(hub: Hub, session: Any, name: str) -> dict | None:
    answer = hub_api(hub, session, "GET", f"/users/{name}")
    assert answer.status_code == 200, answer.text[:500]
    return answer.json().get("servers", {}).get("")


def test_two_students_each_get_their_own_server_with_the_notebooks(hub: Hub) -> None:
    assert not log_in(hub, "ada", "not the class password").logged_in, \
        "a wrong password let a student in"
    assert not log_in(hub, "mallory").logged_in, "a name not on the class list got in"

    sessions = {}
    for name in STUDENTS:
        session = log_in(hub, name)
        assert session.logged_in, f"{name} could not log in with the class password"
        started = hub_api(hub, session, "POST", f"/users/{name}/server")
        assert started.status_code in (201, 202), started.text[:500]
        sessions[name] = session
    for name, session in sessions.items():
        wait_for(f"{name}'s server did not become ready",
                 lambda: (server_of(hub, session, name) or {}).get("ready"), SPAWN, hub.log)

    ours = json.loads((REPO / "notebooks" / "00_start_here.ipynb").read_text())
    turns = json.loads((REPO / "notebooks" / "harmonies" / "01_setup_and_turns.ipynb")
                       .read_text())
    homes = set()
    for name, session in sessions.items():
        base = f"{hub.url}/user/{name}"
        # the first visit goes through the hub's sign-in for the student's own server
        lab = session.get(base + "/lab", timeout=PAGE)
        assert lab.status_code == 200 and lab.url.startswith(base), (lab.status_code, lab.url)
        xsrf = session.cookies.get("_xsrf", path=f"/user/{name}/") or ""
        api = {"X-XSRFToken": xsrf}
        listing = session.get(base + "/api/contents", headers=api, timeout=PAGE)
        assert listing.status_code == 200, listing.text[:500]
        names = {item["name"] for item in listing.json()["content"]}
        assert {"00_start_here.ipynb", "pangaea", "harmonies", "forest_shuffle",
                "inori"} <= names, f"{name}'s folder holds {sorted(names)}"
        for path, expected in (("00_start_here.ipynb", ours),
                               ("harmonies/01_setup_and_turns.ipynb", turns)):
            got = session.get(f"{base}/api/contents/{path}", headers=api, timeout=PAGE)
            assert got.status_code == 200, got.text[:500]
            cells = got.json()["content"]["cells"]
            assert ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                    for c in cells] == ["".join(c["source"]) for c in expected["cells"]]
        homes.add(Path(hub.state, "home", name).resolve())
        # another student's server is not open to this one
        other = next(n for n in STUDENTS if n != name)
        peek = session.get(f"{hub.url}/user/{other}/api/contents", headers=api,
                           allow_redirects=False, timeout=PAGE)
        assert peek.status_code in (302, 403, 404), f"{name} could read {other}'s files"

    # the start page, run by the Voilà app of one student's server: the project is installed
    # where the students' kernels run
    page = sessions["ada"].get(f"{hub.url}/user/ada/voila/render/00_start_here.ipynb",
                               timeout=PAGE)
    assert page.status_code == 200, page.text[:500]
    assert "Same game again: True" in page.text, page.text[-2000:]
    assert "Traceback" not in page.text
    assert all((home / "00_start_here.ipynb").is_file() for home in homes) and len(homes) == 2

    # left alone, both servers are stopped by the idle culler (a hub service)
    log_text = hub.log.read_text(errors="replace")
    assert "idle-culler" in log_text, "the idle culler service was not started"
    for name, session in sessions.items():
        wait_for(f"the idle culler did not stop {name}'s server after {IDLE_TIMEOUT} s idle",
                 lambda: server_of(hub, session, name) is None, CULL, hub.log)
    # a student's work stays in their folder for the next login
    assert all((home / "harmonies" / "01_setup_and_turns.ipynb").is_file() for home in homes)


def test_the_hub_stops_cleanly_with_nothing_left_running(hub: Hub) -> None:
    family = descendants(hub.process.pid)
    assert any("configurable-http-proxy" in Path(f"/proc/{pid}/cmdline").read_text(
        errors="replace") for pid in family if alive(pid)), "no proxy under the hub"
    code = hub.stop()
    assert code == 0, f"the hub ended with code {code}"
    left = [pid for pid in family if alive(pid)]
    assert not left, "still running after the hub stopped: " + ", ".join(
        Path(f"/proc/{pid}/cmdline").read_text(errors="replace").replace("\0", " ")
        for pid in left)
