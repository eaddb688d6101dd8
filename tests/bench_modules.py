"""A bench script (bench/<name>.py) loaded as a module for the tests of its reporting parts;
afterwards the module and the folder it adds to ``sys.path`` (tests/hub, for the hub's test
support) are taken away again."""

from __future__ import annotations

import importlib.util
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def bench_module(name: str) -> Iterator[Any]:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module                  # its dataclasses look their module up
    path_before = list(sys.path)
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[name]
        sys.path[:] = path_before
