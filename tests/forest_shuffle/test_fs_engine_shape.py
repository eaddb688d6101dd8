"""Forest Shuffle on the shared engine: the Game object, the one card loader, the pending
decision in plain words, and the declared save schema naming the bad field."""

import inspect
import json

import pytest
from fs_helpers import CAT, find, start

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.errors import IllegalAction, InvalidData, InvalidSetup
from pangaea_lab.forest_shuffle.cards import _data_text


def test_the_game_declares_the_seats_and_the_switchable_assumptions_of_the_rules_data():
    data = fs.rules_data()
    assert fs.GAME.seats == range(data["players"]["min"], data["players"]["max"] + 1)
    switchable = {a["option"]: a["default"] for a in data["assumptions"] if a["option"]}
    assert fs.GAME.defaults() == switchable == fs.OPTION_DEFAULTS
    params = inspect.signature(fs.new_game).parameters
    assert [p for p in params if p in switchable] == list(switchable)
    assert all(o.values == (True, False) and o.doc for o in fs.GAME.options.values())


def test_new_game_refuses_options_in_plain_words_and_the_game_object_starts_the_same_game():
    with pytest.raises(InvalidSetup, match="unknown option 'colour'"):
        fs.new_game(players=2, colour="red")
    with pytest.raises(InvalidSetup, match="must be True or False"):
        fs.new_game(players=2, sapling_triggers_chanterelle="yes")
    with pytest.raises(InvalidSetup, match="2 to 5 players"):
        fs.GAME.new_game(players=6)
    g = fs.GAME.new_game(players=3, seed=2, sapling_flips_clearing=False)
    assert g == fs.new_game(players=3, seed=2, sapling_flips_clearing=False)
    assert g.option("sapling_flips_clearing") is False and fs.GAME.from_json(g.to_json()) == g


def test_one_loader_for_the_shipped_cards_and_a_users_file(tmp_path):
    assert fs.load_edition() is fs.catalog() is fs.GAME.load_edition()
    assert fs.load_edition(CAT) is CAT
    path = tmp_path / "cards.json"
    path.write_text(_data_text("cards.json"), encoding="utf-8")
    mine = fs.load_edition(str(path))
    assert mine.card_ids == CAT.card_ids and fs.load_catalog(path).card_ids == CAT.card_ids
    with pytest.raises(InvalidData, match="from a file path, not from int"):
        fs.load_edition(5)


def test_a_pending_step_is_a_decision_with_plain_words():
    st = start(["Oak", "Birch", "Birch"])
    assert st.decision is None
    st = st.apply(fs.PlayTree(find(st, "Oak")))
    decision = st.decision
    assert decision.kind == "pay" and decision.player == 0
    assert decision.words() == "Player 1 must first finish paying for the card you played."
    with pytest.raises(IllegalAction, match="you must first finish paying") as err:
        st.apply(fs.DrawCard(None))
    assert err.value.rule == "Play a card: pay its cost"
    assert "Pay with" in str(err.value)     # the legal alternatives are listed


def test_a_refused_action_goes_through_the_game_object_and_changes_nothing():
    st = start(["Oak", "Birch", "Birch"])
    assert fs.GAME.why(st, fs.PlayTree(find(st, "Oak"))) is None
    refusal = fs.GAME.why(st, fs.Pay(find(st, "Birch")))
    assert isinstance(refusal, IllegalAction) and "at the start of a turn" in str(refusal)
    assert fs.GAME.apply(st, fs.DrawCard(None)) == st.apply(fs.DrawCard(None))


def _midturn_save() -> dict:
    st = start(["Oak", "Oak", "Red Squirrel/Oak"])
    st = st.apply(fs.PlayTree(find(st, "Oak")))
    assert st.pending
    return json.loads(st.to_json())


@pytest.mark.parametrize("mangle, words", [
    (lambda d: d["pending"][0].__setitem__(2, "two"), r"pending\[0\]\[2\]: expected a whole"),
    (lambda d: d["pending"][0].__setitem__(0, "nap"), r"pending\[0\]\[0\]: 'nap' is not one"),
    (lambda d: d["pending"][0].__setitem__(5, "bear"), r"pending\[0\]\[5\]"),
    (lambda d: d["forests"][0][0].__setitem__(2, {"middle": []}),
     r"forests\[0\]\[0\]\[2\]\.middle: not a field"),
    (lambda d: d["forests"][0][0].__setitem__(1, 1), r"forests\[0\]\[0\]\[1\]: expected true"),
    (lambda d: d["options"].update(sapling_flips_clearing="yes"),
     r"options\.sapling_flips_clearing: expected true or false"),
    (lambda d: d.update(players=6), r"players: expected a whole number from 2 to 5"),
    (lambda d: d.update(current=4),
     r"field 'current' must be a seat 0-1"),
    (lambda d: d["pending"][0].__setitem__(4, "cellar"), r"pending\[0\]: 'cellar' is not a "
                                                         r"placement"),
    (lambda d: d["pending"].insert(0, ["pay", d["deck"][0], 1, [], "tree", ""]),
     r"pending\[0\]: card \d+ is not in the forest as a tree"),
])
def test_a_bad_save_names_the_field_by_its_path(mangle, words):
    data = _midturn_save()
    mangle(data)
    with pytest.raises(InvalidData, match=words):
        fs.GameState.from_json(json.dumps(data))


def test_a_forest_card_that_cannot_lie_there_names_the_tree():
    data = _midturn_save()
    oak = data["forests"][0][0][0]
    data["forests"][0][0][2] = {"top": [oak]}        # a tree card in a slot
    with pytest.raises(InvalidData, match=r"forests\[0\]\[0\]: card #\d+ cannot sit in a top"):
        fs.GameState.from_json(json.dumps(data))


def test_a_hand_built_forest_draws_itself_in_a_notebook():
    forest = fs.Forest.from_dict({"trees": [{"tree": "Oak", "top": ["Red Squirrel"]}]})
    assert "<svg" in str(forest._repr_svg_())
