"""The fixed shape of the Inori board: the Great Tree's spaces and the card slots.

The Great Tree is a small graph (trunk, branches and roots) built once per edition and cached;
it gives each tree space a drawing position.  Card slots are numbered 1.. from left to right:
three start slots, then one more slot per season for the New Start cards.
"""

from __future__ import annotations

from functools import lru_cache

import networkx as nx

from .edition import Edition

#: marker colours of the four seats and of the neutral markers (value -1); each marker also
#: shows its seat number (N for neutral), and the colours stay apart for colour-blind readers
#: (tests/core/test_palette.py)
SEAT_COLOURS = ("#293538", "#e5e1ff", "#c56700", "#3ae9a4")
NEUTRAL = -1
NEUTRAL_COLOUR = "#828190"


@lru_cache(maxsize=8)
def tree_graph(edition: Edition) -> nx.Graph:
    """Nodes are tree-space indices (plus ``"trunk"``) with ``pos``, ``altar`` and ``root``
    attributes; altar spaces sit on branches above the trunk, roots below it."""
    g = nx.Graph()
    g.add_node("trunk", pos=(0.0, 0.0), altar=False, root=False)
    altar = [i for i, t in enumerate(edition.tree) if t.altar]
    roots = [i for i, t in enumerate(edition.tree) if not t.altar]
    per_row = 3
    rows = max(1, -(-len(altar) // per_row))
    gap = 1.1 if rows <= 2 else 1.1 / (rows - 1)     # more rows squeeze into the same height
    for k, i in enumerate(altar):
        row, col = divmod(k, per_row)
        count = min(per_row, len(altar) - row * per_row)
        x = (col - (count - 1) / 2) * 1.0
        y = -1.0 - row * gap
        g.add_node(i, pos=(x, y), altar=True, root=False)
        g.add_edge("trunk", i)
    for k, i in enumerate(roots):
        x = (k - (len(roots) - 1) / 2) * 1.0
        g.add_node(i, pos=(x, 1.0), altar=False, root=True)
        g.add_edge("trunk", i)
    return g


def tree_positions(edition: Edition) -> dict[int, tuple[float, float]]:
    """Drawing position of each tree space (unit grid, y grows downward)."""
    g = tree_graph(edition)
    return {n: g.nodes[n]["pos"] for n in g.nodes if n != "trunk"}


def root_spaces(edition: Edition) -> tuple[int, ...]:
    """Indices of the root spaces (the ones holding set-aside tokens), in order."""
    return tuple(i for i, t in enumerate(edition.tree) if not t.altar)


def max_slots(edition: Edition) -> int:
    """Cards on the board in the last season: the start cards plus one per season end."""
    return edition.start_cards_dealt + edition.seasons - 1
