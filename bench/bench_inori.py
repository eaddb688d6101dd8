"""Inori benchmarks: full random and greedy 4-player games, and the cost of one step (legal
actions, apply, JSON save/load, drawing).  Run with ``python bench/bench_inori.py``; it prints
figures only."""

from __future__ import annotations

import time

from pangaea_lab import inori
from pangaea_lab.core.players import GreedyPlayer, RandomPlayer, play_game


def full_games(n: int, player_kind) -> tuple[float, float, float]:
    """Mean ms per game, mean actions per game and mean microseconds per action."""
    steps = 0

    def count(_before, _action, _after) -> None:
        nonlocal steps
        steps += 1

    start = time.perf_counter()
    for seed in range(n):
        state = inori.new_game(players=4, seed=seed)
        play_game(state, [player_kind(seed * 10 + p) for p in range(4)], on_step=count)
    total = time.perf_counter() - start
    return total * 1000 / n, steps / n, total * 1e6 / max(steps, 1)


def positions(n: int = 10) -> list:
    """Every position of ``n`` random 4-player games."""
    out = []
    for seed in range(n):
        state = inori.new_game(players=4, seed=seed)
        bot = RandomPlayer(seed)
        while not state.is_over:
            out.append(state)
            state = state.apply(bot.choose(state))
    return out


def per_position(states: list, fn) -> float:
    """Mean microseconds of ``fn(state)`` over the positions."""
    start = time.perf_counter()
    for s in states:
        fn(s)
    return (time.perf_counter() - start) * 1e6 / len(states)


def main() -> None:
    ms, actions, us = full_games(50, RandomPlayer)
    print(f"full random 4-player game: {ms:.1f} ms per game, {actions:.0f} actions, "
          f"{us:.0f} us per action (50 games)")
    ms, actions, us = full_games(10, GreedyPlayer)
    print(f"full greedy 4-player game: {ms:.1f} ms per game, {actions:.0f} actions, "
          f"{us:.0f} us per action (10 games)")
    states = positions()
    cls = inori.GameState
    print(f"positions measured: {len(states)}")
    print(f"legal_actions: {per_position(states, lambda s: s.legal_actions()):.0f} us")
    print(f"apply (first legal action): "
          f"{per_position(states, lambda s: s.apply(s.legal_actions()[0])):.0f} us")
    print(f"to_json: {per_position(states, lambda s: s.to_json()):.0f} us")
    print(f"from_json(to_json): {per_position(states, lambda s: cls.from_json(s.to_json())):.0f} us")
    print(f"check_invariants: {per_position(states, lambda s: s.check_invariants()):.0f} us")
    print(f"to_svg: {per_position(states[::10], lambda s: s.to_svg()):.0f} us")
    print(f"season_end_preview: {per_position(states, inori.season_end_preview):.0f} us")


if __name__ == "__main__":
    main()
