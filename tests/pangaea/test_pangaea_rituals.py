"""Land Rituals: the rulebook's Example 1 and Example 2 on small hand-built boards, the
shortest-path rule checked against networkx, and the explanation of rejected detours."""

import random

import networkx as nx
import pytest

from pangaea_lab import pangaea
from pangaea_lab.pangaea import (PlayLand, Position, custom_board, explain_path,
                                 land_ritual_options)
from pangaea_lab.pangaea.edition import LandCard
from pangaea_lab.pangaea.rituals import shortest_paths

SUN_SNOW = LandCard("X1", ("Sun", "Snow"), False)
ME, RED, GREEN = 0, 1, 2


def example1_board():
    """Start (0,0) Sun and end (1,1) Snow; (1,0) is land, (0,1) is water; a ring of land
    around the top gives a longer way round."""
    spaces = {(0, 0): ("land", "Sun"), (1, 1): ("land", "Snow"), (1, 0): ("land", "Rain"),
              (0, 1): ("water", "Rain"), (1, -1): ("land", "Wind"), (2, -1): ("land", "Wind"),
              (2, 0): ("land", "Rain")}
    return custom_board(spaces)


def test_example_1_two_shortest_paths_both_score_3_and_the_detour_is_refused():
    board = example1_board()
    trees = {(0, 0): ME, (1, 1): ME, (1, 0): ME, (1, -1): ME, (2, -1): ME, (2, 0): ME}
    pos = Position.build(board, trees, spirits={ME: (0, 1)})
    options = land_ritual_options(pos, ME, SUN_SNOW)
    paths = {o.path for o in options}
    upper = ((0, 0), (1, 0), (1, 1))
    lower = ((0, 0), (0, 1), (1, 1))             # through your own Spirit
    assert paths == {upper, lower}
    assert all(o.points == 3 for o in options)
    detour = [(0, 0), (1, -1), (2, -1), (2, 0), (1, 1)]
    why = explain_path(pos, ME, SUN_SNOW, detour)
    assert "detour" in why and "shorter" in why
    assert explain_path(pos, ME, SUN_SNOW, list(upper)) == ""


def test_example_2_other_colours_add_one_point_each():
    # A line of five spaces: your Tree, Red Tree, your Tree, Green Tree and Green Spirit... ,
    # your Tree at the end: 3 for your Trees, +2 for red and green.
    spaces = {(q, 0): ("land", b) for q, b in enumerate(["Sun", "Rain", "Wind", "Rain", "Wind", "Snow"])}
    spaces[(4, 1)] = ("water", "Rain")
    board = custom_board(spaces)
    trees = {(0, 0): ME, (1, 0): RED, (2, 0): ME, (3, 0): GREEN, (4, 0): GREEN, (5, 0): ME}
    pos = Position.build(board, trees, spirits={GREEN: (4, 1)})
    (option,) = land_ritual_options(pos, ME, SUN_SNOW)
    assert option.own == 3 and option.other_colours == (RED, GREEN)
    assert option.points == 5
    assert "+ 2 for other colours" in option.explain()


def test_a_colour_counts_once_however_many_pieces():
    spaces = {(q, 0): ("land", "Sun" if q == 0 else "Snow" if q == 4 else "Rain") for q in range(5)}
    pos = Position.build(custom_board(spaces), {(0, 0): ME, (1, 0): RED, (2, 0): RED,
                                                 (3, 0): RED, (4, 0): ME})
    (option,) = land_ritual_options(pos, ME, SUN_SNOW)
    assert option.points == 2 + 1


def test_unconnected_trees_give_no_option_and_say_why():
    spaces = {(q, 0): ("land", "Sun" if q == 0 else "Snow" if q == 2 else "Rain") for q in range(3)}
    pos = Position.build(custom_board(spaces), {(0, 0): ME, (2, 0): ME})
    assert land_ritual_options(pos, ME, SUN_SNOW) == []
    assert "only Trees and Spirits connect" in explain_path(pos, ME, SUN_SNOW, [(0, 0), (1, 0), (2, 0)])
    assert "not adjacent" in explain_path(pos, ME, SUN_SNOW, [(0, 0), (2, 0)])
    assert "twice" in explain_path(pos, ME, SUN_SNOW, [(0, 0), (0, 0)])


@pytest.mark.parametrize("seed", range(15))
def test_shortest_paths_agree_with_networkx(seed):
    rng = random.Random(seed)
    state = pangaea.new_game(players=4, seed=seed)
    board = state.board
    trees = {board.cells[i]: rng.randrange(4) for i in board.land if rng.random() < 0.6}
    spirits = dict(enumerate(rng.sample([board.cells[i] for i in board.water], 4)))
    pos = Position.build(board, trees, spirits)
    occupied = [c for c in board.cells if pos.holder(board.index[c]) != -1]
    graph = board.graph.subgraph(occupied)
    mine = [c for c, p in trees.items() if p == 0]
    for a in mine[:4]:
        for b in mine[:4]:
            if a >= b:
                continue
            ours = {tuple(board.cells[i] for i in p)
                    for p in shortest_paths(pos, board.index[a], board.index[b])}
            try:
                theirs = {tuple(p) for p in nx.all_shortest_paths(graph, a, b)}
            except nx.NetworkXNoPath:
                theirs = set()
            assert ours == theirs


def test_every_listed_option_is_a_legal_action_with_its_score():
    state = pangaea.new_game(players=3, seed=2)
    board = state.board
    cid = state.players[state.turn_player].hand[0]
    card = state.edition.card(cid)
    assert card.kind == "land"
    rng = random.Random(4)
    p = state.turn_player
    trees = {board.cells[i]: (p if rng.random() < 0.5 else (p + 1) % 3)
             for i in board.land if rng.random() < 0.7}
    trees = dict(list(trees.items())[:18])
    counts = {q: sum(1 for v in trees.values() if v == q) for q in range(3)}
    trees = {c: v for c, v in trees.items() if counts[v] <= 10}
    s = state.arranged(trees=trees)
    options = pangaea.land_ritual_options(s.position, p, card)
    legal = {a.path: a for a in s.legal_actions() if isinstance(a, PlayLand) and a.card == cid}
    assert {o.path for o in options} == set(legal)
    for o in options:
        after = s.apply(PlayLand(cid, False, o.path))
        assert after.players[p].land_points == o.points
        assert str(o.points) in legal[o.path].describe()
