"""What the simulation lab reads from a game of Inori (bound to :data:`GAME` as its
``summary`` part; the hooks and their defaults are listed in :mod:`pangaea_lab.sim.games`):
the seasons played, how a turn is recognised, and an event row for each card scored at the
end of a season.

>>> from pangaea_lab import inori
>>> first = inori.new_game(players=2, seed=1)
>>> summary(first), turn_marker(first) == (first.season, first.turn), final_events(first)
({'seasons': 1}, True, [])
"""

from __future__ import annotations

from typing import Any

from .state import GameState


def summary(final: GameState) -> dict[str, Any]:
    """The seasons played."""
    return {"seasons": final.season}


def first_player(first: GameState) -> int:
    """The seat that began the game."""
    return first.first_player


def turn_marker(state: GameState) -> Any:
    """Changes exactly when a new turn begins: the season and the turn's number."""
    return state.season, state.turn


def final_events(final: GameState) -> list[dict[str, Any]]:
    """Each card scored at the end of a season and the points each player took from it."""
    rows = []
    for report in final.reports:
        for card in report.get("cards", ()):
            for seat, points in sorted(card.get("points", {}).items()):
                rows.append({"seat": int(seat), "season": report.get("season", 0),
                             "kind": "Season card", "card": card.get("card", ""),
                             "label": card.get("name", ""), "points": int(points)})
    return rows
