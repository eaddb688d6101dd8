"""Drawing an Inori position as SVG: the cards with their spaces and who holds them, the Great
Tree with its altars, and each player's favor tokens by colour.

Spaces that can be clicked carry ``data-cell``: a card space is ``(slot, space)`` (two
numbers, from 0) and a Great Tree space is ``(space,)`` (one number), so a click reports the
same tuple that :func:`action_cells` and the exercises use.  Highlight keys are those tuples
(the older ``("card", slot, space)`` and ``("tree", space)`` are accepted too) and
``("slot", slot)`` for a whole card.  A highlighted space gets a thick outline and a number,
never colour alone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from ..core.palette import HIGHLIGHT_DARK, HIGHLIGHT_LIGHT, ink_on
from ..core.svg import Svg, as_image
from .actions import (BlockSpace, ChooseAltar, OfferCard, OfferTree, RuneMove, RuneOffer)
from .board import NEUTRAL, NEUTRAL_COLOUR, SEAT_COLOURS, max_slots, root_spaces, \
    tree_positions

CARD_W, CARD_H, GAP = 136, 150, 8
TOP = 34
HIGHLIGHT = HIGHLIGHT_LIGHT   # drawn over a dark line of HIGHLIGHT_DARK (see core.palette)


def _marker_fill(m: int) -> str:
    return NEUTRAL_COLOUR if m == NEUTRAL else SEAT_COLOURS[m % len(SEAT_COLOURS)]


def _who(state, m: int) -> str:
    return "neutral marker" if m == NEUTRAL else state.player_name(m)


def _cost_label(ed, cost: str | None) -> str:
    if cost is None:
        return ""
    return "maj" if cost == "majority" else ed.names[cost][:2]


def _normalise(mark: Any) -> tuple:
    mark = tuple(mark)
    if mark and mark[0] == "card":
        return tuple(mark[1:])
    if mark and mark[0] == "tree":
        return (mark[1],)
    return mark


def board_svg(state, highlight: Iterable[Any] = (), title: str | None = None) -> str:
    """The whole board; ``highlight`` marks cards, spaces or tree spaces with a thick outline
    and a number (1, 2, ... in the order given).  ``title`` replaces the top line."""
    ed = state.edition
    order: list[tuple] = []
    for h in highlight:
        h = _normalise(h)
        if h not in order:
            order.append(h)
    marks = {h: k + 1 for k, h in enumerate(order)}
    n_slots = max(max_slots(ed), len(state.slots))
    width = max(n_slots * (CARD_W + GAP) + GAP, 860)
    tree_top = TOP + CARD_H + 20
    height = tree_top + 305
    pic = Svg(width, height, background="#fbf8f1")
    status = "game over" if state.is_over else \
        f"{state.player_name(state.current_player)} to play"
    if state.pending and state.pending[0].kind == "rune_window" and not state.is_over:
        status += " (the season is ending: an any-time rune may be played)"
    pic.text(GAP, 16, title or f"Inori - season {state.season} of {ed.seasons} - {status}",
             size=14, anchor="start", font_weight="bold")
    pic.text(width - GAP, 16, f"{ed.name} [{ed.label}]", size=11, anchor="end",
             fill="#555555")

    names = _names(state)
    for i, (cid, spaces) in enumerate(state.slots):
        mine = tuple((h, n) for h, n in marks.items() if h == ("slot", i) or h[:1] == (i,)
                     and len(h) == 2)
        pic.raw(*_card_svg(ed, names, i, cid, spaces, GAP + i * (CARD_W + GAP), TOP, mine))
    for i in range(len(state.slots), n_slots):
        x = GAP + i * (CARD_W + GAP)
        pic.rect(x, TOP, CARD_W, CARD_H, fill="none", stroke="#cccccc",
                 stroke_dasharray="4 4", title="slot for a New Start card in a later season")
        pic.text(x + CARD_W / 2, TOP + CARD_H / 2, f"slot {i + 1}: later", size=10,
                 fill="#aaaaaa")

    tree_marks = tuple((h, n) for h, n in marks.items() if len(h) == 1)
    pic.raw(*_tree_svg(ed, names, state.altars, state.tree_markers, state.root_tokens,
                       state.root_colours, 20, tree_top, tree_marks))
    _draw_players(pic, state, 470, tree_top)
    # the picture shrinks to fit a narrow notebook column (core.svg sets max-width: 100%)
    return as_image(pic.render())


def _names(state) -> tuple[str, ...]:
    """The players' names, as the drawing writes them."""
    return tuple(state.player_name(p) for p in range(state.num_players))


def _name_of(names: tuple[str, ...], m: int) -> str:
    if m == NEUTRAL:
        return "neutral marker"
    return names[m] if 0 <= m < len(names) else f"Player {m + 1}"


def _recorded(draw: Any, *args: Any) -> tuple[str, float]:
    """What ``draw(pic, *args)`` adds to a drawing, as SVG text and its smallest font size
    (for :meth:`Svg.raw`)."""
    pic = Svg(0, 0)
    draw(pic, *args)
    return "".join(pic.items), pic.smallest_text


# A board redrawn after one action shows mostly what it showed before: each card, the
# Great Tree and each player's line are drawn once per look and kept.

@lru_cache(maxsize=2048)
def _card_svg(ed, names: tuple[str, ...], i: int, cid: str, spaces, x: float, y: float,
              marks: tuple) -> tuple[str, float]:
    return _recorded(_draw_card, ed, names, i, cid, spaces, x, y, dict(marks))


@lru_cache(maxsize=512)
def _tree_svg(ed, names: tuple[str, ...], altars: tuple, markers: tuple, tokens: tuple,
              colours: tuple, x0: float, y0: float, marks: tuple) -> tuple[str, float]:
    return _recorded(_draw_tree, ed, names, altars, markers, tokens, colours, x0, y0,
                     dict(marks))


def _draw_card(pic: Svg, ed, names: tuple[str, ...], i: int, cid: str, spaces, x: float,
               y: float, marks: dict) -> None:
    card = ed.cards[cid]
    colour = ed.draw[card.colour]
    lit = ("slot", i) in marks
    pic.rect(x, y, CARD_W, CARD_H, fill="#ffffff", stroke=HIGHLIGHT_DARK if lit else colour,
             stroke_width=6 if lit else 2, rx=6,
             title=f"card {i + 1}: {card.name} ({card.type.replace('_', ' ')} card)")
    if lit:
        pic.rect(x, y, CARD_W, CARD_H, fill="none", stroke=HIGHLIGHT, stroke_width=2.5, rx=6)
    pic.rect(x + 2, y + 2, CARD_W - 4, 8, fill=colour)
    if lit:
        _tag(pic, x + 4, y + 4, marks[("slot", i)])
    # corner colours: top right = complete, bottom right = incomplete
    pic.rect(x + CARD_W - 20, y + 14, 14, 14, fill=ed.draw[card.complete_colour],
             stroke="#333333", title=f"complete: scores and is replaced by "
                                     f"{ed.names[card.complete_colour]}")
    pic.rect(x + CARD_W - 20, y + CARD_H - 22, 14, 14, fill=ed.draw[card.incomplete_colour],
             stroke="#333333", title=f"incomplete: replaced by "
                                     f"{ed.names[card.incomplete_colour]}")
    # the bottom-right colour in words too (the top-right one is the card's own colour,
    # written under its name)
    pic.text(x + CARD_W - 24, y + CARD_H - 11, "if incomplete: "
             + ed.names[card.incomplete_colour], size=8, anchor="end", fill="#333333")
    n = len(spaces)
    step = (CARD_W - 40) / max(n, 1)
    radius = min(12.0, step / 2 - 1.5)
    for j, occ in enumerate(spaces):
        sp = card.spaces[j]
        cx, cy = x + 10 + step * (j + 0.5), y + 32
        lit = (i, j) in marks
        who = ", ".join(_name_of(names, m) for m in occ) or "free"
        tip = (f"space {j + 1}: {sp.effect.describe(ed.names)}; "
               f"{'cost ' + (ed.names.get(sp.cost, sp.cost)) if sp.cost else 'no cost'}; {who}")
        pic.circle(cx, cy, radius, fill="#efe9dc", stroke=HIGHLIGHT_DARK if lit else "#777777",
                   stroke_width=6 if lit else 1.2, title=tip, data_cell=f"{i},{j}")
        if lit:
            pic.circle(cx, cy, radius, fill="none", stroke=HIGHLIGHT, stroke_width=2.5)
        for k, m in enumerate(occ):
            off = (k - (len(occ) - 1) / 2) * 8
            pic.circle(cx + off, cy, radius - 4 if len(occ) == 1 else radius / 2,
                       fill=_marker_fill(m),
                       stroke="#000000", stroke_width=2, title=tip, data_cell=f"{i},{j}")
            pic.text(cx + off, cy, _seat_letter(m), size=8, fill=ink_on(_marker_fill(m)),
                     font_weight="bold")
        if sp.cost:
            fill = "#ffffff" if sp.cost == "majority" else ed.draw[sp.cost]
            pic.circle(cx + 10, cy - 10, 5, fill=fill, stroke="#000000", stroke_width=0.8,
                       title=f"cost: {'your majority colour' if sp.cost == 'majority' else ed.names[sp.cost]}")
        if lit:
            _tag(pic, cx - radius, cy - radius, marks[(i, j)])
        # on a crowded card the labels alternate between two lines, so they never overlap
        low = 10 if n >= 4 and j % 2 else 0
        pic.text(cx, cy + 22 + low, sp.effect.short(), size=9 if n < 4 else 8)
        if sp.cost:
            pic.text(cx, cy + (33 if n < 4 else 52), _cost_label(ed, sp.cost), size=8,
                     fill="#666666")
    pic.text(x + 8, y + 96, f"{i + 1}. {card.name}", size=10, anchor="start",
             font_weight="bold")
    pic.text(x + 8, y + 112, f"{ed.names[card.colour]} {card.type.replace('_', ' ')}",
             size=9, anchor="start", fill="#555555")
    if card.incomplete_score:
        pic.text(x + 8, y + 128, f"incomplete: pts/{ed.names[card.incomplete_score]}",
                 size=8, anchor="start", fill="#555555")


def _draw_tree(pic: Svg, ed, names: tuple[str, ...], altars: tuple, markers: tuple,
               tokens: tuple, colours: tuple, x0: float, y0: float, marks: dict) -> None:
    pos = tree_positions(ed)
    cx, cy, unit = x0 + 230, y0 + 190, 120
    pic.text(x0, y0 + 4, "The Great Tree", size=12, anchor="start", font_weight="bold")
    pic.rect(cx - 12, cy - 110, 24, 160, fill="#8b6b4a", rx=4)
    roots = root_spaces(ed)
    for t, space in enumerate(ed.tree):
        px, py = pos[t]
        sx, sy = cx + px * unit, cy + py * unit * 0.6
        pic.line(cx, cy, sx, sy, stroke="#8b6b4a", stroke_width=5)
    for t, space in enumerate(ed.tree):
        px, py = pos[t]
        sx, sy = cx + px * unit, cy + py * unit * 0.6
        altar = altars[t]
        lit = (t,) in marks
        if space.altar:
            label = space.effect.describe(ed.names, altar)
            ring = ed.draw[altar] if altar else "#dddddd"
            extra = (f"altar {ed.names[altar]}: costs {ed.altar_cost} {ed.names[altar]}; "
                     f"end majority {space.first}/{space.second}") if altar else \
                "no altar yet: free, then place an Altar tile"
        else:
            k = roots.index(t)
            label = f"{tokens[k]} set-aside {ed.names[colours[k]]}"
            ring = ed.draw[colours[k]]
            extra = "root space, free"
        m = markers[t]
        who = _name_of(names, m) if m is not None else "free"
        pic.circle(sx, sy, 22, fill="#f3ead8", stroke=HIGHLIGHT_DARK if lit else ring,
                   stroke_width=7 if lit else 6 if altar or not space.altar else 2,
                   title=f"{space.id}: {label}; {extra}; {who}", data_cell=str(t))
        if lit:
            pic.circle(sx, sy, 22, fill="none", stroke=HIGHLIGHT, stroke_width=3)
        if altar:
            # the altar colour in words too, not by the ring's colour alone
            pic.text(sx, sy + 5 if m is None else sy - 12, ed.names[altar][:2], size=9,
                     font_weight="bold")
        if m is not None:
            pic.circle(sx, sy, 9, fill=_marker_fill(m), stroke="#000000", stroke_width=2,
                       data_cell=str(t))
            pic.text(sx, sy, _seat_letter(m), size=8, fill=ink_on(_marker_fill(m)),
                     font_weight="bold")
        if lit:
            _tag(pic, sx - 24, sy - 24, marks[(t,)])
        pic.text(sx, sy - 30, space.id, size=9, font_weight="bold")
        short = {"favor_any": "any 2", "points": "5 pts", "rune_and_altar_favor": "rune+1",
                 "points_altar_colour": "pt/altar", "block_and_altar_favor": "block+1",
                 "altar_favor": "+3", "set_aside": f"+{tokens[roots.index(t)]}"
                 if not space.altar else ""}.get(space.effect.type, space.effect.type)
        pic.text(sx, sy + 31, short, size=9)


def _seat_letter(m: int) -> str:
    return "N" if m == NEUTRAL else str(m + 1)


def _tag(pic: Svg, x: float, y: float, number: int) -> None:
    """A numbered tag beside a highlighted space (the highlight is not colour alone)."""
    pic.circle(x, y, 7, fill="#ffffff", stroke="#000000", stroke_width=1.5)
    pic.text(x, y, str(number), size=9, font_weight="bold")


def _draw_players(pic: Svg, state, x0: float, y0: float) -> None:
    ed = state.edition
    pic.raw(*_players_head_svg(ed, x0, y0))
    current = state.current_player
    for p in range(state.num_players):
        pic.raw(*_player_svg(ed, x0, y0 + 36 + p * 28, p, state.player_name(p), p == current,
                             state.favor[p], state.hand[p], len(state.rune_hands[p]),
                             sum(state.points[p])))
    y = y0 + 36 + state.num_players * 28
    supply = " ".join(f"{ed.names[c][:2]} {n}" for c, n in zip(ed.colours, state.supply))
    pic.text(x0, y, f"supply: {supply}", size=9, anchor="start", fill="#555555")
    pic.text(x0, y + 14, f"runes left {len(state.rune_deck)}; New Start cards left "
             f"{len(state.new_start_deck)}; neutral markers at the tree {state.neutral_home}",
             size=9, anchor="start", fill="#555555")


_SWATCH = 22


@lru_cache(maxsize=64)
def _players_head_svg(ed, x0: float, y0: float) -> tuple[str, float]:
    return _recorded(_draw_players_head, ed, x0, y0)


def _draw_players_head(pic: Svg, ed, x0: float, y0: float) -> None:
    sw = _SWATCH
    pic.text(x0, y0 + 4, "Players", size=12, anchor="start", font_weight="bold")
    for k, c in enumerate(ed.colours):
        pic.text(x0 + 150 + k * sw + sw / 2, y0 + 20, ed.names[c][:2], size=8, fill="#555555")
    pic.text(x0 + 150 + len(ed.colours) * sw + 6, y0 + 20, "hand runes pts", size=8,
             anchor="start", fill="#555555")


@lru_cache(maxsize=2048)
def _player_svg(ed, x0: float, y: float, p: int, name: str, current: bool, favor: tuple,
                hand: int, runes: int, points: int) -> tuple[str, float]:
    return _recorded(_draw_player, ed, x0, y, p, name, current, favor, hand, runes, points)


def _draw_player(pic: Svg, ed, x0: float, y: float, p: int, name: str, current: bool,
                 favor: tuple, hand: int, runes: int, points: int) -> None:
    """A player's line: seat, name (starred while deciding), favor tokens by colour, markers
    in hand, runes and points."""
    sw = _SWATCH
    pic.circle(x0 + 8, y, 7, fill=_marker_fill(p), stroke="#000000", stroke_width=2)
    pic.text(x0 + 8, y, _seat_letter(p), size=8, fill=ink_on(_marker_fill(p)),
             font_weight="bold")
    pic.text(x0 + 20, y, name + (" *" if current else ""), size=11,
             anchor="start", font_weight="bold" if current else None)
    for k, c in enumerate(ed.colours):
        n = favor[k]
        pic.rect(x0 + 150 + k * sw, y - 9, sw - 3, 18, fill=ed.draw[c] if n else "#ffffff",
                 stroke=ed.draw[c], title=f"{ed.names[c]}: {n}")
        pic.text(x0 + 150 + k * sw + (sw - 3) / 2, y, str(n), size=10,
                 fill=ink_on(ed.draw[c]) if n else "#767676")
    pic.text(x0 + 150 + len(ed.colours) * sw + 6, y, f"{hand}    {runes}    {points}",
             size=10, anchor="start")


def action_cells(state, action) -> list[tuple]:
    """What to highlight on the board when ``action`` is selected."""
    if isinstance(action, (OfferCard, RuneOffer, BlockSpace)):
        return [(action.slot, action.space)]
    if isinstance(action, RuneMove):
        return [(action.from_slot, action.from_space), (action.to_slot, action.to_space)]
    if isinstance(action, OfferTree):
        return [(action.space,)]
    if isinstance(action, ChooseAltar) and state.pending and state.pending[0].kind == "altar":
        return [(state.pending[0].data[0],)]
    return []


def card_text(state, slot: int) -> str:
    """A card in plain words: colours, each space's cost, effect and occupants."""
    ed = state.edition
    cid, spaces = state.slots[slot]
    card = ed.cards[cid]
    lines = [f"Card {slot + 1}: {card.name} ({ed.names[card.colour]} {card.type.replace('_', ' ')}"
             f" card, source: {card.source}); complete -> scores and becomes "
             f"{ed.names[card.complete_colour]}, incomplete -> becomes "
             f"{ed.names[card.incomplete_colour]}"]
    for j, occ in enumerate(spaces):
        sp = card.spaces[j]
        cost = "no cost" if sp.cost is None else (
            "pay 1 of your majority colour" if sp.cost == "majority" else
            f"pay 1 {ed.names[sp.cost]}")
        who = ", ".join(_who(state, m) for m in occ) or "free"
        lines.append(f"  space {j + 1}: {sp.effect.describe(ed.names)}; {cost}; {who}")
    return "\n".join(lines)
