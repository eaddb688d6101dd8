"""The graph behind a Harmonies board: landscapes as subgraphs a learner can query.

A personal board is a networkx graph (:func:`~.board.board_graph`): cells are nodes, cells
sharing a side are joined.  Each landscape that scores by groups is a question about the
subgraph of the cells it covers: islands (side B) and groups of mountains or fields are its
connected components, a river is measured by shortest paths between its tokens, and a ring
is a loop without shortcuts (a chordless cycle).  networkx answers; the scoring engine's rows
(:func:`~.scoring.score_board`) are the answer key shown beside it.

>>> stacks = {(0, 0): ["yellow"], (0, 1): ["yellow"], (4, 0): ["yellow"], (4, 1): ["yellow"]}
>>> [len(g) for g in components("A", stacks, "fields")]
[2, 2]
>>> engine_rows("A", stacks, "fields")
'Fields row: 10 points'
"""

from __future__ import annotations

import random
from html import escape
from itertools import combinations
from typing import Any, Callable, Iterable, Mapping

import networkx as nx

from ..core.errors import InvalidSetup
from ..core.graph_plot import components_labels, graph_svg, hex_layout
from ..core.svg import SvgImage
from .board import Cell, Stack, board_graph, cells, check_side, legal_stacks, to_axial
from .render import PALETTE
from .scoring import score_board

#: which cells each question keeps, in the rulebook's words
KINDS: dict[str, tuple[str, Callable[[Stack], bool]]] = {
    "islands": ("spaces not covered by water (empty ones too)", lambda s: s != ("blue",)),
    "mountains": ("mountains (a gray token on top)", lambda s: bool(s) and s[-1] == "gray"),
    "fields": ("fields (a single yellow token)", lambda s: s == ("yellow",)),
    "river": ("water (a single blue token)", lambda s: s == ("blue",)),
}


def _stacks(side: str, stacks: Mapping[Cell, Iterable[str]] | None) -> dict[Cell, Stack]:
    known = set(cells(side))
    out = {}
    for cell, stack in (stacks or {}).items():
        cell = tuple(cell)
        if cell not in known:
            raise InvalidSetup(f"{cell} is not a space of side {side}")
        out[cell] = tuple(stack)
    return out


def subgraph(side: str, stacks: Mapping[Cell, Iterable[str]] | None, kind: str) -> nx.Graph:
    """The board's graph restricted to the cells of one landscape ``kind`` (see :data:`KINDS`)
    (a view, nothing copied)."""
    side = check_side(side)
    if kind not in KINDS:
        raise InvalidSetup(f"kind must be one of {sorted(KINDS)}, not {kind!r}")
    keep = KINDS[kind][1]
    board = _stacks(side, stacks)
    return board_graph(side).subgraph(c for c in cells(side) if keep(board.get(c, ())))


def components(side: str, stacks: Mapping[Cell, Iterable[str]] | None,
               kind: str) -> list[list[Cell]]:
    """The connected components of a landscape's subgraph, largest first."""
    graph = subgraph(side, stacks, kind)
    return [sorted(c) for c in sorted(nx.connected_components(graph),
                                      key=lambda c: (-len(c), min(c)))]


def river_ends(side: str, stacks: Mapping[Cell, Iterable[str]] | None
               ) -> tuple[Cell, Cell, list[Cell]] | None:
    """The two water tokens farthest apart along the water (the rulebook's "two ends" of the
    longest river), with a shortest path between them; None without water."""
    graph = subgraph(side, stacks, "river")
    best = None
    for group in nx.connected_components(graph):
        part = graph.subgraph(group)
        lengths = dict(nx.all_pairs_shortest_path_length(part))
        for a, b in combinations(sorted(group), 2) if len(group) > 1 else [(min(group),) * 2]:
            key = (lengths[a][b], a, b)
            if best is None or key[0] > best[0]:
                best = key
    if best is None:
        return None
    _, a, b = best
    return a, b, nx.shortest_path(graph, a, b)


def river_loops(side: str, stacks: Mapping[Cell, Iterable[str]] | None) -> list[list[Cell]]:
    """The loops without shortcuts of the water (networkx's chordless cycles of 3 or more
    tokens), longest first."""
    graph = subgraph(side, stacks, "river")
    loops = []
    for cycle in nx.chordless_cycles(graph):
        if len(cycle) >= 3:
            k = cycle.index(min(cycle))          # in order round the loop, from its first cell
            loops.append(cycle[k:] + cycle[:k])
    return sorted(loops, key=lambda c: (-len(c), c))


#: how the engine scores what networkx finds (the rulebook's scoring pages, in short)
RULES = {
    "islands": "Side B: every island scores 5.",
    "mountains": "A mountain scores 1, 3 or 7 by height, but only in a group of two or more.",
    "fields": "Every group of two or more fields scores 5, however large.",
    "river": ("Side A: the river is as long as the shortest path between its two farthest "
              "tokens, or its longest loop without shortcuts if that is longer; 2, 5, 8, 11, "
              "15 points for 2 to 6 tokens, then 4 more per token."),
}


def engine_rows(side: str, stacks: Mapping[Cell, Iterable[str]] | None, kind: str) -> str:
    """The scoring engine's row for a question: the answer key."""
    s = score_board(side, stacks)
    if kind == "islands":
        return (f"Water (islands) row: {s.water} points for {s.water_size} islands"
                if side == "B" else "Islands score on side B only; this is side A.")
    if kind == "mountains":
        return f"Mountains row: {s.mountains} points"
    if kind == "fields":
        return f"Fields row: {s.fields} points"
    if side != "A":
        return "The river scores on side A only; this is side B."
    return f"Water (river) row: {s.water} points for a river of {s.water_size} tokens"


def answer_text(side: str, stacks: Mapping[Cell, Iterable[str]] | None, kind: str) -> str:
    """What networkx finds for a question, then the engine's row."""
    words, _ = KINDS[kind]
    lines = []
    if kind == "river":
        ends = river_ends(side, stacks)
        if ends is None:
            lines.append("No water on the board.")
        else:
            a, b, path = ends
            lines.append(f"The two water tokens farthest apart along the water: {a} and {b}; "
                         f"the shortest way along the water between them passes {len(path)} "
                         "tokens:")
            lines.append("  " + " → ".join(map(str, path)))
            loops = river_loops(side, stacks)
            if loops:
                lines.append(f"Loops without shortcuts: {len(loops)}, "
                             f"the longest of {len(loops[0])} tokens: "
                             + " → ".join(map(str, loops[0] + loops[0][:1])))
            else:
                lines.append("No loop: the water holds no cycle.")
    else:
        parts = components(side, stacks, kind)
        lines.append(f"Cells kept: {words}. Connected, they make {len(parts)} "
                     f"group{'s' if len(parts) != 1 else ''}:")
        names = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        for name, part in zip(names, parts):
            lines.append(f"  {name}: {len(part)} cell{'s' if len(part) != 1 else ''}: "
                         + ", ".join(map(str, part)))
    lines.append("The rule: " + RULES[kind])
    lines.append("The scoring engine: " + engine_rows(side, stacks, kind))
    return "\n".join(lines)


def picture(side: str, stacks: Mapping[Cell, Iterable[str]] | None, kind: str | None = None,
            title: str = "") -> SvgImage:
    """The board's graph: every cell labelled with its (col, row) and its stack (bottom to top);
    for a question, the landscape's subgraph drawn over the board, its components named by
    letters (a river: its two ends A and B and the shortest path between them)."""
    side = check_side(side)
    board = _stacks(side, stacks)
    whole = board_graph(side)
    graph = whole if kind is None else subgraph(side, stacks, kind)
    marks = components_labels(graph) if kind in ("islands", "mountains", "fields") else {}
    paths, names = [], []
    if kind == "river":
        ends = river_ends(side, stacks)
        if ends:
            a, b, path = ends
            marks = {a: "A", b: "B"}
            paths, names = [path], [f"shortest path A to B: {len(path)} tokens"]
            for loop in river_loops(side, stacks)[:2]:
                paths.append(loop + loop[:1])
                names.append(f"loop without shortcuts: {len(loop)} tokens")
    labels = {}
    for cell in whole.nodes:
        stack = board.get(cell, ())
        text = f"{cell[0]},{cell[1]}\n" + ("+".join(stack) if stack else "empty")
        if cell in marks:
            text = f"[{marks[cell]}]\n" + text
        labels[cell] = text
    fills = {c: _fill(board.get(c, ())) for c in whole.nodes}
    axial = {c: to_axial(c) for c in whole.nodes}
    return graph_svg(graph, hex_layout(whole, "flat", axial), labels=labels, fills=fills,
                     background=whole if graph is not whole else None, paths=paths,
                     path_names=names, title=title, width=6.5, node_size=1300, font_size=6)


def _fill(stack: Stack) -> str:
    """A light tint of the top token's colour (the label names it too)."""
    if not stack:
        return "#ffffff"
    colour = PALETTE[stack[-1]].lstrip("#")
    rgb = [int(colour[k:k + 2], 16) for k in (0, 2, 4)]
    return "#" + "".join(f"{(v + 2 * 255) // 3:02x}" for v in rgb)


#: example boards to explore: name -> (side, stacks)
EXAMPLES: dict[str, tuple[str, dict]] = {
    "a river with a ring and a tail (side A)": ("A", {c: ["blue"] for c in [
        (1, 0), (1, 1), (2, 0), (2, 2), (3, 0), (3, 1), (2, 3)]}),
    "the rulebook's river (side A)": ("A", {c: ["blue"] for c in [
        (1, 2), (1, 1), (1, 0), (2, 1), (3, 1), (3, 2), (4, 3)]}),
    "a wall of water: islands (side B)": ("B", {c: ["blue"] for c in [
        (1, 0), (1, 1), (1, 2), (0, 3)]}),
    "mountains and fields (side A)": ("A", {
        (0, 0): ["gray", "gray"], (0, 1): ["gray"], (2, 2): ["gray", "gray", "gray"],
        (4, 0): ["yellow"], (4, 1): ["yellow"], (3, 1): ["yellow"], (1, 3): ["yellow"],
        (2, 3): ["yellow"], (0, 4): ["yellow"]}),
}


def random_board(side: str, seed: int) -> dict[Cell, list[str]]:
    """A board of random legal stacks (about a third of the cells empty), from a seed."""
    side = check_side(side)
    rng = random.Random(f"harmonies-graph-{side}-{seed}")
    choices = sorted(legal_stacks())
    weights = [4 if s in (("blue",), ("yellow",), ("gray",)) else 1 for s in choices]
    out = {}
    for cell in cells(side):
        if rng.random() < 0.65:
            out[cell] = list(rng.choices(choices, weights)[0])
    return out


class LandscapeGraphExplorer:
    """What the landscape graph explorer shows, without widgets: a board (an example or a
    random one from a seed), a question (islands, mountains, fields, river) and networkx's
    answer with the scoring engine's row."""

    QUESTIONS = ("islands", "mountains", "fields", "river")

    def __init__(self, example: str | None = None) -> None:
        self.example = example or next(iter(EXAMPLES))
        self.side, self.stacks = EXAMPLES[self.example]
        self.kind = "river" if self.side == "A" else "islands"

    def choose(self, example: str) -> None:
        if example not in EXAMPLES:
            raise InvalidSetup(f"no example board {example!r}; the examples are "
                               + ", ".join(EXAMPLES))
        self.example = example
        self.side, self.stacks = EXAMPLES[example]

    def random(self, side: str, seed: int) -> None:
        self.example = f"random board {seed} (side {side})"
        self.side, self.stacks = side, random_board(side, seed)

    def text(self) -> str:
        return answer_text(self.side, self.stacks, self.kind)

    def svg(self) -> SvgImage:
        words = KINDS[self.kind][0]
        return picture(self.side, self.stacks, self.kind,
                       title=f"{self.example}: the subgraph of {words}")


def landscape_graph_explorer(example: str | None = None) -> Any:
    """The explorer as a widget answered by clicking (the model is ``widget.model``): a board
    menu, a question, and a button for a random board of either side."""
    import ipywidgets as w  # widgets only when the explorer is shown

    model = LandscapeGraphExplorer(example)
    style = {"description_width": "initial"}
    board = w.Dropdown(description="Board", options=list(EXAMPLES), value=model.example,
                       style=style, layout=w.Layout(width="460px"))
    question = w.ToggleButtons(description="Question", style=style, value=model.kind, options=[
        ("islands (side B)", "islands"), ("mountain groups", "mountains"),
        ("field groups", "fields"), ("river: ends, path, loops", "river")])
    side = w.ToggleButtons(description="Random board side", options=["A", "B"], style=style)
    another = w.Button(description="Random board")
    seed = [0]
    text, pic = w.HTML(), w.HTML()

    def show(_: Any = None) -> None:
        model.kind = question.value
        text.value = f"<pre style='white-space: pre-wrap'>{escape(model.text())}</pre>"
        pic.value = model.svg()

    def on_board(_: Any = None) -> None:
        model.choose(board.value)
        show()

    def on_random(_: Any = None) -> None:
        seed[0] += 1
        model.random(side.value, seed[0])
        show()

    board.observe(on_board, names="value")
    question.observe(show, names="value")
    another.on_click(on_random)
    show()
    box = w.VBox([board, question, w.HBox([side, another]), text, pic])
    box.add_class("pl-landscape-graph-explorer")
    box.model = model  # type: ignore[attr-defined]
    box.board, box.question, box.side, box.another = board, question, side, another  # type: ignore[attr-defined]
    box.text, box.picture = text, pic  # type: ignore[attr-defined]
    return box
