"""Exercise generators for notebook 09, the graph behind the board (see
:mod:`pangaea_lab.core.exercises`).

Each position is a small hand-built continent with Trees, Seeds and Spirits placed by the
rules engine; the questions are asked of its networkx graph (neighbours, the subgraph a Land
Ritual may use, shortest paths in it, Chelon's bridge), and the answers come from the engine:
the board's graph, the engine's own rule for the spaces that connect, its Land Ritual count
(``ritual_pairs``) and the Rituals it allows once Chelon stands on a Water Space.  Level 1
asks on a small, sparse continent; level 2 on a fuller one with pieces of every colour.

>>> from pangaea_lab import exercises
>>> ex = exercises.generate("pangaea.graph_path_count", seed=2, level=2)
>>> ex.check(ex.answer).correct
True
"""

from __future__ import annotations

import random
from typing import Callable, Iterable

import networkx as nx

from ...core.errors import InvalidSetup
from ...core.exercises import Exercise, cells_verdict, number_verdict, register
from ...core.hexgrid import Hex
from .. import GameState, custom_board, load_edition, ritual_pairs
from ..graph_lab import connecting_spaces, piece_text, ritual_graph, with_chelon
from ..game import GAME
from .common import cells_words, continent, drawer, game

NOTEBOOK = "pangaea/09_graphs_behind_the_board.ipynb"
RED = 0
#: the board of each level: (columns, rows, Water Spaces, share of the land with a Tree)
BOARDS = {1: (5, 3, 4, 0.45), 2: (6, 4, 5, 0.7)}


def _position(rng: random.Random, cols: int = 6, rows: int = 4, water: int = 5,
              fill: float = 0.7) -> GameState:
    """A 3-player full game on a small board: Trees of Red, Blue and Orange on about ``fill``
    of the land, some Seeds, the Spirits on Water Spaces; Red to play."""
    spaces, wet = continent(rng, cols, rows, water)
    land = sorted(c for c, (terrain, _) in spaces.items() if terrain == "land")
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
    return game(custom_board(spaces), players=3,
                arranged=dict(trees=trees, seeds=seeds, spirits=spirits))


def _level_position(rng: random.Random, level: int) -> GameState:
    cols, rows, water, fill = BOARDS[level]
    return _position(rng, cols, rows, water, fill)


def _pieces_words(state: GameState, cells: Iterable[Hex]) -> str:
    """What stands on these spaces, in words without numbers: "Blue Trees and a Red Spirit"."""
    kinds = sorted({piece_text(state, c) for c in cells} - {""})
    return " and ".join(kinds) if kinds else "nothing"


# ----- neighbours -----------------------------------------------------------------------------


@register("pangaea.graph_neighbours", game=GAME.name, notebook=NOTEBOOK,
          rule="In the continent's graph two spaces are joined by an edge when they share a "
               "side; a space's neighbours are the spaces joined to it",
          title="Which spaces are neighbours?",
          levels=("a space of a small, nearly empty continent",
                  "a space of a crowded continent, pieces of every colour around it"))
def graph_neighbours(seed: int, level: int = 1) -> Exercise:
    rng = random.Random(f"graph-neighbours {seed} {level}")
    state = _position(rng, *(BOARDS[level][:3]), fill=0.3 if level == 1 else 0.6)
    graph = state.board.graph
    cell = rng.choice(sorted(graph.nodes))
    right = frozenset(graph.neighbors(cell))
    dist = nx.single_source_shortest_path_length(graph, cell)

    def refuse(c: Hex) -> str:
        if c == cell:
            return "it is the space itself, not one of its neighbours."
        return (f"it shares no side with {cell}: it is {dist[c]} edges away in the graph, and "
                "a neighbour is one edge away.")

    edge = "in the middle of the board, so all six sides face a space" if len(right) == 6 \
        else f"at the edge of the board: only {len(right)} of its six sides face a space"
    return Exercise(
        kind="pangaea.graph_neighbours", seed=seed,
        question=(f"In the continent's graph, which spaces are the neighbours of {cell} "
                  "(marked ?), land and water alike? Click every one."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=refuse,
            missed=f"Every space you clicked touches {cell}, but not all of them: go round "
                   "its six sides once more, water included.",
            right_reason=f"Right: {cell} has {len(right)} neighbours; at the edge of the "
                         "continent a space has fewer than six."),
        draw=drawer(state, base={cell: "?"}),
        hints=(f"A neighbour of {cell} lies across one of its sides, whether it is land or "
               "water and whatever stands on it.",
               f"{cell} lies {edge}; each of those spaces is a neighbour."),
        hint_marks=((cell,), ()),
        explanation=f"graph.neighbors({cell}) gives {cells_words(right)}.",
        context={"state": state, "cell": cell})


# ----- the Ritual graph -----------------------------------------------------------------------


@register("pangaea.graph_ritual_nodes", game=GAME.name, notebook=NOTEBOOK,
          rule="A Land Ritual uses the subgraph of the spaces holding a Tree or a Spirit of any "
               "player (or Chelon); Seeds and empty spaces are left out",
          title="Which spaces are in the Ritual graph?",
          levels=("a small continent with a few pieces",
                  "a crowded continent with Seeds, Trees and Spirits of three colours"))
def graph_ritual_nodes(seed: int, level: int = 1) -> Exercise:
    rng = random.Random(f"graph-ritual-nodes {seed} {level}")
    state = _position(rng, *(BOARDS[level][:3]), fill=0.35 if level == 1 else 0.55)
    board = state.board
    right = frozenset(connecting_spaces(state))
    seeds = tuple(c for c in board.cells if piece_text(state, c).endswith("Seed"))
    spirits = [c for c in right if board.terrain[board.index[c]] == "water"]

    def refuse(c: Hex) -> str:
        what = piece_text(state, c)
        if what:
            return (f"it holds only {what}: a Seed does not connect, so the space is not a "
                    "node of the Ritual graph.")
        if board.terrain[board.index[c]] == "water":
            return "it is water with no Spirit on it: not a node of the Ritual graph."
        return "it is empty land: not a node of the Ritual graph."

    seed_words = (f"The marked spaces hold only a Seed ({len(seeds)} of them): a Seed never "
                  "connects, so leave them out." if seeds else
                  "This board has no Seed: only empty spaces are left out.")
    return Exercise(
        kind="pangaea.graph_ritual_nodes", seed=seed,
        question=("A Land Ritual may use only part of the continent's graph. Click every space "
                  "that is a node of that subgraph."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=refuse,
            missed="Each space you clicked is a node, but some node is missing: look again "
                   "for Trees of every colour and for Spirits on the water.",
            right_reason=f"Right: the {len(right)} spaces with a Tree or a Spirit, of any "
                         "colour."),
        draw=drawer(state),
        hints=("A Land Ritual steps only on spaces with a Tree or a Spirit, whoever owns it: "
               "look at what stands on each space.",
               f"{seed_words} The Spirits stand on {len(spirits)} Water Spaces, and those "
               "are nodes, like every Tree of Red, Blue and Orange."),
        hint_marks=((), seeds),
        explanation="The Ritual graph's nodes: " + cells_words(right) + ".",
        context={"state": state})


# ----- shortest paths -------------------------------------------------------------------------


def _two_trees(seed: int, level: int, accept: Callable) -> tuple[GameState, object, Hex, Hex]:
    """A position where Red's Trees on ``start`` and ``end`` lie on the two biomes of a Land
    card (and no other Red Tree does), chosen until ``accept(state, card, start, end)``."""
    rng = random.Random(f"graph-two-trees {seed} {level} {accept.__name__}")
    ed = load_edition()
    cards = [c for c in ed.land_cards if c.biomes[0] != c.biomes[1]]
    for _ in range(3000):
        card = rng.choice(cards)
        state = _level_position(rng, level)
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
        trees = {c: p for c, p in zip(board.cells, state.trees) if p != -1}
        seeds = {c: p for c, p in zip(board.cells, state.seeds) if p != -1}
        spirits = {p: board.cells[i] for p, i in enumerate(state.spirits) if i != -1}
        moved = game(custom_board(spaces), players=3,
                     arranged=dict(trees=trees, seeds=seeds, spirits=spirits))
        if accept(moved, card, start, end):
            return moved, card, start, end
    raise InvalidSetup(f"no position found for seed {seed}")  # pragma: no cover


def _pair(state: GameState, card, start: Hex, end: Hex):
    found = ritual_pairs(state.position, RED, card, start, end)
    return found[0] if found else None


def _on_shortest(graph: nx.Graph, start: Hex, end: Hex) -> tuple[Hex, ...]:
    """The spaces between ``start`` and ``end`` that lie on some shortest path."""
    a = nx.single_source_shortest_path_length(graph, start)
    b = nx.single_source_shortest_path_length(graph, end)
    whole = a[end]
    return tuple(sorted(c for c in a if c in b and a[c] + b[c] == whole
                        and c not in (start, end)))


def _ends_words(state: GameState, card, start: Hex, end: Hex) -> str:
    return (f"Red's Trees A {start} and B {end} lie on the biomes of a "
            f"{card.biomes[0]}–{card.biomes[1]} Land card.")


#: the numbers of shortest paths asked at each level (one per seed, in turn) and the
#: (fewest, most) steps between the two Trees
PATH_RANGES = {1: ((1, 2, 3), (2, 4)), 2: ((2, 3, 4, 5), (3, 5))}


@register("pangaea.graph_path_count", game=GAME.name, notebook=NOTEBOOK,
          rule="nx.all_shortest_paths lists every shortest path of the Ritual graph between two "
               "Trees: exactly the Land Rituals the engine allows between them",
          title="How many shortest paths?",
          levels=("two Trees a few steps apart on a small continent",
                  "two Trees farther apart on a crowded continent, with several ways round"))
def graph_path_count(seed: int, level: int = 1) -> Exercise:
    counts, (near, far) = PATH_RANGES[level]
    wanted = counts[seed % len(counts)]

    def count_accept(state, card, start, end):
        pair = _pair(state, card, start, end)
        return pair is not None and pair.paths == wanted and near <= pair.steps <= far

    state, card, start, end = _two_trees(seed, level, count_accept)
    pair = _pair(state, card, start, end)
    n = pair.paths
    middle = _on_shortest(ritual_graph(state), start, end)
    plain = len(list(nx.all_shortest_paths(state.board.graph, start, end)))
    known = {pair.steps: ("length-not-count", "That is how long a shortest path is, not how "
                          "many different shortest paths there are: count the ways, not the "
                          "steps."),
             pair.steps + 1: ("length-not-count", "That is how many spaces a shortest path "
                              "has, not how many different shortest paths there are.")}
    if n > 1:
        known[1] = ("one-path-only", "There is more than one shortest path here: somewhere "
                    "two spaces at the same distance from A both lead on to B.")
    if plain != n:
        known[plain] = ("whole-continent", "That many shortest ways lead from A to B across the "
                        "whole continent; a Land Ritual steps only on Trees and Spirits, never "
                        "on Seeds, empty land or bare water.")
    known.pop(n, None)
    return Exercise(
        kind="pangaea.graph_path_count", seed=seed,
        question=(_ends_words(state, card, start, end) + " In the Ritual graph (Trees and "
                  "Spirits of any colour), how many shortest paths lead from A to B?"),
        answer_kind="number", answer=n,
        checker=lambda given: number_verdict(
            given, n, what="the number of shortest paths from A to B",
            rule="Walk out from A, over Trees and Spirits only, and count every way that "
                 "reaches B in the fewest steps; a detour does not count.",
            misconceptions=known,
            right_reason=f"Right: {n} shortest paths of {pair.steps} edges; the engine allows "
                         "each of them as a Land Ritual."),
        draw=drawer(state, base={start: "A", end: "B"}),
        hints=(f"Start at A, on {card.biomes[0]}, and step only onto spaces with a Tree or a "
               f"Spirit; count the different ways that reach B, on {card.biomes[1]}, in the "
               "fewest steps.",
               "Every shortest path runs through the marked spaces "
               f"({_pieces_words(state, middle)}). "
               "Write on each the number of shortest ways from A to it: a space adds up "
               "the ways of its marked neighbours one step nearer to A."),
        hint_marks=((start, end), middle),
        explanation=f"{n} shortest paths, each of {pair.steps} edges.",
        answer_cells=(), context={"state": state, "card": card.id, "pair": (start, end)})


def _blocked(state: GameState, start: Hex, end: Hex) -> tuple[Hex, ...]:
    """The spaces of the continent's shortest ways from A to B that a Ritual cannot use."""
    nodes = set(connecting_spaces(state))
    return tuple(c for c in _on_shortest(state.board.graph, start, end) if c not in nodes)


def _blocked_words(state: GameState, cells: Iterable[Hex]) -> str:
    words = set()
    for c in cells:
        what = piece_text(state, c)
        terrain = state.board.terrain[state.board.index[c]]
        words.add(f"{what}s" if what else "bare water" if terrain == "water" else "empty land")
    return " and ".join(sorted(words))


@register("pangaea.graph_distance", game=GAME.name, notebook=NOTEBOOK,
          rule="A Land Ritual's length is the shortest-path distance in the Ritual graph, which "
               "can be longer than the distance on the whole continent",
          title="How far apart in the Ritual graph?",
          levels=("two Trees with a short detour on a small continent",
                  "two Trees on a crowded continent with a longer way round"))
def graph_distance(seed: int, level: int = 1) -> Exercise:
    near, far = (2, 4) if level == 1 else (3, 7)

    def distance_accept(state, card, start, end):
        pair = _pair(state, card, start, end)
        return (pair is not None and near <= pair.steps <= far
                and nx.shortest_path_length(state.board.graph, start, end) < pair.steps)

    state, card, start, end = _two_trees(seed, level, distance_accept)
    steps = _pair(state, card, start, end).steps
    plain = nx.shortest_path_length(state.board.graph, start, end)
    blocked = _blocked(state, start, end)
    known = {plain: ("whole-continent", "That is the distance across the whole continent, "
                     "through Seeds, empty land or water; a Ritual may not step there, so it "
                     "must go round."),
             steps + 1: ("counted-spaces", "It looks like you counted the spaces of the path, "
                         "both ends included; the question counts the edges, the steps from one "
                         "space to the next.")}
    known.pop(steps, None)
    return Exercise(
        kind="pangaea.graph_distance", seed=seed,
        question=(f"How many edges does a shortest path between Red's Trees A {start} and "
                  f"B {end} have in the Ritual graph (only spaces with a Tree or a Spirit)?"),
        answer_kind="number", answer=steps,
        checker=lambda given: number_verdict(
            given, steps, what="the length of a shortest path in the Ritual graph",
            rule="Step from A to B only over spaces with a Tree or a Spirit, taking the "
                 "fewest steps, and count the steps.",
            misconceptions=known,
            right_reason=f"Right: {steps} edges; on the whole continent the two Trees are "
                         f"only {plain} apart."),
        draw=drawer(state, base={start: "A", end: "B"}),
        hints=(f"From A, on {state.board.biome[state.board.index[start]]}, step only onto "
               "spaces holding a Tree or a Spirit, and count the steps to B.",
               f"The straight way from A to B is blocked at the marked spaces "
               f"({_blocked_words(state, blocked)}): a Ritual cannot step there, so find the "
               "shortest way round them."),
        hint_marks=((start, end), blocked),
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


@register("pangaea.graph_chelon_bridge", game=GAME.name, notebook=NOTEBOOK,
          rule="Chelon on a Water Space adds that space and its edges to the Ritual graph: a "
               "bridge that can join two Trees",
          title="Where does Chelon make a bridge?",
          levels=("a small continent with a few Water Spaces",
                  "a crowded continent with more water and more groups of pieces"))
def graph_chelon_bridge(seed: int, level: int = 1) -> Exercise:
    def bridge_accept(state, card, start, end):
        if _pair(state, card, start, end) is not None:
            return False
        found = _bridges(state, card, start, end)
        joined = [c for c, pair in found.items() if pair is not None]
        return 1 <= len(joined) < len(found)

    state, card, start, end = _two_trees(seed, level, bridge_accept)
    found = _bridges(state, card, start, end)
    right = frozenset(c for c, pair in found.items() if pair is not None)
    graph = ritual_graph(state)
    group_a = tuple(sorted(nx.node_connected_component(graph, start)))
    group_b = tuple(sorted(nx.node_connected_component(graph, end)))

    def refuse(c: Hex) -> str:
        i = state.board.index[c]
        if state.board.terrain[i] == "land":
            return "it is land: Chelon stands only on a Water Space."
        near = sorted(n for n in state.board.graph.neighbors(c) if n in graph)
        if not near:
            return "Chelon there would touch no Tree and no Spirit, so it joins nothing."
        return (f"Chelon there would add edges to {cells_words(near)}, but the groups of A "
                "and of B would still lie in different components.")

    return Exercise(
        kind="pangaea.graph_chelon_bridge", seed=seed,
        question=(f"Red's Trees A {start} and B {end} lie in different connected components of "
                  "the Ritual graph. Click every Water Space where Chelon would join them."),
        answer_kind="cells", answer=right,
        checker=lambda given: cells_verdict(
            given, right, refuse=refuse,
            missed="Each space you clicked joins the two Trees, but so does some other Water "
                   "Space: check every one that touches A's group.",
            right_reason="Right: on each of these Chelon touches both components."),
        draw=drawer(state, base={start: "A", end: "B"}),
        hints=("Chelon stands on water. Look for a Water Space that touches a Tree or Spirit "
               "joined to A, and one joined to B, at the same time.",
               f"The marked spaces are A's group ({len(group_a)} spaces) and B's group "
               f"({len(group_b)}): Chelon must stand on water next to both."),
        hint_marks=(group_a, group_a + group_b),
        explanation="Chelon joins the two Trees from " + cells_words(right) + ".",
        context={"state": state, "card": card.id, "pair": (start, end)})
