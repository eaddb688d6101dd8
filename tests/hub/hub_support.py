"""A classroom hub started for real (classroom/jupyterhub_config.py, as root): its folders,
roster and test certificate, logging in over HTTPS as a browser does, and talking to a
person's terminal and kernel through their server's websockets, as JupyterLab does."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import requests
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from processes import alive, descendants, free_port  # noqa: E402,F401  (used by the tests too)
CONFIG = REPO / "classroom" / "jupyterhub_config.py"
#: generous bounds (seconds) for a loaded 2-core machine; nothing is timed, only waited for
START, SPAWN, PAGE, CULL, STOP = 180, 180, 240, 300, 60


def wait_for(what: str, test: Any, timeout: float, log: Path | None = None) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = test()
        if result:
            return result
        time.sleep(1)
    tail = log.read_text(errors="replace")[-4000:] if log else ""
    raise AssertionError(f"{what} (waited {timeout} s)" + (f"\nhub log:\n{tail}" if tail else ""))


def open_folder(prefix: str) -> Path:
    """A folder under /tmp that other users may pass through (pytest's own are private)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    folder.chmod(0o755)
    return folder


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 made for this test run (the client trusts only it)."""
    cert, key = folder / "test-hub.crt", folder / "test-hub.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    key.chmod(0o600)
    return cert, key


class Hub:
    def __init__(self, roster: str, settings: dict[str, str], logs: Path) -> None:
        self.root = open_folder("pangaea-hub-root-")
        shared_env = Path(os.environ.get("PANGAEA_HUB_ROOT", "/srv/pangaea-lab")) / "env"
        if not (shared_env / "bin" / "python").exists():
            raise AssertionError(f"the students' environment {shared_env} is missing: "
                                 "`make test-hub` builds it (make hub-env)")
        (self.root / "env").symlink_to(shared_env)
        self.state = Path(tempfile.mkdtemp(prefix="pangaea-hub-state-"))
        self.cert, key = make_certificate(self.state)
        (self.state / "roster.txt").write_text(roster)
        self.url = f"https://127.0.0.1:{free_port()}"
        self.log = logs / "jupyterhub.log"
        self.changed: dict[str, str] = {}
        env = dict(os.environ)
        for name in [n for n in env if n.startswith("PANGAEA_HUB_")]:
            del env[name]
        env.update({
            "PANGAEA_HUB_STATE": str(self.state / "hub"), "PANGAEA_HUB_ROOT": str(self.root),
            "PANGAEA_HUB_ROSTER": str(self.state / "roster.txt"), "PANGAEA_HUB_URL": self.url,
            "PANGAEA_HUB_SSL_CERT": str(self.cert), "PANGAEA_HUB_SSL_KEY": str(key),
            "PANGAEA_HUB_API_PORT": str(free_port()),
            "PANGAEA_HUB_PROXY_API_PORT": str(free_port()), "PYTHONWARNINGS": "ignore",
            "PANGAEA_HUB_RECORD_PORT": str(free_port()),     # the class record service
        })
        env.update(settings)
        self._log = open(self.log, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)], cwd=self.state, env=env,
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)

    def passwords(self) -> dict[str, str]:
        """The hand-out sheet the hub wrote for the teacher."""
        sheet = self.state / "hub" / "passwords-to-hand-out.txt"
        return {line.split()[0]: line.split()[1] for line in sheet.read_text().splitlines()}

    def password(self, name: str) -> str:
        """``name``'s password now: the hand-out sheet's, or the one they changed it to."""
        return self.changed.get(name) or self.passwords()[name]

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return requests.get(self.url + path, verify=str(self.cert), timeout=30, **kwargs)

    def healthy(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError("the hub stopped while starting:\n"
                                 + self.log.read_text(errors="replace")[-4000:])
        try:
            return self.get("/hub/health").status_code == 200
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

    def stop_and_clean(self, names: list[str]) -> None:
        """At a suite's end: stop the hub, end whatever it left behind (a test reports such
        leftovers itself), and remove the users and folders it made."""
        family = descendants(self.process.pid)
        self.stop()
        for pid in family:
            if alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        self.clean_up(names)

    def clean_up(self, names: list[str]) -> None:
        for name in names:
            subprocess.run(["userdel", "pl-" + name], capture_output=True, check=False)
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.rmtree(self.state, ignore_errors=True)


class HubSession(requests.Session):
    """A browser's cookies, trusting only the hub's test certificate (given with every request:
    requests lets a CA bundle named in the environment win over a session's own)."""

    def __init__(self, cert: Path) -> None:
        super().__init__()
        self.trust = str(cert)

    def request(self, method: str, url: str, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("verify", self.trust)
        return super().request(method, url, **kwargs)


def log_in(hub: Hub, name: str, password: str) -> requests.Session:
    """Log in through the hub's login form, as a browser does; ``session.logged_in`` tells."""
    session = HubSession(hub.cert)
    form = session.get(hub.url + "/hub/login", timeout=30)
    if form.status_code != 200:
        raise AssertionError(form.text[:500])
    xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', form.text)
    data = {"username": name, "password": password}
    if xsrf:
        data["_xsrf"] = xsrf.group(1)
    answer = session.post(hub.url + "/hub/login", data=data, allow_redirects=False, timeout=60)
    session.logged_in = answer.status_code == 302   # type: ignore[attr-defined]
    session.answer = answer                          # type: ignore[attr-defined]
    return session


def hub_api(hub: Hub, session: requests.Session, method: str, path: str,
            **kwargs: Any) -> requests.Response:
    xsrf = session.cookies.get("_xsrf", path="/hub/") or session.cookies.get("_xsrf") or ""
    return session.request(method, f"{hub.url}/hub/api{path}", timeout=30,
                           headers={"X-XSRFToken": xsrf, "Accept": "application/json"},
                           **kwargs)


def server_of(hub: Hub, session: requests.Session, name: str) -> dict | None:
    answer = hub_api(hub, session, "GET", f"/users/{name}")
    if answer.status_code != 200:
        raise AssertionError(answer.text[:500])
    return answer.json().get("servers", {}).get("")


def start_server(hub: Hub, session: requests.Session, name: str) -> str:
    """Start ``name``'s server, wait for it, and return an API token of theirs for it."""
    started = hub_api(hub, session, "POST", f"/users/{name}/server")
    if started.status_code not in (201, 202, 400):       # 400: already running
        raise AssertionError(started.text[:500])
    wait_for(f"{name}'s server did not become ready",
             lambda: (server_of(hub, session, name) or {}).get("ready"), SPAWN, hub.log)
    token = hub_api(hub, session, "POST", f"/users/{name}/tokens",
                    json={"note": "test", "expires_in": 3600})
    if token.status_code not in (200, 201):
        raise AssertionError(token.text[:500])
    return token.json()["token"]


def pull_course(hub: Hub, name: str, token: str) -> str:
    """What a person's start link does first: nbgitpuller brings the course into their home."""
    query = urlencode({"repo": "file://" + str(hub.root / "course"), "branch": "main",
                       "targetpath": "course"})
    answer = requests.get(f"{hub.url}/user/{name}/git-pull/api?{query}", verify=str(hub.cert),
                          headers={"Authorization": f"token {token}"}, timeout=PAGE)
    if answer.status_code != 200 or '"phase": "finished"' not in answer.text:
        raise AssertionError(f"the course did not arrive for {name}: {answer.text[-1500:]}")
    return answer.text


def _ws_request(hub: Hub, path: str, token: str) -> HTTPRequest:
    context = ssl.create_default_context(cafile=str(hub.cert))
    # a busy hub is waited for (tornado gives a websocket 20 s to open by default)
    return HTTPRequest(hub.url.replace("https", "wss") + path, ssl_options=context,
                       headers={"Authorization": f"token {token}"},
                       connect_timeout=PAGE, request_timeout=PAGE)


async def _terminal(hub: Hub, name: str, token: str, commands: list[str]) -> str:
    made = requests.post(f"{hub.url}/user/{name}/api/terminals", verify=str(hub.cert),
                         headers={"Authorization": f"token {token}"}, timeout=PAGE)
    if made.status_code != 200:
        raise AssertionError(made.text[:500])
    socket_ = await websocket_connect(_ws_request(
        hub, f"/user/{name}/terminals/websocket/{made.json()['name']}", token))
    marker = "END-" + uuid.uuid4().hex[:8]
    script = "; ".join(commands + [f"echo {marker[:4]}''{marker[4:]}"])
    socket_.write_message(json.dumps(["stdin", script + "\r"]))
    seen, deadline = "", time.monotonic() + PAGE
    while marker not in seen and time.monotonic() < deadline:
        message = await asyncio.wait_for(socket_.read_message(), PAGE)
        if message is None:
            break
        kind, *rest = json.loads(message)
        if kind == "stdout":
            seen += rest[0]
    socket_.close()
    return seen


def terminal(hub: Hub, name: str, token: str, commands: list[str]) -> str:
    """Type ``commands`` into a new terminal of ``name``'s server; everything it printed."""
    return asyncio.run(_terminal(hub, name, token, commands))


async def execute(hub: Hub, name: str, token: str, kernel_id: str, code: str) -> list[dict]:
    """Run ``code`` in a running kernel of ``name``'s server through its websocket, as a
    notebook cell does: every message the kernel sent about it, until it was idle again."""
    socket_ = await websocket_connect(_ws_request(
        hub, f"/user/{name}/api/kernels/{kernel_id}/channels", token))
    msg_id = uuid.uuid4().hex
    socket_.write_message(json.dumps({
        "header": {"msg_id": msg_id, "username": name, "session": uuid.uuid4().hex,
                   "msg_type": "execute_request", "version": "5.3", "date": ""},
        "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
        "content": {"code": code, "silent": False, "store_history": False,
                    "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
    answers, deadline = [], time.monotonic() + PAGE
    while time.monotonic() < deadline:
        raw = await asyncio.wait_for(socket_.read_message(), PAGE)
        if raw is None:
            break
        message = json.loads(raw)
        if message.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        answers.append(message)
        if message["header"]["msg_type"] == "status" and \
                message["content"]["execution_state"] == "idle":
            break
    socket_.close()
    return answers


async def _kernel(hub: Hub, name: str, token: str, code: str) -> str:
    made = requests.post(f"{hub.url}/user/{name}/api/kernels", verify=str(hub.cert),
                         headers={"Authorization": f"token {token}"}, json={}, timeout=PAGE)
    if made.status_code != 201:
        raise AssertionError(made.text[:500])
    printed = ""
    for message in await execute(hub, name, token, made.json()["id"], code):
        kind = message["header"]["msg_type"]
        if kind == "stream":
            printed += message["content"]["text"]
        elif kind == "error":
            printed += "\n".join(message["content"]["traceback"])
    return printed


def kernel(hub: Hub, name: str, token: str, code: str) -> str:
    """Run ``code`` in a new kernel of ``name``'s server, as a notebook cell does; its output."""
    return asyncio.run(_kernel(hub, name, token, code))
