"""Fuzzing the four games' edition files: the shipped file changed in one place (any field,
however deep, given a value of another shape: an empty or nested list, an object, nothing, a
word, a huge, negative or fractional number, a flag) must either load or be refused with the
package's own error naming what is wrong -- never a bare TypeError or AttributeError from
deep inside the reader.  A teacher loads the files others send."""

from __future__ import annotations

import copy
import json
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import fuzz_support

from pangaea_lab.core.errors import InvalidData, PangaeaLabError
from pangaea_lab.forest_shuffle import edition as forest_edition
from pangaea_lab.harmonies import edition as harmonies_edition
from pangaea_lab.inori import edition as inori_edition
from pangaea_lab.pangaea import edition as pangaea_edition

PACKAGE = Path(pangaea_edition.__file__).resolve().parents[1]
HOSTILE = ([], {}, [[]], [{}], None, "x", "", 10**9, -1, 1.5, True, [None], {"a": []}, [1, 1])
FUZZ = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
FOLDER = Path(tempfile.mkdtemp(prefix="hostile-editions-"))


def shipped(name: str) -> Any:
    return json.loads((PACKAGE / name).read_text(encoding="utf-8"))


def _forest_shuffle(data: Any) -> Any:
    path = FOLDER / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return forest_edition.load_edition(path)


def _harmonies(data: Any) -> Any:
    (FOLDER / "animals.json").write_text(json.dumps(data["animals"]), encoding="utf-8")
    (FOLDER / "spirits.json").write_text(json.dumps(data["spirits"]), encoding="utf-8")
    return harmonies_edition.load_edition(FOLDER)


#: each game's shipped edition data and how a user's copy of it is loaded
GAMES: dict[str, tuple[Callable[[], Any], Callable[[Any], Any]]] = {
    "pangaea": (lambda: shipped("pangaea/data/edition.json"), pangaea_edition.load_edition),
    "inori": (lambda: shipped("inori/data/reference_edition.json"), inori_edition.load_edition),
    "forest_shuffle": (lambda: shipped("forest_shuffle/data/cards.json"), _forest_shuffle),
    "harmonies": (lambda: {"animals": shipped("harmonies/data/animals.json"),
                           "spirits": shipped("harmonies/data/spirits.json")}, _harmonies),
}


@lru_cache(maxsize=None)
def paths(game: str) -> list[tuple]:
    return [path for path in fuzz_support._paths(GAMES[game][0]()) if path]


def changed(game: str, path: tuple, value: Any) -> Any:
    data = copy.deepcopy(GAMES[game][0]())
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_shipped_file_loads_through_the_users_way_in(game):
    GAMES[game][1](GAMES[game][0]())


@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(where=st.integers(min_value=0), value=st.sampled_from(HOSTILE))
def test_a_field_of_another_shape_loads_or_is_refused_by_name(game, where, value):
    path = paths(game)[where % len(paths(game))]
    try:
        GAMES[game][1](changed(game, path, value))
    except PangaeaLabError as refused:
        assert str(refused).strip(), f"{game}: an empty refusal for {path} = {value!r}"


@pytest.mark.parametrize("game,path,value,words", [
    ("pangaea", ("moon_cards", "value", "cozy", "cycles", 1, "effects", 0), [{}],
     "moon_cards.cozy.cycles[1].effects"),
    ("pangaea", ("shadow_markers", "value", "black", 1), [{}], "shadow_markers.black"),
    ("forest_shuffle", ("split_cards", 52, "halves", 1, 0), {}, "split_cards[52].halves[1]"),
    ("forest_shuffle", ("dwellers", 42, "copies"), None, "dwellers[42].copies"),
    ("forest_shuffle", ("dwellers", 32, "types"), True, "dwellers[32].types"),
    ("forest_shuffle", ("tree_symbols", 0), [], "tree_symbols"),
])
def test_fields_that_once_broke_the_reader_are_named(game, path, value, words):
    with pytest.raises(InvalidData, match=words.replace("[", r"\[").replace("]", r"\]")):
        GAMES[game][1](changed(game, path, value))
