"""Simulation lab benchmark, overhead part: the lab's cost over a bare loop of the engine, game
by game, side by side in one run (run together with the memory part by
``bench/bench_sim_lab.py``; alone with ``python bench/sim_overhead.py``; target: at most +10%
for every game).

For each game the bare loop plays the same seeded games between the same computer players
(made with the same seeds) and does nothing else: ``new_game``, then ``choose`` and ``apply``
until the game is over, then it reads the result (``scores()`` and ``winners()``, which every
use of a played game needs; scoring a Harmonies game costs a quarter of a random game).  ``simulate`` plays them in this process without a bar; it also
counts turns, reads every seat's score categories and builds the table.  A second line per
game adds the event table (``events=True``), which is extra work asked for.

Timing: processor time of this process (other programs on a shared machine disturb it less
than elapsed time); the two sides alternate (bare, lab, bare, lab, ...) for ``ROUNDS`` rounds
after one untimed pass of each, and each side keeps its best round.
"""

from __future__ import annotations

import os
import sys
import time

#: game, players, bots, games per round: random players (the cheapest moves, so the lab's own
#: work weighs most) and each game's best player
#: (about a second of play a round for the random players: shorter rounds are swayed by the
#: other work of a busy machine)
CASES = (("pangaea", 2, "random", 24), ("harmonies", 2, "random", 900),
         ("forest_shuffle", 2, "random", 300), ("inori", 2, "random", 900),
         ("pangaea", 2, "forester", 12), ("harmonies", 2, "greedy", 20),
         ("forest_shuffle", 2, "greedy", 8), ("inori", 2, "greedy", 40))
ROUNDS = int(os.environ.get("BENCH_OVERHEAD_ROUNDS", "3"))
SCALE = float(os.environ.get("BENCH_OVERHEAD_SCALE", "1"))


def bare_loop(game: str, players: int, bot: str, seeds: range) -> float:
    """The engine alone: the same games, the same players, nothing recorded."""
    from pangaea_lab.sim.games import reader
    from pangaea_lab.sim.play import bot_seed
    read = reader(game)
    cls = read.bots[bot]
    options = read.options
    start = time.process_time()
    for seed in seeds:
        state = read.new_game(players, seed, dict(options))
        bots = [cls(bot_seed(seed, seat)) for seat in range(players)]
        while not state.is_over:
            state = state.apply(bots[state.current_player].choose(state))
        state.scores(), state.winners()   # the result: what any use of a game reads
    return time.process_time() - start


def lab(game: str, players: int, bot: str, seeds: range, events: bool) -> float:
    from pangaea_lab.simulate import simulate
    start = time.process_time()
    simulate(game, players=players, seeds=seeds, bots=bot, events=events, progress=False)
    return time.process_time() - start


def measure(game: str, players: int, bot: str, games: int, rounds: int = ROUNDS,
            scale: float = SCALE) -> dict[str, float]:
    """Best processor time of each side over ``rounds`` alternating rounds: the bare loop,
    the lab, the lab with the event table."""
    seeds = range(max(2, int(games * scale)))
    bare_loop(game, players, bot, seeds)          # untimed: caches filled for both sides
    lab(game, players, bot, seeds, True)
    best = {"bare": float("inf"), "lab": float("inf"), "events": float("inf")}
    for _ in range(rounds):
        best["bare"] = min(best["bare"], bare_loop(game, players, bot, seeds))
        best["lab"] = min(best["lab"], lab(game, players, bot, seeds, False))
        best["events"] = min(best["events"], lab(game, players, bot, seeds, True))
    best["games"] = len(seeds)
    return best


def main() -> None:
    print(f"simulate against a bare engine loop, processor time, best of {ROUNDS} "
          "alternating rounds (target: at most +10%)")
    print(f"{'game':16s} {'players':>7s} {'bots':>9s} {'games':>5s} {'bare s':>8s} "
          f"{'lab s':>8s} {'overhead':>8s} {'+events':>8s}")
    worst = 0.0
    for game, players, bot, games in CASES:
        t = measure(game, players, bot, games)
        over, with_events = t["lab"] / t["bare"] - 1, t["events"] / t["bare"] - 1
        worst = max(worst, over)
        print(f"{game:16s} {players:7d} {bot:>9s} {int(t['games']):5d} {t['bare']:8.3f} "
              f"{t['lab']:8.3f} {over:+8.1%} {with_events:+8.1%}")
        sys.stdout.flush()
    print(f"largest overhead: {worst:+.1%} ({'meets' if worst <= 0.10 else 'misses'} the "
          "target of +10%)")


if __name__ == "__main__":   # also run by bench/run_all.py (make bench), so no sys.exit
    main()
