"""Simulation lab benchmark, memory part: peak memory of a run against its number of games
(run together with the overhead part by ``bench/bench_sim_lab.py``; alone with
``python bench/sim_memory.py``).

Runs the command line (``python -m pangaea_lab.simulate``) in a fresh process for each number
of games, writing a results folder with the event table, and prints each run's peak resident
memory (the process's own high-water mark, read from the system when it ends) and its ratio to
the first run.  The goal: every peak within 1.2x of the 1,000-game run, since rows go to disk as
games arrive, the summary is counted game by game and nothing is read back at the end.

    python bench/sim_memory.py                       # 1k and 10k games of Harmonies
    python bench/sim_memory.py --full                # and 100k
    python bench/sim_memory.py --game inori --workers 2

With ``--workers`` the games are played in worker processes; the peak printed is then the
parent's (each worker holds one task of games at a time).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = 1.2


def peak_of_run(game: str, games: int, workers: int, folder: Path) -> tuple[float, float]:
    """Peak resident memory (MB) and seconds of one command-line run in a fresh process."""
    argv = [sys.executable, "-m", "pangaea_lab.simulate", game, "--games", str(games),
            "--out", str(folder / f"{game}-{games}"), "--events", "--quiet"]
    if workers > 1:
        argv += ["--workers", str(workers)]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"the run of {games} games failed (exit code {proc.returncode})")
    return usage.ru_maxrss / 1024, time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="harmonies")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--full", action="store_true", help="also 100,000 games")
    p.add_argument("--sizes", help="the numbers of games, e.g. 1000,100000 (the first is "
                                   "the one the others are compared with)")
    args = p.parse_args()
    sizes = [1_000, 10_000] + ([100_000] if args.full else [])
    if args.sizes:
        sizes = [int(n) for n in args.sizes.split(",")]
    print(f"peak memory of `python -m pangaea_lab.simulate {args.game} --events --out ...`"
          f" (workers: {args.workers}; goal: within {GOAL}x of 1,000 games)")
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        for games in sizes:
            peak, seconds = peak_of_run(args.game, games, args.workers, Path(tmp))
            base = base or peak
            print(f"  {games:>7,} games  {peak:7.1f} MB  {peak / base:5.2f}x  "
                  f"({seconds:6.1f} s)", flush=True)


if __name__ == "__main__":
    main()
