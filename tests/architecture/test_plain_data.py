"""States are plain data, and every action takes one way into the rules.

- No game package writes a value's attribute table (``x.__dict__[...] = ...``, a name bound to
  an attribute table and then written, ``object.__setattr__``) or uses ``cached_property``:
  what a game works out from a value is kept through ``core.memo`` (``keep``, ``kept_table``,
  ``kept_property``), the one place that does so.
- ``state.apply(action)`` and ``GAME.apply(state, action)`` both reach the one apply in
  ``core.engine`` (``apply``), which asks the game's ``why()`` about a listed action as
  much as about one built by hand.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from imports import modules  # noqa: E402

from pangaea_lab.core.errors import IllegalAction  # noqa: E402
from pangaea_lab.games import GAMES, NAMES  # noqa: E402

#: the methods of a dict that change it
_CHANGING = {"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"}


def _is_table(node: ast.AST, aliases: set[str]) -> bool:
    """Is ``node`` a value's attribute table (``x.__dict__``, or a name bound to one)?"""
    return (isinstance(node, ast.Attribute) and node.attr == "__dict__") or \
        (isinstance(node, ast.Name) and node.id in aliases)


def _targets(node: ast.AST) -> list[ast.AST]:
    """What an assignment or a deletion writes, tuples and lists of targets opened."""
    if isinstance(node, ast.Assign):
        todo = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        todo = [node.target]
    elif isinstance(node, ast.Delete):
        todo = list(node.targets)
    else:
        return []
    found = []
    while todo:
        target = todo.pop()
        if isinstance(target, (ast.Tuple, ast.List)):
            todo += target.elts
        else:
            found.append(target)
    return found


_SCOPES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of ``scope`` outside the functions and classes it holds (each is read as a
    scope of its own, with its own names)."""
    found, todo = [], list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        found.append(node)
        if not isinstance(node, _SCOPES):
            todo += ast.iter_child_nodes(node)
    return found


def _aliases(scope: ast.AST) -> set[str]:
    """The names that ``scope`` binds to an attribute table (``values = s.__dict__``, also
    in a tuple: ``now, old = w.__dict__, s.__dict__``)."""
    names = set()
    for node in _own_nodes(scope):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = list(zip(target.elts, node.value.elts))
            names |= {t.id for t, v in pairs if isinstance(t, ast.Name) and _is_table(v, set())}
    return names


def _writes_in(scope: ast.AST) -> set[int]:
    """The lines of ``scope`` that write an attribute table or reach past a frozen class."""
    aliases = _aliases(scope)
    lines = set()
    for node in _own_nodes(scope):
        if isinstance(node, ast.Attribute) and node.attr == "__setattr__" \
                and isinstance(node.value, ast.Name) and node.value.id == "object":
            lines.add(node.lineno)
        for target in _targets(node):
            if (isinstance(target, ast.Subscript) and _is_table(target.value, aliases)) or \
                    (isinstance(target, ast.Attribute) and target.attr == "__dict__"):
                lines.add(node.lineno)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in _CHANGING and _is_table(node.func.value, aliases):
            lines.add(node.lineno)
    return lines


def raw_writes(source: str, module: str) -> list[str]:
    """Each line of ``source`` that writes a value's attribute table itself (each function
    read with the names it binds to attribute tables) or uses ``object.__setattr__``."""
    tree = ast.parse(source)
    lines: set[int] = set()
    for scope in ast.walk(tree):
        if isinstance(scope, _SCOPES):
            lines |= _writes_in(scope)
    text = source.splitlines()
    return [f"{module}:{n} {text[n - 1].strip()}" for n in sorted(lines)]


def test_raw_writes_are_found_and_reads_are_not():
    source = "\n".join([
        "x.__dict__['k'] = 1",                              # 1
        "def f(s, w):",                                     # 2
        "    values = s.__dict__",                          # 3
        "    values['k'] = 2",                              # 4
        "    now, old = w.__dict__, s.__dict__",            # 5
        "    now.update(old)",                              # 6
        "    s.__dict__.setdefault('k', [])",               # 7
        "    object.__setattr__(s, 'k', 3)",                # 8
        "    return values.get('k'), old['k']",             # 9
        "_PUT = object.__setattr__",                        # 10
        "def g(s):",                                        # 11
        "    values = {}",                                  # 12
        "    values['k'] = s.__dict__['k']",                # 13
        "    s.__dict__ = dict(values)",                    # 14
        "    del s.__dict__['k']",                          # 15
    ])
    assert [line.split()[0] for line in raw_writes(source, "m")] == [
        "m:1", "m:4", "m:6", "m:7", "m:8", "m:10", "m:14", "m:15"]


def _game_modules() -> dict[str, Path]:
    return {module: path for module, path in modules().items()
            if module.split(".")[1:2] and module.split(".")[1] in NAMES}


def test_no_game_package_writes_attribute_tables():
    """What a game works out from a state, an area or a forest goes through ``core.memo``
    (``keep``, ``kept_table``, ``kept_property``; a value made in one step from a dict by
    ``core.memo.plain_object``), never written by the game into the value's attributes."""
    found = []
    for module, path in sorted(_game_modules().items()):
        found += raw_writes(path.read_text(), module)
    assert found == []


def test_no_cached_property_in_game_packages():
    """A result kept with a value is kept through ``core.memo`` (``kept_property``), which
    says what may be kept and why it never goes stale."""
    found = [f"{module}:{n}" for module, path in sorted(_game_modules().items())
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if "cached_property" in line]
    assert found == []


# ----- one way in -----------------------------------------------------------------------------


def _a_position(game):
    """A position a few steps into a seeded game, with a listed action and a copy of it
    built by hand (equal, not the same object)."""
    players = min(max(2, game.min_players), game.max_players)
    state = game.new_game(players=players, seed=4)
    for step in range(3):
        state = state.apply(state.legal_actions()[step % len(state.legal_actions())])
    listed = state.legal_actions()[-1]
    made = dataclasses.replace(listed)
    assert made == listed and made is not listed
    return state, listed, made


@pytest.mark.parametrize("game", GAMES, ids=NAMES)
def test_listed_and_hand_built_actions_both_reach_why(game):
    """``state.apply`` and ``GAME.apply`` go through the one apply: the game's ``why()`` is
    asked once per action, whether it was taken from the list or built by hand, and the
    four ways give one new state."""
    state, listed, made = _a_position(game)
    rules_why = game.part("why")
    asked = []

    def counting(s, action):
        asked.append(action is listed)
        return rules_why(s, action)

    game.bind(why=counting)
    try:
        after = [state.apply(listed), game.apply(state, listed),
                 state.apply(made), game.apply(state, made)]
    finally:
        game.bind(why=rules_why)
    assert asked == [True, True, False, False]
    assert all(new == after[0] for new in after)


@pytest.mark.parametrize("game", GAMES, ids=NAMES)
def test_a_listed_action_is_refused_when_why_refuses_it(game):
    """The listed action is not waved through: what ``why()`` answers stands, on both doors."""
    state, listed, _ = _a_position(game)
    rules_why = game.part("why")
    game.bind(why=lambda s, action: IllegalAction("refused by its why"))
    try:
        for door in (state.apply, lambda action: game.apply(state, action)):
            with pytest.raises(IllegalAction, match="refused by its why"):
                door(listed)
    finally:
        game.bind(why=rules_why)
    assert state.apply(listed) == game.apply(state, listed)
