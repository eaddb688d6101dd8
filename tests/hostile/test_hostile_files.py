"""Hostile saves, editions and setup arguments (issue 15, findings 2-6 and 8).

A save is untrusted input: a teacher loads the files students send.  Every malformed file is
refused with InvalidData naming the field, nothing is built before counts are checked, no file
is opened because a save names it, and checks do not vanish under ``python -O``."""

import ast
import copy
import json
import os
import pathlib
import subprocess
import sys
import threading
import tracemalloc

import pytest

from pangaea_lab import forest_shuffle, harmonies, inori, pangaea
from pangaea_lab.core import jsonio
from pangaea_lab.core.errors import IllegalAction, InvalidData, InvalidSetup
from pangaea_lab.core.players import RandomPlayer

PACKAGE = pathlib.Path(pangaea.__file__).resolve().parents[2]   # the repository


def midgame(new_game, steps=25, **kw):
    state, bot = new_game(**kw), RandomPlayer(1)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(bot.choose(state))
    return state


@pytest.fixture(scope="module")
def saves():
    """A mid-game save of each game (and of Pangaea's co-op and Wild Woods modes)."""
    return {
        "pangaea": midgame(pangaea.new_game, players=2, seed=3),
        "coop": midgame(pangaea.new_game, players=2, seed=5, mode="coop"),
        "woods": midgame(pangaea.new_game, players=2, seed=6, wild_woods=True),
        "harmonies": midgame(harmonies.new_game, players=2, seed=3),
        "forest_shuffle": midgame(forest_shuffle.new_game, players=2, seed=3),
        "inori": midgame(inori.new_game, players=2, seed=3),
    }


def assert_little_memory(limit: int = 64 * 2**20) -> None:
    """The refusal came before anything large was built: the memory taken since
    ``tracemalloc.start()`` peaked below ``limit`` (a count, not a time: the machine's load
    cannot move it)."""
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < limit, f"{peak / 2**20:.0f} MB were taken before the refusal"


def reload(state, change):
    data = json.loads(state.to_json())
    change(data)
    return type(state).from_json(json.dumps(data))


# ----- finding 2: an Inori save names only a shipped edition, never a file ----------------------

@pytest.mark.parametrize("name", ["/dev/zero", "/etc/passwd", "/no/such/file.json",
                                  "pangaea_lab/inori/data/reference_edition.json", "../x"])
def test_an_inori_save_never_opens_the_file_it_names(saves, name, monkeypatch):
    opened = []

    def spy(self, *args, **kwargs):   # records the attempt and opens nothing
        opened.append(str(self))
        raise OSError(2, "opening files is not allowed in this test")

    monkeypatch.setattr(pathlib.Path, "open", spy)
    monkeypatch.setattr(pathlib.Path, "read_text", spy)
    monkeypatch.setattr(pathlib.Path, "read_bytes", spy)
    with pytest.raises(InvalidData, match="field 'edition'.*not an edition shipped") as info:
        reload(saves["inori"], lambda d: d.update(edition=name))
    assert not opened
    # the same words whether or not the path exists: the message leaks nothing about the disk
    assert str(info.value).replace(name[:40], "X").startswith(
        "field 'edition': 'X' is not an edition shipped")


def test_an_inori_save_on_a_named_pipe_is_refused_at_once(saves, tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    outcome = []

    def load():
        try:
            reload(saves["inori"], lambda d: d.update(edition=str(pipe)))
            outcome.append("loaded")
        except Exception as exc:  # noqa: BLE001 - inspected below
            outcome.append(exc)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(5)
    if worker.is_alive():   # blocked opening the pipe: give it a writer so it can end
        os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
        pytest.fail("loading the save opened the named pipe it names and waited on it")
    assert isinstance(outcome[0], InvalidData) and "field 'edition'" in str(outcome[0])


def test_an_inori_save_may_embed_its_edition(saves):
    data = inori.reference_data()
    data["name"] = "Classroom copy"
    state = inori.new_game(players=2, seed=4, edition=data)
    text = state.to_json()
    assert json.loads(text)["edition"]["name"] == "Classroom copy"
    assert inori.GameState.from_json(text) == state


def test_loading_an_edition_from_a_file_is_an_explicit_call(tmp_path):
    path = tmp_path / "edition.json"
    path.write_text(json.dumps(inori.reference_data()))
    assert inori.load_edition(path).name == inori.reference_edition().name
    assert pangaea.load_edition(pathlib.Path(pangaea.__file__).parent / "data/edition.json")
    for game in (inori, pangaea):
        with pytest.raises(InvalidData, match="not an ordinary file"):
            game.load_edition(tmp_path)


def test_an_edition_path_to_a_device_is_refused_before_reading():
    """``load_edition("/dev/zero")`` must not read an endless file (run in a subprocess with a
    memory limit, so a failure cannot exhaust the machine)."""
    code = ("import resource\n"
            "hard = resource.getrlimit(resource.RLIMIT_AS)[1]\n"
            "soft = 2 * 1024**3 if hard == resource.RLIM_INFINITY else min(2 * 1024**3, hard)\n"
            "resource.setrlimit(resource.RLIMIT_AS, (soft, hard))\n"
            "from pangaea_lab import inori, pangaea\n"
            "from pangaea_lab.core.errors import InvalidData\n"
            "for game in (inori, pangaea):\n"
            "    try:\n"
            "        game.load_edition('/dev/zero')\n"
            "    except InvalidData as exc:\n"
            "        assert 'not an ordinary file' in str(exc), exc\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=30, cwd=PACKAGE)
    assert out.returncode == 0, out.stderr[-2000:]


# ----- finding 3: small files that ask for huge memory ------------------------------------------

def pangaea_edition(change):
    data = pangaea.load_edition().to_dict()
    change(data)
    return data


@pytest.mark.parametrize("change, words", [
    (lambda d: d["shadow_markers"]["value"]["mix"].update(Devour=2**63), "shadow_markers.mix"),
    (lambda d: d["mountain"]["value"].update(radius=10**6), "mountain.radius"),
    (lambda d: d["tiles_per_player"]["value"].update(Sun=10**9), "tiles_per_player.Sun"),
    (lambda d: d["weather_tokens"]["value"].update(Rain=2**62), "weather_tokens.Rain"),
    (lambda d: d["trees_per_player"].update(value=10**9), "trees_per_player"),
    (lambda d: d["scourge_markers"]["value"].update(total=2**40), "scourge_markers.total"),
    (lambda d: d["tile_shape"]["value"].update(land=[[i, 0] for i in range(5000)]),
     "tile_shape.land"),
])
def test_a_pangaea_edition_asking_for_huge_counts_is_refused_at_once(change, words):
    data = pangaea_edition(change)
    tracemalloc.start()
    with pytest.raises(InvalidData, match=words.replace(".", r"\.")):
        pangaea.new_game(players=2, seed=1, mode="coop", edition=data)
    assert_little_memory()


def test_a_save_with_a_huge_embedded_edition_count_is_refused(saves):
    tracemalloc.start()
    with pytest.raises(InvalidData, match="shadow_markers"):
        reload(saves["coop"], lambda d: (
            d.update(edition=json.loads(pangaea.load_edition().canonical_json)),
            d["edition"]["shadow_markers"]["value"]["mix"].update(Devour=2**63)))
    with pytest.raises(InvalidData, match=r"board.*at most"):
        reload(saves["pangaea"], lambda d: d.update(board=d["board"] * 400))
    assert_little_memory()


@pytest.mark.parametrize("field, value", [
    ("cards", "many"), ("runes", [{"id": f"R{i}", "kind": "gain_favor", "colour": "light",
                                   "count": 10**9} for i in range(3)]),
    ("colours", [{"id": f"c{i}", "opposite": f"c{i ^ 1}"} for i in range(5000)]),
])
def test_an_inori_edition_asking_for_huge_counts_is_refused(field, value):
    data = inori.reference_data()
    data[field] = value
    tracemalloc.start()
    with pytest.raises(InvalidData):
        inori.load_edition(data)
    assert_little_memory()


def test_a_few_hundred_bytes_cannot_ask_for_a_huge_number():
    for text in ('{"game": "inori", "format": 1, "players": ' + "9" * 5000 + "}",
                 '{"game": "inori", "format": 1, "players": 1e999}'):
        assert len(text) < 6000
        with pytest.raises(InvalidData, match="too large"):
            inori.GameState.from_json(text)


# ----- finding 4: the right exception, naming the field -----------------------------------------

GAMES = ["pangaea", "coop", "woods", "harmonies", "forest_shuffle", "inori"]


@pytest.mark.parametrize("game", GAMES)
def test_deep_nesting_is_invalid_data_not_recursion_error(saves, game):
    text = saves[game].to_json()
    deep = text[:-1] + ',"extra":' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(InvalidData, match="nests lists or objects 100001 deep"):
        type(saves[game]).from_json(deep)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("literal", ["Infinity", "-Infinity", "NaN", "1e999", "9" * 5000])
def test_odd_numbers_are_invalid_data(saves, game, literal):
    text = saves[game].to_json()
    with pytest.raises(InvalidData):
        type(saves[game]).from_json(text[:-1] + ',"extra":' + literal + "}")
    key = "seed"
    data = json.loads(text)
    bad = json.dumps(data).replace(f'"{key}": {json.dumps(data[key])}', f'"{key}": {literal}')
    with pytest.raises(InvalidData):
        type(saves[game]).from_json(bad)


@pytest.mark.parametrize("game, change, words", [
    ("pangaea", lambda d: d["players"][1]["hand"].append(["C01"]), r"players\[1\]\.hand"),
    ("pangaea", lambda d: d["board"][0].__setitem__(3, ["Sun"]), r"board\[0\]"),
    ("pangaea", lambda d: d["board"][0].__setitem__(0, {"q": 1}), r"board\[0\]"),
    ("pangaea", lambda d: d["land_deck"].insert(0, ["L01"]), r"land_deck"),
    ("harmonies", lambda d: d["areas"][0]["cards"].append([3]), r"areas\[0\]\.cards\[\d+\]"),
    ("harmonies", lambda d: d["areas"][1]["stacks"].__setitem__(0, [["x"]]), r"areas\[1\]"),
    ("forest_shuffle", lambda d: d["hands"][0].append("12"), "hands"),
    ("forest_shuffle", lambda d: d.update(busy="no"), "busy"),
    ("inori", lambda d: d["altars"].__setitem__(4, ["fire"]), r"altars\[4\]"),
    ("inori", lambda d: d["altars"].__setitem__(4, "purple"), r"altars\[4\]"),
    ("inori", lambda d: d["rune_hands"][1].append(["R-gain-fire"]), r"rune_hands\[1\]\[\d+\]"),
    ("inori", lambda d: d["slots"][0][1].__setitem__(0, [7]), r"slots\[0\]\[1\]\[0\]\[0\]"),
])
def test_a_misplaced_type_is_named_with_its_path(saves, game, change, words):
    with pytest.raises(InvalidData, match=words):
        reload(saves[game], change)


# ----- finding 5: what a save states is checked, so a loaded game plays on ---------------------

def _one_field_mutants(data, limit=400):
    """Each top-level field (and each field of the first player/area) dropped, retyped, made
    negative or huge, lengthened or shortened -- one change at a time."""
    out = []
    targets = [((k,), v) for k, v in data.items() if k not in ("game", "format", "edition")]
    for key in ("players", "areas"):
        if isinstance(data.get(key), list) and isinstance(data[key][0], dict):
            targets += [((key, 0, k), v) for k, v in data[key][0].items()]
    for path, value in targets:
        for new in ("drop", None, "x", [1], {"a": 1}, -1, 2**63, 1.5, True, "longer",
                    "shorter"):
            mutant = copy.deepcopy(data)
            parent = mutant
            for k in path[:-1]:
                parent = parent[k]
            if new == "drop":
                del parent[path[-1]]
            elif new == "longer" and isinstance(value, list) and value:
                parent[path[-1]] = value + value[:1]
            elif new == "shorter" and isinstance(value, list) and value:
                parent[path[-1]] = value[:-1]
            elif new in ("longer", "shorter"):
                continue
            else:
                parent[path[-1]] = new
            out.append((path, new, json.dumps(mutant)))
    return out[:limit]


@pytest.mark.parametrize("game", GAMES)
def test_one_field_changed_either_loads_and_plays_or_is_refused(saves, game):
    import fuzz_support
    state = saves[game]
    data = json.loads(state.to_json())
    outcomes = {"refused": 0, "played": 0}
    for k, (path, new, text) in enumerate(_one_field_mutants(data)):
        try:
            outcomes[fuzz_support.check_mutant(type(state), text, seed=k)] += 1
        except AssertionError as exc:
            raise AssertionError(f"{game}: {path} set to {new!r}: {exc}") from None
    assert outcomes["refused"] > 0


# ----- finding 6: checks are statements that survive python -O -------------------------------

def test_the_package_has_no_assert_statements():
    found = []
    files = list(PACKAGE.joinpath("pangaea_lab").rglob("*.py"))
    assert len(files) > 40
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(PACKAGE)}:{n.lineno}" for n in ast.walk(tree)
                  if isinstance(n, ast.Assert)]
    assert not found, "checks written as assert vanish under python -O: " + ", ".join(found)


def test_an_inconsistent_save_is_refused_by_an_explicit_check(saves):
    """One Tree too many: refused by the invariant check, which is not an assert."""
    def one_more_tree(d):
        d["players"][0]["trees"] += 1
    with pytest.raises(InvalidData, match="should own 10 Trees"):
        reload(saves["pangaea"], one_more_tree)


# ----- finding 8: setup arguments -----------------------------------------------------------------

@pytest.mark.parametrize("changes", [
    dict(weather={0: {"Sun": 1.5}}), dict(weather={0: {"Sun": -1}}),
    dict(weather={0: {"Sun": True}}), dict(weather={0: {"Sun": 99}}), dict(weather=[1]),
    dict(points={0: "3"}), dict(points={0: 1.5}), dict(blessings={0: {"Flying Seed": 1.5}}),
    dict(trees={"ab": 0}), dict(trees={(0, 0, 0): 0}), dict(hands={0: "C01"}),
    dict(hands={5: []}), dict(favors={0: {"Okuma": -2}}),
])
def test_arranged_checks_its_arguments_up_front(changes):
    state = pangaea.new_game(players=2, seed=1)
    with pytest.raises(InvalidSetup):
        state.arranged(**changes)


def test_arranged_hands_never_refills_the_market_with_a_storm():
    """Seed 5, Wild Woods with Elemental Storms: the top of the Land deck is a Storm; Red
    keeps the hand and adds the first market card, whose slot is refilled from that deck."""
    state = pangaea.new_game(players=2, seed=5, wild_woods=True)
    card = state.market[0]
    assert state.land_deck[0].startswith("storm-")
    after = state.arranged(hands={0: [*state.players[0].hand, card]})
    assert not any(c and c.startswith("storm-") for c in after.market)
    assert "storm-3" in after.land_deck and after.market[0].startswith("L")
    after.check_invariants()
    assert type(after).from_json(after.to_json()) == after


def test_a_state_arranged_with_good_arguments_saves_and_loads():
    state = pangaea.new_game(players=2, seed=1).arranged(weather={0: {"Sun": 2}}, points={1: 7})
    assert type(state).from_json(state.to_json()) == state


@pytest.mark.parametrize("new_game, kw", [
    (pangaea.new_game, dict(players=2, edition=5)),
    (pangaea.new_game, dict(players=2.0)),
    (harmonies.new_game, dict(players=2, seed=1.5)),
    (forest_shuffle.new_game, dict(players=True)),
    (inori.new_game, dict(players=2, marker_schedule=1)),
])
def test_bad_setup_arguments_are_refused(new_game, kw):
    with pytest.raises((InvalidSetup, InvalidData)):
        new_game(**kw)


def test_jsonio_limits_are_documented_numbers():
    assert jsonio.MAX_DEPTH >= 16 and jsonio.MAX_DIGITS >= 20 and jsonio.MAX_TEXT >= 10**6


def test_illegal_action_is_a_value_error():
    assert issubclass(IllegalAction, ValueError) and issubclass(InvalidData, ValueError)


# ----- positions typed by hand -------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: harmonies.card_points(1, "2"), lambda: harmonies.card_points(1, 10**9),
    lambda: harmonies.card_points(1, 1.5), lambda: harmonies.solo_suns("5", "A"),
    lambda: harmonies.score_board("A", {"ab": ["green"]}),
    lambda: harmonies.score_board("A", {(0, 0): ["green"] * 50}),
])
def test_hand_typed_harmonies_positions_are_refused_with_the_package_errors(call):
    with pytest.raises((InvalidSetup, InvalidData, IllegalAction)):
        call()


def test_a_hand_typed_forest_shuffle_position_names_a_real_player():
    from pangaea_lab.forest_shuffle.scenario import arrange
    state = forest_shuffle.new_game(players=2, seed=1)
    for player in ("0", 1.0, True, 9):
        with pytest.raises(InvalidData, match="no player"):
            arrange(state, player=player)
