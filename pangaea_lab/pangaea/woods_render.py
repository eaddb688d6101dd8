"""Drawing Wild Woods: the Player Boards, the Elemental Storms, Trees with levels and Seeds in
stacks, as the :class:`~.render.Drawing` of the Wild Woods variant (registered with
:mod:`.render` on import; the rules in :mod:`.woods` draw nothing).

With Wild Woods a Tree has one tier per level and its level in a small disc; several Seeds on
one space show as a row of discs with their counts (the majority first, ringed in gold); a
Biome Tile under an Elemental Storm is washed in the Storm's colour with a badge giving the
weather and the tokens left; the status lines add each Player Board and a line on the Storms.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..core import hexgrid
from ..core.exercises import plural
from ..core.palette import ink_on
from ..core.svg import Svg
from .board import Board
from .edition import woods_data
from .render import PLAYER_COLOURS, SIZE, Drawing, _inner_hex, add_drawing, biome_colour
from .state import PLAYER_NAMES
from .woods import VARIANT, is_storm

#: Wild Woods status lines are longer: the picture is at least this wide
WOODS_WIDTH = 560.0
#: the Wild Woods Player Board's two lines under a player's status lines
WOODS_ROW = 30.0


def _storm_wash(pic: Svg, state: Any, i: int, biomes: Sequence[str]) -> None:
    """Elemental Storms: a covered tile's Land Space washed in the Storm's colour (drawn under
    the labels), since the tile counts as that weather while Storm tokens lie on it."""
    board = state.board
    for tile, weather, tokens in state.woods.storm_tiles:
        if board.tile_of[i] == tile:
            _inner_hex(pic, board.cells[i], 0.8, fill=biome_colour(biomes, weather),
                       stroke="#34495e", stroke_width=1.1, stroke_dasharray="3,2",
                       title=_storm_title(board, i, weather, tokens))


def _storm_title(board: Board, i: int, weather: str, tokens: int) -> str:
    return (f"Elemental Storm on {board.cells[i]}: the tile counts as {weather} while "
            f"{plural(tokens, 'Storm token')} {'lies' if tokens == 1 else 'lie'} on it (printed biome "
            f"{board.biome[i]})")


def _storm_badges(pic: Svg, state: Any) -> None:
    """A badge on each Land Space of a covered tile: the Storm's weather and the tokens left."""
    board = state.board
    for tile, weather, tokens in state.woods.storm_tiles:
        for i in board.land:
            if board.tile_of[i] == tile:
                x, y = hexgrid.to_pixel(board.cells[i], SIZE)
                title = _storm_title(board, i, weather, tokens)
                pic.rect(x - 24, y + 2.5, 19, 11, rx=2, fill="#34495e", title=title)
                pic.text(x - 14.5, y + 8, f"{weather[:2]}{tokens}", size=8, fill="#ffffff",
                         font_weight="bold")


def _player_board(pic: Svg, state: Any, p: int, x0: float, y: float) -> None:
    """One player's Wild Woods Player Board as a row of slots: a Treetop (in the player's
    colour, with the slot's cost) on a full slot, an empty slot shows the points it scores;
    then the free-slot points and the extra Seeds unlocked."""
    data = woods_data(state.edition)
    pb = state.woods.player_boards[p]
    pic.text(x0, y, "Player Board", size=8.5, anchor="start", fill="#444444")
    x = x0 + 58
    for k, (slot, full) in enumerate(zip(data.slots, pb.slots)):
        bless = pb.blessings[k]
        title = (f"{PLAYER_NAMES[p]}'s slot {k + 1} (cost {slot.cost}, extra Seed "
                 f"{slot.seed + 1}, {plural(slot.points, 'point')} when empty): "
                 + ("holds its Treetop" + (f" and a {bless} Blessing" if bless else "")
                    if full else "empty"))
        pic.rect(x, y - 6, 13, 12, rx=2, fill="#ffffff" if not full else "#f3efe6",
                 stroke="#8a7a62", stroke_width=0.8,
                 stroke_dasharray=None if full else "2,1.5", title=title)
        if full:
            pic.polygon([(x + 1.5, y + 4.5), (x + 6.5, y - 5), (x + 11.5, y + 4.5)],
                        fill=PLAYER_COLOURS[p], stroke="#1e1e1e", stroke_width=0.6, title=title)
            pic.text(x + 6.5, y + 1.5, str(slot.cost), size=8, fill=ink_on(PLAYER_COLOURS[p]),
                     font_weight="bold")
            if bless:
                pic.circle(x + 12, y - 5.5, 2.6, fill="#e3b505", stroke="#7a5c00",
                           stroke_width=0.6, title=title)
        else:
            pic.text(x + 6.5, y, f"+{slot.points}" if slot.points else "·", size=8,
                     fill="#555555")
        x += 15
    left = pb.slots.count(True)
    pic.text(x + 4, y, f"{plural(left, 'Treetop')} on slots · free slots worth "
             f"{plural(pb.free_points(data), 'point')}", size=8.5, anchor="start", fill="#444444")
    given = f" · {plural(pb.given_up, 'Seed')} given up" if pb.given_up else ""
    pic.text(x0, y + 15, f"extra Seeds unlocked: {pb.unlocked.count(True)} of "
             f"{data.extra_seeds}{given}", size=8.5, anchor="start", fill="#444444")


def _storm_line(state: Any) -> str:
    """Elemental Storms: the Storm cards played and still in the decks, and each covered tile
    (a space of it, printed biome → the Storm's weather, tokens left)."""
    board = state.board
    covered = []
    for tile, weather, tokens in state.woods.storm_tiles:
        i = next(i for i in board.land if board.tile_of[i] == tile)
        covered.append(f"{board.cells[i]} {board.biome[i]}→{weather}, {tokens} token"
                       f"{'' if tokens == 1 else 's'}")
    waiting = sum(1 for c in (*state.land_deck, *state.creature_deck) if is_storm(c))
    return (f"Elemental Storms ({len(state.woods.storm_discard)} played, {waiting} in the "
            "decks) — covered tiles: " + (" · ".join(covered) or "none"))


def player_board_svg(state: Any, player: int) -> str:
    """One player's Wild Woods Player Board, larger than in the status lines: each slot with
    its cost, its Treetop (in the player's colour) while it is there, the Blessing lying on it
    and the points it scores when empty; below, each extra Seed under the slots that hold it
    back (filled while locked, an outline once unlocked)."""
    data = woods_data(state.edition)
    pb = state.woods.player_boards[player]
    colour = PLAYER_COLOURS[player]
    w, gap, x0, y0 = 70.0, 8.0, 10.0, 28.0
    pic = Svg(2 * x0 + len(data.slots) * (w + gap) - gap, 194, background="#ffffff")
    pic.text(x0, 12, f"{PLAYER_NAMES[player]}'s Player Board: "
             f"{plural(pb.slots.count(True), 'Treetop')} on slots · free slots worth "
             f"{plural(pb.free_points(data), 'point')}", size=10, anchor="start", fill="#222222")
    pic.text(x0, 184, f"extra Seeds unlocked: {pb.unlocked.count(True)} of {data.extra_seeds}",
             size=10, anchor="start", fill="#222222")
    for k, (slot, full) in enumerate(zip(data.slots, pb.slots)):
        x = x0 + k * (w + gap)
        bless = pb.blessings[k]
        pic.rect(x, y0, w, 92, rx=6, fill="#f3efe6" if full else "#ffffff", stroke="#8a7a62",
                 stroke_width=1.2, stroke_dasharray=None if full else "4,3",
                 title=f"slot {k + 1}: cost {slot.cost}" + (f", {bless} Blessing" if bless else "")
                 + f", {plural(slot.points, 'point')} when empty")
        pic.text(x + w / 2, y0 + 10, f"slot {k + 1} · cost {slot.cost}", size=8.5,
                 fill="#444444")
        if full:
            cx, cy = x + w / 2, y0 + 44
            pic.polygon([(cx - 17, cy + 16), (cx, cy - 18), (cx + 17, cy + 16)], fill=colour,
                        stroke="#1e1e1e", stroke_width=1.0, title="Treetop")
        else:
            pic.text(x + w / 2, y0 + 44, "empty", size=9, fill="#777777")
        if bless:
            bx, by = x + w - 12, y0 + 26
            pic.polygon([(bx, by - 9), (bx + 7, by), (bx, by + 9), (bx - 7, by)], fill="#e3b505",
                        stroke="#7a5c00", stroke_width=0.8, title=f"{bless} Blessing")
            pic.text(bx, by, bless[0], size=8, fill="#3a2a00", font_weight="bold")
        pic.text(x + w / 2, y0 + 80, f"+{slot.points} if empty" if slot.points else
                 "no points", size=8.5, fill="#2e7d32" if slot.points else "#888888",
                 font_weight="bold" if slot.points else None)
    for n in range(data.extra_seeds):
        ks = data.slots_of_seed(n)
        if not ks:
            continue
        left = x0 + min(ks) * (w + gap) + 6
        right = x0 + max(ks) * (w + gap) + w - 6
        y = y0 + 112
        pic.line(left, y - 10, right, y - 10, stroke="#8a7a62", stroke_width=1.2)
        locked = not pb.unlocked[n]
        pic.circle((left + right) / 2, y + 4, 8, fill=colour if locked else "#ffffff",
                   stroke=colour, stroke_width=2, title=f"extra Seed {n + 1}: "
                   + ("held back by slots " if locked else "unlocked (in the supply for good); "
                      "it was held back by slots ") + " and ".join(str(k + 1) for k in ks))
        pic.text((left + right) / 2, y + 24, "locked" if locked else "unlocked", size=8.5,
                 fill="#444444")
    return pic.render()


class WoodsDrawing(Drawing):
    """Wild Woods in the drawing: the wider picture, Storm washes and badges, Treetops and
    Seed stacks, each player's Player Board row and the Storms' status line."""

    width = WOODS_WIDTH
    row_height = WOODS_ROW

    def washes(self, state: Any) -> bool:
        return bool(state.woods.storm_tiles)

    def wash(self, pic: Svg, state: Any, i: int, biomes: Sequence[str]) -> None:
        _storm_wash(pic, state, i, biomes)

    def treetops(self, state: Any) -> Sequence[int]:
        return state.woods.treetops

    def seed_stacks(self, state: Any) -> Sequence[Sequence[int]]:
        return state.woods.seed_stacks

    def over_pieces(self, pic: Svg, state: Any) -> None:
        if state.woods.storm_tiles:
            _storm_badges(pic, state)

    def player_row(self, pic: Svg, state: Any, p: int, x0: float, y: float) -> None:
        _player_board(pic, state, p, x0, y)

    def status_lines(self, state: Any) -> list[tuple[str, float, str]]:
        return [(_storm_line(state), 9, "#34495e")] if state.woods.storms else []


DRAWING = add_drawing(VARIANT, WoodsDrawing())
