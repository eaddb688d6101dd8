"""Drawings, the forest builder and the step-through widget, driven without a browser."""

import doctest
import importlib

import pytest
from fs_helpers import start

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.players import GreedyPlayer, play_game

MODULES = ["cards", "forest", "scoring", "rules", "scenario", "render", "widgets", "__init__"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module("pangaea_lab.forest_shuffle" + ("" if name == "__init__"
                                                                     else f".{name}"))
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_forest_svg_shows_cards_and_points_deterministically():
    f = fs.Forest.from_dict({"cave": 2, "trees": [
        {"tree": "Oak", "top": ["Red Squirrel"], "left": ["European Hare", "European Hare"]}]})
    svg = fs.forest_svg(f)
    assert svg == fs.forest_svg(f)
    assert "Red Squirrel" in svg and "2 cards" in svg and ">5<" in svg and "Cave" in svg
    assert f._repr_svg_() == svg


def test_state_svg_shows_hand_clearing_deck_and_winter():
    st = start(["Oak", "Birch"], clearing=["Linden"])
    svg = st.to_svg()
    assert f"Deck: {len(st.deck)} cards" in svg and "Winter cards: 0/3" in svg
    assert "Clearing (1/10)" in svg and "Hand of Player 1 (2/10)" in svg
    action = fs.PlayTree(st.hands[0][1] if fs.catalog().card(st.hands[0][1]).species == "Oak"
                         else st.hands[0][0])
    lit = st.to_svg(highlight=st.action_highlight(action))
    assert "#ffe14a" in lit and "#ffe14a" not in svg


def test_slot_highlight_for_a_dweller_action():
    st = start(["Red Squirrel"], forest={"trees": ["Oak"]})
    act = next(a for a in st.legal_actions() if isinstance(a, fs.PlayDweller))
    assert ("slot", 0, act.side) in st.action_highlight(act)
    assert "stroke-dasharray" in st.to_svg(highlight=st.action_highlight(act))


def test_finished_game_draws():
    final = play_game(fs.new_game(players=3, seed=2), GreedyPlayer(2))
    assert "Game over" in final.to_svg()


def test_builder_model_updates_points_and_refuses_bad_cards():
    m = fs.ForestBuilderModel()
    m.add_tree("Oak")
    m.add_tree("Sapling")
    m.add_card("European Hare", "left", 0)
    m.add_card("European Hare", "left", 0)
    assert m.points()["European Hare"] == 4
    assert not m.try_(lambda: m.add_card("Barbastelle Bat", "top", 0))
    assert "top slot" in m.message and m.total() == 4
    assert not m.try_(lambda: m.add_card("Red Squirrel", "top", 5))
    assert m.undo() and m.points()["European Hare"] == 1
    m.set_cave(3)
    assert m.total() == 4 and m.table()[-1] == ("Cave", 3, "1 per card under the cave")
    m.reset()
    assert m.forest == fs.Forest()


def test_builder_view_buttons():
    root = fs.forest_builder({"trees": ["Linden"]}, rivals=[{"trees": ["Linden", "Linden"]}])
    view, model = root.view, root.model
    assert model.points()["Linden"] == 1
    view.tree_pick.value = "Linden"
    view.add_tree_button.click()
    assert model.points()["Linden"] == 6 and "Linden" in view.scores.value
    view.card_pick.value = "Roe Deer/Linden"
    view.side_pick.value = "left"
    view.tree_index.value = 1
    view.add_card_button.click()
    assert model.points()["Roe Deer"] == 9
    view.side_pick.value = "top"
    view.add_card_button.click()
    assert "cannot sit" in view.message.value
    view.undo_button.click()
    assert "Roe Deer" not in model.points()


def test_step_through_widget_plays_forest_shuffle():
    root = fs.play(players=3, seed=5)
    model = root.model
    assert model.state.current_player == 0 or model.state.phase == "mulligan"
    for _ in range(5):
        if model.state.current_player == 0 and not model.is_over:
            model.play(model.legal_actions()[0])
    model.set_seat(0, "greedy")
    model.play_to_end()
    assert model.state.is_over and len(model.state.winter) == 3


def test_plot_scores_stacks_species():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    f = fs.Forest.from_dict({"cave": 1, "trees": ["Douglas Fir", "Birch"]})
    ax = fs.plot_scores(fs.score([f, f]), ["A", "B"])
    heights = sorted(round(p.get_height()) for p in ax.patches)
    assert heights == [1, 1, 1, 1, 5, 5]
    plt.close(ax.figure)


def test_every_card_in_a_hand_shows_cost_symbols_types_and_what_it_scores():
    """Each half of a card in hand (a tree card is one whole) says, in words from the card
    data, its name, cost, side and types, tree symbol and scoring rule, so a hand is read
    without a reference sheet."""
    import xml.etree.ElementTree as ET

    from pangaea_lab.forest_shuffle.edition import catalog
    from pangaea_lab.forest_shuffle.render import position_svg, type_words
    from pangaea_lab.forest_shuffle.scoring import explain
    cat = catalog()
    seen = set()
    for cid in cat.playable_ids:
        card = cat.card(cid)
        faces = ([("tree", card.species, card.species)] if card.is_tree else
                 [(side, h.species, h.symbol) for side, h in zip(card.sides(), card.halves)])
        if all(f in seen for f in faces):
            continue
        seen.update(faces)
        svg = position_svg(None, hand=[cid], title="A hand")
        words = " ".join("".join(t.itertext()) for t in ET.fromstring(svg).iter()
                         if t.tag.endswith("text"))
        for side, species, symbol in faces:
            sp = cat.species(species)
            assert " ".join(species.split()[:1]) in words, species
            assert f"cost {sp.cost}" in words and f"symbol: {symbol}" in words, species
            kind = "tree" if side == "tree" else f"{side}: {type_words(species)}"
            assert kind in words, species
            assert "scores " + explain(species) in words, species
    assert len(seen) > 50
