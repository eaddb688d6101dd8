"""The graph behind a Harmonies board (notebook harmonies/02): networkx's components, shortest
paths and chordless cycles agree with the scoring engine's rows on many random boards, and the
explorer is answered by clicking."""

import networkx as nx
import pytest

from pangaea_lab import harmonies
from pangaea_lab.core.errors import InvalidSetup
from pangaea_lab.harmonies.graph_lab import (EXAMPLES, LandscapeGraphExplorer, components,
                                             landscape_graph_explorer, picture, random_board,
                                             river_ends, river_loops, subgraph)

SEEDS = range(60)
HEIGHT_POINTS = (1, 3, 7)


@pytest.mark.parametrize("side", ["A", "B"])
def test_components_agree_with_the_engine(side):
    for seed in SEEDS:
        board = random_board(side, seed)
        score = harmonies.score_board(side, board)
        fields = components(side, board, "fields")
        assert score.fields == 5 * sum(1 for g in fields if len(g) > 1), (side, seed)
        mountains = components(side, board, "mountains")
        assert score.mountains == sum(HEIGHT_POINTS[len(board[c]) - 1]
                                      for g in mountains if len(g) > 1 for c in g), (side, seed)
        if side == "B":
            assert score.water_size == nx.number_connected_components(
                subgraph(side, board, "islands")), seed


def test_river_is_the_longest_shortest_path_or_the_longest_ring():
    for seed in SEEDS:
        board = random_board("A", seed)
        ends = river_ends("A", board)
        loops = river_loops("A", board)
        shortest = len(ends[2]) if ends else 0
        assert harmonies.score_board("A", board, river_rule="shortest").water_size == shortest
        ring = len(loops[0]) if loops else 0
        assert harmonies.score_board("A", board).water_size == max(shortest, ring), seed
        for loop in loops:   # each loop goes round: consecutive cells are neighbours
            graph = subgraph("A", board, "river")
            assert all(graph.has_edge(a, b) for a, b in zip(loop, loop[1:] + loop[:1]))


def test_examples_and_errors():
    side, ring = EXAMPLES["a river with a ring and a tail (side A)"]
    a, b, path = river_ends(side, ring)
    assert (a, b, len(path)) == ((2, 0), (2, 3), 5)
    assert [len(loop) for loop in river_loops(side, ring)] == [6]
    assert river_ends("A", {}) is None
    with pytest.raises(InvalidSetup, match="kind"):
        subgraph("A", {}, "lakes")
    with pytest.raises(InvalidSetup, match="not a space"):
        subgraph("A", {(9, 9): ["blue"]}, "river")
    svg = picture(side, ring, "river")
    assert svg.startswith("<svg") and "shortest path A to B: 5 tokens" in svg
    assert "loop without shortcuts: 6 tokens" in svg and "[A]" in svg


def test_explorer_model_and_widget():
    model = LandscapeGraphExplorer()
    model.kind = "river"
    assert "15 points for a river of 6 tokens" in model.text()
    model.choose("a wall of water: islands (side B)")
    model.kind = "islands"
    assert "10 points for 2 islands" in model.text()
    with pytest.raises(InvalidSetup, match="example"):
        model.choose("nowhere")
    box = landscape_graph_explorer()
    box.board.value = "mountains and fields (side A)"
    box.question.value = "fields"
    assert "Fields row: 10 points" in box.text.value and "<svg" in box.picture.value
    box.side.value = "B"
    box.question.value = "islands"
    box.another.click()
    assert "random board 1 (side B)" in box.picture.value and "islands" in box.text.value
