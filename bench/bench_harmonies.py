"""Harmonies benchmarks: a full random 4-player game, habitat listing for the face-up cards,
and board scoring.  Run with ``python bench/bench_harmonies.py``; prints figures only."""

from __future__ import annotations

import time

from pangaea_lab import harmonies
from pangaea_lab.core.players import RandomPlayer, play_game
from pangaea_lab.harmonies.habitats import habitat_indices
from pangaea_lab.harmonies.scoring import landscape_score


def timed(fn, repeat: int) -> float:
    """Mean milliseconds per call over ``repeat`` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) * 1000 / repeat


def full_games(n: int = 20) -> tuple[float, float]:
    steps = 0
    start = time.perf_counter()
    for seed in range(n):
        state = harmonies.new_game(players=4, seed=seed, side="AB"[seed % 2])

        def count(_before, _action, _after):
            nonlocal steps
            steps += 1
        play_game(state, [RandomPlayer(seed * 10 + p) for p in range(4)], on_step=count)
    total = time.perf_counter() - start
    return total * 1000 / n, total * 1e6 / max(steps, 1)


def midgame(seed: int = 3) -> harmonies.GameState:
    state = harmonies.new_game(players=4, seed=seed, side="A")
    bot = RandomPlayer(seed)
    for _ in range(120):
        if state.is_over:
            break
        state = state.apply(bot.choose(state))
    return state


def main() -> None:
    per_game, per_step = full_games()
    print(f"full random 4-player game: {per_game:.1f} ms per game, {per_step:.0f} us per action")
    state = midgame()
    area = state.areas[state.current_player or 0]

    def habitats_for_row():
        for c in state.row:
            habitat_indices(state.side, c, area.stacks, area.cubes)
    print(f"habitat listing for all {len(state.row)} face-up cards: "
          f"{timed(habitats_for_row, 2000):.3f} ms")

    def all_32():
        for c in range(1, 33):
            habitat_indices(state.side, c, area.stacks, area.cubes)
    print(f"habitat listing for all 32 animal cards: {timed(all_32, 300):.3f} ms")
    print(f"board scoring (landscapes, side A): "
          f"{timed(lambda: landscape_score('A', area.stacks), 2000):.3f} ms")
    full = tuple(("blue",) for _ in harmonies.cells("A"))
    print(f"board scoring, worst case river (every space blue): "
          f"{timed(lambda: landscape_score('A', full), 20):.3f} ms")
    print(f"drawing the whole table as SVG: {timed(lambda: type(state).to_svg(state), 50):.2f} ms")
    print(f"legal actions of a mid-game state: "
          f"{timed(lambda: type(state).legal_actions(state.apply(state.legal_actions()[0])), 300):.3f} ms"
          " (includes one apply)")


if __name__ == "__main__":
    main()
