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

from bisect import bisect_left
from functools import lru_cache
from typing import Any, Iterable, Mapping

from ..core import hexgrid
from ..core.memo import keep
from .board import COLOURS, Cell, Stack, cell_index, cells, check_cell, check_side, from_axial, \
    legal_stacks, stacks_tuple, to_axial
from .cards import STACK_CODES, Card, card

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
    out = []
    for cell in cells(side):
        q0, r0 = to_axial(cell)
        fits = []
        for rot in rotations(card_id):
            spots = []
            for dq, dr, code in rot:
                other = idx.get(from_axial((q0 + dq, r0 + dr)))
                if other is None:
                    break
                spots.append((other, code))
            else:
                fits.append(tuple(spots))
        out.append((idx[cell], tuple(fits)))
    return tuple(out)


@lru_cache(maxsize=None)
def _pattern(side: str, card_id: int) -> tuple[str, tuple]:
    """The card's cube code, and for each board index the on-board placements of the pattern
    with its cube there (see :func:`_layout`; none where it falls off the board)."""
    fits_at: list[tuple] = [()] * len(cells(side))
    for i, fits in _layout(side, card_id):
        fits_at[i] = fits
    return card(card_id).cube, tuple(fits_at)


@lru_cache(maxsize=None)
def _touching(side: str, card_id: int) -> tuple[tuple[int, ...], ...]:
    """For each board index ``i``: the indices where the card's cube could sit with ``i`` in
    its habitat (``i`` itself, and every cube index of a placement covering ``i``), sorted.
    A token that changes the code at ``i`` can change the card's habitats there only."""
    fits_at = _pattern(side, card_id)[1]
    near: list[set[int]] = [{i} for i in range(len(fits_at))]
    for j, fits in enumerate(fits_at):
        for spots in fits:
            for i, _ in spots:
                near[i].add(j)
    return tuple(tuple(sorted(found)) for found in near)


#: (side, card) -> its cube's code, placements and touching indices (see above), together
_REFITS: dict[tuple[str, int], tuple[str, tuple, tuple]] = {}


def _refit(side: str, card_id: int, found: tuple[int, ...], i: int, codes: list,
           cubes: tuple[int, ...]) -> tuple[int, ...]:
    """The card's habitats after the code at index ``i`` changed: ``found`` (the habitats
    before) looked at again only where the change can matter (see :func:`_touching`)."""
    looked = _REFITS.get((side, card_id))
    if looked is None:
        looked = _REFITS[(side, card_id)] = (*_pattern(side, card_id),
                                             _touching(side, card_id))
    target, fits_at, touching = looked
    near = touching[i]
    # (most cards have no habitat yet: then no list is made unless one opens, and the new
    # ones come in index order)
    out = [j for j in found if j not in near] if found else None
    for j in near:
        if codes[j] == target and not cubes[j] and _placed(fits_at[j], codes):
            if out is None:
                out = [j]
            else:
                out.append(j)
    if out is None:
        return found
    if found:
        out.sort()
    return tuple(out)


@lru_cache(maxsize=None)
def _on_top() -> dict[Stack, frozenset[str]]:
    """For each stack the chart allows, the colours that may go on top of it."""
    out: dict[Stack, set[str]] = {}
    for stack in legal_stacks():
        out.setdefault(stack[:-1], set()).add(stack[-1])
    return {s: frozenset(c) for s, c in out.items()}


_USED: dict[int, frozenset[str]] = {}


def _used_codes(card_id: int) -> frozenset[str]:
    """Every code the card's habitat uses, its cube's included."""
    used = _USED.get(card_id)
    if used is None:
        c = card(card_id)
        used = _USED[card_id] = frozenset([c.cube, *(code for _, _, code in c.others)])
    return used


#: the one code (if any) each stack shows; filled in as stacks turn up
_CODES: dict[Stack, str | None] = {}


def stack_code(stack: Stack) -> str | None:
    """The code of the stack (``"T2"``, ``"BLD"``...), or ``None`` when no habitat code
    names it.  No stack matches two codes, so ``stack_matches(code, stack)`` is the same as
    ``stack_code(stack) == code`` for the codes of the cards."""
    try:
        return _CODES[stack]
    except (KeyError, TypeError):
        pass
    found = [code for code in STACK_CODES if stack_matches(code, stack)]
    code = found[0] if len(found) == 1 else None
    if len(_CODES) < 4096:  # legal stacks are few; odd ones from outside are not kept
        try:
            _CODES[stack] = code
        except TypeError:   # a list given as a stack
            pass
    return code


def _fitting(fits_at: tuple, target: str, codes: list | tuple,
             cubes: tuple[int, ...] | None) -> list[int]:
    """The board indices showing ``target`` and free of cubes where, in some placement of
    ``fits_at`` (see :func:`_pattern`), every other cell of the pattern shows its code.  The
    indices showing ``target`` are found by ``codes.index`` (few of them do)."""
    out = []
    find = codes.index
    i = -1
    for _ in range(codes.count(target)):
        i = find(target, i + 1)
        if (cubes is None or not cubes[i]) and _placed(fits_at[i], codes):
            out.append(i)
    return out


def _placed(fits: tuple, codes: list | tuple) -> bool:
    """True when in one of the placements ``fits`` (each ``(index, code)`` pairs, see
    :func:`_pattern`) every index shows its code."""
    for spots in fits:
        for j, code in spots:
            if codes[j] != code:
                break
        else:
            return True
    return False


def habitat_indices(side: str, card_id: int, stacks: tuple[Stack, ...],
                    cubes: tuple[int, ...] | None = None) -> list[int]:
    """Board indices where the card's cube may go now, worked out from scratch (a game keeps
    them with each board, see :class:`BoardView`)."""
    target, fits_at = _pattern(side, card_id)
    return _fitting(fits_at, target, tuple(map(stack_code, stacks)), cubes)


_NOWHERE: frozenset[str] = frozenset()

#: a mask is looked up in three pieces: bits 0 to 8, bits 9 to 16, and the bits above
#: (boards have at most 25 spaces: each piece has few values, soon all seen)
_CUTS = (0, 9, 17)


class Picker:
    """``table[i]`` for each bit ``i`` set in a mask, in index order, made of three ready
    pieces: the items of each piece of the mask (see ``_CUTS``), each worked out once per
    value of the piece (``table`` is a side's ready-made actions of one colour or card)."""

    __slots__ = ("table", "pieces")

    def __init__(self, table: tuple) -> None:
        self.table = table
        #: for each piece: its bits (shifted down) -> the table's items at them
        self.pieces: tuple[dict[int, tuple], ...] = tuple({} for _ in _CUTS)

    def __call__(self, mask: int) -> tuple:
        out: list = []
        self.add_to(out, mask)
        return tuple(out)

    def add_to(self, out: list, mask: int) -> None:
        """Add the items at the set bits of ``mask`` to the list ``out`` (see
        :func:`add_picked`)."""
        add_picked(out, mask, (self.entry(0),))

    def entry(self, shift: int) -> tuple:
        """What :func:`add_picked` needs to pick from this table the bits of a mask that
        starts at bit ``shift`` of a packed number: the shift, the picker and its pieces."""
        return (shift, self, *self.pieces)

    def piece(self, k: int, bits: int) -> tuple:
        """The items at the set bits of piece ``k`` holding ``bits`` (kept)."""
        table = self.table
        start = _CUTS[k]
        found = self.pieces[k][bits] = tuple(table[start + j] for j in range(bits.bit_length())
                                             if bits >> j & 1)
        return found


#: id(table) -> its picker (tables are a side's ready-made actions: few, kept for good)
_PICKERS: dict[int, Picker] = {}


def picker(table: tuple) -> Picker:
    """The :class:`Picker` of ``table`` (one per table, made when first asked for)."""
    found = _PICKERS.get(id(table))
    if found is None or found.table is not table:
        if len(_PICKERS) > 256:
            _PICKERS.clear()
        found = _PICKERS[id(table)] = Picker(table)
    return found


def add_picked(out: list, masks: int, picks: tuple) -> None:
    """Add to the list ``out``, for each entry of ``picks`` (see :meth:`Picker.entry`), the
    picker's items at the set bits of the mask that starts at the entry's shift in
    ``masks``, piece by piece (no tuple made of the three).  The listing of legal actions
    picks the token actions of every colour of a hand this way, in one call."""
    for shift, pick, first, second, third in picks:
        mask = masks >> shift & _FULL
        got = first.get(mask & 511)
        out += got if got is not None else pick.piece(0, mask & 511)
        mask >>= 9
        if mask:
            got = second.get(mask & 255)
            out += got if got is not None else pick.piece(1, mask & 255)
            mask >>= 8
            if mask:
                got = third.get(mask)
                out += got if got is not None else pick.piece(2, mask)


def select(table: tuple, mask: int) -> tuple:
    """``table[i]`` for each bit ``i`` set in ``mask``, in index order (see :class:`Picker`).

    >>> select(("a", "b", "c"), 0b101)
    ('a', 'c')
    """
    return picker(table)(mask)


#: bits given to each colour in a view's packed masks (boards have at most 25 spaces)
MASK_WIDTH = 32
_FULL = (1 << MASK_WIDTH) - 1
#: position of each colour in the packed masks
_COLOUR_NO = {c: n for n, c in enumerate(COLOURS)}
#: one bit per colour, at its mask's bit 0
_EVERY_COLOUR = sum(1 << (MASK_WIDTH * n) for n in range(len(COLOURS)))


def _colour_bits(colours: Iterable[str]) -> int:
    """The packed-mask bits, at index 0, of the colours of the game among ``colours``."""
    return sum(1 << (MASK_WIDTH * _COLOUR_NO[c]) for c in colours if c in _COLOUR_NO)


#: (stack before, stack after) -> (the code after, the colours that may go on top before but
#: not after, or after but not before, as packed bits at index 0)
_STEPS: dict[tuple[Stack, Stack], tuple[str | None, int]] = {}


def _step(before: Stack, after: Stack) -> tuple[str | None, int]:
    found = _STEPS.get((before, after))
    if found is None:
        on_top = _on_top()
        flip = on_top.get(before, _NOWHERE) ^ on_top.get(after, _NOWHERE)
        found = (stack_code(after), _colour_bits(flip))
        if len(_STEPS) < 4096:      # legal stacks are few; odd ones are not kept
            _STEPS[(before, after)] = found
    return found


#: (stack, colour) -> (the stack with the colour on top, and its step: see :func:`grown`)
_GROWN: dict[tuple[Stack, str], tuple[Stack, tuple[str | None, int]]] = {}


def grown(stack: Stack, colour: str) -> tuple[Stack, tuple[str | None, int]]:
    """``stack`` with a ``colour`` token on top (one tuple kept for each legal stack and
    colour), and the step for :meth:`BoardView.with_token`: the code of the new stack and the
    colours that may go on top before but not after, or after but not before."""
    found = _GROWN.get((stack, colour))
    if found is None:
        after = stack + (colour,)
        found = (after, _step(stack, after))
        if after in legal_stacks():     # odd stacks from outside are not kept
            _GROWN[(stack, colour)] = found
    return found


class BoardView:
    """What one board (its stacks and cubes) allows, worked out once and shared.

    A game's areas never change, so the view of an area is kept with it (see
    :func:`board_view`).  An area made from another by one token or one cube gets a view
    derived from the old one (:meth:`with_token`, :meth:`with_cube`), which looks at the one
    changed index only.  Where each colour may be placed is kept as a bit mask per colour
    (bit ``i`` for board index ``i``), the six packed in one number (``masks``, colour ``n``
    of :data:`~pangaea_lab.harmonies.board.COLOURS` from bit ``32 n``), updated at that index
    at once; the token actions of a colour are picked from a side's ready-made ones by its
    mask (see :class:`Picker`).  Each card's habitats the old view had are passed on when the
    change cannot matter to them (a cube takes its index out of them; a token matters only if
    the stack's code there was or becomes one the card uses), else looked at again only at
    the indices whose habitat covers the changed one (see :func:`_touching`).
    ``stacks_memo`` holds results that depend on the stacks alone (kept when only a cube is
    added; made when first asked for)."""

    __slots__ = ("side", "stacks", "cubes", "codes", "masks", "_habitats", "_memo")

    def __init__(self, side: str, stacks: tuple[Stack, ...], cubes: tuple[int, ...],
                 codes: list | None = None, stacks_memo: dict | None = None,
                 masks: int | None = None) -> None:
        if len(stacks) > MASK_WIDTH:
            raise ValueError(f"a board of {len(stacks)} spaces is larger than any side")
        self.side, self.stacks, self.cubes = side, stacks, cubes
        #: the code each stack shows (see :func:`stack_code`); never changed in place
        self.codes = list(map(stack_code, stacks)) if codes is None else codes
        if masks is None:
            on_top = _on_top()
            masks = 0
            for i, stack in enumerate(stacks):
                if not cubes[i]:
                    masks |= _colour_bits(on_top.get(stack, _NOWHERE)) << i
        self.masks = masks
        #: card -> (the indices where its cube may go, the codes its habitat uses, and once
        #: asked for (see :meth:`habitats_in`) a caller's table and the table's items at
        #: those indices, else ``None`` twice): one entry per card, carried on together
        self._habitats: dict[int, tuple] = {}
        self._memo = stacks_memo

    @property
    def stacks_memo(self) -> dict:
        """Results that depend on the stacks alone (shared by the views of the same stacks)."""
        memo = self._memo
        if memo is None:
            memo = self._memo = {}
        return memo

    # ----- the results ---------------------------------------------------------------------

    def colour_mask(self, colour: str) -> int:
        """Bit mask of the board indices where a ``colour`` token may go."""
        n = _COLOUR_NO.get(colour)
        return 0 if n is None else self.masks >> (MASK_WIDTH * n) & _FULL

    def habitats(self, card_id: int) -> tuple[int, ...]:
        """Board indices where the card's cube may go (same as :func:`habitat_indices`)."""
        entry = self._habitats.get(card_id)
        if entry is None:
            target, fits_at = _pattern(self.side, card_id)
            found = tuple(_fitting(fits_at, target, self.codes, self.cubes))
            entry = self._habitats[card_id] = (found, _used_codes(card_id), None, None)
        return entry[0]

    def token_spots(self, colour: str) -> tuple[int, ...]:
        """Board indices where a ``colour`` token may go (no cube there, and the stacking
        chart allows it on the stack)."""
        mask = self.colour_mask(colour)
        return tuple(i for i in range(len(self.stacks)) if mask >> i & 1)

    def habitats_in(self, card_id: int, table: tuple) -> tuple:
        """``table[i]`` for each index of :meth:`habitats` (``table`` must always be the same
        for a card: a side's ready-made actions, say); kept like the indices."""
        entry = self._habitats.get(card_id)
        if entry is None or entry[2] is None:
            self.habitats(card_id)
            found, used = self._habitats[card_id][:2]
            entry = self._habitats[card_id] = (found, used, table,
                                               tuple([table[i] for i in found]))
        return entry[3]

    def token_spots_in(self, colour: str, table: tuple) -> tuple:
        """``table[i]`` for each index of :meth:`token_spots`."""
        return select(table, self.colour_mask(colour))

    # ----- deriving from the previous board ----------------------------------------------

    def with_token(self, i: int, stacks: tuple[Stack, ...],
                   step: tuple[str | None, int] | None = None) -> "BoardView":
        """The view of ``stacks``, which differ from this board's at index ``i`` only
        (``step``: what :func:`grown` gave for the change there, if the caller has it)."""
        new = _NEW(BoardView)
        new.side, new.stacks, new.cubes, new._memo = self.side, stacks, self.cubes, None
        code, flip = step or _STEPS.get((self.stacks[i], stacks[i])) \
            or _step(self.stacks[i], stacks[i])
        # the colours that may go on top change at index i (a cube there: never by the
        # rules; nothing may go there before or after)
        new.masks = self.masks ^ (flip << i) if flip and not self.cubes[i] else self.masks
        codes = self.codes
        was = codes[i]
        if was == code:
            # no habitat can tell the difference: the two views share what they work out
            # (the same codes and cubes give the same habitats)
            new.codes = codes
            new._habitats = self._habitats
            return new
        new.codes = codes = codes.copy()
        codes[i] = code
        new._habitats = habitats = {}
        side, cubes = self.side, self.cubes
        for key, entry in self._habitats.items():
            used = entry[1]
            if was in used or code in used:
                # the change may matter to the habitat: looked at again around index i
                before = entry[0]
                found = _refit(side, key, before, i, codes, cubes)
                if found != before:
                    table = entry[2]
                    entry = (found, used, None, None) if table is None else \
                        (found, used, table, tuple([table[j] for j in found]))
            habitats[key] = entry
        return new

    def with_cube(self, i: int, cubes: tuple[int, ...]) -> "BoardView":
        """The view after a cube is put on index ``i`` (the stacks do not change)."""
        masks = self.masks & ~(_EVERY_COLOUR << i)
        new = BoardView(self.side, self.stacks, cubes, self.codes, self.stacks_memo, masks)
        # a cube on index i takes it out of every habitat
        habitats = new._habitats
        for key, entry in self._habitats.items():
            found = entry[0]
            k = bisect_left(found, i)
            if k < len(found) and found[k] == i:
                found = found[:k] + found[k + 1:]
                items = entry[3]
                entry = (found, entry[1], entry[2],
                         None if items is None else items[:k] + items[k + 1:])
            habitats[key] = entry
        return new


def _blank() -> BoardView:
    return BoardView.__new__(BoardView)


_NEW = BoardView.__new__


def board_view(side: str, area: Any) -> BoardView:
    """The :class:`BoardView` of a player area (anything with ``stacks`` and ``cubes``),
    made on first use and kept on the area, which never changes."""
    view = getattr(area, "_view", None)
    if view is None or view.side != side or view.stacks is not area.stacks \
            or view.cubes is not area.cubes:
        view = keep(area, "_view", BoardView(side, area.stacks, area.cubes))
    return view


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
