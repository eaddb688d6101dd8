"""Simulation lab benchmark, both goals side by side in one run: the lab's overhead per game
over a bare engine loop for all four games (goal: at most +10%), and the command line's peak
memory for 1,000, 10,000 and 100,000 games (goal: every peak within 1.2x of 1,000 games), with
the machine's load average before and after.

    python bench/bench_sim_lab.py            # the full run (100,000 games take a few minutes)
    python bench/bench_sim_lab.py --quick    # a try: 500 / 1,000 / 2,000 games, smaller rounds

The memory series plays Harmonies between random players, the cheapest game to play (about a
millisecond a game), with the event table and a results folder, each size in a fresh process
(see ``sim_memory.py``); the overhead compares processor time of the same seeded games, best
of alternating rounds (see ``sim_overhead.py``).  Ratios only within this one run.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import sim_memory  # noqa: E402 - this folder's modules, found through the line above
import sim_overhead  # noqa: E402

MEMORY_GAME = "harmonies"
#: random players only: the cheapest moves, so the lab's own work weighs most
OVERHEAD_CASES = [case for case in sim_overhead.CASES if case[2] == "random"]
#: rounds of the overhead part in a full run
FULL_ROUNDS = 5


def load_words() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def overhead_lines(rounds: int, scale: float) -> tuple[list[str], float]:
    """One line per game: games, bare and lab seconds, the overhead without and with events."""
    lines, worst = [], 0.0
    for game, players, bot, games in OVERHEAD_CASES:
        t = sim_overhead.measure(game, players, bot, games, rounds, scale)
        over, with_events = t["lab"] / t["bare"] - 1, t["events"] / t["bare"] - 1
        worst = max(worst, over)
        lines.append(f"  {game:16s} {int(t['games']):>7,} games  bare {t['bare']:7.3f} s  "
                     f"lab {t['lab']:7.3f} s  {over:+6.1%}  (with events {with_events:+6.1%})")
        print(lines[-1], flush=True)
    return lines, worst


def memory_lines(sizes: list[int]) -> tuple[list[str], float]:
    """One line per size: peak memory, its ratio to the first size, seconds."""
    lines, base, worst = [], 0.0, 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for games in sizes:
            peak, seconds = sim_memory.peak_of_run(MEMORY_GAME, games, 1, Path(tmp))
            base = base or peak
            worst = max(worst, peak / base)
            lines.append(f"  {games:>9,} games  peak {peak:7.1f} MB  {peak / base:5.2f}x  "
                         f"({seconds:,.0f} s)")
            print(lines[-1], flush=True)
    return lines, worst


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help="a try: 500, 1,000 and 2,000 games; a quarter of the overhead games, "
                        "two rounds")
    p.add_argument("--rounds", type=int, default=None,
                   help=f"alternating rounds of the overhead part (default {FULL_ROUNDS}; "
                        "the best of each side is kept)")
    p.add_argument("--sizes", help="the memory series' numbers of games, e.g. 1000,100000 "
                                   "(the first is the one the others are compared with)")
    args = p.parse_args(argv)
    sizes = [500, 1_000, 2_000] if args.quick else [1_000, 10_000, 100_000]
    if args.sizes:
        sizes = [int(n) for n in args.sizes.split(",")]
    rounds, scale = (2, 0.25) if args.quick else (FULL_ROUNDS, sim_overhead.SCALE)
    rounds = args.rounds or rounds
    start = time.perf_counter()
    print(f"simulation lab: overhead and memory in one run ({load_words()})")
    print(f"overhead over a bare engine loop, processor time, best of {rounds} alternating "
          "rounds, random players (goal: at most +10%)", flush=True)
    _, worst_over = overhead_lines(rounds, scale)
    print(f"peak memory of `python -m pangaea_lab.simulate {MEMORY_GAME} --events --out ...`, "
          f"a fresh process each (goal: within {sim_memory.GOAL}x of the first)", flush=True)
    _, worst_memory = memory_lines(sizes)
    print(f"largest overhead {worst_over:+.1%} "
          f"({'meets' if worst_over <= 0.10 else 'misses'} +10%); largest memory ratio "
          f"{worst_memory:.2f}x ({'meets' if worst_memory <= sim_memory.GOAL else 'misses'} "
          f"{sim_memory.GOAL}x); {time.perf_counter() - start:,.0f} s; {load_words()}")


if __name__ == "__main__":   # also run by bench/run_all.py (make bench), so no sys.exit
    main()
