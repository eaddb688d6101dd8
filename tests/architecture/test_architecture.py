"""The shape of the package: no import circles (every import statement counted: at module
level, inside functions and under ``if TYPE_CHECKING:``), imports inside functions only for
optional heavy libraries (with a comment), the four games built on one template (the same
modules with the same meaning, a ``Game`` object that declares seats and options, one
state-class name, one loader name, one style of action labels), and no function longer than
80 lines."""

from __future__ import annotations

import ast
import importlib
import io
import inspect
import sys
import tokenize
from pathlib import Path

import networkx as nx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from imports import (ROOT, allowed, circles, function_imports, import_graph,  # noqa: E402
                     module_name, modules)

from pangaea_lab.core.game import Game  # noqa: E402
from pangaea_lab.core.errors import InvalidSetup  # noqa: E402
from pangaea_lab.core.protocol import Action, GameState  # noqa: E402

from pangaea_lab.games import GAMES as GAME_OBJECTS, NAMES  # noqa: E402

GAMES = NAMES

#: modules every game package has, with the same meaning (see ARCHITECTURE.md)
TEMPLATE = ("game", "edition", "state", "actions", "rules", "setup", "scoring", "render",
            "widgets", "players", "exercises", "summary")

#: what state.py may not import: rules, drawing, players, widgets, setup, expansions
ABOVE_STATE = ("rules", "render", "players", "widgets", "setup", "exercises", "coop", "woods",
               "game_rules")

#: parameters of new_game that give data rather than choose an option
DATA_PARAMETERS = {"players", "seed", "edition", "board"}


def test_no_import_circle():
    """No circle, counting the imports inside functions and under ``if TYPE_CHECKING:`` too:
    a module that names another only for its types still depends on it."""
    assert circles() == []


#: a module importing ``high`` in each way the circle search counts (``high`` imports it back)
HIDDEN = {
    "module level": "from .high import value\n",
    "type checking": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                     "    from .high import value\n",
    "typing.TYPE_CHECKING": "import typing\n\nif typing.TYPE_CHECKING:\n"
                            "    from . import high\n",
    "function level": "def late():\n    from .high import value\n    return value\n",
    "class body": "class Late:\n    from . import high\n",
}


@pytest.mark.parametrize("way", sorted(HIDDEN))
def test_the_circle_search_sees_every_kind_of_import(tmp_path, way):
    """A two-module circle is found however the lower module imports the higher one."""
    package = tmp_path / "toy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text(HIDDEN[way])
    (package / "high.py").write_text("from .low import late as value\n")
    assert circles(package) == [["toy.high", "toy.low"]]
    (package / "low.py").write_text("value = 1\n")
    assert circles(package) == []


def _owner(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in GAMES else "rest"


@pytest.mark.parametrize("owner", GAMES + ("rest",))
def test_imports_inside_functions_only_for_optional_libraries(owner):
    bad = [f"{m}:{line} imports {target}" for m, line, target, comment in function_imports()
           if _owner(m) == owner and not allowed(target, comment)]
    assert bad == []


@pytest.mark.parametrize("name", GAMES)
def test_game_package_follows_the_template(name):
    folder = ROOT / name
    have = {p.stem for p in folder.glob("*.py")} | {p.name for p in folder.iterdir()
                                                    if (p / "__init__.py").exists()}
    missing = [m for m in TEMPLATE if m not in have]
    assert missing == []


@pytest.mark.parametrize("name", GAMES)
def test_state_module_imports_nothing_above_it(name):
    graph = import_graph()
    above = [t for t in graph.successors(f"pangaea_lab.{name}.state")
             if t.rsplit(".", 1)[-1] in ABOVE_STATE]
    assert above == []


@pytest.mark.parametrize("name", GAMES)
def test_game_object_declares_seats_and_options(name):
    pkg = importlib.import_module(f"pangaea_lab.{name}")
    game = pkg.GAME
    assert isinstance(game, Game) and game.name == name
    assert pkg.game.GAME is game
    assert pkg.GameState is pkg.state.GameState
    assert pkg.GameState.GAME is game
    assert pkg.load_edition is pkg.edition.load_edition
    assert pkg.new_game is pkg.setup.new_game
    # new_game's parameters are exactly the declared options (plus players, seed and data)
    params = inspect.signature(pkg.new_game).parameters
    assert set(params) - DATA_PARAMETERS == set(game.options)
    for option in game.options.values():
        assert params[option.name].default == option.default, option.name
        if option.values is not None:
            assert option.default in option.values
    # every seat count it declares starts a game (with some option if the default refuses),
    # and one more or one less is refused with the game's words
    for bad in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(InvalidSetup):
            pkg.new_game(players=bad, seed=0)
    state = game.new_game(players=game.max_players, seed=3)
    assert isinstance(state, pkg.GameState)
    assert game.from_json(state.to_json()) == state
    # the widgets and the catalogue read the seats from the game
    from pangaea_lab import catalog
    assert catalog.game(name).players == (game.min_players, game.max_players)


@pytest.mark.parametrize("name", GAMES)
def test_one_style_of_action_labels(name):
    """Action kinds are labels shown in the widget's Kind menu: a capital first letter, no
    full stop, a few words."""
    pkg = importlib.import_module(f"pangaea_lab.{name}.actions")
    kinds = {cls.kind for _, cls in inspect.getmembers(pkg, inspect.isclass)
             if issubclass(cls, Action) and cls.__module__ == pkg.__name__
             and "kind" in cls.__dict__}
    assert kinds
    bad = [k for k in kinds if not k[:1].isupper() or k.endswith(".") or len(k) > 40]
    assert bad == []


def test_widget_hooks_are_declared_in_the_protocol():
    """Every hook the shared widgets and players look up on a state is declared (with its
    default) in core/protocol.py, so a new game's author can learn them there."""
    core = ROOT / "core"
    looked_up = set()
    for path in core.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("getattr",
                                                                              "hasattr"):
                args = node.args
                if len(args) >= 2 and isinstance(args[1], ast.Constant) \
                        and getattr(args[0], "attr", getattr(args[0], "id", "")) in (
                            "state", "self.state"):
                    looked_up.add(args[1].value)
    declared = {name for name, _ in inspect.getmembers(GameState)}
    assert looked_up and looked_up <= declared


@pytest.mark.parametrize("name", GAMES + ("core",))
def test_layers_point_down(name):
    """A game imports only itself and core (no other game, and nothing of the layer above:
    the catalogue, the exercise registry, the simulation lab); core imports no game.  Every
    import statement counts, those for types only too."""
    own = f"pangaea_lab.{name}"
    graph = import_graph()
    outside = sorted({t for m in graph if m == own or m.startswith(own + ".")
                      for t in graph.successors(m)
                      if not (t == own or t.startswith(own + ".") or t == "pangaea_lab"
                              or t == "pangaea_lab.core" or t.startswith("pangaea_lab.core."))})
    assert outside == []


#: the most lines a function or method may span, from its ``def`` to its last line
#: (docstring included)
LONGEST_FUNCTION = 80


def _long_functions(tree: ast.AST, module: str, limit: int) -> list[str]:
    """``module:line name (N lines)`` for every function in ``tree``, nested ones and methods
    included, that spans more than ``limit`` lines, in line order."""
    found = sorted((node.lineno, node.end_lineno - node.lineno + 1, node.name)
                   for node in ast.walk(tree)
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return [f"{module}:{line} {name} ({length} lines)" for line, length, name in found
            if length > limit]


def _function(name: str, lines: int, indent: str = "") -> str:
    """The source of a function ``lines`` lines long."""
    return "\n".join([f"{indent}def {name}():"]
                     + [f"{indent}    x = {k}" for k in range(lines - 1)])


def test_long_functions_are_found_nested_and_in_classes():
    source = "\n".join([_function("short", 80),                      # lines 1-80: kept
                        "class A:", _function("method", 81, "    "),  # 82-162
                        "def outer():", _function("inner", 81, "    "), "    return inner"])
    found = _long_functions(ast.parse(source), "m", 80)
    assert found == ["m:82 method (81 lines)", "m:163 outer (83 lines)",
                     "m:164 inner (81 lines)"]


def test_no_function_over_80_lines():
    """A function a reader can hold: none in the package, nested ones and methods included,
    spans more than 80 lines (split a longer one into the parts it is made of)."""
    found = []
    for module, path in modules().items():
        found += _long_functions(ast.parse(path.read_text()), module, LONGEST_FUNCTION)
    assert found == []


def _module_level(body: list[ast.stmt]):
    """The statements run when a module is imported: its body, into ``if``, ``try``,
    ``for``, ``while`` and ``with`` blocks, never into a function or a class."""
    for node in body:
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in ("body", "orelse", "finalbody"):
            yield from _module_level(getattr(node, name, []))
        for handler in getattr(node, "handlers", []):
            yield from _module_level(handler.body)


def _attributes_set_from_outside(tree: ast.Module) -> list[tuple[int, str, str]]:
    """``(line, name, attribute)`` for every ``name.attribute = ...`` (or
    ``setattr(name, ...)``) a module runs at import, outside any function or class body."""
    found = []
    for node in _module_level(tree.body):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = [t for target in node.targets
                       for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and getattr(node.value.func, "id", "") == "setattr" and node.value.args \
                and isinstance(node.value.args[0], ast.Name):
            found.append((node.lineno, node.value.args[0].id, "setattr"))
        found += [(node.lineno, t.value.id, t.attr) for t in targets
                  if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)]
    return found


def test_attributes_set_from_outside_are_found():
    source = "\n".join(["class A:", "    x = 1", "A.y = 2", "if True:", "    A.z, b = 3, 4",
                        "setattr(A, 'w', 5)", "def f():", "    A.v = 6",
                        "class B:", "    A.u = 7", "c = 8"])
    found = _attributes_set_from_outside(ast.parse(source))
    assert found == [(3, "A", "y"), (5, "A", "z"), (6, "A", "setattr")]


def test_no_hooks_patched_onto_classes():
    """No module attaches an attribute to a class from outside the class body (as
    ``GameState.evaluate = ...`` once did): a state's hooks and a game's own parts are bound
    to its ``Game``, and the class's methods ask ``self.GAME`` for them, so what a class does
    is read in its body and in its game's ``bind``."""
    patched = []
    for module, path in modules().items():
        found = _attributes_set_from_outside(ast.parse(path.read_text()))
        if not found:
            continue
        loaded = importlib.import_module(module)
        patched += [f"{module}:{line} {name}.{attr}" for line, name, attr in found
                    if inspect.isclass(getattr(loaded, name, None))]
    assert patched == []


@pytest.mark.parametrize("name", GAMES)
def test_state_hooks_come_from_the_game(name):
    """A game's state hooks are parts of its Game, and the state's methods reach them."""
    from pangaea_lab.core.game import HOOKS
    pkg = importlib.import_module(f"pangaea_lab.{name}")
    game = pkg.GAME
    assert set(game.hooks) <= set(HOOKS)
    assert all(game.has_part(own) for own in game.own_parts)
    state = game.new_game(players=game.min_players if name != "pangaea" else 2, seed=5)
    for hook, function in game.hooks.items():
        # the state's class leaves the hook to the protocol, which asks the game
        assert hook not in vars(pkg.GameState), hook
        if hook == "evaluate":
            action = state.legal_actions()[0]
            assert state.evaluate(action, 0) == function(state, action, 0)
        elif hook == "player_summary":
            assert state.player_summary(0) == function(state, 0)
        elif hook == "action_highlight":
            action = state.legal_actions()[0]
            assert list(state.action_highlight(action)) == list(function(state, action))
        else:
            assert getattr(state, hook)() == function(state)


def _game_name_lists(tree: ast.AST, names: set[str]) -> list[int]:
    """The lines of every literal tuple, list, set or dict (by its keys) that names two games
    or more."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None]
        else:
            continue
        named = {i.value for i in items if isinstance(i, ast.Constant)} & names
        if len(named) >= 2:
            found.append(node.lineno)
    return found


def test_game_name_lists_are_found():
    source = "A = ('pangaea', 'inori')\nB = {'harmonies': 1, 'forest_shuffle': 2}\nC = ['inori']"
    assert _game_name_lists(ast.parse(source), set(NAMES)) == [1, 2]


def test_the_games_are_listed_once():
    """One list of the games, ``pangaea_lab.games.GAMES`` (their Game objects): every game
    package is in it, no module writes the games' names as a list of its own, and the
    catalogue, the exercise registry and the simulation lab take their games from it."""
    packages = sorted(p.parent.name for p in ROOT.glob("*/game.py") if p.parent.name != "core")
    assert sorted(game.name for game in GAME_OBJECTS) == packages
    assert all(isinstance(game, Game) for game in GAME_OBJECTS)
    lists = [f"{module}:{line}" for module, path in modules().items()
             for line in _game_name_lists(ast.parse(path.read_text()), set(NAMES))]
    assert lists == []
    from pangaea_lab import catalog, exercises
    from pangaea_lab.sim import games as sim_games
    assert [info.key for info in catalog.GAMES] == list(NAMES)
    assert list(catalog.LINKS) == list(exercises.GAMES) == list(NAMES)
    assert list(sim_games.READERS) == list(NAMES)
    assert all(sim_games.READERS[game.name].GAME is game for game in GAME_OBJECTS)


@pytest.mark.parametrize("name", GAMES)
def test_exercise_modules_name_their_game_through_it(name):
    """In a game's exercise modules ``GAME`` is the game's Game object, and every kind they
    register belongs to it."""
    from pangaea_lab import exercises
    pkg = importlib.import_module(f"pangaea_lab.{name}")
    folder = ROOT / name
    paths = [folder / "exercises.py"] if (folder / "exercises.py").exists() \
        else sorted((folder / "exercises").glob("*.py"))
    for path in paths:
        module = importlib.import_module(module_name(path))
        if "GAME" in vars(module):
            assert module.GAME is pkg.GAME, module.__name__
    kinds = [kind for kind in exercises.registry() if kind.key.startswith(name + ".")]
    assert kinds and {kind.game for kind in kinds} == {name}


# ----- states are plain data ------------------------------------------------------------------

#: the game packages that keep what they work out from a state only through ``core.memo``
MEMO_PACKAGES = ("pangaea", "harmonies", "forest_shuffle", "inori")

#: what only ``core`` may write: a value's attribute table, or past a frozen class's refusal
_RAW_WRITES = ("__dict__", "object.__setattr__")


def _raw_writes(source: str, module: str) -> list[str]:
    """Each line of ``source`` that names a value's attribute table or sets an attribute past
    a frozen class (code, comments and docstrings alike: how the interpreter keeps attributes
    is explained in ``core.memo``, next to no rule)."""
    return [f"{module}:{n} {line.strip()}" for n, line in enumerate(source.splitlines(), 1)
            if any(word in line for word in _RAW_WRITES)]


def test_raw_writes_are_found():
    source = "a = 1\nx.__dict__['k'] = 2\nobject.__setattr__(x, 'k', 3)\n# see __dict__\n"
    assert _raw_writes(source, "m") == ["m:2 x.__dict__['k'] = 2",
                                        "m:3 object.__setattr__(x, 'k', 3)", "m:4 # see __dict__"]


@pytest.mark.parametrize("name", MEMO_PACKAGES)
def test_no_dict_in_converted_game_packages(name):
    """States are plain data: a game package keeps what it works out from a state, an area or
    a forest with ``core.memo`` (``keep``, ``kept_table``, read back with ``getattr``) and
    makes values with ``core.memo.plain_object``, never by writing their attributes itself."""
    found = []
    for module, path in modules().items():
        if module.split(".")[1:2] == [name]:
            found += _raw_writes(path.read_text(), module)
    assert found == []


# ----- a game's state is read only inside its package ----------------------------------------

#: the modules outside the games that must read a game only through the protocol and the parts
#: its Game holds: the shared core, the simulation lab, the catalogue, the exercise registry
#: and the command line (``pangaea_lab.games``, the list of the Game objects, is the one
#: module outside a game that imports from it)
OUTSIDE = ("pangaea_lab.core.", "pangaea_lab.sim.", "pangaea_lab.catalog",
           "pangaea_lab.exercises", "pangaea_lab.simulate")

#: field names of the games' states that these modules may name: the protocol's own words,
#: which every game's state answers, not one game's: ``current_player``, ``is_over`` and
#: ``num_players`` (properties of every state), ``players``, ``seed`` and ``options`` (every
#: game is made by ``new_game(players, seed, **options)``; a run's settings, a link and a
#: widget keep them too), ``kind`` (every action's label) and ``player`` (a score
#: breakdown's seat, ``ScoreBreakdown.player``)
PROTOCOL_WORDS = {"current_player", "is_over", "num_players", "players", "seed", "options",
                  "kind", "player"}

#: a field's name that one module uses for an object of its own, never a state, each with
#: what the object is
OWN_WORDS = {
    ("pangaea_lab.catalog", "area"): "the start page's play area, a widget box",
    ("pangaea_lab.core.exercise_widget", "rule"): "the rule an exercise kind practises",
    ("pangaea_lab.exercises", "rule"): "the rule an exercise kind practises",
    ("pangaea_lab.core.mastery", "position"): "an attempt's exercise, its seed and level",
    ("pangaea_lab.core.mastery", "right"): "an exercise status's count of right answers",
    ("pangaea_lab.sim.checks", "step"): "the step of a range of seeds",
    ("pangaea_lab.sim.run", "seeds"): "a run plan's seeds",
    ("pangaea_lab.sim.widgets", "box"): "a question widget's root box",
}


def _state_records(cls: type, game: str, found: set[type]) -> set[type]:
    """A game's state class and every record of the game's package its fields hold (a
    player's record, an area, a forest and its trees, a variant's record...), its edition's
    component data left out (cards and tiles, read by name through the game's own words)."""
    import dataclasses
    import typing
    if cls in found:
        return found
    found.add(cls)
    hints = typing.get_type_hints(cls)
    for field in dataclasses.fields(cls):
        types = [hints.get(field.name)]
        while types:
            kind = types.pop()
            if isinstance(kind, type) and dataclasses.is_dataclass(kind) \
                    and kind.__module__.startswith(f"pangaea_lab.{game}.") \
                    and kind.__module__.rsplit(".", 1)[-1] not in ("edition", "cards"):
                _state_records(kind, game, found)
            types.extend(typing.get_args(kind))
    return found


def _record_names(cls: type, game: str) -> set[str]:
    """A record's fields and the properties its game gives it (``PlayerState.points``)."""
    import dataclasses
    import functools
    names = {field.name for field in dataclasses.fields(cls)}
    for klass in cls.__mro__:
        if klass.__module__.startswith(f"pangaea_lab.{game}."):
            names |= {name for name, value in vars(klass).items()
                      if isinstance(value, (property, functools.cached_property))}
    return names


def state_fields() -> dict[str, list[str]]:
    """Every field (and property) name of the games' states and of the records they hold ->
    where it is (``game.Class``)."""
    out: dict[str, list[str]] = {}
    for game in GAME_OBJECTS:
        importlib.import_module(f"pangaea_lab.{game.name}")
        for cls in _state_records(game.part("state"), game.name, set()):
            for name in _record_names(cls, game.name):
                out.setdefault(name, []).append(f"{game.name}.{cls.__name__}")
    return out


def field_reads(tree: ast.Module, fields: set[str]) -> list[tuple[int, str]]:
    """Each ``<value>.<field>`` and ``getattr(<value>, "<field>", ...)`` of ``tree`` naming one
    of ``fields``, with its line.  An attribute of ``self`` or ``cls`` is the module's own
    object, and a called attribute is a method (a field holds data): neither is counted."""
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in fields and id(node) not in called \
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2 \
                and isinstance(node.args[1], ast.Constant) and node.args[1].value in fields:
            found.append((node.lineno, node.args[1].value))
    return sorted(found)


def test_field_reads_are_found():
    source = ("a = state.round\nb = areas[0].turns\nc = getattr(first, 'round', 0)\n"
              "self.round = 1\nd = table.round(2)\ne = spec.seed\n")
    assert field_reads(ast.parse(source), {"round", "turns"}) == [(1, "round"), (2, "turns"),
                                                                  (3, "round")]


def test_state_fields_cover_the_records_a_state_holds():
    fields = state_fields()
    assert "pangaea.GameState" in fields["turn_player"]
    assert "pangaea.PlayerState" in fields["points"]          # players[seat].points
    assert "harmonies.PlayerArea" in fields["turns"]          # areas[seat].turns
    assert "forest_shuffle.Forest" in fields["trees"]         # forests[seat].trees
    assert "inori.GameState" in fields["reports"]


def test_no_module_outside_a_game_reads_its_state():
    """What the simulation lab, the catalogue, the exercise registry and the core know of a
    game comes from its Game (its options, computer players and parts, the lab's through the
    game's ``summary`` part) and the protocol: they import no module of a game package and
    name no field of a game's state (the protocol's own words aside, see
    :data:`PROTOCOL_WORDS`)."""
    games = tuple(f"pangaea_lab.{name}" for name in GAMES)
    graph = import_graph()
    fields = set(state_fields()) - PROTOCOL_WORDS
    imports, reads = [], []
    for module, path in modules().items():
        if not module.startswith(OUTSIDE):
            continue
        imports += [f"{module} imports {target}" for target in graph.successors(module)
                    if target in games or target.startswith(tuple(g + "." for g in games))]
        reads += [f"{module}:{line} .{name}"
                  for line, name in field_reads(ast.parse(path.read_text()), fields)
                  if (module, name) not in OWN_WORDS]
    assert imports == []
    assert reads == []


# ----- The Dawn of Pangaea: the variants keep to themselves ------------------------------------

#: the modules of the two variants, Return of the Ancients and Wild Woods: their rules, their
#: drawings and the exercises about them
VARIANT_MODULES = {
    "pangaea/coop.py": "Return of the Ancients: its rules, record, setup and heuristics",
    "pangaea/coop_render.py": "Return of the Ancients: its drawing",
    "pangaea/woods.py": "Wild Woods: its rules, record, setup and heuristics",
    "pangaea/woods_render.py": "Wild Woods: its drawing",
    "pangaea/exercises/ancients_and_woods.py": "the exercises of notebooks 05-08 are about the "
                                               "Ancients, Return of the Ancients and Wild Woods",
    "pangaea/exercises/modes.py": "exercises on the co-op and Wild Woods rules",
}

#: further modules that name a variant's record, each with its reason
NAMES_VARIANT_RECORDS = {
    "pangaea/state.py": "the state holds each variant's record in a field of its own and "
                        "reads its section of a save (data, no rule)",
    "pangaea/edition.py": "the edition holds the expansions' component data (``ed.coop``, "
                          "``ed.woods``), read from their sections of the data file",
    "pangaea/variants.py": "the list of the variants: importing each variant's module "
                           "registers it",
}


def _variant_names(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` for each piece of code (strings and comments left out) that names a
    variant: the names ``coop`` and ``woods`` (an import, ``state.coop``, ``woods.level``,
    ``coop.MODE``) and a test of the mode (``mode ==``, ``mode !=``)."""
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
              if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)]
    found = []
    for k, t in enumerate(tokens):
        if t.type != tokenize.NAME:
            continue
        if t.string in ("coop", "woods"):
            found.append((t.start[0], t.string))
        elif t.string == "mode" and k + 1 < len(tokens) and tokens[k + 1].string in ("==", "!="):
            found.append((t.start[0], "mode" + tokens[k + 1].string))
    return found


def test_variant_names_are_found_in_code_only():
    source = ("from . import coop\nx = state.woods\nif mode == 'x':\n    pass\n"
              "# coop in a comment\ny = 'woods in a string'\nwild_woods = woods_data = 1\n")
    assert _variant_names(source) == [(1, "coop"), (2, "woods"), (3, "mode==")]


def test_no_variant_named_outside_its_modules():
    """Base-game code names no mode and no variant's record or module: it asks the variants'
    hooks (:mod:`pangaea_lab.pangaea.variant`).  Outside the variants' own modules
    (:data:`VARIANT_MODULES`), only those in :data:`NAMES_VARIANT_RECORDS` may, each for its
    reason."""
    allowed_here = set(VARIANT_MODULES) | set(NAMES_VARIANT_RECORDS)
    assert all((ROOT / name).exists() for name in allowed_here)
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in allowed_here:
            continue
        found += [f"{relative}:{line}: {what}" for line, what in _variant_names(path.read_text())]
    assert found == []


#: base-game modules of The Dawn of Pangaea that must not import a variant's module
PANGAEA_BASE = ("render", "setup", "rules", "players", "scoring", "board", "state", "draft",
                "variant", "actions", "edition", "game", "rituals", "widgets", "graph_lab",
                "arrange")


@pytest.mark.parametrize("module", PANGAEA_BASE)
def test_base_game_imports_no_variant(module):
    """The base game reaches the variants only through their hooks: none of its modules
    imports ``coop``, ``woods`` or their drawings (every import statement counted)."""
    graph = import_graph()
    variants = {f"pangaea_lab.pangaea.{name}" for name in
                ("coop", "woods", "coop_render", "woods_render")}
    assert not variants & set(graph.successors(f"pangaea_lab.pangaea.{module}"))


#: the most methods the variant interface may have (its hooks are grouped in small objects)
VARIANT_METHODS = 25


def test_the_variant_interface_is_narrow():
    """:class:`~pangaea_lab.pangaea.variant.Variant` has fewer than :data:`VARIANT_METHODS`
    methods, public and private; its hooks are grouped by concern in small objects, each a
    class of :mod:`pangaea_lab.pangaea.variant`, and every variant fills in only the groups'
    own hooks."""
    from pangaea_lab.pangaea import variant, variants
    methods = [name for name, value in vars(variant.Variant).items() if inspect.isfunction(value)]
    assert len(methods) < VARIANT_METHODS, methods
    groups = {name: type(value) for name, value in vars(variant.Variant).items()
              if type(value).__module__ == variant.__name__ and not inspect.isfunction(value)}
    assert set(groups) == {"listing", "seeds", "turn", "scoring", "pieces", "players",
                           "arranging"}
    for v in variants.VARIANTS:
        for name, base in groups.items():
            mine = type(getattr(v, name))
            assert issubclass(mine, base)
            extra = {n for n in vars(mine) if not n.startswith("_")} - set(vars(base))
            assert not extra, f"{v.name}'s {name} has {sorted(extra)} outside the interface"


def test_the_variant_interface_lies_below_the_rules():
    """The interface imports none of the modules that call it (no circle, also none through
    imports for types only)."""
    graph = import_graph()
    below = nx.descendants(graph, "pangaea_lab.pangaea.variant")
    callers = {f"pangaea_lab.pangaea.{name}" for name in
               ("rules", "variants", "coop", "woods", "render", "players", "setup")}
    assert not below & callers


def _own_classes(name):
    """The classes defined in the modules of game package ``name``."""
    for path in sorted((ROOT / name).glob("*.py")):
        module = importlib.import_module(f"pangaea_lab.{name}.{path.stem}")
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                yield value


@pytest.mark.parametrize("name", GAMES)
def test_one_working_copy_in_core(name):
    """A state is changed through the core working copy only: every class of a game package
    that thaws or freezes (a working copy of its own) extends
    :class:`~pangaea_lab.core.working.WorkingCopy`, and one of them copies the game's state."""
    from pangaea_lab.core.working import WorkingCopy
    state_class = importlib.import_module(f"pangaea_lab.{name}.state").GameState
    copies = [cls for cls in _own_classes(name)
              if {"freeze", "thaw", "successor", "fresh"} & set(vars(cls))
              or issubclass(cls, WorkingCopy)]
    own = [cls.__name__ for cls in copies if not issubclass(cls, WorkingCopy)]
    assert own == []
    assert any(cls.RECORD is state_class for cls in copies)
