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
from .scoring import ForestScore, score

CARD_W, CARD_H, GAP = 62.0, 72.0, 6.0
CELL_W = 3 * CARD_W + 4 * GAP
PER_ROW = 3     # trees per row: a forest fits a 768-pixel-wide window

#: a colour per card type; every card also says its name (and, in questions, its types) in
#: words, and the colours stay apart for colour-blind readers (tests/core/test_palette.py)
COLOURS = {
    "tree": "#7f7f4b", "bird": "#2b6479", "butterfly": "#f539c2", "insect": "#99a66d",
    "bat": "#423270", "deer": "#c37f00", "cloven-hoofed animal": "#513100",
    "pawed animal": "#9f897e", "amphibian": "#488687", "plant": "#49d83e",
    "mushroom": "#824a30", SAPLING: "#c8dcb0", "winter": "#2191f7", "back": "#777777",
}
HIGHLIGHT = HIGHLIGHT_LIGHT     # drawn over a wider HIGHLIGHT_DARK line (see core.palette)


_SHORT_TYPES = {"cloven-hoofed animal": "cloven", "pawed animal": "pawed"}


def type_words(species: str) -> str:
    """A dweller's types in a few letters ("bird", "deer, cloven", "butterfly, insect")."""
    types = catalog().species(species).types
    if len(types) == 1:
        return {"cloven-hoofed animal": "cloven-hoofed", "pawed animal": "pawed animal"}.get(
            types[0], types[0])
    return ", ".join(_SHORT_TYPES.get(t, t) for t in types)


def colour_of(species: str | None) -> str:
    if species is None:
        return COLOURS["back"]
    if species == SAPLING:
        return COLOURS[SAPLING]
    return COLOURS.get(catalog().species(species).types[0], COLOURS["back"])


def wrap(text: str, width: int = 11, lines: int = 3) -> list[str]:
    """Split a name into short lines that fit on a card."""
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
              mark: str = "") -> None:
    """One card: a rounded rectangle with a name, a points badge and a stack count.

    ``cell`` makes it clickable (``data-cell``); ``mark`` draws a thick outline and a
    numbered badge (so a marked card is told by its shape and number, not colour alone)."""
    pic.raw(*_card_svg(float(x), float(y), title, colour, points, count, bool(highlight), note,
                       cell, mark))


@lru_cache(maxsize=8192)
def _card_svg(x: float, y: float, title: str, colour: str, points: int | None, count: int,
              highlight: bool, note: str, cell: str | None, mark: str) -> tuple[str, float]:
    """A card's SVG text and its smallest font size, made once for each card and place (a
    redrawn board shows mostly the cards it showed before, where it showed them)."""
    pic = Svg(0, 0)
    _draw_card(pic, x, y, title, colour, points, count, highlight, note, cell, mark)
    return "".join(pic.items), pic.smallest_text


def _draw_card(pic: Svg, x: float, y: float, title: str, colour: str, points: int | None,
               count: int, highlight: bool, note: str, cell: str | None, mark: str) -> None:
    ink = ink_on(colour)
    pic.rect(x, y, CARD_W, CARD_H, rx=5, fill=colour,
             stroke=HIGHLIGHT_DARK if highlight else "#333", stroke_width=5 if highlight else 1,
             title=title + (f" ({note})" if note else ""),
             data_cell=cell, style="cursor:pointer" if cell else None)
    if highlight:
        pic.rect(x, y, CARD_W, CARD_H, rx=5, fill="none", stroke=HIGHLIGHT, stroke_width=2)
    lines = wrap(title)
    top = y + CARD_H / 2 - 5 * (len(lines) - 1)
    for k, line in enumerate(lines):
        pic.text(x + CARD_W / 2, top + 10 * k, line, size=8.5, fill=ink)
    if points is not None:
        pic.circle(x + CARD_W - 9, y + 9, 8, fill="white", stroke="#333")
        pic.text(x + CARD_W - 9, y + 9, str(points), size=8.5, fill="#222", font_weight="bold")
    if count > 1:
        pic.text(x + 10, y + CARD_H - 9, f"x{count}", size=9, fill=ink, font_weight="bold")
    if note:
        pic.text(x + CARD_W / 2, y + CARD_H - 8, note, size=8, fill=ink)
    if mark:
        draw_mark(pic, x, y, mark, cell)


def draw_mark(pic: Svg, x: float, y: float, mark: str, cell: str | None = None) -> None:
    """A thick black-and-yellow outline with a numbered badge over a card or slot."""
    pic.rect(x - 2, y - 2, CARD_W + 4, CARD_H + 4, rx=6, fill="none", stroke=HIGHLIGHT_DARK,
             stroke_width=5, data_cell=cell)
    pic.rect(x - 2, y - 2, CARD_W + 4, CARD_H + 4, rx=6, fill="none", stroke=HIGHLIGHT,
             stroke_width=2, stroke_dasharray="6,4", data_cell=cell)
    pic.circle(x + 10, y + 10, 9, fill=HIGHLIGHT_DARK, stroke=HIGHLIGHT, data_cell=cell)
    pic.text(x + 10, y + 10, mark, size=10, fill="white", font_weight="bold", data_cell=cell)


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
                    pic.text(ox + sx + CARD_W / 2, oy + sy + CARD_H / 2, f"{side}", size=8,
                             fill="#595959", data_cell=cell)
            if mark:
                draw_mark(pic, ox + sx, oy + sy, mark, cell)
            continue
        top = stack[-1]
        total = (sum(points.get((index, side, k), 0) for k in range(len(stack)))
                 if points is not None else None)
        hl = ("slot", index, side) in highlight or any(("card", d.card) in highlight for d in stack)
        draw_card(pic, ox + sx, oy + sy, top.species, colour_of(top.species), total,
                  count=len(stack), highlight=hl, note=top.symbol or "", cell=cell, mark=mark)
        if points is None:   # a question about points: say what kind of card each one is
            pic.text(ox + sx + CARD_W / 2, oy + sy + 9, type_words(top.species), size=8,
                     fill=ink_on(colour_of(top.species)), font_style="italic")


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


def _row_of_cards(pic: Svg, x: float, y: float, cards: Iterable[int], highlight: set,
                  label: str) -> None:
    pic.text(x, y + 8, label, size=11, anchor="start", font_weight="bold")
    for k, cid in enumerate(cards):
        name, colour = _card_label(cid)
        c = catalog().card(cid)
        if c.is_split:
            draw_split_card(pic, x + k * (CARD_W + 4), y + 18, cid, ("card", cid) in highlight)
            continue
        draw_card(pic, x + k * (CARD_W + 4), y + 18, name, colour,
                  highlight=("card", cid) in highlight, note=f"#{cid}")


def draw_split_card(pic: Svg, x: float, y: float, cid: int, highlight: bool = False,
                    costs: bool = False) -> None:
    """A split card in hand or clearing: its two halves, each with species and tree symbol
    (``costs``: each half's cost in a white circle at its right edge)."""
    pic.raw(*_split_card_svg(float(x), float(y), cid, bool(highlight), bool(costs)))


@lru_cache(maxsize=8192)
def _split_card_svg(x: float, y: float, cid: int, highlight: bool,
                    costs: bool) -> tuple[str, float]:
    """A split card's SVG text and smallest font size, made once per card and place."""
    pic = Svg(0, 0)
    _draw_split_card(pic, x, y, cid, highlight, costs)
    return "".join(pic.items), pic.smallest_text


def _draw_split_card(pic: Svg, x: float, y: float, cid: int, highlight: bool,
                     costs: bool) -> None:
    card = catalog().card(cid)
    for k, (side, half) in enumerate(zip(card.sides(), card.halves)):
        hy = y + k * CARD_H / 2
        cost = catalog().species(half.species).cost
        pic.rect(x, hy, CARD_W, CARD_H / 2, fill=colour_of(half.species), stroke="#333",
                 stroke_width=0.5, title=f"{side} half: {half.species} ({half.symbol})"
                 + (f", cost {cost}" if costs else ""))
        lines = wrap(half.species, 11 if costs else 13, 2)
        for j, line in enumerate(lines):
            pic.text(x + (CARD_W - 10) / 2 if costs else x + CARD_W / 2, hy + 9 + 8.5 * j,
                     line, size=8, fill=ink_on(colour_of(half.species)))
        pic.text(x + CARD_W / 2, hy + CARD_H / 2 - 6, f"{side}: {half.symbol}", size=8,
                 fill=ink_on(colour_of(half.species)))
        if costs:
            pic.circle(x + CARD_W - 7, hy + 8, 6, fill="white", stroke="#333")
            pic.text(x + CARD_W - 7, hy + 8, str(cost), size=8, fill="#222", font_weight="bold")
    pic.rect(x, y, CARD_W, CARD_H, rx=5, fill="none",
             stroke=HIGHLIGHT_DARK if highlight else "#333", stroke_width=5 if highlight else 1,
             title=f"{card.name} #{cid}")
    if highlight:
        pic.rect(x, y, CARD_W, CARD_H, rx=5, fill="none", stroke=HIGHLIGHT, stroke_width=2)


def cards_row(pic: Svg, x: float, y: float, cards: Sequence[int], label: str,
              costs: bool = False, cells: bool = False, marks: dict | None = None) -> None:
    """A labelled row of face-up cards (hand, clearing or the next deck cards); with
    ``cells`` card k of the row is clickable as ``data-cell="k"``."""
    marks = marks or {}
    pic.text(x, y + 8, label, size=11, anchor="start", font_weight="bold")
    for k, cid in enumerate(cards):
        cx, cy = x + k * (CARD_W + 6), y + 18
        c = catalog().card(cid)
        cell = str(k) if cells else None
        if c.is_split:
            draw_split_card(pic, cx, cy, cid, costs=costs)
            if cell:
                pic.rect(cx, cy, CARD_W, CARD_H, fill="#ffffff", fill_opacity=0, data_cell=cell,
                         style="cursor:pointer")
            if marks.get((k,)):
                draw_mark(pic, cx, cy, marks[(k,)], cell)
            continue
        name, colour = _card_label(cid)
        cost = catalog().species(str(c.species)).cost if c.is_tree else None
        draw_card(pic, cx, cy, name, colour, note=f"cost {cost}" if costs and c.is_tree else "",
                  cell=cell, mark=marks.get((k,), ""))


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
        rows.append(("Your hand (a number in a white circle, or at the bottom of a tree, is "
                     "the cost)", hand, True))
    head = 24.0 + (18 if winter is not None else 0)
    row_h = CARD_H + 30
    widest = max([len(r[1]) for r in rows] + [0]) * (CARD_W + 6) + 16
    forests = ([forest] if forest is not None else []) + list(others)
    fw = max([min(len(f.trees) + 1, PER_ROW) * CELL_W for f in forests] + [0])
    heights = [forest_height(f, every_slot=cells and k == 0) + 22 for k, f in enumerate(forests)]
    pic = Svg(max(widest, fw, 360), head + len(rows) * row_h + sum(heights),
              background="#f4f1e8")
    pic.text(8, 12, title, size=12, anchor="start", font_weight="bold")
    if winter is not None:
        pic.text(8, 32, f"Winter cards already out: {winter} of 3", size=11, anchor="start")
    y = head
    for label, cards, costs in rows:
        cards_row(pic, 8, y, cards, label, costs=costs)
        y += row_h
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
    top = 3 * (CARD_H + 34)
    widest = max(len(state.clearing), max(len(h) for h in state.hands), 10)
    width = max(PER_ROW * CELL_W, widest * (CARD_W + 4) + 20)
    pic = Svg(width, top + sum(heights), background="#f4f1e8")
    status = ("Game over: " + state.ended_by) if state.is_over else (
        f"{state.player_name(p)} to play (turn {state.turn})")
    pic.text(8, 12, f"Deck: {len(state.deck)} cards   Winter cards: {len(state.winter)}/3   "
                    f"{status}", size=12, anchor="start", font_weight="bold")
    _row_of_cards(pic, 8, 24, state.clearing, marks, f"Clearing ({len(state.clearing)}/10)")
    hand_owner = p if not state.is_over else 0
    _row_of_cards(pic, 8, 24 + CARD_H + 34, state.hands[hand_owner], marks,
                  f"Hand of {state.player_name(hand_owner)} ({len(state.hands[hand_owner])}/10)")
    step = state.step
    if step is not None:
        pic.text(8, 24 + 2 * (CARD_H + 34) + 10, f"Now: {step.kind} ({step.tag or ''})",
                 size=11, anchor="start")
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
