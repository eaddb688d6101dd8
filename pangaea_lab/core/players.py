"""Computer players for any game that follows the protocol.

>>> from pangaea_lab import pangaea
>>> state = pangaea.new_game(players=2, seed=3)
>>> final = play_game(state, [RandomPlayer(1), GreedyPlayer(2)])
>>> final.is_over
True
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from .protocol import Action, GameState, group_by_kind
from .validate import require


class Player:
    """Something that picks an action for the current player of a state."""

    name = "player"

    def choose(self, state: GameState) -> Action:  # pragma: no cover - interface
        raise NotImplementedError

    def _pick(self, rng: random.Random, actions: Sequence[Action]) -> Action:
        """A kind of action chosen uniformly, then an action of that kind.

        Choosing the kind first keeps rare but important actions (playing a card) as likely as
        common ones (one of forty places for a seed), which makes games varied and short."""
        groups = group_by_kind(actions)
        kind = rng.choice(list(groups))
        return rng.choice(groups[kind])


class RandomPlayer(Player):
    """Plays a random legal action: first a random kind of action, then one of that kind."""

    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self.rng = random.Random(repr(seed))

    def choose(self, state: GameState) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        return self._pick(self.rng, actions)


class GreedyPlayer(Player):
    """Takes the action with the best immediate gain; ties broken by seed.

    The gain is ``value(state, action, player)`` when a ``value`` function is given (a game's
    own players pass theirs instead of copying this loop), otherwise the state's
    ``evaluate(action, player)`` hook (by default the change in the player's total).
    """

    name = "greedy"

    def __init__(self, seed: int | str = 0,
                 value: Callable[[GameState, Action, int], float] | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(repr(seed))
        self.value = value

    def gain(self, state: GameState, action: Action, player: int) -> float:
        if self.value is not None:
            return self.value(state, action, player)
        hook: Callable | None = getattr(state, "evaluate", None)
        if hook is not None:
            return hook(action, player)
        return state.apply(action).scores()[player].total - state.scores()[player].total

    def choose(self, state: GameState) -> Action:
        actions = state.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        player = state.current_player
        require(player is not None)
        gains = [self.gain(state, a, player) for a in actions]
        best = max(gains)
        top = [a for a, g in zip(actions, gains) if g == best]
        return self._pick(self.rng, top)


def safety_net(state: GameState) -> str:
    """The safety net that ended a finished game, by the id of the labelled assumption that
    set it up (e.g. ``"round-limit"``), or ``""`` while the game goes on or when it ended by
    its own rules (the state's ``safety_net()`` hook)."""
    return state.safety_net() if state.is_over else ""


def play_game(state: GameState, players: Sequence[Player] | Player,
              max_steps: int = 20000, on_step: Callable | None = None) -> GameState:
    """Let computer players play from ``state`` to the end; ``players[i]`` plays seat ``i``.

    ``on_step(before, action, after)`` is called after every action.  Raises ``RuntimeError``
    if the game has not ended after ``max_steps`` actions."""
    if isinstance(players, Player):
        players = [players] * state.num_players
    for _ in range(max_steps):
        if state.is_over:
            return state
        seat = state.current_player
        require(seat is not None)
        action = players[seat].choose(state)
        after = state.apply(action)
        if on_step is not None:
            on_step(state, action, after)
        state = after
    if state.is_over:
        return state
    raise RuntimeError(f"the game did not end within {max_steps} actions")
