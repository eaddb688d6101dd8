"""The changing state of a game of The Dawn of Pangaea, and saving it as JSON.

A state never changes after it is made: ``apply`` (in :mod:`.rules`) builds a new one.  Per
space data are tuples indexed like ``board.cells``; -1 means "nobody".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from ..core import jsonio
from ..core.errors import InvalidData
from ..core.hexgrid import Hex
from ..core.protocol import GameState as BaseState, ScoreBreakdown
from .board import Board, board_from_list
from .edition import BLESSING_KINDS, CreatureCard, Edition, LandCard, edition_from_dict
from . import scoring
from .rituals import NOBODY, Position

PLAYER_NAMES = ("Red", "Blue", "Orange", "Purple")
MARKET_SLOTS = ("land", "land", "creature", "creature")
PHASES = ("main", "final", "over")


@dataclass(frozen=True)
class PlayerState:
    """What one player holds: supply, hand, tokens, points, played cards."""

    trees: int
    seeds: int
    hand: tuple[str, ...]
    weather: tuple[int, ...]
    blessings: tuple[int, ...]
    creature_points: int = 0
    land_points: int = 0
    played: tuple[str, ...] = ()

    @property
    def points(self) -> int:
        return self.creature_points + self.land_points

    def blessing_count(self, kind: str) -> int:
        return self.blessings[BLESSING_KINDS.index(kind)]


@dataclass(frozen=True)
class Pending:
    """A decision that interrupts the turn: Step 3 (draw a new card) or moving Trees."""

    kind: str                                  # "draw" or "move"
    player: int
    targets: tuple[int, ...] = ()   # for "move": growing spaces still waiting for a Tree
    owners: tuple[int, ...] = ()    # ... and whose Tree each of them waits for
    grown: tuple[int, ...] = ()     # spaces grown in this growth (their Trees cannot move)


@dataclass(frozen=True, eq=True)
class GameState(BaseState):
    """A position of The Dawn of Pangaea (see :func:`pangaea_lab.pangaea.new_game`)."""

    game = "pangaea"

    edition: Edition
    board: Board
    seed: int | str
    family: bool
    trees: tuple[int, ...]
    seeds: tuple[int, ...]
    spirits: tuple[int, ...]
    board_blessings: tuple[str, ...]
    players: tuple[PlayerState, ...]
    land_deck: tuple[str, ...]
    creature_deck: tuple[str, ...]
    market: tuple[str | None, ...]
    weather_supply: tuple[int, ...]
    blessing_bag: tuple[str, ...]
    blessing_discard: tuple[str, ...]
    most_trees: int
    first_player: int
    turn_player: int
    actions_taken: int = 0
    exchange_used: bool = False
    pending: Pending | None = None
    round: int = 1
    end_triggered: bool = False
    phase: str = "main"
    final_ritual_done: bool = False
    end_reason: str = ""

    # ----- protocol -------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def current_player(self) -> int | None:
        if self.phase == "over":
            return None
        if self.pending is not None:
            return self.pending.player
        return self.turn_player

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> list:
        from .rules import legal_actions
        return legal_actions(self)

    def apply(self, action) -> "GameState":
        from .rules import apply
        return apply(self, action)

    def scores(self) -> list[ScoreBreakdown]:
        final = self.is_over
        bonus = self.edition.most_trees_bonus
        return [scoring.breakdown(p, ps.creature_points, ps.land_points,
                                  bonus if self.most_trees == p else 0, final)
                for p, ps in enumerate(self.players)]

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        return scoring.rank([s.total for s in self.scores()],
                            [sum(ps.weather) for ps in self.players])

    def player_name(self, player: int) -> str:
        return PLAYER_NAMES[player]

    def player_summary(self, player: int) -> str:
        ps = self.players[player]
        step, markers = scoring.mountain_position(ps.points, self.edition.summit_steps)
        weather = ", ".join(f"{n} {b}" for b, n in zip(self.edition.biomes, ps.weather) if n) or "none"
        bless = ", ".join(f"{n} {k}" for k, n in zip(BLESSING_KINDS, ps.blessings) if n) or "none"
        hand = "; ".join(self.edition.card(c).title for c in ps.hand) or "empty"
        on_board = self.trees.count(player)
        text = (f"{ps.points} points (mountain step {step}/{self.edition.summit_steps}"
                f"{f', {markers} Summit Marker' if markers else ''}); "
                f"Trees: {ps.trees} in supply, {on_board} on the continent; "
                f"Seeds: {ps.seeds} in supply; Weather: {weather}; Blessings: {bless}; "
                f"Hand: {hand}")
        if self.most_trees == player:
            text += "; holds Most Trees"
        return text

    def to_svg(self, highlight: Iterable[Any] = ()) -> str:
        from .render import board_svg
        return board_svg(self, highlight=highlight)

    def action_highlight(self, action) -> list[Hex]:
        """The spaces an action touches, for highlighting it on the board."""
        for name in ("path", "cells"):
            if hasattr(action, name):
                return list(getattr(action, name))
        for name in ("cell", "origin", "target"):
            if hasattr(action, name):
                return [getattr(action, name)]
        return []

    # ----- helpers ----------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """Trees and Spirits as a :class:`~.rituals.Position`, for Land Ritual questions."""
        at = [NOBODY] * len(self.board)
        for p, i in enumerate(self.spirits):
            if i != NOBODY:
                at[i] = p
        return Position(self.board, self.trees, tuple(at))

    def card(self, card_id: str) -> LandCard | CreatureCard:
        return self.edition.card(card_id)

    def spirit_cell(self, player: int) -> Hex | None:
        i = self.spirits[player]
        return None if i == NOBODY else self.board.cells[i]

    def trees_of(self, player: int) -> list[Hex]:
        return [self.board.cells[i] for i, o in enumerate(self.trees) if o == player]

    def seeds_of(self, player: int) -> list[Hex]:
        return [self.board.cells[i] for i, o in enumerate(self.seeds) if o == player]

    def mountain(self, player: int) -> tuple[int, int]:
        """``(step, summit markers)`` of a player on the Sacred Mountain."""
        return scoring.mountain_position(self.players[player].points, self.edition.summit_steps)

    def with_players(self, players: list[PlayerState]) -> "GameState":
        return replace(self, players=tuple(players))

    def arranged(self, trees: Mapping[Hex, int] | None = None,
                 seeds: Mapping[Hex, int] | None = None,
                 spirits: Mapping[int, Hex | None] | None = None,
                 weather: Mapping[int, Mapping[str, int]] | None = None,
                 blessings: Mapping[int, Mapping[str, int]] | None = None,
                 hands: Mapping[int, Iterable[str]] | None = None,
                 points: Mapping[int, int] | None = None) -> "GameState":
        """The same game with pieces placed by hand, for lessons and "score this" questions.

        Trees and Seeds come from (or go back to) their owners' supplies; Weather Tokens and
        Blessings from the supply and the bag; hand cards from the decks or the market
        (replaced from the decks).  Anything impossible raises InvalidSetup naming it, e.g.
        more than 10 Trees for a player.

        >>> from pangaea_lab import pangaea
        >>> s = pangaea.new_game(players=2, seed=1)
        >>> cell = s.board.cells[s.board.land[0]]
        >>> s.arranged(trees={cell: 1}).players[1].trees
        9
        """
        from .arrange import arrange
        return arrange(self, trees=trees, seeds=seeds, spirits=spirits, weather=weather,
                       blessings=blessings, hands=hands, points=points)

    # ----- invariants ---------------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Component counts are conserved; raises AssertionError naming what is off."""
        ed = self.edition
        n = self.num_players
        for p, ps in enumerate(self.players):
            assert ps.trees + self.trees.count(p) == ed.trees_per_player, \
                f"{PLAYER_NAMES[p]} should own {ed.trees_per_player} Trees (supply + continent)"
            assert ps.seeds + self.seeds.count(p) + 1 == ed.seeds_per_player, \
                f"{PLAYER_NAMES[p]} should own {ed.seeds_per_player} Seeds (supply + continent + score marker)"
            assert ps.trees >= 0 and ps.seeds >= 0 and min(ps.weather) >= 0 and min(ps.blessings) >= 0
        for k, total in enumerate(ed.weather_tokens):
            held = self.weather_supply[k] + sum(ps.weather[k] for ps in self.players)
            assert held == total, f"{ed.biomes[k]} Weather Tokens: {held} in play, {total} in the box"
        for k, kind in enumerate(BLESSING_KINDS):
            count = (sum(ps.blessings[k] for ps in self.players) + self.board_blessings.count(kind)
                     + self.blessing_bag.count(kind) + self.blessing_discard.count(kind))
            assert count == dict(ed.blessings)[kind], f"{kind} Blessings are not conserved"
        cards = (list(self.land_deck) + list(self.creature_deck) + [c for c in self.market if c]
                 + [c for ps in self.players for c in ps.hand] + [c for ps in self.players for c in ps.played])
        assert sorted(cards) == sorted(ed.cards), "every Ritual card must be in exactly one place"
        for i in range(len(self.board)):
            if self.trees[i] != NOBODY or self.seeds[i] != NOBODY:
                assert self.board.terrain[i] == "land", "Trees and Seeds stand on land only"
            assert not (self.trees[i] != NOBODY and self.seeds[i] != NOBODY), \
                f"{self.board.cells[i]} holds a Tree and a Seed"
        spirits = [i for i in self.spirits if i != NOBODY]
        assert len(set(spirits)) == len(spirits), "two Spirits share a Water Space"
        assert all(self.board.terrain[i] == "water" for i in spirits), "Spirits stand on water"
        counts = [self.trees.count(p) for p in range(n)]
        assert self.most_trees == scoring.most_trees_holder(counts, ed.most_trees_minimum), \
            "the Most Trees marker is with the wrong player"

    # ----- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> str:
        b = self.board
        ed = self.edition

        def cells(values: tuple[int, ...]) -> list:
            return [[*b.cells[i], o] for i, o in enumerate(values) if o != NOBODY]

        data = {
            "game": self.game, "format": jsonio.FORMAT_VERSION,
            "seed": self.seed, "family": self.family,
            "board": b.to_list(), "mountain": [list(h) for h in b.mountain],
            "trees": cells(self.trees), "seeds": cells(self.seeds),
            "spirits": [None if i == NOBODY else list(b.cells[i]) for i in self.spirits],
            "board_blessings": [[*b.cells[i], k] for i, k in enumerate(self.board_blessings) if k],
            "players": [{
                "trees": ps.trees, "seeds": ps.seeds, "hand": list(ps.hand),
                "weather": dict(zip(ed.biomes, ps.weather)),
                "blessings": dict(zip(BLESSING_KINDS, ps.blessings)),
                "creature_points": ps.creature_points, "land_points": ps.land_points,
                "played": list(ps.played)} for ps in self.players],
            "land_deck": list(self.land_deck), "creature_deck": list(self.creature_deck),
            "market": list(self.market),
            "weather_supply": dict(zip(ed.biomes, self.weather_supply)),
            "blessing_bag": list(self.blessing_bag), "blessing_discard": list(self.blessing_discard),
            "first_player": self.first_player, "turn_player": self.turn_player,
            "actions_taken": self.actions_taken, "exchange_used": self.exchange_used,
            "pending": None if self.pending is None else {
                "kind": self.pending.kind, "player": self.pending.player,
                "targets": [list(b.cells[i]) for i in self.pending.targets],
                "owners": list(self.pending.owners),
                "grown": [list(b.cells[i]) for i in self.pending.grown]},
            "round": self.round, "end_triggered": self.end_triggered, "phase": self.phase,
            "final_ritual_done": self.final_ritual_done, "end_reason": self.end_reason,
        }
        # the edition is written first, from its cached canonical text (it is the bulk of a save)
        return '{"edition":' + ed.canonical_json + "," + jsonio.dumps(data)[1:]

    @classmethod
    def from_json(cls, text: str | bytes) -> "GameState":
        """Read a saved game; a tampered or malformed file raises InvalidData naming the field."""
        data = jsonio.open_save(text, cls.game)
        f = jsonio.field
        ed = edition_from_dict(f(data, "edition", dict, "save"))
        board = board_from_list(f(data, "board", list, "save"), f(data, "mountain", list, "save"),
                                ed.biomes)
        seed = f(data, "seed", (int, str), "save")
        family = f(data, "family", bool, "save")
        raw_players = f(data, "players", list, "save")
        n = len(raw_players)
        if not ed.min_players <= n <= ed.max_players:
            raise InvalidData(f"field 'players' lists {n} players; the game is for "
                              f"{ed.min_players} to {ed.max_players}")

        def player_no(v: Any, where: str, allow_none: bool = False) -> int:
            if allow_none and v in (None, -1):
                return NOBODY
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
                raise InvalidData(f"field {where} must be a player number 0..{n - 1}, found {v!r}")
            return v

        def space(v: Any, where: str) -> int:
            if not isinstance(v, list) or len(v) < 2:
                raise InvalidData(f"field {where} must start with a [q, r] space")
            try:
                return board.cell_of((v[0], v[1]))
            except InvalidData as exc:
                raise InvalidData(f"field {where}: {exc}") from None

        def occupancy(key: str) -> tuple[int, ...]:
            out = [NOBODY] * len(board)
            for k, row in enumerate(f(data, key, list, "save")):
                if not isinstance(row, list) or len(row) != 3:
                    raise InvalidData(f"field {key}[{k}] must be [q, r, player]")
                i = space(row, f"{key}[{k}]")
                if out[i] != NOBODY:
                    raise InvalidData(f"field {key}[{k}]: space {board.cells[i]} is listed twice")
                out[i] = player_no(row[2], f"{key}[{k}][2]")
            return tuple(out)

        def counts(obj: Any, keys: tuple[str, ...], where: str) -> tuple[int, ...]:
            if not isinstance(obj, dict) or set(obj) != set(keys):
                raise InvalidData(f"field {where} must give a count for each of {list(keys)}")
            for k in keys:
                v = obj[k]
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    raise InvalidData(f"field {where}.{k} must be a whole number >= 0, found {v!r}")
            return tuple(obj[k] for k in keys)

        def card_list(v: Any, where: str, allow_none: bool = False) -> tuple:
            if not isinstance(v, list):
                raise InvalidData(f"field {where} must be a list of card ids")
            for c in v:
                if c is None and allow_none:
                    continue
                if not isinstance(c, str) or c not in ed.cards:
                    raise InvalidData(f"field {where}: {c!r} is not a card of this edition")
            return tuple(v)

        def kinds(v: Any, where: str) -> tuple[str, ...]:
            if not isinstance(v, list) or not all(k in BLESSING_KINDS for k in v):
                raise InvalidData(f"field {where} must list Blessing kinds {list(BLESSING_KINDS)}")
            return tuple(v)

        players = []
        for p, raw in enumerate(raw_players):
            w = f"players[{p}]"
            players.append(PlayerState(
                trees=f(raw, "trees", int, w), seeds=f(raw, "seeds", int, w),
                hand=card_list(f(raw, "hand", list, w), f"{w}.hand"),
                weather=counts(f(raw, "weather", dict, w), ed.biomes, f"{w}.weather"),
                blessings=counts(f(raw, "blessings", dict, w), BLESSING_KINDS, f"{w}.blessings"),
                creature_points=f(raw, "creature_points", int, w),
                land_points=f(raw, "land_points", int, w),
                played=card_list(f(raw, "played", list, w), f"{w}.played")))

        spirits = []
        for p, v in enumerate(f(data, "spirits", list, "save")):
            if v is None:
                spirits.append(NOBODY)
            else:
                i = space(v, f"spirits[{p}]")
                if board.terrain[i] != "water":
                    raise InvalidData(f"field spirits[{p}]: a Spirit must stand on a Water Space")
                spirits.append(i)
        if len(spirits) != n:
            raise InvalidData(f"field 'spirits' must list one entry per player ({n})")

        blessings = [""] * len(board)
        for k, row in enumerate(f(data, "board_blessings", list, "save")):
            if not isinstance(row, list) or len(row) != 3 or row[2] not in BLESSING_KINDS:
                raise InvalidData(f"field board_blessings[{k}] must be [q, r, kind]")
            blessings[space(row, f"board_blessings[{k}]")] = row[2]

        market = card_list(f(data, "market", list, "save"), "market", allow_none=True)
        if len(market) != len(MARKET_SLOTS):
            raise InvalidData(f"field 'market' must have {len(MARKET_SLOTS)} slots")
        pending = None
        raw_pending = data.get("pending")
        if raw_pending is not None:
            pk = f(raw_pending, "kind", str, "pending")
            if pk not in ("draw", "move"):
                raise InvalidData(f"field pending.kind must be 'draw' or 'move', found {pk!r}")
            pending = Pending(
                pk, player_no(f(raw_pending, "player", int, "pending"), "pending.player"),
                tuple(space(v, "pending.targets") for v in f(raw_pending, "targets", list, "pending")),
                tuple(player_no(v, "pending.owners") for v in f(raw_pending, "owners", list, "pending")),
                tuple(space(v, "pending.grown") for v in f(raw_pending, "grown", list, "pending")))
            if pk == "move" and (not pending.targets or len(pending.owners) != len(pending.targets)
                                 or pending.owners[0] != pending.player):
                raise InvalidData("field 'pending': a Tree move needs matching targets and owners")
        phase = f(data, "phase", str, "save")
        if phase not in PHASES:
            raise InvalidData(f"field 'phase' must be one of {list(PHASES)}, found {phase!r}")
        actions_taken = f(data, "actions_taken", int, "save")
        if not 0 <= actions_taken <= 2:
            raise InvalidData("field 'actions_taken' must be 0, 1 or 2")
        rnd = f(data, "round", int, "save")
        if rnd < 1:
            raise InvalidData("field 'round' must be at least 1")
        state = cls(
            edition=ed, board=board, seed=seed, family=family,
            trees=occupancy("trees"), seeds=occupancy("seeds"), spirits=tuple(spirits),
            board_blessings=tuple(blessings), players=tuple(players),
            land_deck=card_list(f(data, "land_deck", list, "save"), "land_deck"),
            creature_deck=card_list(f(data, "creature_deck", list, "save"), "creature_deck"),
            market=market,
            weather_supply=counts(f(data, "weather_supply", dict, "save"), ed.biomes, "weather_supply"),
            blessing_bag=kinds(f(data, "blessing_bag", list, "save"), "blessing_bag"),
            blessing_discard=kinds(f(data, "blessing_discard", list, "save"), "blessing_discard"),
            most_trees=NOBODY,
            first_player=player_no(f(data, "first_player", int, "save"), "first_player"),
            turn_player=player_no(f(data, "turn_player", int, "save"), "turn_player"),
            actions_taken=actions_taken, exchange_used=f(data, "exchange_used", bool, "save"),
            pending=pending, round=rnd, end_triggered=f(data, "end_triggered", bool, "save"),
            phase=phase, final_ritual_done=f(data, "final_ritual_done", bool, "save"),
            end_reason=f(data, "end_reason", str, "save"))
        counts_now = [state.trees.count(p) for p in range(n)]
        state = replace(state, most_trees=scoring.most_trees_holder(counts_now, ed.most_trees_minimum))
        for p, c in enumerate(market):
            if c is not None and ed.card(c).kind != MARKET_SLOTS[p]:
                raise InvalidData(f"field market[{p}] must hold a {MARKET_SLOTS[p]} card")
        try:
            state.check_invariants()
        except AssertionError as exc:
            raise InvalidData(f"the save file is inconsistent: {exc}") from None
        return state
