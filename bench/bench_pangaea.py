"""Benchmarks for The Dawn of Pangaea (run with `make bench`; prints figures, asserts nothing).

- a full random 4-player game (setup to final scoring),
- a full 4-player game between foresters,
- legal_actions() on a mid-game state,
- the Land Ritual option listing on a crowded 4-player continent,
- one apply + SVG redraw (what a click in the widget costs),
- Wild Woods: a random and a forester 4-player game, a co-op game with Wild Woods, and
  legal_actions() on a Wild Woods mid-game state (Seed Competition, ranges, Treetop payments).
"""

from __future__ import annotations

import random
import time
from statistics import median

from pangaea_lab import pangaea
from pangaea_lab.core.players import RandomPlayer, play_game
from pangaea_lab.pangaea import ForesterPlayer, land_ritual_options


def timed(fn, repeat: int = 5) -> float:
    """Median wall time of ``fn()`` in milliseconds."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return median(runs)


def crowded(seed: int = 3):
    """A 4-player continent with about two thirds of the land covered by Trees and every
    Spirit on the water."""
    s = pangaea.new_game(players=4, seed=seed)
    rng = random.Random(seed)
    board = s.board
    land = list(board.land)
    rng.shuffle(land)
    trees, count = {}, [0, 0, 0, 0]
    for i in land[: len(land) * 2 // 3]:
        p = rng.randrange(4)
        if count[p] < 10:
            trees[board.cells[i]] = p
            count[p] += 1
    spirits = dict(enumerate(rng.sample([board.cells[i] for i in board.water], 4)))
    return s.arranged(trees=trees, spirits=spirits)


def main() -> None:
    steps = []

    def random_game() -> None:
        final = play_game(pangaea.new_game(players=4, seed=11), RandomPlayer(11),
                          on_step=lambda *_: steps.append(1))
        assert final.is_over

    ms = timed(random_game, 3)
    print(f"full random 4-player game: {ms:.0f} ms ({len(steps) // 3} actions per game)")
    ms = timed(lambda: play_game(pangaea.new_game(players=4, seed=11),
                                 [ForesterPlayer(k) for k in range(4)]), 3)
    print(f"full 4-player game between foresters: {ms:.0f} ms")

    mid = pangaea.new_game(players=4, seed=5)
    bots = [ForesterPlayer(k) for k in range(4)]
    for _ in range(120):
        mid = mid.apply(bots[mid.current_player].choose(mid))
    n = len(mid.legal_actions())
    print(f"legal_actions() mid-game ({n} actions): {timed(mid.legal_actions, 50):.2f} ms")

    busy = crowded()
    pos = busy.position
    cards = busy.edition.land_cards

    def all_options() -> int:
        return sum(len(land_ritual_options(pos, p, c)) for p in range(4) for c in cards)

    total = all_options()
    print(f"Land Ritual options, 4 players x {len(cards)} cards on a crowded continent "
          f"({total} options): {timed(all_options, 5):.1f} ms")

    action = mid.legal_actions()[0]
    print(f"one click (apply + SVG redraw): {timed(lambda: mid.apply(action).to_svg(), 20):.1f} ms")
    text = mid.to_json()
    print(f"save + load a game: {timed(lambda: type(mid).from_json(mid.to_json()), 20):.1f} ms "
          f"({len(text) // 1024} KiB)")
    woods()


def woods() -> None:
    """Wild Woods figures."""
    def new(**kw):
        return pangaea.new_game(players=4, seed=11, wild_woods=True, **kw)

    ms = timed(lambda: play_game(new(), RandomPlayer(11)), 3)
    print(f"Wild Woods: full random 4-player game: {ms:.0f} ms")
    ms = timed(lambda: play_game(new(), [ForesterPlayer(k) for k in range(4)]), 3)
    print(f"Wild Woods: full 4-player game between foresters: {ms:.0f} ms")
    ms = timed(lambda: play_game(pangaea.new_game(players=4, seed=11, wild_woods=True, mode="coop"),
                                 [ForesterPlayer(k) for k in range(4)]), 3)
    print(f"Wild Woods with Return of the Ancients: 4 foresters: {ms:.0f} ms")
    mid = new()
    bots = [ForesterPlayer(k) for k in range(4)]
    for _ in range(120):
        if mid.is_over:
            break
        mid = mid.apply(bots[mid.current_player].choose(mid))
    n = len(mid.legal_actions())
    print(f"Wild Woods: legal_actions() mid-game ({n} actions): {timed(mid.legal_actions, 50):.2f} ms")


if __name__ == "__main__":
    main()
