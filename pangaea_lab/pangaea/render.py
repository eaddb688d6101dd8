"""Drawing a Dawn of Pangaea position: SVG for notebooks and widgets, matplotlib for figures.

Land Spaces are coloured by biome (with the biome's initial), Water Spaces blue, the Sacred
Mountain grey.  Trees are triangles, Seeds small dots, Spirits ringed discs, each with its
player's initial; Blessing Tokens gold diamonds with their initial.  The colours that carry
meaning are the tables below, chosen so that readers with any of the common colour vision
deficiencies tell them apart (``tests/core/test_palette.py`` checks them).  Every space shows its (q, r) coordinates, which are the
names actions use.

The variants add to the picture through their drawings (:class:`Drawing`, registered by
their own drawing modules, :mod:`.coop_render` and :mod:`.woods_render`): a wash over Land
Spaces, Trees with levels (one tier per level and the level in a small disc), several Seeds on
one space (a row of discs with their counts, the majority first, ringed in gold), layers of
their own pieces, and status lines.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from ..core import hexgrid
from ..core.palette import HIGHLIGHT_DARK, HIGHLIGHT_LIGHT, ink_on
from ..core.exercises import plural
from ..core.svg import Svg, hex_canvas
from .board import Board
from .edition import BLESSING_KINDS
from .rituals import NOBODY
from .state import PLAYER_NAMES
from .variant import Variant, active

SIZE = 26.0
BIOME_COLOURS = {"Wind": "#f2ffa3", "Sun": "#f5d704", "Rain": "#77ecbe", "Snow": "#d0ebff"}
FALLBACK = ("#e0c9a6", "#c9d6e0", "#e6c3d8", "#d0e6c3")
WATER, MOUNTAIN = "#7fb6dd", "#a3a3a3"
PLAYER_COLOURS = ("#d5293a", "#0876ff", "#f8a60e", "#743975")
# Ancient Guardians: offset from the space's centre (so they do not hide what is there), colour
#: where each Ancient stands on a space (beside the middle, clear of the biome's name above
#: it and of a Seed's label below it)
ANCIENT_MARKS = {"Okuma": (17.0, 0.0, "#7b4a1e"), "Chelon": (-17.0, 0.0, "#2e7d32"),
                 "Thorondal": (-17.0, 12.0, "#b8860b")}
PATH_COLOURS = ("#fe8e25", "#14cfc8", "#83115a", "#264008", "#4426ff", "#8c7558")
HIGHLIGHT = HIGHLIGHT_LIGHT


def biome_colour(board_biomes: Sequence[str], biome: str) -> str:
    if biome in BIOME_COLOURS:
        return BIOME_COLOURS[biome]
    return FALLBACK[list(board_biomes).index(biome) % len(FALLBACK)] if biome in board_biomes else "#ddd"


def _edge(a: hexgrid.Hex, b: hexgrid.Hex) -> tuple[tuple[float, float], tuple[float, float]]:
    """The shared edge between two neighbouring hexes, as two points."""
    ax, ay = hexgrid.to_pixel(a, SIZE)
    bx, by = hexgrid.to_pixel(b, SIZE)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    pts = sorted(hexgrid.corners(a, SIZE), key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)
    return pts[0], pts[1]


def _canvas(cells: list[hexgrid.Hex], extra_bottom: float, min_width: float) -> Svg:
    """The picture's canvas: the hexes with a margin and room below for the status lines, at
    least ``min_width`` wide (the continent centred)."""
    if not min_width:
        return hex_canvas(cells, SIZE, margin=12, extra_bottom=extra_bottom,
                          background="#ffffff")
    x0, y0, x1, y1 = hexgrid.bounding_box(cells, SIZE)
    width = max(x1 - x0 + 24, min_width)
    return Svg(width, y1 - y0 + 24 + extra_bottom, min_x=(x0 + x1 - width) / 2, min_y=y0 - 12,
               background="#ffffff")


def _inner_hex(pic: Svg, cell: hexgrid.Hex, scale: float, title: str | None = None,
               **attrs: Any) -> None:
    """A smaller hexagon centred on a space (outlines, Scourge, Storm washes)."""
    (x, y), (sx, sy) = hexgrid.to_pixel(cell, SIZE), hexgrid.to_pixel(cell, SIZE * scale)
    pic.hexagon(cell, SIZE * scale, origin=(x - sx, y - sy), title=title, **attrs)


def _is_path(cells: Sequence[hexgrid.Hex]) -> bool:
    return len(cells) >= 2 and all(hexgrid.distance(a, b) == 1 for a, b in zip(cells, cells[1:]))


def board_svg(state: Any = None, highlight: Iterable[Any] = (), paths: Sequence[Sequence] = (),
              board: Board | None = None, show_coords: bool = True, status: bool = True,
              chain: bool = True, labels: Mapping[Any, str] | None = None,
              path_labels: Sequence[str] = (), letters: bool = True) -> str:
    """The continent with everything on it.  ``highlight`` outlines spaces (an ordered chain of
    adjacent spaces is also drawn as a path, unless ``chain=False``, e.g. for a set of spaces
    such as a sowing range); ``paths`` draws several paths in distinct colours.

    So that nothing is told by colour alone: ``labels`` puts a short text (a letter, a step
    number) in a badge on spaces, ``path_labels`` a label at the end of each of ``paths``, and
    ``letters`` (on unless ``letters=False``) writes each player's initial on their Trees
    and Seeds."""
    board = board if board is not None else state.board
    biomes = sorted(set(board.biome))
    drawings = drawings_of(state)
    wide = max((d.width for d in drawings), default=0.0) if status else 0.0
    cells = list(board.cells) + list(board.mountain)
    below = 24.0
    if status and state is not None:
        rows = _player_rows(state, _canvas(cells, 0, wide).width)
        more = _more_lines(drawings, state)
        below = _rows_height(drawings, rows) + 52 + 20 * (len(more) + 1)
    pic = _canvas(cells, below, wide)
    washing = next((d for d in drawings if d.washes(state)), None)
    # spaces
    if washing is not None:
        for i, cell in enumerate(board.cells):
            _space(pic, board, biomes, i, cell, show_coords, state, washing)
    else:
        pic.raw(*_drawn(board, "spaces", show_coords))
    # the Sacred Mountain, tile borders
    pic.raw(*_drawn(board, "mountain", show_coords))
    if state is not None:
        _pieces(pic, state, drawings, letters)
        for d in drawings:
            d.over_pieces(pic, state)
    # highlights
    hl = [tuple(h) for h in highlight if isinstance(h, (tuple, list)) and len(h) == 2]
    for cell in hl:
        if cell in board.index:
            _inner_hex(pic, cell, 0.9, fill="none", stroke=HIGHLIGHT_DARK, stroke_width=5)
            _inner_hex(pic, cell, 0.9, fill="none", stroke=HIGHLIGHT, stroke_width=2.2)
    drawn = list(paths) + ([hl] if chain and _is_path(hl) else [])
    for k, path in enumerate(drawn):
        colour = PATH_COLOURS[k % len(PATH_COLOURS)]
        off = (k - (len(drawn) - 1) / 2) * 3.0
        pts = [(x + off, y + off) for x, y in (hexgrid.to_pixel(tuple(c), SIZE) for c in path)]
        pic.polyline(pts, stroke=colour, stroke_width=3.2, stroke_linejoin="round",
                     stroke_linecap="round", opacity="0.85")
        for x, y in (pts[0], pts[-1]):
            pic.circle(x, y, 4, fill=colour)
        if k < len(path_labels) and path_labels[k]:   # on the path's middle, beside it
            x, y = pts[len(pts) // 2]
            text = str(path_labels[k])
            w = 7 + 5.2 * len(text)
            pic.rect(x + 4, y - 17, w, 13, rx=4, fill="#ffffff", stroke=colour, stroke_width=2)
            pic.text(x + 4 + w / 2, y - 10.5, text, size=8.5, fill="#111111", font_weight="bold")
    for cell, text in (labels or {}).items():
        cell = tuple(cell)
        if cell in board.index and text:
            x, y = hexgrid.to_pixel(cell, SIZE)
            pic.circle(x + 12, y - 12, 7.5, fill="#111111", stroke=HIGHLIGHT, stroke_width=1.5)
            pic.text(x + 12, y - 12, str(text), size=8.5, fill="#ffffff", font_weight="bold")
    if status and state is not None:
        _status(pic, state, drawings, more)
    return pic.render()


def _space(pic: Svg, board: Board, biomes: list[str], i: int, cell: hexgrid.Hex,
           show_coords: bool, state: Any = None, washing: Drawing | None = None) -> None:
    """One space of the continent (with a variant's wash over a Land Space of ``state``,
    e.g. an Elemental Storm's, when ``washing`` gives one)."""
    fill = WATER if board.terrain[i] == "water" else biome_colour(biomes, board.biome[i])
    pic.hexagon(cell, SIZE, fill=fill, stroke="#ffffff", stroke_width=1.0,
                title=f"{cell} {board.biome[i]} {board.terrain[i]}",
                data_cell=f"{cell[0]},{cell[1]}")   # a click on it names the space
    if washing is not None and board.terrain[i] == "land":
        washing.wash(pic, state, i, biomes)
    x, y = hexgrid.to_pixel(cell, SIZE)
    if board.terrain[i] == "land":
        pic.text(x, y - SIZE * 0.55, board.biome[i][:2], size=8, fill="#333333")
    if show_coords:
        pic.text(x, y + SIZE * 0.62, f"{cell[0]},{cell[1]}", size=8, fill="#222222")
    if board.blessing_marked[i]:
        pic.circle(x, y - SIZE * 0.5, 2.2, fill="#ffffff", stroke="none")


@lru_cache(maxsize=64)
def _drawn(board: Board, part: str, show_coords: bool) -> tuple[str, float]:
    """A part of the picture that depends on the board alone, drawn once per board: its
    ``"spaces"`` or its Sacred Mountain and tile borders (``"mountain"``), as an SVG
    fragment and the smallest font size in it (for :meth:`Svg.raw`)."""
    pic = Svg(0, 0)
    if part == "spaces":
        biomes = sorted(set(board.biome))
        for i, cell in enumerate(board.cells):
            _space(pic, board, biomes, i, cell, show_coords)
        return "".join(pic.items), pic.smallest_text
    for cell in board.mountain:
        pic.hexagon(cell, SIZE, fill=MOUNTAIN, stroke="#8a8a8a", stroke_width=0.8,
                    title="Sacred Mountain")
    if board.mountain:
        cx, cy = hexgrid.to_pixel((0, 0), SIZE)
        pic.polygon([(cx - 14, cy + 8), (cx, cy - 14), (cx + 14, cy + 8)], fill="#6f6f6f")
        pic.text(cx, cy + 16, "Sacred Mountain", size=8, fill="#111111")
    for i, cell in enumerate(board.cells):
        for n in hexgrid.neighbours(cell):
            j = board.index.get(n)
            if j is None or board.tile_of[j] != board.tile_of[i]:
                (x1, y1), (x2, y2) = _edge(cell, n)
                pic.line(x1, y1, x2, y2, stroke="#5a4a3a", stroke_width=1.8, stroke_linecap="round")
    return "".join(pic.items), pic.smallest_text


# A Tree's outline by level, relative to the space's centre: one tier per level (a level-1
# Tree is the plain triangle of the base game), the tiers drawn as one notched polygon.
def to_svg(state: Any, highlight: Iterable[Any] = ()) -> str:
    """A state's picture for ``state.to_svg(highlight)`` (the game binds this function)."""
    return board_svg(state, highlight=highlight)


TREE_SHAPES = {
    1: ((-9, 7), (0, -10), (9, 7)),
    2: ((-9, 7), (-3.6, 1), (-7, 1), (0, -11), (7, 1), (3.6, 1), (9, 7)),
    3: ((-9, 7), (-3.86, 3), (-7.5, 3), (-3.33, -2), (-6, -2), (0, -11), (6, -2), (3.33, -2),
        (7.5, 3), (3.86, 3), (9, 7)),
}


def _tree(pic: Svg, x: float, y: float, colour: str, title: str, level: int = 1) -> None:
    """A Tree; from level 2 on with a tier per level and its level in a disc."""
    shape = TREE_SHAPES[min(max(level, 1), 3)]
    pic.polygon([(x + dx, y + dy) for dx, dy in shape], fill=colour, stroke="#1e1e1e",
                stroke_width=1.0, title=title)
    pic.rect(x - 1.8, y + 7, 3.6, 3.5, fill="#5b3a1e")
    if level > 1:
        pic.circle(x + 10, y - 6, 4.8, fill="#ffffff", stroke=colour, stroke_width=1.4,
                   title=title)
        pic.text(x + 10, y - 6, str(level), size=8, fill="#1e1e1e", font_weight="bold")


def _seed_stack(pic: Svg, x: float, y: float, cell: Any, stack: Sequence[int],
                holder: int) -> None:
    """Several Seeds on one space: a disc per colour with its count, the majority
    holder first and ringed in gold; one title tells the whole stack."""
    order = [holder] + [p for p, n in enumerate(stack) if n and p != holder]
    title = (f"Seeds on {cell}: "
             + ", ".join(f"{PLAYER_NAMES[p]} {stack[p]}" for p in order)
             + f" ({PLAYER_NAMES[holder]} holds the majority)")
    step = 11.0
    x0 = x - step * (len(order) - 1) / 2
    for k, p in enumerate(order):
        cx = x0 + k * step
        pic.circle(cx, y, 5.5, fill=PLAYER_COLOURS[p],
                   stroke="#e3b505" if p == holder else "#ffffff",
                   stroke_width=2.0 if p == holder else 1.2, title=title)
        pic.text(cx, y, str(stack[p]), size=8, fill=ink_on(PLAYER_COLOURS[p]),
                 font_weight="bold")


def _pieces(pic: Svg, state: Any, drawings: tuple[Drawing, ...], letters: bool = False) -> None:
    board = state.board
    tops, stacks = _tiers(drawings, state)
    for i, cell in enumerate(board.cells):
        x, y = hexgrid.to_pixel(cell, SIZE)
        if state.trees[i] != NOBODY:
            p = state.trees[i]
            tall = 1 + tops[i] if tops is not None else 1
            title = f"{PLAYER_NAMES[p]} Tree on {cell}" + (
                f", level {tall} ({tall - 1} Treetop{'' if tall == 2 else 's'})"
                if tops is not None else "")
            _tree(pic, x, y, PLAYER_COLOURS[p], title, tall)
            if letters:
                pic.text(x, y + 2, PLAYER_NAMES[p][0], size=8, fill=ink_on(PLAYER_COLOURS[p]),
                         font_weight="bold")
        if state.seeds[i] != NOBODY:
            p = state.seeds[i]
            stack = stacks[i] if stacks is not None else ()
            if sum(stack) > 1:
                _seed_stack(pic, x, y, cell, stack, p)
            else:
                pic.circle(x, y, 5.5, fill=PLAYER_COLOURS[p], stroke="#ffffff", stroke_width=1.5,
                           title=f"{PLAYER_NAMES[p]} Seed on {cell}")
                if letters:
                    pic.text(x, y, PLAYER_NAMES[p][0].lower(), size=8, fill=ink_on(PLAYER_COLOURS[p]),
                             font_weight="bold")
        kind = state.board_blessings[i]
        if kind:
            pic.polygon([(x, y - 9), (x + 7, y), (x, y + 9), (x - 7, y)], fill="#e3b505",
                        stroke="#7a5c00", stroke_width=0.8, title=f"{kind} Blessing on {cell}")
            pic.text(x, y, kind[0], size=8, fill="#3a2a00", font_weight="bold")
    for d in drawings:
        d.under_spirits(pic, state)
    for p, i in enumerate(state.spirits):
        if i != NOBODY:
            x, y = hexgrid.to_pixel(board.cells[i], SIZE)
            pic.circle(x, y, 10, fill=PLAYER_COLOURS[p], stroke="#ffffff", stroke_width=2.5,
                       title=f"{PLAYER_NAMES[p]} Spirit on {board.cells[i]}")
            pic.text(x, y, PLAYER_NAMES[p][0] + "S" if letters else "S", size=8 if letters else 9,
                     fill=ink_on(PLAYER_COLOURS[p]), font_weight="bold")
    for name, i in zip(("Okuma", "Chelon", "Thorondal"), getattr(state, "ancients", ())):
        if i != NOBODY:
            x, y = hexgrid.to_pixel(board.cells[i], SIZE)
            dx, dy, fill = ANCIENT_MARKS[name]
            pic.circle(x + dx, y + dy, 7.5, fill=fill, stroke="#ffffff", stroke_width=1.5,
                       title=f"{name} on {board.cells[i]}")
            pic.text(x + dx, y + dy, name[:2], size=8, fill="#ffffff", font_weight="bold")


#: a status line's height; the most a character of a status line takes (9.5 px, upper bound)
LINE, CHAR = 18.0, 9.5 * 0.6


class Drawing:
    """What a variant adds to the drawing of a position: the drawing hooks, each drawing
    nothing until a variant's drawing module gives its own and registers it
    (:func:`add_drawing`).  The base drawing asks the drawings of the state's variants (in
    the order the rules ask the variants) at each of these points."""

    #: the least width of the picture when it has its status lines (0: the board's)
    width = 0.0
    #: the height of the variant's row under each player's status lines (0: none)
    row_height = 0.0

    def washes(self, state: Any) -> bool:
        """Whether Land Spaces get a wash this time (:meth:`wash`)."""
        return False

    def wash(self, pic: Svg, state: Any, i: int, biomes: Sequence[str]) -> None:
        """Over Land Space ``i``, under its labels."""

    def treetops(self, state: Any) -> Sequence[int] | None:
        """The tiers above level 1 of the Tree on each space, when Trees have levels."""
        return None

    def seed_stacks(self, state: Any) -> Sequence[Sequence[int]] | None:
        """Each space's Seeds by player, when a space may hold several."""
        return None

    def under_spirits(self, pic: Svg, state: Any) -> None:
        """A layer over the Trees, Seeds and Blessings, under the Spirits."""

    def over_pieces(self, pic: Svg, state: Any) -> None:
        """A layer over all the pieces, under the highlights."""

    def phase(self, state: Any) -> str:
        """Words after the round in the first status line."""
        return ""

    def player_row(self, pic: Svg, state: Any, p: int, x0: float, y: float) -> None:
        """The variant's row under player ``p``'s status lines (:attr:`row_height` high)."""

    def status_lines(self, state: Any) -> list[tuple[str, float, str]]:
        """Status lines under the Open Market: (text, font size, colour) each."""
        return []


_DRAWINGS: dict[Variant, Drawing] = {}
_OF_ACTIVE: dict[tuple[Variant, ...], tuple[Drawing, ...]] = {}


def add_drawing(variant: Variant, drawing: Drawing) -> Drawing:
    """Make ``drawing`` the one of ``variant`` (each variant's drawing module does it once)."""
    _DRAWINGS[variant] = drawing
    _OF_ACTIVE.clear()
    return drawing


def drawings_of(state: Any) -> tuple[Drawing, ...]:
    """The drawings of the variants ``state`` plays, in order (none for a position drawn
    without a game's state)."""
    if not hasattr(state, "family"):
        return ()
    variants = active(state)
    got = _OF_ACTIVE.get(variants)
    if got is None:
        got = _OF_ACTIVE[variants] = tuple(_DRAWINGS[v] for v in variants if v in _DRAWINGS)
    return got


def _tiers(drawings: tuple[Drawing, ...], state: Any) -> tuple[Any, Any]:
    """The Treetops and the Seed stacks of ``state``'s spaces (None each: not in this game)."""
    tops = next((t for t in (d.treetops(state) for d in drawings) if t is not None), None)
    stacks = next((t for t in (d.seed_stacks(state) for d in drawings) if t is not None), None)
    return tops, stacks


def _player_facts(state: Any, p: int) -> list[str]:
    """A player's status in words, a fact a piece: points and the mountain, the supply, the
    Weather tokens and Blessings held."""
    ps = state.players[p]
    step, markers = state.mountain(p)
    marker = "▶ " if state.current_player == p else ""
    climb = f"mountain step {step}" + (f" + {plural(markers, 'Summit Marker')}" if markers
                                       else "")
    weather = ", ".join(f"{b} {n}" for b, n in zip(state.edition.biomes, ps.weather))
    bless = ", ".join(f"{k} {n}" for k, n in zip(BLESSING_KINDS, ps.blessings) if n)
    return ([f"{marker}{PLAYER_NAMES[p]}: {plural(ps.points, 'point')}", climb]
            + (["Most Trees"] if state.most_trees == p else [])
            + [f"{plural(ps.trees, 'Tree')} and {plural(ps.seeds, 'Seed')} in supply",
               f"Weather: {weather}"] + ([f"Blessings: {bless}"] if bless else []))


def _packed(facts: Sequence[str], chars: int) -> list[str]:
    """``facts`` joined by " · " into lines of at most ``chars`` characters (a fact is never
    split; the lines after the first are indented)."""
    lines = [facts[0]]
    for fact in facts[1:]:
        if len(lines[-1]) + 3 + len(fact) > chars:
            lines.append("  " + fact)
        else:
            lines[-1] += " · " + fact
    return lines


def _player_rows(state: Any, width: float) -> list[list[str]]:
    """Each player's status lines, as many as fit the picture's ``width``."""
    chars = int((width - 40) / CHAR)
    return [_packed(_player_facts(state, p), chars) for p in range(state.num_players)]


def _rows_height(drawings: tuple[Drawing, ...], rows: list[list[str]]) -> float:
    more = sum(d.row_height for d in drawings)
    return sum(LINE * len(lines) + more + 4 for lines in rows)


def _more_lines(drawings: tuple[Drawing, ...], state: Any) -> list[tuple[str, float, str]]:
    """The variants' status lines below the market (the line naming the biomes' letters
    follows them)."""
    return [line for d in drawings for line in d.status_lines(state)]


def _letters_line(state: Any) -> str:
    """What the two letters on the spaces stand for."""
    return "Letters: " + " · ".join(f"{b[:2]} {b}" for b in state.edition.biomes)


def _status(pic: Svg, state: Any, drawings: tuple[Drawing, ...],
            more: list[tuple[str, float, str]]) -> None:
    """The status lines under the board: the round, each player's lines (and the variants'
    rows), the Open Market, the variants' lines ``more`` and the line naming the biomes'
    letters."""
    x0 = pic.min_x + 10
    rows = _player_rows(state, pic.width)
    y = pic.min_y + pic.height - _rows_height(drawings, rows) - 40 - 20 * (len(more) + 1)
    summit = state.edition.summit_steps
    phase = {"main": f"Round {state.round}", "final": "Final ritual round",
             "over": "Game over"}[state.phase]
    for d in drawings:
        phase += d.phase(state)
    pic.text(x0, y, f"{phase} — summit at {summit} steps"
             + (" — end triggered" if state.end_triggered and state.phase == "main" else ""),
             size=10, anchor="start", fill="#222222")
    yy = y + 20
    for p, lines in enumerate(rows):
        pic.rect(x0, yy - 7, 14, 14, fill=PLAYER_COLOURS[p])
        for k, line in enumerate(lines):
            pic.text(x0 + 20, yy + LINE * k, line, size=9.5, anchor="start", fill="#222222")
        yy += LINE * len(lines)
        for d in drawings:
            if d.row_height:
                d.player_row(pic, state, p, x0 + 20, yy)
                yy += d.row_height
        yy += 4
    market = []
    for k, card in enumerate(state.market):
        if card is None:
            market.append("—")
            continue
        token = state.market_favors[k]
        market.append(card + (f" ({token})" if token else ""))
    below = yy
    pic.text(x0, below, "Open Market: " + " · ".join(market),
             size=9.5, anchor="start", fill="#222222")
    for k, (line, size, fill) in enumerate(more):
        pic.text(x0, below + 20 + 20 * k, line, size=size, anchor="start", fill=fill)
    pic.text(x0, below + 20 + 20 * len(more), _letters_line(state),
             size=9.5, anchor="start", fill="#444444")


def draw_board(state: Any, ax: Any = None, highlight: Iterable[Any] = ()) -> Any:
    """Draw the continent on a matplotlib Axes (made if not given) and return the Axes (Trees
    above level 1 carry their level and a stack of Seeds its counts)."""
    import matplotlib.pyplot as plt  # plotting only when a figure is asked for
    from matplotlib.patches import Polygon, RegularPolygon  # plotting only when a figure is asked for

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 7))
    board = state.board
    tops, stacks = _tiers(drawings_of(state), state)
    biomes = sorted(set(board.biome))
    for i, cell in enumerate(board.cells):
        x, y = hexgrid.to_pixel(cell, 1.0)
        fill = WATER if board.terrain[i] == "water" else biome_colour(biomes, board.biome[i])
        ax.add_patch(RegularPolygon((x, -y), 6, radius=1.0, orientation=0, facecolor=fill,
                                    edgecolor="white"))
        if state.trees[i] != NOBODY:
            ax.add_patch(Polygon([(x - .35, -y - .3), (x, -y + .4), (x + .35, -y - .3)],
                                 facecolor=PLAYER_COLOURS[state.trees[i]], edgecolor="black"))
            if tops is not None and tops[i]:
                ax.text(x + .45, -y + .3, str(1 + tops[i]), fontsize=8, ha="center",
                        va="center", fontweight="bold")
        if state.seeds[i] != NOBODY:
            ax.plot(x, -y, "o", color=PLAYER_COLOURS[state.seeds[i]], markersize=5)
            if stacks is not None and sum(stacks[i]) > 1:
                ax.text(x, -y - .45, "/".join(str(n) for n in stacks[i] if n),
                        fontsize=8, ha="center", va="center")
    for cell in board.mountain:
        x, y = hexgrid.to_pixel(cell, 1.0)
        ax.add_patch(RegularPolygon((x, -y), 6, radius=1.0, facecolor=MOUNTAIN, edgecolor="white"))
    for p, i in enumerate(state.spirits):
        if i != NOBODY:
            x, y = hexgrid.to_pixel(board.cells[i], 1.0)
            ax.plot(x, -y, "o", color=PLAYER_COLOURS[p], markersize=12, markeredgecolor="white",
                    label=f"{PLAYER_NAMES[p]} Spirit")
    for cell in highlight:
        x, y = hexgrid.to_pixel(tuple(cell), 1.0)
        ax.add_patch(RegularPolygon((x, -y), 6, radius=0.88, facecolor="none",
                                    edgecolor=HIGHLIGHT_DARK, linewidth=4))
        ax.add_patch(RegularPolygon((x, -y), 6, radius=0.88, facecolor="none",
                                    edgecolor=HIGHLIGHT, linewidth=1.6))
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.axis("off")
    return ax


def plot_climb(history: Sequence[Any], ax: Any = None) -> Any:
    """Each player's points after every turn of a game (a list of states), as a line chart
    with the summit drawn; returns the Axes."""
    import matplotlib.pyplot as plt  # plotting only when a figure is asked for

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5))
    first = history[0]
    turns: list[list[int]] = []      # points at the start of every turn, and at the end
    previous = None
    for s in history:
        if s.turn_player != previous or s.is_over:
            turns.append([ps.points for ps in s.players])
        previous = s.turn_player
    for p in range(first.num_players):
        ax.plot(range(len(turns)), [t[p] for t in turns], color=PLAYER_COLOURS[p],
                label=PLAYER_NAMES[p], linewidth=2)
    ax.axhline(first.edition.summit_steps, color="#777777", linestyle="--", linewidth=1)
    ax.text(0, first.edition.summit_steps + 0.5, "summit", color="#555555", fontsize=8)
    ax.set_xlabel("turn")
    ax.set_ylabel("points (steps up the Sacred Mountain)")
    ax.legend(loc="upper left", fontsize=8)
    return ax


def chains_svg(state: Any, player: int) -> str:
    """A player's Ritual Chains as rows of cards: Land cards green, Creature cards amber with
    their Ancient, white winds drawn on the top corners, a gold dot for an activated Favor
    Token."""
    ps = state.players[player]
    rows = ps.chains or ((),)
    w, h, gap = 86.0, 52.0, 6.0
    width = 20 + max(len(r) for r in rows) * (w + gap) if any(rows) else 240
    pic = Svg(max(width, 240), 28 + len(rows) * (h + 14), background="#ffffff")
    pic.text(8, 12, f"{PLAYER_NAMES[player]}'s Ritual Chains", size=11, anchor="start",
             fill="#222222")
    activated = dict(ps.activated)
    for r, row in enumerate(rows):
        y = 26 + r * (h + 14)
        for k, card_id in enumerate(row):
            card = state.edition.card(card_id)
            x = 10 + k * (w + gap)
            land = card.kind == "land"
            pic.rect(x, y, w, h, fill="#cfe8c4" if land else "#f6ddb0", stroke="#6b5b45",
                     stroke_width=1.2, rx=6, title=card.title)
            pic.text(x + w / 2, y + 16, card_id, size=11, fill="#222222", font_weight="bold")
            sub = "–".join(b[:2] for b in card.biomes) if land else card.ancient
            pic.text(x + w / 2, y + 34, sub, size=9, fill="#444444")
            for side, cx in (("L", x + 7), ("R", x + w - 7)):
                if side in card.winds:
                    pic.polygon([(cx - 6, y), (cx + 6, y), (cx, y + 8)], fill="#ffffff",
                                stroke="#7fa7c9", stroke_width=1.2, title="white wind")
            if card_id in activated:
                pic.circle(x + w - 10, y + h - 10, 6, fill="#e3b505", stroke="#7a5c00",
                           title=f"{activated[card_id]} Favor Token activated")
    if not any(rows):
        pic.text(10, 40, "no Ritual card played yet", size=10, anchor="start", fill="#666666")
    return pic.render()
