"""The class record's wiring in the classroom hub's configuration (classroom/jupyterhub_config.py
run as JupyterHub runs it, without a hub) and in the Kubernetes values: the service, its
database, the teachers' scope and group, who may send to it, and the address the students'
kernels are given.  ``make test-hub`` runs the same wiring for real."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_classroom_files import load_config, stand_in  # noqa: E402

CLASSROOM = Path(__file__).resolve().parents[2] / "classroom"
SCOPE, ACCESS = "custom:class-record:read", "access:services!service=class-record"


def _root(tmp_path: Path) -> Path:
    folder = tmp_path / "srv"
    (folder / "env" / "bin").mkdir(parents=True)
    stand_in(folder / "env" / "bin" / "python")
    return folder


def _service(c) -> dict:
    return next(s for s in c.JupyterHub.services if s["name"] == "class-record")


def _role(c, name: str) -> dict:
    return next(r for r in c.JupyterHub.load_roles if r["name"] == name)


def test_the_hub_runs_the_class_record_on_sqlite_in_its_state_folder(monkeypatch, tmp_path):
    c = load_config(monkeypatch, tmp_path, _root(tmp_path))
    service = _service(c)
    assert service["url"] == "http://127.0.0.1:8082"
    assert service["command"] == [sys.executable, "-m", "pangaea_lab.classroom.record.service"]
    state = Path(service["environment"]["PANGAEA_RECORD_STATE"])
    assert state == tmp_path / "state" / "class-record"
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert "PANGAEA_RECORD_DB" not in service["environment"]
    assert service["oauth_client_allowed_scopes"] == [SCOPE]
    assert c.Spawner.environment["PANGAEA_RECORD_URL"] == \
        "http://127.0.0.1:8082/services/class-record/"


def test_a_database_url_and_a_port_are_passed_on(monkeypatch, tmp_path):
    url = "postgresql+psycopg://hub@/record?host=/run/postgresql"
    c = load_config(monkeypatch, tmp_path, _root(tmp_path), PANGAEA_HUB_RECORD_DB=url,
                    PANGAEA_HUB_RECORD_PORT="9123")
    assert _service(c)["environment"]["PANGAEA_RECORD_DB"] == url
    assert _service(c)["url"] == "http://127.0.0.1:9123"
    assert c.Spawner.environment["PANGAEA_RECORD_URL"].startswith("http://127.0.0.1:9123/")


def test_teachers_read_the_class_and_everyone_may_send(monkeypatch, tmp_path):
    c = load_config(monkeypatch, tmp_path, _root(tmp_path))
    assert SCOPE in c.JupyterHub.custom_scopes
    assert c.JupyterHub.load_groups == {"teachers": {"users": ["hopper"]}}
    teacher = _role(c, "class-record-teacher")
    assert teacher["groups"] == ["teachers"] and set(teacher["scopes"]) == {SCOPE, ACCESS}
    assert _role(c, "user")["scopes"] == ["self", ACCESS]
    assert ACCESS in c.Spawner.server_token_scopes
    assert _role(c, "class-record-service")["services"] == ["class-record"]
    assert SCOPE not in _role(c, "user")["scopes"] + list(c.Spawner.server_token_scopes)


def test_the_kubernetes_values_wire_the_same_names_with_no_password():
    text = (CLASSROOM / "z2jh-values.yaml").read_text()
    hub = yaml.safe_load(text)["hub"]
    assert hub["loadRoles"]["class-record-teacher"]["scopes"] == [SCOPE, ACCESS]
    assert hub["loadRoles"]["user"]["scopes"] == ["self", ACCESS]
    assert hub["extraEnv"]["PANGAEA_RECORD_DB"]["valueFrom"]["secretKeyRef"]["name"]
    assert "pangaea_lab.classroom.record.service" in hub["extraConfig"]["class-record"]
    assert "password=" not in text and "://record:<password>@" in text   # only a placeholder
    assert (CLASSROOM / "Dockerfile.hub").is_file()
