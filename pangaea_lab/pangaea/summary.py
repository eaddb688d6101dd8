"""What the simulation lab reads from a game of The Dawn of Pangaea (bound to :data:`GAME` as
its ``summary`` part; the hooks and their defaults are listed in
:mod:`pangaea_lab.sim.games`): the rounds played and the end reason, how the game ended
(the rules, or the labelled assumption that stopped it), how a turn is recognised, an event
row for each Ritual Card played, and which options make the players one team.

>>> from pangaea_lab import pangaea
>>> summary(pangaea.new_game(players=2, seed=1))
{'ended_by': 'rules', 'rounds': 1, 'end': ''}
>>> cooperative({"mode": "coop"}), cooperative({})
(True, False)
"""

from __future__ import annotations

import re
from typing import Any

from .actions import PlayCreature, PlayLand
from .game import GAME
from .state import GameState

#: an end reason that names the labelled assumption which ended the game
_ASSUMPTION = re.compile(r"assumption '([a-z0-9-]+)'")
#: the values of the ``mode`` option played as one team (Return of the Ancients): every mode
#: but the competitive game's ``""``
TEAM_MODES = tuple(mode for mode in GAME.options["mode"].values or () if mode)


def summary(final: GameState) -> dict[str, Any]:
    """How the game ended: ``"round-limit"`` (or another assumption's label) when a labelled
    assumption ended it, as its end reason says, else ``"rules"``; the rounds played and the
    end reason in words."""
    found = _ASSUMPTION.search(final.end_reason or "")
    return {"ended_by": found.group(1) if found else "rules", "rounds": final.round,
            "end": final.end_reason}


def first_player(first: GameState) -> int:
    """The seat that began the game."""
    return first.first_player


def turn_marker(state: GameState) -> Any:
    """Changes exactly when a new turn begins: the round and whose turn it is."""
    return state.round, state.turn_player


def step_events(before: GameState, action: Any, after: GameState) -> list[dict[str, Any]]:
    """Each Ritual Card played: the card, its path (Land Rituals), the points it brought."""
    kind = type(action)
    if kind is not PlayLand and kind is not PlayCreature:
        return []
    seat = before.current_player
    card = before.edition.card(action.card)
    land = kind is PlayLand
    return [{
        "seat": seat, "round": before.round,
        "kind": "Land Ritual" if land else "Creature Ritual",
        "card": card.id,
        "label": "/".join(card.biomes) if land else card.name,
        "path_length": len(action.path) if land else 0,
        "from_market": bool(action.from_market),
        "points": after.players[seat].points - before.players[seat].points,
    }]


def cooperative(options: dict[str, Any]) -> bool:
    """Whether these options make the players one team (a mode of Return of the Ancients)."""
    return options.get("mode", "") in TEAM_MODES
