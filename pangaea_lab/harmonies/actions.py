"""The actions of a Harmonies turn, as small hashable values.

A turn (rulebook "Playing a turn") is: take the 3 tokens of one central space, place them one
by one; at most once take an animal card; place cubes whenever a habitat fits; then end the
turn.  With Nature's Spirits, a player's first decision is which of two spirits to keep.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..core.exercises import a
from ..core.protocol import Action
from .board import Cell
from .cards import card


@dataclass(frozen=True)
class ChooseSpirit(Action):
    """Keep one of the two spirit cards dealt to you (your first turn only)."""

    kind: ClassVar[str] = "Keep a spirit"
    spirit: int

    def describe(self) -> str:
        c = card(self.spirit)
        return f"Keep the {c.name} spirit ({c.family} family)"


@dataclass(frozen=True)
class TakeTokens(Action):
    """Take all tokens of one central board space (once per turn, mandatory)."""

    kind: ClassVar[str] = "Take tokens"
    space: int
    #: shown in the description only; two TakeTokens of the same space are equal
    tokens: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        what = ", ".join(self.tokens) if self.tokens else "its tokens"
        return f"Take central space {self.space + 1}: {what}"


@dataclass(frozen=True)
class PlaceToken(Action):
    """Put one of the taken tokens on a space of your board."""

    kind: ClassVar[str] = "Place a token"
    colour: str
    cell: Cell

    def describe(self) -> str:
        return f"Place {self.colour} on {self.cell}"


@dataclass(frozen=True)
class TakeCard(Action):
    """Take a face-up animal card into a free slot (at most once per turn)."""

    kind: ClassVar[str] = "Take an animal card"
    card: int

    def describe(self) -> str:
        c = card(self.card)
        return f"Take {c.name} (#{c.id}, {'/'.join(map(str, c.points))})"


@dataclass(frozen=True)
class PlaceCube(Action):
    """Move a card's bottom-most cube onto the cube space of a habitat you built."""

    kind: ClassVar[str] = "Place a cube"
    card: int
    cell: Cell

    def describe(self) -> str:
        return f"Place {a(card(self.card).name)} cube on {self.cell}"


@dataclass(frozen=True)
class DiscardCard(Action):
    """Solo only: discard one face-up card and replace it, if you took no card this turn."""

    kind: ClassVar[str] = "Discard a face-up card"
    card: int

    def describe(self) -> str:
        return f"Discard {card(self.card).name} from the face-up row (solo)"


@dataclass(frozen=True)
class EndTurn(Action):
    """Finish the turn: refill the central board and the card row, check the end."""

    kind: ClassVar[str] = "End turn"

    def describe(self) -> str:
        return "End the turn (refill the central board and the animal cards)"


#: every action type of the game (a hand-built action must be one of them)
ACTION_TYPES = (ChooseSpirit, TakeTokens, PlaceToken, TakeCard, PlaceCube, DiscardCard, EndTurn)
