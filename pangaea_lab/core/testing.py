"""Shared checks for random playouts, used by every game's tests.

``check_playout`` plays a seeded game with random players and, after every step, checks the
protocol's promises: each listed legal action applies, the old state is unchanged, JSON
round-trips exactly, component counts are conserved (``check_invariants``), and the game ends
within a bound.  ``check_replay`` checks the same seed gives the same game.
``seeded_positions`` walks seeded random games, for tests that compare kept results with
results worked out afresh.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Iterator

from .players import RandomPlayer
from .validate import require
from .protocol import GameState


def check_playout(new_game: Callable[..., GameState], players: int, seed: int,
                  max_steps: int = 5000, apply_all_every: int = 1,
                  json_every: int = 1,
                  on_step: Callable[[GameState, object, GameState], None] | None = None
                  ) -> GameState:
    """Play one random game and check invariants after every step; returns the final state.

    ``apply_all_every=k`` tries *every* legal action on one step in ``k``; ``json_every``
    likewise for the JSON round-trip (both 1 by default).  ``on_step(before, action, after)``
    adds a game's own checks on every step."""
    state = new_game(players=players, seed=seed)
    cls = type(state)
    bot = RandomPlayer(seed)
    for step in range(max_steps):
        state.check_invariants()
        if step % json_every == 0:
            text = state.to_json()
            again = cls.from_json(text)
            require(again == state, f"JSON round-trip changed the state at step {step}")
            require(again.to_json() == text, f"JSON text not stable at step {step}")
        if state.is_over:
            require(state.legal_actions() == [], "a finished game still lists actions")
            require(state.current_player is None)
            return state
        actions = state.legal_actions()
        require(actions, f"no legal action at step {step} but the game is not over")
        require(len(set(actions)) == len(actions), f"duplicate legal actions at step {step}")
        if step % apply_all_every == 0:
            snapshot = state.to_json()
            for action in actions:
                state.apply(action)
            require(state.to_json() == snapshot, f"apply() changed the old state at step {step}")
        action = bot.choose(state)
        after = state.apply(action)
        if on_step is not None:
            on_step(state, action, after)
        state = after
    raise AssertionError(f"seed {seed}: game with {players} players did not end "
                         f"within {max_steps} steps")


def check_replay(new_game: Callable[..., GameState], players: int, seed: int,
                 steps: int = 200) -> None:
    """Two games from the same seed, played by same-seeded bots, stay identical."""
    a = new_game(players=players, seed=seed)
    b = new_game(players=players, seed=seed)
    bot_a, bot_b = RandomPlayer(seed), RandomPlayer(seed)
    for _ in range(steps):
        require(a.to_json() == b.to_json())
        if a.is_over:
            return
        a = a.apply(bot_a.choose(a))
        b = b.apply(bot_b.choose(b))


def seeded_positions(new_game: Callable[..., GameState], seeds: Iterable[int],
                     players: Iterable[int], every: int = 1) -> Iterator[GameState]:
    """Every ``every``-th position (the first and the last included when they fall on it) of
    a random game for each player count and seed, the random moves drawn from the seed."""
    for n in players:
        for seed in seeds:
            rng = random.Random(seed)
            state = new_game(players=n, seed=seed)
            step = 0
            while True:
                if step % every == 0:
                    yield state
                if state.is_over:
                    break
                state = state.apply(rng.choice(state.legal_actions()))
                step += 1


def check_loaded_positions(positions: Iterable[GameState],
                           working_copy: Callable[[GameState, object], GameState]) -> int:
    """Every listed action of a position loaded from its save gives the same state as the
    game's full working-copy path ``working_copy(state, action)`` and as the same action on
    the unsaved position (a handler must not depend on what a state kept);
    returns how many positions were checked."""
    checked = 0
    for state in positions:
        if state.is_over:
            continue
        loaded = type(state).from_json(state.to_json())
        for action in loaded.legal_actions():
            after = loaded.apply(action)
            require(after == working_copy(loaded, action),
                    f"{action!r} on a loaded position differs from the working copy")
            require(after == state.apply(action),
                    f"{action!r} on a loaded position differs from the unsaved one")
        checked += 1
    return checked
