"""The class record service run for tests: the real service (a child process started as the
hub starts it) on a real SQLite store in a temporary folder, and a small stand-in for the
hub's API on a local port that speaks the hub's own protocol to JupyterHub's auth classes:

- ``GET /hub/api/user`` with ``Authorization: token <a person's token>`` answers that
  person's model (name, kind, groups, scopes), 403 for a token it does not know;
- ``GET /hub/api/users`` (the service's own token) lists the people;
- ``GET /hub/api/oauth2/authorize`` and ``POST /hub/api/oauth2/token``: the OAuth sign-in
  of a browser, with its PKCE check (the person signed in on the stand-in is
  :attr:`StandInHub.signed_in`).

Used by ``tests/record/test_service.py`` and the dashboard's browser test.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import requests

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from processes import free_port  # noqa: E402

PREFIX = "/services/class-record/"
TEACHER_SCOPE = "custom:class-record:read"
ACCESS = "access:services!service=class-record"


@dataclass
class Person:
    name: str
    token: str
    groups: tuple[str, ...] = ()
    scopes: tuple[str, ...] = (ACCESS,)
    kind: str = "user"

    def model(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "admin": False,
                "groups": list(self.groups), "scopes": list(self.scopes)}


@dataclass
class StandInHub:
    """The hub's API as the service sees it (see the module's description)."""

    service_token: str = field(default_factory=lambda: secrets.token_hex(16))
    people: dict[str, Person] = field(default_factory=dict)     # token -> person
    signed_in: str = ""                                         # name of the browser's person
    codes: dict[str, tuple] = field(default_factory=dict)       # code -> (token, challenge)
    port: int = 0
    server: ThreadingHTTPServer | None = None
    page: int = 3                                               # users per page of the API

    def add(self, person: Person) -> Person:
        self.people[person.token] = person
        return person

    def by_name(self, name: str) -> Person:
        return next(p for p in self.people.values() if p.name == name)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "StandInHub":
        self.port = free_port()
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), _handler(self))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()


def _handler(hub: StandInHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def token(self) -> str:
            words = self.headers.get("Authorization", "").split()
            return words[1] if len(words) == 2 and words[0].lower() == "token" else ""

        def answer(self, status: int, data: Any = None, headers: dict | None = None) -> None:
            body = json.dumps(data).encode() if data is not None else b""
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            path, _, query = self.path.partition("?")
            args = dict(urllib.parse.parse_qsl(query))
            if path == "/hub/api/user":
                person = hub.people.get(self.token())
                if person is None:
                    self.answer(403, {"status": 403, "message": "Forbidden"})
                else:
                    self.answer(200, person.model())
            elif path == "/hub/api/users":
                if self.token() != hub.service_token:
                    self.answer(403, {"status": 403, "message": "Forbidden"})
                else:
                    self.answer(200, users_page(hub, args, self.headers.get("Accept", "")))
            elif path == "/hub/api/oauth2/authorize":
                person = hub.by_name(hub.signed_in)
                code = secrets.token_hex(8)
                # the hub keeps the PKCE challenge with the code (S256, as the service asks)
                hub.codes[code] = (person.token, args.get("code_challenge", ""))
                target = args["redirect_uri"] + "?" + urllib.parse.urlencode(
                    {"code": code, "state": args.get("state", "")})
                self.answer(302, headers={"Location": target})
            else:
                self.answer(404, {"status": 404})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
            if self.path != "/hub/api/oauth2/token" or form.get(
                    "client_secret") != hub.service_token or form.get("code") not in hub.codes:
                self.answer(400, {"error": "invalid_grant"})
                return
            token, challenge = hub.codes.pop(form["code"])
            verifier = form.get("code_verifier", "")
            digest = base64.urlsafe_b64encode(
                hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
            if challenge and digest != challenge:
                self.answer(400, {"error": "invalid_grant",
                                  "error_description": "Code verifier required"})
                return
            self.answer(200, {"access_token": token, "token_type": "Bearer"})

    return Handler


def users_page(hub: StandInHub, args: dict, accept: str) -> Any:
    """``GET /hub/api/users`` as the hub answers it: a plain list, or with the pagination
    media type a page of :attr:`StandInHub.page` users (the hub's own shape)."""
    users = [{"kind": "user", "name": p.name, "groups": list(p.groups)}
             for p in hub.people.values() if p.kind == "user"]
    if "application/jupyterhub-pagination+json" not in accept:
        return users
    offset = int(args.get("offset", 0))
    limit = min(int(args.get("limit", hub.page)), hub.page)
    following = offset + limit
    return {"items": users[offset:following], "_pagination": {
        "offset": offset, "limit": limit, "total": len(users),
        "next": {"offset": following, "limit": limit, "url": ""}
        if following < len(users) else None}}


@dataclass
class RunningService:
    """The service as a child process, where it listens, its folder, its log and its
    database ("" for the SQLite file in its folder)."""

    process: subprocess.Popen
    port: int
    folder: Path
    log: Path
    database: str = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{PREFIX}"

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return self.process.wait(30)


def service_env(hub: StandInHub, port: int, folder: Path, database: str = "") -> dict[str, str]:
    """The environment JupyterHub gives a managed service named class-record."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTERHUB_", "PANGAEA_"))}
    env.update({
        "JUPYTERHUB_SERVICE_NAME": "class-record",
        "JUPYTERHUB_SERVICE_URL": f"http://127.0.0.1:{port}",
        "JUPYTERHUB_SERVICE_PREFIX": PREFIX,
        "JUPYTERHUB_API_URL": hub.url + "/hub/api",
        "JUPYTERHUB_API_TOKEN": hub.service_token,
        "JUPYTERHUB_CLIENT_ID": "service-class-record",
        "JUPYTERHUB_HOST": hub.url,
        "JUPYTERHUB_BASE_URL": "/",
        "JUPYTERHUB_OAUTH_CALLBACK_URL": f"http://127.0.0.1:{port}{PREFIX}oauth_callback",
        "JUPYTERHUB_OAUTH_ACCESS_SCOPES": json.dumps([ACCESS]),
        "PANGAEA_RECORD_STATE": str(folder),
    })
    if database:
        env["PANGAEA_RECORD_DB"] = database
    return env


def start_service(hub: StandInHub, folder: Path | None = None, wait: float = 120,
                  database: str = "") -> RunningService:
    """Start ``python -m pangaea_lab.classroom.record.service`` as the hub would (on the
    SQLite file in ``folder``, or on ``database`` when given), and wait until it answers."""
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="class-record-"))
    folder.chmod(0o700)
    port = free_port()
    log = folder / "service.log"
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "pangaea_lab.classroom.record.service"],
            env=service_env(hub, port, folder, database), stdout=out, stderr=subprocess.STDOUT,
            cwd=folder)
    running = RunningService(process, port, folder, log, database)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the class record service stopped at start:\n{log.read_text()}")
        try:
            requests.get(running.url + "api/attempts", timeout=5)
            return running
        except requests.ConnectionError:
            time.sleep(0.2)
    running.stop()
    raise RuntimeError(f"the class record service did not answer in {wait} s:\n{log.read_text()}")
