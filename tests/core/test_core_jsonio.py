"""JSON save and data files: canonical text, and errors that name the bad field."""

import json

import pytest

from pangaea_lab.core import InvalidData, jsonio

import toy_game


def test_dumps_is_canonical():
    assert jsonio.dumps({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'
    assert jsonio.dumps({"name": "Forêt"}) == '{"name":"Forêt"}'
    assert jsonio.dumps({"a": 1, "b": 2}) == jsonio.dumps({"b": 2, "a": 1})


def test_parse_accepts_text_and_bytes():
    assert jsonio.parse('{"a": 1}') == {"a": 1}
    assert jsonio.parse(b'[1, 2]') == [1, 2]


def test_bad_json_names_line_and_column():
    with pytest.raises(InvalidData, match=r"not valid JSON.*line 2, column"):
        jsonio.parse('{"a": 1,\n  oops}')
    with pytest.raises(InvalidData, match="must be JSON text"):
        jsonio.parse(12)


def test_bad_json_in_a_save_is_invalid_data():
    with pytest.raises(InvalidData, match="save file is not valid JSON"):
        toy_game.MossState.from_json("{not json")


def test_save_of_another_game_is_refused():
    text = toy_game.new_game().to_json().replace('"game":"moss"', '"game":"inori"')
    with pytest.raises(InvalidData, match=r"field 'game'.*'inori'.*'moss'"):
        toy_game.MossState.from_json(text)


def test_save_without_a_game_field_is_refused():
    data = json.loads(toy_game.new_game().to_json())
    del data["game"]
    with pytest.raises(InvalidData, match="field 'game'"):
        toy_game.MossState.from_json(json.dumps(data))


def test_wrong_format_version_is_refused():
    data = json.loads(toy_game.new_game().to_json())
    data["format"] = 99
    with pytest.raises(InvalidData, match="field 'format': expected 1, found 99"):
        toy_game.MossState.from_json(json.dumps(data))


def test_top_level_must_be_an_object():
    with pytest.raises(InvalidData, match="JSON object at the top level"):
        jsonio.open_save("[1, 2]", "moss")


@pytest.mark.parametrize("name", ["players", "seed", "rocks", "stones", "turn", "passes"])
def test_missing_field_is_named(name):
    data = json.loads(toy_game.new_game().to_json())
    del data[name]
    with pytest.raises(InvalidData, match=f"missing field save.{name}"):
        toy_game.MossState.from_json(json.dumps(data))


def test_wrong_type_is_named():
    data = json.loads(toy_game.new_game().to_json())
    data["turn"] = "two"
    with pytest.raises(InvalidData, match="field save.turn must be int, found str"):
        toy_game.MossState.from_json(json.dumps(data))
    data["turn"] = True
    with pytest.raises(InvalidData, match="save.turn has the wrong type"):
        toy_game.MossState.from_json(json.dumps(data))


def test_malformed_deep_structure_is_named():
    data = json.loads(toy_game.new_game().to_json())
    data["stones"] = [[0, 0]]
    with pytest.raises(InvalidData, match="save.stones is malformed"):
        toy_game.MossState.from_json(json.dumps(data))


def test_field_helper():
    assert jsonio.field({"n": 3}, "n", int, "deck") == 3
    assert jsonio.field({"n": True}, "n", (bool, int), "deck") is True
    assert jsonio.field({"n": 2.5}, "n", (int, float), "deck") == 2.5
    with pytest.raises(InvalidData, match="deck must be a JSON object"):
        jsonio.field([1], "n", int, "deck")
    with pytest.raises(InvalidData, match="field deck.n must be int or float, found str"):
        jsonio.field({"n": "x"}, "n", (int, float), "deck")


def test_convert_turns_errors_into_invalid_data():
    assert jsonio.convert("cards", lambda: 5) == 5
    with pytest.raises(InvalidData, match=r"cards\[2\] is malformed"):
        jsonio.convert("cards[2]", lambda: {}["cost"])
    with pytest.raises(InvalidData, match="inner problem"):
        jsonio.convert("cards", lambda: (_ for _ in ()).throw(InvalidData("inner problem")))


def test_load_file(tmp_path):
    good = tmp_path / "cards.json"
    good.write_text('{"cards": []}', encoding="utf-8")
    assert jsonio.load_file(good) == {"cards": []}
    bad = tmp_path / "broken.json"
    bad.write_text('{"cards": [', encoding="utf-8")
    with pytest.raises(InvalidData, match="data file 'broken.json' is not valid JSON"):
        jsonio.load_file(bad)
    with pytest.raises(InvalidData, match="cannot read the data file"):
        jsonio.load_file(tmp_path / "missing.json")


def test_save_round_trip_is_exact():
    state = toy_game.new_game(players=3, seed=5, rocks=0)
    for action in [toy_game.Place((0, 0)), toy_game.Pass(), toy_game.Place((1, 0))]:
        state = state.apply(action)
    text = state.to_json()
    again = toy_game.MossState.from_json(text)
    assert again == state
    assert again.to_json() == text


# ----- the reader's limits, checked on the text before json reads it ---------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**29, 10**29),
                     st.floats(allow_nan=False, allow_infinity=False),
                     st.text(alphabet='ab[]{}"\\:,0123456789é', max_size=8))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.text(alphabet='k[]{}"\\1', max_size=4), inner, max_size=3)), max_leaves=25)


def _nesting(value) -> int:
    if isinstance(value, list):
        return 1 + max(map(_nesting, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_nesting, value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(_VALUES, st.booleans())
def test_depth_is_the_nesting_of_the_value_read(value, ascii_only):
    """Brackets and digits inside strings (escaped quotes and backslashes too) do not count."""
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert jsonio._depth(text) == _nesting(value)
    assert jsonio.parse(text) == value


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 100, 5000])
def test_depth_of_deep_texts_is_exact(n):
    assert jsonio._depth("[" * n + "]" * n) == n
    assert jsonio._depth('{"a":' * n + '"]]"' + "}" * n) == n
    assert jsonio._depth("[" * n) == n      # never closed: still counted


@pytest.mark.parametrize("text, digits", [
    ("[1" + "0" * 30 + "]", 31), ('{"a": -' + "9" * 40 + "}", 40),
    ('["\\"", ' + "7" * 35 + "]", 35)])
def test_long_whole_numbers_are_refused(text, digits):
    with pytest.raises(InvalidData, match=f"a number of {digits} digits is far too large"):
        jsonio.parse(text)


@pytest.mark.parametrize("text", [
    "[1" + "0" * 29 + "]", "[1." + "0" * 40 + "]", "[1e" + "0" * 40 + "]",
    '["1' + "0" * 40 + '"]', '["\\"' + "7" * 35 + '"]', "[" + "1" * 40 + ".5]"])
def test_long_digits_that_are_not_whole_numbers_are_read(text):
    assert jsonio.parse(text) == json.loads(text)
