"""Habitats: where a card's cube may go ("Animal cards" and "Orientations" in the rulebook).

A card's pattern fits when every hex of it, turned as a whole by any of the six rotations,
lands on a board space holding exactly the required stack (same height and colours; a
building's lower token may be red, brown or gray).  The cube's own space must not already hold
a cube; the other spaces may, since one token can serve several habitats.

>>> stacks = {(0, 1): ["yellow"], (1, 1): ["gray"], (2, 2): ["gray"]}
>>> habitat_cells("Fennec Fox", side="A", stacks=stacks)
[(2, 2)]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping

from ..core import hexgrid
from .board import Cell, Stack, board_graph, cell_index, cells, check_cell, check_side, \
    from_axial, stacks_tuple, to_axial
from .cards import Card, card

_BASES = ("red", "brown", "gray")


def stack_matches(code: str, stack: Stack) -> bool:
    """True when ``stack`` (bottom to top) is exactly the stack named by ``code``."""
    n = len(stack)
    if code == "W":
        return stack == ("blue",)
    if code == "Y":
        return stack == ("yellow",)
    if code == "BLD":
        return n == 2 and stack[1] == "red" and stack[0] in _BASES
    height = int(code[1])
    if n != height:
        return False
    if code[0] == "M":
        return all(t == "gray" for t in stack)
    return stack[-1] == "green" and all(t == "brown" for t in stack[:-1])


@lru_cache(maxsize=None)
def rotations(card_id: int) -> tuple[tuple[tuple[int, int, str], ...], ...]:
    """The card's other hexes in each of the six rotations (axial offsets from the cube)."""
    c = card(card_id)
    return tuple(tuple((*hexgrid.rotate((q, r), k), code) for q, r, code in c.others)
                 for k in range(6))


@lru_cache(maxsize=None)
def _layout(side: str, card_id: int) -> tuple[tuple[int, tuple[tuple[tuple[int, str], ...], ...]], ...]:
    """For each cell: the on-board placements of the pattern (index, code) per rotation."""
    idx = cell_index(side)
    g = board_graph(side)
    out = []
    for cell in cells(side):
        q0, r0 = to_axial(cell)
        fits = []
        for rot in rotations(card_id):
            spots = []
            for dq, dr, code in rot:
                other = from_axial((q0 + dq, r0 + dr))
                if other not in g:
                    break
                spots.append((idx[other], code))
            else:
                fits.append(tuple(spots))
        out.append((idx[cell], tuple(fits)))
    return tuple(out)


def habitat_indices(side: str, card_id: int, stacks: tuple[Stack, ...],
                    cubes: tuple[int, ...] | None = None) -> list[int]:
    """Board indices where the card's cube may go now (fast form used by the game)."""
    target = card(card_id).cube
    out = []
    for i, fits in _layout(side, card_id):
        if (cubes is not None and cubes[i]) or not stack_matches(target, stacks[i]):
            continue
        for spots in fits:
            if all(stack_matches(code, stacks[j]) for j, code in spots):
                out.append(i)
                break
    return out


def fits_at(card_key: int | str | Card, side: str, stacks: Mapping[Cell, Iterable[str]],
            cell: Cell, cubes: Iterable[Cell] = ()) -> bool:
    """True when the card's cube may go on ``cell``."""
    return tuple(cell) in habitat_cells(card_key, side=side, stacks=stacks, cubes=cubes)


def habitat_cells(card_key: int | str | Card, side: str = "A",
                  stacks: Mapping[Cell, Iterable[str]] | None = None,
                  cubes: Iterable[Cell] = ()) -> list[Cell]:
    """Every cell where the card's cube could be placed on this board, sorted.

    ``stacks`` maps ``(col, row)`` to colours bottom to top; ``cubes`` lists cells that
    already hold a cube (they cannot take another)."""
    side = check_side(side)
    c = card(card_key)
    board = stacks_tuple(side, stacks)
    idx = cell_index(side)
    taken = [0] * len(board)
    for cell in cubes:
        taken[idx[check_cell(side, cell)]] = 1
    all_cells = cells(side)
    return sorted(all_cells[i] for i in habitat_indices(side, c.id, board, tuple(taken)))


def pattern_cells(card_key: int | str | Card, cell: Cell, rotation: int = 0) -> dict[Cell, str]:
    """The cells a habitat covers when its cube is on ``cell`` and it is turned ``rotation``
    sixths of a turn: ``{cell: code}``, cube cell first (cells may fall off a board)."""
    c = card(card_key)
    q0, r0 = to_axial(tuple(cell))
    out = {tuple(cell): c.cube}
    for dq, dr, code in rotations(c.id)[rotation % 6]:
        out[from_axial((q0 + dq, r0 + dr))] = code
    return out


def stacks_for_code(code: str) -> list[str]:
    """A simple stack (colours bottom to top) of a code, e.g. ``"T2"`` -> brown, green."""
    if code == "W":
        return ["blue"]
    if code == "Y":
        return ["yellow"]
    if code == "BLD":
        return ["gray", "red"]
    h = int(code[1])
    return ["gray"] * h if code[0] == "M" else ["brown"] * (h - 1) + ["green"]
