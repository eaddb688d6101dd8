"""Drawings: a forest as cards around their trees with each card's points, and a whole game
(clearing, deck, winter cards, the current hand and every forest).  SVG, deterministic.

>>> from pangaea_lab.forest_shuffle.forest import Forest
>>> svg = forest_svg(Forest.from_dict({"trees": [{"tree": "Oak", "top": ["Red Squirrel"]}]}))
>>> svg.startswith("<svg") and "Red Squirrel" in svg
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Sequence

from ..core.palette import HIGHLIGHT_DARK, HIGHLIGHT_LIGHT, ink_on
from ..core.svg import Svg, SvgImage, as_image
from .cards import SAPLING
from .edition import catalog
from .forest import Forest, Tree
from .effects import effect_text
from .scoring import ForestScore, explain, score

#: the smallest text in a drawing (the drawing's zoom shows it 11 pixels high, see core.svg)
SMALL = 10.0
CARD_W, CARD_H, GAP = 104.0, 84.0, 5.0
CELL_W = 3 * CARD_W + 4 * GAP
PER_ROW = 2     # trees per row: a forest fits a 768-pixel-wide window with 10-pixel text
#: a card in a row (hand, clearing, deck): each half with its name, types, cost, tree symbol
#: and what it scores, so a hand is read without a reference sheet
ROW_W, ROW_H, ROW_GAP = 156.0, 192.0, 6.0
#: cards on a line of a row before the next line starts
ROW_CARDS = 4

#: a colour per card type; every card also says its name (and, in questions, its types) in
#: words, and the colours stay apart for colour-blind readers (tests/core/test_palette.py)
COLOURS = {
    "tree": "#7f7f4b", "bird": "#2b6479", "butterfly": "#f539c2", "insect": "#99a66d",
    "bat": "#423270", "deer": "#c37f00", "cloven-hoofed animal": "#513100",
    "pawed animal": "#9f897e", "amphibian": "#488687", "plant": "#49d83e",
    "mushroom": "#824a30", SAPLING: "#c8dcb0", "winter": "#2191f7", "back": "#777777",
}
HIGHLIGHT = HIGHLIGHT_LIGHT     # drawn over a wider HIGHLIGHT_DARK line (see core.palette)


_SHORT_TYPES = {"cloven-hoofed animal": "cloven-hoofed", "pawed animal": "pawed"}


def type_words(species: str) -> str:
    """A dweller's types in a few words ("bird", "deer, cloven-hoofed", "butterfly,
    insect")."""
    types = catalog().species(species).types
    if len(types) == 1:
        return {"pawed animal": "pawed animal"}.get(types[0], types[0])
    return ", ".join(_SHORT_TYPES.get(t, t) for t in types)


def _chars(width: float, size: float = SMALL, bold: bool = False) -> int:
    """About how many characters of the drawings' font fit in ``width``."""
    return max(4, int(width / (size * (0.68 if bold else 0.6))))


def colour_of(species: str | None) -> str:
    if species is None:
        return COLOURS["back"]
    if species == SAPLING:
        return COLOURS[SAPLING]
    return COLOURS.get(catalog().species(species).types[0], COLOURS["back"])


def wrap(text: str, width: int = 11, lines: int = 3) -> list[str]:
    """Split a name into short lines that fit on a card (``lines`` at most: the last one
    is cut)."""
    out: list[str] = []
    for word in text.replace("/", " / ").split():
        if out and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += " " + word
        else:
            out.append(word)
    if len(out) > lines:
        out = out[:lines - 1] + [" ".join(out[lines - 1:])[:width]]
    return out


def draw_card(pic: Svg, x: float, y: float, title: str, colour: str, points: int | None = None,
              count: int = 1, highlight: bool = False, note: str = "", cell: str | None = None,
              mark: str = "", types: str = "") -> None:
    """One card: a rounded rectangle with a name, a points badge and a stack count.

    ``cell`` makes it clickable (``data-cell``); ``mark`` draws a thick outline and a
    numbered badge (so a marked card is told by its shape and number, not colour alone);
    ``types`` writes the card's types (for questions about points)."""
    pic.raw(*_card_svg(float(x), float(y), title, colour, points, count, bool(highlight), note,
                       cell, mark, types))


@lru_cache(maxsize=8192)
def _card_svg(x: float, y: float, title: str, colour: str, points: int | None, count: int,
              highlight: bool, note: str, cell: str | None, mark: str,
              types: str = "") -> tuple[str, float]:
    """A card's SVG text and its smallest font size, made once for each card and place (a
    redrawn board shows mostly the cards it showed before, where it showed them)."""
    pic = Svg(0, 0)
    _draw_card(pic, x, y, title, colour, points, count, highlight, note, cell, mark, types)
    return "".join(pic.items), pic.smallest_text


def _fitted(pic: Svg, x: float, y: float, text: str, room: float, **attrs: Any) -> None:
    """A centred line of small text, pressed together to ``room`` wide if it would be
    wider (its height stays)."""
    wide = len(text) * SMALL * 0.56 > room
    pic.text(x, y, text, size=SMALL, textLength=room if wide else None,
             lengthAdjust="spacingAndGlyphs" if wide else None, **attrs)


def _draw_card(pic: Svg, x: float, y: float, title: str, colour: str, points: int | None,
               count: int, highlight: bool, note: str, cell: str | None, mark: str,
               types: str = "") -> None:
    ink = ink_on(colour)
    pic.rect(x, y, CARD_W, CARD_H, rx=5, fill=colour,
             stroke=HIGHLIGHT_DARK if highlight else "#333", stroke_width=5 if highlight else 1,
             title=title + (f" ({note})" if note else ""),
             data_cell=cell, style="cursor:pointer" if cell else None)
    if highlight:
        pic.rect(x, y, CARD_W, CARD_H, rx=5, fill="none", stroke=HIGHLIGHT, stroke_width=2)
    lines = wrap(title, _chars(CARD_W - 10, SMALL, True), 3)
    for k, line in enumerate(lines):
        pic.text(x + CARD_W / 2, y + 28 + 12 * k, line, size=SMALL, fill=ink,
                 font_weight="bold")
    if points is not None:
        pic.circle(x + CARD_W - 11, y + 11, 9, fill="white", stroke="#333",
                   title=f"{points} point{'' if points == 1 else 's'}")
        pic.text(x + CARD_W - 11, y + 11, str(points), size=SMALL, fill="#222",
                 font_weight="bold")
    if count > 1 and types:     # the types take the line: the count goes to the corner
        pic.text(x + CARD_W - 5, y + 12, f"{count} cards", size=SMALL, fill=ink, anchor="end")
    elif count > 1:
        pic.text(x + CARD_W / 2, y + CARD_H - 22, f"{count} cards", size=SMALL, fill=ink)
    if types:
        _fitted(pic, x + CARD_W / 2, y + CARD_H - 22, types, CARD_W - 8, fill=ink,
                font_style="italic")
    if note:
        _fitted(pic, x + CARD_W / 2, y + CARD_H - 9, note, CARD_W - 8, fill=ink)
    if mark:
        draw_mark(pic, x, y, mark, cell)


def draw_mark(pic: Svg, x: float, y: float, mark: str, cell: str | None = None,
              w: float = CARD_W, h: float = CARD_H) -> None:
    """A thick black-and-yellow outline with a numbered badge over a card or slot."""
    pic.rect(x - 2, y - 2, w + 4, h + 4, rx=6, fill="none", stroke=HIGHLIGHT_DARK,
             stroke_width=5, data_cell=cell)
    pic.rect(x - 2, y - 2, w + 4, h + 4, rx=6, fill="none", stroke=HIGHLIGHT,
             stroke_width=2, stroke_dasharray="6,4", data_cell=cell)
    pic.circle(x + 10, y + 10, 9, fill=HIGHLIGHT_DARK, stroke=HIGHLIGHT, data_cell=cell)
    pic.text(x + 10, y + 10, mark, size=SMALL, fill="white", font_weight="bold", data_cell=cell)


def _slot_origin(side: str, top_row: bool = True) -> tuple[float, float]:
    col, row = {"top": (1, 0), "bottom": (1, 2), "left": (0, 1), "right": (2, 1),
                "tree": (1, 1)}[side]
    if not top_row:
        row -= 1
    return GAP + col * (CARD_W + GAP), GAP + row * (CARD_H + GAP)


def _rows(forest: Forest, highlight: set = frozenset(),
          every_slot: bool = False) -> list[tuple[bool, bool]]:
    """Per row of trees: does it need a line for top cards, and one for bottom cards?"""
    if every_slot:
        return [(True, True)] * (len(forest.trees) // PER_ROW + 1)
    out = []
    extra = {(m[1], m[2]) for m in highlight if isinstance(m, tuple) and m[:1] == ("slot",)}
    cells = list(forest.trees) + [None]
    for start in range(0, len(cells), PER_ROW):
        idx = range(start, min(start + PER_ROW, len(forest.trees)))
        out.append((any(forest.trees[i].top or (i, "top") in extra for i in idx),
                    any(forest.trees[i].bottom or (i, "bottom") in extra for i in idx)))
    return out


def _row_height(row: tuple[bool, bool]) -> float:
    return GAP + (CARD_H + GAP) * (1 + row[0] + row[1])


def forest_height(forest: Forest, highlight: set = frozenset(), every_slot: bool = False) -> float:
    return sum(_row_height(r) for r in _rows(forest, highlight, every_slot)) + GAP


#: slot numbers in a clickable drawing: ``data-cell="i,s"`` is side ``SIDES[s]`` of tree i
SIDE_NUMBER = {"top": 0, "bottom": 1, "left": 2, "right": 3}


def draw_tree(pic: Svg, ox: float, oy: float, index: int, tree: Tree, points: dict | None,
              highlight: set, top_row: bool = True, cells: bool = False,
              marks: dict | None = None) -> None:
    """A tree (or sapling) with its four slots around it.

    ``points`` None hides the points; ``cells`` makes the tree (``data-cell="i"``) and its
    four slots (``data-cell="i,s"``, see :data:`SIDE_NUMBER`) clickable, drawing empty slots
    as dashed outlines; ``marks`` maps such cells to the badge text drawn on them."""
    marks = marks or {}
    x, y = _slot_origin("tree", top_row)
    pts = points.get((index, "tree", 0)) if points is not None else None
    name = "Sapling" if tree.is_sapling else tree.species
    draw_card(pic, ox + x, oy + y, name, colour_of(tree.species), pts,
              highlight=("tree", index) in highlight or ("card", tree.card) in highlight,
              note=f"tree {index + 1}", cell=f"{index}" if cells else None,
              mark=marks.get((index,), ""))
    for side in ("top", "bottom", "left", "right"):
        sx, sy = _slot_origin(side, top_row)
        stack = tree.slot(side)
        cell = f"{index},{SIDE_NUMBER[side]}" if cells else None
        mark = marks.get((index, SIDE_NUMBER[side]), "")
        if not stack:
            if ("slot", index, side) in highlight or cells:
                lit = ("slot", index, side) in highlight
                if lit:
                    pic.rect(ox + sx, oy + sy, CARD_W, CARD_H, rx=5, fill="none",
                             stroke=HIGHLIGHT_DARK, stroke_width=5)
                pic.rect(ox + sx, oy + sy, CARD_W, CARD_H, rx=5,
                         fill="#ffffff" if cells else "none",
                         stroke=HIGHLIGHT if lit else "#888", stroke_width=2 if lit else 1,
                         stroke_dasharray="5,3", title=f"{side} of tree {index + 1} (empty)",
                         data_cell=cell, style="cursor:pointer" if cell else None)
                if cells:
                    pic.text(ox + sx + CARD_W / 2, oy + sy + CARD_H / 2, f"{side}", size=SMALL,
                             fill="#595959", data_cell=cell)
            if mark:
                draw_mark(pic, ox + sx, oy + sy, mark, cell)
            continue
        top = stack[-1]
        total = (sum(points.get((index, side, k), 0) for k in range(len(stack)))
                 if points is not None else None)
        hl = ("slot", index, side) in highlight or any(("card", d.card) in highlight for d in stack)
        # in a question about points, each card says what kind of card it is
        draw_card(pic, ox + sx, oy + sy, top.species, colour_of(top.species), total,
                  count=len(stack), highlight=hl, note=top.symbol or "", cell=cell, mark=mark,
                  types=type_words(top.species) if points is None else "")


def draw_forest(pic: Svg, ox: float, oy: float, forest: Forest, result: ForestScore | None,
                highlight: set = frozenset(), show_points: bool = True, cells: bool = False,
                marks: dict | None = None) -> float:
    """Draw a forest at (ox, oy); returns the height used (see :func:`draw_tree` for
    ``cells`` and ``marks``; ``show_points=False`` hides every points badge)."""
    points = (dict(result.card_points) if result is not None else {}) if show_points else None
    rows = _rows(forest, highlight, every_slot=cells)
    tops = [oy]
    for row in rows:
        tops.append(tops[-1] + _row_height(row))
    for i, tree in enumerate(forest.trees):
        r, c = divmod(i, PER_ROW)
        draw_tree(pic, ox + c * CELL_W, tops[r], i, tree, points, highlight, rows[r][0],
                  cells=cells, marks=marks)
    r, c = divmod(len(forest.trees), PER_ROW)
    x, y = _slot_origin("tree", rows[r][0])
    draw_card(pic, ox + c * CELL_W + x, tops[r] + y, "Cave", "#6b5b4b",
              forest.cave if show_points else None, note=f"{forest.cave} cards")
    return tops[-1] - oy + GAP


def forest_svg(forest: Forest, others: Sequence[Forest] = (), title: str | None = None,
               show_points: bool = True, cells: bool = False,
               marked: Iterable[tuple] = ()) -> SvgImage:
    """A forest drawn card by card with each card's points (rivals matter for Linden and
    the Woodpecker).

    ``show_points=False`` hides the points (for a question about them); ``cells=True`` makes
    every tree (``data-cell="i"``) and slot (``data-cell="i,s"``, s numbering top, bottom,
    left, right from 0) clickable; ``marked`` cells get a thick outline and a number."""
    result = score([forest, *others])[0]
    width = min(len(forest.trees) + 1, PER_ROW) * CELL_W
    head = 24.0
    pic = Svg(width, forest_height(forest, every_slot=cells) + head, background="#f4f1e8")
    if title is None:
        title = f"Forest: {result.total} points" if show_points else "Forest"
    pic.text(8, 12, title, size=12, anchor="start", font_weight="bold")
    draw_forest(pic, 0, head, forest, result, show_points=show_points, cells=cells,
                marks=_marks(marked))
    return as_image(pic.render())


def _marks(marked: Iterable[tuple]) -> dict:
    """Badge text for marked cells: 1, 2, 3 ... in the order given."""
    return {tuple(m): str(k) for k, m in enumerate(marked, start=1)}


def _card_label(cid: int) -> tuple[str, str]:
    card = catalog().card(cid)
    if card.kind == "winter":
        return "Winter", COLOURS["winter"]
    if card.is_tree:
        return str(card.species), colour_of(card.species)
    return card.name, "#707070"


def row_height(count: int) -> float:
    """The height a row of ``count`` cards takes (its label, then lines of cards)."""
    lines = max(1, -(-count // ROW_CARDS))
    return 20 + lines * (ROW_H + ROW_GAP) + 8


def row_width(count: int) -> float:
    return min(max(count, 1), ROW_CARDS) * (ROW_W + ROW_GAP) + 16


def _row_spot(x: float, y: float, k: int) -> tuple[float, float]:
    """Where card ``k`` of a row starting at (x, y) is drawn."""
    line, col = divmod(k, ROW_CARDS)
    return x + col * (ROW_W + ROW_GAP), y + 20 + line * (ROW_H + ROW_GAP)


def _row_of_cards(pic: Svg, x: float, y: float, cards: Iterable[int], highlight: set,
                  label: str) -> None:
    pic.text(x, y + 8, label, size=11, anchor="start", font_weight="bold")
    for k, cid in enumerate(cards):
        cx, cy = _row_spot(x, y, k)
        draw_split_card(pic, cx, cy, cid, ("card", cid) in highlight)


def draw_split_card(pic: Svg, x: float, y: float, cid: int, highlight: bool = False,
                    costs: bool = True) -> None:
    """A card as a player reads it in hand or clearing: each half (a tree card is one whole)
    with its name, card types, cost, tree symbol and what it scores, in words from the card
    data (``costs`` is kept for callers: the cost is always written)."""
    pic.raw(*_split_card_svg(float(x), float(y), cid, bool(highlight), True))


@lru_cache(maxsize=8192)
def _split_card_svg(x: float, y: float, cid: int, highlight: bool,
                    costs: bool) -> tuple[str, float]:
    """A card's SVG text and smallest font size, made once per card and place."""
    pic = Svg(0, 0)
    _draw_split_card(pic, x, y, cid, highlight, costs)
    return "".join(pic.items), pic.smallest_text


def _card_face(pic: Svg, x: float, y: float, h: float, species: str, kind: str,
               symbol: str) -> None:
    """One half (or a whole tree card) ``h`` high: name and cost, types and side, tree
    symbol, then what it scores."""
    sp = catalog().species(species)
    colour = colour_of(species)
    ink = ink_on(colour)
    effect, bonus = effect_text(species)
    pic.rect(x, y, ROW_W, h, fill=colour, stroke="#333", stroke_width=0.5,
             title=f"{kind}: {species}, {', '.join(sp.types)}, cost {sp.cost}, tree symbol "
                   f"{symbol}; scores {explain(species)}; effect: {effect}; bonus: {bonus}")
    pic.rect(x + ROW_W - 48, y + 4, 44, 16, rx=3, fill="#ffffff", stroke="#333",
             stroke_width=0.8)
    pic.text(x + ROW_W - 26, y + 12, f"cost {sp.cost}", size=SMALL, fill="#111",
             font_weight="bold")
    lines = _name_lines(species)
    for k, line in enumerate(lines):
        pic.text(x + 5, y + 13 + 13 * k, line, size=11, anchor="start", fill=ink,
                 font_weight="bold")
    yy = y + 13 + 13 * len(lines)
    words = ["tree" if kind == "tree" else f"{kind}: {type_words(species)}",
             f"symbol: {symbol}"] + wrap("scores " + explain(species), _chars(ROW_W - 10), 4)
    if kind == "tree":     # a whole card has room for its effect and bonus
        for what, text in (("effect", effect), ("bonus", bonus)):
            if text != "-":
                words += wrap(f"{what}: {text}", _chars(ROW_W - 10), 4)
    for line in words:
        if yy + 4 > y + h:
            break
        pic.text(x + 5, yy, line, size=SMALL, anchor="start", fill=ink)
        yy += 12


def _name_lines(name: str) -> list[str]:
    """A name on a card: its first line beside the cost, the rest under it (3 lines at most)."""
    first, rest = _chars(ROW_W - 60, 11, True), _chars(ROW_W - 10, 11, True)
    words = name.split()
    lines = [words.pop(0)]
    while words and len(lines[0]) + 1 + len(words[0]) <= first:
        lines[0] += " " + words.pop(0)
    if words:
        lines += wrap(" ".join(words), rest, 2)
    return lines


def _draw_split_card(pic: Svg, x: float, y: float, cid: int, highlight: bool,
                     costs: bool) -> None:
    card = catalog().card(cid)
    if card.kind == "winter":
        pic.rect(x, y, ROW_W, ROW_H, rx=5, fill=COLOURS["winter"], title=f"Winter card #{cid}")
        pic.text(x + ROW_W / 2, y + ROW_H / 2, "Winter card", size=12, font_weight="bold",
                 fill=ink_on(COLOURS["winter"]))
    elif card.is_tree:
        _card_face(pic, x, y, ROW_H, str(card.species), "tree", str(card.species))
    else:
        for k, (side, half) in enumerate(zip(card.sides(), card.halves)):
            _card_face(pic, x, y + k * ROW_H / 2, ROW_H / 2, half.species, side, half.symbol)
    pic.rect(x, y, ROW_W, ROW_H, rx=5, fill="none",
             stroke=HIGHLIGHT_DARK if highlight else "#333", stroke_width=5 if highlight else 1,
             title=f"{card.name} #{cid}")
    if highlight:
        pic.rect(x, y, ROW_W, ROW_H, rx=5, fill="none", stroke=HIGHLIGHT, stroke_width=2)


def cards_row(pic: Svg, x: float, y: float, cards: Sequence[int], label: str,
              costs: bool = False, cells: bool = False, marks: dict | None = None) -> float:
    """A labelled row of face-up cards (hand, clearing or the next deck cards), on as many
    lines as it needs; with ``cells`` card k of the row is clickable as ``data-cell="k"``.
    Returns the height used."""
    marks = marks or {}
    pic.text(x, y + 8, label, size=11, anchor="start", font_weight="bold")
    for k, cid in enumerate(cards):
        cx, cy = _row_spot(x, y, k)
        cell = str(k) if cells else None
        draw_split_card(pic, cx, cy, cid)
        if cell:
            pic.rect(cx, cy, ROW_W, ROW_H, fill="#ffffff", fill_opacity=0, data_cell=cell,
                     style="cursor:pointer")
        if marks.get((k,)):
            draw_mark(pic, cx, cy, marks[(k,)], cell, ROW_W, ROW_H)
    return row_height(len(cards))


def position_svg(forest: Forest | None = None, hand: Sequence[int] = (),
                 clearing: Sequence[int] | None = None, deck_top: Sequence[int] = (),
                 winter: int | None = None, others: Sequence[Forest] = (), title: str = "",
                 show_points: bool = False, cells: bool = False,
                 marked: Iterable[tuple] = ()) -> SvgImage:
    """A teaching position: a title, then (each when given) the winter cards out, the next
    deck cards, the clearing, the hand (with costs) and the forest; rival forests below.
    Points stay hidden unless ``show_points``; ``cells``/``marked`` as in :func:`forest_svg`."""
    rows: list[tuple[str, Sequence[int], bool]] = []
    if deck_top:
        rows.append(("Next cards of the deck (top first)", deck_top, False))
    if clearing is not None:
        rows.append((f"Clearing ({len(clearing)} cards)", clearing, False))
    if hand:
        rows.append(("Your hand", hand, True))
    widest = max([row_width(len(r[1])) for r in rows] + [0])
    forests = ([forest] if forest is not None else []) + list(others)
    fw = max([min(len(f.trees) + 1, PER_ROW) * CELL_W for f in forests] + [0])
    heights = [forest_height(f, every_slot=cells and k == 0) + 22 for k, f in enumerate(forests)]
    width = max(widest, fw, 360)
    titled = wrap(title, _chars(width - 16, 12, True), 3)   # a long title takes two lines
    head = 24.0 + 15 * (len(titled) - 1) + (18 if winter is not None else 0)
    pic = Svg(width, head + sum(row_height(len(r[1])) for r in rows) + sum(heights),
              background="#f4f1e8")
    for k, line in enumerate(titled):
        pic.text(8, 12 + 15 * k, line, size=12, anchor="start", font_weight="bold")
    if winter is not None:
        pic.text(8, head - 10, f"Winter cards already out: {winter} of 3", size=11,
                 anchor="start")
    y = head
    for label, cards, costs in rows:
        y += cards_row(pic, 8, y, cards, label, costs=costs)
    results = score(forests) if forests else []
    for k, f in enumerate(forests):
        name = "Your forest" if k == 0 and forest is not None else f"Rival forest {k}"
        if show_points:
            name += f": {results[k].total} points"
        pic.text(8, y + 8, name, size=11, anchor="start", font_weight="bold")
        draw_forest(pic, 0, y + 18, f, results[k], show_points=show_points,
                    cells=cells and k == 0, marks=_marks(marked) if k == 0 else None)
        y += heights[k]
    return as_image(pic.render())


def state_svg(state: Any, highlight: Iterable[Any] = ()) -> SvgImage:
    """The whole table: deck size, winter cards, clearing, the current hand, all forests."""
    marks = set(highlight)
    results = state.scores()
    p = state.current
    heights = [forest_height(f, marks if k == p else set()) + 26
               for k, f in enumerate(state.forests)]
    hand_owner = p if not state.is_over else 0
    hand = state.hands[hand_owner]
    top = 24 + row_height(len(state.clearing)) + row_height(len(hand)) + 20
    width = max(PER_ROW * CELL_W, row_width(max(len(state.clearing), len(hand))))
    pic = Svg(width, top + sum(heights), background="#f4f1e8")
    status = ("Game over: " + state.ended_by) if state.is_over else (
        f"{state.player_name(p)} to play (turn {state.turn})")
    pic.text(8, 12, f"Deck: {len(state.deck)} cards   Winter cards: {len(state.winter)}/3   "
                    f"{status}", size=12, anchor="start", font_weight="bold")
    _row_of_cards(pic, 8, 24, state.clearing, marks, f"Clearing ({len(state.clearing)}/10)")
    y = 24 + row_height(len(state.clearing))
    _row_of_cards(pic, 8, y, hand, marks,
                  f"Hand of {state.player_name(hand_owner)} ({len(hand)}/10)")
    step = state.step
    if step is not None:
        pic.text(8, top - 12, f"Now: {step.kind} ({step.tag or ''})", size=11, anchor="start")
    y = top
    for k, f in enumerate(state.forests):
        total = results[k].total
        pic.text(8, y + 10, f"{state.player_name(k)}: {total} point{'' if total == 1 else 's'}",
                 size=12, anchor="start", font_weight="bold",
                 fill="#b35900" if k == p and not state.is_over else "#222")
        draw_forest(pic, 0, y + 22, f, results[k], marks if k == p else set())
        y += heights[k]
    return as_image(pic.render())


def plot_scores(scores: Sequence[ForestScore], names: Sequence[str] | None = None, ax: Any = None):
    """A stacked bar per forest: points by species (and cave), on a matplotlib Axes.

    Returns the Axes; a new figure is made when ``ax`` is not given."""
    import matplotlib.pyplot as plt  # plotting only when a chart is asked for
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 4))
    labels = list(names) if names is not None else [f"Forest {k + 1}" for k in range(len(scores))]
    species = sorted({n for s in scores for n, p in s.categories if p})
    bottom = [0] * len(scores)
    for name in species:
        values = [dict(s.categories).get(name, 0) for s in scores]
        ax.bar(labels, values, bottom=bottom, label=name)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_ylabel("points")
    ax.legend(fontsize=8, ncol=3, loc="upper left", bbox_to_anchor=(1, 1))
    return ax
