"""The import graph of ``pangaea_lab``, read from the source with ``ast`` (nothing imported).

The graph counts every import statement of a module: at module level, inside functions and
classes, and under ``if TYPE_CHECKING:``.  A circle hidden behind a type-checking or
function-level import is still a circle: the modules still depend on each other.

Used by ``test_architecture.py`` and handy alone::

    python tests/architecture/imports.py     # prints any circle and every function-level import
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2] / "pangaea_lab"

#: heavy or optional libraries that may be imported inside a function (with a comment saying
#: why), so that importing the rules never pulls in a widget or plotting toolkit (networkx:
#: where a game's rules play without it, as Harmonies' do, its graph is built on demand)
OPTIONAL = {"ipywidgets", "IPython", "matplotlib", "anywidget", "pandas", "dask", "distributed",
            "tqdm", "pyarrow", "numpy", "scipy", "traitlets", "voila", "jupyter_core",
            "networkx"}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _is_package(name: str, known: dict[str, Path]) -> bool:
    return name in known and known[name].name == "__init__.py"


def _resolve(node: ast.ImportFrom | ast.Import, here: str, known: dict[str, Path]) -> list[str]:
    """The project modules an import statement loads."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in known]
    package = here if _is_package(here, known) else here.rsplit(".", 1)[0]
    if node.level:
        base = package.split(".")
        base = base[:len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    out = []
    if target in known:
        out.append(target)
    for alias in node.names:    # "from . import scoring" loads the module scoring
        sub = f"{target}.{alias.name}"
        if sub in known:
            out.append(sub)
    return out


def _imports(tree: ast.Module):
    """Every import statement of a module: at module level, in classes and functions, and
    under ``if TYPE_CHECKING:`` (a module named only for its types is still depended on)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node


def import_graph(root: Path = ROOT) -> nx.DiGraph:
    """Module -> project module it imports, by any import statement (ancestor packages left
    out: they are always loaded first)."""
    known = modules(root)
    graph = nx.DiGraph()
    for name, path in known.items():
        graph.add_node(name)
        tree = ast.parse(path.read_text(), str(path))
        for node in _imports(tree):
            for target in _resolve(node, name, known):
                if target != name and not name.startswith(target + "."):
                    graph.add_edge(name, target)
    return graph


def circles(root: Path = ROOT) -> list[list[str]]:
    """Every circle of imports, counting every import statement (see :func:`import_graph`)."""
    return sorted(sorted(c) for c in nx.simple_cycles(import_graph(root)))


def function_imports() -> list[tuple[str, int, str, str]]:
    """Every import inside a function: (module, line, imported name, comment on the line)."""
    out = []
    for name, path in modules().items():
        lines = path.read_text().splitlines()
        tree = ast.parse("\n".join(lines), str(path))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    target = (node.names[0].name if isinstance(node, ast.Import)
                              else "." * node.level + (node.module or ""))
                    line = lines[node.lineno - 1]
                    comment = line.split("#", 1)[1].strip() if "#" in line else ""
                    out.append((name, node.lineno, target, comment))
    return sorted(set(out))


def allowed(target: str, comment: str) -> bool:
    """A function-level import is allowed for an optional heavy library, with a comment."""
    return not target.startswith(".") and target.split(".")[0] in OPTIONAL and bool(comment)


if __name__ == "__main__":
    for c in circles():
        print("circle:", " -> ".join(c))
    for mod, line, target, comment in function_imports():
        mark = "ok " if allowed(target, comment) else "BAD"
        print(f"{mark} {mod}:{line} imports {target}  # {comment}")
