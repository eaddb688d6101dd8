"""Scoring of every base species (appendix: points of each card) and the worked examples."""

import pytest

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.errors import InvalidData

CAT = fs.catalog()


def forest(*trees, cave=0):
    return fs.Forest.from_dict({"cave": cave, "trees": list(trees)})


def points(f, species, others=()):
    return fs.score([f, *others])[0].by_species.get(species, 0)


EIGHT = [{"tree": t} for t in ("Beech", "Birch", "Douglas Fir", "Horse Chestnut", "Linden",
                               "Oak", "Silver Fir", "Sycamore")]


# ----- worked examples of the reference notes (appendix) ---------------------------------

def test_example_blackberries():
    f = forest({"tree": "Birch", "bottom": ["Blackberries"]}, {"tree": "Birch", "bottom": ["Blackberries"]},
               {"tree": "Birch", "bottom": ["Moss"]}, {"tree": "Birch", "bottom": ["Tree Ferns"]})
    assert points(f, "Blackberries") == 16


def test_example_common_toad():
    f = forest({"tree": "Birch", "bottom": ["Common Toad", "Common Toad"]},
               {"tree": "Birch", "bottom": ["Common Toad"]})
    assert points(f, "Common Toad") == 10


def test_example_fallow_deer():
    f = forest({"tree": "Birch", "left": ["Fallow Deer"], "right": ["Fallow Deer"]},
               {"tree": "Birch", "left": ["Wild Boar"], "right": ["Squeaker"]})
    assert points(f, "Fallow Deer") == 24


def test_example_fireflies():
    f = forest(*[{"tree": "Birch", "bottom": ["Fireflies"]} for _ in range(3)])
    assert points(f, "Fireflies") == 15


def test_example_goshawk():
    f = forest({"tree": "Birch", "top": ["Goshawk"]}, {"tree": "Birch", "top": ["Goshawk"]},
               {"tree": "Birch", "top": ["Eurasian Jay"]}, {"tree": "Birch", "top": ["Tawny Owl"]})
    assert points(f, "Goshawk") == 24


def test_example_hedgehog():
    f = forest({"tree": "Birch", "bottom": ["Hedgehog"], "top": ["Peacock Butterfly"]},
               {"tree": "Birch", "bottom": ["Hedgehog"], "top": ["Purple Emperor"]},
               {"tree": "Birch", "top": ["Purple Emperor"]})
    assert points(f, "Hedgehog") == 12


def test_example_linden_most():
    a = forest("Linden", "Linden", "Linden")
    b = forest("Linden", "Linden")
    assert points(a, "Linden", [b]) == 9
    assert points(b, "Linden", [a]) == 2


def test_example_linden_with_bees():
    anna = forest("Linden", "Linden", "Linden")
    boris = forest("Linden", "Linden")
    caro = forest({"tree": "Linden", "left": ["Violet Carpenter Bee"]},
                  {"tree": "Linden", "right": ["Violet Carpenter Bee"]})
    s = fs.score([anna, boris, caro])
    assert [x.by_species["Linden"] for x in s] == [3, 2, 6]


def test_example_moss():
    trees = [{"tree": "Birch"} for _ in range(9)] + [{"tree": "Sapling"}]
    trees[0]["bottom"] = ["Moss"]
    trees[1]["bottom"] = ["Moss"]
    assert points(forest(*trees), "Moss") == 20
    assert points(forest(*trees[:9]), "Moss") == 0


def test_example_red_deer():
    trees = [{"tree": "Birch"} for _ in range(7)]
    trees[0].update(left=["Red Deer"], right=["Red Deer"])
    for k, plant in enumerate(["Blackberries", "Blackberries", "Moss", "Tree Ferns"]):
        trees[k]["bottom"] = [plant]
    assert points(forest(*trees), "Red Deer") == 22


def test_example_roe_deer():
    f = forest({"tree": "Beech", "right": ["Roe Deer/Beech"], "bottom": ["Wood Ant/Beech"]},
               "Beech", "Beech", {"tree": "Birch", "top": ["Chaffinch/Birch"]})
    assert points(f, "Roe Deer") == 15


def test_example_sycamore():
    trees = ["Sycamore", "Sycamore"] + ["Birch"] * 7 + ["Sapling"]
    f = forest(*trees)
    assert points(f, "Sycamore") == 20
    assert fs.score([f])[0].points_at((0, "tree", 0)) == 10


def test_example_tree_frog():
    f = forest({"tree": "Oak", "bottom": ["Tree Frog"], "left": ["Gnat"]},
               {"tree": "Oak", "bottom": ["Tree Frog"], "right": ["Gnat"]})
    assert points(f, "Tree Frog") == 20


def test_example_wolf():
    f = forest({"tree": "Birch", "left": ["Wolf"], "right": ["Wolf"]},
               {"tree": "Birch", "left": ["Roe Deer/Linden"], "right": ["Fallow Deer/Birch"]},
               {"tree": "Birch", "left": ["Red Deer/Oak"]})
    assert points(f, "Wolf") == 30


def test_example_beech_with_bees():
    f = forest({"tree": "Beech", "left": ["Violet Carpenter Bee"]}, "Beech", "Beech")
    assert points(f, "Beech") == 15
    g = forest({"tree": "Beech", "left": ["Violet Carpenter Bee"]},
               {"tree": "Beech", "right": ["Violet Carpenter Bee"]})
    assert points(g, "Beech") == 10
    assert points(forest("Beech", "Beech", "Beech"), "Beech") == 0
    assert points(forest(*["Beech"] * 10), "Beech") == 50


def test_example_oak_ignores_bees():
    trees = [dict(t) for t in EIGHT] + [{"tree": "Oak"}, {"tree": "Oak"}]
    trees[5]["left"] = ["Violet Carpenter Bee"]
    assert points(forest(*trees), "Oak") == 30


def test_example_butterflies_layers():
    f = forest(*[{"tree": "Birch", "top": [b]} for b in
                 ("Peacock Butterfly", "Purple Emperor", "Purple Emperor", "Camberwell Beauty",
                  "Camberwell Beauty")])
    s = fs.score([f])[0]
    butterflies = sum(v for k, v in s.by_species.items() if k in
                      ("Peacock Butterfly", "Purple Emperor", "Camberwell Beauty"))
    assert butterflies == 9


def test_example_bats():
    f = forest({"tree": "Birch", "left": ["Barbastelle Bat"], "right": ["Barbastelle Bat"]},
               {"tree": "Birch", "left": ["Brown Long-eared Bat"], "right": ["Greater Horseshoe Bat"]})
    s = fs.score([f])[0].by_species
    assert sum(s[b] for b in ("Barbastelle Bat", "Brown Long-eared Bat", "Greater Horseshoe Bat")) == 20
    g = forest({"tree": "Birch", "left": ["Barbastelle Bat"], "right": ["Greater Horseshoe Bat"]})
    assert fs.score([g])[0].total == 1


def test_example_horse_chestnut_with_bees():
    f = forest({"tree": "Horse Chestnut", "left": ["Violet Carpenter Bee"]},
               {"tree": "Horse Chestnut", "right": ["Violet Carpenter Bee"]})
    s = fs.score([f])[0]
    assert s.by_species["Horse Chestnut"] == 16
    assert s.by_species["Violet Carpenter Bee"] == 0
    assert points(forest(*["Horse Chestnut"] * 9), "Horse Chestnut") == 49


def test_issue_example():
    f = fs.Forest.from_dict({"cave": 2, "trees": [
        {"tree": "Oak", "top": ["Red Squirrel"], "bottom": [],
         "left": ["European Hare", "European Hare"], "right": ["Barbastelle Bat"]},
        {"tree": "Sapling", "left": ["Roe Deer/Birch"]}]})
    s = fs.score([f])[0]
    assert s.by_species == {"Oak": 0, "Red Squirrel": 5, "Barbastelle Bat": 0, "Roe Deer": 3,
                            "European Hare": 4}
    assert s.cave == 2 and s.total == 14


# ----- one case per species ---------------------------------------------------------------

CASES = [
    ("Birch", [{"tree": "Birch"}, {"tree": "Birch"}], 2),
    ("Douglas Fir", [{"tree": "Douglas Fir"}, {"tree": "Douglas Fir"}], 10),
    ("Horse Chestnut", [{"tree": "Horse Chestnut"}] * 3, 9),
    ("Oak", EIGHT, 10),
    ("Oak", [{"tree": "Oak"}, {"tree": "Sapling"}], 0),
    ("Silver Fir", [{"tree": "Silver Fir", "left": ["European Hare"] * 2, "top": ["Goshawk"]}], 6),
    ("Sycamore", [{"tree": "Sycamore"}, {"tree": "Birch"}, {"tree": "Sapling"}], 3),
    ("Bullfinch", [{"tree": "Birch", "top": ["Bullfinch"], "bottom": ["Fireflies"]},
                   {"tree": "Birch", "top": ["Peacock Butterfly"]}], 4),
    ("Chaffinch", [{"tree": "Beech", "top": ["Chaffinch"]}], 5),
    ("Chaffinch", [{"tree": "Birch", "top": ["Chaffinch"]}], 0),
    ("Eurasian Jay", [{"tree": "Birch", "top": ["Eurasian Jay"]}], 3),
    ("Goshawk", [{"tree": "Birch", "top": ["Goshawk"]}], 3),
    ("Great Spotted Woodpecker", [{"tree": "Birch", "top": ["Great Spotted Woodpecker"]}], 10),
    ("Tawny Owl", [{"tree": "Birch", "top": ["Tawny Owl"]}], 5),
    ("Camberwell Beauty", [{"tree": "Birch", "top": ["Camberwell Beauty"]},
                           {"tree": "Birch", "top": ["Large Tortoiseshell"]}], 0),
    ("Large Tortoiseshell", [{"tree": "Birch", "top": ["Camberwell Beauty"]},
                             {"tree": "Birch", "top": ["Large Tortoiseshell"]}], 3),
    ("Peacock Butterfly", [{"tree": "Birch", "top": [b]} for b in (
        "Peacock Butterfly", "Purple Emperor", "Silver-washed Fritillary")], 0),
    ("Silver-washed Fritillary", [{"tree": "Birch", "top": [b]} for b in (
        "Peacock Butterfly", "Purple Emperor", "Silver-washed Fritillary")], 3),
    ("Purple Emperor", [{"tree": "Birch", "top": [b]} for b in (
        "Purple Emperor", "Peacock Butterfly", "Silver-washed Fritillary")], 0),
    ("Red Squirrel", [{"tree": "Oak", "top": ["Red Squirrel"]}], 5),
    ("Red Squirrel", [{"tree": "Sapling", "top": ["Red Squirrel"]}], 0),
    ("Blackberries", [{"tree": "Birch", "bottom": ["Blackberries"]}], 2),
    ("Moss", [{"tree": "Birch", "bottom": ["Moss"]}], 0),
    ("Tree Ferns", [{"tree": "Birch", "bottom": ["Tree Ferns"]},
                    {"tree": "Birch", "bottom": ["Common Toad"]},
                    {"tree": "Birch", "bottom": ["Pond Turtle"]}], 12),
    ("Wild Strawberries", EIGHT[:1] + [{"tree": "Birch", "bottom": ["Wild Strawberries"]}]
     + EIGHT[2:], 10),
    ("Wild Strawberries", [{"tree": "Birch", "bottom": ["Wild Strawberries"]}], 0),
    ("Chanterelle", [{"tree": "Birch", "bottom": ["Chanterelle"]}], 0),
    ("Fly Agaric", [{"tree": "Birch", "bottom": ["Fly Agaric"]}], 0),
    ("Parasol Mushroom", [{"tree": "Birch", "bottom": ["Parasol Mushroom"]}], 0),
    ("Penny Bun", [{"tree": "Birch", "bottom": ["Penny Bun"]}], 0),
    ("Common Toad", [{"tree": "Birch", "bottom": ["Common Toad"]}], 0),
    ("Fire Salamander", [{"tree": "Birch", "bottom": ["Fire Salamander"]}] * 2, 15),
    ("Fire Salamander", [{"tree": "Birch", "bottom": ["Fire Salamander"]}] * 3, 25),
    ("Pond Turtle", [{"tree": "Birch", "bottom": ["Pond Turtle"]}], 5),
    ("Tree Frog", [{"tree": "Birch", "bottom": ["Tree Frog"]}], 0),
    ("Fireflies", [{"tree": "Birch", "bottom": ["Fireflies"]}], 0),
    ("Fireflies", [{"tree": "Birch", "bottom": ["Fireflies"]}] * 4, 20),
    ("Stag Beetle", [{"tree": "Birch", "bottom": ["Stag Beetle"], "top": ["Red Squirrel"],
                      "left": ["European Hare"], "right": ["European Badger"]}], 3),
    ("Wood Ant", [{"tree": "Birch", "bottom": ["Wood Ant"]},
                  {"tree": "Sapling", "bottom": ["Common Toad", "Common Toad"]}], 6),
    ("Hedgehog", [{"tree": "Birch", "bottom": ["Hedgehog"], "top": ["Purple Emperor"]}], 2),
    ("Mole", [{"tree": "Birch", "bottom": ["Mole"]}], 0),
    ("Bechstein's Bat", [{"tree": "Birch", "left": ["Bechstein's Bat"], "right": ["Barbastelle Bat"]},
                         {"tree": "Birch", "left": ["Greater Horseshoe Bat"]}], 5),
    ("Fallow Deer", [{"tree": "Birch", "left": ["Fallow Deer"]}], 3),
    ("Red Deer", [{"tree": "Birch", "left": ["Red Deer"], "bottom": ["Moss"]}], 2),
    ("Roe Deer", [{"tree": "Linden", "left": ["Roe Deer/Linden"]}], 6),
    ("Wild Boar", [{"tree": "Birch", "left": ["Wild Boar"], "right": ["Squeaker"]}], 10),
    ("Wild Boar", [{"tree": "Birch", "left": ["Wild Boar"]}], 0),
    ("Squeaker", [{"tree": "Birch", "left": ["Squeaker"]}], 1),
    ("Beech Marten", [{"tree": "Birch", "left": ["Beech Marten"], "right": ["Squeaker"],
                       "top": ["Eurasian Jay"], "bottom": ["Moss"]}, {"tree": "Birch"}], 5),
    ("Brown Bear", [{"tree": "Birch", "left": ["Brown Bear"]}], 0),
    ("European Badger", [{"tree": "Birch", "left": ["European Badger"]}], 2),
    ("European Fat Dormouse", [{"tree": "Birch", "left": ["European Fat Dormouse"],
                                "right": ["Barbastelle Bat"]}], 15),
    ("European Fat Dormouse", [{"tree": "Birch", "left": ["European Fat Dormouse"]},
                               {"tree": "Birch", "right": ["Barbastelle Bat"]}], 0),
    ("European Hare", [{"tree": "Birch", "left": ["European Hare"] * 3}], 9),
    ("Lynx", [{"tree": "Birch", "left": ["Lynx"], "right": ["Roe Deer/Birch"]}], 10),
    ("Lynx", [{"tree": "Birch", "left": ["Lynx"]}], 0),
    ("Raccoon", [{"tree": "Birch", "left": ["Raccoon"]}], 0),
    ("Red Fox", [{"tree": "Birch", "left": ["Red Fox"], "right": ["European Hare"] * 3}], 6),
    ("Wolf", [{"tree": "Birch", "left": ["Wolf"]}], 0),
    ("Gnat", [{"tree": "Birch", "left": ["Gnat"], "right": ["Barbastelle Bat"]},
              {"tree": "Birch", "left": ["Bechstein's Bat"]}], 2),
    ("Violet Carpenter Bee", [{"tree": "Birch", "left": ["Violet Carpenter Bee"]}], 0),
]


@pytest.mark.parametrize("species,trees,expected", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_species_points(species, trees, expected):
    assert points(forest(*trees), species) == expected


def test_every_species_has_a_case():
    covered = {c[0] for c in CASES} | {"Linden", "Beech", "Barbastelle Bat",
                                       "Brown Long-eared Bat", "Greater Horseshoe Bat"}
    assert covered == {sp.name for sp in fs.catalog().all_species()}


def test_woodpecker_compares_all_forests():
    bird = {"tree": "Birch", "top": ["Great Spotted Woodpecker"]}
    small = forest(bird)
    big = forest("Birch", "Birch")
    tie = forest("Sapling")
    bee = forest({"tree": "Sapling", "left": ["Violet Carpenter Bee"]})
    assert points(small, "Great Spotted Woodpecker", [big]) == 0
    assert points(small, "Great Spotted Woodpecker", [tie]) == 10
    assert points(small, "Great Spotted Woodpecker", [bee]) == 0


def test_moss_counts_bees_and_saplings():
    trees = [{"tree": "Sapling"} for _ in range(9)]
    trees[0]["bottom"] = ["Moss"]
    trees[1]["left"] = ["Violet Carpenter Bee"]
    assert points(forest(*trees), "Moss") == 10


def test_card_points_add_up_and_cave_counts():
    f = forest({"tree": "Horse Chestnut", "top": ["Purple Emperor"]}, "Horse Chestnut",
               {"tree": "Birch", "top": ["Peacock Butterfly"]}, cave=4)
    s = fs.score([f])[0]
    assert sum(p for _, p in s.card_points) + s.cave == s.total == 4 + 4 + 1 + 3


# ----- bad forests --------------------------------------------------------------------------

@pytest.mark.parametrize("data,words", [
    ({"trees": [{"tree": "Palm Tree"}]}, "not a species"),
    ({"trees": [{"tree": "Oak", "top": ["Barbastelle Bat"]}]}, "cannot sit in a top slot"),
    ({"trees": [{"tree": "Oak", "bottom": ["Common Toad"] * 3}]}, "at most 2"),
    ({"trees": [{"tree": "Oak", "top": ["Red Squirrel", "Red Squirrel"]}]}, "only one card"),
    ({"trees": [{"tree": "Oak", "left": ["European Hare", "Red Fox"]}]}, "only one card"),
    ({"trees": [{"tree": "Oak", "left": ["Roe Deer"]}]}, "tree symbol"),
    ({"trees": [{"tree": "Oak", "left": ["Red Fox/Birch"]}]}, "no Red Fox card shows"),
    ({"trees": [{"tree": "Oak", "left": ["Red Fox/Palm"]}]}, "not a tree symbol"),
    ({"trees": [{"tree": "Oak", "middle": ["Red Fox"]}]}, "unknown field"),
    ({"trees": [{"tree": "Red Fox"}]}, "not a tree"),
    ({"trees": [{"tree": "Oak", "top": ["Oak"]}]}, "is a tree"),
    ({"trees": ["Birch", {"tree": "Birch", "left": ["European Hare"] * 12}]}, "only 11"),
    ({"trees": ["Douglas Fir"] * 8}, "only 7"),
    ({"cave": -1}, "cave"),
    ({"trees": "Oak"}, "must be a list"),
    ([], "must be a dict"),
])
def test_bad_forests_name_the_problem(data, words):
    with pytest.raises(InvalidData, match=words):
        fs.Forest.from_dict(data)


def test_forest_dict_round_trip():
    data = {"cave": 3, "trees": [{"tree": "Oak", "top": ["Red Squirrel/Oak"],
                                  "left": ["European Hare/Birch"] * 2},
                                 {"tree": "Sapling", "right": ["Roe Deer/Birch"]}]}
    f = fs.Forest.from_dict(data)
    assert fs.Forest.from_dict(f.to_dict()) == f


def test_explain_every_species():
    for sp in fs.catalog().all_species():
        assert fs.explain(sp.name)


# ----- forests the deck cannot lay out, and names as printed (issue 14) ---------------------

def test_the_two_halves_of_one_card_are_not_two_cards():
    # Lynx (Horse Chestnut) and Red Fox (Douglas Fir) are the two halves of card 110, the
    # only card showing either: a forest cannot hold both.
    data = {"trees": [{"tree": "Birch", "left": ["Lynx/Horse Chestnut"]},
                      {"tree": "Birch", "right": ["Red Fox/Douglas Fir"]}]}
    with pytest.raises(InvalidData, match=r"trees\[1\]\.right\[0\].*#110.*trees\[0\]\.left\[0\]"):
        fs.Forest.from_dict(data)
    # either half alone is fine
    fs.Forest.from_dict({"trees": [{"tree": "Birch", "left": ["Lynx/Horse Chestnut"]}]})


@pytest.mark.parametrize("data,where,name", [
    ({"trees": ["Oak"] * 8}, r"trees\[7\]", "Oak"),
    ({"trees": [{"tree": "Birch", "left": ["European Hare"] * 12}]}, r"trees\[0\]\.left\[11\]",
     "European Hare"),
    ({"trees": [{"tree": "Birch", "top": ["Tawny Owl/Birch"]},
                {"tree": "Birch", "top": ["Tawny Owl/Birch"]}]}, r"trees\[1\]\.top\[0\]",
     "Tawny Owl"),
])
def test_more_copies_than_the_deck_has_are_refused_where_they_are(data, where, name):
    have = sum(1 for c in CAT.card_ids
               if CAT.card(c).species == name
               or any(h.species == name and (name != "Tawny Owl" or h.symbol == "Birch")
                      for h in CAT.card(c).halves))
    with pytest.raises(InvalidData, match=where + f".*{name}.*only {have}"):
        fs.Forest.from_dict(data)


def test_saplings_and_cave_cards_take_the_cards_left_over():
    fs.Forest.from_dict({"trees": ["Sapling"] * 150, "cave": 8})
    with pytest.raises(InvalidData, match="saplings"):
        fs.Forest.from_dict({"trees": ["Sapling"] * 150, "cave": 9})


def test_a_card_without_the_symbol_a_roe_deer_counts_is_refused():
    # Roe Deer scores 3 per card with its own symbol; a Fallow Deer typed without its symbol
    # might show Linden, so the forest cannot be scored without knowing it.
    data = {"trees": [{"tree": "Birch", "left": ["Roe Deer/Linden"], "right": ["Fallow Deer"]}]}
    with pytest.raises(InvalidData, match=r"trees\[0\]\.right\[0\].*Fallow Deer/<tree symbol>"):
        fs.Forest.from_dict(data)
    data["trees"][0]["right"] = ["Fallow Deer/Linden"]
    assert points(fs.Forest.from_dict(data), "Roe Deer") == 6
    # a species none of whose cards shows the counted symbol needs none
    ok = {"trees": [{"tree": "Oak", "left": ["Roe Deer/Birch"], "top": ["Red Squirrel"]}]}
    assert points(fs.Forest.from_dict(ok), "Roe Deer") == 3


def test_a_species_printed_with_one_symbol_gets_it_filled_in():
    f = fs.Forest.from_dict({"trees": [{"tree": "Birch", "bottom": ["Penny Bun"]}]})
    assert f.trees[0].bottom[0].symbol == "Douglas Fir"


def test_names_as_printed_are_accepted():
    f = fs.Forest.from_dict({"trees": [{"tree": "Linden Tree", "left": ["Bechstein\u2019s Bat"],
                                        "top": ["Tawny Owl/Sycamore Tree"]}]})
    assert f.trees[0].species == "Linden"
    assert f.trees[0].left[0].species == "Bechstein's Bat"
    assert f.trees[0].top[0].symbol == "Sycamore"
    with pytest.raises(InvalidData):
        fs.Forest.from_dict({"trees": ["Tree Frog Tree"]})


def test_forests_of_a_played_game_pass_the_deck_check_and_a_builder_names_the_slot():
    from pangaea_lab.core.players import GreedyPlayer, play_game
    final = play_game(fs.new_game(players=2, seed=5), [GreedyPlayer(1), GreedyPlayer(2)])
    for f in final.forests:
        f.check_copies()            # every card carries its id: the ids must be the deck's
    model = fs.ForestBuilderModel()
    model.add_tree("Birch")
    model.add_card("Lynx/Horse Chestnut", "left", 0)
    assert not model.try_(lambda: model.add_card("Red Fox/Douglas Fir", "right", 0))
    assert "tree 1, right slot" in model.message and "#110" in model.message
