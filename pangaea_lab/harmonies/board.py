"""Personal boards (side A and side B) and the token-stacking chart.

A board is a networkx graph built once per side.  Its nodes are the ``(col, row)`` cells of
the online edition's convention: flat-topped hexes in vertical columns, odd columns shifted
down half a hex and one cell shorter.  Each node carries its ``axial`` coordinate (used for
rotating habitat patterns) and its ``index`` (position in the compact board tuples of a game).
The rules play from plain tables of the same cells and neighbours (:func:`cells`,
:func:`cell_index`, ``_neighbour_table``), worked out from the column heights alone: a game
played, scored or saved never needs the graph, so networkx is loaded when the graph is first
asked for (by the lessons and the graph lab), not with the rules.

>>> len(board_graph("A")), len(board_graph("B"))
(23, 25)
>>> sorted(neighbours("A", (1, 1)))
[(0, 1), (0, 2), (1, 0), (1, 2), (2, 1), (2, 2)]
>>> can_stack(("brown",), "green"), can_stack(("gray", "gray"), "red")
(True, False)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from ..core.errors import IllegalAction, InvalidData, InvalidSetup
from .edition import assumptions, data_sources, rules_data  # noqa: F401 (public here too)
from .game import SIDES

if TYPE_CHECKING:
    import networkx as nx

Cell = tuple[int, int]
Stack = tuple[str, ...]

#: column heights of each side, left to right (reference notes, "Personal boards — geometry")
COLUMN_HEIGHTS = {"A": (5, 4, 5, 4, 5), "B": (4, 3, 4, 3, 4, 3, 4)}
COLOURS = ("blue", "gray", "brown", "green", "yellow", "red")
_ALIASES = {"grey": "gray"}


def check_side(side: object) -> str:
    """``"A"`` or ``"B"`` (lower case accepted); a clear error otherwise."""
    if isinstance(side, str) and side.upper() in SIDES:
        return side.upper()
    raise InvalidSetup(f"side must be 'A' (23 spaces, river) or 'B' (25 spaces, islands), "
                       f"not {side!r}")


def to_axial(cell: Cell) -> tuple[int, int]:
    """Axial ``(q, r)`` of a ``(col, row)`` cell (odd columns sit half a hex lower)."""
    col, row = cell
    return (col, row - (col - (col & 1)) // 2)


def from_axial(h: tuple[int, int]) -> Cell:
    """The ``(col, row)`` cell of an axial coordinate; inverse of :func:`to_axial`."""
    q, r = h
    return (q, r + (q - (q & 1)) // 2)


@lru_cache(maxsize=None)
def board_graph(side: str) -> nx.Graph:
    """The personal board of ``side`` as a graph of cells joined when they share an edge."""
    import networkx as nx   # only the lessons and the graph lab draw on the graph

    side = check_side(side)
    g = nx.Graph(side=side)
    for index, cell in enumerate(cells(side)):
        g.add_node(cell, axial=to_axial(cell), index=index)
    for cell in cells(side):
        for other in _raw_neighbours(cell):
            if other in g:
                g.add_edge(cell, other)
    return g


def _raw_neighbours(cell: Cell) -> list[Cell]:
    x, y = cell
    if x % 2 == 0:
        return [(x, y - 1), (x + 1, y - 1), (x + 1, y), (x, y + 1), (x - 1, y), (x - 1, y - 1)]
    return [(x, y - 1), (x + 1, y), (x + 1, y + 1), (x, y + 1), (x - 1, y + 1), (x - 1, y)]


@lru_cache(maxsize=None)
def cells(side: str) -> tuple[Cell, ...]:
    """Every cell of a side, column by column, each column top to bottom (the order of a
    game's board tuples, and of the nodes of :func:`board_graph`)."""
    side = check_side(side)
    return tuple((col, row) for col, height in enumerate(COLUMN_HEIGHTS[side])
                 for row in range(height))


@lru_cache(maxsize=None)
def cell_index(side: str) -> dict[Cell, int]:
    """Position of each cell in :func:`cells`."""
    return {c: i for i, c in enumerate(cells(side))}


@lru_cache(maxsize=None)
def _neighbour_table(side: str) -> tuple[tuple[int, ...], ...]:
    """For each board index, the indices of the cells sharing an edge with it, sorted (the
    edges of :func:`board_graph`)."""
    idx = cell_index(side)
    return tuple(tuple(sorted(idx[n] for n in _raw_neighbours(c) if n in idx))
                 for c in cells(side))


def neighbours(side: str, cell: Cell) -> list[Cell]:
    """The cells sharing an edge with ``cell`` on that side."""
    return list(board_graph(side)[check_cell(side, cell)])


def check_cell(side: str, cell: object) -> Cell:
    """``cell`` as a ``(col, row)`` tuple if it is on the board; a clear error otherwise."""
    try:
        c = (int(cell[0]), int(cell[1]))  # type: ignore[index]
        ok = len(cell) == 2  # type: ignore[arg-type]
    except (TypeError, ValueError, IndexError):
        raise IllegalAction(f"{cell!r} is not a (col, row) cell") from None
    if not ok or c not in cell_index(side):
        raise IllegalAction(f"{cell!r} is not a space of side {side} "
                            f"(columns 0-{len(COLUMN_HEIGHTS[side]) - 1}; even columns rows "
                            f"0-{COLUMN_HEIGHTS[side][0] - 1}, odd columns rows "
                            f"0-{COLUMN_HEIGHTS[side][1] - 1})",
                            rule="Personal boards")
    return c


# ----- tokens and stacking ---------------------------------------------------------------

def check_colour(colour: object) -> str:
    """A colour name (``"grey"`` is read as ``"gray"``); a clear error for anything else."""
    if isinstance(colour, str):
        name = _ALIASES.get(colour.strip().lower(), colour.strip().lower())
        if name in COLOURS:
            return name
    raise IllegalAction(f"{colour!r} is not a token colour; the colours are "
                        + ", ".join(COLOURS), rule="Components")


@lru_cache(maxsize=None)
def legal_stacks() -> frozenset[Stack]:
    """Every stack the stacking chart allows, bottom to top."""
    return frozenset(tuple(s) for s in rules_data()["legal_stacks"]["stacks"])


def can_stack(stack: Sequence[str], colour: str) -> bool:
    """True when ``colour`` may go on top of ``stack`` (an empty stack means an empty space)."""
    return (*stack, colour) in legal_stacks()


def describe_stack(stack: Sequence[str]) -> str:
    """Plain words for a stack, e.g. ``"brown, green (tree of height 2)"``."""
    if not stack:
        return "empty"
    kind = landscape_of(tuple(stack))
    return ", ".join(stack) + (f" ({kind})" if kind else "")


def landscape_of(stack: Stack) -> str:
    """What a legal stack forms: ``"tree of height 2"``, ``"building"``, ``"water"``..."""
    if not stack:
        return ""
    top, h = stack[-1], len(stack)
    if top == "green":
        return f"tree of height {h}"
    if top == "gray":
        return f"mountain of height {h}"
    if top == "red":
        return "building" if h == 2 else "lone red token"
    if top == "brown":
        return "trunk without foliage"
    return {"blue": "water", "yellow": "field"}[top]


def check_stack(side: str, cell: Cell, stack: object) -> Stack:
    """A stack given by colour names bottom to top, checked against the stacking chart."""
    if isinstance(stack, str) or not isinstance(stack, (list, tuple)):
        raise IllegalAction(f"the stack on {cell} must be a list of colour names bottom to "
                            f"top, not {stack!r}")
    colours = tuple(check_colour(c) for c in stack)
    if len(colours) > 3:
        raise IllegalAction(f"the stack on {cell} has {len(colours)} tokens; at most 3 fit",
                            rule="How to place a token")
    for k in range(1, len(colours) + 1):
        if colours[:k] not in legal_stacks():
            below = ", ".join(colours[:k - 1]) or "an empty space"
            raise IllegalAction(f"the stack {list(colours)} on {cell} is not allowed: "
                                f"{colours[k - 1]} cannot go on {below}",
                                rule="How to place a token (stacking chart)")
    return colours


def stacks_tuple(side: str, stacks: Mapping[Cell, Iterable[str]] | None) -> tuple[Stack, ...]:
    """A ``{cell: [colours bottom to top]}`` mapping checked and turned into a board tuple."""
    side = check_side(side)
    out: list[Stack] = [()] * len(cells(side))
    if stacks is None:
        return tuple(out)
    if not isinstance(stacks, Mapping):
        raise InvalidData("stacks must be a mapping {(col, row): [colours bottom to top]}")
    idx = cell_index(side)
    for cell, stack in stacks.items():
        c = check_cell(side, cell)
        out[idx[c]] = check_stack(side, c, list(stack) if not isinstance(stack, str) else stack)
    return tuple(out)
