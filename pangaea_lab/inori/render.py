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

CARD_W, CARD_H, GAP = 200, 210, 8
#: cards in a row: three keep the drawing narrow enough for a 768-pixel window
PER_ROW = 3
TOP = 44
#: the smallest text in the drawing (its zoom makes it 11 pixels on screen, see core.svg)
SMALL = 10
#: the lines under the board that say how to read a card
LEGEND = (
    "How to read a card: its circles are its spaces, numbered along the top; a number on a "
    "marker",
    "is the player standing there (N: a neutral marker). Under them, what each space gives, "
    "and its cost.",
    "complete: when every space is taken, each player there scores 1 point per token of that "
    "colour",
    "and a card of that colour comes next; incomplete: the colour of the card that comes "
    "next otherwise.",
)
HIGHLIGHT = HIGHLIGHT_LIGHT   # drawn over a dark line of HIGHLIGHT_DARK (see core.palette)


def _marker_fill(m: int) -> str:
    return NEUTRAL_COLOUR if m == NEUTRAL else SEAT_COLOURS[m % len(SEAT_COLOURS)]


def _who(state, m: int) -> str:
    return "neutral marker" if m == NEUTRAL else state.player_name(m)


def _cost_label(ed, cost: str | None) -> str:
    if cost is None:
        return ""
    return "pay 1 of your majority colour" if cost == "majority" else f"pay 1 {ed.names[cost]}"


def _effect_words(ed, effect) -> str:
    """A card space's effect in a few words (the full sentence is in its tooltip)."""
    t, names = effect.type, ed.names
    if t == "favor":
        return "gain " + " + ".join(names.get(c, c) for c in effect.colours)
    if t == "favor_least":
        return f"gain {effect.count} of your least colour"
    if t == "points_distinct":
        return "1 point per colour held"
    if t == "points_colour":
        return f"1 point per {names.get(effect.colour, effect.colour)} token"
    if t == "points_majority":
        return "1 point per majority token"
    return effect.describe(names)


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
    width = PER_ROW * (CARD_W + GAP) + GAP
    rows = -(-n_slots // PER_ROW)
    tree_top = TOP + rows * (CARD_H + GAP) + 16
    players_top = tree_top + 440
    height = players_top + 36 + state.num_players * 28 + 44 + 14 * len(LEGEND)
    pic = Svg(width, height, background="#fbf8f1")
    status = "game over" if state.is_over else \
        f"{state.player_name(state.current_player)} to play"
    pic.text(GAP, 16, title or f"Inori - season {state.season} of {ed.seasons} - {status}",
             size=14, anchor="start", font_weight="bold")
    note = f"{ed.name} [{ed.label}]"
    if state.pending and state.pending[0].kind == "rune_window" and not state.is_over:
        note = "The season is ending: an any-time rune may be played.  " + note
    pic.text(GAP, 34, note, size=SMALL, anchor="start", fill="#555555")

    names = _names(state)
    for i in range(n_slots):
        x = GAP + (i % PER_ROW) * (CARD_W + GAP)
        y = TOP + (i // PER_ROW) * (CARD_H + GAP)
        if i >= len(state.slots):
            pic.rect(x, y, CARD_W, CARD_H, fill="none", stroke="#999999",
                     stroke_dasharray="4 4", title="slot for a New Start card in a later season")
            pic.text(x + CARD_W / 2, y + CARD_H / 2, f"card {i + 1}: a later season",
                     size=SMALL, fill="#666666")
            continue
        cid, spaces = state.slots[i]
        mine = tuple((h, n) for h, n in marks.items() if h == ("slot", i) or h[:1] == (i,)
                     and len(h) == 2)
        pic.raw(*_card_svg(ed, names, i, cid, spaces, x, y, mine))

    tree_marks = tuple((h, n) for h, n in marks.items() if len(h) == 1)
    pic.raw(*_tree_svg(ed, names, state.altars, state.tree_markers, state.root_tokens,
                       state.root_colours, width / 2, tree_top, tree_marks))
    pic.text(GAP, tree_top + 4, "The Great Tree", size=12, anchor="start", font_weight="bold")
    _draw_players(pic, state, GAP, players_top)
    y = players_top + 36 + state.num_players * 28 + 44
    for k, line in enumerate(LEGEND):
        pic.text(GAP, y + 14 * k, line, size=SMALL, anchor="start", fill="#333333")
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
              colours: tuple, cx: float, y0: float, marks: tuple) -> tuple[str, float]:
    return _recorded(_draw_tree, ed, names, altars, markers, tokens, colours, cx, y0,
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
        _tag(pic, x + 12, y + 8, marks[("slot", i)])
    pic.text(x + 8, y + 22, f"{i + 1}. {card.name}", size=12, anchor="start",
             font_weight="bold")
    pic.text(x + 8, y + 36, f"{ed.names[card.colour]} {card.type.replace('_', ' ')} card",
             size=SMALL, anchor="start", fill="#444444")
    _draw_spaces(pic, ed, names, i, card, spaces, x, y + 70, marks)
    lines = []
    for j, sp in enumerate(card.spaces[:len(spaces)]):
        lines.append((f"{j + 1}  {_effect_words(ed, sp.effect)}", "#111111"))
        if sp.cost:
            lines.append((f"    {_cost_label(ed, sp.cost)}", "#444444"))
    for k, (line, ink) in enumerate(lines):
        pic.text(x + 8, y + 98 + 12 * k, line, size=SMALL, anchor="start", fill=ink)
    ends = [("complete", card.complete_colour, "scores and is replaced by"),
            ("incomplete", card.incomplete_colour, "replaced by")]
    for k, (word, c, how) in enumerate(ends):
        yy = y + 172 + 14 * k
        pic.rect(x + 8, yy - 5, 10, 10, fill=ed.draw[c], stroke="#333333",
                 title=f"{word}: {how} {ed.names[c]}")
        pic.text(x + 22, yy, f"{word}: {ed.names[c]}", size=SMALL, anchor="start",
                 fill="#333333")
    if card.incomplete_score:
        pic.text(x + 8, y + 200, f"scores {ed.names[card.incomplete_score]} if incomplete",
                 size=SMALL, anchor="start", fill="#333333")


def _draw_spaces(pic: Svg, ed, names: tuple[str, ...], i: int, card, spaces, x: float,
                 cy: float, marks: dict) -> None:
    """A card's spaces in a row: a circle each, its number above, the markers on it."""
    step = (CARD_W - 16) / max(len(spaces), 1)
    radius = 13.0
    for j, occ in enumerate(spaces):
        sp = card.spaces[j]
        cx = x + 8 + step * (j + 0.5)
        lit = (i, j) in marks
        who = ", ".join(_name_of(names, m) for m in occ) or "free"
        tip = (f"space {j + 1}: {sp.effect.describe(ed.names)}; "
               f"{'cost ' + (ed.names.get(sp.cost, sp.cost)) if sp.cost else 'no cost'}; {who}")
        pic.circle(cx, cy, radius, fill="#efe9dc", stroke=HIGHLIGHT_DARK if lit else "#777777",
                   stroke_width=6 if lit else 1.2, title=tip, data_cell=f"{i},{j}")
        if lit:
            pic.circle(cx, cy, radius, fill="none", stroke=HIGHLIGHT, stroke_width=2.5)
        pic.text(cx, cy - radius - 7, str(j + 1), size=SMALL, fill="#444444")
        for k, m in enumerate(occ):
            off = (k - (len(occ) - 1) / 2) * 12
            pic.circle(cx + off, cy, radius - 3 if len(occ) == 1 else radius / 2 + 1,
                       fill=_marker_fill(m), stroke="#000000", stroke_width=2, title=tip,
                       data_cell=f"{i},{j}")
            pic.text(cx + off, cy, _seat_letter(m), size=SMALL, fill=ink_on(_marker_fill(m)),
                     font_weight="bold")
        if sp.cost:
            fill = "#ffffff" if sp.cost == "majority" else ed.draw[sp.cost]
            pic.circle(cx + radius, cy - radius + 2, 4.5, fill=fill, stroke="#000000",
                       stroke_width=0.8, title=_cost_label(ed, sp.cost))
        if lit:
            _tag(pic, cx - radius, cy - radius, marks[(i, j)])


def _tree_words(ed, space, altar: str | None, tokens: int | None, colour: str | None
                ) -> tuple[str, ...]:
    """A Great Tree space's effect in a few words, a line or two (its tooltip says it all)."""
    e = space.effect
    altar_name = ed.names[altar] if altar else "altar-colour"
    return {"favor_any": (f"any {e.count} favor",),
            "points": (f"{e.count} points",),
            "rune_and_altar_favor": ("a rune and", f"{e.count} {altar_name} favor"),
            "points_altar_colour": ("1 point per", f"{altar_name} token"),
            "block_and_altar_favor": (f"block {e.block} spaces,", f"{e.count} {altar_name} favor"),
            "altar_favor": (f"{e.count} {altar_name} favor",),
            "set_aside": (f"{tokens} {ed.names.get(colour, colour)}", "set aside"),
            }.get(e.type, (e.describe(ed.names, altar),))


def _draw_tree(pic: Svg, ed, names: tuple[str, ...], altars: tuple, markers: tuple,
               tokens: tuple, colours: tuple, cx: float, y0: float, marks: dict) -> None:
    """The Great Tree, its trunk at ``cx``, its top at ``y0``."""
    pos = tree_positions(ed)
    cy, unit = y0 + 280, 125
    pic.rect(cx - 12, cy - 45, 24, 105, fill="#8b6b4a", rx=4)
    roots = root_spaces(ed)
    for t, space in enumerate(ed.tree):
        px, py = pos[t]
        sx, sy = cx + px * unit, cy + py * unit * 0.8
        pic.line(cx, cy, sx, sy, stroke="#8b6b4a", stroke_width=5)
    for t, space in enumerate(ed.tree):
        px, py = pos[t]
        sx, sy = cx + px * unit, cy + py * unit * 0.8
        altar = altars[t]
        lit = (t,) in marks
        if space.altar:
            label = space.effect.describe(ed.names, altar)
            ring = ed.draw[altar] if altar else "#dddddd"
            extra = (f"altar {ed.names[altar]}: costs {ed.altar_cost} {ed.names[altar]}; "
                     f"end majority {space.first}/{space.second}") if altar else \
                "no altar yet: free, then place an Altar tile"
            words = _tree_words(ed, space, altar, None, None)
        else:
            k = roots.index(t)
            label = f"{tokens[k]} set-aside {ed.names[colours[k]]}"
            ring = ed.draw[colours[k]]
            extra = "root space, free"
            words = _tree_words(ed, space, None, tokens[k], colours[k])
        m = markers[t]
        who = _name_of(names, m) if m is not None else "free"
        pic.circle(sx, sy, 22, fill="#f3ead8", stroke=HIGHLIGHT_DARK if lit else ring,
                   stroke_width=7 if lit else 6 if altar or not space.altar else 2,
                   title=f"{space.id}: {label}; {extra}; {who}", data_cell=str(t))
        if lit:
            pic.circle(sx, sy, 22, fill="none", stroke=HIGHLIGHT, stroke_width=3)
        if m is not None:
            pic.circle(sx, sy, 10, fill=_marker_fill(m), stroke="#000000", stroke_width=2,
                       data_cell=str(t))
            pic.text(sx, sy, _seat_letter(m), size=SMALL, fill=ink_on(_marker_fill(m)),
                     font_weight="bold")
        if lit:
            _tag(pic, sx - 31, sy, marks[(t,)])
        # the altar's colour in words, not by the ring's colour alone
        head = f"{space.id}: {ed.names[altar]} altar" if altar else space.id
        pic.text(sx, sy - 30, head, size=SMALL, font_weight="bold")
        for k, line in enumerate(words):
            pic.text(sx, sy + 32 + 12 * k, line, size=SMALL)


def _seat_letter(m: int) -> str:
    return "N" if m == NEUTRAL else str(m + 1)


def _tag(pic: Svg, x: float, y: float, number: int) -> None:
    """A numbered tag beside a highlighted space (the highlight is not colour alone)."""
    pic.circle(x, y, 8, fill="#ffffff", stroke="#000000", stroke_width=1.5)
    pic.text(x, y, str(number), size=SMALL, font_weight="bold")


#: the players' table: where the name ends and each colour's column is as wide
_NAME_W, _COLUMN = 112, 56


def _draw_players(pic: Svg, state, x0: float, y0: float) -> None:
    ed = state.edition
    pic.raw(*_players_head_svg(ed, x0, y0))
    current = state.current_player
    for p in range(state.num_players):
        pic.raw(*_player_svg(ed, x0, y0 + 36 + p * 28, p, state.player_name(p), p == current,
                             state.favor[p], state.hand[p], len(state.rune_hands[p]),
                             sum(state.points[p])))
    y = y0 + 36 + state.num_players * 28
    supply = ", ".join(f"{ed.names[c]} {n}" for c, n in zip(ed.colours, state.supply))
    pic.text(x0, y, f"Favor tokens left: {supply}", size=SMALL, anchor="start",
             fill="#444444")
    pic.text(x0, y + 14, f"Runes left {len(state.rune_deck)}; New Start cards left "
             f"{len(state.new_start_deck)}; neutral markers at the tree {state.neutral_home}",
             size=SMALL, anchor="start", fill="#444444")


@lru_cache(maxsize=64)
def _players_head_svg(ed, x0: float, y0: float) -> tuple[str, float]:
    return _recorded(_draw_players_head, ed, x0, y0)


def _draw_players_head(pic: Svg, ed, x0: float, y0: float) -> None:
    pic.text(x0, y0 + 4, "Players: favor tokens by colour", size=12, anchor="start",
             font_weight="bold")
    heads = [ed.names[c] for c in ed.colours] + ["markers", "runes", "points"]
    for k, word in enumerate(heads):
        pic.text(x0 + _NAME_W + k * _COLUMN + _COLUMN / 2, y0 + 20, word, size=SMALL,
                 fill="#444444")


@lru_cache(maxsize=2048)
def _player_svg(ed, x0: float, y: float, p: int, name: str, current: bool, favor: tuple,
                hand: int, runes: int, points: int) -> tuple[str, float]:
    return _recorded(_draw_player, ed, x0, y, p, name, current, favor, hand, runes, points)


def _draw_player(pic: Svg, ed, x0: float, y: float, p: int, name: str, current: bool,
                 favor: tuple, hand: int, runes: int, points: int) -> None:
    """A player's line: seat, name (starred while deciding), favor tokens by colour, markers
    in hand, runes and points."""
    pic.circle(x0 + 8, y, 8, fill=_marker_fill(p), stroke="#000000", stroke_width=2)
    pic.text(x0 + 8, y, _seat_letter(p), size=SMALL, fill=ink_on(_marker_fill(p)),
             font_weight="bold")
    pic.text(x0 + 20, y, name + (" *" if current else ""), size=11,
             anchor="start", font_weight="bold" if current else None)
    for k, c in enumerate(ed.colours):
        n = favor[k]
        left = x0 + _NAME_W + k * _COLUMN
        pic.rect(left + 12, y - 9, _COLUMN - 24, 18, fill=ed.draw[c] if n else "#ffffff",
                 stroke=ed.draw[c], title=f"{ed.names[c]}: {n}")
        pic.text(left + _COLUMN / 2, y, str(n), size=SMALL + 1,
                 fill=ink_on(ed.draw[c]) if n else "#767676")
    for k, n in enumerate((hand, runes, points)):
        pic.text(x0 + _NAME_W + (len(ed.colours) + k) * _COLUMN + _COLUMN / 2, y, str(n),
                 size=SMALL + 1)


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
