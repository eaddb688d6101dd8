"""The changing state of a game of The Dawn of Pangaea, and saving it as JSON.

A state never changes after it is made: ``apply`` (in :mod:`.rules`) builds a new one.  Per
space data are tuples indexed like ``board.cells``; -1 means "nobody".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable

from ..core import jsonio
from ..core.errors import InvalidData
from ..core.hexgrid import Hex
from ..core.protocol import GameState as BaseState, ScoreBreakdown
from ..core.validate import guarded_apply, load_guarded, require
from .board import Board, board_from_list
from .edition import ANCIENTS, BLESSING_KINDS, CreatureCard, Edition, LandCard, edition_from_dict
from . import scoring
from .rituals import NOBODY, Position

PLAYER_NAMES = ("Red", "Blue", "Orange", "Purple")
MARKET_SLOTS = ("land", "land", "creature", "creature")
PHASES = ("main", "final", "over")
COOP_MARKET_SLOTS = ("land", "creature", "creature", "creature")


def market_slots(state: "GameState") -> tuple[str, ...]:
    """The kind of card each Open Market slot holds: 2 Land + 2 Creature, or in Return of the
    Ancients 1 Land + 3 Creature (Game Setup step 5)."""
    return COOP_MARKET_SLOTS if state.mode == "ancients" else MARKET_SLOTS


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
    favors: tuple[int, ...] = (0, 0, 0)             # unactivated Favor Tokens per Ancient
    chains: tuple[tuple[str, ...], ...] = ()        # Ritual Chains, each a row left to right
    activated: tuple[tuple[str, str], ...] = ()     # (card, Ancient) with a Favor Token on it

    @property
    def points(self) -> int:
        return self.creature_points + self.land_points

    def blessing_count(self, kind: str) -> int:
        return self.blessings[BLESSING_KINDS.index(kind)]

    def favor_count(self, ancient: str) -> int:
        return self.favors[ANCIENTS.index(ancient)]


DECISIONS = ("draw", "move", "okuma", "summon", "chain", "ecosystem",
             # Return of the Ancients
             "shadow", "scourge", "ascend", "devour", "seed",
             # Wild Woods
             "expand", "raise", "treetop")


@dataclass(frozen=True)
class Pending:
    """A decision that interrupts the turn: Step 3 (draw a new card), moving Trees, moving
    Okuma, placing a summoned Ancient, placing a card in a Ritual Chain, or choosing the
    Blessing an Ecosystem earns."""

    kind: str                       # one of DECISIONS
    player: int
    targets: tuple[int, ...] = ()   # for "move": growing spaces still waiting for a Tree
    owners: tuple[int, ...] = ()    # ... and whose Tree each of them waits for
    grown: tuple[int, ...] = ()     # spaces grown in this growth (their Trees cannot move)
    ancient: str = ""               # for "summon": which Ancient
    card: str = ""                  # for "chain": the card to place
    amount: int = 0                 # "ascend": steps; "chain": 1 if the card was a free Ritual
    area: str = ""                  # "scourge": "shadow" (around the Shadow) or "any"


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
    decisions: tuple[Pending, ...] = ()
    round: int = 1
    end_triggered: bool = False
    phase: str = "main"
    final_ritual_done: bool = False
    end_reason: str = ""
    ancients: tuple[int, ...] = (NOBODY, NOBODY, NOBODY)   # Okuma, Chelon, Thorondal spaces
    favor_bag: tuple[str, ...] = ()
    market_favors: tuple[str | None, ...] = (None, None, None, None)
    # Return of the Ancients (mode "ancients"); the defaults leave the other games unchanged
    mode: str = ""
    difficulty: str = ""
    ancient_steps: tuple[int, ...] = ()        # Ancient Markers on the mountain (Okuma, Chelon, Thorondal)
    devour_steps: tuple[int, ...] = ()         # Devour Markers still on the mountain
    scourged: tuple[int, ...] = ()             # scourged spaces, in board order
    scourge_supply: int = 0
    shadow: int = NOBODY                       # the Spirit of Shadows' space
    shadow_bag: tuple[str, ...] = ()           # Shadow Markers, top first
    moon_stacks: tuple[tuple[str, ...], ...] = ()   # drawn markers on the Moon Board, by stack
    moon_board: tuple[tuple[str, ...], ...] = ()    # markers waiting for the later cycles
    shadow_box: tuple[str, ...] = ()           # Shadow Markers out of the game
    box_cards: tuple[str, ...] = ()            # Ritual cards not used in this mode
    cycle: int = 0
    weather_shared: bool = False
    paired: tuple[int, ...] = ()               # scourged Land Spaces holding a second Seed
    result: str = ""                           # "won" or "lost" when a co-op game ends
    # Wild Woods; the defaults leave the other games unchanged
    wild_woods: bool = False
    storms: bool = False                       # Elemental Storms are in the Ritual decks
    treetops: tuple[int, ...] = ()             # Treetops on the Tree of each space (level - 1)
    seed_stacks: tuple[tuple[int, ...], ...] = ()   # Seeds of each player on each space
    player_boards: tuple = ()                  # a woods.PlayerBoard per player
    storm_tiles: tuple[tuple[int, str, int], ...] = ()   # (tile, Storm weather, tokens on it)
    storm_discard: tuple[str, ...] = ()
    storm_box: tuple[str, ...] = ()
    woods_box: tuple[str, ...] = ()            # Wild Woods Blessings not on a Player Board
    grown_tall: int = NOBODY                   # a Tree that reached level 3 this turn

    # ----- protocol -------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def pending(self) -> Pending | None:
        """The decision to take before anything else, if any."""
        return self.decisions[0] if self.decisions else None

    @property
    def current_player(self) -> int | None:
        if self.phase == "over":
            return None
        if self.decisions:
            return self.decisions[0].player
        return self.turn_player

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> list:
        from .rules import legal_actions
        return legal_actions(self)

    def apply(self, action) -> "GameState":
        from .actions import PangaeaAction
        from .rules import apply
        return guarded_apply(self, action, PangaeaAction, lambda: apply(self, action),
                             "The Dawn of Pangaea")

    def scores(self) -> list[ScoreBreakdown]:
        """Each player's points by category.  In Return of the Ancients nobody scores points:
        every player shows the team's progress, the step of each Ancient Marker (a returned
        Ancient stands on the summit)."""
        if self.mode == "ancients":
            team = tuple((f"{a} Marker step", step) for a, step in zip(ANCIENTS, self.ancient_steps))
            return [ScoreBreakdown(player=p, categories=team) for p in range(self.num_players)]
        final = self.is_over
        bonus = self.edition.most_trees_bonus
        from .woods import board_points
        return [scoring.breakdown(p, ps.creature_points, ps.land_points,
                                  bonus if self.most_trees == p else 0, final,
                                  board_points(self, p) if self.wild_woods else None)
                for p, ps in enumerate(self.players)]

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        if self.mode == "ancients":   # co-op: everyone wins or everyone loses
            return list(range(self.num_players)) if self.result == "won" else []
        return scoring.rank([s.total for s in self.scores()],
                            [sum(ps.weather) for ps in self.players])

    def outcome(self) -> str:
        """How a co-op game ended, for the widget's last line ("" for the competitive game)."""
        if self.mode != "ancients" or not self.result:
            return ""
        team = "you" if self.num_players == 1 else "the team"
        return f"{team} {self.result} ({self.end_reason})."

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
        if self.wild_woods:
            from .woods import level, woods_data
            pb = self.player_boards[player]
            tall = [level(self, i) for i in self.board.land if self.trees[i] == player]
            text += (f"; Player Board: {pb.slots.count(True)} Treetops left, "
                     f"{pb.unlocked.count(True)} extra Seed(s) unlocked, free slots worth "
                     f"{pb.free_points(woods_data(self.edition))}; Trees by level: "
                     + (", ".join(f"{tall.count(k)}×L{k}" for k in (1, 2, 3) if tall.count(k)) or "none"))
        if not self.family:
            favors = ", ".join(f"{n} {a}" for a, n in zip(ANCIENTS, ps.favors) if n) or "none"
            chains = " | ".join(" ".join(c) for c in ps.chains) or "none yet"
            text += f"; Favor Tokens: {favors}; Ritual Chains: {chains}"
        return text

    def to_svg(self, highlight: Iterable[Any] = ()) -> str:
        from .render import board_svg
        return board_svg(self, highlight=highlight)

    def action_highlight(self, action) -> list[Hex]:
        """The spaces an action touches, for highlighting it on the board."""
        for name in ("path", "cells"):
            if hasattr(action, name):
                return list(getattr(action, name))
        cells = [getattr(action, n) for n in ("cell", "second", "origin", "target")
                 if getattr(action, n, None) is not None]
        return cells

    def evaluate(self, action, player: int) -> int:
        """The immediate score gain of an action (used by GreedyPlayer): a Ritual's points
        from the ranking of :func:`~.rules.rank_rituals`, 0 for anything else."""
        from .rules import ritual_points
        return ritual_points(self, action) if player == self.turn_player else 0

    # ----- helpers ----------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """Trees and Spirits as a :class:`~.rituals.Position`, for Land Ritual questions."""
        at = [NOBODY] * len(self.board)
        for p, i in enumerate(self.spirits):
            if i != NOBODY:
                at[i] = p
        board = self.board
        if self.storm_tiles:   # Storm-covered tiles count as the Storm's weather
            from .woods import ritual_board
            board = ritual_board(self)
        return Position(board, self.trees, tuple(at), self.ancients[1], self.ancients[2])

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

    def arranged(self, **changes: Any) -> "GameState":
        """The same game with pieces placed by hand, for lessons and "score this" questions.

        Keywords (see :func:`~.arrange.arrange`): ``trees={cell: player}``,
        ``seeds={cell: player}``, ``spirits={player: cell}``, ``weather={player: {biome: n}}``,
        ``blessings={player: {kind: n}}``, ``hands={player: [card, ...]}``,
        ``points={player: n}``, ``favors={player: {ancient: n}}``,
        ``chains={player: [[card, ...], ...]}``, ``ancients={name: cell}``; in Wild Woods
        also ``treetops={cell: n}`` (0-2 on a Tree, taken from its owner's Player Board in slot
        order) and ``seeds={cell: {player: n}}`` for several Seeds on one space.

        Trees and Seeds come from (or go back to) their owners' supplies; Weather Tokens and
        Blessings from the supply and the bag; hand cards from the decks or the market
        (replaced from the decks); in the full game also Favor Tokens, Ritual Chains of played
        cards (from the decks) and the Ancients' spaces.  Anything impossible raises
        InvalidSetup naming it, e.g. more than 10 Trees for a player.

        >>> from pangaea_lab import pangaea
        >>> s = pangaea.new_game(players=2, seed=1)
        >>> cell = s.board.cells[s.board.land[0]]
        >>> s.arranged(trees={cell: 1}).players[1].trees
        9
        """
        from .arrange import arrange
        return arrange(self, **changes)

    # ----- invariants ---------------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Component counts are conserved; raises AssertionError naming what is off."""
        ed = self.edition
        n = self.num_players
        for p, ps in enumerate(self.players):
            require(ps.trees + self.trees.count(p) == ed.trees_per_player,
                    f"{PLAYER_NAMES[p]} should own {ed.trees_per_player} Trees (supply + continent)")
            paired = sum(1 for i in self.paired if self.seeds[i] == p)
            if self.wild_woods:
                from .woods import woods_data
                pb = self.player_boards[p]
                owned = ed.seeds_per_player + woods_data(ed).extra_seeds
                held = (ps.seeds + sum(x[p] for x in self.seed_stacks) + 1 + pb.locked()
                        + pb.given_up)
                require(held == owned, f"{PLAYER_NAMES[p]} should own {owned} Seeds (supply + "
                                       "continent + score marker + locked + given up)")
            else:
                require(ps.seeds + self.seeds.count(p) + paired + 1 == ed.seeds_per_player,
                        f"{PLAYER_NAMES[p]} should own {ed.seeds_per_player} Seeds (supply + continent + score marker)")
            require(ps.trees >= 0 and ps.seeds >= 0 and min(ps.weather) >= 0 and min(ps.blessings) >= 0)
        for k, total in enumerate(ed.weather_tokens):
            held = (self.weather_supply[k] + sum(ps.weather[k] for ps in self.players)
                    + sum(n for _, w, n in self.storm_tiles if w == ed.biomes[k]))
            require(held == total, f"{ed.biomes[k]} Weather Tokens: {held} in play, {total} in the box")
        woods_bless: dict[str, int] = {}
        if self.wild_woods:
            from .woods import woods_data
            woods_bless = dict(woods_data(ed).blessings)
        for k, kind in enumerate(BLESSING_KINDS):
            count = (sum(ps.blessings[k] for ps in self.players) + self.board_blessings.count(kind)
                     + self.blessing_bag.count(kind) + self.blessing_discard.count(kind)
                     + sum(pb.blessings.count(kind) for pb in self.player_boards)
                     + self.woods_box.count(kind))
            boxed = self.family and kind == "Call Ancient"   # assumption 'family-no-call-ancient'
            require(count == (0 if boxed else dict(ed.blessings)[kind]) + woods_bless.get(kind, 0),
                    f"{kind} Blessings are not conserved")
        cards = (list(self.land_deck) + list(self.creature_deck) + [c for c in self.market if c]
                 + [c for ps in self.players for c in ps.hand] + [c for ps in self.players for c in ps.played]
                 + list(self.box_cards))
        cards = [c for c in cards if not c.startswith("storm-")]
        require(sorted(cards) == sorted(ed.cards), "every Ritual card must be in exactly one place")
        for i in range(len(self.board)):
            if self.trees[i] != NOBODY or self.seeds[i] != NOBODY:
                require(self.board.terrain[i] == "land", "Trees and Seeds stand on land only")
            require(not (self.trees[i] != NOBODY and self.seeds[i] != NOBODY),
                    f"{self.board.cells[i]} holds a Tree and a Seed")
        spirits = [i for i in self.spirits if i != NOBODY]
        require(len(set(spirits)) == len(spirits), "two Spirits share a Water Space")
        require(all(self.board.terrain[i] == "water" for i in spirits), "Spirits stand on water")
        counts = [self.trees.count(p) for p in range(n)]
        require(self.most_trees == scoring.most_trees_holder(counts, ed.most_trees_minimum),
                "the Most Trees marker is with the wrong player")
        for k, ancient in enumerate(ANCIENTS if not self.family else ()):
            held = (self.favor_bag.count(ancient) + self.market_favors.count(ancient)
                    + sum(ps.favors[k] for ps in self.players)
                    + sum(1 for ps in self.players for _, a in ps.activated if a == ancient)
                    + (self.mode == "ancients"))   # the Ancient Marker on the mountain
            require(held == ed.favor_tokens[k], f"{ancient} Favor Tokens: {held} in play, {ed.favor_tokens[k]} in the box")
        for p, ps in enumerate(self.players):
            cards_on = [c for c, _ in ps.activated]
            require(len(set(cards_on)) == len(cards_on), "a card holds more than one Favor Token")
            require(set(cards_on) <= set(ps.played), "a Favor Token sits on a card not played")
            if not self.family:
                chained = [c for chain in ps.chains for c in chain]
                require(sorted(chained) == sorted(ps.played) or (
                    self.pending is not None and self.pending.kind == "chain"
                    and sorted(chained + [self.pending.card]) == sorted(ps.played)),
                        "every played card belongs to exactly one Ritual Chain")
        okuma, chelon, thorondal = self.ancients
        require(okuma == NOBODY or self.board.terrain[okuma] == "land", "Okuma stands on land")
        require(chelon == NOBODY or self.board.terrain[chelon] == "water", "Chelon stands on water")
        require(thorondal == NOBODY or self.trees[thorondal] != NOBODY, "Thorondal stands on a Tree")
        if self.mode == "ancients":
            from .coop import check_invariants
            check_invariants(self)
        if self.wild_woods:
            from .woods import check_invariants as woods_invariants
            woods_invariants(self)
        if self.family:
            require(self.ancients == (NOBODY,) * 3 and not self.favor_bag and not any(
                sum(ps.favors) for ps in self.players) and set(self.market_favors) == {None},
                    "the family game has no Ancients and no Favor Tokens")

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
                "played": list(ps.played), "favors": dict(zip(ANCIENTS, ps.favors)),
                "chains": [list(c) for c in ps.chains],
                "activated": [list(x) for x in ps.activated]} for ps in self.players],
            "land_deck": list(self.land_deck), "creature_deck": list(self.creature_deck),
            "market": list(self.market),
            "weather_supply": dict(zip(ed.biomes, self.weather_supply)),
            "blessing_bag": list(self.blessing_bag), "blessing_discard": list(self.blessing_discard),
            "first_player": self.first_player, "turn_player": self.turn_player,
            "actions_taken": self.actions_taken, "exchange_used": self.exchange_used,
            "decisions": [{
                "kind": d.kind, "player": d.player,
                "targets": [list(b.cells[i]) for i in d.targets], "owners": list(d.owners),
                "grown": [list(b.cells[i]) for i in d.grown], "ancient": d.ancient,
                "card": d.card, **({"amount": d.amount} if d.amount else {}),
                **({"area": d.area} if d.area else {})} for d in self.decisions],
            "ancients": {a: (None if i == NOBODY else list(b.cells[i]))
                         for a, i in zip(ANCIENTS, self.ancients)},
            "favor_bag": list(self.favor_bag), "market_favors": list(self.market_favors),
            "round": self.round, "end_triggered": self.end_triggered, "phase": self.phase,
            "final_ritual_done": self.final_ritual_done, "end_reason": self.end_reason,
        }
        if self.mode == "ancients":
            from .coop import coop_to_dict
            data["ancients_mode"] = coop_to_dict(self)
        if self.wild_woods:
            from .woods import woods_to_dict
            data["wild_woods"] = woods_to_dict(self)
        # the edition is written first, from its cached canonical text (it is the bulk of a save)
        return '{"edition":' + ed.canonical_json + "," + jsonio.dumps(data)[1:]

    @classmethod
    def from_json(cls, text: str | bytes) -> "GameState":
        """Read a saved game; a tampered or malformed file raises InvalidData naming the field."""
        return load_guarded("save file", lambda: cls._from_json(text))

    @classmethod
    def _from_json(cls, text: str | bytes) -> "GameState":
        data = jsonio.open_save(text, cls.game)
        f = jsonio.field
        ed = edition_from_dict(f(data, "edition", dict, "save"))
        board = board_from_list(f(data, "board", list, "save"), f(data, "mountain", list, "save"),
                                ed.biomes)
        seed = f(data, "seed", (int, str), "save")
        family = f(data, "family", bool, "save")
        raw_players = f(data, "players", list, "save")
        n = len(raw_players)
        low = 1 if "ancients_mode" in data else ed.min_players   # solo is allowed in co-op
        if not low <= n <= ed.max_players:
            raise InvalidData(f"field 'players' lists {n} players; the game is for "
                              f"{low} to {ed.max_players}")

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

        storm_cards: set[str] = set()
        if "wild_woods" in data:   # checked first: Storm cards may lie in the decks
            woods_raw = data["wild_woods"]
            if not isinstance(woods_raw, dict):
                raise InvalidData("field 'wild_woods' must be an object")
            if not isinstance(woods_raw.get("storms"), bool):
                raise InvalidData("field wild_woods.storms must be true or false")
            if woods_raw["storms"]:
                from .woods import storm_ids
                storm_cards = set(storm_ids(ed))

        def card_list(v: Any, where: str, allow_none: bool = False, deck: bool = False) -> tuple:
            if not isinstance(v, list):
                raise InvalidData(f"field {where} must be a list of card ids")
            for c in v:
                if c is None and allow_none or deck and isinstance(c, str) and c in storm_cards:
                    continue
                if not isinstance(c, str) or c not in ed.cards:
                    raise InvalidData(f"field {where}: {c!r} is not a card of this edition")
            return tuple(v)

        def kinds(v: Any, where: str) -> tuple[str, ...]:
            if not isinstance(v, list) or not all(k in BLESSING_KINDS for k in v):
                raise InvalidData(f"field {where} must list Blessing kinds {list(BLESSING_KINDS)}")
            return tuple(v)

        def _activation(x: Any, where: str) -> tuple[str, str]:
            if (not isinstance(x, list) or len(x) != 2 or x[0] not in ed.cards
                    or x[1] not in ANCIENTS):
                raise InvalidData(f"field {where} must list [card, Ancient] pairs")
            return (x[0], x[1])

        players = []
        for p, raw in enumerate(raw_players):
            w = f"players[{p}]"
            players.append(PlayerState(
                trees=f(raw, "trees", int, w), seeds=f(raw, "seeds", int, w),
                hand=card_list(f(raw, "hand", list, w), f"{w}.hand"),
                weather=counts(f(raw, "weather", dict, w), ed.biomes, f"{w}.weather"),
                blessings=counts({**{k: 0 for k in BLESSING_KINDS[4:]}, **f(raw, "blessings", dict, w)},
                                 BLESSING_KINDS, f"{w}.blessings"),
                creature_points=f(raw, "creature_points", int, w),
                land_points=f(raw, "land_points", int, w),
                played=card_list(f(raw, "played", list, w), f"{w}.played"),
                favors=counts(f(raw, "favors", dict, w), ANCIENTS, f"{w}.favors"),
                chains=tuple(card_list(c, f"{w}.chains") for c in f(raw, "chains", list, w)),
                activated=tuple(_activation(x, f"{w}.activated") for x in f(raw, "activated", list, w))))

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
        decisions = []
        for k, raw in enumerate(f(data, "decisions", list, "save")):
            w = f"decisions[{k}]"
            kind = f(raw, "kind", str, w)
            if kind not in DECISIONS:
                raise InvalidData(f"field {w}.kind must be one of {list(DECISIONS)}, found {kind!r}")
            d = Pending(kind, player_no(f(raw, "player", int, w), f"{w}.player"),
                        tuple(space(v, f"{w}.targets") for v in f(raw, "targets", list, w)),
                        tuple(player_no(v, f"{w}.owners") for v in f(raw, "owners", list, w)),
                        tuple(space(v, f"{w}.grown") for v in f(raw, "grown", list, w)),
                        f(raw, "ancient", str, w), f(raw, "card", str, w),
                        raw.get("amount", 0), raw.get("area", ""))
            if (isinstance(d.amount, bool) or not isinstance(d.amount, int) or d.amount < 0
                    or d.area not in ("", "shadow", "any")):
                raise InvalidData(f"field {w}: 'amount' must be a whole number >= 0 and 'area' "
                                  "'shadow' or 'any'")
            if kind == "move" and (not d.targets or len(d.owners) != len(d.targets)
                                   or d.owners[0] != d.player):
                raise InvalidData(f"field {w}: a Tree move needs matching targets and owners")
            if kind == "summon" and d.ancient not in ANCIENTS:
                raise InvalidData(f"field {w}.ancient must be one of {list(ANCIENTS)}")
            if kind == "chain" and d.card not in ed.cards:
                raise InvalidData(f"field {w}.card must be a card of this edition")
            decisions.append(d)
        raw_anc = f(data, "ancients", dict, "save")
        if set(raw_anc) != set(ANCIENTS):
            raise InvalidData(f"field 'ancients' must give a space (or null) for each of {list(ANCIENTS)}")
        ancients = tuple(NOBODY if raw_anc[a] is None else space(raw_anc[a], f"ancients.{a}")
                         for a in ANCIENTS)
        favor_bag = f(data, "favor_bag", list, "save")
        market_favors = f(data, "market_favors", list, "save")
        if not all(t in ANCIENTS for t in favor_bag):
            raise InvalidData(f"field 'favor_bag' must list Favor Tokens of {list(ANCIENTS)}")
        if len(market_favors) != 4 or not all(t is None or t in ANCIENTS for t in market_favors):
            raise InvalidData("field 'market_favors' must give 4 slots, each an Ancient or null")
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
            land_deck=card_list(f(data, "land_deck", list, "save"), "land_deck", deck=True),
            creature_deck=card_list(f(data, "creature_deck", list, "save"), "creature_deck", deck=True),
            market=market,
            weather_supply=counts(f(data, "weather_supply", dict, "save"), ed.biomes, "weather_supply"),
            blessing_bag=kinds(f(data, "blessing_bag", list, "save"), "blessing_bag"),
            blessing_discard=kinds(f(data, "blessing_discard", list, "save"), "blessing_discard"),
            most_trees=NOBODY,
            first_player=player_no(f(data, "first_player", int, "save"), "first_player"),
            turn_player=player_no(f(data, "turn_player", int, "save"), "turn_player"),
            actions_taken=actions_taken, exchange_used=f(data, "exchange_used", bool, "save"),
            decisions=tuple(decisions), ancients=ancients, favor_bag=tuple(favor_bag),
            market_favors=tuple(market_favors), round=rnd, end_triggered=f(data, "end_triggered", bool, "save"),
            phase=phase, final_ritual_done=f(data, "final_ritual_done", bool, "save"),
            end_reason=f(data, "end_reason", str, "save"))
        if "ancients_mode" in data:
            from .coop import coop_from_dict
            state = replace(state, **coop_from_dict(data["ancients_mode"], board, n))
        if "wild_woods" in data:
            from .woods import woods_from_dict
            state = replace(state, **woods_from_dict(data["wild_woods"], board, n, ed))
        counts_now = [state.trees.count(p) for p in range(n)]
        state = replace(state, most_trees=scoring.most_trees_holder(counts_now, ed.most_trees_minimum))
        slots = market_slots(state)
        for p, c in enumerate(market):
            if c is not None and ed.card(c).kind != slots[p]:
                raise InvalidData(f"field market[{p}] must hold a {slots[p]} card")
        try:
            state.check_invariants()
        except AssertionError as exc:
            raise InvalidData(f"the save file is inconsistent: {exc}") from None
        return state
