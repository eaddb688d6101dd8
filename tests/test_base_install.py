"""The base install is the teaching path: the four engines, their widgets and exercises need
only networkx, ipywidgets and anywidget, so they also run where the simulation lab's and the
plots' libraries cannot be had (a browser with Pyodide: ``make site``).  The extras
``plots`` and ``sim`` bring the rest; ``lab`` (and so ``make test``) installs both."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: what only the extras bring: none of it may be imported on the teaching path
EXTRAS_ONLY = ("matplotlib", "pandas", "pyarrow", "dask", "distributed", "tqdm", "openskill",
               "numpy", "scipy")

#: the pages that need the extras (their charts or the simulation lab); the others are the
#: teaching path, served by the static site too
NEEDS_EXTRAS = re.compile(r"statistics|full_game|pangaea/04_scoring")

BLOCKER = """
import importlib.abc, sys
BLOCKED = set(sys.argv[1].split(","))
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (not in the base install)")
        return None
sys.meta_path.insert(0, Blocker())
"""


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _name(requirement: str) -> str:
    return re.split(r"[<>=\[ ;]", requirement, maxsplit=1)[0].lower()


def test_base_dependencies_are_the_teaching_paths():
    assert sorted(_name(r) for r in _project()["dependencies"]) == [
        "anywidget", "ipywidgets", "networkx"]


def test_extras_bring_the_plots_and_the_simulation_lab():
    extras = _project()["optional-dependencies"]
    assert {_name(r) for r in extras["plots"]} == {"matplotlib"}
    assert {"matplotlib", "pandas", "pyarrow", "dask", "tqdm", "openskill"} <= {
        _name(r) for r in extras["sim"]}
    assert "pangaea_lab[plots,sim]" in extras["lab"]     # make test installs everything


def _teaching_imports() -> list[str]:
    """Every `import` line of the pages on the teaching path, as written in their cells."""
    lines = set()
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        if NEEDS_EXTRAS.search(path.relative_to(ROOT).as_posix()):
            continue
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "code":
                continue
            tree = ast.parse("".join(cell["source"]))
            lines.update(ast.unparse(node) for node in tree.body
                         if isinstance(node, (ast.Import, ast.ImportFrom)))
    return sorted(lines)


def test_teaching_path_runs_without_the_extras():
    imports = _teaching_imports()
    assert any("pangaea_lab" in line for line in imports)
    script = BLOCKER + "\n".join(imports) + """
from pangaea_lab import exercises, pangaea, harmonies, forest_shuffle, inori
from pangaea_lab.pangaea import widgets as pw
from pangaea_lab.harmonies import widgets as hw
from pangaea_lab.forest_shuffle import widgets as fw
from pangaea_lab.inori import widgets as iw
for module in (pw, hw, fw, iw):
    module.play(players=2, seed=3)
kinds = exercises.registry()
for kind in kinds:
    exercises.practice(kind.key, seed=5, level=1)
print(len(kinds), sorted(m for m in sys.modules if m.split('.')[0] in BLOCKED))
"""
    done = subprocess.run([sys.executable, "-c", script, ",".join(EXTRAS_ONLY)],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    count, loaded = done.stdout.strip().splitlines()[-1].split(" ", 1)
    assert int(count) > 10 and loaded == "[]"


def test_blocker_does_block():
    """The check above can fail: with the blocker, importing the plots fails."""
    script = BLOCKER + "from pangaea_lab.pangaea.render import plot_climb\nplot_climb([])\n"
    done = subprocess.run([sys.executable, "-c", script, ",".join(EXTRAS_ONLY)],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode != 0 and "not in the base install" in done.stderr
