"""The actions of The Dawn of Pangaea as plain, hashable values.

Cells are ``(q, r)`` pairs.  ``label`` is filled in by ``legal_actions()`` with card titles and
scores for display; it is not part of an action's identity, so a hand-built action equals the
listed one.  ``kind`` labels group actions in the widgets' Kind menu; they are the
rulebook's name of an action (Flying Seed, Spirit Growth, Add Treetop ...) or a few plain
words saying what is done, with a capital first letter and no full stop.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..core.exercises import a, plural
from ..core.hexgrid import Hex
from ..core.protocol import Action

MAIN, FREE, DECISION = "main", "free", "decision"


@dataclass(frozen=True)
class PangaeaAction(Action):
    label: str = field(default="", compare=False, kw_only=True)
    tier: ClassVar[str] = MAIN

    def _text(self) -> str:  # pragma: no cover - overridden
        return self.kind

    def describe(self) -> str:
        return self.label or self._text()


@dataclass(frozen=True)
class FlyingSeed(PangaeaAction):
    """Main action: a Seed on any empty Land Space.  In Wild Woods several Flying Seed actions
    may be used together to win a space from another colour (Seed Competition): ``actions``
    main actions of the turn (1 or 2) and ``blessings`` Flying Seed Blessings, one Seed each,
    land on the same space at once."""

    cell: Hex
    blessings: int = 0
    actions: int = 1
    kind: ClassVar[str] = "Flying Seed"

    def _text(self) -> str:
        seeds = self.actions + self.blessings if isinstance(self.actions, int) and isinstance(
            self.blessings, int) else "several"
        parts = (["both actions"] if self.actions == 2 else []) + (
            [plural(self.blessings, "Flying Seed Blessing")] if self.blessings else [])
        extra = f" using {' and '.join(parts)} ({seeds} Seeds at once)" if parts else ""
        return f"Flying Seed: place a Seed on {self.cell}{extra}"


@dataclass(frozen=True)
class ExpandForest(PangaeaAction):
    """Main action: up to 2 Seeds on empty Land Spaces next to your Trees."""

    cells: tuple[Hex, ...]
    kind: ClassVar[str] = "Expand Forest"

    def _text(self) -> str:
        return "Expand Forest: Seeds on " + " and ".join(str(c) for c in self.cells)


@dataclass(frozen=True)
class SpiritGrowth(PangaeaAction):
    """Main action: Spirit to (or stays on) a Water Space; adjacent Seeds grow."""

    cell: Hex
    kind: ClassVar[str] = "Spirit Growth"

    def _text(self) -> str:
        return f"Spirit Growth: Spirit on {self.cell}"


@dataclass(frozen=True)
class PlayCreature(PangaeaAction):
    """Main action: play a Creature Ritual, paying Weather Tokens (and Wild Weather Blessings)."""

    card: str
    from_market: bool
    pay: tuple[tuple[str, int], ...]
    wild_blessings: int = 0
    kind: ClassVar[str] = "Play a Ritual Card"

    def _text(self) -> str:
        where = "market" if self.from_market else "hand"
        paid = ", ".join(f"{n} {w}" for w, n in self.pay if n)
        if self.wild_blessings:
            paid += (", " if paid else "") + f"{self.wild_blessings} Wild Weather"
        return f"Creature Ritual {self.card} from {where}, paying {paid or 'nothing'}"


@dataclass(frozen=True)
class PlayLand(PangaeaAction):
    """Main action: play a Land Ritual along a shortest path of Trees and Spirits."""

    card: str
    from_market: bool
    path: tuple[Hex, ...]
    kind: ClassVar[str] = "Play a Ritual Card"

    @property
    def start(self) -> Hex:
        return self.path[0]

    @property
    def end(self) -> Hex:
        return self.path[-1]

    def _text(self) -> str:
        where = "market" if self.from_market else "hand"
        return (f"Land Ritual {self.card} from {where}: {self.start} to {self.end} "
                f"over {len(self.path)} spaces")


@dataclass(frozen=True)
class TakeMarketCard(PangaeaAction):
    """Step 3 after playing from hand: take a card from the Open Market."""

    card: str
    kind: ClassVar[str] = "Draw a new card"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Take {self.card} from the Open Market into your hand"


@dataclass(frozen=True)
class DrawFromDeck(PangaeaAction):
    """Step 3 after playing from hand: draw the top card of a Ritual deck."""

    deck: str  # "land" or "creature"
    kind: ClassVar[str] = "Draw a new card"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Draw the top card of the {self.deck.title()} Ritual deck"


@dataclass(frozen=True)
class MoveTree(PangaeaAction):
    """Moving Trees: a Seed grows but its owner has no Tree in supply, so they move one."""

    origin: Hex
    target: Hex
    kind: ClassVar[str] = "Move a Tree"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Move your Tree from {self.origin} to the growing Seed on {self.target}"


@dataclass(frozen=True)
class TakeBackSeed(PangaeaAction):
    """Free: take one of your Seeds back from the continent."""

    cell: Hex
    kind: ClassVar[str] = "Take back a Seed"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return f"Take your Seed on {self.cell} back to your supply"


@dataclass(frozen=True)
class BlessFlyingSeed(PangaeaAction):
    """Free: the Flying Seed Blessing places a Seed without using an action.  In Wild Woods
    ``count`` Blessings may be played together on one space (Seed Competition)."""

    cell: Hex
    count: int = 1
    kind: ClassVar[str] = "Use a Blessing"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        if self.count != 1:
            return f"{self.count} Flying Seed Blessings together: {self.count} Seeds on {self.cell}"
        return f"Flying Seed Blessing: place a Seed on {self.cell}"


@dataclass(frozen=True)
class BlessVigorousSeed(PangaeaAction):
    """Free: the Vigorous Seed Blessing grows any one Seed on the continent."""

    cell: Hex
    kind: ClassVar[str] = "Use a Blessing"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return f"Vigorous Seed Blessing: grow the Seed on {self.cell}"


@dataclass(frozen=True)
class ExchangeWeather(PangaeaAction):
    """Free, once per turn for the holder of Most Trees: swap one Weather Token."""

    give: str
    take: str
    kind: ClassVar[str] = "Exchange Weather (Most Trees)"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return f"Most Trees: exchange 1 {self.give} token for 1 {self.take} token"


@dataclass(frozen=True)
class EndTurn(PangaeaAction):
    """Finish your turn (the Open Market is refilled) — or, in the final round, pass."""

    kind: ClassVar[str] = "End turn"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return "End your turn"


# ----- the full game: Ancient Guardians, Favor Tokens, Ritual Chains -------------------------


@dataclass(frozen=True)
class SummonAncient(PangaeaAction):
    """Main action (full game): call one of the three Ancient Guardians; where it goes is
    chosen next."""

    ancient: str
    kind: ClassVar[str] = "Summon the Ancients"

    def _text(self) -> str:
        return f"Summon the Ancients: call {self.ancient}"


@dataclass(frozen=True)
class BlessCallAncient(PangaeaAction):
    """Free: the Call Ancient Blessing is a Summon the Ancients that costs no action."""

    ancient: str
    kind: ClassVar[str] = "Use a Blessing"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return f"Call Ancient Blessing: summon {self.ancient}"


@dataclass(frozen=True)
class ActivateFavor(PangaeaAction):
    """Free: put a Favor Token on a matching played Ritual card to summon that Ancient."""

    card: str
    ancient: str
    kind: ClassVar[str] = "Activate a Favor Token"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return f"Place {a(self.ancient)} Favor Token on {self.card} and summon {self.ancient}"


@dataclass(frozen=True)
class ConvertFavor(PangaeaAction):
    """Free: return 2 unactivated Favor Tokens of one type to the bag for 1 of your choice."""

    give: str
    take: str
    kind: ClassVar[str] = "Convert Favor Tokens"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return f"Return 2 {self.give} Favor Tokens to the bag and take 1 {self.take} token"


@dataclass(frozen=True)
class PlaceAncient(PangaeaAction):
    """Decision: where a summoned Ancient goes, and the space of its direct effect (the Seed
    Chelon grows, the Seed Thorondal lets you place), if any."""

    ancient: str
    cell: Hex
    second: Hex | None = None
    kind: ClassVar[str] = "Place the Ancient"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        text = f"Place {self.ancient} on {self.cell}"
        if self.second is not None:
            text += (f" and grow the Seed on {self.second}" if self.ancient == "Chelon"
                     else f" and place a Seed on {self.second}")
        return text


@dataclass(frozen=True)
class MoveOkuma(PangaeaAction):
    """Decision: the Seed under Okuma grew, so Okuma moves one space on."""

    cell: Hex
    kind: ClassVar[str] = "Move Okuma"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Move Okuma to {self.cell}"


@dataclass(frozen=True)
class PlaceInChain(PangaeaAction):
    """Decision: where a played Ritual card joins your Ritual Chains."""

    card: str
    chain: int          # index of the chain; -1 starts a new chain
    side: str = "right"  # "left" or "right" end of the chain
    kind: ClassVar[str] = "Place in a Ritual Chain"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        if self.chain < 0:
            return f"Start a new Ritual Chain with {self.card}"
        return f"Join {self.card} to the {self.side} end of chain {self.chain + 1}"


@dataclass(frozen=True)
class TakeBlessing(PangaeaAction):
    """Decision: the Blessing an Ecosystem earns, chosen from the discard pile."""

    blessing: str
    kind: ClassVar[str] = "Take an Ecosystem Blessing"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Ecosystem: take {a(self.blessing)} Blessing from the discard pile"


# ----- Return of the Ancients (solo/co-op) ------------------------------------------------------


@dataclass(frozen=True)
class MoveShadow(PangaeaAction):
    """Decision (Shadow Phase): where the Spirit of Shadows goes, 2 spaces from where it is."""

    cell: Hex
    kind: ClassVar[str] = "Move the Shadow"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Shadow Phase: move the Spirit of Shadows to {self.cell}"


@dataclass(frozen=True)
class PlaceScourge(PangaeaAction):
    """Decision: the space a Scourge Marker spreads to (Dance, or a Moon Card)."""

    cell: Hex
    kind: ClassVar[str] = "Place a Scourge"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Scourge: place a Scourge Marker on {self.cell}"


@dataclass(frozen=True)
class AscendAncient(PangaeaAction):
    """Decision: the Ancient Marker a Land Ritual moves up the mountain."""

    ancient: str
    kind: ClassVar[str] = "Move an Ancient up"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Move the {self.ancient} Marker up the Sacred Mountain"


@dataclass(frozen=True)
class LeaveSeed(PangaeaAction):
    """Decision: after a Devour took your Tree, leave one of your Seeds on its space or not."""

    leave: bool
    kind: ClassVar[str] = "Leave a Seed after Devour"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return "Leave a Seed where the Tree was devoured" if self.leave else "Leave no Seed behind"


@dataclass(frozen=True)
class PlaceSeed(PangaeaAction):
    """Decision: the second Seed a returned Thorondal lets you place next to it."""

    cell: Hex
    kind: ClassVar[str] = "Place Thorondal's second Seed"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Thorondal: place a second Seed on {self.cell}"


@dataclass(frozen=True)
class ShareWeather(PangaeaAction):
    """Free action, once per turn: give a Weather Token to a player whose Trees touch yours."""

    to: int
    weather: str
    kind: ClassVar[str] = "Share a Weather Token"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return f"Give 1 {self.weather} token to player {self.to + 1}"


# ----- Wild Woods --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SowSeeds(PangaeaAction):
    """Main action (Wild Woods Expand Forest): the first Seeds, ``count`` of them on one space
    within range of your Trees; more spaces may follow (:class:`MoreSeeds`)."""

    cell: Hex
    count: int = 1
    kind: ClassVar[str] = "Expand Forest"

    def _text(self) -> str:
        return f"Expand Forest: sow {plural(self.count, 'Seed')} on {self.cell}"


@dataclass(frozen=True)
class MoreSeeds(SowSeeds):
    """Decision: Expand Forest goes on, ``count`` more Seeds on another space in range."""

    kind: ClassVar[str] = "Sow more Seeds"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Expand Forest: also sow {plural(self.count, 'Seed')} on {self.cell}"


@dataclass(frozen=True)
class StopSowing(PangaeaAction):
    """Decision: Expand Forest ends; the other Seeds stay in the supply."""

    kind: ClassVar[str] = "Stop sowing"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return "Expand Forest: keep the remaining Seeds in your supply"


@dataclass(frozen=True)
class AddTreetop(PangaeaAction):
    """Main action (Wild Woods): take the Treetop of a Player Board slot, paying its cost in
    Weather Tokens of different types (``wild`` Wild Weather Blessings stand in for some)."""

    slot: int
    pay: tuple[str, ...] = ()
    wild: int = 0
    kind: ClassVar[str] = "Add Treetop"

    def _text(self) -> str:
        paid = list(self.pay) + ["Wild Weather"] * self.wild
        return (f"Add Treetop: take the Treetop of slot {self.slot + 1}, paying "
                + (", ".join(paid) if paid else "nothing"))


@dataclass(frozen=True)
class BlessStrongCanopy(AddTreetop):
    """Free: the Strong Canopy Blessing takes a Treetop (its cost still paid) without using an
    action."""

    kind: ClassVar[str] = "Use a Blessing"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return "Strong Canopy Blessing: " + super()._text()[len("Add Treetop: "):]


@dataclass(frozen=True)
class PlaceTreetop(PangaeaAction):
    """Decision: the Tree of yours that the Treetop just taken goes on (a level higher)."""

    cell: Hex
    kind: ClassVar[str] = "Place the Treetop"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Put the Treetop on your Tree on {self.cell}"


@dataclass(frozen=True)
class ReturnTreetop(PangaeaAction):
    """Decision: the empty Player Board slot a Treetop taken off a Tree goes back to."""

    slot: int
    kind: ClassVar[str] = "Return a Treetop"
    tier: ClassVar[str] = DECISION

    def _text(self) -> str:
        return f"Put the Treetop back on slot {self.slot + 1} of your Player Board"


@dataclass(frozen=True)
class BlessForesight(PangaeaAction):
    """Free: the Foresight Blessing takes a Ritual from the Open Market into your hand for good
    (with its Favor Token)."""

    card: str
    kind: ClassVar[str] = "Use a Blessing"
    tier: ClassVar[str] = FREE

    def _text(self) -> str:
        return f"Foresight Blessing: take {self.card} from the Open Market into your hand"


#: the spaces a table of :func:`per_space` holds at most: every continent the game lays lies
#: within a few hundred spaces around the mountain, so a table only grows past this with
#: hand-built or loaded boards far away; it is then emptied and filled again
PER_SPACE_LIMIT = 4096

_per_space: dict = {}


def per_space(make, cells) -> list:
    """``[make(c) for c in cells]``, with each value made once per ``make`` and space, and
    handed out again for every later board on which that space lies.

    An action names a space only by its (q, r), so it does not depend on the board: each
    game lays a new continent, and its growth actions are read from these tables rather
    than made again for every game (the values are shared: never to be changed)."""
    table = _per_space.get(make)
    if table is None:
        table = _per_space[make] = {}
    elif len(table) > PER_SPACE_LIMIT:
        table.clear()
    get = table.get
    out = []
    for c in cells:
        got = get(c)
        if got is None:
            got = table[c] = make(c)
        out.append(got)
    return out


def expand_one(cell: Hex) -> ExpandForest:
    """Expand Forest with one Seed on ``cell``."""
    return ExpandForest((cell,))
