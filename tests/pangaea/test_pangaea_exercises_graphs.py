"""Notebook 09's exercises: the engine's answers are what networkx finds on the same graphs,
and wrong answers are refused with the graph's reason."""

import networkx as nx
import pytest

from pangaea_lab import exercises
from pangaea_lab.pangaea.graph_lab import ritual_graph, with_chelon

NOTEBOOK = "pangaea/09_graphs_behind_the_board.ipynb"
SEEDS = range(30)


def test_the_notebook_has_its_kinds():
    keys = {k.key for k in exercises.kinds_for(NOTEBOOK)}
    assert keys == {"pangaea.graph_neighbours", "pangaea.graph_ritual_nodes",
                    "pangaea.graph_path_count", "pangaea.graph_distance",
                    "pangaea.graph_chelon_bridge"}


@pytest.mark.parametrize("seed", SEEDS)
def test_answers_are_networkx_answers(seed):
    ex = exercises.generate("pangaea.graph_neighbours", seed)
    state, cell = ex.context["state"], ex.context["cell"]
    assert ex.answer == set(state.board.graph.neighbors(cell))
    far = next(c for c in state.board.cells if c != cell and c not in ex.answer)
    assert "edges away" in ex.check(ex.answer | {far}).reason

    ex = exercises.generate("pangaea.graph_ritual_nodes", seed)
    state = ex.context["state"]
    board = state.board
    assert ex.answer == {c for c in board.cells if state.trees[board.index[c]] != -1
                         or board.index[c] in state.spirits}

    for key in ("pangaea.graph_path_count", "pangaea.graph_distance"):
        ex = exercises.generate(key, seed)
        graph = ritual_graph(ex.context["state"])
        a, b = ex.context["pair"]
        want = (len(list(nx.all_shortest_paths(graph, a, b))) if key.endswith("count")
                else nx.shortest_path_length(graph, a, b))
        assert ex.answer == want, key

    ex = exercises.generate("pangaea.graph_chelon_bridge", seed)
    state = ex.context["state"]
    a, b = ex.context["pair"]
    assert not nx.has_path(ritual_graph(state), a, b)
    for cell in ex.answer:
        assert nx.has_path(ritual_graph(with_chelon(state, cell)), a, b)
    land = next(c for c in state.board.cells if state.board.graph.nodes[c]["terrain"] == "land")
    assert "Chelon stands only on a Water Space" in ex.check(ex.answer | {land}).reason
