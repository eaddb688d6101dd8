"""A long soak run: many seeded random games of every game, mode and player count.

After every step the game's invariants are checked (every piece, token and card accounted
for); at the end the final state is saved and loaded back, and must be equal.  Any exception,
broken invariant, game that does not end, or final state that does not round-trip is counted
as a break.  One summary line per mode: games, steps, invariant breaks (must be 0).

    python bench/soak.py                  # 1,000 games per mode and player count
    python bench/soak.py --games 20       # a quick check (co-op + Wild Woods at 2 players
                                          # always plays 5x as many)
    python bench/soak.py --jobs 2         # worker processes (default: every core)

Each game ``k`` of a mode uses seed ``k // 2`` and one of two random streams: even games pick
uniformly among the legal actions, odd games pick a kind of action first (the package's
RandomPlayer).  At the end it gives the most memory a worker process held (its peak resident
size: the engines' kept results are bounded, so a long run must level off); above
``--max-memory`` megabytes counts as a break too.  The exit status is 1 if anything broke.
``make soak`` runs it.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pangaea_lab import forest_shuffle, harmonies, inori, pangaea  # noqa: E402
from pangaea_lab.core.players import RandomPlayer  # noqa: E402

MAX_STEPS = 20_000


def _pangaea(**options):
    return lambda players, seed: pangaea.new_game(players=players, seed=seed, **options)


#: (mode name, new game(players, seed), player counts, games multiplier by player count)
MODES = [
    ("Dawn of Pangaea competitive", _pangaea(), (2, 3, 4), {}),
    ("Dawn of Pangaea family", _pangaea(family=True), (2, 3, 4), {}),
    ("Dawn of Pangaea co-op", _pangaea(mode="coop"), (1, 2, 3, 4), {}),
    ("Dawn of Pangaea Wild Woods", _pangaea(wild_woods=True), (2, 3, 4), {}),
    ("Dawn of Pangaea co-op + Wild Woods", _pangaea(mode="coop", wild_woods=True),
     (1, 2, 3, 4), {2: 5}),
    ("Harmonies with spirits",
     lambda players, seed: harmonies.new_game(players=players, seed=seed, spirits=True),
     (1, 2, 3, 4), {}),
    ("Harmonies without spirits",
     lambda players, seed: harmonies.new_game(players=players, seed=seed, spirits=False),
     (1, 2, 3, 4), {}),
    ("Forest Shuffle",
     lambda players, seed: forest_shuffle.new_game(players=players, seed=seed),
     (2, 3, 4, 5), {}),
    ("Inori", lambda players, seed: inori.new_game(players=players, seed=seed), (2, 3, 4), {}),
]


def play_one(mode: int, players: int, game: int) -> tuple[int, str]:
    """Play game number ``game`` of a mode; returns (steps, "" or what broke)."""
    name, new_game, _, _ = MODES[mode]
    seed, stream = divmod(game, 2)
    steps = 0
    try:
        state = new_game(players, seed)
        pick = random.Random(seed) if stream == 0 else RandomPlayer(seed)
        while not state.is_over:
            state.check_invariants()
            if steps >= MAX_STEPS:
                return steps, f"did not end within {MAX_STEPS} steps"
            actions = state.legal_actions()
            if not actions:
                return steps, "no legal action but the game is not over"
            action = pick.choice(actions) if stream == 0 else pick.choose(state)
            state = state.apply(action)
            steps += 1
        state.check_invariants()
        text = state.to_json()
        again = type(state).from_json(text)
        if again != state or again.to_json() != text:
            return steps, "the final state does not save and load back exactly"
        return steps, ""
    except Exception as exc:  # noqa: BLE001 - every failure is a break to report
        return steps, f"step {steps}: {type(exc).__name__}: {str(exc)[:200]}"


def peak_memory_mb() -> float:
    """The most memory this process has held so far (peak resident size), in megabytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # kilobytes on Linux


def play_batch(mode: int, players: int,
               games: range) -> tuple[int, int, int, int, list[str], float, float]:
    steps = breaks = 0
    notes = []
    began = time.process_time()
    for g in games:
        n, why = play_one(mode, players, g)
        steps += n
        if why:
            breaks += 1
            seed, stream = divmod(g, 2)
            notes.append(f"{players} players, seed {seed}, stream {stream}: {why}")
    return mode, players, steps, breaks, notes, time.process_time() - began, peak_memory_mb()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="games per mode and player count (default 1000)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: every core)")
    parser.add_argument("--batch", type=int, default=10, help="games per task")
    parser.add_argument("--max-memory", type=float, default=1000,
                        help="most megabytes a worker process may hold (default 1000)")
    parser.add_argument("--only", default="", help="play only the mode of this name, or the modes whose name has this")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.batch < 1:
        parser.error("--games, --jobs and --batch must be at least 1")

    tasks = []
    exact = any(args.only.lower() == name.lower() for name, *_ in MODES)
    for m, (name, _, counts, more) in enumerate(MODES):
        wanted = args.only.lower() == name.lower() if exact else args.only.lower() in name.lower()
        if not wanted:
            continue
        for players in counts:
            total = args.games * more.get(players, 1)
            for start in range(0, total, args.batch):
                tasks.append((m, players, range(start, min(total, start + args.batch))))
    total_games = sum(len(t[2]) for t in tasks)
    done = 0
    results: dict[tuple[int, int], list] = {}
    peak = 0.0
    start = shown = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(play_batch, *t): len(t[2]) for t in tasks}
        for f in as_completed(futures):
            mode, players, steps, breaks, notes, cpu, memory = f.result()
            peak = max(peak, memory)
            r = results.setdefault((mode, players), [0, 0, 0, [], 0.0])
            r[0] += futures[f]
            r[1] += steps
            r[2] += breaks
            r[3] += notes
            r[4] += cpu
            done += futures[f]
            if done == total_games or time.monotonic() - shown > 2:
                shown = time.monotonic()
                print(f"\r{done}/{total_games} games, {shown - start:.0f} s", end="",
                      file=sys.stderr, flush=True)
    print(file=sys.stderr)
    everything_ok = True
    for (mode, players), (games, steps, breaks, notes, cpu) in sorted(results.items()):
        name = MODES[mode][0]
        print(f"{name}, {players} player{'s' if players > 1 else ''}: games {games}, "
              f"steps {steps}, invariant breaks {breaks} "
              f"({games / max(cpu, 1e-9):.1f} games per CPU second)")
        for note in notes[:5]:
            print(f"    {note}")
        everything_ok &= breaks == 0
    print(f"largest worker memory: {peak:.0f} MB (at most {args.max_memory:.0f} MB)")
    too_big = peak > args.max_memory
    verdict = ("SOME GAMES BROKE" if not everything_ok else
               "A WORKER HELD TOO MUCH MEMORY" if too_big else "no breaks")
    print(f"{total_games} games in {time.monotonic() - start:.0f} s with {args.jobs} "
          f"worker{'s' if args.jobs > 1 else ''}; {verdict}")
    return 0 if everything_ok and not too_big else 1


if __name__ == "__main__":
    sys.exit(main())
