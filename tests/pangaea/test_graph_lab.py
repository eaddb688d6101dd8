"""The graph behind the board (notebook 09): networkx queries scored by the engine, and the
graph explorer answered by clicking (menus and buttons, no code)."""

import networkx as nx
import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.errors import InvalidSetup
from pangaea_lab.core.graph_plot import components_labels, graph_svg, hex_layout
from pangaea_lab.pangaea.graph_lab import (GraphExplorer, bridge_edges, connecting_spaces,
                                           engine_verdict, graph_explorer, lesson_state,
                                           longer_path, picture, ritual_graph,
                                           scored_shortest_paths, terrain_graph, with_chelon)

A, B = (0, 0), (5, 0)


@pytest.fixture(scope="module")
def lesson():
    return lesson_state()


def test_the_ritual_graph_holds_trees_and_spirits_only(lesson):
    state, _ = lesson
    graph = ritual_graph(state)
    board = state.board
    for cell in board.cells:
        i = board.index[cell]
        holds = state.trees[i] != -1 or i in state.spirits
        assert (cell in graph) == holds, cell
    assert set(graph) == set(connecting_spaces(state))
    split = set(terrain_graph(state, "land")) | set(terrain_graph(state, "water"))
    assert split == set(board.cells)
    with pytest.raises(InvalidSetup, match="terrain"):
        terrain_graph(state, "lava")


def test_shortest_paths_are_the_engines_legal_rituals_with_its_points(lesson):
    state, card = lesson
    found, total = scored_shortest_paths(state, card, A, B)
    assert total == len(found) == len(list(nx.all_shortest_paths(ritual_graph(state), A, B))) == 3
    ranked = {a.path: pts for pts, a in pangaea.rank_rituals(state)
              if isinstance(a, pangaea.PlayLand)}
    for p in found:
        assert ranked.get(p.path, ranked.get(p.path[::-1])) == p.points
        assert engine_verdict(state, card, p.path) == f"Accepted: Red scores {p.points} points."
    assert [p.points for p in found] == sorted((p.points for p in found), reverse=True)
    # two Trees the card cannot join (same biome pair missing) give nothing
    assert scored_shortest_paths(state, card, A, (1, 1)) == ([], 0)


def test_a_longer_path_is_refused_in_the_engines_words(lesson):
    state, card = lesson
    detour = longer_path(state, A, B)
    assert len(detour) - 1 > nx.shortest_path_length(ritual_graph(state), A, B)
    assert nx.is_path(ritual_graph(state), detour)
    verdict = engine_verdict(state, card, detour)
    assert verdict.startswith("Refused:") and "detour" in verdict


def test_chelon_adds_its_space_and_edges(lesson):
    state, card = lesson
    assert bridge_edges(state) == []
    bridged = with_chelon(state, (3, 1))
    edges = bridge_edges(bridged)
    assert edges and all(a == (3, 1) for a, _ in edges)
    assert set(ritual_graph(bridged).edges) - set(ritual_graph(state).edges) == \
        {e for e in ritual_graph(bridged).edges if (3, 1) in e}
    found, _ = scored_shortest_paths(bridged, card, A, B)
    assert all((3, 1) in p.path and "Chelon bridge" in p.explanation for p in found)
    assert len(found[0].path) < len(scored_shortest_paths(state, card, A, B)[0][0].path)


def test_explorer_model(lesson):
    state, card = lesson
    model = GraphExplorer(state, card)
    assert A in model.trees() and B in model.trees()
    model.start, model.end = A, B
    assert "3 shortest paths of 8 edges" in model.paths_text()
    assert "Refused" in model.detour_text()
    assert "(1, 1) Wind land, Red Tree: 6 neighbours" in model.neighbours_text((1, 1))
    assert "3 connected components" in model.graph_text("water")
    model.chelon = (3, 1)
    assert "Chelon's bridge edges" in model.graph_text("ritual")
    assert "Chelon bridge" in model.paths_text()
    for view in model.VIEWS:
        assert model.graph_svg(view).startswith("<svg")
    with pytest.raises(InvalidSetup, match="view"):
        model.graph("sky")


def test_explorer_widget_is_answered_by_clicking(lesson):
    state, card = lesson
    box = graph_explorer(state, card)
    assert "<svg" in box.picture.value
    box.space.value = (1, 1)
    assert "6 neighbours" in box.text.value and "<svg" in box.picture.value
    box.view.value = "water"
    assert "3 connected components" in box.text.value
    box.start.value, box.end.value = A, B
    box.paths_button.click()
    assert "3 shortest paths" in box.text.value and "8 points" in box.text.value
    box.detour_button.click()
    assert "Refused" in box.text.value
    box.chelon.value = (3, 1)
    box.paths_button.click()
    assert "Chelon bridge" in box.text.value


def test_pictures_name_what_they_show(lesson):
    state, _ = lesson
    svg = picture(state, ritual_graph(state), paths=[(A, (0, 1))], path_names=["my path"],
                  marks={A: "A"})
    assert svg.startswith("<svg") and "my path" in svg and "[A]" in svg
    assert "land (hexagon)" in svg and "water (circle)" in svg
    assert svg == picture(state, ritual_graph(state), paths=[(A, (0, 1))],
                          path_names=["my path"], marks={A: "A"})   # drawn the same every time


def test_components_are_named_largest_first():
    g = nx.Graph([((0, 0), (1, 0)), ((1, 0), (2, 0)), ((5, 5), (6, 5))])
    g.add_node((9, 9))
    names = components_labels(g)
    assert names[(0, 0)] == names[(2, 0)] == "A" and names[(5, 5)] == "B" and names[(9, 9)] == "C"
    assert graph_svg(g, hex_layout(g), labels=names).startswith("<svg")
