"""A board's graph drawn as a graph: nodes at their hexes, edges between neighbours.

Used where a notebook shows the networkx graph behind a board (a continent, a personal board)
rather than the board itself.  Meaning is never told by colour alone: every node carries a
text label, kinds of node have their own marker shape (listed in the legend), and each
highlighted path has its own line style and a named legend entry.  The picture is SVG with
real text, drawn the same way every time (fixed ids, no date).

>>> import networkx as nx
>>> g = nx.path_graph([(0, 0), (1, 0), (2, 0)])
>>> pic = graph_svg(g, hex_layout(g), labels={(0, 0): "A", (2, 0): "B"},
...                 paths=[[(0, 0), (1, 0), (2, 0)]], path_names=["A to B"])
>>> pic.startswith("<svg") and ">A to B<" in pic
True
"""

from __future__ import annotations

import io
from typing import Hashable, Iterable, Mapping, Sequence

import networkx as nx

from . import hexgrid
from .svg import SvgImage

#: line styles and colours of highlighted paths, in turn (the style tells them apart in print)
PATH_STYLES = ("solid", "dashed", "dotted", "dashdot")
PATH_COLOURS = ("#d1495b", "#00798c", "#6a4c93", "#edae49", "#30638e", "#8a5a44")
#: marker shapes by node kind, with the legend's words
SHAPES = {"land": ("h", "land (hexagon)"), "water": ("o", "water (circle)"),
          "other": ("s", "other (square)")}


def hex_layout(graph: nx.Graph, orientation: str = "pointy",
               axial: Mapping[Hashable, tuple[int, int]] | None = None) -> dict:
    """Node positions for drawing: each node (an axial ``(q, r)`` hex, or ``axial[node]``) at
    its hex centre, y upwards as matplotlib draws it."""
    out = {}
    for node in graph.nodes:
        x, y = hexgrid.to_pixel(axial[node] if axial is not None else node, 1.0, orientation)
        out[node] = (x, -y)
    return out


def graph_svg(graph: nx.Graph, pos: Mapping, labels: Mapping | None = None,
              kinds: Mapping | None = None, fills: Mapping | None = None,
              background: nx.Graph | None = None, paths: Sequence[Sequence] = (),
              path_names: Sequence[str] = (), title: str = "", width: float = 6.0,
              node_size: float = 900, font_size: float = 7) -> SvgImage:
    """``graph`` drawn on its hex positions ``pos``.

    ``labels`` are node texts (e.g. "1,0" and what stands there); ``kinds`` gives each node a
    kind of :data:`SHAPES` (default "land"); ``fills`` node colours (default white);
    ``background`` a larger graph drawn faintly behind (e.g. the whole continent behind the
    subgraph a rule uses); ``paths`` node lists drawn as thick styled lines, named in the
    legend by ``path_names``."""
    from matplotlib.figure import Figure  # plotting only when a graph is drawn
    from matplotlib.lines import Line2D  # plotting only when a graph is drawn
    import matplotlib  # plotting only when a graph is drawn

    labels = dict(labels or {})
    kinds = dict(kinds or {})
    fills = dict(fills or {})
    every = dict(pos)
    xs = [p[0] for p in every.values()] or [0.0]
    ys = [p[1] for p in every.values()] or [0.0]
    span_x, span_y = max(xs) - min(xs) + 2, max(ys) - min(ys) + 2
    fig = Figure(figsize=(width, max(2.0, width * span_y / span_x) + 0.4 * bool(paths)))
    ax = fig.add_subplot()
    ax.set_axis_off()
    ax.set_aspect("equal")
    if background is not None:
        rest = [n for n in background.nodes if n not in graph]
        nx.draw_networkx_edges(background, every, ax=ax, edge_color="#cccccc", width=0.8,
                               style="dotted")
        for kind, (shape, _) in SHAPES.items():
            nodes = [n for n in rest if kinds.get(n, "land") == kind]
            if nodes:
                nx.draw_networkx_nodes(background, every, nodelist=nodes, ax=ax,
                                       node_color="#f4f4f4", edgecolors="#bbbbbb",
                                       node_size=node_size * 0.6, node_shape=shape)
    nx.draw_networkx_edges(graph, every, ax=ax, edge_color="#555555", width=1.2)
    handles = []
    present = {kinds.get(n, "land") for n in every}
    for kind, (shape, words) in SHAPES.items():
        nodes = [n for n in graph.nodes if kinds.get(n, "land") == kind]
        if not nodes:
            continue
        nx.draw_networkx_nodes(graph, every, nodelist=nodes, ax=ax, node_shape=shape,
                               node_size=node_size, edgecolors="#333333", linewidths=1.0,
                               node_color=[fills.get(n, "#ffffff") for n in nodes])
        if len(present) > 1:   # one kind only: its shape needs no legend
            handles.append(Line2D([], [], marker=shape, linestyle="", markersize=9,
                                  markerfacecolor="#ffffff", markeredgecolor="#333333",
                                  label=words))
    for k, path in enumerate(paths):
        style, colour = PATH_STYLES[k % len(PATH_STYLES)], PATH_COLOURS[k % len(PATH_COLOURS)]
        edges = list(zip(path, path[1:]))
        nx.draw_networkx_edges(nx.Graph(edges), every, edgelist=edges, ax=ax, width=4.0,
                               style=style, edge_color=colour, alpha=0.85)
        name = path_names[k] if k < len(path_names) else f"path {k + 1}"
        handles.append(Line2D([], [], color=colour, linestyle=style, linewidth=3, label=name))
    shown = {n: t for n, t in labels.items() if n in every}
    nx.draw_networkx_labels(nx.Graph([(n, n) for n in shown]) if shown else nx.Graph(), every,
                            labels=shown, ax=ax, font_size=font_size)
    if handles:
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0),
                  ncol=min(3, len(handles)), fontsize=8, frameon=False)
    if title:
        ax.set_title(title, fontsize=10)
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "pangaea_lab", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return SvgImage(text[text.index("<svg"):])


def components_labels(graph: nx.Graph, names: Iterable[str] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                      ) -> dict:
    """``{node: letter}`` naming each connected component by a letter, largest first (ties
    by the smallest node), so a picture can tell the groups apart by text."""
    groups = sorted(nx.connected_components(graph), key=lambda c: (-len(c), min(c)))
    return {node: letter for group, letter in zip(groups, names) for node in group}
