"""The changing state of an Inori game: frozen data, its save format and its component-count
checks.

The rules (what is legal, what an action does, the end of a season) live in :mod:`.rules`,
the scoring in :mod:`.scoring`, the drawing in :mod:`.render` and the computer players in
:mod:`.players`; the package's ``__init__`` binds them to the :data:`~.game.GAME` object (with
the few state hooks that need them, which the state asks GAME for), so this module imports nothing above it.

A choice an effect needs (which altar, which favor colour, which space to block, which New
Start card, an any-time rune at a season's end) waits on the state as a pending
:class:`~pangaea_lab.core.engine.Decision`:

>>> d = decision("altar", 0, 4)
>>> d.words(), decision_json(d)
('Player 1 must first choose an Altar tile for the tree space you just used.', ['altar', 4])
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Callable, ClassVar

from ..core.engine import Decision
from ..core.errors import InvalidData
from ..core.jsonio import (FORMAT_VERSION, Check, Either, Flag, Int, Record, Seq, Spec, Text,
                           dumps, load_save)
from ..core.memo import keep
from ..core.protocol import GameState as ProtocolState
from ..core.validate import count, kind_of, require
from .board import NEUTRAL
from .edition import Edition, edition_of_save
from .game import GAME
from .scoring import CATEGORIES

Slot = tuple[str, tuple[tuple[int, ...], ...]]

#: the decisions an effect or a season's end can leave pending: what the player must do first,
#: in words, and the section of the rules summary that asks it
DECISIONS: dict[str, tuple[str, str]] = {
    "new_start": ("keep one of the New Start cards drawn (the player with the fewest points "
                  "chooses)", "End of Season"),
    "altar": ("choose an Altar tile for the tree space you just used",
              "Offer to the Great Tree"),
    "favor_any": ("choose the colour of a favor token to take", "Turn"),
    "favor_least": ("choose which least-held colour to take", "Turn"),
    "block": ("choose an empty card space to block with a neutral marker",
              "Offer to the Great Tree"),
    "rune_window": ("decide, as the season is ending, whether to play an any-time rune "
                    "before the scoring", "Play a Rune Tile"),
}
#: decisions taken by a player named in the save; the others belong to the player whose turn
#: it is
NAMED = ("new_start", "rune_window")


def decision(kind: str, player: int, *data: Any) -> Decision:
    """A pending decision of one of the :data:`DECISIONS` kinds (decisions are immutable
    values: the same one is made once)."""
    try:
        return _decision(kind, player, data)
    except TypeError:       # data that cannot be a key (a list): made afresh
        return Decision(kind, player, DECISIONS[kind][0], tuple(data))


@lru_cache(maxsize=4096)
def _decision(kind: str, player: int, data: tuple) -> Decision:
    return Decision(kind, player, DECISIONS[kind][0], data)


def decision_json(d: Decision) -> list:
    """A decision as the save writes it: ``[kind, player, ...]`` for a new start or a rune
    window, ``[kind, ...]`` for a choice of the player whose turn it is."""
    return [d.kind, d.player, *d.data] if d.kind in NAMED else [d.kind, *d.data]


@dataclass(frozen=True, eq=True, repr=False)
class GameState(ProtocolState):
    """A position of an Inori game.  Build one with :func:`pangaea_lab.inori.new_game`.

    Favor counts are per player, per colour in the edition's colour order.  ``slots`` holds the
    cards on the board, each as (card id, markers on each space; -1 is a neutral marker).
    ``pending`` holds the decisions to take before play goes on, the first one next.
    """

    game: ClassVar[str] = "inori"
    GAME: ClassVar[Any] = GAME

    edition: Edition
    players: int
    seed: int | str
    schedule: tuple[int, ...]
    season: int
    first_player: int
    turn: int
    hand: tuple[int, ...]
    set_aside: tuple[int, ...]
    favor: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    root_colours: tuple[str, ...]
    root_tokens: tuple[int, ...]
    slots: tuple[Slot, ...]
    piles: tuple[tuple[str, ...], ...]
    new_start_deck: tuple[str, ...]
    unused_start: tuple[str, ...]
    spent_cards: tuple[str, ...]
    altars: tuple[str | None, ...]
    tree_markers: tuple[int | None, ...]
    neutral_home: int
    rune_deck: tuple[str, ...]
    rune_hands: tuple[tuple[str, ...], ...]
    runes_used: tuple[str, ...]
    points: tuple[tuple[int, ...], ...]
    offered: bool
    pending: tuple[Decision, ...]
    over: bool
    reports: tuple[Any, ...]

    # ----- protocol ------------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def current_player(self) -> int | None:
        if self.over:
            return None
        return self.pending[0].player if self.pending else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    # ----- display -------------------------------------------------------------------------

    def describe_card(self, slot: int) -> str:
        """A card on the table in plain words: colours, each space's cost, effect and
        occupants (:func:`.render.card_text`, bound to GAME by the package)."""
        return self.GAME.part("describe_card")(self, slot)

    def player_summary(self, player: int) -> str:
        ed = self.edition
        held = ", ".join(f"{ed.names[c]} {n}" for c, n in zip(ed.colours, self.favor[player])
                         if n) or "no favor"
        runes = ", ".join(ed.runes[r].describe(ed.names) for r in self.rune_hands[player])
        waiting = self.schedule[-1] - self.schedule[self.season - 1]
        return (f"{sum(self.points[player])} points; favor: {held}; markers in hand "
                f"{self.hand[player]}, waiting for later seasons {waiting}; "
                f"runes: {runes or 'none'}")

    def space_name(self, cell: tuple[int, ...]) -> str:
        """A space as the board shows it: "card 2, space 3" or "Great Tree space T4" (the
        step-through widget names a clicked space so)."""
        if len(cell) == 2:
            return f"card {cell[0] + 1}, space {cell[1] + 1}"
        if len(cell) == 1 and 0 <= cell[0] < len(self.edition.tree):
            return f"Great Tree space {self.edition.tree[cell[0]].id}"
        return "a space that is not on this board"

    def __repr__(self) -> str:
        status = "game over" if self.over else \
            f"{self.player_name(self.current_player)} to play"  # type: ignore[arg-type]
        return (f"<Inori game: {self.players} players, seed {self.seed!r}, season "
                f"{self.season}, {status}; edition {self.edition.name!r} "
                f"[{self.edition.label}]>")

    # ----- helpers -------------------------------------------------------------------------

    def colour_index(self, colour: str) -> int:
        return self.edition.colours.index(colour)

    def markers_on_board(self, player: int) -> int:
        on_cards = sum(s.count(player) for _, spaces in self.slots for s in spaces)
        return on_cards + sum(1 for m in self.tree_markers if m == player)

    # ----- invariants ----------------------------------------------------------------------

    def check_invariants(self) -> None:
        ed = self.edition
        for k, colour in enumerate(ed.colours):
            held = sum(row[k] for row in self.favor)
            roots = sum(n for c, n in zip(self.root_colours, self.root_tokens) if c == colour)
            require(self.supply[k] >= 0 and all(row[k] >= 0 for row in self.favor))
            require(held + self.supply[k] + roots == ed.favor_per_colour,
                    f"{colour} favor tokens not conserved")
        season_markers = self.schedule[self.season - 1]
        placed = [0] * self.players
        neutral_out = 0
        for _, spaces in self.slots:
            for s in spaces:
                for m in s:
                    if m == NEUTRAL:
                        neutral_out += 1
                    else:
                        placed[m] += 1
                require(len(set(s)) == len(s), "a player twice on one space")
                require(NEUTRAL not in s or len(s) == 1, "a neutral marker shares a space")
        for m in self.tree_markers:
            if m is not None:
                placed[m] += 1
        for p in range(self.players):
            used = placed[p] + self.set_aside[p]
            if not self.over:
                require(self.hand[p] + used == season_markers, f"player {p} markers not conserved")
            else:
                require(self.hand[p] == 0 and used == 0)
        require(neutral_out + self.neutral_home == ed.neutral_markers, "neutral markers lost")
        runes = list(self.rune_deck) + list(self.runes_used)
        for h in self.rune_hands:
            runes += h
        require(sorted(runes) == sorted(ed.runes), "rune tiles not conserved")
        cards = [c for c, _ in self.slots] + list(self.new_start_deck)
        for group in (*self.piles, self.unused_start, self.spent_cards):
            cards += group
        for d in self.pending:
            require(d.kind in NAMED or d.player == self.turn,
                    f"the pending {d.kind} choice belongs to the player whose turn it is")
            if d.kind == "new_start":
                cards += d.data[0]
        require(sorted(cards) == sorted(ed.cards), "cards not conserved")
        require(len([a for a in self.altars if a]) == len({a for a in self.altars if a}),
                "an Altar tile placed twice")

    # ----- JSON ----------------------------------------------------------------------------

    def to_json(self) -> str:
        data: dict[str, Any] = {"game": self.game, "format": FORMAT_VERSION}
        values = vars(self)
        for name in FIELDS:
            data[name] = values[name]
        ed = data["edition"]
        data["edition"] = "reference" if ed.is_reference else ed.raw
        data["pending"] = [decision_json(d) for d in data["pending"]]
        # the seasons' reports never change once made and are shared by every later state of
        # the game: the text of each is made once and kept (see report_texts), then put in
        # its place
        data["reports"] = _REPORTS_HERE
        text = dumps(data)
        if text.count(_REPORTS_HERE_TEXT) != 1:     # (a seed text could hold the marker)
            data["reports"] = values["reports"]
            return dumps(data)
        reports = "[" + ",".join(report_texts(self)) + "]"
        return text.replace(_REPORTS_HERE_TEXT, reports)

    @classmethod
    def from_json(cls, text: str | bytes) -> "GameState":
        """Read a save: every field is checked against :func:`save_schema` (the error names
        the field's path, e.g. ``altars[4]: expected an altar colour id or null``), then the
        state is built and its component counts are checked."""
        return load_save(text, cls.game, SAVE, lambda values: cls(**values),
                         what="Inori save file")


#: the old name of the state class
InoriState = GameState
FIELDS = tuple(f.name for f in fields(GameState))

#: where a save's text leaves room for the reports while the rest is written
_REPORTS_HERE = "\x00reports\x00"
_REPORTS_HERE_TEXT = dumps(_REPORTS_HERE)

def report_texts(state: GameState) -> list[str]:
    """The text of each of the state's season reports as a save writes it (``dumps``).  A
    report never changes once the season's end has made it, so the texts are kept with the
    state (each with its report, used only for that very report) and handed on to the
    states that follow it (``CARRY`` of ``rules.InoriCopy``)."""
    kept = getattr(state, "_report_texts", None) or ()
    reports = state.reports
    texts = [pair[1] if k < len(kept) and (pair := kept[k])[0] is report else dumps(report)
             for k, report in enumerate(reports)]
    if len(kept) != len(texts) or any(kept[k][1] is not t for k, t in enumerate(texts)):
        keep(state, "_report_texts", tuple(zip(reports, texts)))
    return texts


# ----- the save's declared fields -------------------------------------------------------------
#
# The sizes of most fields follow from the edition and the number of players, so the save is
# read in two steps: the edition (a shipped edition's name or the edition's data, never a file)
# and ``players`` first, then every field with the schema for that edition and player count.


class _Unsure(Exception):
    """A quick reading (see :meth:`Entries.quick`) could not vouch for a value: it is read
    item by item, which names the bad item if there is one."""


class Count(Spec):
    """A whole number from ``low`` to ``high`` (the words of :func:`core.validate.count`)."""

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def read(self, value: Any, where: str) -> int:
        return count(value, where, self.low, self.high)


#: the only type of item a quick reading accepts, per kind of item spec
_INTS, _TEXTS, _LISTS = {int}, {str}, {list}


class Entries(Seq):
    """A list of items of one spec, exactly ``length`` of them when given.

    A list whose items are all plainly good (whole numbers in range, known ids, or lists of
    such) is read in one pass, as reading it item by item would read it; anything else is
    read item by item, so a bad item is named with its path."""

    def read(self, value: Any, where: str) -> tuple:
        try:
            return self.quick(value)
        except _Unsure:
            pass
        if isinstance(value, list) and self.length is not None and len(value) != self.length:
            raise InvalidData(f"{where}: expected {self.length} entries, got {len(value)}")
        return super().read(value, where)

    def quick(self, value: Any) -> tuple:
        """``value`` read as :meth:`read` reads a good value, or :class:`_Unsure`."""
        if type(value) is not list or self.length is not None and len(value) != self.length \
                or len(value) > self.longest:
            raise _Unsure
        if not value:
            return ()
        item = self.item
        kind = type(item)
        if kind is Count:
            if {*map(type, value)} == _INTS and item.low <= min(value) \
                    and max(value) <= item.high:
                return tuple(value)
        elif kind is Known:
            if {*map(type, value)} == _TEXTS and all(map(item.known.__contains__, value)):
                return tuple(value)
        elif kind is Entries:
            return tuple(map(item.quick, value))
        raise _Unsure


class Known(Spec):
    """The id of a ``what`` (card, rune, colour) of the edition."""

    def __init__(self, known: Any, what: str) -> None:
        self.known, self.what = known, what

    def read(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or value not in self.known:
            raise InvalidData(f"{where}: expected a {self.what} id of this edition, got "
                              f"{kind_of(value)} {str(value)[:30]!r}")
        return value


def _object(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise InvalidData(f"{where}: expected an object, got {kind_of(value)}")
    return value


#: a game's seed: a whole number or a short text
SEED = Either(Int(-10**30, 10**30), Text(longest=200), wanted="a whole number or a short text")


@lru_cache(maxsize=32)
def save_schema(ed: Edition, n: int) -> Record:
    """The declared fields of a save of an ``n``-player game with edition ``ed``."""
    colours, trees = len(ed.colours), len(ed.tree)
    markers = max(ed.markers_total.values())
    roots = sum(1 for t in ed.tree if not t.altar)
    player = Count(0, n - 1)
    cards, runes = Known(ed.cards, "card"), Known(ed.runes, "rune")
    return Record({
        "players": Count(2, 4), "seed": SEED, "schedule": Check(_schedule_reader(ed, n)),
        "season": Count(1, ed.seasons), "first_player": player, "turn": player,
        "hand": Entries(Count(0, markers), length=n),
        "set_aside": Entries(Count(0, markers), length=n),
        "favor": Entries(Entries(Count(0, ed.favor_per_colour), length=colours), length=n),
        "supply": Entries(Count(0, ed.favor_per_colour), length=colours),
        "root_colours": Entries(Known(ed.colours, "colour"), length=roots),
        "root_tokens": Entries(Count(0, ed.favor_per_colour), length=roots),
        "slots": Entries(Check(_slot_reader(ed, n, cards, player)), longest=40),
        "piles": Entries(Entries(cards, longest=400), length=colours),
        "new_start_deck": Entries(cards, longest=400),
        "unused_start": Entries(cards, longest=400),
        "spent_cards": Entries(cards, longest=400),
        "altars": Check(_altars_reader(ed)),
        "tree_markers": Entries(Check(lambda v, w: None if v is None else player.read(v, w)),
                                length=trees),
        "neutral_home": Count(0, ed.neutral_markers),
        "rune_deck": Entries(runes, longest=400),
        "rune_hands": Entries(Entries(runes, longest=400), length=n),
        "runes_used": Entries(runes, longest=400),
        "points": Entries(Entries(Count(0, 10_000), length=len(CATEGORIES)), length=n),
        "offered": Flag(), "over": Flag(),
        "pending": Entries(Check(_pending_reader(ed, player)), longest=20),
        "reports": Entries(Check(_object), longest=ed.seasons),
    }, extra=True)


def _schedule_reader(ed: Edition, n: int) -> Callable[[Any, str], tuple]:
    """A reader of the save's marker schedule: one of the edition's for ``n`` players."""
    markers = max(ed.markers_total.values())

    def schedule(value: Any, where: str) -> tuple:
        row = Entries(Count(0, markers), length=ed.seasons).read(value, where)
        if row not in [t[n] for t in ed.schedules.values()]:
            raise InvalidData(f"{where}: {list(row)} is not a marker schedule of this edition "
                              f"for {n} players")
        return row
    return schedule


def _slot_reader(ed: Edition, n: int, cards: Known,
                 player: Count) -> Callable[[Any, str], tuple]:
    """A reader of one card slot, ``[card id, spaces]`` with the markers (players' or
    neutral) on each of the card's spaces."""
    def marker(value: Any, where: str) -> int:
        return value if type(value) is int and value == NEUTRAL else player.read(value, where)

    def slot(value: Any, where: str) -> tuple:
        if not isinstance(value, list) or len(value) != 2:
            raise InvalidData(f"{where}: expected [card id, spaces], got {kind_of(value)}")
        cid = cards.read(value[0], f"{where}[0]")
        spaces, size = value[1], len(ed.cards[cid].spaces)
        if not isinstance(spaces, list) or len(spaces) != size:
            raise InvalidData(f"{where}[1]: expected the markers on each of the card's "
                              f"{size} spaces")
        if {*map(type, spaces)} == _LISTS and max(map(len, spaces), default=0) <= n:
            markers = [m for held in spaces for m in held]
            if not markers or {*map(type, markers)} == _INTS and NEUTRAL <= min(markers) \
                    and max(markers) < n:     # every marker plainly good (NEUTRAL is -1)
                return cid, tuple(map(tuple, spaces))
        return cid, Entries(Entries(Check(marker), longest=n)).read(spaces, f"{where}[1]")
    return slot


def _altars_reader(ed: Edition) -> Callable[[Any, str], tuple]:
    """A reader of the altars on the Great Tree: an altar colour or null per space, altars
    only on altar spaces."""
    trees = len(ed.tree)

    def altars(value: Any, where: str) -> tuple:
        row = Entries(Check(lambda v, w: v), length=trees).read(value, where)
        for k, x in enumerate(row):
            if x is not None and (not isinstance(x, str) or x not in ed.altar_colours
                                  or not ed.tree[k].altar):
                raise InvalidData(f"{where}[{k}]: expected an altar colour id or null, got "
                                  f"{kind_of(x)}")
        return row
    return altars


def _pending_reader(ed: Edition, player: Count) -> Callable[[Any, str], tuple]:
    """A reader of one queued decision, ``[kind, ...]`` with the fields that kind needs."""
    trees = len(ed.tree)

    def pending(value: Any, where: str) -> tuple:
        if not isinstance(value, list) or not value or not isinstance(value[0], str):
            raise InvalidData(f"{where}: expected [kind, ...], got {kind_of(value)}")
        kind, rest = value[0], value[1:]
        if kind == "new_start":
            if len(rest) != 2:
                raise InvalidData(f"{where}: expected ['new_start', player, [card ids]]")
            options = rest[1]
            if not isinstance(options, list) or not options or len(options) > len(ed.cards) \
                    or not all(isinstance(c, str) and c in ed.new_start_ids for c in options):
                raise InvalidData(f"{where}[2]: expected a non-empty list of New Start card "
                                  "ids")
            return kind, player.read(rest[0], f"{where}[1]"), tuple(options)
        if kind == "altar":
            if len(rest) != 1:
                raise InvalidData(f"{where}: expected ['altar', tree space]")
            t = Count(0, trees - 1).read(rest[0], f"{where}[1]")
            if not ed.tree[t].altar:
                raise InvalidData(f"{where}[1]: tree space {t} holds no altar")
            return kind, t
        if kind == "rune_window":
            if len(rest) != 1:
                raise InvalidData(f"{where}: expected ['rune_window', player]")
            return kind, player.read(rest[0], f"{where}[1]")
        if kind in ("favor_any", "favor_least", "block"):
            if len(rest) != 1:
                raise InvalidData(f"{where}: expected [{kind!r}, count]")
            return kind, Count(1, 50).read(rest[0], f"{where}[1]")
        raise InvalidData(f"{where}[0]: unknown decision {kind[:30]!r}")
    return pending


def _read_save(value: Any, where: str) -> dict:
    """Every field of a save, read with the schema of its edition and player count, as the
    keyword arguments of :class:`GameState`."""
    missing = [name for name in FIELDS if name not in value]
    if missing:
        raise InvalidData(f"missing field {missing[0]!r} in the Inori save file")
    ed = edition_of_save(value["edition"])
    n = count(value["players"], "players", 2, 4)
    values = save_schema(ed, n).read(value, where)
    done = values["season"] if values["over"] else values["season"] - 1  # seasons scored
    if len(values["reports"]) != done:
        raise InvalidData(f"reports: expected {done} entries, got {len(values['reports'])}")
    turn = values["turn"]
    values["pending"] = tuple(decision(kind, *rest) if kind in NAMED else
                              decision(kind, turn, *rest) for kind, *rest in values["pending"])
    values["edition"] = ed
    return values


#: the whole save, as :func:`core.jsonio.load_save` reads it
SAVE = Check(_read_save)
