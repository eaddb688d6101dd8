"""What the simulation lab reads from a game of Harmonies (bound to :data:`GAME` as its
``summary`` part; the hooks and their defaults are listed in :mod:`pangaea_lab.sim.games`):
the end reason, the turns the players' areas counted, each player's cubes placed, and an event
row for every animal card (and kept spirit) a player took.

>>> from pangaea_lab import harmonies
>>> first = harmonies.new_game(players=2, seed=1)
>>> summary(first), count_turns(first, first), seat_summary(first, 0)
({'end': ''}, 0, {'cubes_placed': 0})
"""

from __future__ import annotations

from typing import Any

from .state import GameState


def summary(final: GameState) -> dict[str, Any]:
    """The end reason in words."""
    return {"end": final.end_reason}


def turn_marker(state: GameState) -> int:
    """Changes exactly when a new turn begins: the turns the areas have ended."""
    return sum(area.turns for area in state.areas)


def count_turns(first: GameState, final: GameState) -> int:
    """Each area counts the turns its player ended: the game's turns are their sum."""
    return sum(a.turns for a in final.areas) - sum(a.turns for a in first.areas)


def seat_summary(final: GameState, seat: int) -> dict[str, int]:
    """The cubes a player put on their board (the tie-break)."""
    return {"cubes_placed": final.cubes_placed(seat)}


def final_events(final: GameState) -> list[dict[str, Any]]:
    """Every animal card (and kept spirit) a player took: cubes placed, points earned."""
    rows = []
    for seat in range(final.num_players):
        for card, cubes, points in final.card_scores(seat):
            rows.append({"seat": seat, "kind": "Spirit" if card.is_spirit else "Animal card",
                         "card": card.id, "label": card.name, "cubes": cubes,
                         "cubes_needed": len(card.points),
                         "completed": cubes >= len(card.points), "points": points})
    return rows
