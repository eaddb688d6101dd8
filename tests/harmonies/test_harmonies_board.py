"""Personal boards and the stacking chart (rulebook "Setup" and "How to place a token")."""

import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from pangaea_lab import harmonies
from pangaea_lab.harmonies import board
from pangaea_lab.harmonies.board import _neighbour_table, cell_index, cells

ROOT = Path(__file__).resolve().parents[2]


def test_side_a_has_23_spaces_in_columns_5_4_5_4_5():
    g = harmonies.board_graph("A")
    assert len(g) == 23
    assert [sum(1 for c in g if c[0] == col) for col in range(5)] == [5, 4, 5, 4, 5]


def test_side_b_has_25_spaces_in_columns_4_3_4_3_4_3_4():
    g = harmonies.board_graph("B")
    assert len(g) == 25
    assert [sum(1 for c in g if c[0] == col) for col in range(7)] == [4, 3, 4, 3, 4, 3, 4]


@pytest.mark.parametrize("side", ["A", "B"])
def test_boards_are_connected_with_at_most_six_neighbours(side):
    g = harmonies.board_graph(side)
    assert nx.is_connected(g)
    assert max(d for _, d in g.degree) == 6


def test_neighbour_rule_for_even_and_odd_columns():
    # even column: N, S, NW (x-1, y-1), SW (x-1, y), NE (x+1, y-1), SE (x+1, y)
    assert sorted(harmonies.neighbours("A", (2, 1))) == [
        (1, 0), (1, 1), (2, 0), (2, 2), (3, 0), (3, 1)]
    # odd column: NW (x-1, y), SW (x-1, y+1), NE (x+1, y), SE (x+1, y+1)
    assert sorted(harmonies.neighbours("A", (1, 1))) == [
        (0, 1), (0, 2), (1, 0), (1, 2), (2, 1), (2, 2)]
    assert sorted(harmonies.neighbours("A", (0, 0))) == [(0, 1), (1, 0)]
    assert sorted(harmonies.neighbours("B", (6, 3))) == [(5, 2), (6, 2)]


@pytest.mark.parametrize("side", ["A", "B"])
def test_axial_coordinates_round_trip_and_agree_with_adjacency(side):
    from pangaea_lab.core import hexgrid
    g = harmonies.board_graph(side)
    for cell in g:
        assert board.from_axial(board.to_axial(cell)) == cell
    for a, b in g.edges:
        assert hexgrid.distance(board.to_axial(a), board.to_axial(b)) == 1


LEGAL = [("gray",), ("gray", "gray"), ("gray", "gray", "gray"), ("red",), ("gray", "red"),
         ("red", "red"), ("brown", "red"), ("brown",), ("brown", "brown"), ("green",),
         ("brown", "green"), ("brown", "brown", "green"), ("blue",), ("yellow",)]
ILLEGAL = [("gray", "gray", "red"), ("green", "green"), ("blue", "blue"), ("yellow", "gray"),
           ("gray", "brown"), ("brown", "gray"), ("brown", "brown", "brown"),
           ("red", "red", "red"), ("brown", "red", "red"), ("gray", "blue"), ("brown", "yellow"),
           ("green", "brown"), ("red", "gray"), ("gray", "green"), ("gray", "gray", "gray", "gray")]


@pytest.mark.parametrize("stack", LEGAL)
def test_every_stack_of_the_chart_is_legal(stack):
    assert stack in harmonies.legal_stacks()
    assert harmonies.can_stack(stack[:-1], stack[-1])
    harmonies.score_board("A", {(0, 0): list(stack)})


@pytest.mark.parametrize("stack", ILLEGAL)
def test_every_other_stack_is_rejected_with_the_rule(stack):
    assert not harmonies.can_stack(stack[:-1], stack[-1]) or len(stack) > 3 or \
        stack[:-1] not in harmonies.legal_stacks()
    with pytest.raises(ValueError, match="cannot go on|at most 3"):
        harmonies.score_board("A", {(0, 0): list(stack)})


def test_chart_has_exactly_fourteen_stacks():
    assert len(harmonies.legal_stacks()) == 14


def test_bad_colour_and_off_board_cells_are_named():
    with pytest.raises(ValueError, match="'purple' is not a token colour"):
        harmonies.score_board("A", {(0, 0): ["purple"]})
    with pytest.raises(ValueError, match=r"\(1, 4\) is not a space of side A"):
        harmonies.score_board("A", {(1, 4): ["blue"]})
    with pytest.raises(ValueError, match=r"is not a space of side B"):
        harmonies.score_board("B", {(7, 0): ["blue"]})
    with pytest.raises(ValueError, match="side must be 'A'"):
        harmonies.score_board("C", {})
    with pytest.raises(ValueError, match="list of colour names"):
        harmonies.score_board("A", {(0, 0): "blue"})


def test_grey_spelling_is_accepted():
    assert harmonies.score_board("A", {(0, 0): ["grey", "grey"], (0, 1): ["gray"]}).mountains == 4


@pytest.mark.parametrize("side", ["A", "B"])
def test_the_rules_tables_are_the_board_graph(side):
    """The rules play from plain tables worked out from the column heights: they hold the
    graph's nodes in its order, each with its graph neighbours."""
    g = harmonies.board_graph(side)
    assert cells(side) == tuple(g.nodes)
    assert [g.nodes[c]["index"] for c in cells(side)] == list(range(len(g)))
    idx = cell_index(side)
    assert _neighbour_table(side) == tuple(tuple(sorted(idx[n] for n in g[c]))
                                           for c in cells(side))


def test_a_game_is_played_scored_saved_and_drawn_without_networkx():
    """networkx is loaded for the lessons and the graph lab, not for a game: a fresh process
    plays, scores, saves, loads and draws a game with the rules alone (and then the graph
    is there when asked for)."""
    script = (
        "import random, sys\n"
        "from pangaea_lab import harmonies\n"
        "for players, options in [(1, {'side': 'A', 'spirits': False}), (2, {'side': 'B'})]:\n"
        "    state = harmonies.new_game(players=players, seed=3, **options)\n"
        "    rng = random.Random(3)\n"
        "    while not state.is_over:\n"
        "        state = state.apply(rng.choice(state.legal_actions()))\n"
        "    state.scores(); state.to_svg()\n"
        "    type(state).from_json(state.to_json()).check_invariants()\n"
        "print('networkx' in sys.modules)\n"
        "print(len(harmonies.board_graph('A')), 'networkx' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.split() == ["False", "23", "True"]
