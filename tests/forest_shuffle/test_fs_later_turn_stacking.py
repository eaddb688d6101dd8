"""European Hares and Common Toads share a slot only with cards placed on an earlier turn
(appendix: European Hare, Common Toad; choice ``later_turn_stacking`` in data/rules.json:
an extra turn is a later turn, free placements and Mole plays are not)."""

import json

import pytest
from fs_helpers import CAT, decide, draw_twice, find, kinds, play, start

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.errors import IllegalAction, InvalidData
from pangaea_lab.forest_shuffle.forest import can_join

# halves that only ever sit on one side, so the slot of each is known in advance
STACKERS = {
    "European Hare": ("European Hare/Beech", "European Hare/Oak", "left"),
    "Common Toad": ("Common Toad/Beech", "Common Toad/Oak", "bottom"),
}
BIRCHES = {"trees": ["Birch", "Birch", "Birch"]}


def species_at(card, side):
    return CAT.card(card).half_for(side).species


def mole_then(st, name, tree=1):
    """Play the Mole (bottom of tree 0, paid with two Oaks), use it, then play ``name``."""
    st = decide(play(st, "Mole", pay=["Oak", "Oak"]))
    assert st.step.kind == "mole"
    return play(st, name, tree=tree)


@pytest.mark.parametrize("species", STACKERS)
def test_a_second_one_in_the_same_turn_is_refused(species):
    first, second, side = STACKERS[species]
    st = start(["Mole", "Oak", "Oak", first, second], forest=BIRCHES)
    st = mole_then(st, species)
    assert st.step.kind == "mole" and st.forests[0].trees[1].slot(side)
    card = find(st, species)
    same_slot = fs.PlayDweller(card, side, 1)
    assert same_slot not in st.legal_actions()
    assert fs.PlayDweller(card, side, 2) in st.legal_actions()  # an empty slot is fine
    with pytest.raises(IllegalAction, match=f"a {species} may only join other {species}s "
                                            f"placed on an earlier turn") as exc:
        st.apply(same_slot)
    assert species in exc.value.rule and "later turn" in exc.value.rule


def test_a_free_placement_in_the_same_turn_is_refused():
    # Mole: a Hare left of tree 1, then a Silver Fir whose bonus places a pawed animal free
    hand = ["Mole", "Oak", "Oak", "European Hare/Beech", "Silver Fir", "Silver Fir",
            "Silver Fir", "European Hare/Oak"]
    st = mole_then(start(hand, forest=BIRCHES), "European Hare")
    st = play(st, "Silver Fir", pay=["Silver Fir", "Silver Fir"])
    st = decide(st.apply(fs.Finish("mole")))
    assert st.step.kind == "free"
    hare = find(st, "European Hare")
    options = [a for a in st.legal_actions() if isinstance(a, fs.PlaceFree)]
    assert fs.PlaceFree(hare, "left", 0) in options
    assert fs.PlaceFree(hare, "left", 1) not in options
    with pytest.raises(IllegalAction, match="placed on an earlier turn"):
        st.apply(fs.PlaceFree(hare, "left", 1))
    st = st.apply(fs.PlaceFree(hare, "left", 0))
    assert st.current == 1 and st.this_turn == ()


def test_a_free_placement_may_join_hares_of_earlier_turns():
    forest = {"trees": [{"tree": "Birch", "left": ["European Hare/Birch"] * 2}]}
    st = start(["Silver Fir"] * 3 + ["European Hare/Beech"], forest=forest)
    st = decide(play(st, "Silver Fir", pay=["Silver Fir", "Silver Fir"]))
    hare = find(st, "European Hare")
    st = st.apply(fs.PlaceFree(hare, "left", 0))
    assert [d.species for d in st.forests[0].trees[0].left] == ["European Hare"] * 3


@pytest.mark.parametrize("species", STACKERS)
def test_the_next_turn_may_join(species):
    first, second, side = STACKERS[species]
    st = start([first, second], forest=BIRCHES)
    st = play(st, species, tree=1)
    assert st.current == 1 and st.this_turn == ()
    st = draw_twice(st)
    assert st.current == 0
    st = st.apply(fs.PlayDweller(find(st, species), side, 1))
    assert [d.species for d in st.forests[0].trees[1].slot(side)] == [species, species]


def test_an_extra_turn_is_a_later_turn():
    # Mole: a Hare, then a Jay (another turn); on that extra turn a Hare joins the first
    hand = ["Mole", "Oak", "Oak", "European Hare/Beech", "Eurasian Jay", "Birch",
            "European Hare/Oak"]
    st = mole_then(start(hand, forest=BIRCHES), "European Hare")
    st = play(st, "Eurasian Jay", tree=1, pay=["Birch"])
    st = st.apply(fs.Finish("mole"))
    assert kinds(st) == ["effect"]
    st = decide(st)
    assert st.current == 0 and st.pending == () and st.this_turn == ()
    join = fs.PlayDweller(find(st, "European Hare"), "left", 1)
    assert join in st.legal_actions()
    st = st.apply(join)
    assert len(st.forests[0].trees[1].left) == 2 and st.current == 1


def test_toads_still_stop_at_two_and_other_cards_still_refused():
    # the older limits keep their own reasons (and rule) ahead of the turn rule
    forest = {"trees": [{"tree": "Birch", "bottom": ["Common Toad/Oak", "Common Toad/Sycamore"],
                         "top": ["Eurasian Jay"]}]}
    st = start(["Common Toad/Beech", "Chaffinch/Beech"], forest=forest)
    with pytest.raises(IllegalAction, match="at most 2") as exc:
        st.apply(fs.PlayDweller(find(st, "Common Toad"), "bottom", 0))
    assert exc.value.rule == "Play a card: split cards"
    with pytest.raises(IllegalAction, match="only one card fits a slot"):
        st.apply(fs.PlayDweller(find(st, "Chaffinch"), "top", 0))


def test_save_and_load_mid_turn_keeps_the_rule():
    first, second, side = STACKERS["European Hare"]
    st = mole_then(start(["Mole", "Oak", "Oak", first, second], forest=BIRCHES),
                   "European Hare")
    assert len(st.this_turn) == 2
    text = st.to_json()
    again = fs.GameState.from_json(text)
    assert again == st and again.to_json() == text
    assert again.this_turn == st.this_turn
    assert fs.PlayDweller(find(again, "European Hare"), side, 1) not in again.legal_actions()


def test_an_old_save_without_this_turn_still_loads():
    st = start(["Oak"])
    data = json.loads(st.to_json())
    del data["this_turn"]
    assert fs.GameState.from_json(json.dumps(data)) == st


@pytest.mark.parametrize("mangle,words", [
    (lambda d, hares: d.update(this_turn=d["this_turn"] + d["this_turn"][:1]), "twice"),
    (lambda d, hares: d.update(this_turn=[d["deck"][0]]), "not in the current player's forest"),
    (lambda d, hares: d.update(this_turn=hares), "stacks a card on one placed this turn"),
    (lambda d, hares: d.update(this_turn="x"), "this_turn"),
])
def test_bad_this_turn_in_a_save_is_refused(mangle, words):
    forest = {"trees": [{"tree": "Birch", "left": ["European Hare/Birch"] * 2}]}
    st = play(start(["Oak", "Oak", "Oak"], forest=forest), "Oak", pay=["Oak"])
    assert st.step.kind == "pay" and len(st.this_turn) == 1
    data = json.loads(st.to_json())
    hares = [d.card for d in st.forests[0].trees[0].left]
    mangle(data, hares)
    with pytest.raises(InvalidData, match=words):
        fs.GameState.from_json(json.dumps(data))


def test_forests_scored_by_hand_still_stack():
    f = fs.Forest.from_dict({"trees": [{"tree": "Oak", "left": ["European Hare"] * 3,
                                        "bottom": ["Common Toad"] * 2}]})
    assert fs.score([f])[0].total > 0
    hare = fs.Dweller("European Hare", None, 77)
    assert can_join((hare,), "European Hare") is None
    assert "earlier turn" in can_join((hare,), "European Hare", placed_now=(77,))
    assert can_join((hare,), "European Hare", placed_now=(5,)) is None


def test_the_choice_is_labelled():
    entry = next(a for a in fs.rules_data()["assumptions"] if a["id"] == "later_turn_stacking")
    assert entry["source"] == "assumption" and "extra turn" in entry["text"]
