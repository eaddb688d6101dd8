"""Every effect and bonus of the base game (appendix), plus the mushrooms' permanent draws."""

import pytest
from fs_helpers import CAT, decide, kinds, play, start

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.errors import IllegalAction

BIRCHES = {"trees": ["Birch", "Birch"]}


def hand_size(st, p=0):
    return len(st.hands[p])


# ----- draws --------------------------------------------------------------------------------

@pytest.mark.parametrize("card,pay,forest", [
    ("Beech", ["Birch"], None),
    ("Great Spotted Woodpecker", ["Birch"], BIRCHES),
    ("Tree Ferns", ["Birch"], BIRCHES),
    ("Pond Turtle", ["Birch", "Birch"], BIRCHES),
    ("Beech Marten", ["Birch"], BIRCHES),
])
def test_effect_draws_one(card, pay, forest):
    st = start([card] + pay, forest=forest)
    st = play(st, card, pay=pay)
    assert kinds(st) == ["effect"]
    skipped = decide(st, use=False)
    assert hand_size(skipped) == 0 and skipped.current == 1
    used = decide(st)
    assert hand_size(used) == 1 and used.current == 1


def test_tawny_owl_effect_then_bonus_draw_three():
    st = start(["Tawny Owl/Beech", "Beech", "Beech"], forest=BIRCHES)
    st = play(st, "Tawny Owl", pay=["Beech", "Beech"])
    assert kinds(st) == ["effect", "bonus"]
    st = decide(decide(st))
    assert hand_size(st) == 3


@pytest.mark.parametrize("card,symbol,payer,n", [
    ("Fallow Deer", "Linden", "Linden", 2),
    ("Roe Deer", "Linden", "Linden", 1),
])
def test_deer_bonus_draws(card, symbol, payer, n):
    st = start([f"{card}/{symbol}", payer, payer], forest=BIRCHES)
    st = play(st, card, pay=[payer, payer])
    assert kinds(st) == ["bonus"]
    assert hand_size(decide(st)) == n


def test_hedgehog_bonus_draws_one():
    st = start(["Hedgehog/Beech", "Beech"], forest=BIRCHES)
    st = play(st, "Hedgehog", pay=["Beech"])
    assert kinds(st) == ["bonus"] and hand_size(decide(st)) == 1


def test_draws_stop_at_the_hand_limit():
    hares = {"trees": [{"tree": "Birch", "left": ["European Hare"] * 5}, "Birch"]}
    st = start(["Red Fox", "Beech", "Beech"] + ["Oak"] * 7, forest=hares)
    st = play(st, "Red Fox", tree=1, pay=["Beech", "Beech"])
    assert hand_size(st) == 7
    st = decide(st)
    assert hand_size(st) == 10


def test_red_fox_draws_one_per_hare():
    hares = {"trees": [{"tree": "Birch", "left": ["European Hare"] * 3}, "Birch"]}
    st = start(["Red Fox", "Beech", "Beech"], forest=hares)
    st = play(st, "Red Fox", tree=1, pay=["Beech", "Beech"])
    assert hand_size(decide(st)) == 3


def test_wolf_draws_one_per_deer_and_bonus_is_another_turn():
    deer = {"trees": [{"tree": "Birch", "left": ["Roe Deer/Linden"], "right": ["Fallow Deer"]},
                      "Silver Fir"]}
    st = start(["Wolf/Silver Fir", "Silver Fir", "Silver Fir", "Silver Fir"], forest=deer)
    st = play(st, "Wolf", tree=1, pay=["Silver Fir", "Silver Fir", "Silver Fir"])
    assert kinds(st) == ["effect", "bonus"]
    st = decide(st)
    assert hand_size(st) == 2
    st = decide(st)
    assert st.current == 0 and st.turn == 2


# ----- extra turns --------------------------------------------------------------------------

def test_jay_effect_is_another_turn():
    st = start(["Eurasian Jay", "Birch"], forest=BIRCHES)
    st = decide(play(st, "Eurasian Jay", pay=["Birch"]))
    assert st.current == 0 and st.extra_turns == 0 and st.turn == 2


def test_douglas_fir_bonus_is_another_turn():
    st = start(["Douglas Fir"] * 3)
    st = decide(play(st, "Douglas Fir", pay=["Douglas Fir", "Douglas Fir"]))
    assert st.current == 0


def test_extra_turns_queue_up():
    # Oak bonus (another turn) and a Jay on the extra turn: two more turns in a row
    st = start(["Oak", "Oak", "Oak", "Eurasian Jay", "Birch"], forest=BIRCHES)
    st = decide(play(st, "Oak", pay=["Oak", "Oak"]))
    assert st.current == 0
    st = decide(play(st, "Eurasian Jay", pay=["Birch"]))
    assert st.current == 0
    st = st.apply(fs.PlaySapling(st.hands[0][0])) if st.hands[0] else st.apply(fs.DrawCard(None))
    while st.step is not None:
        st = st.apply(st.legal_actions()[0])
    assert st.current == 1


# ----- free placements ----------------------------------------------------------------------

@pytest.mark.parametrize("card,symbol,payers,free,kind", [
    ("Silver Fir", None, ["Silver Fir", "Silver Fir"], "Red Squirrel", "pawed animal"),
    ("European Badger", "Horse Chestnut", ["Horse Chestnut"], "Red Squirrel", "pawed animal"),
    ("Fire Salamander", "Linden", ["Linden"], "Red Squirrel", "pawed animal"),
    ("Stag Beetle", "Birch", ["Birch", "Birch"], "Eurasian Jay", "bird"),
    ("Red Deer", "Linden", ["Linden", "Linden"], "Fallow Deer", "deer"),
])
def test_bonus_free_placement_without_cost_effect_or_bonus(card, symbol, payers, free, kind):
    name = f"{card}/{symbol}" if symbol else card
    forest = {"trees": ["Birch", "Birch"]}
    st = start([name, *payers, free], forest=forest)
    st = play(st, card, pay=payers)
    assert kinds(st) == ["bonus"]
    st = decide(st)
    assert st.step.kind == "free" and st.step.tag == kind
    options = [a for a in st.legal_actions() if isinstance(a, fs.PlaceFree)]
    assert options and all(kind in CAT.species(CAT.card(a.card).half_for(a.side).species).types
                           for a in options)
    wrong = fs.PlaceFree(options[0].card, "top" if options[0].side != "top" else "bottom", 0)
    if wrong not in options:
        with pytest.raises(IllegalAction):
            st.apply(wrong)
    st = st.apply(options[0])
    assert hand_size(st) == 0 and st.current == 1  # no effect of the free card (Jay!)
    placed = [d.species for _, _, d in st.forests[0].dwellers()]
    assert free in placed


def test_free_placement_may_be_declined():
    st = start(["Silver Fir"] * 3 + ["Red Squirrel"])
    st = decide(play(st, "Silver Fir", pay=["Silver Fir", "Silver Fir"]))
    st = st.apply(fs.Finish("free"))
    assert st.current == 1 and hand_size(st) == 1


def test_gnat_places_any_number_of_bats():
    st = start(["Gnat", "Barbastelle Bat", "Bechstein's Bat", "Greater Horseshoe Bat"],
               forest={"trees": ["Birch", "Birch", "Birch"]})
    st = play(st, "Gnat")
    assert kinds(st) == ["effect"]
    st = decide(st)
    placed = 0
    while st.step is not None and st.step.kind == "free":
        st = st.apply(next(a for a in st.legal_actions() if isinstance(a, fs.PlaceFree)))
        placed += 1
    assert placed == 3 and hand_size(st) == 0
    bats = [d for _, _, d in st.forests[0].dwellers() if "bat" in CAT.species(d.species).types]
    assert len(bats) == 3


# ----- caves --------------------------------------------------------------------------------

def test_brown_bear_example_eleven_cards_to_the_cave():
    st = start(["Brown Bear", "Linden", "Linden", "Linden"], clearing=["Oak"] * 4 + ["Beech"] * 4,
               forest={"trees": ["Birch"]})
    st = play(st, "Brown Bear", pay=["Linden", "Linden", "Linden"])
    assert len(st.clearing) == 11
    bear = [d for _, _, d in st.forests[0].dwellers()][0]
    assert st.step.kind == "effect"
    st = decide(st)
    assert len(st.caves[0]) == 11 and st.clearing == ()
    assert st.scores()[0].cave == 11
    if bear.symbol == "Linden":
        assert kinds(st) == ["bonus"]
        st = decide(st)
        assert hand_size(st) == 1 and st.current == 0


def test_raccoon_caves_cards_and_draws_as_many():
    st = start(["Raccoon", "Birch", "Oak", "Oak", "Oak"], forest={"trees": ["Birch"]})
    st = decide(play(st, "Raccoon", pay=["Birch"]))
    assert st.step.kind == "raccoon"
    oaks = list(st.hands[0])[:2]
    for c in oaks:
        st = st.apply(fs.ToCave(c))
    st = st.apply(fs.Finish("raccoon"))
    assert set(oaks) <= set(st.caves[0]) and hand_size(st) == 3 and st.current == 1


# ----- mushrooms ----------------------------------------------------------------------------

@pytest.mark.parametrize("mushroom,played,forest_extra", [
    ("Chanterelle", "Birch", {}),
    ("Fly Agaric", "Red Squirrel", {}),
    ("Parasol Mushroom", "Moss", {}),
    ("Penny Bun", "Eurasian Jay", {}),
])
def test_mushroom_draws_on_later_turns(mushroom, played, forest_extra):
    forest = {"trees": [{"tree": "Birch", "bottom": [mushroom]}, "Birch"]}
    st = start([played, "Birch", "Birch"], forest=forest)
    st = play(st, played, tree=1, pay=["Birch"] * CAT.species(played).cost)
    assert kinds(st)[0] == "mushroom" and st.step.tag == mushroom
    before = hand_size(st)
    assert hand_size(decide(st)) == before + 1


def test_mushroom_not_triggered_by_other_cards():
    forest = {"trees": [{"tree": "Birch", "bottom": ["Penny Bun"]}, "Birch"]}
    st = start(["Moss"], forest=forest)
    st = play(st, "Moss", tree=1)
    assert st.current == 1


def test_two_mushrooms_two_draws():
    forest = {"trees": [{"tree": "Birch", "bottom": ["Chanterelle"]},
                        {"tree": "Birch", "bottom": ["Chanterelle"]}]}
    st = start(["Birch"], forest=forest)
    st = play(st, "Birch")
    assert kinds(st) == ["mushroom", "mushroom", "effect"]


def test_free_placement_triggers_mushrooms_only_with_the_option():
    forest = {"trees": [{"tree": "Birch", "bottom": ["Fly Agaric"]}]}
    for option, expected in ((True, 1), (False, 0)):
        st = start(["Silver Fir"] * 3 + ["Red Squirrel"], forest=forest,
                   free_place_triggers_mushrooms=option)
        st = decide(play(st, "Silver Fir", pay=["Silver Fir", "Silver Fir"]))
        st = st.apply(next(a for a in st.legal_actions() if isinstance(a, fs.PlaceFree)))
        assert kinds(st).count("mushroom") == expected


# ----- Mole ---------------------------------------------------------------------------------

def test_mole_plays_more_cards_paying_their_costs():
    st = start(["Mole", "Oak", "Oak", "Chanterelle", "Birch", "Birch", "Oak", "Birch", "Birch"],
               forest={"trees": ["Birch", "Birch"]})
    st = play(st, "Mole", pay=["Oak", "Oak"])
    assert kinds(st) == ["effect"]
    st = decide(st)
    assert st.step.kind == "mole"
    st = play(st, "Chanterelle", tree=1, pay=["Birch", "Birch"])
    assert st.step.kind == "mole"
    st = play(st, "Oak", pay=["Birch", "Birch"])
    assert st.step.kind == "mole" and hand_size(st) == 0
    st = st.apply(fs.Finish("mole"))
    # the Chanterelle came out this turn, so the Oak does not trigger it
    assert "mushroom" not in kinds(st)
    while st.step is not None:
        st = decide(st)
    assert st.current == 1
    assert [t.species for t in st.forests[0].trees] == ["Birch", "Birch", "Oak"]


def test_mole_can_be_finished_at_once():
    st = start(["Mole", "Oak", "Oak", "Birch"], forest={"trees": ["Birch"]})
    st = decide(play(st, "Mole", pay=["Oak", "Oak"]))
    st = st.apply(fs.Finish("mole"))
    assert st.current == 1 and hand_size(st) == 1


# ----- passive cards ------------------------------------------------------------------------

@pytest.mark.parametrize("card", ["Violet Carpenter Bee", "Chanterelle", "Common Toad", "European Hare"])
def test_cards_without_an_instant_effect_ask_nothing(card):
    st = start([card, "Linden", "Linden"], forest={"trees": ["Birch", "Birch"]})
    cost = CAT.species(card).cost
    st = play(st, card, pay=["Linden"] * cost)
    assert st.pending == () and st.current == 1


def test_parasol_and_penny_bun_on_saplings_follow_the_option():
    forest = {"trees": [{"tree": "Birch", "bottom": ["Penny Bun"]}, "Sapling"]}
    for option, expected in ((False, 0), (True, 1)):
        st = start(["Eurasian Jay", "Birch"], forest=forest, sapling_hosts_trigger_mushrooms=option)
        st = play(st, "Eurasian Jay", tree=1, pay=["Birch"])
        assert kinds(st).count("mushroom") == expected


def test_chanterelle_and_saplings_follow_the_option():
    forest = {"trees": [{"tree": "Birch", "bottom": ["Chanterelle"]}]}
    for option, expected in ((False, 0), (True, 1)):
        st = start(["Oak"], forest=forest, sapling_triggers_chanterelle=option)
        st = play(st, "Oak", sapling=True)
        assert kinds(st).count("mushroom") == expected


# ----- saplings and the mushrooms: the defaults follow the online version (issue 14) -------

def test_by_default_a_card_atop_or_below_a_sapling_triggers_penny_bun_and_parasol():
    # The online version counts a sapling as a tree for these mushrooms, as the scoring does
    # for the Wood Ant and the Beech Marten; so a card placed atop (Penny Bun) or below
    # (Parasol Mushroom) a sapling may draw a card.
    forest = {"trees": [{"tree": "Birch", "bottom": ["Penny Bun"]},
                        {"tree": "Birch", "bottom": ["Parasol Mushroom"]}, "Sapling"]}
    st = play(start(["Eurasian Jay", "Birch"], forest=forest), "Eurasian Jay", tree=2,
              pay=["Birch"])
    assert [(s.kind, s.tag) for s in st.pending if s.kind == "mushroom"] == [
        ("mushroom", "Penny Bun")]
    st = play(start(["Wood Ant", "Birch"], forest=forest), "Wood Ant", tree=2, pay=["Birch"])
    assert [s.tag for s in st.pending if s.kind == "mushroom"] == ["Parasol Mushroom"]


def test_by_default_playing_a_sapling_triggers_the_chanterelle():
    forest = {"trees": [{"tree": "Birch", "bottom": ["Chanterelle"]}]}
    st = play(start(["Oak"], forest=forest), "Oak", sapling=True)
    assert kinds(st) == ["mushroom"]
    st = decide(st)
    assert hand_size(st) == 1


def test_the_sapling_mushroom_defaults_are_labelled_in_the_rules_data():
    entries = {a["id"]: a for a in fs.rules_data()["assumptions"]}
    for key in ("sapling_triggers_chanterelle", "sapling_hosts_trigger_mushrooms"):
        entry = entries[key]
        assert entry["default"] is True and fs.OPTION_DEFAULTS[key] is True
        assert entry["source"] == "public source" and "online version" in entry["text"]
