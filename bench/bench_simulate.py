"""Simulation lab benchmark: the cost of ``simulate`` against a plain loop over the same games,
and the local-process and Dask backends against the in-process one, measured side by side in
one run.  Prints ratios (the targets: overhead at most 10% at one process; each backend at
least 1.6x the in-process rate on 2 cores).  Run with ``python bench/bench_simulate.py``.

The in-process and local-process runs are timed before the Dask cluster starts (its client's
threads would otherwise run inside the timing process).  The plain loop builds the same games and computer players and plays them with
``play_game``; ``simulate`` also counts turns, reads every seat's score categories, records
the event table, and draws no bar (``progress=False``) so only the lab's own work is timed.
The overhead is also given in processor time of this process, which other programs on a
shared machine disturb less than elapsed time.  The machine's other load moves the figures: each is the best of a few alternating rounds,
after one untimed pass.  The local-process backend keeps its worker processes between runs
(as in a session), so, like the Dask cluster, it is started once before the timing.
"""

from __future__ import annotations

import os
import sys
import time

GAME, PLAYERS, BOTS = "pangaea", 2, "greedy"
GAMES = int(os.environ.get("BENCH_SIM_GAMES", "120"))
ROUNDS = int(os.environ.get("BENCH_SIM_ROUNDS", "3"))


def plain_loop(seeds: range) -> tuple[float, float]:
    from pangaea_lab import pangaea
    from pangaea_lab.core.players import GreedyPlayer, play_game
    from pangaea_lab.sim.play import bot_seed
    start, cpu = time.perf_counter(), time.process_time()
    for seed in seeds:
        state = pangaea.new_game(players=PLAYERS, seed=seed)
        play_game(state, [GreedyPlayer(bot_seed(seed, p)) for p in range(PLAYERS)])
    return time.perf_counter() - start, time.process_time() - cpu


def lab(seeds: range, **backend) -> tuple[float, float]:
    from pangaea_lab.simulate import simulate
    start, cpu = time.perf_counter(), time.process_time()
    simulate(GAME, players=PLAYERS, seeds=seeds, bots=BOTS, events=True, progress=False,
             **backend)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    from distributed import Client, LocalCluster
    seeds = range(GAMES)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{GAMES} games of {GAME}, {PLAYERS} {BOTS} players; {cores} cores; best of {ROUNDS}")
    best: dict[str, float] = {}
    cpu: dict[str, float] = {}

    def keep(name: str, seconds: tuple[float, float]) -> None:
        best[name] = min(best.get(name, seconds[0]), seconds[0])
        cpu[name] = min(cpu.get(name, seconds[1]), seconds[1])

    # first without the Dask cluster: its client's threads would run inside this process and
    # slow whatever is timed here (the in-process run above all)
    lab(range(2), workers=2)                                      # the pool's processes ready
    # one untimed pass: the engines keep caches (boards, paths) that the first games of a
    # process fill, and whichever loop ran first would otherwise pay for them alone
    plain_loop(seeds)
    for _ in range(ROUNDS):
        keep("plain loop", plain_loop(seeds))
        keep("simulate, in-process", lab(seeds))
        keep("simulate, 2 local processes", lab(seeds, workers=2))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        client.run(lambda: __import__("pangaea_lab.sim.play"))   # workers ready before timing
        lab(range(2), client=client)
        for _ in range(ROUNDS):
            keep("simulate, Dask (2 worker processes)", lab(seeds, client=client))
    for name, seconds in best.items():
        print(f"  {name:38s} {seconds:7.2f} s   {GAMES / seconds:6.1f} games/s")
    here = best["simulate, in-process"]
    overhead = here / best["plain loop"] - 1
    print(f"overhead of simulate over the plain loop: {overhead:+.1%} in elapsed time, "
          f"{cpu['simulate, in-process'] / cpu['plain loop'] - 1:+.1%} in processor time of "
          "this process (target: at most +10%)")
    for name in ("simulate, 2 local processes", "simulate, Dask (2 worker processes)"):
        print(f"{name} vs in-process: {here / best[name]:.2f}x (target: at least 1.6x)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
