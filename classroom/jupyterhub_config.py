"""JupyterHub for a class on one machine: each student logs in with their own name and the
class password and gets their own Jupyter server (JupyterLab and the Voilà app) with
pangaea_lab installed and the notebooks copied into their folder; a server left idle is
stopped by jupyterhub-idle-culler.

Run it from the repository (``make hub`` installs what it needs and starts it)::

    PANGAEA_HUB_PASSWORD='a class password' .venv/bin/jupyterhub -f classroom/jupyterhub_config.py

Settings, all from the environment (a teacher changes none of this file):

PANGAEA_HUB_PASSWORD      the class password (at least 8 characters; required)
PANGAEA_HUB_STUDENTS      names allowed to log in, separated by commas (default: any name)
PANGAEA_HUB_TEACHERS      names that are hub admins; they log in with PANGAEA_HUB_ADMIN_PASSWORD
PANGAEA_HUB_URL           where the hub listens (default http://0.0.0.0:8000)
PANGAEA_HUB_API_PORT, PANGAEA_HUB_PROXY_API_PORT
                          the hub's and the proxy's own ports on 127.0.0.1 (8081, 8001)
PANGAEA_HUB_STATE         the hub's database, secrets and the students' folders
                          (default build/hub-state in the repository)
PANGAEA_HUB_IDLE_TIMEOUT  seconds without activity before a student's server is stopped
                          (default 3600); their files stay, the next login starts it again
PANGAEA_HUB_CULL_EVERY    how often the culler looks, in seconds (default 300)
PANGAEA_HUB_PROXY         the configurable-http-proxy program (default: the one `make hub`
                          installs under build/hub, else the one on PATH)
PANGAEA_HUB_START_PAGE    the page a student lands on (default the start notebook in JupyterLab;
                          e.g. /voila/render/00_start_here.ipynb for the app without code)

On one machine every student's server runs as the same system user, in a folder of their own
(JupyterHub's SimpleLocalProcessSpawner): right for a class in a room on a trusted network, not
for strangers on the internet.  For a bigger class, one container per student on Kubernetes:
see classroom/README.md.
"""

# ruff: noqa: F821  (``c`` is the configuration object JupyterHub passes to this file)

import os
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
ENV = os.environ


def _number(name: str, default: int, low: int) -> int:
    text = ENV.get(name, str(default))
    if not (text.isascii() and text.isdigit()) or int(text) < low:
        raise SystemExit(f"{name} must be a whole number, at least {low}, not {text!r}")
    return int(text)


def _names(name: str) -> set[str]:
    return {part.strip() for part in ENV.get(name, "").split(",") if part.strip()}


STATE = Path(ENV.get("PANGAEA_HUB_STATE", REPO / "build" / "hub-state")).resolve()
HOMES = STATE / "home"
STATE.mkdir(parents=True, exist_ok=True)
HOMES.mkdir(exist_ok=True)
IDLE_TIMEOUT = _number("PANGAEA_HUB_IDLE_TIMEOUT", 3600, 10)
CULL_EVERY = _number("PANGAEA_HUB_CULL_EVERY", 300, 1)

password = ENV.get("PANGAEA_HUB_PASSWORD", "")
if len(password) < 8:
    raise SystemExit("Set PANGAEA_HUB_PASSWORD to the class password (at least 8 characters) "
                     "before starting the hub.")

# ----- the hub, its proxy and its files ----------------------------------------------------------

c.JupyterHub.bind_url = ENV.get("PANGAEA_HUB_URL", "http://0.0.0.0:8000")
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

# ----- who may log in ----------------------------------------------------------------------------

c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = password
students, teachers = _names("PANGAEA_HUB_STUDENTS"), _names("PANGAEA_HUB_TEACHERS")
if teachers:
    c.Authenticator.admin_users = teachers
    c.SharedPasswordAuthenticator.admin_password = ENV.get("PANGAEA_HUB_ADMIN_PASSWORD", "")
if students:
    c.Authenticator.allowed_users = students | teachers
else:
    c.Authenticator.allow_all = True

# ----- each student's own server -----------------------------------------------------------------

c.JupyterHub.spawner_class = "simple"            # SimpleLocalProcessSpawner: a folder each
c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
# the single-user server from the same Python environment as the hub, where pangaea_lab is
# installed (`make hub` installs the project there)
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.default_url = ENV.get("PANGAEA_HUB_START_PAGE", "/lab/tree/00_start_here.ipynb")
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
if hasattr(os, "getuid") and os.getuid() == 0:
    # a classroom server or CI container running as root: Jupyter asks to be told
    c.Spawner.args = ["--allow-root"]
# kernels inherit this: the notebooks import the project from the hub's environment
c.Spawner.environment = {
    "PYTHONNOUSERSITE": "1",
    # how often a server tells the hub it was used (the culler reads it)
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(min(300, max(10, IDLE_TIMEOUT // 4))),
}


def copy_notebooks(spawner) -> None:
    """Before a student's server starts: copy the project's notebooks into their folder.
    Notebooks the student already has are left alone (their work is kept); new or missing
    ones are added, so an updated course reaches everyone at their next start."""
    home = Path(spawner.home_dir)
    home.mkdir(parents=True, exist_ok=True)
    for source in NOTEBOOKS.rglob("*"):
        if ".ipynb_checkpoints" in source.parts or not source.is_file():
            continue
        target = home / source.relative_to(NOTEBOOKS)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    spawner.log.info("pangaea_lab notebooks are in %s", home)


c.Spawner.pre_spawn_hook = copy_notebooks

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
# how often the hub asks the proxy which servers saw traffic (the culler reads it)
c.JupyterHub.last_activity_interval = min(300, max(10, IDLE_TIMEOUT // 4))
