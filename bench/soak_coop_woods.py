"""Soak run: co-op + Wild Woods games at 2 players, played with random legal actions.

For each seed two random streams (``random.Random(seed)`` and ``random.Random(seed + 100000)``)
choose an action at every step; the final state must pass its invariants and round-trip
through ``to_json`` / ``from_json`` exactly.  Prints one line per break and a summary line.

    PYTHONPATH=$PWD python bench/soak_coop_woods.py [first_seed] [last_seed] [players]
"""

from __future__ import annotations

import random
import sys
import time

from pangaea_lab import pangaea
from pangaea_lab.pangaea import GameState

STREAM_OFFSET = 100000


def play(seed: int, stream: int, players: int = 2, max_steps: int = 6000) -> GameState:
    """One random game of co-op + Wild Woods from ``seed``, actions chosen by ``stream``."""
    state = pangaea.new_game(players=players, seed=seed, mode="coop", wild_woods=True)
    rng = random.Random(stream)
    for _ in range(max_steps):
        if state.is_over:
            return state
        state = state.apply(rng.choice(state.legal_actions()))
    raise RuntimeError(f"seed {seed} stream {stream}: no end after {max_steps} steps")


def final_break(state: GameState) -> str:
    """Why the final state is broken ('' when it is sound)."""
    try:
        state.check_invariants()
        back = GameState.from_json(state.to_json())
    except Exception as exc:   # the soak reports every kind of failure
        return f"{type(exc).__name__}: {exc}"
    if back.to_json() != state.to_json():
        return "the save does not round-trip exactly"
    if state.decisions:
        return "a finished game still waits for a decision"
    if state.legal_actions():
        return "a finished game still offers actions"
    return ""


def main(first: int = 0, last: int = 2999, players: int = 2) -> int:
    start = time.time()
    games = breaks = 0
    for seed in range(first, last + 1):
        for stream in (seed, seed + STREAM_OFFSET):
            try:
                state = play(seed, stream, players)
                why = final_break(state)
            except Exception as exc:
                why = f"{type(exc).__name__} during play: {exc}"
                state = None
            games += 1
            if why:
                breaks += 1
                print(f"seed {seed} stream {stream}: {why}", flush=True)
    print(f"co-op + Wild Woods, {players} players: {games} games, {breaks} invariant breaks, "
          f"{time.time() - start:.0f} s", flush=True)
    return 1 if breaks else 0


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    sys.exit(main(*args))
