"""The graph behind the board: the continent as a networkx graph a learner can query.

A space is a node (its ``(q, r)`` hex), two spaces sharing an edge are joined, and the nodes
carry ``terrain`` and ``biome`` (``state.board.graph``).  A Land Ritual may only pass spaces
holding a Tree, a Spirit or the Ancient Chelon, so its paths are the shortest paths of the
subgraph on those spaces (:func:`ritual_graph`); Chelon's Water Space in that subgraph is the
bridge, its edges the extra ones.  Everything scored here is scored by the rules engine (the
Land Ritual options and the refusal of a played action): networkx finds the paths, the engine
is the answer key.

>>> from pangaea_lab.pangaea.graph_lab import lesson_state, ritual_graph, scored_shortest_paths
>>> state, card = lesson_state()
>>> graph = ritual_graph(state)
>>> paths, total = scored_shortest_paths(state, card, (0, 0), (5, 0))
>>> total, [p.points for p in paths]
(3, [8, 7, 6])
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape
from itertools import islice
from typing import Any, Mapping, Sequence

import networkx as nx

from ..core.errors import IllegalAction, InvalidSetup
from ..core.graph_plot import components_labels, graph_svg, hex_layout
from ..core.hexgrid import Hex
from ..core.svg import SvgImage
from . import (PLAYER_NAMES, GameState, PlayLand, custom_board, land_ritual_options, new_game,
               ritual_pairs)

NOBODY = -1
CHELON = 1            # the Ancients' spaces are kept as (Okuma, Chelon, Thorondal)
BIOME_FILLS = {"Wind": "#d7e9b9", "Sun": "#f6d77c", "Rain": "#9fd1a9", "Snow": "#eef2f8"}
WATER_FILL = "#a9d2ee"


# ----- the graphs -----------------------------------------------------------------------------


def continent_graph(state: GameState) -> nx.Graph:
    """The continent's graph: every space, with ``terrain`` and ``biome`` on its node."""
    return state.board.graph


def terrain_graph(state: GameState, terrain: str) -> nx.Graph:
    """The subgraph of the ``"land"`` or the ``"water"`` spaces (a view, nothing copied)."""
    if terrain not in ("land", "water"):
        raise InvalidSetup(f"terrain must be 'land' or 'water', not {terrain!r}")
    graph = continent_graph(state)
    return graph.subgraph(n for n, t in graph.nodes(data="terrain") if t == terrain)


def connecting_spaces(state: GameState) -> list[Hex]:
    """The spaces a Land Ritual may pass, as the engine decides it: a Tree or a Spirit of any
    player, or Chelon's Water Space."""
    pos = state.position
    return [c for i, c in enumerate(state.board.cells) if pos.connects(i)]


def ritual_graph(state: GameState) -> nx.Graph:
    """The subgraph a Land Ritual may use: the continent restricted to
    :func:`connecting_spaces` (a view, nothing copied)."""
    return continent_graph(state).subgraph(connecting_spaces(state))


def bridge_edges(state: GameState) -> list[tuple[Hex, Hex]]:
    """The edges Chelon adds to the Ritual graph (none when Chelon is not on the continent)."""
    chelon = state.ancients[CHELON]
    if chelon == NOBODY:
        return []
    cell = state.board.cells[chelon]
    return sorted((cell, n) for n in ritual_graph(state).neighbors(cell))


def with_chelon(state: GameState, cell: Hex | None) -> GameState:
    """The same position with Chelon on the Water Space ``cell`` (or off the continent)."""
    return state.arranged(ancients={"Chelon": cell})


# ----- what stands where --------------------------------------------------------------------


def piece_text(state: GameState, cell: Hex) -> str:
    """What stands on a space in words: "Red Tree", "Blue Spirit", "Chelon", "Red Seed"."""
    i = state.board.index[tuple(cell)]
    names = [state.player_name(p) for p in range(state.num_players)]
    parts = []
    if state.trees[i] != NOBODY:
        parts.append(f"{names[state.trees[i]]} Tree")
    if i in state.spirits:
        parts.append(f"{names[state.spirits.index(i)]} Spirit")
    if state.ancients[CHELON] == i:
        parts.append("Chelon")
    if not parts and state.seeds[i] != NOBODY:
        parts.append(f"{names[state.seeds[i]]} Seed")
    return " + ".join(parts)


def space_text(state: GameState, cell: Hex) -> str:
    """A space in words: "(1, 0) Sun land, Red Tree"."""
    i = state.board.index[tuple(cell)]
    board = state.board
    where = f"{board.cells[i]} {board.biome[i]} {board.terrain[i]}" if board.terrain[i] == "land" \
        else f"{board.cells[i]} water"
    piece = piece_text(state, cell)
    return f"{where}, {piece}" if piece else f"{where}, empty"


def _short(text: str) -> str:
    """ "Red Tree + Chelon" -> "R Tree+Chelon": short enough to sit inside a node."""
    for name in PLAYER_NAMES:
        text = text.replace(f"{name} ", f"{name[0]} ")
    return text.replace(" + ", "+").replace("Spirit", "Spir.")


# ----- pictures -------------------------------------------------------------------------------


def picture(state: GameState, graph: nx.Graph | None = None, paths: Sequence[Sequence] = (),
            path_names: Sequence[str] = (), marks: Mapping | None = None, title: str = "",
            background: bool = True, pieces: bool = True) -> SvgImage:
    """``graph`` (default: the whole continent) drawn on the hex layout: each node labelled
    with its coordinates, what stands on it and any text of ``marks`` (e.g. "A", "n");
    land as hexagons, water as circles; the rest of the continent faint behind it."""
    whole = continent_graph(state)
    graph = whole if graph is None else graph
    labels = {}
    for cell in whole.nodes:
        lines = [f"{cell[0]},{cell[1]}"]
        if pieces and piece_text(state, cell):
            lines.append(_short(piece_text(state, cell)))
        if marks and cell in marks:
            lines.insert(0, f"[{marks[cell]}]")
        if cell in graph or background:
            labels[cell] = "\n".join(lines)
    kinds = {n: t for n, t in whole.nodes(data="terrain")}
    fills = {n: WATER_FILL if t == "water" else BIOME_FILLS.get(b, "#eeeeee")
             for n, t, b in ((n, d["terrain"], d["biome"]) for n, d in whole.nodes(data=True))}
    return graph_svg(graph, hex_layout(whole), labels=labels, kinds=kinds, fills=fills,
                     background=whole if background and graph is not whole else None,
                     paths=paths, path_names=path_names, title=title,
                     width=max(5.0, 0.95 * _columns(whole)))


def _columns(graph: nx.Graph) -> float:
    xs = [q + r / 2 for q, r in graph.nodes] or [0.0]
    return max(xs) - min(xs) + 1


def components_picture(state: GameState, graph: nx.Graph, title: str = "") -> SvgImage:
    """A subgraph with each connected component named by a letter (largest first)."""
    return picture(state, graph, marks=components_labels(graph), title=title)


# ----- paths and their scores (the engine is the answer key) --------------------------------


@dataclass(frozen=True)
class ScoredPath:
    """One shortest path of the Ritual graph with the engine's points and reasons."""

    path: tuple[Hex, ...]
    points: int
    explanation: str


def _options(state: GameState, card: str, start: Hex, end: Hex, player: int) -> dict:
    """The engine's Land Ritual options between the two Trees, by path in both directions."""
    pos, land = state.position, state.card(card)
    out = {}
    for a, b in ((start, end), (end, start)):
        for option in land_ritual_options(pos, player, land, a, b):
            out[option.path] = option
            out[option.path[::-1]] = option
    return out


def scored_shortest_paths(state: GameState, card: str, start: Hex, end: Hex,
                          player: int | None = None, limit: int = 12
                          ) -> tuple[list[ScoredPath], int]:
    """``nx.all_shortest_paths`` between two Trees in the Ritual graph (at most ``limit`` of
    them, best first), each with the points the engine gives it, and how many there are in
    all (the engine's count).  Nothing if the card may not join these two Trees."""
    player = state.turn_player if player is None else player
    start, end = tuple(start), tuple(end)
    graph = ritual_graph(state)
    summary = [s for s in ritual_pairs(state.position, player, state.card(card))
               if {s.start, s.end} == {start, end}]
    if not summary or not nx.has_path(graph, start, end):
        return [], 0
    options = _options(state, card, start, end, player)
    names = [state.player_name(p) for p in range(state.num_players)]
    out = []
    for path in islice(nx.all_shortest_paths(graph, start, end), max(limit, 0) * 4 or None):
        option = options.get(tuple(path))
        if option is None:   # networkx and the engine disagree: never silently
            raise InvalidSetup(f"the engine does not list the shortest path {path}")
        out.append(ScoredPath(tuple(path), option.points, option.explain(names)))
    out.sort(key=lambda p: (-p.points, p.path))
    return out[:limit], summary[0].paths


def longer_path(state: GameState, start: Hex, end: Hex) -> tuple[Hex, ...] | None:
    """The first path of the Ritual graph between two spaces that is longer than a shortest
    one (networkx's simple paths, shortest first), or None if there is no detour."""
    graph = ritual_graph(state)
    start, end = tuple(start), tuple(end)
    if start not in graph or end not in graph or not nx.has_path(graph, start, end):
        return None
    shortest = nx.shortest_path_length(graph, start, end)
    for path in islice(nx.shortest_simple_paths(graph, start, end), 200):
        if len(path) - 1 > shortest:
            return tuple(path)
    return None


def engine_verdict(state: GameState, card: str, path: Sequence[Hex]) -> str:
    """What the engine says when the player to move plays the Land Ritual ``card`` along
    ``path``: its refusal in its own words, or the points it scores."""
    from_market = card in state.market
    action = PlayLand(card, from_market, tuple(tuple(c) for c in path))
    player = state.turn_player
    try:
        after = state.apply(action)
    except IllegalAction as exc:
        return f"Refused: {exc.reason}"
    gained = after.players[player].land_points - state.players[player].land_points
    return f"Accepted: {state.player_name(player)} scores {gained} points."


# ----- a lesson position ----------------------------------------------------------------------


#: the lesson continent, row by row from the top: (q, r) -> terrain and biome.  A channel of
#: water crosses it; Red's Sun Tree (0, 0) and Snow Tree (5, 0) lie on either side.
LESSON_ROWS = (
    "Sun Rain Wind ~ Rain Snow",
    "Rain Wind Rain ~ Wind ~",
    "Wind Rain Sun ~ Sun Wind",
    "~ Snow Wind Rain Wind Sun",
)
LESSON_TREES = {(0, 0): 0, (0, 1): 1, (1, 1): 0, (2, 1): 2, (-1, 2): 0, (0, 2): 2, (1, 2): 0,
                (0, 3): 1, (1, 3): 0, (2, 3): 2, (3, 3): 1, (4, 3): 0, (3, 2): 0, (4, 2): 2,
                (4, 1): 1, (4, 0): 0, (5, 0): 0}
LESSON_SPIRITS = {0: (-1, 3), 1: (5, 1)}
LESSON_SEEDS = {(2, 0): 0, (1, 0): 1}


def lesson_board():
    """The lesson continent as a hand-built board."""
    spaces = {}
    for r, row in enumerate(LESSON_ROWS):
        for k, name in enumerate(row.split()):
            cell = (k - r // 2, r)
            spaces[cell] = ("water", "Rain") if name == "~" else ("land", name)
    return custom_board(spaces)


def lesson_state() -> tuple[GameState, str]:
    """A 3-player game on :func:`lesson_board` with Trees, Spirits and a Seed placed, Red to
    play and a Sun-Snow Land card in Red's hand; returns (state, card id)."""
    state = new_game(players=3, seed=0, board=lesson_board())
    state = replace(state, first_player=0, turn_player=0)
    card = next(c.id for c in state.edition.land_cards if set(c.biomes) == {"Sun", "Snow"})
    taken = {c for p in state.players[1:] for c in p.hand}
    if card in taken:
        card = next(c.id for c in state.edition.land_cards
                    if set(c.biomes) == {"Sun", "Snow"} and c.id not in taken)
    state = state.arranged(trees=LESSON_TREES, spirits=LESSON_SPIRITS, seeds=LESSON_SEEDS,
                           hands={0: [card]})
    return state, card


# ----- the explorer -------------------------------------------------------------------------


class GraphExplorer:
    """What the graph explorer shows, without widgets (tested in plain pytest): a space and
    its neighbours, one of the graphs, the shortest paths between two Trees with the engine's
    points, a detour with the engine's refusal, and Chelon placed on a Water Space."""

    VIEWS = ("continent", "land", "water", "ritual")

    def __init__(self, state: GameState, card: str, player: int | None = None) -> None:
        self.base = state
        self.card = card
        self.player = state.turn_player if player is None else player
        self.chelon: Hex | None = (state.board.cells[state.ancients[CHELON]]
                                   if state.ancients[CHELON] != NOBODY else None)
        trees = self.trees()
        self.start: Hex | None = trees[0] if trees else None
        self.end: Hex | None = trees[-1] if len(trees) > 1 else None

    @property
    def state(self) -> GameState:
        return with_chelon(self.base, self.chelon)

    def spaces(self) -> list[Hex]:
        return list(self.base.board.cells)

    def water(self) -> list[Hex]:
        board = self.base.board
        return [board.cells[i] for i in board.water]

    def trees(self) -> list[Hex]:
        """The player's Trees on the card's two biomes (the ends a Ritual may join)."""
        board, biomes = self.base.board, set(self.base.card(self.card).biomes)
        return [board.cells[i] for i in board.land
                if self.base.trees[i] == self.player and board.biome[i] in biomes]

    def graph(self, view: str) -> nx.Graph:
        if view not in self.VIEWS:
            raise InvalidSetup(f"view must be one of {self.VIEWS}, not {view!r}")
        if view == "continent":
            return continent_graph(self.state)
        if view == "ritual":
            return ritual_graph(self.state)
        return terrain_graph(self.state, view)

    def graph_text(self, view: str) -> str:
        g = self.graph(view)
        parts = nx.number_connected_components(g) if len(g) else 0
        text = (f"{g.number_of_nodes()} nodes, {g.number_of_edges()} edges, "
                f"{parts} connected component{'s' if parts != 1 else ''}")
        if view == "ritual" and self.chelon is not None:
            edges = ", ".join(f"{a}–{b}" for a, b in bridge_edges(self.state))
            text += f"; Chelon's bridge edges: {edges or 'none (no Tree or Spirit beside it)'}"
        return text

    def graph_svg(self, view: str) -> SvgImage:
        g = self.graph(view)
        names = {"continent": "The whole continent", "land": "Land spaces only",
                 "water": "Water spaces only", "ritual": "Spaces a Land Ritual may pass"}
        marks = components_labels(g) if view != "continent" else None
        return picture(self.state, g, marks=marks, title=names[view])

    def neighbours(self, cell: Hex) -> list[Hex]:
        return sorted(continent_graph(self.state).neighbors(tuple(cell)))

    def neighbours_text(self, cell: Hex) -> str:
        cell = tuple(cell)
        near = self.neighbours(cell)
        lines = [f"{space_text(self.state, cell)}: {len(near)} neighbours"]
        lines += [f"  {space_text(self.state, n)}" for n in near]
        return "\n".join(lines)

    def neighbours_svg(self, cell: Hex) -> SvgImage:
        cell = tuple(cell)
        marks = {n: "n" for n in self.neighbours(cell)}
        marks[cell] = "?"
        return picture(self.state, marks=marks,
                       title=f"{cell} [?] and its neighbours [n]")

    def paths(self) -> tuple[list[ScoredPath], int]:
        if self.start is None or self.end is None or self.start == self.end:
            return [], 0
        return scored_shortest_paths(self.state, self.card, self.start, self.end, self.player)

    def paths_text(self) -> str:
        if self.start is None or self.end is None or self.start == self.end:
            return "Pick two different Trees."
        found, total = self.paths()
        if not found:
            return (f"No path: {self.start} and {self.end} are in different connected "
                    "components of the Ritual graph (or the card does not join them).")
        steps = len(found[0].path) - 1
        lines = [f"nx.all_shortest_paths finds {total} shortest path{'s' if total != 1 else ''} "
                 f"of {steps} edges; the engine's points:"]
        for k, p in enumerate(found):
            lines.append(f"  path {k + 1}: {' → '.join(map(str, p.path))} — {p.explanation}")
        return "\n".join(lines)

    def paths_svg(self) -> SvgImage:
        found, _ = self.paths()
        shown = found[:4]
        return picture(self.state, ritual_graph(self.state), paths=[p.path for p in shown],
                       path_names=[f"path {k + 1}: {p.points} points"
                                   for k, p in enumerate(shown)],
                       marks={c: m for c, m in ((self.start, "A"), (self.end, "B")) if c},
                       title="Shortest paths in the Ritual graph")

    def detour(self) -> tuple[Hex, ...] | None:
        if self.start is None or self.end is None or self.start == self.end:
            return None
        return longer_path(self.state, self.start, self.end)

    def detour_text(self) -> str:
        path = self.detour()
        if path is None:
            return "No longer path exists between these two Trees in the Ritual graph."
        return (f"A longer path of {len(path) - 1} edges: {' → '.join(map(str, path))}\n"
                f"{engine_verdict(self.state, self.card, path)}")

    def detour_svg(self) -> SvgImage:
        path = self.detour()
        return picture(self.state, ritual_graph(self.state), paths=[path] if path else [],
                       path_names=["the detour (refused)"],
                       marks={c: m for c, m in ((self.start, "A"), (self.end, "B")) if c},
                       title="A detour: longer than a shortest path")


def graph_explorer(state: GameState, card: str, player: int | None = None) -> Any:
    """The graph explorer as a widget, answered by clicking (the model is ``widget.model``):
    a space menu with its neighbours, a choice of graph, two Tree menus with the shortest
    paths and their points, a detour button with the engine's words, and a Chelon menu."""
    import ipywidgets as w  # widgets only when the explorer is shown

    model = GraphExplorer(state, card, player)
    style = {"description_width": "initial"}
    space = w.Dropdown(description="Space", options=[(str(c), c) for c in model.spaces()],
                       style=style)
    view = w.ToggleButtons(description="Graph", style=style, options=[
        ("whole continent", "continent"), ("land only", "land"), ("water only", "water"),
        ("Ritual graph", "ritual")], value="ritual")
    trees = [(str(c), c) for c in model.trees()]
    start = w.Dropdown(description="Tree A", options=trees, value=model.start, style=style)
    end = w.Dropdown(description="Tree B", options=trees, value=model.end, style=style)
    chelon = w.Dropdown(description="Chelon on", style=style, value=model.chelon,
                        options=[("nowhere", None)] + [(str(c), c) for c in model.water()])
    show_paths = w.Button(description="Shortest paths")
    show_detour = w.Button(description="Try a longer path")
    text, pic = w.HTML(), w.HTML()

    def say(words: str, svg: str) -> None:
        text.value = f"<pre style='white-space: pre-wrap'>{escape(words)}</pre>"
        pic.value = svg

    def on_space(_: Any = None) -> None:
        say(model.neighbours_text(space.value), model.neighbours_svg(space.value))

    def on_view(_: Any = None) -> None:
        say(model.graph_text(view.value), model.graph_svg(view.value))

    def on_paths(_: Any = None) -> None:
        model.start, model.end = start.value, end.value
        say(model.paths_text(), model.paths_svg())

    def on_detour(_: Any = None) -> None:
        model.start, model.end = start.value, end.value
        say(model.detour_text(), model.detour_svg())

    def on_chelon(_: Any = None) -> None:
        model.chelon = chelon.value
        on_view()

    space.observe(on_space, names="value")
    view.observe(on_view, names="value")
    chelon.observe(on_chelon, names="value")
    start.observe(on_paths, names="value")
    end.observe(on_paths, names="value")
    show_paths.on_click(on_paths)
    show_detour.on_click(on_detour)
    on_view()
    box = w.VBox([w.HBox([space, chelon]), view, w.HBox([start, end, show_paths, show_detour]),
                  text, pic])
    box.add_class("pl-graph-explorer")
    box.model = model  # type: ignore[attr-defined]
    box.space, box.view, box.start, box.end = space, view, start, end  # type: ignore[attr-defined]
    box.chelon, box.paths_button, box.detour_button = chelon, show_paths, show_detour  # type: ignore[attr-defined]
    box.text, box.picture = text, pic  # type: ignore[attr-defined]
    return box
