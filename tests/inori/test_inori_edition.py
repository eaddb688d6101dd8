"""The edition data: the labelled reference set, and loading a user's file with clear errors."""

from __future__ import annotations

import json

import pytest

from pangaea_lab import inori
from pangaea_lab.core.errors import InvalidData, InvalidSetup


def test_reference_edition_counts_match_the_public_component_list():
    # Reference notes, "Components": 90 favor tokens, 15 runes, 6 altars, 12+6+36 cards.
    ed = inori.load_edition()
    assert len(ed.colours) == 6 and ed.favor_per_colour * len(ed.colours) == 90
    assert len(ed.runes) == 15 and len(ed.altar_colours) == 6
    types = [c.type for c in ed.cards.values()]
    assert (types.count("start"), types.count("new_start"), types.count("journey")) == (12, 6, 36)
    assert all(len(ed.piles[c]) == 6 for c in ed.colours)
    assert ed.markers_total == {2: 7, 3: 6, 4: 5}
    assert ed.neutral_markers == 2 and ed.seasons == 4
    assert len(ed.tree) == 9 and sum(t.altar for t in ed.tree) == 6


def test_opposed_spirits_come_in_three_pairs():
    ed = inori.load_edition()
    pairs = {frozenset((c, ed.opposite[c])) for c in ed.colours}
    assert pairs == {frozenset(("light", "darkness")), frozenset(("water", "fire")),
                     frozenset(("wind", "earth"))}


def test_every_assumed_section_is_labelled_and_listed():
    ed = inori.load_edition()
    assert ed.label == "assumption"
    assert "assumption" in ed.sources["cards"] and "assumption" in ed.sources["runes"]
    assert ed.sources["tie-break"] == "assumption"
    topics = {t for t, _, label in ed.assumption_table() if label == "assumption"}
    for needed in ("Great Tree layout", "Altar space cost", "Majority values",
                   "Overall tie-break", "Two-player markers", "Card data", "Rune tiles"):
        assert needed in topics
    assert all(c.source == "assumption" for c in ed.cards.values())
    assert "[label: assumption]" in ed.summary()


def test_card_corners_follow_the_schema():
    # Top right = own colour; bottom right differs; on start cards it is the opposed spirit.
    ed = inori.load_edition()
    for card in ed.cards.values():
        assert card.complete_colour == card.colour != card.incomplete_colour
        assert 2 <= len(card.spaces) <= 4
        if card.type == "start":
            assert len(card.spaces) == 4 and card.incomplete_colour == ed.opposite[card.colour]


def _write(tmp_path, data) -> str:
    path = tmp_path / "my_edition.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_user_file_is_loaded_and_used_by_new_game(tmp_path):
    data = inori.reference_data()
    data["name"] = "My printed cards"
    data["label"] = "rulebook"
    data["great_tree"]["spaces"][1]["effect"]["count"] = 4
    path = _write(tmp_path, data)
    ed = inori.load_edition(path)
    assert ed.name == "My printed cards" and not ed.is_reference
    state = inori.new_game(players=2, seed=3, edition=path)
    assert state.edition == ed and state.edition.tree[1].effect.count == 4
    # a custom edition travels inside the save file
    again = inori.GameState.from_json(state.to_json())
    assert again == state and again.edition.name == "My printed cards"


@pytest.mark.parametrize("change, words", [
    (lambda d: d["cards"][3]["spaces"][1].update(cost="blu"),
     "cards[3] (S-darkness-2).spaces[1].cost must be null"),
    (lambda d: d["cards"][0].update(colour="purple"), "unknown colour 'purple'"),
    (lambda d: d["cards"][1].update(id="S-light-1"), "the id 'S-light-1' is used twice"),
    (lambda d: d["cards"][0]["spaces"][0]["effect"].update(type="teleport"),
     "unknown effect 'teleport'"),
    (lambda d: d["cards"][0].pop("spaces"), "missing field 'spaces'"),
    (lambda d: d["cards"][0].update(incomplete_colour="light"),
     "incomplete_colour must differ"),
    (lambda d: d["runes"][0].update(kind="swap"), "runes[0].kind: unknown rune kind 'swap'"),
    (lambda d: d["marker_schedule"]["default"].update({"4": [3, 3, 4, 9]}),
     "season 4 needs 9 markers"),
    (lambda d: d["colours"][0].update(opposite="water"), "opposition must go both ways"),
    (lambda d: d["great_tree"]["spaces"].pop(), "root spaces"),
    (lambda d: d.pop("tie_break"), "missing field 'tie_break'"),
    (lambda d: d["favor_tokens_per_colour"].update(value="15"), "favor_tokens_per_colour.value"),
])
def test_a_malformed_user_file_names_the_field(tmp_path, change, words):
    data = inori.reference_data()
    change(data)
    with pytest.raises(InvalidData) as info:
        inori.load_edition(_write(tmp_path, data))
    assert words in str(info.value)
    assert "my_edition.json" in str(info.value)


def test_unreadable_and_non_json_files_give_plain_errors(tmp_path):
    with pytest.raises(InvalidData, match="cannot read the edition file"):
        inori.load_edition(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json", encoding="utf-8")
    with pytest.raises(InvalidData, match="not valid JSON"):
        inori.load_edition(str(bad))
    with pytest.raises(InvalidData, match="must be a file path, JSON text or a dict"):
        inori.load_edition(42)


def test_editions_given_as_dict_or_text_and_reference_data_is_a_copy():
    data = inori.reference_data()
    data["cards"].clear()
    assert len(inori.load_edition().cards) == 54
    ed = inori.load_edition(json.dumps(inori.reference_data()))
    assert ed == inori.load_edition() and ed.is_reference


def test_marker_schedule_option_and_bad_setup_arguments():
    alt = inori.new_game(players=2, seed=1, marker_schedule="three_at_start")
    assert alt.hand == (3, 3) and alt.schedule == (3, 5, 6, 7)
    with pytest.raises(InvalidSetup, match="marker_schedule must be one of"):
        inori.new_game(players=2, seed=1, marker_schedule="fast")
    with pytest.raises(InvalidSetup, match="2 to 4 players"):
        inori.new_game(players=5, seed=1)
    with pytest.raises(InvalidSetup, match="seed"):
        inori.new_game(players=2, seed=1.5)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from(
        ["water", "majority", "favor", "", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["type", "colour", "count", "cost", "effect"]), inner, max_size=3),
    max_leaves=6)
SECTIONS = st.sampled_from(["cards", "runes", "great_tree", "colours", "marker_schedule",
                            "player_markers", "altars", "seasons", "tie_break"])


@settings(max_examples=60, deadline=None)
@given(section=SECTIONS, index=st.integers(0, 60), key=st.sampled_from(
    ["id", "colour", "spaces", "cost", "effect", "kind", "opposite", "value", "2", "rule",
     "complete_colour", "timing", "slot", "count", "spaces", "altar"]), value=JSON_VALUES)
def test_any_corrupted_field_gives_invalid_data_never_a_crash(section, index, key, value):
    data = inori.reference_data()
    target = data[section]
    if isinstance(target, list):
        target = target[index % len(target)]
    elif section == "great_tree":
        target = target["spaces"][index % 9]
    elif section == "marker_schedule":
        target = target["default"]
    if key == "cost" and "spaces" in target:
        target = target["spaces"][0]
    target[key] = value
    try:
        ed = inori.load_edition(data)
    except InvalidData as exc:
        assert "Inori edition" in str(exc)
        return
    state = inori.new_game(players=4, seed=index, edition=ed)   # a valid file must play
    state.check_invariants()
