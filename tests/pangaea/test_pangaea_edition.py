"""Game Components: the reference edition and loading a user's edition file."""

import json

import pytest

from pangaea_lab.core.errors import InvalidData
from pangaea_lab.pangaea import load_edition, new_game
from pangaea_lab.pangaea.edition import edition_from_dict


def test_reference_edition_matches_the_component_list():
    # Game Components: 40 Trees, 12 Seeds, 16 Biome Tiles, 20 Land and 24 Creature Rituals,
    # 48 Weather Tokens, 24 Blessing Tokens, 36 Favor Tokens, 4 Summit Markers.
    ed = load_edition()
    assert ed.trees_per_player * 4 == 40
    assert ed.seeds_per_player * 4 == 12
    assert len(ed.land_cards) == 20 and len(ed.creature_cards) == 24
    assert sum(ed.weather_tokens) == 48
    assert sum(n for _, n in ed.blessings) == 24
    assert sum(ed.raw["favor_tokens"]["value"].values()) == 36
    assert sum(ed.raw["tiles_per_player"]["value"].values()) * ed.max_players == 16
    assert {c.points for c in ed.creature_cards} == {3, 4, 5}
    assert all(c.size == c.points for c in ed.creature_cards)


def test_every_item_carries_a_source_label():
    ed = load_edition()
    labels = {item: source for item, source, _ in ed.sources()}
    assert labels["trees_per_player"] == "rulebook"
    assert labels["summit_steps"] == "assumption"
    assert labels["creature_rituals"] == "assumption"
    assert set(labels.values()) <= {"rulebook", "public source", "assumption"}
    assert "assumption" in ed.label.lower() or "assumption" in ed.label


def test_rule_gaps_are_listed_in_data():
    ids = {g["id"] for g in load_edition().rule_gaps()}
    assert {"moved-tree-weather", "cards-exhausted", "round-limit"} <= ids


def _raw():
    return load_edition().to_dict()


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.pop("summit_steps"), "summit_steps"),
    (lambda d: d["summit_steps"].update(value="high"), "summit_steps"),
    (lambda d: d["biomes"].update(source="a blog"), "source"),
    (lambda d: d["land_rituals"]["value"][0].update(biomes=["Sun", "Lava"]), "land_rituals[0].biomes"),
    (lambda d: d["creature_rituals"]["value"][3].update(ancient="Godzilla"), "creature_rituals[3].ancient"),
    (lambda d: d["creature_rituals"]["value"][3].update(id="L01"), "used twice"),
    (lambda d: d["weather_tokens"]["value"].pop("Sun"), "weather_tokens"),
    (lambda d: d["tile_shape"]["value"].update(land=[[0, 0], [5, 5]]), "connected"),
    (lambda d: d["tile_shape"]["value"].update(blessing=[[0, 0]]), "tile_shape.blessing"),
    (lambda d: d["blessings"]["value"].update({"Magic": 2}), "blessings"),
])
def test_bad_edition_names_the_field(mutate, field):
    data = _raw()
    mutate(data)
    with pytest.raises(InvalidData, match=field.replace("[", r"\[").replace("]", r"\]")):
        edition_from_dict(data)


def test_user_edition_file(tmp_path):
    data = _raw()
    data["edition"] = "my club"
    data["summit_steps"]["value"] = 20
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data))
    state = new_game(players=2, seed=1, edition=path)
    assert state.edition.name == "my club" and state.edition.summit_steps == 20


def test_broken_edition_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{ not json")
    with pytest.raises(InvalidData, match="not valid JSON"):
        load_edition(path)
    with pytest.raises(InvalidData, match="cannot read"):
        load_edition(tmp_path / "missing.json")


def test_wrong_card_id_is_named():
    with pytest.raises(InvalidData, match="'Z99'"):
        load_edition().card("Z99")


def test_wild_woods_components_match_the_rulebook_and_are_labelled():
    # Wild Woods components: 24 Treetops (6 per board), 12 Seeds (3 extra per board),
    # 20 Blessing Tokens, 4 Elemental Storm cards (2 per Ritual deck); the layout is assumed.
    ed = load_edition()
    ww = ed.woods
    assert len(ww.slots) * 4 == 24 and ww.extra_seeds * 4 == 12
    assert sum(n for _, n in ww.blessings) == 20
    assert {k for k, n in ww.blessings if n} >= {"Strong Canopy", "Foresight"}
    assert len(ww.storms) == 4 and ww.storms_per_deck == 2
    assert {s.cost for s in ww.slots} <= {0, 1, 2, 3} and ww.max_level == 3
    assert sorted(s.points for s in ww.slots if s.points) == [2, 3]
    labels = {item: (source, note) for item, source, note in ed.sources()}
    assert labels["wild_woods"][0] == "assumption" and "not published" in labels["wild_woods"][1].lower()
    ids = {g["id"] for g in ed.rule_gaps()}
    assert {"ww-range", "ww-expand-once", "ww-board-blessings", "ww-storm-empty"} <= ids


def test_wild_woods_moon_side_and_cards_fit_the_shadow_markers():
    ww = load_edition().woods
    for difficulty in ("standard", "cozy", "midnight"):
        assert len(ww.cycle_plan(difficulty)) == 3
    give_up = [e for key in ("cozy", "midnight") for _, e in ww.cycle_plan(key) if "give_up_seed" in e]
    assert len(give_up) == 2   # each Wild Woods Moon Card makes everyone give up a Seed once
    assert all("give_up_seed" not in e for _, e in ww.cycle_plan("standard"))


@pytest.mark.parametrize("mutate, field", [
    (lambda w: w.update(source="forum"), "wild_woods"),
    (lambda w: w["value"]["slots"][5].update(cost=7), r"slots\[5\].cost"),
    (lambda w: w["value"]["slots"][2].update(seed=9), r"slots\[2\].seed"),
    (lambda w: w["value"]["slots"][0].update(blessing="yes"), r"slots\[0\]"),
    (lambda w: w["value"].update(storms=["Wind", "Lava"]), "storms"),
    (lambda w: w["value"].update(storms_per_deck=3), "storms_per_deck|Storms per deck"),
    (lambda w: w["value"]["blessings"].update({"Magic": 1}), "blessings"),
    (lambda w: w["value"]["moon_board"].pop(), "moon_board"),
    (lambda w: w["value"]["moon_board"][0].update(Dance=3), "Shadow Markers"),
    (lambda w: w["value"]["moon_cards"]["cozy"]["cycles"][0].update(effects=["storm"]), "effects"),
])
def test_bad_wild_woods_data_names_the_field(mutate, field):
    data = _raw()
    mutate(data["wild_woods"])
    with pytest.raises(InvalidData, match=field):
        edition_from_dict(data)


def test_an_edition_without_wild_woods_data_plays_with_the_reference_boards():
    data = _raw()
    del data["wild_woods"]
    data["edition"] = "no expansion data"
    state = new_game(players=2, seed=3, edition=data, wild_woods=True)
    assert state.edition.woods is None and len(state.woods.player_boards[0].slots) == 6
    state.check_invariants()
