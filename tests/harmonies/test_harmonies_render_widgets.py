"""Drawing (SVG and matplotlib) and the widgets, driven without a browser."""

import xml.dom.minidom

import matplotlib
import pytest

from pangaea_lab import harmonies
from pangaea_lab.harmonies import render
from pangaea_lab.harmonies.actions import TakeCard
from pangaea_lab.harmonies.widgets import BoardEditorModel, board_editor, play

matplotlib.use("Agg")

STACKS = {(1, 2): ["blue"], (2, 1): ["brown", "green"], (3, 1): ["gray", "red"],
          (0, 0): ["brown", "brown", "green"]}


def test_board_svg_is_deterministic_and_shows_heights():
    a = render.board_svg("A", STACKS, cubes={(2, 1): "Koala"}, highlight=[(0, 0)]).render()
    b = render.board_svg("A", STACKS, cubes={(2, 1): "Koala"}, highlight=[(0, 0)]).render()
    assert a == b
    xml.dom.minidom.parseString(a)
    assert ">3</text>" in a and ">2</text>" in a       # heights written on the stacks
    assert "tree of height 3" in a and "cube of Koala" in a
    # one hexagon per space and per token, and the highlight's bright inner line
    assert a.count("<polygon") == 23 + 1 + 2 + 2 + 3 + 1
    assert render.HIGHLIGHT in a


def test_game_svg_for_every_player_count():
    for players in (1, 2, 4):
        g = harmonies.new_game(players=players, seed=3, side="B")
        svg = g.to_svg()
        xml.dom.minidom.parseString(svg)
        assert svg == harmonies.new_game(players=players, seed=3, side="B").to_svg()
        assert svg.count("Central board") == 1
        assert "spirit to keep" in svg


def test_plot_board_on_matplotlib_axes():
    ax = render.plot_board("A", STACKS, highlight=[(0, 0)], title="demo")
    assert len(ax.patches) == 23 + 8   # a hexagon per space and per token
    assert ax.get_title() == "demo"
    matplotlib.pyplot.close(ax.figure)


def test_action_highlight_lists_fitting_cells():
    g = harmonies.new_game(players=2, seed=3, spirits=False)
    take = next(a for a in g.legal_actions() if isinstance(a, TakeCard))
    assert g.action_highlight(take) == []   # empty board: no habitat yet


def test_board_editor_model_updates_score_and_habitats():
    m = BoardEditorModel("A", cards=["Fennec Fox"])
    assert m.score().total == 0
    m.select((0, 1))
    m.set_stack(["yellow"])
    m.set_stack(["gray"], (1, 1))
    m.set_stack(["gray"], (2, 2))
    assert m.score().mountains == 2
    assert m.habitats() == {"Fennec Fox": [(2, 2)]}
    assert "Fennec Fox: (2, 2)" in m.summary_html()
    m.select((2, 2))
    m.set_stack(["gray", "blue"])
    assert "blue cannot go on gray" in m.message
    assert m.stack_at((2, 2)) == ("gray",)
    m.set_stack([])
    assert m.stack_at((2, 2)) == () and m.habitats() == {"Fennec Fox": []}
    with pytest.raises(ValueError, match="not a space of side A"):
        m.select((1, 4))


def test_board_editor_view_click_and_choose():
    root = board_editor("B", cards=["Frog"])
    view, model = root.view, root.model
    view.cell_buttons[(2, 2)].click()
    assert model.selected == (2, 2)
    view.stack_picker.value = ("green",)
    view.cell_buttons[(2, 1)].click()
    view.stack_picker.value = ("blue",)
    assert model.habitats() == {"Frog": [(2, 1)]}
    assert "Frog: (2, 1)" in view.scores.value
    assert view.cell_buttons[(2, 1)].description == "2,1 W1"
    view.card_picker.value = (harmonies.card("Koala").id,)
    assert list(model.habitats()) == ["Koala"]


def test_play_widget_runs_solo_with_suns_shown():
    root = play(players=1, seed=4, computer={0: "greedy"}, side="A", spirits=False)
    model = root.model
    model.play_to_end()
    assert model.state.is_over
    assert "suns" in root.view.players_html.value


def test_play_widget_multiplayer_with_computer_seat():
    root = play(players=2, seed=4, computer={1: "random"})
    model = root.model
    assert model.state.current_player == 0
    model.play(model.legal_actions()[0])
    assert model.state.current_player == 0   # first player keeps going (take tokens next)


def test_selected_action_is_highlighted_in_the_widget():
    root = play(players=2, seed=4, spirits=False)
    model = root.model
    model.play(harmonies.TakeTokens(0))
    place = next(a for a in model.legal_actions() if isinstance(a, harmonies.PlaceToken))
    model.select(place)
    assert tuple(model.highlight) == (place.cell,)
    assert render.HIGHLIGHT in root.view.board.value


def test_solo_picture_shows_the_sun_result():
    g = harmonies.new_game(players=1, seed=2, spirits=False)
    assert f"solo result so far: {g.suns()} suns" in g.to_svg()
    assert g.suns() == 0 + 1 + 2   # no points yet; side A and no spirit


def test_clicking_a_cell_of_the_current_board_picks_a_token_placement():
    from pangaea_lab.harmonies.widgets import play
    w = play(players=2, seed=3, computer={})
    m = w.model
    for _ in range(20):
        placements = [a for a in m.legal_actions() if type(a).__name__ == "PlaceToken"]
        if placements:
            break
        m.play(m.legal_actions()[0])
    svg = w.view.board.value
    # only the current player's board can be clicked: one mark per cell of one board
    assert svg.count("data-cell=") == len(render.cells(m.state.side))
    cell = placements[-1].cell
    seen = []
    for k in range(3):
        w.view.board.clicked = f"{cell[0]},{cell[1]}#{k}"
        seen.append(m.selected)
    assert all(a.cell == cell for a in seen)
    options = [a for a in placements if a.cell == cell]
    assert len(set(seen)) == min(3, len(options))


def test_play_seats_the_computer_on_every_other_seat_by_default():
    root = play(players=3, seed=4, spirits=False)
    model = root.model
    assert [model.is_computer(p) for p in range(3)] == [False, True, True]
    assert root.model.state.current_player == 0          # the widget opens at the start
    assert not play(players=1, seed=4).model.is_computer(0)
    humans = play(players=2, seed=4, computer={}).model
    assert not humans.is_computer(1)


def test_drawings_are_pictures_not_text():
    from pangaea_lab.core.svg import SvgImage
    g = harmonies.new_game(players=2, seed=1)
    assert isinstance(g.to_svg(), SvgImage) and g.to_svg()._repr_svg_().startswith("<svg")
    assert isinstance(render.board_svg("A").render(), SvgImage)


def test_highlighted_cells_carry_a_tick_not_only_a_colour():
    g = harmonies.new_game(players=2, seed=4, spirits=False).apply(harmonies.TakeTokens(0))
    svg = g.to_svg(highlight=[(1, 1)])
    assert "(1, 1) marked ✓" in svg and render.HIGHLIGHT in svg
    assert "marked ✓" not in g.to_svg()
