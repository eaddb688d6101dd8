"""Drawing boards and games: deterministic SVG, and matplotlib for figures.

A stack is drawn as nested hexagons, bottom token outermost, top token in the middle, with
its height written in the centre, so "a tree of height 3" reads at a glance, and its tokens
as letters above it, bottom to top (:data:`LETTERS`: W water/blue, M mountain/grey, T trunk/
brown, L leaves/green, F field/yellow, B building/red), so no colour has to be told by sight
alone.  A cube is a small square marked with its card's number.  The token colours are chosen
so that colour-blind readers tell them apart too (``tests/core/test_palette.py``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from ..core import hexgrid
from ..core.palette import HIGHLIGHT_DARK, HIGHLIGHT_LIGHT, ink_on
from ..core.svg import Svg, SvgImage
from .board import Cell, Stack, cells, check_side, describe_stack, stacks_tuple, to_axial
from .cards import card
from .habitats import stacks_for_code

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from .state import GameState

PALETTE = {"blue": "#2f79b3", "gray": "#9da09f", "brown": "#693b06", "green": "#72bb66",
           "yellow": "#fbed3c", "red": "#c03b56"}
TEXT_ON = {colour: ink_on(fill) for colour, fill in PALETTE.items()}
#: a letter for each token colour, after the landscape it builds
LETTERS = {"blue": "W", "gray": "M", "brown": "T", "green": "L", "yellow": "F", "red": "B"}
LEGEND = "W water (blue) · M mountain (grey) · T trunk (brown) · L leaves (green) · " \
    "F field (yellow) · B building (red)"
EMPTY = "#f4efe1"
HIGHLIGHT = HIGHLIGHT_LIGHT     # drawn over a wider HIGHLIGHT_DARK line (see core.palette)
LEVEL_SCALE = (0.92, 0.64, 0.38)
SIZE = 22.0


def _centre(cell: Cell, size: float, origin: tuple[float, float]) -> tuple[float, float]:
    x, y = hexgrid.to_pixel(to_axial(cell), size, "flat")
    return x + origin[0], y + origin[1]


def _hex_points(centre: tuple[float, float], radius: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hexagon of circumradius ``radius`` around ``centre``."""
    cx, cy = centre
    return [(cx + radius * math.cos(math.radians(60 * k)),
             cy + radius * math.sin(math.radians(60 * k))) for k in range(6)]


@lru_cache(maxsize=64)
def _board_extent(side: str, size: float) -> tuple[float, float, float, float]:
    return hexgrid.bounding_box([to_axial(c) for c in cells(side)], size, "flat")


def draw_board_into(pic: Svg, side: str, board: Sequence[Stack], cubes: Sequence[int] = (),
                    highlight: Iterable[Cell] = (), origin: tuple[float, float] = (0, 0),
                    size: float = SIZE, label: bool = False, clickable: bool = False,
                    badges: Mapping[Cell, str] | None = None, coords: bool = False) -> None:
    """Draw one personal board into ``pic`` with its top-left corner at ``origin``;
    ``clickable`` marks each cell with ``data-cell`` so a click on it names the cell.
    ``badges`` writes a short text (a tick, a step number) in a white disc on a cell, so a
    highlighted cell is marked by more than its outline colour.  ``coords`` writes every
    space's name small at its foot, stacks included (``label`` names empty spaces only)."""
    x0, y0, _, _ = _board_extent(side, size)
    org = (origin[0] - x0, origin[1] - y0)
    marked = {tuple(c) for c in highlight}
    for i, cell in enumerate(cells(side)):
        stack = board[i]
        cube = cubes[i] if cubes else 0
        lit = cell in marked
        try:
            # a board is redrawn after every click with most of its spaces as they were
            shapes, smallest = _space_svg(cell, stack, cube, lit, org, size, label, clickable,
                                          coords)
        except TypeError:   # a stack given as a list: drawn afresh
            shapes, smallest = _space_svg.__wrapped__(cell, stack, cube, lit, org, size, label,
                                                      clickable, coords)
        pic.raw(shapes, smallest)
    for cell, text in (badges or {}).items():
        cx, cy = _centre(tuple(cell), size, org)
        bx, by = cx - size * 0.5, cy - size * 0.4
        pic.circle(bx, by, size * 0.3, fill="white", stroke="black", stroke_width=1.2,
                   title=f"{tuple(cell)} marked {text}")
        pic.text(bx, by, text, size=size * 0.38, font_weight="bold", fill="black")


@lru_cache(maxsize=4096)
def _space_svg(cell: Cell, stack: Stack, cube: int, lit: bool, org: tuple[float, float],
               size: float, label: bool, clickable: bool, coords: bool) -> tuple[str, float]:
    """One space of a board as SVG, and the smallest text size in it (see
    :func:`draw_board_into`)."""
    pic = Svg(0, 0)
    title = f"{cell}: {describe_stack(stack)}"
    owner = card(cube).name if cube > 0 else "a card"
    if cube:
        title += f"; cube of {owner}"
    cx, cy = _centre(cell, size, org)
    pic.polygon(_hex_points((cx, cy), size * 0.97), title=title, fill=EMPTY,
                stroke=HIGHLIGHT_DARK if lit else "#6b6250", stroke_width=5.0 if lit else 1.0,
                data_cell=f"{cell[0]},{cell[1]}" if clickable else None)
    for level, colour in enumerate(stack):
        pic.polygon(_hex_points((cx, cy), size * LEVEL_SCALE[level]),
                    fill=PALETTE[colour], stroke="white", stroke_width=0.8)
    if lit:
        pic.polygon(_hex_points((cx, cy), size * 0.97), fill="none", stroke=HIGHLIGHT,
                    stroke_width=2.0)
    if stack:
        pic.text(cx, cy, str(len(stack)), size=max(9.0, size * 0.42),
                 fill=TEXT_ON[stack[-1]], font_weight="bold")
        _letters(pic, cx, cy - size * 0.6, stack)
    elif label or coords:
        pic.text(cx, cy, f"{cell[0]},{cell[1]}", size=max(8.0, size * 0.32), fill="#7a7050")
    if stack and coords:
        pic.text(cx, cy + size * 0.62, f"{cell[0]},{cell[1]}", size=8.0,
                 fill=TEXT_ON[stack[0]])
    if cube:
        # right of the centre: clear of the letters above and the height in the middle
        s = max(10.0, size * 0.34)
        pic.rect(cx + size * 0.4, cy - s / 2, s, s, fill="#fdfdfd", stroke="black",
                 stroke_width=0.8, title=f"cube of {owner}")
        if cube > 0:
            pic.text(cx + size * 0.4 + s / 2, cy, str(cube), size=8.0)
    return "".join(pic.items), pic.smallest_text


def _letters(pic: Svg, x: float, y: float, stack: Sequence[str]) -> None:
    """The stack's tokens as letters, bottom to top, on a small white label."""
    text = "".join(LETTERS[c] for c in stack)
    w = 4 + 7.5 * len(text)      # wide enough for three Ms or Ws
    pic.rect(x - w / 2, y - 5, w, 10, rx=3, fill="#ffffff", fill_opacity="0.9")
    pic.text(x, y, text, size=8.0, fill="#111111", font_weight="bold")


def board_svg(side: str = "A", stacks: Mapping[Cell, Iterable[str]] | None = None,
              cubes: Mapping[Cell, int | str] | Iterable[Cell] = (),
              highlight: Iterable[Cell] = (), size: float = SIZE, label: bool = True,
              clickable: bool = False, badges: Mapping[Cell, str] | None = None) -> Svg:
    """A personal board drawn as SVG from ``{(col, row): [colours bottom to top]}``.

    ``cubes`` lists cells holding a cube (or maps them to the card); ``highlight`` outlines
    cells (e.g. the result of :func:`habitat_cells`); ``clickable`` and ``badges`` as in
    :func:`draw_board_into`.  The result shows inline in Jupyter."""
    side = check_side(side)
    board = stacks_tuple(side, stacks)
    index = {c: i for i, c in enumerate(cells(side))}
    cube_list = [0] * len(board)
    items = cubes.items() if isinstance(cubes, Mapping) else ((c, 0) for c in cubes)
    for cell, which in items:
        cube_list[index[tuple(cell)]] = card(which).id if which else -1
    x0, y0, x1, y1 = _board_extent(side, size)
    pic = Svg(x1 - x0 + 12, y1 - y0 + 12, background="white")
    draw_board_into(pic, side, board, cube_list, highlight, origin=(6, 6), size=size,
                    label=label, clickable=clickable, badges=badges)
    return pic


def _caption(c: Any) -> str:
    """A card's name and points track (or "spirit")."""
    return f"{c.name} ({'/'.join(map(str, c.points)) if not c.is_spirit else 'spirit'})"


def card_extent(card_key: Any, size: float) -> tuple[float, float]:
    """Width and height :func:`draw_card_into` needs for a card's habitat."""
    c = card(card_key)
    hexes = [(0, 0)] + [(q, r) for q, r, _ in c.others]
    x0, y0, x1, y1 = hexgrid.bounding_box(hexes, size, "flat")
    return max(x1 - x0, 6.6 * len(_caption(c)) + 6) + 12, y1 - y0 + 40


def draw_card_into(pic: Svg, card_key: Any, origin: tuple[float, float] = (0, 0),
                   size: float = 16.0, caption: str | None = None) -> None:
    """Draw a card into ``pic``: its name and points, and its habitat as it is printed (the
    cube's space carries a small square; a building may stand on red, brown or gray)."""
    c = card(card_key)
    w, h = card_extent(c, size)
    pic.rect(origin[0], origin[1], w, h, fill="#fbf7ea", stroke="#8a7d55", stroke_width=1.0,
             title=f"{c.name}: habitat {c.habitat_text()}")
    if caption is None:
        caption = _caption(c)
    pic.text(origin[0] + 6, origin[1] + 10, caption, size=10, anchor="start",
             font_weight="bold")
    hexes = [((0, 0), c.cube)] + [((q, r), code) for q, r, code in c.others]
    x0, y0, _, _ = hexgrid.bounding_box([hx for hx, _ in hexes], size, "flat")
    ox, oy = origin[0] + 6 - x0, origin[1] + 22 - y0
    for (q, r), code in hexes:
        x, y = hexgrid.to_pixel((q, r), size, "flat")
        cx, cy = x + ox, y + oy
        stack = stacks_for_code(code)
        pic.polygon(_hex_points((cx, cy), size * 0.97), fill=EMPTY, stroke="#6b6250",
                    stroke_width=1.0, title=f"{code}: {describe_stack(stack)}")
        for level, colour in enumerate(stack):
            pic.polygon(_hex_points((cx, cy), size * LEVEL_SCALE[level]),
                        fill=PALETTE[colour], stroke="white", stroke_width=0.8)
        text = "B" if code == "BLD" else str(len(stack))
        pic.text(cx, cy, text, size=max(9.0, size * 0.45), fill=TEXT_ON[stack[-1]],
                 font_weight="bold")
        if code != "BLD":
            _letters(pic, cx, cy - size * 0.62, stack)
        if (q, r) == (0, 0):
            # right of the centre: clear of the letters above and the height in the middle
            s = size * 0.42
            pic.rect(cx + size * 0.42, cy - s / 2, s, s, fill="#fdfdfd", stroke="black",
                     stroke_width=1.0, title="the cube goes here")
    if any(code == "BLD" for _, code in hexes):
        pic.text(origin[0] + 6, origin[1] + h - 6, "B: any building", size=8, anchor="start")


def _token_dots(pic: Svg, x: float, y: float, tokens: Sequence[str], r: float = 6.5) -> None:
    """Tokens as discs, each with its letter (:data:`LETTERS`), not told by colour alone."""
    for k, colour in enumerate(tokens):
        cx = x + k * (2 * r + 2)
        pic.circle(cx, y, r, fill=PALETTE[colour], stroke="black", stroke_width=0.6,
                   title=colour)
        pic.text(cx, y, LETTERS[colour], size=8, fill=TEXT_ON[colour], font_weight="bold")


def _face_up_spots(labels: Sequence[str], width: float) -> list[tuple[float, int, float]]:
    """(x, line, width) of each face-up card's label: on as many lines as fit ``width``."""
    spots, x, line = [], 100.0, 0
    for label in labels:
        w = 7 + 5.6 * len(label)
        if x + w > width - 10 and x > 100:
            x, line = 100.0, line + 1
        spots.append((x, line, w))
        x += w + 4
    return spots


def game_svg(state: "GameState", highlight: Iterable[Any] = ()) -> SvgImage:
    """The whole table: central board, face-up cards, and every player's board, cards and
    held tokens; ``highlight`` outlines cells of the current player's board.  Three or four
    players' boards go two to a row, so the table fits a 768-pixel window."""
    size = 18.0
    x0, y0, x1, y1 = _board_extent(state.side, size)
    bw, bh = x1 - x0, y1 - y0
    n = state.num_players
    per_row = min(n, 2)
    col_w = max(bw + 20, 200)
    width = max(per_row * col_w + 20, 560)
    labels = [f"{card(c).name} {'/'.join(map(str, card(c).points))}" for c in state.row]
    spots = _face_up_spots(labels, width)
    top = 88 + 20 * (spots[-1][1] if spots else 0)
    lines = max(len(a.cards) + (1 if a.spirit_offer else 0) for a in state.areas) + 1
    area_h = bh + 14 + 12 * lines + 30
    rows = -(-n // per_row)
    height = top + rows * area_h + 14
    pic = Svg(width, height, background="white")
    status = ("Game over" if state.over else f"{state.player_name(state.player)} to play")
    if state.end_reason:
        status += f" (end triggered: {state.end_reason})"
    if state.solo:
        status += f" — solo result so far: {state.suns()} suns"
    pic.text(10, 10, status, size=12, anchor="start")
    first, second = LEGEND.split(" · L ")
    pic.text(10, height - 20, "Letters on the stacks: " + first, size=8, anchor="start",
             fill="#444444")
    pic.text(10, height - 8, "L " + second, size=8, anchor="start", fill="#444444")
    pic.text(10, 30, "Central board:", size=11, anchor="start")
    for k, space in enumerate(state.central):
        x = 100 + k * 62
        pic.rect(x - 4, 22, 58, 16, fill="#efe6cf", stroke="#b8a77a", stroke_width=0.6,
                 title=f"central space {k + 1}")
        _token_dots(pic, x + 6, 30, space)
    pic.text(100 + len(state.central) * 62 + 6, 30, f"pouch: {len(state.pouch)}", size=10,
             anchor="start")
    pic.text(10, 52, "Face-up cards:", size=11, anchor="start")
    pic.text(10, 64, "(points track)", size=9, anchor="start", fill="#444444")
    for cid, label, (x, line, w) in zip(state.row, labels, spots):
        y = 44 + 20 * line
        pic.rect(x, y, w, 16, fill="#fbf7ea", stroke="#8a7d55", stroke_width=0.6,
                 title=card(cid).habitat_text())
        pic.text(x + w / 2, y + 8, label, size=9)
    _draw_areas(pic, state, list(highlight), top, per_row, col_w, area_h, bh, size)
    return pic.render()


def _draw_areas(pic: Svg, state: "GameState", marked: list, top: float, per_row: int,
                col_w: float, area_h: float, bh: float, size: float) -> None:
    """Each player's board, cards and held tokens, ``per_row`` to a row."""
    scores = state.scores()
    for p, area in enumerate(state.areas):
        ox = 10 + (p % per_row) * col_w
        oy = top + (p // per_row) * area_h
        total = scores[p].total
        pic.text(ox, oy - 12, f"{state.player_name(p)}: {total} point{'' if total == 1 else 's'}",
                 size=11, anchor="start",
                 font_weight="bold" if (p == state.player and not state.over) else None)
        mark = marked if p == state.player else ()
        draw_board_into(pic, state.side, area.stacks, area.cubes, mark, origin=(ox, oy),
                        size=size, clickable=p == state.player and not state.over,
                        badges={tuple(c): "✓" for c in mark
                                if isinstance(c, tuple) and len(c) == 2})
        y = oy + bh + 14
        if p == state.player and state.hand:
            pic.text(ox, y, "holding:", size=9, anchor="start")
            _token_dots(pic, ox + 50, y, state.hand)
            y += 14
        for cid, placed in area.cards:
            c = card(cid)
            tag = "spirit " if c.is_spirit else ""
            pic.text(ox, y, f"{tag}{c.name}: {placed}/{c.cubes} cubes", size=9, anchor="start")
            y += 12
        if area.spirit_offer:
            names = " or ".join(card(s).name for s in area.spirit_offer)
            pic.text(ox, y, f"spirit to keep: {names}", size=9, anchor="start")


def plot_board(side: str = "A", stacks: Mapping[Cell, Iterable[str]] | None = None,
               ax: "Axes | None" = None, highlight: Iterable[Cell] = (),
               title: str | None = None) -> "Axes":
    """Draw a personal board on a matplotlib Axes (created if not given) and return it."""
    import matplotlib.pyplot as plt  # plotting library only when a figure is drawn
    from matplotlib.patches import RegularPolygon  # as above

    side = check_side(side)
    board = stacks_tuple(side, stacks)
    if ax is None:
        _, ax = plt.subplots(figsize=(4, 4))
    marked = {tuple(c) for c in highlight}
    for cell, stack in zip(cells(side), board):
        x, y = hexgrid.to_pixel(to_axial(cell), 1.0, "flat")
        y = -y
        ax.add_patch(RegularPolygon((x, y), 6, radius=0.97, orientation=math.pi / 6,
                                    facecolor=EMPTY,
                                    edgecolor=HIGHLIGHT_DARK if cell in marked else "#6b6250",
                                    linewidth=2.5 if cell in marked else 0.8))
        for level, colour in enumerate(stack):
            ax.add_patch(RegularPolygon((x, y), 6, radius=LEVEL_SCALE[level],
                                        orientation=math.pi / 6,
                                        facecolor=PALETTE[colour], edgecolor="white",
                                        linewidth=0.6))
        if stack:
            ax.text(x, y, str(len(stack)), ha="center", va="center", fontsize=9,
                    color=TEXT_ON[stack[-1]], fontweight="bold")
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.set_axis_off()
    if title:
        ax.set_title(title)
    return ax


def boards_svg(boards: Sequence[tuple[str, Mapping[Cell, Iterable[str]]]], side: str = "A",
               size: float = 15.0, highlight: Mapping[str, Iterable[Cell]] | None = None,
               ) -> SvgImage:
    """Several small boards side by side, each with a caption under it, as one drawing
    (e.g. three river shapes with their scores).  ``highlight`` maps a caption to cells to
    outline and tick on that board."""
    side = check_side(side)
    x0, y0, x1, y1 = _board_extent(side, size)
    bw, bh = x1 - x0, y1 - y0
    col = max(bw + 16, max((6.0 * len(c) for c, _ in boards), default=0) + 10)
    pic = Svg(col * len(boards) + 8, bh + 44, background="white")
    for k, (caption, stacks) in enumerate(boards):
        marked = [tuple(c) for c in (highlight or {}).get(caption, ())]
        ox = 8 + k * col + (col - bw - 16) / 2
        draw_board_into(pic, side, stacks_tuple(side, stacks), (), marked, origin=(ox, 6),
                        size=size, badges={c: "✓" for c in marked})
        pic.text(8 + k * col + (col - 8) / 2, bh + 26, caption, size=11)
    return pic.render()


def stacks_svg(stacks: Sequence[Sequence[str]], labels: Sequence[str] | None = None,
               captions: Sequence[str] | None = None, per_row: int = 7) -> SvgImage:
    """Stacks seen from the side, bottom token at the bottom and each token's colour written
    on it (so a stack reads without telling colours apart); ``labels`` go above the stacks
    (e.g. letters to pick from), ``captions`` under them (e.g. what each stack forms)."""
    col, tok = 92, 20
    rows = max(1, -(-len(stacks) // per_row))
    top = 20 if labels else 6
    row_h = top + 3 * tok + (30 if captions else 16)
    pic = Svg(min(len(stacks), per_row) * col + 10, rows * row_h + 4, background="white")
    for k, stack in enumerate(stacks):
        x = 10 + col * (k % per_row)
        y0 = (k // per_row) * row_h
        base = y0 + top + 3 * tok
        mid = x + (col - 14) / 2
        if labels:
            pic.text(mid, y0 + 10, labels[k], size=14, font_weight="bold")
        for level, colour in enumerate(stack):
            y = base - (level + 1) * tok
            pic.rect(x, y, col - 14, tok - 2, fill=PALETTE[colour], stroke="black",
                     stroke_width=0.8, title=f"token {level + 1}: {colour}")
            pic.text(mid, y + tok / 2 - 1, colour, size=10, fill=TEXT_ON[colour])
        pic.line(x - 4, base + 1, x + col - 10, base + 1, stroke="#6b6250", stroke_width=2)
        if captions:
            for j, line in enumerate(captions[k].split("\n")[:2]):
                pic.text(mid, base + 11 + 11 * j, line, size=9)
    return pic.render()
