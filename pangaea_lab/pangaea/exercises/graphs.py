"""Exercise generators for notebook 09, the graph behind the board (see
:mod:`pangaea_lab.core.exercises`).

Each position is a small hand-built continent with Trees, Seeds and Spirits placed by the
rules engine; the questions are asked of its networkx graph (neighbours, the subgraph a Land
Ritual may use, shortest paths in it, Chelon's bridge), and the answers come from the engine:
the board's graph, the engine's own rule for the spaces that connect, its Land Ritual count
(``ritual_pairs``) and the Rituals it allows once Chelon stands on a Water Space.

>>> from pangaea_lab import exercises
>>> ex = exercises.generate("pangaea.graph_path_count", seed=2)
>>> ex.check(ex.answer).correct
True
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable, Iterable

import networkx as nx

from ...core.errors import InvalidSetup
from ...core.exercises import Exercise, Verdict, register
from ...core.hexgrid import Hex
from .. import GameState, custom_board, load_edition, new_game, ritual_pairs
from ..graph_lab import connecting_spaces, piece_text, ritual_graph, with_chelon
from ..render import board_svg
from .first_steps import _cells_checker

GAME = "pangaea"
NOTEBOOK = "pangaea/09_graphs_behind_the_board.ipynb"
RED = 0


def _grid(cols: int, rows: int) -> list[Hex]:
    """``rows`` rows of ``cols`` hexes, drawn as a rectangle."""
    return [(q - r // 2, r) for r in range(rows) for q in range(cols)]


def _position(rng: random.Random, cols: int = 6, rows: int = 4, water: int = 5,
              fill: float = 0.7, biomes: dict | None = None) -> GameState:
    """A 3-player full game on a small board: Trees of Red, Blue and Orange on about ``fill``
    of the land, some Seeds, the Spirits on Water Spaces; Red to play."""
    ed = load_edition()
    cells = _grid(cols, rows)
    wet = set(rng.sample(cells, water))
    spaces = {c: ("water", ed.biomes[0]) if c in wet else ("land", rng.choice(ed.biomes))
              for c in cells}
    for c, b in (biomes or {}).items():
        spaces[c] = ("land", b)
        wet.discard(c)
    land = sorted(c for c in cells if c not in wet)
    rng.shuffle(land)
    trees, seeds, counts = {}, {}, [0, 0, 0]
    for c in land:
        r = rng.random()
        p = RED if r < 0.4 else 1 if r < 0.55 else 2
        if r < fill and counts[p] < 9:
            trees[c] = p
            counts[p] += 1
        elif rng.random() < 0.5:
            owner = rng.randrange(3)
            if sum(1 for q in seeds.values() if q == owner) < 2:   # 2 Seeds to place each
                seeds[c] = owner
    spirits = dict(zip(range(3), rng.sample(sorted(wet), 3)))
    state = new_game(players=3, seed=0, board=custom_board(spaces))
    state = replace(state, first_player=RED, turn_player=RED)
    return state.arranged(trees=trees, seeds=seeds, spirits=spirits)


def _drawer(state: GameState, kind: str, base: dict | None = None) -> Callable:
    """``draw(marked)``: the position with the marked spaces outlined and labelled (a tick for
    a set of spaces), each player's initial on their pieces, ``base`` badges (A, B, ?)."""

    def draw(marked: Iterable = ()) -> str:
        marked = [tuple(c) for c in marked]
        labels = dict(base or {})
        for cell in marked:
            labels[cell] = "✓"
        return board_svg(state, highlight=marked, chain=kind == "path", labels=labels,
                         letters=True, status=False)

    return draw


def _described(state: GameState, cell: Hex) -> str:
    return f"{cell} ({piece_text(state, cell) or 'empty'})"


def _number_checker(right: int, wrong: Callable[[int], str], ok: str) -> Callable:
    def check(answer: int) -> Verdict:
        return Verdict(True, ok) if answer == right else Verdict(False, wrong(answer))
    return check


# ----- neighbours -----------------------------------------------------------------------------


@register("pangaea.graph_neighbours", game=GAME, notebook=NOTEBOOK,
          rule="In the continent's graph two spaces are joined by an edge when they share a "
               "side; a space's neighbours are the spaces joined to it",
          title="Which spaces are neighbours?")
def graph_neighbours(seed: int) -> Exercise:
    rng = random.Random(seed)
    state = _position(rng, fill=0.5)
    graph = state.board.graph
    cell = rng.choice(sorted(graph.nodes))
    right = set(graph.neighbors(cell))
    dist = nx.single_source_shortest_path_length(graph, cell)

    def why_not(c: Hex) -> str:
        if c == cell:
            return f"{cell} is the space itself, not one of its neighbours."
        return (f"{c} shares no side with {cell}: networkx puts it {dist[c]} edges away, so "
                "it is not a neighbour.")

    return Exercise(
        kind="pangaea.graph_neighbours", seed=seed,
        question=(f"In the continent's graph, which spaces are the neighbours of {cell} "
                  "(marked ?), land and water alike? Click every one."),
        answer_kind="cells", answer=right,
        checker=_cells_checker(
            right, why_not, lambda c: f"{c} shares a side with {cell}: it is a neighbour too.",
            f"Right: {cell} has {len(right)} neighbours; at the edge of the continent a space "
            "has fewer than six."),
        draw=_drawer(state, "cells", {cell: "?"}),
        hint="Count the spaces touching the marked one along a side, whatever stands on them.",
        explanation=(f"graph.neighbors({cell}) gives " + ", ".join(map(str, sorted(right)))
                     + "."),
        context={"state": state, "cell": cell})


# ----- the Ritual graph -----------------------------------------------------------------------


@register("pangaea.graph_ritual_nodes", game=GAME, notebook=NOTEBOOK,
          rule="A Land Ritual uses the subgraph of the spaces holding a Tree or a Spirit of any "
               "player (or Chelon); Seeds and empty spaces are left out",
          title="Which spaces are in the Ritual graph?")
def graph_ritual_nodes(seed: int) -> Exercise:
    rng = random.Random(seed)
    state = _position(rng, cols=5, rows=3, water=4, fill=0.55)
    right = set(connecting_spaces(state))

    def why_not(c: Hex) -> str:
        what = piece_text(state, c)
        if what:
            return (f"{c} holds only a {what}: a Seed does not connect, so the space is not a "
                    "node of the Ritual graph.")
        return f"{c} is empty: it is not a node of the Ritual graph."

    return Exercise(
        kind="pangaea.graph_ritual_nodes", seed=seed,
        question=("A Land Ritual may use only part of the continent's graph. Click every space "
                  "that is a node of that subgraph."),
        answer_kind="cells", answer=right,
        checker=_cells_checker(
            right, why_not,
            lambda c: f"{c} holds a {piece_text(state, c)}: it connects, so it is a node too.",
            f"Right: the {len(right)} spaces with a Tree or a Spirit, of any colour."),
        draw=_drawer(state, "cells"),
        hint="Trees and Spirits of every colour connect; Seeds and empty spaces do not.",
        explanation="The Ritual graph's nodes: " + ", ".join(map(str, sorted(right))) + ".",
        context={"state": state})


# ----- shortest paths -------------------------------------------------------------------------


def _two_trees(seed: int, accept: Callable) -> tuple[GameState, object, Hex, Hex]:
    """A position where Red's Trees on ``start`` and ``end`` lie on the two biomes of a Land
    card (and no other Red Tree does), chosen until ``accept(state, card, start, end)``."""
    rng = random.Random(seed)
    ed = load_edition()
    cards = [c for c in ed.land_cards if c.biomes[0] != c.biomes[1]]
    for _ in range(500):
        card = rng.choice(cards)
        state = _position(rng, fill=0.75)
        board = state.board
        reds = sorted(board.cells[i] for i in board.land if state.trees[i] == RED)
        if len(reds) < 2:
            continue
        start, end = rng.sample(reds, 2)
        others = [b for b in ed.biomes if b not in card.biomes]
        biomes = {c: rng.choice(others) for c in reds}
        biomes[start], biomes[end] = card.biomes
        spaces = {c: (board.terrain[board.index[c]],
                      biomes.get(c, board.biome[board.index[c]])) for c in board.cells}
        moved = new_game(players=3, seed=0, board=custom_board(spaces))
        moved = replace(moved, first_player=RED, turn_player=RED)
        names = {c: p for c, p in zip(board.cells, state.trees) if p != -1}
        seeds = {c: p for c, p in zip(board.cells, state.seeds) if p != -1}
        spirits = {p: board.cells[i] for p, i in enumerate(state.spirits) if i != -1}
        moved = moved.arranged(trees=names, seeds=seeds, spirits=spirits)
        if accept(moved, card, start, end):
            return moved, card, start, end
    raise InvalidSetup(f"no position found for seed {seed}")  # pragma: no cover


def _pair(state: GameState, card, start: Hex, end: Hex):
    found = ritual_pairs(state.position, RED, card, start, end)
    return found[0] if found else None


@register("pangaea.graph_path_count", game=GAME, notebook=NOTEBOOK,
          rule="nx.all_shortest_paths lists every shortest path of the Ritual graph between two "
               "Trees: exactly the Land Rituals the engine allows between them",
          title="How many shortest paths?")
def graph_path_count(seed: int) -> Exercise:
    def accept(state, card, start, end):
        pair = _pair(state, card, start, end)
        return pair is not None and 2 <= pair.paths <= 6 and 2 <= pair.steps <= 5

    state, card, start, end = _two_trees(seed, accept)
    pair = _pair(state, card, start, end)
    n, steps = pair.paths, pair.steps

    def wrong(answer: int) -> str:
        if answer == 1:
            return (f"There is more than one: at some step two spaces are equally near, so "
                    f"networkx finds {n} shortest paths of {steps} edges.")
        if answer == steps or answer == steps + 1:
            return (f"{answer} is the length of a shortest path (in edges or spaces), not the "
                    f"number of them: there are {n}.")
        return f"networkx finds {n} shortest paths of {steps} edges between A and B."

    return Exercise(
        kind="pangaea.graph_path_count", seed=seed,
        question=(f"Red's Trees A {start} and B {end} lie on the biomes of a "
                  f"{card.biomes[0]}–{card.biomes[1]} Land card. In the Ritual graph (Trees "
                  "and Spirits of any colour), how many shortest paths join A and B?"),
        answer_kind="number", answer=n,
        checker=_number_checker(n, wrong, f"Right: {n} shortest paths of {steps} edges; the "
                                "engine allows each of them as a Land Ritual."),
        draw=_drawer(state, "cells", {start: "A", end: "B"}),
        hint="Walk out from A one edge at a time over Trees and Spirits; where two spaces at "
             "the same distance both lead on towards B, the count adds up.",
        explanation=f"{n} shortest paths, each of {steps} edges.",
        answer_cells=(), context={"state": state, "card": card.id, "pair": (start, end)})


@register("pangaea.graph_distance", game=GAME, notebook=NOTEBOOK,
          rule="A Land Ritual's length is the shortest-path distance in the Ritual graph, which "
               "can be longer than the distance on the whole continent",
          title="How far apart in the Ritual graph?")
def graph_distance(seed: int) -> Exercise:
    def accept(state, card, start, end):
        pair = _pair(state, card, start, end)
        return (pair is not None and 2 <= pair.steps <= 6
                and nx.shortest_path_length(state.board.graph, start, end) < pair.steps)

    state, card, start, end = _two_trees(seed, accept)
    steps = _pair(state, card, start, end).steps
    plain = nx.shortest_path_length(state.board.graph, start, end)

    def wrong(answer: int) -> str:
        if answer == plain:
            return (f"{plain} edges is the distance on the whole continent, through Seeds, "
                    f"empty spaces or water; in the Ritual graph it is {steps}.")
        if answer == steps + 1:
            return f"That counts spaces; a path of {steps + 1} spaces has {steps} edges."
        return f"A shortest path in the Ritual graph has {steps} edges."

    return Exercise(
        kind="pangaea.graph_distance", seed=seed,
        question=(f"How many edges does a shortest path between Red's Trees A {start} and "
                  f"B {end} have in the Ritual graph (only spaces with a Tree or a Spirit)?"),
        answer_kind="number", answer=steps,
        checker=_number_checker(steps, wrong, f"Right: {steps} edges; on the whole continent "
                                f"the two Trees are only {plain} apart."),
        draw=_drawer(state, "cells", {start: "A", end: "B"}),
        hint="Step only onto spaces holding a Tree or a Spirit, and count the steps.",
        explanation=(f"nx.shortest_path_length(ritual graph, A, B) = {steps}; on the whole "
                     f"continent {plain}."),
        answer_cells=(), context={"state": state, "card": card.id, "pair": (start, end)})


# ----- Chelon's bridge ------------------------------------------------------------------------


def _bridges(state: GameState, card, start: Hex, end: Hex) -> dict:
    """Each Water Space and the Land Rituals between A and B with Chelon standing on it."""
    board = state.board
    out = {}
    for i in board.water:
        cell = board.cells[i]
        try:
            bridged = with_chelon(state, cell)
        except InvalidSetup:
            continue
        out[cell] = _pair(bridged, card, start, end)
    return out


@register("pangaea.graph_chelon_bridge", game=GAME, notebook=NOTEBOOK,
          rule="Chelon on a Water Space adds that space and its edges to the Ritual graph: a "
               "bridge that can join two Trees",
          title="Where does Chelon make a bridge?")
def graph_chelon_bridge(seed: int) -> Exercise:
    def accept(state, card, start, end):
        if _pair(state, card, start, end) is not None:
            return False
        found = _bridges(state, card, start, end)
        joined = [c for c, pair in found.items() if pair is not None]
        return 1 <= len(joined) < len(found)

    state, card, start, end = _two_trees(seed, accept)
    found = _bridges(state, card, start, end)
    right = {c for c, pair in found.items() if pair is not None}
    graph = ritual_graph(state)

    def why_not(c: Hex) -> str:
        i = state.board.index[c]
        if state.board.terrain[i] == "land":
            return f"{c} is land: Chelon stands only on a Water Space."
        near = sorted(n for n in state.board.graph.neighbors(c) if n in graph)
        return (f"Chelon on {c} would add edges to {', '.join(map(str, near)) or 'nothing'}, "
                "but A and B would still lie in different components.")

    def why_yes(c: Hex) -> str:
        pair = found[c]
        return (f"With Chelon on {c}, A and B are joined: {pair.paths} shortest "
                f"path{'s' if pair.paths != 1 else ''} of {pair.steps} edges.")

    return Exercise(
        kind="pangaea.graph_chelon_bridge", seed=seed,
        question=(f"Red's Trees A {start} and B {end} lie in different connected components of "
                  "the Ritual graph. Click every Water Space where Chelon would join them."),
        answer_kind="cells", answer=right,
        checker=_cells_checker(right, why_not, why_yes,
                               "Right: on each of these Chelon touches both components."),
        draw=_drawer(state, "cells", {start: "A", end: "B"}),
        hint="Look for water touching a Tree or Spirit of A's group and one of B's group.",
        explanation="Chelon joins A and B from " + ", ".join(map(str, sorted(right))) + ".",
        context={"state": state, "card": card.id, "pair": (start, end)})
