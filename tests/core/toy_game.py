"""Moss: a tiny hex placement game that implements the whole game protocol, for core tests.

Rules: a radius-2 hex board (19 cells) with a few rocks placed by the seed.  On your turn
place a stone on an empty cell, or pass.  The game ends when the board is full or after
two whole rounds of passes in a row.  Score 1 point per stone ("Stones") and 1 per pair of your own
stones side by side ("Links").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Iterable

from pangaea_lab.core import hexgrid, jsonio
from pangaea_lab.core.errors import InvalidSetup
from pangaea_lab.core.protocol import Action, GameState, ScoreBreakdown
from pangaea_lab.core.rng import check_seed, make_rng
from pangaea_lab.core.svg import hex_canvas

BOARD: tuple[hexgrid.Hex, ...] = tuple(hexgrid.spiral((0, 0), 2))
COLOURS = ("#c0392b", "#2471a3", "#d4ac0d", "#7d3c98")


@dataclass(frozen=True)
class Place(Action):
    kind: ClassVar[str] = "place"
    cell: hexgrid.Hex

    def describe(self) -> str:
        return f"Place a stone on {self.cell}"


@dataclass(frozen=True)
class Pass(Action):
    kind: ClassVar[str] = "pass"

    def describe(self) -> str:
        return "Pass"


@dataclass(frozen=True)
class MossState(GameState):
    game: ClassVar[str] = "moss"

    players: int
    seed: int | str
    rocks: tuple[hexgrid.Hex, ...]
    stones: tuple[tuple[hexgrid.Hex, int], ...] = ()
    turn: int = 0
    passes: int = 0

    # ----- protocol ------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def is_over(self) -> bool:
        return self.passes >= 2 * self.players or not self.empty_cells()

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    def empty_cells(self) -> list[hexgrid.Hex]:
        taken = set(self.rocks) | {cell for cell, _ in self.stones}
        return [cell for cell in BOARD if cell not in taken]

    def legal_actions(self) -> list[Action]:
        if self.is_over:
            return []
        return [*(Place(cell) for cell in self.empty_cells()), Pass()]

    def apply(self, action: Action) -> MossState:
        if self.is_over:
            raise self.reject("the game is over", rule="End of the game")
        if action not in self.legal_actions():
            raise self.reject(f"cannot do this now: {action.describe()}",
                              rule="Placing a stone", like=type(action))
        turn = (self.turn + 1) % self.players
        if isinstance(action, Pass):
            return replace(self, turn=turn, passes=self.passes + 1)
        assert isinstance(action, Place)
        return replace(self, stones=self.stones + ((action.cell, self.turn),), turn=turn,
                       passes=0)

    def scores(self) -> list[ScoreBreakdown]:
        owner = dict(self.stones)
        out = []
        for p in range(self.players):
            mine = [cell for cell, who in self.stones if who == p]
            links = sum(1 for a in mine for b in hexgrid.neighbours(a)
                        if owner.get(b) == p and a < b)
            out.append(ScoreBreakdown(p, (("Stones", len(mine)), ("Links", links))))
        return out

    def to_json(self) -> str:
        return jsonio.dumps({
            "game": self.game, "format": jsonio.FORMAT_VERSION, "players": self.players,
            "seed": self.seed, "rocks": [list(c) for c in self.rocks],
            "stones": [[c[0], c[1], p] for c, p in self.stones],
            "turn": self.turn, "passes": self.passes,
        })

    @classmethod
    def from_json(cls, text: str) -> MossState:
        data = jsonio.open_save(text, cls.game)
        players = jsonio.field(data, "players", int, "save")
        seed = jsonio.field(data, "seed", (int, str), "save")
        rocks = jsonio.field(data, "rocks", list, "save")
        stones = jsonio.field(data, "stones", list, "save")
        turn = jsonio.field(data, "turn", int, "save")
        passes = jsonio.field(data, "passes", int, "save")
        return cls(players, seed,
                   jsonio.convert("save.rocks", lambda: tuple((q, r) for q, r in rocks)),
                   jsonio.convert("save.stones",
                                  lambda: tuple(((q, r), p) for q, r, p in stones)),
                   turn, passes)

    # ----- optional hooks ------------------------------------------------------------------

    def player_name(self, player: int) -> str:
        return ("Red", "Blue", "Yellow", "Purple")[player]

    def player_summary(self, player: int) -> str:
        s = self.scores()[player]
        return f"{s['Stones']} stones, {s['Links']} links"

    def action_highlight(self, action: Action) -> tuple[hexgrid.Hex, ...]:
        return (action.cell,) if isinstance(action, Place) else ()

    def to_svg(self, highlight: Iterable[hexgrid.Hex] = ()) -> str:
        marked = set(highlight)
        owner = dict(self.stones)
        pic = hex_canvas(BOARD, 20, background="#f4f1e8")
        for cell in BOARD:
            fill = "#7f8c8d" if cell in self.rocks else "#dfe8c8"
            pic.hexagon(cell, 20, fill=fill, stroke="#e67e22" if cell in marked else "#555",
                        stroke_width=3 if cell in marked else 1, title=str(cell))
            if cell in owner:
                x, y = hexgrid.to_pixel(cell, 20)
                pic.circle(x, y, 9, fill=COLOURS[owner[cell]])
        return pic.render()

    def check_invariants(self) -> None:
        cells = [cell for cell, _ in self.stones]
        assert len(set(cells)) == len(cells), "two stones on one cell"
        assert not set(cells) & set(self.rocks), "a stone on a rock"
        assert set(cells) <= set(BOARD), "a stone off the board"


def new_game(players: int = 2, seed: int | str = 0, rocks: int = 3) -> MossState:
    """A fresh game of Moss; the seed decides where the rocks lie."""
    if not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidSetup(f"Moss is for 2 to 4 players, not {players!r}")
    check_seed(seed)
    if not 0 <= rocks <= 6:
        raise InvalidSetup(f"Moss has 0 to 6 rocks, not {rocks!r}")
    rng = make_rng(seed, "rocks")
    return MossState(players, seed, tuple(sorted(rng.sample(BOARD[1:], rocks))))
