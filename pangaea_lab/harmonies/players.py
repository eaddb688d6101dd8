"""Computer players for Harmonies.

The greedy player is the shared :class:`~pangaea_lab.core.players.GreedyPlayer` with the
value function below, which looks one step further than the score: a token that completes a
habitat is worth the cube it lets you place at once.  The package binds :func:`value` as the
state's ``evaluate`` hook too, so every greedy player (the widgets', the simulation lab's)
plays the same way.

>>> from pangaea_lab import harmonies
>>> from pangaea_lab.core.players import play_game
>>> final = play_game(harmonies.new_game(players=2, seed=4), [Greedy(0), Greedy(1)])
>>> final.is_over
True
"""

from __future__ import annotations

from ..core.players import GreedyPlayer, RandomPlayer
from ..core.protocol import Action
from .actions import TakeCard
from .cards import card
from .habitats import board_view
from .scoring import spirit_points
from .state import GameState


def fits(state: GameState, player: int, card_id: int) -> bool:
    """Does the card's habitat stand on the player's board now (with a free cube space)?"""
    return bool(board_view(state.side, state.areas[player]).habitats(card_id))


def cube_potential(state: GameState, player: int) -> int:
    """Points the next cube of each unfinished card would add if placed now."""
    key = ("potential", player)
    if key not in state._cache:
        area = state.areas[player]
        total = 0
        for c, k in area.cards:
            cd = card(c)
            if k < cd.cubes and fits(state, player, c):
                if cd.is_spirit:
                    total += spirit_points(cd, state.side, area.stacks)
                else:
                    total += cd.value(k + 1) - cd.value(k)
        state._cache[key] = total
    return state._cache[key]


def value(state: GameState, action: Action, player: int) -> float:
    """Immediate gain for the greedy player: the change in score plus the change in what
    the cubes that could be placed right now would add (cube placement is free and may
    follow at once), so a greedy player builds habitats and collects cards."""
    after = state.apply(action)
    gain = after.scores()[player].total - state.scores()[player].total
    gain += cube_potential(after, player) - cube_potential(state, player)
    if isinstance(action, TakeCard) and not fits(after, player, action.card):
        gain += 0.5  # a card whose habitat is not built yet is still worth having
    return gain


class Greedy(GreedyPlayer):
    """The greedy player with the Harmonies :func:`value` (habitats and cubes in view)."""

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed, value=value)


#: the computer players of Harmonies by their short names
BOTS = {"random": RandomPlayer, "greedy": Greedy}
