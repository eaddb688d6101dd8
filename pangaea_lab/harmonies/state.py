"""The changing state of a Harmonies game: plain tuples in frozen dataclasses.

Each player's board is a tuple of stacks (colours bottom to top) in the cell order of
:func:`pangaea_lab.harmonies.board.cells`, plus a tuple saying which card's cube sits on each
space (0 for none).  The static board graph is shared and never copied.  The rules, setup,
drawing and computer players are functions over this data (``rules.py``, ``setup.py``,
``render.py``, ``players.py``); the protocol methods reach them through :data:`GAME`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, ClassVar

from ..core import jsonio
from ..core.errors import InvalidData
from ..core.memo import KeptTable, keep
from ..core.working import WorkingCopy, records
from ..core.words import plural
from ..core.jsonio import Check, Either, Flag, Int, Record, Seq, Text
from ..core.protocol import Action, GameState as BaseState
from ..core.validate import require
from . import scoring
from .actions import PlaceCube, PlaceToken, TakeCard
from .board import Cell, Stack, cells, legal_stacks, rules_data
from .cards import Card, animal_ids, card, spirit_ids
from .game import GAME, RIVER_RULES, SIDES
from .habitats import board_view
from .scoring import BoardScore


@dataclass(frozen=True)
class PlayerArea:
    """One player's board, cubes and cards."""

    stacks: tuple[Stack, ...]
    #: card number whose cube sits on each space, 0 for none
    cubes: tuple[int, ...]
    #: (card number, cubes placed) for every card taken, the kept spirit included
    cards: tuple[tuple[int, int], ...]
    #: the two spirits dealt, until one is kept
    spirit_offer: tuple[int, ...]
    turns: int

    def empty_spaces(self) -> int:
        return sum(1 for s in self.stacks if not s)

    def __getstate__(self) -> dict[str, Any]:
        # what the rules keep with an area to go faster (its board view, its unfinished
        # cards) is not copied or pickled: it is worked out again when needed
        return {name: getattr(self, name) for name in AREA_FIELDS}

    def spirit(self) -> Card | None:
        """The kept spirit card, if any."""
        for c, _ in self.cards:
            if card(c).is_spirit:
                return card(c)
        return None


@dataclass(frozen=True)
class GameState(BaseState):
    """A position of a Harmonies game.  Use :func:`pangaea_lab.harmonies.new_game`."""

    game: ClassVar[str] = "harmonies"
    GAME: ClassVar[Any] = GAME

    side: str
    spirits: bool
    seed: int | str
    river_rule: str
    tiebreak_counts_spirit: bool
    #: tokens still in the pouch, in draw order
    pouch: tuple[str, ...]
    #: tokens on each central board space
    central: tuple[tuple[str, ...], ...]
    #: animal draw pile, top first
    deck: tuple[int, ...]
    #: face-up animal cards
    row: tuple[int, ...]
    #: cards discarded in solo play
    discard_pile: tuple[int, ...]
    #: tokens put back in the box (solo: the untaken ones each turn)
    boxed_tokens: tuple[str, ...]
    #: spirit cards not in play
    boxed_spirits: tuple[int, ...]
    areas: tuple[PlayerArea, ...]
    player: int
    #: tokens taken this turn and not yet placed
    hand: tuple[str, ...]
    took_tokens: bool
    took_card: bool
    discarded: bool
    #: why the end was triggered ("" until then)
    end_reason: str
    over: bool
    #: animal cubes left in the supply
    cube_supply: int
    #: results computed once for this state (scores, a computer player's sums), never saved
    #: or compared: made when first used (most states of a playout never need one)
    _cache: ClassVar[Any] = KeptTable("_cache")

    # ----- protocol ----------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.areas)

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.player

    #: True once the game has ended (the field ``over``, read without a Python call: a random
    #: playout asks it at every step)
    is_over = property(attrgetter("over"))

    @property
    def solo(self) -> bool:
        return len(self.areas) == 1

    def player_name(self, player: int) -> str:
        return "Solo player" if self.solo else f"Player {player + 1}"

    # ----- scoring (see scoring.py) ------------------------------------------------------

    def board_score(self, player: int) -> BoardScore:
        """Landscape points of a player's board."""
        return scoring.board_score(self, player)

    def card_scores(self, player: int) -> list[tuple[Card, int, int]]:
        """(card, cubes placed, points) for each card a player took."""
        return scoring.card_scores(self, player)

    def cubes_placed(self, player: int, count_spirit: bool | None = None) -> int:
        """Cubes a player has put on their board (the tie-break)."""
        return scoring.cubes_placed(self, player, count_spirit)

    def winners(self) -> list[int]:
        """Highest total wins; a tie goes to the most cubes placed; still tied, shared."""
        return scoring.winners(self)

    def suns(self) -> int:
        """Solo result in suns, modifiers for the side and the spirit included."""
        return scoring.suns(self)

    # ----- descriptions ------------------------------------------------------------------

    def player_summary(self, player: int) -> str:
        area = self.areas[player]
        parts = []
        if area.spirit_offer:
            parts.append("spirits to choose from: "
                         + ", ".join(card(s).name for s in area.spirit_offer))
        for cd, k, pts in self.card_scores(player):
            tag = "spirit " if cd.is_spirit else ""
            parts.append(f"{tag}{cd.name}: {k} of {plural(cd.cubes, 'cube')} placed "
                         f"({plural(pts, 'point')})")
        parts.append(plural(area.empty_spaces(), "empty space"))
        if player == self.player and self.hand:
            parts.append("holding " + ", ".join(self.hand))
        text = "; ".join(parts)
        if self.solo:
            text += f"; {self.scores()[0].total} points = {self.suns()} suns"
        return text

    def action_highlight(self, action: Action) -> list[Cell]:
        """Cells to highlight for an action: where a token or cube would go, or every cell
        a card's habitat fits now."""
        if isinstance(action, (PlaceToken, PlaceCube)):
            return [action.cell]
        if isinstance(action, TakeCard):
            all_cells = cells(self.side)
            view = board_view(self.side, self.areas[self.player])
            return [all_cells[i] for i in view.habitats(action.card)]
        return []

    # ----- invariants --------------------------------------------------------------------

    def token_counts(self) -> Counter:
        """Every token in the game by colour, wherever it is (always the full mix)."""
        every = list(self.pouch) + list(self.hand) + list(self.boxed_tokens)
        for space in self.central:
            every += space
        for area in self.areas:
            for s in area.stacks:
                every += s
        return Counter(every)

    def check_invariants(self) -> None:
        """Raise :class:`~pangaea_lab.core.validate.InvariantError` unless every token, cube
        and card is where exactly one of it can be."""
        mix = rules_data()["tokens"]["counts"]
        counts = self.token_counts()
        require(dict(counts) == {k: v for k, v in mix.items() if v},
                f"tokens not conserved: {dict(counts)}")
        legal = legal_stacks()
        for p, area in enumerate(self.areas):
            for s in area.stacks:
                require(not s or s in legal, f"player {p} holds an illegal stack {s}")
            for s, c in zip(area.stacks, area.cubes):
                require(not c or s, "a cube sits on an empty space")
        cb = rules_data()["central_board"]
        animal_cubes = self.cube_supply
        for area in self.areas:
            for c, k in area.cards:
                if not card(c).is_spirit:
                    animal_cubes += card(c).cubes - k
            animal_cubes += sum(1 for c in area.cubes if c and not card(c).is_spirit)
        require(animal_cubes == cb["animal_cubes"], f"animal cubes not conserved: {animal_cubes}")
        for area in self.areas:
            placed = Counter(c for c in area.cubes if c)
            for c, k in area.cards:
                require(placed[c] == k, f"card {c}: {k} cubes placed but {placed[c]} on board")
        seen = list(self.deck) + list(self.row) + list(self.discard_pile)
        seen += [c for a in self.areas for c, _ in a.cards if not card(c).is_spirit]
        require(sorted(seen) == sorted(animal_ids()), "animal cards not conserved")
        spirits = list(self.boxed_spirits)
        for a in self.areas:
            spirits += list(a.spirit_offer) + [c for c, _ in a.cards if card(c).is_spirit]
        require(sorted(spirits) == sorted(spirit_ids()), "spirit cards not conserved")
        require(sum(1 for a in self.areas if a.spirit()) <= cb["spirit_cubes"],
                "more kept spirits than spirit cubes")

    # ----- JSON --------------------------------------------------------------------------

    def to_json(self) -> str:
        try:
            return self._json     # the text, kept with the state once made (see core.memo)
        except AttributeError:
            pass
        data = {name: getattr(self, name) for name in STATE_FIELDS}
        data["areas"] = [{name: getattr(a, name) for name in AREA_FIELDS}
                         for a in self.areas]
        data["game"] = self.game
        data["format"] = jsonio.FORMAT_VERSION
        text = jsonio.dumps(data)
        return keep(self, "_json", text)

    @classmethod
    def from_json(cls, text: str | bytes) -> "GameState":
        return jsonio.load_save(text, cls.game, SAVE, lambda values: _build(cls, values),
                                what="Harmonies save file")


#: the old name of the state class
HarmoniesState = GameState

#: the fields a state is made of (its private cache aside)
STATE_FIELDS = tuple(f.name for f in fields(GameState) if f.init)
AREA_FIELDS = tuple(f.name for f in fields(PlayerArea))


#: what the rules keep with an area (its board view, its unfinished cards): the only entries
#: an area keeps beside its fields
AREA_KEPT = frozenset({"_view", "_open"})


# ----- the working copy ---------------------------------------------------------------------


class AreaCopy(WorkingCopy):
    """A player area while an action changes it (see :mod:`pangaea_lab.core.working`).  What
    the rules keep with an area stays with the new one while the fields it is worked out from
    are the same: the board view (``_view``, from the stacks and the cubes), the open cards
    (``_open``, from the cards)."""

    RECORD = PlayerArea
    CARRY = {"_view": ("stacks", "cubes"), "_open": ("cards",)}


class StateCopy(WorkingCopy):
    """A state while an action changes it: each player area its own :class:`AreaCopy` when
    first asked for (``copy.areas[p]``).  A new state's listed actions start as "not listed
    yet" (``_legal``, see :mod:`pangaea_lab.core.memo`).

    The handlers build every state directly (``StateCopy.successor(state, changes)``, or
    ``StateCopy.fresh(state)`` and the fields set one by one): an action of Harmonies
    replaces a few fields, and a random game applies thousands of them (keeping a spirit
    through a copy made and frozen costs about twice as many instructions)."""

    RECORD = GameState
    THAW = {"areas": records(AreaCopy)}
    BLANK = {"_legal": None}


# ----- the save file -----------------------------------------------------------------------

_STACK = Seq(Text(longest=20), longest=3)


def _stack(value: Any, where: str) -> Stack:
    stack = _STACK.read(value, where)
    if stack and stack not in legal_stacks():
        raise InvalidData(f"{where} holds {list(stack)}, which the stacking chart forbids")
    return stack


def _card_pair(value: Any, where: str) -> tuple[int, int]:
    c, k = Seq(Int(0, 10_000), length=2).read(value, where)
    try:
        card(c)
    except InvalidData as exc:
        raise InvalidData(f"{where}: {exc}") from None
    return c, k


_TOKENS = Seq(Text(longest=20), longest=200)
_NUMBERS = Seq(Int(0, 10_000), longest=100)

_AREA = Record({
    "stacks": Seq(Check(_stack), longest=50),
    "cubes": Seq(Int(0, 10_000), longest=50),
    "cards": Seq(Check(_card_pair), longest=100),
    "spirit_offer": _NUMBERS,
    "turns": Int(0, 10_000),
})

#: every field of a save, under the root name ``save`` (errors read ``save.areas[1].cubes``)
_FIELDS = Record({
    "side": Text(choices=SIDES),
    "spirits": Flag(),
    "seed": Either(Int(-10**30, 10**30), Text(longest=1000), wanted="a whole number or a text"),
    "river_rule": Text(choices=RIVER_RULES),
    "tiebreak_counts_spirit": Flag(),
    "pouch": _TOKENS,
    "central": Seq(Seq(Text(longest=20), longest=3), longest=20),
    "deck": _NUMBERS,
    "row": _NUMBERS,
    "discard_pile": _NUMBERS,
    "boxed_tokens": _TOKENS,
    "boxed_spirits": _NUMBERS,
    "areas": Seq(_AREA, longest=GAME.max_players),
    "player": Int(0, GAME.max_players - 1),
    "hand": Seq(Text(longest=20), longest=3),
    "took_tokens": Flag(),
    "took_card": Flag(),
    "discarded": Flag(),
    "end_reason": Text(longest=500),
    "over": Flag(),
    "cube_supply": Int(0, 10_000),
})
SAVE = Check(lambda value, where: _FIELDS.read(value, "save"))


def _build(cls: type[GameState], v: dict) -> GameState:
    """A state from the checked fields of a save (what the fields cannot say alone is
    checked here; conservation of every piece by the invariants afterwards)."""
    n = len(cells(v["side"]))
    if not GAME.min_players <= len(v["areas"]) <= GAME.max_players:
        raise InvalidData(f"field save.areas must hold {GAME.min_players} to "
                          f"{GAME.max_players} players")
    areas = []
    for p, a in enumerate(v["areas"]):
        if len(a["stacks"]) != n or len(a["cubes"]) != n:
            raise InvalidData(f"field save.areas[{p}]: side {v['side']} boards have {n} "
                              "spaces")
        areas.append(PlayerArea(a["stacks"], a["cubes"], a["cards"], a["spirit_offer"],
                                a["turns"]))
    if not v["player"] < len(areas):
        raise InvalidData("field save.player names a seat that does not exist")
    if v["hand"] and not v["took_tokens"]:
        raise InvalidData("field save.hand: tokens in hand come from taking tokens this turn "
                          "(took_tokens), three at most")
    return cls(**{**v, "areas": tuple(areas)})
