"""The Land Ritual listing of The Dawn of Pangaea, old and new side by side (prints ratios).

Each side runs in its own process with its own copy of the package first on the path:

    mkdir -p /tmp/base39p && git archive 39922d7 pangaea_lab | tar -x -C /tmp/base39p
    PYTHONPATH=$PWD python bench/bench_pangaea_listing.py --base /tmp/base39p

Figures (the best of several runs, in ms): the Land Ritual options of 4 players for every Land
card on a crowded 4-player continent (``bench_pangaea.crowded``), the legal actions of that
continent's state made afresh by a Spirit's move, and ``speed_worker.py pangaea-4p``'s listing
time (the legal actions of 40 late positions of a seeded game, each made afresh by applying its
move).  The sides run in turns, as the machine's load changes.  They must find the same
options.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure() -> dict:
    """This side's figures (run in a child process)."""
    sys.path.insert(0, str(HERE))
    import bench_pangaea  # the crowded continent of the Pangaea benchmarks
    from pangaea_lab.pangaea import land_ritual_options

    busy = bench_pangaea.crowded()
    cards = busy.edition.land_cards
    move = next(a for a in busy.legal_actions() if a.kind == "Spirit Growth")

    def options() -> int:
        pos = busy.position      # a new position each time, as every listing makes one
        return sum(len(land_ritual_options(pos, p, c)) for p in range(4) for c in cards)

    def listing() -> int:
        return len(busy.apply(move).legal_actions())

    def best(fn, repeats: int) -> tuple[float, int]:
        found, times = fn(), []
        for _ in range(repeats):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return min(times) * 1000, found

    out = {}
    out["options_ms"], out["options"] = best(options, 15)
    apply_ms = best(lambda: busy.apply(move), 15)[0]
    out["legal_ms"], out["legal"] = best(listing, 15)
    out["legal_ms"] -= apply_ms      # the move itself is not the listing
    worker = subprocess.run([sys.executable, str(HERE / "speed_worker.py"), "pangaea-4p", "2"],
                            capture_output=True, text=True, check=True, env=dict(os.environ))
    out["worker_listing_ms"] = json.loads(worker.stdout)["listing_time"] * 1000
    return out


def run_side(path: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(path), PYTHONHASHSEED="0")
    return json.loads(subprocess.run([sys.executable, __file__, "--measure"], env=env,
                                     capture_output=True, text=True, check=True).stdout)


def best_runs(runs: list[dict]) -> dict:
    return {k: min(r[k] for r in runs) if k.endswith("_ms") else runs[0][k] for k in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="a copy of the old package (its parent folder)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure()))
        return
    new_runs, old_runs = [], []
    for _ in range(args.rounds):   # in turns, so both sides see the same load
        new_runs.append(run_side(HERE.parent))
        if args.base:
            old_runs.append(run_side(args.base))
    new = best_runs(new_runs)
    old = best_runs(old_runs) if old_runs else None
    for key in ("options_ms", "legal_ms", "worker_listing_ms"):
        line = f"{key:>18}: new {new[key]:8.2f} ms"
        if old:
            line += f"   old {old[key]:8.2f} ms   new/old {new[key] / old[key]:5.2f}x"
        print(line)
    if old:
        same = (old["options"], old["legal"]) == (new["options"], new["legal"])
        print(f"same options and legal actions: {'yes' if same else 'NO'} "
              f"({new['options']} options, {new['legal']} legal actions)")


if __name__ == "__main__":
    main()
