"""The classroom files without starting anything (the running hub is tested by ``make
test-hub``): the JupyterHub configuration read as JupyterHub reads it, the roster and the
secrets checked before the hub starts, the course published for the students, the activity
that keeps a student's server, and the Kubernetes values file and image recipe."""

import importlib.util
import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml
from traitlets.config import Config

from pangaea_lab.classroom.activity import people_activity

REPO = Path(__file__).resolve().parents[1]
CLASSROOM = REPO / "classroom"


def _module(name):
    spec = importlib.util.spec_from_file_location(name, CLASSROOM / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # as the hub's configuration imports it
    spec.loader.exec_module(module)
    return module


roster = _module("roster")
course = _module("course")


@pytest.fixture
def root(tmp_path):
    """The students' side of a hub: a stand-in for their Python environment."""
    folder = tmp_path / "srv"
    (folder / "env" / "bin").mkdir(parents=True)
    stand_in(folder / "env" / "bin" / "python")
    return folder


def stand_in(python):
    """The students' Python, played by the tests' own (which has ipykernel)."""
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)


def load_config(monkeypatch, tmp_path, root, uid=0, **env):
    """Run classroom/jupyterhub_config.py the way JupyterHub does (a ``c`` to fill in), as
    root unless ``uid`` says otherwise."""
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    (tmp_path / "roster.txt").write_text("ada\ngrace\nhopper teacher\n")
    settings = {"PANGAEA_HUB_STATE": str(tmp_path / "state"), "PANGAEA_HUB_ROOT": str(root),
                "PANGAEA_HUB_ROSTER": str(tmp_path / "roster.txt"),
                "PANGAEA_HUB_PROXY": "/bin/true"}
    settings.update(env)
    for name in [n for n in os.environ if n.startswith("PANGAEA_HUB_")]:
        monkeypatch.delenv(name, raising=False)
    for name, value in settings.items():
        if value is not None:
            monkeypatch.setenv(name, value)
    path = CLASSROOM / "jupyterhub_config.py"
    c = Config()
    monkeypatch.setattr(sys, "path", list(sys.path))
    exec(compile(path.read_text(), str(path), "exec"), {"c": c, "__file__": str(path)})
    return c


def test_the_hub_configuration(monkeypatch, tmp_path, root):
    c = load_config(monkeypatch, tmp_path, root, PANGAEA_HUB_IDLE_TIMEOUT="600")
    assert c.JupyterHub.bind_url == "https://127.0.0.1:8000"      # this machine only, HTTPS
    cert, key = Path(c.JupyterHub.ssl_cert), Path(c.JupyterHub.ssl_key)
    assert cert.is_file() and key.stat().st_mode & 0o077 == 0
    assert (tmp_path / "state").stat().st_mode & 0o077 == 0
    assert c.JupyterHub.authenticator_class == "pangaea_hub.ClassroomAuthenticator"
    assert c.ClassroomAuthenticator.enable_signup is False
    assert c.ClassroomAuthenticator.allowed_failed_logins == 5
    assert c.Authenticator.allowed_users == {"ada", "grace", "hopper"}
    assert c.Authenticator.admin_users == {"hopper"}
    assert c.JupyterHub.spawner_class == "pangaea_hub.StudentSpawner"
    assert c.StudentSpawner.homes == str(root / "home")
    assert c.StudentSpawner.memory_bytes == 2 * 2**30 and c.StudentSpawner.cpus == 1
    assert c.Spawner.cmd == [str(root / "env" / "bin" / "python"), "-m",
                             "jupyterhub.singleuser"]
    args = " ".join(c.Spawner.args)
    assert "--MappingKernelManager.cull_idle_timeout=600" in args
    assert "--MappingKernelManager.cull_connected=True" in args
    extension = json.loads((root / "env" / "etc" / "jupyter" / "jupyter_server_config.d" /
                            "pangaea_lab_classroom.json").read_text())
    # the activity that counts is on; what no lesson uses is off (a cheaper start)
    assert extension["ServerApp"]["jpserver_extensions"] == {
        "pangaea_lab.classroom.activity": True, "jupyter_lsp": False, "notebook_shim": False}
    assert c.Spawner.default_url.startswith("/git-pull?repo=file://")
    assert "urlpath=lab/tree/course/00_start_here.ipynb" in c.Spawner.default_url
    culler = c.JupyterHub.services[0]
    assert culler["command"][1:] == ["-m", "jupyterhub_idle_culler", "--timeout=600",
                                     "--cull-every=300"]
    role = c.JupyterHub.load_roles[0]
    assert role["services"] == ["idle-culler"] and "delete:servers" in role["scopes"]
    assert c.JupyterHub.last_activity_interval == 0
    overrides = json.loads((root / "env" / "share" / "jupyter" / "lab" / "settings" /
                            "overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    assert (root / "course" / "00_start_here.ipynb").is_file()
    assert not (root / "course" / "teachers.ipynb").exists()
    # the course's notebooks carry the students' kernel's metadata: they open unmodified
    shipped = json.loads((root / "course" / "00_start_here.ipynb").read_text())
    assert shipped["metadata"]["language_info"]["version"] == sys.version.split()[0]
    assert shipped["metadata"]["kernelspec"]["name"] == "python3"
    assert (root / "teachers" / "teachers.ipynb").is_file()


@pytest.mark.parametrize("setting, value, message", [
    ("PANGAEA_HUB_ROSTER", None, "set PANGAEA_HUB_ROSTER"),
    ("PANGAEA_HUB_URL", "http://0.0.0.0:8000", "the hub serves HTTPS"),
    ("PANGAEA_HUB_SSL_CERT", "/etc/hostname", "set both PANGAEA_HUB_SSL_CERT"),
    ("PANGAEA_HUB_IDLE_TIMEOUT", "soon", "PANGAEA_HUB_IDLE_TIMEOUT must be a whole number"),
    ("PANGAEA_HUB_MEMORY", "lots", "PANGAEA_HUB_MEMORY must be a size"),
    ("PANGAEA_HUB_MEMORY", "10M", "at least 256M"),
    ("PANGAEA_HUB_CPUS", "-1", "PANGAEA_HUB_CPUS must be a number"),
])
def test_the_hub_refuses_to_start_with_a_sentence(monkeypatch, tmp_path, root, setting, value,
                                                  message):
    with pytest.raises(SystemExit, match=message):
        load_config(monkeypatch, tmp_path, root, **{setting: value})


def test_the_hub_refuses_to_start_as_another_user_than_root(monkeypatch, tmp_path, root):
    with pytest.raises(SystemExit, match="runs as root"):
        load_config(monkeypatch, tmp_path, root, uid=1000)


def test_a_key_others_can_read_or_a_missing_environment_is_refused(monkeypatch, tmp_path, root):
    cert, key = tmp_path / "c.crt", tmp_path / "c.key"
    cert.write_text("x")
    key.write_text("x")
    key.chmod(0o644)
    with pytest.raises(SystemExit, match="can be read by other users"):
        load_config(monkeypatch, tmp_path, root, PANGAEA_HUB_SSL_CERT=str(cert),
                    PANGAEA_HUB_SSL_KEY=str(key))
    (root / "env" / "bin" / "python").unlink()
    with pytest.raises(SystemExit, match="make hub-env"):
        load_config(monkeypatch, tmp_path, root)
    stand_in(root / "env" / "bin" / "python")
    # behind a proxy that serves HTTPS, the hub itself listens on plain HTTP
    plain = load_config(monkeypatch, tmp_path, root, PANGAEA_HUB_BEHIND_TLS_PROXY="1",
                        PANGAEA_HUB_URL="http://127.0.0.1:8000")
    assert "ssl_cert" not in plain.JupyterHub


def test_a_roster(tmp_path):
    read = roster.parse_roster("# 7B\nada\n\ngrace  # twin\nhopper teacher\n")
    assert read.students == ("ada", "grace") and read.teachers == ("hopper",)
    assert roster.system_user("ada") == "pl-ada"


@pytest.mark.parametrize("text, message", [
    ("", "holds no names"),
    ("Ada\n", "line 1: 'Ada' is not a usable name"),
    ("ada\neve<script>\n", "line 2"),
    ("ada\nada\n", "on the roster twice"),
    ("ada admin\n", "optionally followed by the word 'teacher'"),
    ("ada teacher extra\n", "line 1"),
    ("a" * 21 + "\n", "1 to 20 lower-case"),
    ("../etc\n", "not a usable name"),
    ("x\n" * 70_000, "longer than"),
    ("\n".join(f"s{i}" for i in range(1_001)), "more than 1,000 names"),
])
def test_a_bad_roster_is_refused_with_its_line(text, message):
    with pytest.raises(roster.RosterError, match=message):
        roster.parse_roster(text)


def test_a_missing_roster_file_and_generated_passwords(tmp_path):
    with pytest.raises(roster.RosterError, match="does not exist"):
        roster.read_roster(tmp_path / "nowhere.txt")
    passwords = {roster.new_password() for _ in range(50)}
    assert len(passwords) == 50
    assert all(len(p) >= 10 and p.count("-") == 3 for p in passwords)


def test_the_course_is_published_once_per_change(tmp_path):
    notebooks = tmp_path / "notebooks"
    (notebooks / "harmonies").mkdir(parents=True)
    (notebooks / "00_start_here.ipynb").write_text("{}")
    (notebooks / "teachers.ipynb").write_text("{}")
    (notebooks / "harmonies" / "01.ipynb").write_text("{}")
    (notebooks / "harmonies" / ".ipynb_checkpoints").mkdir()
    (notebooks / "harmonies" / ".ipynb_checkpoints" / "01-checkpoint.ipynb").write_text("{}")
    repo, teachers = tmp_path / "course", tmp_path / "teachers"
    assert course.publish(notebooks, repo, teachers) is True
    assert course.publish(notebooks, repo, teachers) is False      # nothing changed
    files = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True,
                           check=True).stdout.split()
    assert files == ["00_start_here.ipynb", "harmonies/01.ipynb"]
    assert (teachers / "teachers.ipynb").is_file()
    (notebooks / "harmonies" / "01.ipynb").unlink()
    (notebooks / "harmonies" / "02.ipynb").write_text('{"new": 1}')
    assert course.publish(notebooks, repo) is True
    files = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True,
                           check=True).stdout.split()
    assert files == ["00_start_here.ipynb", "harmonies/02.ipynb"]


class _Kernels:
    def __init__(self, when):
        self.last_kernel_activity = when


def test_only_kernels_and_terminals_keep_a_students_server():
    started = datetime(2026, 12, 5, 9, 0, tzinfo=timezone.utc)
    settings = {"started": started, "kernel_manager": _Kernels(started + timedelta(minutes=5)),
                "api_last_activity": started + timedelta(hours=2),   # an open tab's polling
                "last_activity_times": {}}
    assert people_activity(settings) == started + timedelta(minutes=5)
    settings["terminal_last_activity"] = started + timedelta(minutes=30)
    assert people_activity(settings) == started + timedelta(minutes=30)


def test_the_kubernetes_values_and_image():
    values = yaml.safe_load((CLASSROOM / "z2jh-values.yaml").read_text())
    assert values["cull"]["enabled"] is True and values["cull"]["timeout"] > 0
    user = values["singleuser"]
    assert user["image"]["name"] and user["image"]["tag"]
    assert "git-pull" in user["defaultUrl"]
    assert values["hub"]["config"]["JupyterHub"]["authenticator_class"] == "native"
    assert values["proxy"]["https"]["enabled"] is True
    image = (CLASSROOM / "Dockerfile").read_text()
    assert "pip install" in image and "nbgitpuller" in image
