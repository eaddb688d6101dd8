"""The import graph of ``pangaea_lab``, read from the source with ``ast`` (nothing imported).

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


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


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


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _top_level_imports(tree: ast.Module):
    """Import statements run when the module is imported (not inside functions, and not
    under ``if TYPE_CHECKING:``)."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and not _type_checking(node):
            stack.extend(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            stack.extend(node.body + node.orelse + node.finalbody
                         + [n for h in node.handlers for n in h.body])


def import_graph() -> nx.DiGraph:
    """Module -> project module it imports at import time (ancestor packages left out: they
    are always loaded first)."""
    known = modules()
    graph = nx.DiGraph()
    for name, path in known.items():
        graph.add_node(name)
        tree = ast.parse(path.read_text(), str(path))
        for node in _top_level_imports(tree):
            for target in _resolve(node, name, known):
                if target != name and not name.startswith(target + "."):
                    graph.add_edge(name, target)
    return graph


def circles() -> list[list[str]]:
    return sorted(sorted(c) for c in nx.simple_cycles(import_graph()))


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
