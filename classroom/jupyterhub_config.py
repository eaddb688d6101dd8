"""JupyterHub for a class on one machine.  Every person on the teacher's roster logs in with a
password of their own and gets their own Jupyter server (JupyterLab and the Voilà app), run as
their own unprivileged system user, in a home folder only they can enter, within memory and
CPU limits; the course notebooks arrive (and later updates merge in) through nbgitpuller.  The
hub is served over HTTPS; idle kernels and idle servers are stopped.

Run it as root from the repository (``make hub ROSTER=path/to/roster.txt`` installs what it
needs and starts it).  Settings, all from the environment (a teacher changes none of this
file; no setting is a secret):

PANGAEA_HUB_ROSTER        the class list: one name per line, ``name teacher`` for teachers
                          (required; see classroom/roster.py)
PANGAEA_HUB_URL           where the hub listens (default https://127.0.0.1:8000: this machine
                          only; https://0.0.0.0:8000 opens it to the room's network)
PANGAEA_HUB_SSL_CERT, PANGAEA_HUB_SSL_KEY
                          the certificate and its key (default: a self-signed pair made for
                          this machine's names in the state folder)
PANGAEA_HUB_BEHIND_TLS_PROXY=1
                          HTTPS is served by a proxy in front (nginx, a load balancer): the hub
                          itself then listens on plain HTTP, on 127.0.0.1 unless told otherwise
PANGAEA_HUB_STATE         the hub's database, cookie secret, passwords to hand out and
                          certificate (default build/hub-state; only the hub's user may enter)
PANGAEA_HUB_ROOT          the students' side (default /srv/pangaea-lab): env/ (the Python
                          environment their servers run; `make hub-env`), course/ (the course
                          repository), home/<name> (each person's own folder), run/<name>
                          (their kernels' sockets)
PANGAEA_HUB_IDLE_TIMEOUT  seconds without activity before a server is stopped (default 3600)
PANGAEA_HUB_KERNEL_IDLE_TIMEOUT
                          seconds without activity before a kernel is stopped (default 1200)
PANGAEA_HUB_CULL_EVERY    how often idle servers and kernels are looked for (default 300)
PANGAEA_HUB_MEMORY        memory per person, e.g. 2G or 1500M (default 2G; 0: no limit)
PANGAEA_HUB_CPUS          CPU cores per person (default 1; 0: no limit)
PANGAEA_HUB_LOCK_AFTER    wrong passwords in a row before a name is locked (default 5)
PANGAEA_HUB_LOCK_SECONDS  how long it stays locked (default 300)
PANGAEA_HUB_START_PAGE    where people land: ``lab`` (the start notebook in JupyterLab,
                          default), ``app`` (the Voilà app, no code) or a path inside the course
PANGAEA_HUB_API_PORT, PANGAEA_HUB_PROXY_API_PORT
                          the hub's and the proxy's own ports on 127.0.0.1 (8081, 8001)
PANGAEA_HUB_PROXY         the configurable-http-proxy program (default: the one `make hub`
                          installs under build/hub, else the one on PATH)
PANGAEA_HUB_RECORD_DB     the class record's database (the ``class-record`` service, which
                          keeps every student's answers for the teachers' dashboard): a URL
                          such as postgresql+psycopg://hub@db.school/class_record (no password
                          in it: the hub user's ~/.pgpass or the database's own trust
                          settings); default: an SQLite file in the state folder's
                          class-record/ folder (only the hub's user may enter it)
PANGAEA_HUB_RECORD_PORT   the class record service's own port on 127.0.0.1 (default 8082)

What counts as activity: running code, clicking a widget, typing in a terminal (an open tab
that nobody touches does not).  See classroom/README.md for what a student can and cannot reach.
"""

# ruff: noqa: F821  (``c`` is the configuration object JupyterHub passes to this file)

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

CLASSROOM = Path(__file__).resolve().parent
REPO = CLASSROOM.parent
sys.path.insert(0, str(CLASSROOM))        # roster.py, course.py, pangaea_hub.py

from course import kernel_metadata, publish  # noqa: E402
from roster import (RosterError, check_private_file, check_private_folder,  # noqa: E402
                    read_roster)

ENV = os.environ


def _number(name: str, default: float, low: float, whole: bool = True) -> float:
    text = ENV.get(name, str(default)).strip()
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = None
    if value is None or value < low:
        kind = "a whole number" if whole else "a number"
        raise SystemExit(f"{name} must be {kind}, at least {low}, not {text!r}")
    return value


def _bytes(name: str, default: str) -> int:
    text = ENV.get(name, default).strip().upper()
    units = {"K": 2**10, "M": 2**20, "G": 2**30}
    number, unit = (text[:-1], units[text[-1]]) if text[-1:] in units else (text, 1)
    if not number.isdigit() or (int(number) * unit and int(number) * unit < 256 * 2**20):
        raise SystemExit(f"{name} must be a size such as 2G or 1500M (at least 256M, or 0 for "
                         f"no limit), not {text!r}")
    return int(number) * unit


def _stop(error: Exception) -> None:
    raise SystemExit(f"The hub cannot start: {error}")


if os.geteuid() != 0:
    raise SystemExit("The classroom hub runs as root: it makes a system user for each person "
                     "on the roster and runs their server as that user (sudo make hub ...).")

STATE = Path(ENV.get("PANGAEA_HUB_STATE", REPO / "build" / "hub-state")).resolve()
ROOT = Path(ENV.get("PANGAEA_HUB_ROOT", "/srv/pangaea-lab")).resolve()
STUDENT_PYTHON = ROOT / "env" / "bin" / "python"
IDLE_TIMEOUT = _number("PANGAEA_HUB_IDLE_TIMEOUT", 3600, 10)
KERNEL_IDLE = min(_number("PANGAEA_HUB_KERNEL_IDLE_TIMEOUT", 1200, 10), IDLE_TIMEOUT)
CULL_EVERY = _number("PANGAEA_HUB_CULL_EVERY", 300, 1)

try:
    check_private_folder(STATE, "The hub's state folder")
    ROSTER_FILE = Path(ENV.get("PANGAEA_HUB_ROSTER", "")).resolve() \
        if ENV.get("PANGAEA_HUB_ROSTER") else None
    if ROSTER_FILE is None:
        raise RosterError("set PANGAEA_HUB_ROSTER to the class list, one name per line "
                          "(make hub ROSTER=path/to/roster.txt)")
    ROSTER = read_roster(ROSTER_FILE)
    if (STATE / "jupyterhub_cookie_secret").exists():
        check_private_file(STATE / "jupyterhub_cookie_secret", "The hub's cookie secret")
except RosterError as error:
    _stop(error)
if not STUDENT_PYTHON.exists():
    raise SystemExit(f"The students' Python environment is missing ({STUDENT_PYTHON}): "
                     "`make hub-env` (or `make hub`) builds it.")

# ----- the hub over HTTPS, its proxy and its files -----------------------------------------------

URL = ENV.get("PANGAEA_HUB_URL", "https://127.0.0.1:8000")
BEHIND_PROXY = ENV.get("PANGAEA_HUB_BEHIND_TLS_PROXY") == "1"
if urlsplit(URL).scheme != ("http" if BEHIND_PROXY else "https"):
    raise SystemExit(
        f"PANGAEA_HUB_URL is {URL!r}: the hub serves HTTPS (https://...); only with "
        "PANGAEA_HUB_BEHIND_TLS_PROXY=1, when a proxy in front serves HTTPS, is it http://...")


def _certificate() -> tuple[Path, Path]:
    """The certificate and key: given, or a self-signed pair for this machine's names."""
    given = ENV.get("PANGAEA_HUB_SSL_CERT"), ENV.get("PANGAEA_HUB_SSL_KEY")
    if any(given):
        if not all(given):
            raise RosterError("set both PANGAEA_HUB_SSL_CERT and PANGAEA_HUB_SSL_KEY, or "
                              "neither (a self-signed certificate is then made)")
        cert = Path(given[0])
        if not cert.is_file():
            raise RosterError(f"the certificate {cert} does not exist")
        return cert, check_private_file(given[1], "The certificate's key")
    folder = check_private_folder(STATE / "tls", "The certificate folder")
    cert, key = folder / "hub.crt", folder / "hub.key"
    if not (cert.exists() and key.exists()):
        host = urlsplit(URL).hostname or "127.0.0.1"
        names = {"DNS:localhost", "IP:127.0.0.1", f"DNS:{socket.gethostname()}"}
        names.add(f"IP:{host}" if host.replace(".", "").isdigit() else f"DNS:{host}")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                        "-days", "365", "-subj", "/CN=pangaea_lab classroom",
                        "-addext", "subjectAltName=" + ",".join(sorted(names)),
                        "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True)
        key.chmod(0o600)
    return cert, key


c.JupyterHub.bind_url = URL
if not BEHIND_PROXY:
    try:
        _cert, _key = _certificate()
    except RosterError as error:
        _stop(error)
    c.JupyterHub.ssl_cert, c.JupyterHub.ssl_key = str(_cert), str(_key)
c.JupyterHub.hub_ip = "127.0.0.1"                # the hub's own API: this machine only
c.JupyterHub.hub_port = _number("PANGAEA_HUB_API_PORT", 8081, 1)
c.ConfigurableHTTPProxy.api_url = \
    f"http://127.0.0.1:{_number('PANGAEA_HUB_PROXY_API_PORT', 8001, 1)}"
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.cleanup_servers = True              # stopping the hub stops every server
c.JupyterHub.cleanup_proxy = True

_local_proxy = REPO / "build" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
_proxy = ENV.get("PANGAEA_HUB_PROXY") or (str(_local_proxy) if _local_proxy.exists() else
                                          shutil.which("configurable-http-proxy"))
if not _proxy:
    raise SystemExit("configurable-http-proxy was not found: `make hub` installs it under "
                     "build/hub (it needs npm), or set PANGAEA_HUB_PROXY to its path.")
c.ConfigurableHTTPProxy.command = [_proxy]

# ----- who may log in: the roster, a password each -----------------------------------------------

c.JupyterHub.authenticator_class = "pangaea_hub.ClassroomAuthenticator"
c.ClassroomAuthenticator.roster_file = str(ROSTER_FILE)
c.ClassroomAuthenticator.handout_file = str(STATE / "passwords-to-hand-out.txt")
c.ClassroomAuthenticator.enable_signup = False
c.ClassroomAuthenticator.minimum_password_length = 10
c.ClassroomAuthenticator.check_common_password = True
c.ClassroomAuthenticator.allowed_failed_logins = _number("PANGAEA_HUB_LOCK_AFTER", 5, 1)
c.ClassroomAuthenticator.seconds_before_next_try = _number("PANGAEA_HUB_LOCK_SECONDS", 300, 1)
c.Authenticator.allowed_users = set(ROSTER.everyone)
c.Authenticator.admin_users = set(ROSTER.teachers)

# ----- each person's own server ------------------------------------------------------------------

c.JupyterHub.spawner_class = "pangaea_hub.StudentSpawner"
c.StudentSpawner.homes = str(ROOT / "home")
c.StudentSpawner.teacher_files = str(ROOT / "teachers")
c.StudentSpawner.memory_bytes = _bytes("PANGAEA_HUB_MEMORY", "2G")
c.StudentSpawner.cpus = _number("PANGAEA_HUB_CPUS", 1, 0, whole=False)
c.StudentSpawner.interrupt_timeout = 2           # the hub stops promptly
c.StudentSpawner.term_timeout = 5
c.Spawner.cmd = [str(STUDENT_PYTHON), "-m", "jupyterhub.singleuser"]
# a class arriving together on a small machine: a server may take minutes to answer; waiting
# is better than giving up on it
c.Spawner.start_timeout = 300
c.Spawner.http_timeout = 300
c.Spawner.args = [
    # idle kernels stop, even with a tab still open on them (that tab gets a new kernel
    # when the student clicks again); idle terminals too
    f"--MappingKernelManager.cull_idle_timeout={KERNEL_IDLE}",
    f"--MappingKernelManager.cull_interval={min(CULL_EVERY, KERNEL_IDLE)}",
    "--MappingKernelManager.cull_connected=True",
    f"--TerminalManager.cull_inactive_timeout={KERNEL_IDLE}",
    f"--TerminalManager.cull_interval={min(CULL_EVERY, KERNEL_IDLE)}",
]
c.Spawner.environment = {
    "PYTHONNOUSERSITE": "1",
    # how often a server tells the hub when it was last used (the culler reads it)
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(min(300, max(5, KERNEL_IDLE // 4))),
    # the course repository belongs to the hub's user: a git setting of the students' side
    # lets their git read it (git takes this setting only from a system or global file)
    "GIT_CONFIG_SYSTEM": str(ROOT / "gitconfig"),
}

# ----- the course: published for nbgitpuller, pulled at every start -------------------------------

# (notebooks carry the students' kernel's own metadata, so they open unmodified)
publish(REPO / "notebooks", ROOT / "course", ROOT / "teachers",
        kernel_metadata(str(STUDENT_PYTHON)))
(ROOT / "gitconfig").write_text(f"[safe]\n\tdirectory = {ROOT / 'course'}\n"
                                f"\tdirectory = {ROOT / 'course' / '.git'}\n")
(ROOT / "gitconfig").chmod(0o644)
(ROOT / "home").mkdir(parents=True, exist_ok=True)
for _folder in (ROOT, ROOT / "home"):
    _folder.chmod(0o755)

_START = ENV.get("PANGAEA_HUB_START_PAGE", "lab")
_LANDING = {"lab": "lab/tree/course/00_start_here.ipynb",
            "app": "voila/render/course/00_start_here.ipynb"}.get(
    _START, _START.lstrip("/"))
c.Spawner.default_url = "/git-pull?" + urlencode({
    "repo": "file://" + quote(str(ROOT / "course")), "branch": "main",
    "targetpath": "course", "urlpath": _LANDING}, safe="/:")

# no "official Jupyter news" question, no update check: JupyterLab settings in the students'
# environment (JupyterLab reads overrides.json from there)
_lab_settings = ROOT / "env" / "share" / "jupyter" / "lab" / "settings"
_lab_settings.mkdir(parents=True, exist_ok=True)
(_lab_settings / "overrides.json").write_text(json.dumps({
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false",
                                                    "checkForUpdates": False}}, indent=1))
(_lab_settings / "overrides.json").chmod(0o644)

# only what a person does counts as activity (pangaea_lab/classroom/activity.py): a server
# extension enabled the standard way, in the students' environment
_server_config = ROOT / "env" / "etc" / "jupyter" / "jupyter_server_config.d"
_server_config.mkdir(parents=True, exist_ok=True)
# A class starts together, so what each server does at its start is paid 30 times over on a
# small machine: the server extensions nobody in a lesson uses are off (jupyter_lsp looks for
# language servers, running npm, at every start; notebook_shim serves the classic Notebook);
# JupyterLab's extension manager lists what is installed without asking PyPI.
(_server_config / "pangaea_lab_classroom.json").write_text(json.dumps(
    {"ServerApp": {"jpserver_extensions": {"pangaea_lab.classroom.activity": True,
                                           "jupyter_lsp": False, "notebook_shim": False}}},
    indent=1))
(_server_config / "pangaea_lab_classroom.json").chmod(0o644)
(_server_config.parent / "jupyter_lab_config.json").write_text(json.dumps(
    {"LabApp": {"extension_manager": "readonly"}}, indent=1))
(_server_config.parent / "jupyter_lab_config.json").chmod(0o644)
# ...and each JupyterLab page load asks for less: no check whether JupyterLab needs a rebuild
# (Node.js runs for it), no list of "Save and Export Notebook As" formats (it imports every
# nbconvert exporter): that menu is left out
_lab_config = ROOT / "env" / "etc" / "jupyter" / "labconfig"
_lab_config.mkdir(parents=True, exist_ok=True)
(_lab_config / "page_config.json").write_text(json.dumps({
    "buildCheck": False, "buildAvailable": False,
    "disabledExtensions": {"@jupyterlab/notebook-extension:export": True,
                           "@jupyterlab/notebook-extension:update-raw-mimetype": True}},
    indent=1))
(_lab_config / "page_config.json").chmod(0o644)
# matplotlib lists the machine's fonts into each new home at its first chart: listed once here,
# with the students' matplotlib, and copied into each home as it is made
_skeleton = ROOT / "env" / "share" / "pangaea-lab" / "home"
_fonts = _skeleton / ".cache" / "matplotlib"
_fonts.mkdir(parents=True, exist_ok=True)
subprocess.run([str(STUDENT_PYTHON), "-c", "import matplotlib.font_manager"], check=True,
               capture_output=True, timeout=300,
               env={"MPLCONFIGDIR": str(_fonts), "PATH": "/usr/bin:/bin", "HOME": str(_fonts)})
for _path in [_skeleton, *_skeleton.rglob("*")]:
    _path.chmod(0o755 if _path.is_dir() else 0o644)
c.StudentSpawner.skeleton = str(_skeleton)
# kernels talk to their server over Unix sockets in a folder only the person can enter: a
# classmate cannot listen to them, and 60 kernels starting at once cannot pick the same free
# TCP port (a kernel that lost that race died at its start)
c.StudentSpawner.runtime_dirs = str(ROOT / "run")
c.Spawner.args.append("--KernelManager.transport=ipc")

# ----- idle servers are stopped ------------------------------------------------------------------

c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                f"--timeout={IDLE_TIMEOUT}", f"--cull-every={CULL_EVERY}"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "description": "Stop students' servers that have been idle for a while",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
# ----- the class record: every answer kept, judged again, shown to the teachers -----------------

# The service (pangaea_lab/classroom/record/service.py) is started and proxied by the hub
# (/services/class-record/); if it dies the hub starts it again (at its next check of the
# service's process, within about half a minute), and the students' kernels keep their answers
# in an outbox meanwhile (pangaea_lab/classroom/record_client.py).
RECORD = "class-record"
RECORD_SCOPE = "custom:class-record:read"
_record_port = _number("PANGAEA_HUB_RECORD_PORT", 8082, 1)
_record_url = f"http://127.0.0.1:{_record_port}"
try:
    _record_state = check_private_folder(STATE / RECORD, "The class record's folder")
except RosterError as error:
    _stop(error)
_record_env = {"PANGAEA_RECORD_STATE": str(_record_state)}
if ENV.get("PANGAEA_HUB_RECORD_DB"):
    _record_env["PANGAEA_RECORD_DB"] = ENV["PANGAEA_HUB_RECORD_DB"]
c.JupyterHub.services.append({
    "name": RECORD,
    "url": _record_url,
    "command": [sys.executable, "-m", "pangaea_lab.classroom.record.service"],
    "environment": _record_env,
    # a teacher's sign-in carries the teacher's scope to the service; nobody is asked
    # to confirm signing in to a part of the hub itself
    "oauth_client_allowed_scopes": [RECORD_SCOPE],
    "oauth_no_confirm": True,
})
c.JupyterHub.custom_scopes = {RECORD_SCOPE: {
    "description": "Read every student's class record: the teachers' dashboard"}}
c.JupyterHub.load_groups = {"teachers": {"users": list(ROSTER.teachers)}}
c.JupyterHub.load_roles += [
    {"name": "class-record-teacher", "description": "The class record's dashboard",
     "scopes": [RECORD_SCOPE, f"access:services!service={RECORD}"], "groups": ["teachers"]},
    # everyone may use the service (it keeps a person's own answers only)
    {"name": "user", "description": "Standard user privileges, and the class record",
     "scopes": ["self", f"access:services!service={RECORD}"]},
    # the service reads who is in the class (names and groups, nothing else)
    {"name": "class-record-service", "description": "Who is in the class",
     "scopes": ["list:users", "read:users:name", "read:users:groups"], "services": [RECORD]},
]
# a student's server token (JUPYTERHUB_API_TOKEN, which their kernels see) may send to it
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server",
                                 f"access:services!service={RECORD}"]
# where a kernel sends: the service itself, inside the hub's machine
c.Spawner.environment["PANGAEA_RECORD_URL"] = f"{_record_url}/services/{RECORD}/"

# activity comes from the servers themselves (kernels, terminals), not from the proxy's
# traffic: a tab left open polls its server all the time
c.JupyterHub.last_activity_interval = 0
