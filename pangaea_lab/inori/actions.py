"""Inori actions: small frozen values, compared by their rule-relevant fields only.

Each action may carry a ``note`` (card name, effect, cost in plain words) that the state fills
in when it lists legal actions; the note is left out of equality, so an action built by hand
(``OfferCard(slot=1, space=0)``) matches the listed one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..core.protocol import Action


def _with_note(text: str, note: str) -> str:
    return f"{text}: {note}" if note else text


@dataclass(frozen=True)
class OfferCard(Action):
    """Place a marker on a free space of the card in ``slot`` (0-based), paying ``pay``."""

    kind: ClassVar[str] = "Offer to a card"
    slot: int
    space: int
    pay: str | None = None
    note: str = field(default="", compare=False, repr=False)

    def describe(self) -> str:
        paid = f" paying 1 {self.pay}" if self.pay else ""
        return _with_note(f"Offer to card {self.slot + 1}, space {self.space + 1}{paid}",
                          self.note)


@dataclass(frozen=True)
class OfferTree(Action):
    """Place a marker on a free Great Tree space (index into the edition's tree spaces)."""

    kind: ClassVar[str] = "Offer to the Great Tree"
    space: int
    pay: str | None = None
    note: str = field(default="", compare=False, repr=False)

    def describe(self) -> str:
        paid = f" paying 1 {self.pay}" if self.pay else ""
        return _with_note(f"Offer to Great Tree space {self.space + 1}{paid}", self.note)


@dataclass(frozen=True)
class ChooseAltar(Action):
    """Put the unused Altar tile of ``colour`` beside the tree space just used."""

    kind: ClassVar[str] = "Place an Altar tile"
    colour: str

    def describe(self) -> str:
        return f"Place the {self.colour.capitalize()} Altar tile"


@dataclass(frozen=True)
class TakeFavor(Action):
    """Take one favor token (or, for a least-held effect, all of them) of ``colour``."""

    kind: ClassVar[str] = "Take favor"
    colour: str
    note: str = field(default="", compare=False, repr=False)

    def describe(self) -> str:
        return _with_note(f"Take {self.colour.capitalize()} favor", self.note)


@dataclass(frozen=True)
class BlockSpace(Action):
    """Put a neutral marker on an empty card space."""

    kind: ClassVar[str] = "Block a card space"
    slot: int
    space: int

    def describe(self) -> str:
        return f"Block card {self.slot + 1}, space {self.space + 1} with a neutral marker"


@dataclass(frozen=True)
class RuneGain(Action):
    """Play a favor rune."""

    kind: ClassVar[str] = "Play a Rune tile"
    rune: str
    note: str = field(default="", compare=False, repr=False)

    def describe(self) -> str:
        return _with_note(f"Play rune {self.rune}", self.note)


@dataclass(frozen=True)
class RuneMove(Action):
    """Play a moving rune: move your marker from (from_slot, from_space) to (to_slot, to_space)."""

    kind: ClassVar[str] = "Play a Rune tile"
    rune: str
    from_slot: int
    from_space: int
    to_slot: int
    to_space: int

    def describe(self) -> str:
        return (f"Play rune {self.rune}: move your marker from card {self.from_slot + 1} "
                f"space {self.from_space + 1} to card {self.to_slot + 1} "
                f"space {self.to_space + 1}")


@dataclass(frozen=True)
class RuneOffer(Action):
    """Play an occupied-space rune: this turn's offering goes on a space another player holds."""

    kind: ClassVar[str] = "Play a Rune tile"
    rune: str
    slot: int
    space: int
    pay: str | None = None
    note: str = field(default="", compare=False, repr=False)

    def describe(self) -> str:
        paid = f" paying 1 {self.pay}" if self.pay else ""
        return _with_note(f"Play rune {self.rune}: offer on the occupied card {self.slot + 1}, "
                          f"space {self.space + 1}{paid}", self.note)


@dataclass(frozen=True)
class EndTurn(Action):
    """Finish your turn without playing (more) Rune tiles."""

    kind: ClassVar[str] = "End turn"

    def describe(self) -> str:
        return "End your turn (keep your Rune tiles)"


@dataclass(frozen=True)
class PassRunes(Action):
    """At a season's end, outside your turn: play no (more) any-time runes; let the scoring
    begin."""

    kind: ClassVar[str] = "Let the season be scored"

    def describe(self) -> str:
        return "Play no rune now: let the season's cards be scored"


@dataclass(frozen=True)
class SetAside(Action):
    """No offering is possible: set this marker aside until the season ends."""

    kind: ClassVar[str] = "Set a marker aside"

    def describe(self) -> str:
        return "No space you can pay for: set this marker aside for the season"


@dataclass(frozen=True)
class ChooseNewStart(Action):
    """The player with the fewest points keeps one of the New Start cards drawn."""

    kind: ClassVar[str] = "Choose a New Start card"
    card: str
    note: str = field(default="", compare=False, repr=False)

    def describe(self) -> str:
        return _with_note(f"Keep New Start card {self.card}", self.note)


ALL_ACTIONS = (OfferCard, OfferTree, ChooseAltar, TakeFavor, BlockSpace, RuneGain, RuneMove,
               RuneOffer, EndTurn, PassRunes, SetAside, ChooseNewStart)


#: every action type of the game (a hand-built action must be one of them)
ACTION_TYPES = ALL_ACTIONS
