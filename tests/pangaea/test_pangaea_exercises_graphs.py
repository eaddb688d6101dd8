"""Notebook 09's exercises: the engine's answers are what networkx finds on the same graphs,
wrong answers are refused with the graph's reason (never the answer), typical mistakes get a
diagnosis of their own, and the hints point at this position."""

import networkx as nx
import pytest

from pangaea_lab import exercises
from pangaea_lab.pangaea.graph_lab import ritual_graph, with_chelon

NOTEBOOK = "pangaea/09_graphs_behind_the_board.ipynb"
SEEDS = range(20)
LEVELS = (1, 2)


def test_the_notebook_has_its_kinds_with_two_levels():
    kinds = {k.key: k for k in exercises.kinds_for(NOTEBOOK)}
    assert set(kinds) == {"pangaea.graph_neighbours", "pangaea.graph_ritual_nodes",
                          "pangaea.graph_path_count", "pangaea.graph_distance",
                          "pangaea.graph_chelon_bridge", "pangaea.graph_components"}
    for kind in kinds.values():
        assert kind.levels == (1, 2), kind.key


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", SEEDS)
def test_answers_are_networkx_answers(seed, level):
    ex = exercises.generate("pangaea.graph_neighbours", seed, level=level)
    state, cell = ex.context["state"], ex.context["cell"]
    assert ex.answer == set(state.board.graph.neighbors(cell))
    far = next(c for c in state.board.cells if c != cell and c not in ex.answer)
    assert "edges away" in ex.check(ex.answer | {far}).reason

    ex = exercises.generate("pangaea.graph_ritual_nodes", seed, level=level)
    state = ex.context["state"]
    board = state.board
    assert ex.answer == {c for c in board.cells if state.trees[board.index[c]] != -1
                         or board.index[c] in state.spirits}

    for key in ("pangaea.graph_path_count", "pangaea.graph_distance"):
        ex = exercises.generate(key, seed, level=level)
        graph = ritual_graph(ex.context["state"])
        a, b = ex.context["pair"]
        want = (len(list(nx.all_shortest_paths(graph, a, b))) if key.endswith("count")
                else nx.shortest_path_length(graph, a, b))
        assert ex.answer == want, key

    ex = exercises.generate("pangaea.graph_chelon_bridge", seed, level=level)
    state = ex.context["state"]
    a, b = ex.context["pair"]
    assert not nx.has_path(ritual_graph(state), a, b)
    for cell in ex.answer:
        assert nx.has_path(ritual_graph(with_chelon(state, cell)), a, b)
    land = next(c for c in state.board.cells if state.board.graph.nodes[c]["terrain"] == "land")
    assert "Chelon stands only on a Water Space" in ex.check(ex.answer | {land}).reason


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seed_is_refused_as_a_node_and_a_missing_node_is_not_named(seed):
    ex = exercises.generate("pangaea.graph_ritual_nodes", seed, level=2)
    state = ex.context["state"]
    seeds = [c for c in state.board.cells if state.seeds[state.board.index[c]] != -1]
    if seeds:
        verdict = ex.check(ex.answer | {seeds[0]})
        assert not verdict.correct and "Seed does not connect" in verdict.reason
        assert verdict.marks == (seeds[0],)
    dropped = min(ex.answer)
    verdict = ex.check(ex.answer - {dropped})
    assert verdict.misconception == "missed-some" and str(dropped) not in verdict.reason


def test_the_path_count_diagnoses_a_length_and_a_single_path():
    seen = set()
    for seed in range(30):
        ex = exercises.generate("pangaea.graph_path_count", seed, level=2)
        a, b = ex.context["pair"]
        steps = nx.shortest_path_length(ritual_graph(ex.context["state"]), a, b)
        if steps != ex.answer:
            verdict = ex.check(steps)
            assert verdict.misconception in ("length-not-count", "whole-continent"), verdict
            seen.add("length" if verdict.misconception == "length-not-count" else "")
        verdict = ex.check(1)
        assert verdict.misconception in ("one-path-only", "length-not-count",
                                         "whole-continent"), verdict
        assert str(ex.answer) not in verdict.reason
        seen.add(verdict.misconception)
    assert {"length", "one-path-only"} <= seen


def test_the_distance_diagnoses_the_whole_continent_and_counted_spaces():
    for seed in range(20):
        ex = exercises.generate("pangaea.graph_distance", seed, level=1)
        state = ex.context["state"]
        a, b = ex.context["pair"]
        plain = nx.shortest_path_length(state.board.graph, a, b)
        assert plain < ex.answer
        assert ex.check(plain).misconception == "whole-continent"
        assert ex.check(ex.answer + 1).misconception == "counted-spaces"
        for given in (plain, ex.answer + 1):
            assert str(ex.answer) not in ex.check(given).reason.split()


@pytest.mark.parametrize("key", ["pangaea.graph_neighbours", "pangaea.graph_ritual_nodes",
                                 "pangaea.graph_path_count", "pangaea.graph_distance",
                                 "pangaea.graph_chelon_bridge"])
def test_hints_go_from_a_nudge_to_a_pointer_on_the_position(key):
    hints = set()
    for seed in range(10):
        ex = exercises.generate(key, seed, level=2)
        assert len(ex.hints) == 2 and ex.hints[0] != ex.hints[1]
        assert ex.hint_svg(1) == "" or ex.hint_svg(1) != ex.svg(())
        if ex.answer_kind == "cells":      # a marked hint never marks the whole answer
            for marks in ex.hint_marks:
                assert not marks or set(marks) != set(ex.answer)
        hints.add(ex.hints)
    assert len(hints) >= 5


def test_every_chelon_bridge_is_accepted_alone_only_with_the_others():
    for seed in range(20):
        ex = exercises.generate("pangaea.graph_chelon_bridge", seed, level=2)
        assert ex.check(sorted(ex.answer)).correct
        if len(ex.answer) > 1:
            verdict = ex.check([min(ex.answer)])
            assert not verdict.correct and verdict.misconception == "missed-some"
