"""The changing state of a game of The Dawn of Pangaea, and saving it as JSON.

A state is data: it never changes after it is made, and it knows no rules.  The rules
(:mod:`.rules`), the scoring (:mod:`.scoring`) and the drawing (:mod:`.render`) are functions
over it, reached through the game (:data:`.game.GAME`).  Per space data are tuples indexed
like ``board.cells``; -1 means "nobody".
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Callable, ClassVar

from ..core import jsonio
from ..core.engine import Decision
from ..core.errors import InvalidData
from ..core.hexgrid import Hex
from ..core.jsonio import Check, Int, Record, Seq, Text
from ..core.memo import keep
from ..core.protocol import GameState as BaseState
from .board import Board, board_from_list, stormy_board
from .edition import (ANCIENTS, BLESSING_KINDS, DIFFICULTIES, SHADOW_KINDS, SHIPPED_NAME,
                      CreatureCard, Edition, LandCard, WoodsData, edition_from_dict,
                      load_edition, shipped_name, woods_data)
from .game import GAME
from . import scoring
from .rituals import NOBODY, Position

PLAYER_NAMES = ("Red", "Blue", "Orange", "Purple")
MARKET_SLOTS = ("land", "land", "creature", "creature")
PHASES = ("main", "final", "over")
COOP_MARKET_SLOTS = ("land", "creature", "creature", "creature")
#: the mode of Return of the Ancients
COOP = "ancients"
#: Elemental Storm cards are "storm-1" .. "storm-4" in the Wild Woods decks
STORM = "storm-"


def market_slots(state: "GameState") -> tuple[str, ...]:
    """The kind of card each Open Market slot holds: 2 Land + 2 Creature, or in Return of the
    Ancients 1 Land + 3 Creature (Game Setup step 5)."""
    return COOP_MARKET_SLOTS if state.coop is not None else MARKET_SLOTS


def storm_ids(ed: Edition) -> tuple[str, ...]:
    """The Elemental Storm cards of the edition's Wild Woods data."""
    return tuple(f"{STORM}{k + 1}" for k in range(len(woods_data(ed).storms)))


def is_storm(card_id: str | None) -> bool:
    """An Elemental Storm card (Wild Woods) rather than a Ritual card."""
    return isinstance(card_id, str) and card_id.startswith(STORM)


def real_cards(deck) -> int:
    """The Ritual cards of a deck (Elemental Storms lying in it do not count)."""
    return sum(1 for c in deck if not is_storm(c))


def has_real_cards(deck) -> bool:
    """A deck holds a Ritual card (``real_cards(deck) > 0``, found at its first one)."""
    return any(not is_storm(c) for c in deck)


def draw_card(deck: list[str]) -> str | None:
    """A Hand Ritual from a deck: the first card that is not a Storm (a Storm on top stays
    there; assumption 'ww-storm-no-spirit')."""
    for k, c in enumerate(deck):
        if not is_storm(c):
            return deck.pop(k)
    return None


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


@dataclass(frozen=True)
class PlayerBoard:
    """One player's Wild Woods Player Board."""

    slots: tuple[bool, ...]        # a Treetop still lies on each slot
    blessings: tuple[str, ...]     # the Blessing still lying on each slot ("" for none)
    unlocked: tuple[bool, ...]     # extra Seeds already taken into the supply for good
    given_up: int = 0              # starting Seeds given up (Wild Woods Moon Cards)
    owed: int = 0                  # ... still to give up once one is back in the supply

    def locked(self) -> int:
        """Extra Seeds still held back by Treetops."""
        return self.unlocked.count(False)

    def free_points(self, data: WoodsData) -> int:
        """Points of the empty slots (Final Scoring)."""
        return sum(slot.points for slot, full in zip(data.slots, self.slots) if not full)


@dataclass(frozen=True)
class CoopRecord:
    """What Return of the Ancients adds to a position (``state.coop``; None in the other
    games).  Spaces are indices of ``board.cells``."""

    difficulty: str = "standard"
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
    result: str = ""                           # "won" or "lost" when the game ends

    def returned(self, ancient: str, summit: int) -> bool:
        """An Ancient is back from exile once its marker reached the summit."""
        return self.ancient_steps[ANCIENTS.index(ancient)] >= summit

    def to_save(self, cells) -> dict:
        """The record as the ``ancients_mode`` section of a save."""
        return {
            "difficulty": self.difficulty,
            "ancient_steps": dict(zip(ANCIENTS, self.ancient_steps)),
            "devour_steps": list(self.devour_steps),
            "scourged": [list(cells[i]) for i in self.scourged],
            "scourge_supply": self.scourge_supply, "shadow": list(cells[self.shadow]),
            "shadow_bag": list(self.shadow_bag),
            "moon_stacks": [list(x) for x in self.moon_stacks],
            "moon_board": [list(x) for x in self.moon_board],
            "shadow_box": list(self.shadow_box), "box_cards": list(self.box_cards),
            "cycle": self.cycle, "weather_shared": self.weather_shared,
            "paired": [list(cells[i]) for i in self.paired], "result": self.result,
        }


@dataclass(frozen=True)
class WoodsRecord:
    """What Wild Woods adds to a position (``state.woods``; None without the expansion).
    Per space data are tuples indexed like ``board.cells``."""

    storms: bool = False                       # Elemental Storms are in the Ritual decks
    treetops: tuple[int, ...] = ()             # Treetops on the Tree of each space (level - 1)
    seed_stacks: tuple[tuple[int, ...], ...] = ()   # Seeds of each player on each space
    player_boards: tuple[PlayerBoard, ...] = ()     # a PlayerBoard per player
    storm_tiles: tuple[tuple[int, str, int], ...] = ()   # (tile, Storm weather, tokens on it)
    storm_discard: tuple[str, ...] = ()
    storm_box: tuple[str, ...] = ()
    woods_box: tuple[str, ...] = ()            # Wild Woods Blessings not on a Player Board
    grown_tall: int = NOBODY                   # a Tree that reached level 3 this turn
    #: the other reading of Thorondal's passive: a Storm spares the Tree under Thorondal
    #: (off by default, assumption 'ww-storm-thorondal')
    storm_spares_thorondal: bool = False

    def to_save(self, cells) -> dict:
        """The record as the ``wild_woods`` section of a save (the option of the other
        Storm reading only when it is on, so saves of the default stay as they were)."""
        out = {
            "storms": self.storms,
            "treetops": [[*cells[i], t] for i, t in enumerate(self.treetops) if t],
            "seed_stacks": [[*cells[i], list(x)] for i, x in enumerate(self.seed_stacks)
                            if sum(x)],
            "boards": [{"slots": list(pb.slots), "blessings": list(pb.blessings),
                        "unlocked": list(pb.unlocked), "given_up": pb.given_up, "owed": pb.owed}
                       for pb in self.player_boards],
            "storm_tiles": [list(x) for x in self.storm_tiles],
            "storm_discard": list(self.storm_discard),
            "storm_box": list(self.storm_box), "woods_box": list(self.woods_box),
            "grown_tall": None if self.grown_tall == NOBODY else list(cells[self.grown_tall]),
        }
        if self.storm_spares_thorondal:
            out["storm_spares_thorondal"] = True
        return out


#: what each decision asks, in words completing "... must first", and the rule that asks it;
#: each variant adds its own (``Variant.decisions``, see :mod:`.variant`)
DECISION_WORDS = {
    "draw": ("choose a new Hand Ritual", "Step 3: Draw New Card"),
    "move": ("choose which Tree moves onto the growing Seed", "Moving Trees"),
    "okuma": ("move Okuma to a neighbouring space", "Summon the Ancients: Okuma"),
    "summon": ("place the summoned Ancient", "Summon the Ancients"),
    "chain": ("place the played card in a Ritual Chain", "Step 2: Ritual Chains"),
    "ecosystem": ("choose the Blessing the Ecosystem earns", "Creating Ecosystems"),
}


def add_decisions(words: dict[str, tuple[str, str]]) -> None:
    """A variant's decisions join the table (once, when the package is imported)."""
    for kind, said in words.items():
        if DECISION_WORDS.setdefault(kind, said) != said:
            raise ValueError(f"two variants name a decision {kind!r}")


def decision_kinds() -> tuple[str, ...]:
    """Every kind of decision, the base game's first."""
    return tuple(DECISION_WORDS)


@dataclass(frozen=True)
class Pending:
    """A decision that interrupts the turn: Step 3 (draw a new card), moving Trees, moving
    Okuma, placing a summoned Ancient, placing a card in a Ritual Chain, choosing the
    Blessing an Ecosystem earns, and the decisions of Return of the Ancients and Wild Woods
    (see :data:`DECISION_WORDS`).  The fields are those of the save file; :meth:`decision`
    gives it as the engine's :class:`~pangaea_lab.core.engine.Decision`."""

    kind: str                       # one of decision_kinds()
    player: int
    targets: tuple[int, ...] = ()   # for "move": growing spaces still waiting for a Tree
    owners: tuple[int, ...] = ()    # ... and whose Tree each of them waits for
    grown: tuple[int, ...] = ()     # spaces grown in this growth (their Trees cannot move)
    ancient: str = ""               # for "summon": which Ancient
    card: str = ""                  # for "chain": the card to place
    amount: int = 0                 # "ascend": steps; "chain": 1 if the card was a free Ritual
    area: str = ""                  # "scourge": "shadow" (around the Shadow) or "any"

    @property
    def must(self) -> str:
        """What the player must do, completing "... must first"."""
        return DECISION_WORDS[self.kind][0]

    @property
    def rule(self) -> str:
        """The rule that asks for this decision."""
        return DECISION_WORDS[self.kind][1]

    def decision(self) -> Decision:
        return Decision(self.kind, self.player, self.must)

    def words(self) -> str:
        """E.g. "Red must first choose a new Hand Ritual." """
        return self.decision().words(lambda p: PLAYER_NAMES[p])


@dataclass(frozen=True, eq=True)
class GameState(BaseState):
    """A position of The Dawn of Pangaea (see :func:`pangaea_lab.pangaea.new_game`)."""

    game = "pangaea"
    GAME: ClassVar = GAME

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
    # the variants' own records (None when the variant is off)
    coop: CoopRecord | None = None             # Return of the Ancients
    woods: WoodsRecord | None = None           # Wild Woods


    # ----- protocol (legal actions, apply, scores and drawing come from GAME) ------------------

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

    # ``winners`` (the variants may decide them) is bound to GAME by the package, from
    # :mod:`.variants`;
    # ``scores`` comes from GAME, also from :mod:`.variants`.

    def outcome(self) -> str:
        """How a co-op game ended, for the widget's last line ("" for the competitive game)."""
        if self.coop is None or not self.coop.result:
            return ""
        team = "you" if self.num_players == 1 else "the team"
        return f"{team} {self.coop.result} ({self.end_reason})."

    def player_name(self, player: int) -> str:
        return PLAYER_NAMES[player]

    # ``player_summary`` (with what each variant adds) is bound to GAME by the package, from
    # :mod:`.variants`.

    def action_highlight(self, action) -> list[Hex]:
        """The spaces an action touches, for highlighting it on the board."""
        for name in ("path", "cells"):
            if hasattr(action, name):
                return list(getattr(action, name))
        cells = [getattr(action, n) for n in ("cell", "second", "origin", "target")
                 if getattr(action, n, None) is not None]
        return cells

    # ``evaluate`` is the greedy player's measure, :func:`.players.greedy_value` (points and
    # what pays for the next ones), bound to GAME by the package.

    def arranged(self, **changes: object) -> "GameState":
        """The same game with pieces placed by hand (see :func:`.arrange.arranged`, bound to
        GAME by the package, for the keywords)."""
        return self.GAME.part("arranged")(self, **changes)

    # ----- helpers ----------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """Trees and Spirits as a :class:`~.rituals.Position`, for Land Ritual questions (in
        Wild Woods, tiles covered by a Storm count as the Storm's weather); made once per
        state (kept, like the legal actions, outside the state's fields)."""
        got = getattr(self, "_position", None)
        if got is None:
            got = keep(self, "_position", self._make_position())
        return got

    def share_position(self, before: "GameState") -> None:
        """Keep ``before``'s position (made already) as this state's when nothing a position
        holds differs: the board, the Trees, the Spirits, Chelon, Thorondal and the Wild
        Woods Storms (it then equals the one :meth:`_make_position` would make)."""
        kept = getattr(before, "_position", None)
        if (kept is not None and getattr(self, "_position", None) is None
                and self.board is before.board
                and self.trees == before.trees and self.spirits == before.spirits
                and self.ancients[1:] == before.ancients[1:]
                and (self.woods is None) == (before.woods is None)
                and (self.woods is None or self.woods.storm_tiles == before.woods.storm_tiles)):
            keep(self, "_position", kept)

    def _make_position(self) -> Position:
        at = [NOBODY] * len(self.board)
        for p, i in enumerate(self.spirits):
            if i != NOBODY:
                at[i] = p
        board = stormy_board(self.board, self.woods.storm_tiles) if self.woods else self.board
        return Position(board, self.trees, tuple(at), self.ancients[1], self.ancients[2])

    def edited(self, **fields: Any) -> "GameState":
        """A copy with ``fields`` changed, each in the state or in the variant's record that
        holds it (``edited(scourged=...)`` changes ``state.coop``), for positions made by hand
        in lessons and tests.

        >>> from pangaea_lab import pangaea
        >>> pangaea.new_game(players=1, seed=3, mode="coop").edited(cycle=2).coop.cycle
        2
        """
        own = {k: v for k, v in fields.items() if k in _BASE_FIELDS}
        for name, rec_type in (("coop", CoopRecord), ("woods", WoodsRecord)):
            mine = {k: v for k, v in fields.items() if k in _fields_of(rec_type)}
            if mine:
                record = getattr(self, name)
                if record is None:
                    raise ValueError(f"{sorted(mine)} belong to a variant this game does not "
                                     "play")
                own[name] = replace(record, **mine)
        unknown = set(fields) - set(own) - _fields_of(CoopRecord) - _fields_of(WoodsRecord)
        if unknown:
            raise ValueError(f"no field {sorted(unknown)} in a state of The Dawn of Pangaea")
        return replace(self, **own)

    def card(self, card_id: str) -> LandCard | CreatureCard:
        return self.edition.card(card_id)

    def level(self, i: int) -> int:
        """A Tree's level: 1, plus 1 per Treetop on it in Wild Woods (0 if no Tree stands
        there)."""
        if self.trees[i] == NOBODY:
            return 0
        return 1 + (self.woods.treetops[i] if self.woods is not None else 0)

    def returned(self, ancient: str) -> bool:
        """Return of the Ancients: an Ancient is back from exile once its marker reached the
        summit."""
        return self.coop is not None and self.coop.returned(ancient, self.edition.summit_steps)

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

    # ``arranged`` (pieces placed by hand) and ``check_invariants`` are bound to this class by
    # the package (from :mod:`.arrange` and :mod:`.rules`), which import this module.

    # ----- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> str:
        b = self.board
        ed = self.edition

        def cells(values: tuple[int, ...]) -> list:
            return [[*b.cells[i], o] for i, o in enumerate(values) if o != NOBODY]

        data = {
            "game": self.game, "format": jsonio.FORMAT_VERSION,
            "seed": self.seed, "family": self.family,
            "board": _BOARD_MARK, "mountain": [list(h) for h in b.mountain],
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
        if self.coop is not None:
            data["ancients_mode"] = self.coop.to_save(b.cells)
        if self.woods is not None:
            data["wild_woods"] = self.woods.to_save(b.cells)
        # the edition is written first: the shipped one by its name, any other one embedded
        # (from its cached canonical text)
        name = shipped_name(ed)
        head = jsonio.dumps(name) if name else ed.canonical_json
        # the board's rows, the same all game, are written once per board and put in the
        # place kept for them (the mark can stand nowhere else: it is the top level's
        # "board" key with a value no game text holds)
        text = jsonio.dumps(data)[1:].replace(_BOARD_SLOT, '"board":' + b.rows_json, 1)
        return '{"edition":' + head + "," + text

    @classmethod
    def from_json(cls, text: str | bytes) -> "GameState":
        """Read a saved game; a tampered or malformed file raises InvalidData naming the field
        (the fields are declared in :class:`SaveSchema`)."""
        schema = SaveSchema()
        return jsonio.load_save(text, cls.game, schema, lambda values: schema.build(cls, values))


#: what a save holds in place of the board's rows until they are put in (see ``to_json``)
_BOARD_MARK = "\0board rows\0"
_BOARD_SLOT = '"board":' + jsonio.dumps(_BOARD_MARK)


def _fields_of(cls: type) -> set[str]:
    return {f.name for f in fields(cls)}


_BASE_FIELDS = _fields_of(GameState)


# ----- reading a save -----------------------------------------------------------------------


class Fields(Record):
    """A :class:`~pangaea_lab.core.jsonio.Record` that names a missing field the way this
    game's saves always have ("missing field players[0].trees")."""

    def read(self, value: Any, where: str) -> dict:
        if isinstance(value, dict):
            for name in self.fields:
                if name not in value:
                    raise InvalidData(f"missing field {where or 'save'}.{name}")
        return super().read(value, where)


class SaveSchema(Fields):
    """The declared fields of a save, read in this order: the edition and the board first,
    because the cards, spaces and player numbers of every later field are checked against
    them; then the sections of Return of the Ancients and Wild Woods when present.  One
    schema reads one file (it remembers the edition, board and players it has read)."""

    def __init__(self) -> None:
        self.ed: Edition | None = None
        self.board: Board | None = None
        self.rows: Any = None
        self.n = 0
        self.coop = False
        self.storms = False
        space, player, card = Check(self.space), Check(self.player), Check(self.card)
        cards = Seq(card, longest=500)
        player_record = Fields({
            "trees": Int(), "seeds": Int(), "hand": cards,
            "weather": Check(self.weather_counts),
            "blessings": Check(self.blessing_counts),
            "creature_points": Int(), "land_points": Int(), "played": cards,
            "favors": Check(self.counts_of(ANCIENTS)),
            "chains": Seq(cards, longest=500), "activated": Seq(Check(self.activation), 500)})
        self.decision_record = Fields({
            "kind": Check(self.choice(decision_kinds())), "player": player,
            "targets": Seq(space, 500), "owners": Seq(player, 500), "grown": Seq(space, 500),
            "ancient": Text(), "card": Text()},
            optional={"amount": (Check(self.amount), 0), "area": (Check(self.area), "")})
        super().__init__({
            "edition": Check(self.edition),
            "board": Check(self.keep_rows),
            "mountain": Check(self.build_board),
            "seed": Check(self.seed),
            "family": Check(self.flag),
            "players": Check(lambda v, w: self.players(v, w, player_record)),
            "spirits": Check(self.spirits),
            "trees": Check(self.occupancy), "seeds": Check(self.occupancy),
            "board_blessings": Check(self.board_blessings),
            "land_deck": Seq(Check(self.deck_card), 500),
            "creature_deck": Seq(Check(self.deck_card), 500),
            "market": Check(self.market),
            "weather_supply": Check(self.weather_counts),
            "blessing_bag": Seq(Check(self.choice(BLESSING_KINDS, "one of the Blessing kinds")), 500),
            "blessing_discard": Seq(Check(self.choice(BLESSING_KINDS, "one of the Blessing kinds")), 500),
            "first_player": player, "turn_player": player,
            "actions_taken": Check(self.actions_taken),
            "exchange_used": Check(self.flag),
            "decisions": Seq(Check(self.decision), 500),
            "ancients": Check(self.ancients),
            "favor_bag": Seq(Check(self.choice(ANCIENTS, "a Favor Token of")), 500),
            "market_favors": Check(self.market_favors),
            "round": Check(self.round),
            "end_triggered": Check(self.flag), "phase": Check(self.choice(PHASES)),
            "final_ritual_done": Check(self.flag), "end_reason": Text(longest=2000)},
            optional={"ancients_mode": (Check(self.coop_section), None),
                      "wild_woods": (Check(self.woods_section), None)},
            extra=True)

    def read(self, value: Any, where: str) -> dict:
        if isinstance(value, dict):
            self.coop = "ancients_mode" in value
            if "wild_woods" in value:   # checked first: Storm cards may lie in the decks
                woods = value["wild_woods"]
                if not isinstance(woods, dict):
                    raise InvalidData("field 'wild_woods' must be an object")
                if not isinstance(woods.get("storms"), bool):
                    raise InvalidData("field wild_woods.storms must be true or false")
                self.storms = woods["storms"]
        return super().read(value, where)

    # ----- fields of every save ---------------------------------------------------------------

    @staticmethod
    def flag(v: Any, where: str) -> bool:
        if not isinstance(v, bool):
            raise InvalidData(f"field {where} must be true or false, found {v!r:.40}")
        return v

    @staticmethod
    def seed(v: Any, where: str) -> int | str:
        if isinstance(v, bool) or not isinstance(v, (int, str)) or (
                isinstance(v, str) and len(v) > 1000):
            raise InvalidData(f"field {where} must be a whole number or a text")
        return v

    @staticmethod
    def choice(allowed: tuple[str, ...], what: str = "") -> Callable[[Any, str], str]:
        """A text among ``allowed`` (a top-level field is quoted: "field 'phase' ...")."""
        def read(v: Any, where: str) -> str:
            if not isinstance(v, str) or v not in allowed:
                field = repr(where) if where.isidentifier() else where
                raise InvalidData(f"field {field} must be {what or 'one of'} {list(allowed)}, "
                                  f"found {v!r:.40}")
            return v
        return read

    def edition(self, v: Any, where: str) -> Edition:
        if isinstance(v, str):
            if v != SHIPPED_NAME:
                raise InvalidData(f"field save.edition: {v[:40]!r} is not the name of an edition "
                                  f"shipped with the package (only {SHIPPED_NAME!r}); a save "
                                  "embeds any other edition's data")
            self.ed = load_edition()
            return self.ed
        if not isinstance(v, dict):
            raise InvalidData(f"field save.edition must be dict or the name {SHIPPED_NAME!r}, "
                              f"found {type(v).__name__}")
        self.ed = edition_from_dict(v)
        return self.ed

    def keep_rows(self, v: Any, where: str) -> Any:
        self.rows = v
        return v

    def build_board(self, v: Any, where: str) -> Board:
        self.board = board_from_list(self.rows, v, self.ed.biomes)
        return self.board

    def players(self, v: Any, where: str, record: Record) -> tuple[PlayerState, ...]:
        if not isinstance(v, list):
            raise InvalidData("field save.players must be list")
        n = len(v)
        # the game's seats (solo in co-op only), as many as the edition serves
        low = GAME.min_players if self.coop else GAME.players_for({})[0]
        high = min(GAME.max_players, self.ed.max_players)
        if not low <= n <= high:
            raise InvalidData(f"field 'players' lists {n} players; the game is for "
                              f"{low} to {high}")
        self.n = n
        return tuple(PlayerState(**record.read(raw, f"players[{p}]")) for p, raw in enumerate(v))

    def player(self, v: Any, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < self.n:
            raise InvalidData(f"field {where} must be a player number 0..{self.n - 1}, "
                              f"found {v!r:.40}")
        return v

    def space(self, v: Any, where: str) -> int:
        if not isinstance(v, list) or len(v) < 2:
            raise InvalidData(f"field {where} must start with a [q, r] space")
        try:
            return self.board.cell_of((v[0], v[1]))
        except InvalidData as exc:
            raise InvalidData(f"field {where}: {exc}") from None

    def occupancy(self, v: Any, where: str) -> tuple[int, ...]:
        if not isinstance(v, list):
            raise InvalidData(f"field save.{where} must be list")
        out = [NOBODY] * len(self.board)
        for k, row in enumerate(v):
            if not isinstance(row, list) or len(row) != 3:
                raise InvalidData(f"field {where}[{k}] must be [q, r, player]")
            i = self.space(row, f"{where}[{k}]")
            if out[i] != NOBODY:
                raise InvalidData(f"field {where}[{k}]: space {self.board.cells[i]} is listed "
                                  "twice")
            out[i] = self.player(row[2], f"{where}[{k}][2]")
        return tuple(out)

    def spirits(self, v: Any, where: str) -> tuple[int, ...]:
        if not isinstance(v, list):
            raise InvalidData("field save.spirits must be list")
        out = []
        for p, cell in enumerate(v):
            if cell is None:
                out.append(NOBODY)
                continue
            i = self.space(cell, f"spirits[{p}]")
            if self.board.terrain[i] != "water":
                raise InvalidData(f"field spirits[{p}]: a Spirit must stand on a Water Space")
            out.append(i)
        if len(out) != self.n:
            raise InvalidData(f"field 'spirits' must list one entry per player ({self.n})")
        return tuple(out)

    def board_blessings(self, v: Any, where: str) -> tuple[str, ...]:
        if not isinstance(v, list):
            raise InvalidData("field save.board_blessings must be list")
        out = [""] * len(self.board)
        for k, row in enumerate(v):
            if not isinstance(row, list) or len(row) != 3 or row[2] not in BLESSING_KINDS:
                raise InvalidData(f"field board_blessings[{k}] must be [q, r, kind]")
            out[self.space(row, f"board_blessings[{k}]")] = row[2]
        return tuple(out)

    def card(self, v: Any, where: str) -> str:
        if not isinstance(v, str) or v not in self.ed.cards:
            raise InvalidData(f"field {where}: {v!r:.40} is not a card of this edition")
        return v

    def deck_card(self, v: Any, where: str) -> str:
        """A card of a Ritual deck: with Elemental Storms, a Storm card may lie there too."""
        if self.storms and isinstance(v, str) and v in storm_ids(self.ed):
            return v
        return self.card(v, where)

    def market(self, v: Any, where: str) -> tuple[str | None, ...]:
        if not isinstance(v, list):
            raise InvalidData("field save.market must be list")
        out = tuple(None if c is None else self.card(c, f"market[{k}]") for k, c in enumerate(v))
        if len(out) != len(MARKET_SLOTS):
            raise InvalidData(f"field 'market' must have {len(MARKET_SLOTS)} slots")
        return out

    def counts_of(self, keys: tuple[str, ...]) -> Callable[[Any, str], tuple[int, ...]]:
        def read(obj: Any, where: str) -> tuple[int, ...]:
            if not isinstance(obj, dict) or set(obj) != set(keys):
                raise InvalidData(f"field {where} must give a count for each of {list(keys)}")
            for k in keys:
                Int(0, 10_000).read(obj[k], f"field {where}.{k}")
            return tuple(obj[k] for k in keys)
        return read

    def weather_counts(self, obj: Any, where: str) -> tuple[int, ...]:
        return self.counts_of(self.ed.biomes)(obj, where)

    def blessing_counts(self, obj: Any, where: str) -> tuple[int, ...]:
        """Blessings held; a save from before Wild Woods lists only the four base kinds."""
        if isinstance(obj, dict):
            obj = {**{k: 0 for k in BLESSING_KINDS[4:]}, **obj}
        return self.counts_of(BLESSING_KINDS)(obj, where)

    def activation(self, x: Any, where: str) -> tuple[str, str]:
        if (not isinstance(x, list) or len(x) != 2 or x[0] not in self.ed.cards
                or x[1] not in ANCIENTS):
            raise InvalidData(f"field {where} must list [card, Ancient] pairs")
        return (x[0], x[1])

    @staticmethod
    def amount(v: Any, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 10_000:
            raise InvalidData(f"field {where} must be a whole number >= 0")
        return v

    @staticmethod
    def area(v: Any, where: str) -> str:
        if v not in ("", "shadow", "any"):
            raise InvalidData(f"field {where} must be 'shadow' or 'any'")
        return v

    def decision(self, raw: Any, where: str) -> Pending:
        d = Pending(**self.decision_record.read(raw, where))
        if d.kind == "move" and (not d.targets or len(d.owners) != len(d.targets)
                                 or d.owners[0] != d.player):
            raise InvalidData(f"field {where}: a Tree move needs matching targets and owners")
        if d.kind == "summon" and d.ancient not in ANCIENTS:
            raise InvalidData(f"field {where}.ancient must be one of {list(ANCIENTS)}")
        if d.kind == "chain" and d.card not in self.ed.cards:
            raise InvalidData(f"field {where}.card must be a card of this edition")
        return d

    def ancients(self, v: Any, where: str) -> tuple[int, ...]:
        if not isinstance(v, dict) or set(v) != set(ANCIENTS):
            raise InvalidData(f"field 'ancients' must give a space (or null) for each of "
                              f"{list(ANCIENTS)}")
        return tuple(NOBODY if v[a] is None else self.space(v[a], f"ancients.{a}")
                     for a in ANCIENTS)

    @staticmethod
    def market_favors(v: Any, where: str) -> tuple[str | None, ...]:
        if not isinstance(v, list) or len(v) != 4 or not all(t is None or t in ANCIENTS
                                                             for t in v):
            raise InvalidData("field 'market_favors' must give 4 slots, each an Ancient or null")
        return tuple(v)

    @staticmethod
    def actions_taken(v: Any, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 2:
            raise InvalidData("field 'actions_taken' must be 0, 1 or 2")
        return v

    @staticmethod
    def round(v: Any, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 1_000_000:
            raise InvalidData("field 'round' must be at least 1")
        return v

    # ----- Return of the Ancients -------------------------------------------------------------

    def coop_schema(self) -> Record:
        markers = Seq(Text(choices=SHADOW_KINDS), 500)
        return Fields({
            "difficulty": Check(self.choice(tuple(DIFFICULTIES))),
            "ancient_steps": Check(self.counts_of(ANCIENTS)),
            "devour_steps": Seq(Int(), 100), "scourged": Seq(Check(self.space), 500),
            "scourge_supply": Int(), "shadow": Check(self.space), "shadow_bag": markers,
            "moon_stacks": Seq(markers, 50), "moon_board": Seq(markers, 50),
            "shadow_box": markers, "box_cards": Seq(Text(longest=100), 500),
            "cycle": Int(1, 3), "weather_shared": Check(self.flag),
            "paired": Seq(Check(self.space), 500), "result": Text(choices=("", "won", "lost"))})

    def coop_section(self, raw: Any, where: str) -> CoopRecord:
        """The fields of Return of the Ancients (the mode's own record in a save)."""
        if not isinstance(raw, dict):
            raise InvalidData("field 'ancients_mode' must be an object")
        v = self.coop_schema().read(raw, "ancients_mode")
        return CoopRecord(**dict(v, scourged=tuple(sorted(v["scourged"])),
                                 paired=tuple(sorted(v["paired"]))))

    # ----- Wild Woods -------------------------------------------------------------------------

    def woods_schema(self) -> Record:
        data = woods_data(self.ed)
        slots = len(data.slots)
        board = Fields({
            "slots": Seq(Check(self.flag), length=slots),
            "blessings": Seq(Check(self.choice(("",) + BLESSING_KINDS)),
                             length=slots),
            "unlocked": Seq(Check(self.flag), length=data.extra_seeds)},
            optional={"given_up": (Int(0, 2), 0), "owed": (Int(0, 2), 0)})
        storm = Check(self.choice(storm_ids(self.ed)))
        return Fields({
            "storms": Check(self.flag),
            "treetops": Seq(Check(self.treetops), 500),
            "seed_stacks": Seq(Check(self.seed_stack), 500),
            "boards": Seq(board, length=self.n),
            "storm_tiles": Seq(Check(self.storm_tile), 50),
            "storm_discard": Seq(storm, 50), "storm_box": Seq(storm, 50),
            "woods_box": Seq(Check(self.choice(BLESSING_KINDS, "one of the Blessing kinds")),
                             100)},
            optional={"grown_tall": (Check(lambda v, w: NOBODY if v is None
                                           else self.space(v, w)), NOBODY),
                      "storm_spares_thorondal": (Check(self.flag), False)})

    def treetops(self, row: Any, where: str) -> tuple[int, int]:
        """``[q, r, Treetops]``: the Treetops on the Tree of a space."""
        top = woods_data(self.ed).max_level - 1
        if (not isinstance(row, list) or len(row) != 3 or isinstance(row[2], bool)
                or not isinstance(row[2], int) or not 0 <= row[2] <= top):
            raise InvalidData(f"field {where} must be [q, r, Treetops] with 0 to {top} "
                              "Treetops")
        return self.space(row, where), row[2]

    def seed_stack(self, row: Any, where: str) -> tuple[int, tuple[int, ...]]:
        """``[q, r, [Seeds of each player]]``: the Seeds on a space."""
        if (not isinstance(row, list) or len(row) != 3 or not isinstance(row[2], list)
                or len(row[2]) != self.n):
            raise InvalidData(f"field {where} must be [q, r, [Seeds of each of the {self.n} "
                              "players]]")
        return self.space(row, where), Seq(Int(), length=self.n).read(row[2], f"{where}[2]")

    def storm_tile(self, row: Any, where: str) -> tuple[int, str, int]:
        """``[tile, weather, tokens]``: a tile covered by a Storm's Weather Tokens."""
        if (not isinstance(row, list) or len(row) != 3 or row[1] not in self.ed.biomes
                or isinstance(row[0], bool) or not any(t == row[0] for t in self.board.tile_of)):
            raise InvalidData(f"field {where} must be [tile, weather, tokens]")
        return row[0], row[1], Int(1).read(row[2], f"{where}[2]")

    def woods_section(self, raw: Any, where: str) -> WoodsRecord:
        """The fields of Wild Woods (the expansion's own record in a save)."""
        v = self.woods_schema().read(raw, "wild_woods")
        if v["storm_spares_thorondal"] and not v["storms"]:
            raise InvalidData("field wild_woods.storm_spares_thorondal is true in a game "
                              "without Elemental Storms (wild_woods.storms is false), where it "
                              "would change nothing")
        treetops = [0] * len(self.board)
        for i, n in v["treetops"]:
            treetops[i] = n
        stacks = [(0,) * self.n for _ in range(len(self.board))]
        for i, stack in v["seed_stacks"]:
            stacks[i] = stack
        return WoodsRecord(storms=v["storms"], treetops=tuple(treetops),
                           seed_stacks=tuple(stacks),
                           player_boards=tuple(PlayerBoard(**b) for b in v["boards"]),
                           storm_tiles=tuple(sorted(v["storm_tiles"])),
                           storm_discard=v["storm_discard"], storm_box=v["storm_box"],
                           woods_box=v["woods_box"], grown_tall=v["grown_tall"],
                           storm_spares_thorondal=v["storm_spares_thorondal"])

    # ----- the state ----------------------------------------------------------------------------

    def build(self, cls: type, v: dict) -> GameState:
        """The state the checked fields describe (its invariants are checked next)."""
        ed = self.ed
        state = cls(
            edition=ed, board=self.board, seed=v["seed"], family=v["family"],
            trees=v["trees"], seeds=v["seeds"], spirits=v["spirits"],
            board_blessings=v["board_blessings"], players=v["players"],
            land_deck=v["land_deck"], creature_deck=v["creature_deck"], market=v["market"],
            weather_supply=v["weather_supply"], blessing_bag=v["blessing_bag"],
            blessing_discard=v["blessing_discard"], most_trees=NOBODY,
            first_player=v["first_player"], turn_player=v["turn_player"],
            actions_taken=v["actions_taken"], exchange_used=v["exchange_used"],
            decisions=v["decisions"], ancients=v["ancients"], favor_bag=v["favor_bag"],
            market_favors=v["market_favors"], round=v["round"],
            end_triggered=v["end_triggered"], phase=v["phase"],
            final_ritual_done=v["final_ritual_done"], end_reason=v["end_reason"],
            coop=v["ancients_mode"], woods=v["wild_woods"])
        counts_now = [state.trees.count(p) for p in range(self.n)]
        state = replace(state, most_trees=scoring.most_trees_holder(counts_now,
                                                                    ed.most_trees_minimum))
        slots = market_slots(state)
        for p, c in enumerate(state.market):
            if c is not None and ed.card(c).kind != slots[p]:
                raise InvalidData(f"field market[{p}] must hold a {slots[p]} card")
        return state


# ----- the state before Game Setup --------------------------------------------------------------

#: Blessings the family rules leave in the box: without Ancient Guardians a Call Ancient
#: Blessing could never be used (assumption 'family-no-call-ancient')
FAMILY_BOXED_BLESSINGS = ("Call Ancient",)


@dataclass(frozen=True)
class SetupStep:
    """One step of Game Setup: a title, what happens in plain words, and the state after it."""

    title: str
    explanation: str
    state: GameState


def blank_state(ed: Edition, board: Board, players: int, seed: int | str, family: bool = False,
                **fields: Any) -> GameState:
    """Everything still in the box: each player's Trees and Seeds in their supply (one Seed
    kept back as the score marker), the Ritual decks in edition order, every Blessing in the
    bag and (full game) every Favor Token in its bag.  ``fields`` sets further state fields
    (e.g. the record of Return of the Ancients)."""
    cells = len(board)
    start = PlayerState(trees=ed.trees_per_player, seeds=ed.seeds_per_player - 1, hand=(),
                        weather=(0,) * len(ed.biomes), blessings=(0,) * len(BLESSING_KINDS))
    return GameState(
        edition=ed, board=board, seed=seed, family=family, trees=(NOBODY,) * cells,
        seeds=(NOBODY,) * cells, spirits=(NOBODY,) * players, board_blessings=("",) * cells,
        players=(start,) * players, land_deck=tuple(c.id for c in ed.land_cards),
        creature_deck=tuple(c.id for c in ed.creature_cards), market=(None,) * 4,
        weather_supply=ed.weather_tokens,
        blessing_bag=tuple(k for k, count in ed.blessings for _ in range(count)
                           if not (family and k in FAMILY_BOXED_BLESSINGS)),
        blessing_discard=(), most_trees=NOBODY, first_player=0, turn_player=0,
        favor_bag=() if family else tuple(a for a, n in zip(ANCIENTS, ed.favor_tokens)
                                          for _ in range(n)), **fields)


def lay_blessings(state: GameState, rng: Any) -> GameState:
    """Game Setup: shuffle the Blessing bag and lay one token face up on every Water Space
    with the blessing icon; the rest stay in the bag, in their shuffled order."""
    bag = list(state.blessing_bag)
    rng.shuffle(bag)
    blessings = [""] * len(state.board)
    for i, marked in enumerate(state.board.blessing_marked):
        if marked:
            blessings[i] = bag.pop(0)
    return replace(state, board_blessings=tuple(blessings), blessing_bag=tuple(bag))
