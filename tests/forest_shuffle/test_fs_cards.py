"""The card data: all base-game components, cross-checked on load, and clear errors for bad
card files."""

import copy
import json

import pytest

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.errors import InvalidData
from pangaea_lab.forest_shuffle.cards import Catalog, _data_text


@pytest.fixture(scope="module")
def raw():
    return json.loads(_data_text("cards.json"))


def test_component_totals():
    cat = fs.catalog()
    kinds = [cat.card(c).kind for c in cat.card_ids]
    assert kinds.count("tree") == 66 and kinds.count("left-right") == 44
    assert kinds.count("top-bottom") == 48 and kinds.count("winter") == 3
    assert cat.component_counts["total"] == 180
    assert len(cat.tree_species()) == 8
    assert len([s for s in cat.all_species() if not s.is_tree]) == 49


def test_halves_by_slot_and_symbol():
    cat = fs.catalog()
    slots, symbols = {}, {}
    for cid in cat.card_ids:
        card = cat.card(cid)
        for side, half in zip(card.sides(), card.halves) if card.is_split else ():
            slots[side] = slots.get(side, 0) + 1
            symbols[half.symbol] = symbols.get(half.symbol, 0) + 1
    assert slots == {"top": 48, "bottom": 48, "left": 44, "right": 44}
    assert symbols == {"Silver Fir": 24, "Sycamore": 24, "Douglas Fir": 24, "Horse Chestnut": 23,
                       "Oak": 23, "Linden": 23, "Beech": 22, "Birch": 21}


def test_costs_from_the_appendix():
    cat = fs.catalog()
    assert cat.species("Horse Chestnut").cost == 1 and cat.species("Wood Ant").cost == 1
    assert cat.species("Brown Bear").cost == 3 and cat.species("Birch").cost == 0
    assert set(cat.species("Peacock Butterfly").types) == {"butterfly", "insect"}
    assert set(cat.species("Roe Deer").types) == {"deer", "cloven-hoofed animal"}


def test_every_entry_has_a_source_label():
    labels = {sp.source for sp in fs.catalog().all_species()}
    labels |= {a["source"] for a in fs.rules_data()["assumptions"]}
    assert labels <= {"rulebook", "public source", "assumption"}


@pytest.mark.parametrize("mangle,words", [
    (lambda d: d["split_cards"][0]["halves"][0].__setitem__(0, "Unicorn"), "unknown species 'Unicorn'"),
    (lambda d: d["split_cards"][0]["halves"][0].__setitem__(1, "Palm"), "unknown tree symbol"),
    (lambda d: d["split_cards"].pop(), "card list has"),
    (lambda d: d["split_cards"][1].__setitem__("id", 70), "reuses card id 70"),
    (lambda d: d["dwellers"][0].__setitem__("source", "rumour"), "source"),
    (lambda d: d["dwellers"][0].__setitem__("count", 5), "copies add up"),
    (lambda d: d["dwellers"][0].__setitem__("types", ["dragon"]), "unknown type"),
    (lambda d: d["trees"][7].__setitem__("count", 10), "65 tree cards"),
    (lambda d: d.pop("winter_cards"), "winter_cards"),
    (lambda d: d["split_cards"][0].__setitem__("layout", "diagonal"), "layout"),
    (lambda d: d["split_cards"][60]["halves"].reverse(), "cannot be a"),
    (lambda d: d["caves"].__setitem__("count", 4), "caves.count"),
    (lambda d: d.pop("reference_cards"), "reference_cards"),
])
def test_bad_card_files_name_the_problem(raw, mangle, words):
    data = copy.deepcopy(raw)
    mangle(data)
    with pytest.raises(InvalidData, match=words):
        Catalog(data)


def test_load_catalog_from_a_file(tmp_path, raw):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    assert fs.load_catalog(str(path)).card_ids == fs.catalog().card_ids
    with pytest.raises(InvalidData, match="cannot read"):
        fs.load_catalog(str(tmp_path / "missing.json"))
    path.write_text("{", encoding="utf-8")
    with pytest.raises(InvalidData, match="not valid JSON"):
        fs.load_catalog(str(path))


def test_unknown_names_suggest_close_ones():
    with pytest.raises(InvalidData, match="Did you mean"):
        fs.catalog().species("Red Foxx")
    with pytest.raises(InvalidData, match="no card with id"):
        fs.catalog().card(500)


def test_arrange_errors():
    g = fs.new_game(players=2, seed=0)
    with pytest.raises(InvalidData, match="no free card"):
        fs.arrange(g, hand=["Douglas Fir"] * 8)
    with pytest.raises(InvalidData, match="no player 3"):
        fs.arrange(g, player=3)
    with pytest.raises(InvalidData, match="cannot sit in a top slot"):
        fs.arrange(g, forest={"trees": [{"tree": "Oak", "top": ["Red Fox"]}]})


def test_check_answer_and_effect_texts():
    f = fs.Forest.from_dict({"trees": [{"tree": "Birch", "top": ["Goshawk"]}]})
    assert fs.check_answer(None, f, "Goshawk").startswith("Your turn")
    assert fs.check_answer(3, f, "Goshawk").startswith("Correct")
    assert "3 per bird" in fs.check_answer(4, f, "Goshawk")
    assert fs.check_answer(4, f).startswith("Correct")
    from pangaea_lab.forest_shuffle.effects import effect_text
    assert effect_text("Brown Bear") == ("put every card of the clearing under your cave",
                                         "draw 1 card and take another turn")
    assert effect_text("Squeaker") == ("-", "-")
