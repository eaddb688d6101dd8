"""What the simulation lab reads from a game of Forest Shuffle (bound to :data:`GAME` as its
``summary`` part; the hooks and their defaults are listed in :mod:`pangaea_lab.sim.games`):
how it ended, how a turn is recognised, each forest's points from its species and its cave with its number
of tree cards, and an event row for each species in each forest.

>>> from pangaea_lab import forest_shuffle
>>> first = forest_shuffle.new_game(players=2, seed=1)
>>> turn_marker(first), seat_scores(first, 0), seat_summary(first, 0)
(1, {'species': 0, 'cave': 0}, {'tree_cards': 0})
"""

from __future__ import annotations

from typing import Any

from .players import safety_net
from .state import GameState


def summary(final: GameState) -> dict[str, Any]:
    """How the game ended: ``"deck_out"`` when the deck ran out before the third winter card
    (the labelled assumption that then ends it), else ``"rules"``."""
    return {"ended_by": safety_net(final) or "rules"}


def turn_marker(state: GameState) -> int:
    """Changes exactly when a new turn begins: the turn's number."""
    return state.turn


def seat_scores(final: GameState, seat: int) -> dict[str, int]:
    """A forest's points in two parts: from its species, from its cave."""
    score = final.scores()[seat]
    return {"species": sum(score.by_species.values()), "cave": score.cave}


def seat_summary(final: GameState, seat: int) -> dict[str, int]:
    """The tree cards of a forest."""
    return {"tree_cards": len(final.forests[seat].trees)}


def final_events(final: GameState) -> list[dict[str, Any]]:
    """Each species in each forest and the points it scored."""
    return [{"seat": seat, "kind": "Species", "label": species, "points": points}
            for seat, score in enumerate(final.scores())
            for species, points in score.by_species.items()]
