"""The classroom files without starting anything (the running hub is tested by ``make
test-hub``): the JupyterHub configuration read as JupyterHub reads it, its notebook copy before
a student's server starts, and the Kubernetes values file and image recipe."""

import logging
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from traitlets.config import Config

REPO = Path(__file__).resolve().parents[1]
CLASSROOM = REPO / "classroom"


def load_config(monkeypatch, tmp_path, **env):
    """Run classroom/jupyterhub_config.py the way JupyterHub does (a ``c`` to fill in)."""
    settings = {"PANGAEA_HUB_STATE": str(tmp_path / "state"),
                "PANGAEA_HUB_PASSWORD": "a class password", "PANGAEA_HUB_PROXY": "/bin/true"}
    settings.update(env)
    for name in ("PANGAEA_HUB_STUDENTS", "PANGAEA_HUB_TEACHERS", "PANGAEA_HUB_IDLE_TIMEOUT",
                 "PANGAEA_HUB_CULL_EVERY", "PANGAEA_HUB_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    path = CLASSROOM / "jupyterhub_config.py"
    c = Config()
    exec(compile(path.read_text(), str(path), "exec"), {"c": c, "__file__": str(path)})
    return c


def test_the_hub_configuration(monkeypatch, tmp_path):
    c = load_config(monkeypatch, tmp_path, PANGAEA_HUB_STUDENTS="ada, grace,",
                    PANGAEA_HUB_IDLE_TIMEOUT="600")
    assert c.JupyterHub.authenticator_class == "shared-password"
    assert c.SharedPasswordAuthenticator.user_password == "a class password"
    assert c.Authenticator.allowed_users == {"ada", "grace"}
    assert c.JupyterHub.spawner_class == "simple"
    assert c.SimpleLocalProcessSpawner.home_dir_template == str(
        tmp_path / "state" / "home" / "{username}")
    assert c.Spawner.cmd[1:] == ["-m", "jupyterhub.singleuser"]
    culler = c.JupyterHub.services[0]
    assert culler["name"] == "idle-culler"
    assert culler["command"][1:] == ["-m", "jupyterhub_idle_culler", "--timeout=600",
                                     "--cull-every=300"]
    role = c.JupyterHub.load_roles[0]
    assert role["services"] == ["idle-culler"] and "delete:servers" in role["scopes"]
    assert c.JupyterHub.last_activity_interval == 150


def test_the_hub_refuses_to_start_without_a_good_class_password(monkeypatch, tmp_path):
    with pytest.raises(SystemExit, match="at least 8 characters"):
        load_config(monkeypatch, tmp_path, PANGAEA_HUB_PASSWORD="short")
    with pytest.raises(SystemExit, match="PANGAEA_HUB_IDLE_TIMEOUT must be a whole number"):
        load_config(monkeypatch, tmp_path, PANGAEA_HUB_IDLE_TIMEOUT="soon")


def test_notebooks_are_copied_in_and_a_students_work_is_kept(monkeypatch, tmp_path):
    c = load_config(monkeypatch, tmp_path)
    home = tmp_path / "state" / "home" / "ada"
    spawner = SimpleNamespace(home_dir=str(home), log=logging.getLogger("test"))
    c.Spawner.pre_spawn_hook(spawner)
    shipped = sorted(p.relative_to(REPO / "notebooks") for p in (REPO / "notebooks").rglob("*")
                     if p.is_file() and ".ipynb_checkpoints" not in p.parts)
    copied = sorted(p.relative_to(home) for p in home.rglob("*") if p.is_file())
    assert copied == shipped
    work = home / "harmonies" / "01_setup_and_turns.ipynb"
    work.write_text("the student's own work")
    (home / "00_start_here.ipynb").unlink()
    c.Spawner.pre_spawn_hook(spawner)
    assert work.read_text() == "the student's own work"
    assert (home / "00_start_here.ipynb").is_file()


def test_the_kubernetes_values_and_image():
    values = yaml.safe_load((CLASSROOM / "z2jh-values.yaml").read_text())
    assert values["cull"]["enabled"] is True and values["cull"]["timeout"] > 0
    user = values["singleuser"]
    assert user["image"]["name"] and user["image"]["tag"]
    assert "/srv/pangaea_lab/notebooks" in " ".join(
        user["lifecycleHooks"]["postStart"]["exec"]["command"])
    assert values["hub"]["config"]["JupyterHub"]["authenticator_class"] == "shared-password"
    image = (CLASSROOM / "Dockerfile").read_text()
    assert "/srv/pangaea_lab/notebooks" in image and "pip install" in image
