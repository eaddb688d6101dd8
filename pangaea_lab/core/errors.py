"""Errors that teach: every rejection says, in plain words, which rule or field is at fault.

All of them are ``ValueError`` subclasses, so ``except ValueError`` catches any of them.
"""

from __future__ import annotations

from typing import Iterable


class PangaeaLabError(ValueError):
    """Base class for every error this package raises on purpose."""


class IllegalAction(PangaeaLabError):
    """An action the rules do not allow in the current state.

    ``rule`` names the rulebook section that forbids it; ``alternatives`` lists a few legal
    actions (their plain descriptions) the player could take instead.
    """

    def __init__(self, reason: str, rule: str | None = None,
                 alternatives: Iterable[str] = ()) -> None:
        self.reason = reason
        self.rule = rule
        self.alternatives = tuple(alternatives)[:5]
        text = reason
        if rule:
            text = f"{reason} (rule: {rule})"
        if self.alternatives:
            text += "\nLegal choices include: " + "; ".join(self.alternatives)
        super().__init__(text)


class InvalidSetup(PangaeaLabError):
    """Arguments that cannot start a game (player count, side, options)."""


class InvalidData(PangaeaLabError):
    """A data or save file that is malformed; the message names the field."""
