"""The actions of a Forest Shuffle turn, as small hashable values with plain descriptions.

A turn is either two :class:`DrawCard` actions or one play (:class:`PlayTree`,
:class:`PlaySapling`, :class:`PlayDweller`) followed by its :class:`Pay` steps and the
optional parts (:class:`Decide` for effects, bonuses and mushroom draws; :class:`PlaceFree`,
:class:`ToCave`, :class:`Finish` for the cards that ask for more choices).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..core.protocol import Action
from .edition import catalog


def card_text(card: int) -> str:
    """A card's name with its id, e.g. ``"Oak #12"`` or ``"European Hare / Red Fox #72"``."""
    return f"{catalog().card(card).name} #{card}"


def half_text(card: int, side: str) -> str:
    half = catalog().card(card).half_for(side)
    if half is None:
        return card_text(card)
    return f"{half.species} ({half.symbol} symbol, card #{card})"


@dataclass(frozen=True)
class KeepHand(Action):
    """Setup: keep a starting hand without trees."""

    kind: ClassVar[str] = "Setup"

    def describe(self) -> str:
        return "Keep this starting hand"


@dataclass(frozen=True)
class Mulligan(Action):
    """Setup: a hand without trees may be swapped for 6 new cards, once."""

    kind: ClassVar[str] = "Setup"

    def describe(self) -> str:
        return "Return the hand (it has no tree) to the box and draw 6 new cards"


@dataclass(frozen=True)
class DrawCard(Action):
    """Draw one card: the top of the deck (``card=None``) or a card from the clearing."""

    card: int | None = None
    kind: ClassVar[str] = "Draw"

    def describe(self) -> str:
        if self.card is None:
            return "Draw the top card of the deck"
        return f"Take {card_text(self.card)} from the clearing"


@dataclass(frozen=True)
class PlayTree(Action):
    """Play a tree card from hand into the forest."""

    card: int
    kind: ClassVar[str] = "Play a tree"

    def describe(self) -> str:
        sp = catalog().species(catalog().card(self.card).species or "")
        return f"Plant {card_text(self.card)} (cost {sp.cost})"


@dataclass(frozen=True)
class PlaySapling(Action):
    """Play any hand card face down as a sapling (cost 0)."""

    card: int
    kind: ClassVar[str] = "Play a sapling"

    def describe(self) -> str:
        return f"Plant {card_text(self.card)} face down as a sapling"


@dataclass(frozen=True)
class PlayDweller(Action):
    """Play the ``side`` half of a split card into that slot of tree number ``tree``."""

    card: int
    side: str
    tree: int
    kind: ClassVar[str] = "Play a card"

    def describe(self) -> str:
        half = catalog().card(self.card).half_for(self.side)
        cost = catalog().species(half.species).cost if half else "?"
        return (f"Play {half_text(self.card, self.side)} {self.side} of tree {self.tree + 1} "
                f"(cost {cost})")


@dataclass(frozen=True)
class Pay(Action):
    """Pay one card of the cost: it goes face up into the clearing."""

    card: int
    kind: ClassVar[str] = "Pay"

    def describe(self) -> str:
        return f"Pay with {card_text(self.card)}"


@dataclass(frozen=True)
class Decide(Action):
    """Use or skip an optional part: ``what`` is "effect", "bonus" or "mushroom"."""

    what: str
    name: str
    use: bool
    kind: ClassVar[str] = "Choose"

    def describe(self) -> str:
        if self.what == "mushroom":
            return (f"Draw 1 card for your {self.name}" if self.use
                    else f"Skip the {self.name} draw")
        return f"{'Use' if self.use else 'Skip'} the {self.what} of {self.name}"


@dataclass(frozen=True)
class PlaceFree(Action):
    """Place a hand card for free (no cost, no effect, no bonus) into a slot."""

    card: int
    side: str
    tree: int
    kind: ClassVar[str] = "Free placement"

    def describe(self) -> str:
        return f"Place {half_text(self.card, self.side)} {self.side} of tree {self.tree + 1} for free"


@dataclass(frozen=True)
class ToCave(Action):
    """Raccoon: put a hand card under your cave (you draw as many afterwards)."""

    card: int
    kind: ClassVar[str] = "Put under the cave"

    def describe(self) -> str:
        return f"Put {card_text(self.card)} under your cave"


@dataclass(frozen=True)
class Finish(Action):
    """Stop a repeated choice: free placements, Raccoon or Mole."""

    what: str
    kind: ClassVar[str] = "Finish"

    def describe(self) -> str:
        return {"free": "Place no more cards for free",
                "raccoon": "Stop putting cards under the cave (and draw as many)",
                "mole": "Play no more cards with the Mole"}.get(self.what, f"Finish {self.what}")


#: every action type of the game (a hand-built action must be one of them)
ACTION_TYPES = (KeepHand, Mulligan, DrawCard, PlayTree, PlaySapling, PlayDweller, Pay, Decide,
                PlaceFree, ToCave, Finish)
