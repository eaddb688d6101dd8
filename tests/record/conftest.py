"""Fixtures of the class record's tests: ``record_url`` gives a fresh database, SQLite always
and PostgreSQL for the tests marked ``postgres`` (run when PANGAEA_POSTGRES_TESTS=1, as
``make test-hub`` does; a plain ``pytest`` or ``make test`` leaves them out)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import postgres  # noqa: E402

POSTGRES = os.environ.get("PANGAEA_POSTGRES_TESTS") == "1"


def pytest_collection_modifyitems(config, items):
    if POSTGRES:
        return
    left = [item for item in items if item.get_closest_marker("postgres")]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if not item.get_closest_marker("postgres")]


@pytest.fixture(scope="session")
def postgres_cluster():
    with postgres.cluster() as running:
        yield running


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def record_url(request, tmp_path):
    """A fresh, empty database's URL (SQLite file in tmp_path, or a new PostgreSQL database)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'class-record.sqlite'}"
    return request.getfixturevalue("postgres_cluster").database()
