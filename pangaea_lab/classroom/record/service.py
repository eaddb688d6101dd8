"""The class record service: a JupyterHub-managed web service that keeps every attempt.

Run by the hub as ``python -m pangaea_lab.classroom.record.service`` (service name
``class-record``).  A student's kernel sends its attempts with the student's own hub token;
the service judges each answer with the engine (:mod:`.judge`) and keeps its own verdict in
the database (:mod:`.store`).  A teacher's browser signs in through the hub's OAuth and sees
the class on the dashboard (:mod:`.dashboard`).  Identities are JupyterHub's own: the
handlers use :class:`jupyterhub.services.auth.HubOAuthenticated`, a token in the
``Authorization`` header (a kernel) or the OAuth cookie (a browser, set by the
``oauth_callback`` route).  A teacher is a person whose hub identity carries the scope
:data:`TEACHER_SCOPE`.

Every request is hostile: bodies are limited before they are read, every refusal is a 4xx
answer ``{"error": "<field>: <sentence>"}`` and stores nothing, each person has a budget of
new exercises to judge (:mod:`.budget`: over it, 429 and ``Retry-After``), judging runs in a
small pool of its own and the database is written in another, so a slow write or a costly
batch never stalls the other students.

Settings (environment): the hub's own ``JUPYTERHUB_SERVICE_URL`` (where to listen),
``JUPYTERHUB_SERVICE_PREFIX``, ``JUPYTERHUB_API_URL``, ``JUPYTERHUB_API_TOKEN``,
``JUPYTERHUB_CLIENT_ID``, ``JUPYTERHUB_OAUTH_CALLBACK_URL``; and ``PANGAEA_RECORD_DB`` (a
database URL) or ``PANGAEA_RECORD_STATE`` (a folder only the hub's user may enter, holding
the SQLite file and the cookie secret).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import os
import secrets
import signal
import stat
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping
from urllib.parse import urlsplit

from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.services.auth import UserNotAllowed, check_scopes
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from tornado import web
from tornado.httpclient import AsyncHTTPClient, HTTPClientError
from tornado.httpserver import HTTPServer

from ...core.errors import IllegalAction, InvalidData
from ...core.mastery import MAX_FILE
from . import dashboard
from .budget import Budget, Recent
from .judge import CACHE_SIZE, MAX_BODY, TooLarge, judge, read_batch
from .store import RecordStore

log = logging.getLogger("pangaea_lab.class_record")

#: the custom hub scope that makes a person a teacher of the class record
TEACHER_SCOPE = "custom:class-record:read"
#: the service's name on the hub, and its URL prefix by default
SERVICE_NAME = "class-record"
DEFAULT_PREFIX = f"/services/{SERVICE_NAME}/"
#: the largest progress file the import takes (bytes; the file itself is read by the store)
MAX_IMPORT = MAX_FILE
#: the largest body the server reads at all (larger ones are cut off by tornado)
MAX_ANY_BODY = MAX_IMPORT + 4096
#: threads that write and read the database (the event loop never waits for it), and the
#: threads that judge attempts (judging is CPU work: a small pool, apart from the database's)
WORKERS = 4
JUDGES = 2
#: how long the list of the hub's users is kept before it is asked again (seconds), and
#: the users asked per page of the hub's API (its largest page), at most so many pages
ROSTER_AGE = 60
ROSTER_PAGE = 200
ROSTER_PAGES = 50
#: a person's name as the hub spells it: at most this many characters
LONGEST_NAME = 100
#: the sentence for each refusal tornado itself raises
STATUS_WORDS = {
    400: "request: the request could not be read",
    401: "token: sign in to the hub first (no valid hub token came with the request)",
    403: "user: you are not allowed to do this",
    404: "path: there is nothing here",
    405: "method: this address does not take this kind of request",
    413: "body: the request is too large",
    429: "request: too many requests just now; try again in a moment",
}


class Refused(web.HTTPError):
    """A refusal: its ``text`` (``"<field>: <sentence>"``) is the answer's ``error``;
    ``retry`` the seconds after which the same request may succeed (``Retry-After``)."""

    def __init__(self, status: int, text: str, retry: int = 0) -> None:
        super().__init__(status, "%s", text)
        self.text = text
        self.retry = retry


class SettingsError(ValueError):
    """A setting the service cannot start with; the message is one sentence."""


# ----- settings ----------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """What the service needs to start, read from the environment by :func:`settings`."""

    host: str
    port: int
    prefix: str
    database: str
    state: Path | None


def _listen_address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise SettingsError("JUPYTERHUB_SERVICE_URL must be an http:// address with a host, "
                            f"such as http://127.0.0.1:8082, not {url[:80]!r}")
    try:
        port = parts.port
    except ValueError:
        port = None
    if not port:
        raise SettingsError(f"JUPYTERHUB_SERVICE_URL must name a port (1 to 65535): {url[:80]!r}")
    return parts.hostname, port


def _state_folder(text: str) -> Path:
    folder = Path(text)
    if not folder.is_absolute() or not folder.is_dir():
        raise SettingsError(f"PANGAEA_RECORD_STATE must be an existing folder given by its full "
                            f"path, not {text[:120]!r}")
    mode = folder.stat().st_mode
    if stat.S_IMODE(mode) & 0o077:
        raise SettingsError(f"PANGAEA_RECORD_STATE ({folder}) may be entered by other users "
                            "(mode {:o}); make it the hub user's own: chmod 700".format(
                                stat.S_IMODE(mode)))
    return folder


def settings(env: Mapping[str, str]) -> Settings:
    """The service's settings from ``env``; a missing or wrong one raises
    :class:`SettingsError` with one sentence saying which and what to set."""
    for name in ("JUPYTERHUB_API_TOKEN", "JUPYTERHUB_CLIENT_ID", "JUPYTERHUB_SERVICE_URL"):
        if not env.get(name):
            raise SettingsError(f"{name} is not set: the service is started by JupyterHub, "
                                f"which sets it (c.JupyterHub.services, name {SERVICE_NAME!r})")
    host, port = _listen_address(env["JUPYTERHUB_SERVICE_URL"])
    prefix = env.get("JUPYTERHUB_SERVICE_PREFIX") or DEFAULT_PREFIX
    if not (prefix.startswith("/") and prefix.endswith("/")) or len(prefix) > 200:
        raise SettingsError(f"JUPYTERHUB_SERVICE_PREFIX must start and end with '/', not "
                            f"{prefix[:80]!r}")
    state = _state_folder(env["PANGAEA_RECORD_STATE"]) if env.get("PANGAEA_RECORD_STATE") else None
    database = env.get("PANGAEA_RECORD_DB", "")
    if database:
        if not database.startswith(("sqlite:///", "postgresql://", "postgresql+psycopg://")):
            raise SettingsError("PANGAEA_RECORD_DB must be a database URL starting with "
                                "sqlite:/// or postgresql+psycopg://")
    elif state is None:
        raise SettingsError("Neither PANGAEA_RECORD_DB (a database URL) nor "
                            "PANGAEA_RECORD_STATE (a folder for the SQLite file) is set")
    return Settings(host, port, prefix, database, state)


def cookie_secret(state: Path | None) -> bytes:
    """The secret that signs the service's cookies: kept in the state folder (file 0600), so
    a restart does not sign every teacher out; a fresh one when there is no state folder."""
    if state is None:
        return secrets.token_bytes(32)
    path = state / "cookie-secret"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    text = path.read_text().strip()
    if len(text) != 64:
        raise SettingsError(f"{path} does not hold a cookie secret (64 hexadecimal digits); "
                            "remove it and start again")
    return text.encode()


# ----- the request handlers ------------------------------------------------------------


def _name(value: str) -> str:
    """A person's name from a URL, refused when it cannot be a hub user's name."""
    if not value or len(value) > LONGEST_NAME or not value.isprintable() or "/" in value:
        raise Refused(400, "name: not a person's name on the hub")
    return value


class _Base(HubOAuthenticated, web.RequestHandler):
    """Who is asking (the hub says, from a token or the OAuth cookie), and refusals as JSON."""

    page = False            # a page for a browser (HTML refusals, sign-in by redirect)

    def initialize(self) -> None:
        self.hub_auth = self.settings["hub_auth"]
        self.record: "Service" = self.settings["record"]

    async def prepare(self) -> None:
        """Ask the hub who sent the request (without blocking the loop); refuse a person
        the hub does not let use the service."""
        try:
            model = await self.hub_auth.get_user(self, sync=False)
        except web.HTTPError:
            raise Refused(503, "hub: the hub could not be asked who you are; try again soon")
        self._hub_auth_user_cache = None
        if model:
            try:
                self._hub_auth_user_cache = self.check_hub_user(model)
            except UserNotAllowed:
                raise Refused(403, "user: the hub does not give you access to the class record")

    def get_current_user(self) -> Any:
        return getattr(self, "_hub_auth_user_cache", None)

    @property
    def teacher(self) -> bool:
        user = self.current_user
        return bool(user) and bool(check_scopes({TEACHER_SCOPE}, set(user.get("scopes", []))))

    def person(self) -> str:
        """The name of the person asking; 401 when nobody signed in, 403 for a service."""
        user = self.current_user
        if not user:
            raise Refused(401, STATUS_WORDS[401])
        if user.get("kind", "user") != "user":
            raise Refused(403, "user: only a person's records are kept, not a service's")
        return str(user["name"])

    def teacher_only(self) -> str:
        name = self.person()
        if not self.teacher:
            raise Refused(403, "user: only a teacher may see or change the class's records")
        return name

    def body(self, limit: int) -> bytes:
        body = self.request.body or b""
        if len(body) > limit:
            raise Refused(413, f"body: {len(body)} bytes is too large (at most {limit})")
        return body

    def reply(self, data: Any) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(data, ensure_ascii=False))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, Refused):
            text = error.text
            if error.retry:
                self.set_header("Retry-After", str(error.retry))
        elif status_code >= 500:
            text = "server: the class record could not do this just now; try again soon"
        else:
            text = STATUS_WORDS.get(status_code, f"request: refused ({status_code})")
        if self.page:
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(self.render_string("refused.html", status=status_code,
                                           text=text.partition(": ")[2]))
            return
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps({"error": text}, ensure_ascii=False))

    def set_default_headers(self) -> None:
        # nothing of the page comes from elsewhere, and no other site may frame it
        self.set_header("Content-Security-Policy",
                        "default-src 'self'; frame-ancestors 'none'; form-action 'self'")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "same-origin")

    async def work(self, fn: Callable[..., Any], *args: Any, field: str = "request") -> Any:
        """Run ``fn(*args)`` in the database's thread pool, refusals as :meth:`guarded`."""
        return await self.guarded(self.record.run(fn, *args), field)

    async def guarded(self, work: Awaitable[Any], field: str = "request") -> Any:
        """Await ``work``: what the package refuses (``InvalidData``, ``IllegalAction``) is
        a 400 naming the field (413 for a body too large), a database that cannot be used
        (locked too long, unreachable) a 503 (the client sends again)."""
        try:
            return await work
        except TooLarge as error:
            raise Refused(413, _field_sentence(str(error), field))
        except (InvalidData, IllegalAction) as error:
            raise Refused(400, _field_sentence(str(error), field))
        except OperationalError:
            log.exception("the database could not be used")
            raise Refused(503, "database: the record is busy or out of reach just now; "
                               "nothing was stored, try again in a moment")


def _field_sentence(message: str, field: str = "request") -> str:
    """``field: sentence`` from a package error's message (most already start so; the
    others are given ``field``)."""
    first = " ".join(message.split())[:400]
    named, colon, _ = first.partition(": ")
    if colon and " " not in named.strip():
        return first
    return f"{field}: {first}"


class Attempts(_Base):
    """``POST api/attempts``: a batch of the sender's attempts, judged and stored (all or
    nothing); ``GET api/attempts``: the sender's own records."""

    async def post(self) -> None:
        user = self.person()
        body = self.body(MAX_BODY)
        added, verdicts = await self.guarded(self.record.add(user, body))
        self.reply({"stored": list(added.stored), "already": list(added.already),
                    "verdicts": verdicts})

    async def get(self) -> None:
        user = self.person()
        rows = await self.work(self.record.store.attempts, user)
        self.reply({"user": user, "attempts": [dashboard.row_json(row) for row in rows]})


class StudentAttempts(_Base):
    """``GET api/attempts/<name>``: a student's records, for that student or a teacher.
    An unknown name is told (404) only to a teacher, so names cannot be probed."""

    async def get(self, name: str) -> None:
        user = self.person()
        name = _name(name)
        if name != user and not self.teacher:
            raise Refused(403, "name: you may read only your own records")
        rows = await self.work(self.record.store.attempts, name)
        if name != user and not rows and name not in await self.record.roster():
            raise Refused(404, f"name: nobody called {name!r} has records or is on the hub")
        self.reply({"user": name, "attempts": [dashboard.row_json(row) for row in rows],
                    "history": dashboard.history(rows)})


class ClassData(_Base):
    """``GET api/class?game=&notebook=``: the dashboard's table, most-missed kinds, roster."""

    async def get(self) -> None:
        self.teacher_only()
        game, notebook = self.filter()
        roster = await self.record.roster()
        view = await self.work(self.record.class_view, roster, game, notebook)
        self.reply({**view, "roster": roster, "now": time.time()})

    def filter(self) -> tuple[str, str]:
        game = self.get_query_argument("game", "")
        notebook = self.get_query_argument("notebook", "")
        try:
            return dashboard.check_filter(game, notebook)
        except InvalidData as error:
            raise Refused(400, str(error))


class Export(ClassData):
    """``GET export.csv?game=&notebook=``: every attempt of the filter, one line each."""

    async def get(self) -> None:
        self.teacher_only()
        game, notebook = self.filter()
        text = await self.work(self.record.csv, game, notebook)
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="class-record.csv"')
        self.set_header("Cache-Control", "no-store")
        self.finish(text.encode("utf-8-sig"))


class Import(_Base):
    """``POST api/import?student=<name>``: a learner's saved progress file (the body), for a
    student on the hub's list chosen by the teacher (never a name read from the file)."""

    async def post(self) -> None:
        self.teacher_only()
        body = self.body(MAX_IMPORT)
        student = _name(self.get_query_argument("student", ""))
        if student not in await self.record.roster():
            raise Refused(400, f"student: {student!r} is not a person on the hub")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, "file: a progress file is text (UTF-8)")
        added = await self.work(self.record.store.import_file, student, text, field="file")
        self.reply({"student": student, "stored": len(added.stored),
                    "already": len(added.already)})


class Student(_Base):
    """``DELETE api/students/<name>``: every record of one student (a teacher only; from a
    browser the OAuth cookie counts only with the page's XSRF token)."""

    async def delete(self, name: str) -> None:
        self.teacher_only()
        name = _name(name)
        removed = await self.work(self.record.store.delete_user, name)
        if not removed and name not in await self.record.roster():
            raise Refused(404, f"name: nobody called {name!r} has records or is on the hub")
        self.reply({"student": name, "deleted": removed})


class Dashboard(_Base):
    """The teacher's page (``GET`` the prefix, or ``dashboard``); a browser not signed in is
    sent through the hub's sign-in, anyone else who is not a teacher gets a 403 page."""

    page = True

    def get(self) -> None:
        user = self.current_user
        if not user:
            self.redirect(self.get_login_url())
            return
        self.teacher_only()
        self.set_header("Cache-Control", "no-store")
        self.render("dashboard.html", teacher=user["name"], prefix=self.record.prefix,
                    xsrf=self.xsrf_token.decode("ascii"))


class OAuthCallback(HubOAuthCallbackHandler):
    """The end of a browser's sign-in through the hub (``oauth_callback``), with the same
    :class:`HubOAuth` as every other route (it keeps the sign-in's state and PKCE verifier)."""

    def initialize(self) -> None:
        self.hub_auth = self.settings["hub_auth"]


class NotFound(web.RequestHandler):
    """Any other address: a 404 in words, as JSON, with no identity needed."""

    def prepare(self) -> None:
        raise Refused(404, "path: there is nothing at this address of the class record")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        _Base.write_error(self, status_code, **kwargs)  # type: ignore[arg-type]

    page = False


# ----- the service ----------------------------------------------------------------------


class Service:
    """The store, its thread pool and the hub's list of people, shared by every request."""

    def __init__(self, store: Any, hub_auth: HubOAuth, prefix: str,
                 workers: int = WORKERS) -> None:
        self.store = store
        self.hub_auth = hub_auth
        self.prefix = prefix
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="class-record")
        self.judging = ThreadPoolExecutor(JUDGES, thread_name_prefix="class-record-judge")
        self.budget = Budget()
        self.recent = Recent(CACHE_SIZE)
        self._roster: tuple[float, tuple[list[str], list[str]]] = (0.0, ([], []))

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def add(self, user: str, body: bytes) -> tuple[Any, dict[str, dict[str, Any]]]:
        """Read, judge and store one batch; the server's verdicts.  The batch's new
        positions are charged to ``user``'s budget first (:class:`Refused` 429 when too
        few are left); judging runs in its own small pool, storing in the database's."""
        incoming = read_batch(body)
        positions = {(a.kind, a.seed, a.level) for a in incoming}
        wait = self.budget.charge(user, len(self.recent.new(positions)), time.monotonic())
        if wait:
            seconds = max(1, math.ceil(wait))
            raise Refused(429, f"attempts: too many new exercises to check at once; they are "
                               f"kept and sent again in {seconds} seconds", retry=seconds)
        judged = await asyncio.get_running_loop().run_in_executor(
            self.judging, lambda: [judge(attempt) for attempt in incoming])
        self.recent.add(positions)
        added = await self.run(self.store.add, user, judged)
        verdicts = {item.id: {"correct": bool(item.correct),
                              "misconception": item.misconception or ""} for item in judged}
        return added, verdicts

    def class_view(self, roster: list[str], game: str, notebook: str) -> dict[str, Any]:
        """The dashboard's data: the students on the roster and everyone else with a record,
        except the hub's teachers (a teacher trying an exercise is not in the class)."""
        teachers = set(self._roster[1][1])
        rows = [row for row in self.store.attempts(game=game or None, notebook=notebook or None)
                if row.user not in teachers]
        return dashboard.class_view(rows, roster, game, notebook)

    def csv(self, game: str, notebook: str) -> str:
        return dashboard.csv_text(self.store.attempts(game=game or None,
                                                      notebook=notebook or None))

    async def roster(self) -> list[str]:
        """The students: the people on the hub who are not teachers (asked of the hub's API
        with the service's own token, kept for a minute), and everyone else with a record."""
        fetched, (students, teachers) = self._roster
        if time.monotonic() - fetched > ROSTER_AGE:
            students, teachers = await self._hub_people()
            self._roster = (time.monotonic(), (students, teachers))
        stored = await self.run(self.store.users)
        return sorted((set(students) | set(stored)) - set(teachers), key=str.casefold)

    async def _hub_people(self) -> tuple[list[str], list[str]]:
        """(students, teachers) on the hub, page by page (at most :data:`ROSTER_PAGES`)."""
        students: list[str] = []
        teachers: list[str] = []
        offset = 0
        for _ in range(ROSTER_PAGES):
            page = await self._hub_page(offset)
            if page is None:
                break
            users, following = page
            for user in users:
                if not isinstance(user, dict) or not isinstance(user.get("name"), str) \
                        or not 0 < len(user["name"]) <= LONGEST_NAME:
                    continue
                groups = user.get("groups") or ()
                (teachers if "teachers" in groups else students).append(user["name"])
            if following is None:
                break
            offset = following
        return students, teachers

    async def _hub_page(self, offset: int) -> tuple[list[Any], int | None] | None:
        """One page of the hub's users and the offset of the next (None: the last page)."""
        url = f"{self.hub_auth.api_url.rstrip('/')}/users?offset={offset}&limit={ROSTER_PAGE}"
        try:
            response = await AsyncHTTPClient().fetch(url, request_timeout=10, headers={
                "Authorization": f"token {self.hub_auth.api_token}",
                "Accept": "application/jupyterhub-pagination+json"})
            data = json.loads(response.body)
        except (HTTPClientError, OSError, ValueError) as error:
            log.warning("the hub's list of users could not be read: %s", error)
            return None
        if isinstance(data, list):                  # a hub without pagination
            return data, None
        if not isinstance(data, dict) or not isinstance(data.get("items"), list):
            return None
        following = (data.get("_pagination") or {}).get("next") or {}
        nxt = following.get("offset") if isinstance(following, dict) else None
        return data["items"], nxt if isinstance(nxt, int) and nxt > offset else None

    def close(self) -> None:
        self.judging.shutdown(wait=True)
        self.pool.shutdown(wait=True)
        self.store.close()


HERE = Path(__file__).resolve().parent


def make_app(record: Service, secret: bytes) -> web.Application:
    """The tornado application of the service, its routes under ``record.prefix``."""
    prefix = record.prefix
    routes = [
        (prefix + "api/attempts", Attempts),
        (prefix + r"api/attempts/([^/]+)", StudentAttempts),
        (prefix + "api/class", ClassData),
        (prefix + r"export\.csv", Export),
        (prefix + "api/import", Import),
        (prefix + r"api/students/([^/]+)", Student),
        (prefix, Dashboard),
        (prefix + "dashboard", Dashboard),
        (prefix + "oauth_callback", OAuthCallback),
    ]
    return web.Application(
        routes, hub_auth=record.hub_auth, record=record, cookie_secret=secret,
        template_path=str(HERE / "templates"), static_path=str(HERE / "static"),
        static_url_prefix=prefix + "static/", default_handler_class=NotFound,
        xsrf_cookies=False,     # the hub's classes check XSRF for cookie requests
        login_url=record.hub_auth.login_url)


def hub_auth(prefix: str) -> HubOAuth:
    """JupyterHub's OAuth helper, configured from the hub's environment."""
    return HubOAuth(base_url=prefix, cache_max_age=60)


def open_store(config: Settings) -> RecordStore:
    """The record's database, its schema brought to the newest revision."""
    store = (RecordStore(config.database) if config.database
             else RecordStore.in_folder(config.state))
    store.upgrade()
    return store


async def serve(record: Service, secret: bytes, host: str, port: int) -> None:
    """Answer requests until SIGTERM (how the hub stops its services) or SIGINT; the writes
    under way finish before the store is closed."""
    server = HTTPServer(make_app(record, secret), max_body_size=MAX_ANY_BODY, xheaders=True)
    server.listen(port, host)
    log.info("the class record listens on http://%s:%d%s", host, port, record.prefix)
    record.pool.submit(dashboard.kinds)     # load every game's exercises before the class
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop.set)
    await stop.wait()
    server.stop()
    log.info("the class record stops")


def main(argv: list[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Start the service (as JupyterHub does); a wrong setting stops it with one sentence."""
    argparse.ArgumentParser(
        prog="python -m pangaea_lab.classroom.record.service",
        description="The class record service, started by JupyterHub (its settings come from "
                    "the environment the hub gives it: see the module's description).",
    ).parse_args(argv)
    env = os.environ if env is None else env
    try:
        config = settings(env)
        secret = cookie_secret(config.state)
    except SettingsError as error:
        print(f"class-record: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="[class-record %(asctime)s] %(message)s")
    try:
        store = open_store(config)
    except InvalidData as error:
        print(f"class-record: {error}", file=sys.stderr)
        return 2
    except SQLAlchemyError as error:
        said = " ".join(str(getattr(error, "orig", None) or error).split())[:300]
        print(f"class-record: the database could not be opened or brought up to date "
              f"({said})", file=sys.stderr)
        return 2
    record = Service(store, hub_auth(config.prefix), config.prefix)
    try:
        asyncio.run(serve(record, secret, config.host, config.port))
    finally:
        record.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
