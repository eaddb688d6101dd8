"""One side of ``bench_speed.py``: plays seeded random games of one mode with whichever
``pangaea_lab`` is first on ``sys.path`` and prints one JSON line (times and final scores).

It uses only the public protocol (``new_game``, ``legal_actions``, ``apply``, ``is_over``,
``scores``, ``to_svg``, ``to_json``, ``from_json``), so it runs on any version of the package.

    python bench/speed_worker.py MODE GAMES
"""

from __future__ import annotations

import gc
import importlib
import json
import random
import sys
import time

#: mode -> (game package, players, options)
MODES = {
    "harmonies-solo-A": ("harmonies", 1, {"side": "A", "spirits": False}),
    "harmonies-4p": ("harmonies", 4, {}),
    "forest_shuffle-4p": ("forest_shuffle", 4, {}),
    "inori-4p": ("inori", 4, {}),
    "pangaea-4p": ("pangaea", 4, {}),
    "pangaea-coop": ("pangaea", 2, {"mode": "coop"}),
    "pangaea-wild-woods": ("pangaea", 4, {"wild_woods": True}),
}

MAX_STEPS = 20_000
#: games played first, in a fresh process, before the measured ones: one for every
#: WARM_SHARE measured games (at least one), seeded from WARM_SEED on
WARM_SHARE, WARM_SEED = 4, 10_000


def play(module, players: int, options: dict, seed: int):
    """A seeded random game: each step picks uniformly among the legal actions."""
    rng = random.Random(seed)
    state = module.new_game(players=players, seed=seed, **options)
    steps = 0
    while not state.is_over and steps < MAX_STEPS:
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return state, steps


#: repeats of the short measurements (saving, loading, scoring and listing take microseconds
#: per state: the best of many repeats keeps a passing hiccup of the machine out of them)
REPEATS = 11
#: the games whose late positions are listed and scored
LATE_SEEDS = range(1, 6)


#: parts the measured games are timed in (see ``chunks``)
CHUNKS = 10


def chunks(games: int) -> list[tuple[int, int]]:
    """The measured seeds ``0 .. games - 1`` cut into at most ``CHUNKS`` runs of consecutive
    seeds, as (first, last + 1), in order."""
    parts = min(CHUNKS, games)
    return [(k * games // parts, (k + 1) * games // parts) for k in range(parts)]


def best_of(fn, repeats: int = REPEATS) -> float:
    """The shortest of a few timed calls of ``fn`` (the garbage collector held off while it
    runs, as ``timeit`` does: a collection falling into one call says nothing of ``fn``)."""
    best = float("inf")
    for _ in range(repeats):
        gc.disable()
        try:
            t = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t)
        finally:
            gc.enable()
    return best


def main() -> None:
    mode, games = sys.argv[1], int(sys.argv[2])
    name, players, options = MODES[mode]
    module = importlib.import_module(f"pangaea_lab.{name}")
    # the first games of a fresh process fill what the engine keeps for later (boards, card
    # data, ready-made actions): they are timed apart ("first"), with seeds of their own; the
    # measured games are those a long simulation plays after them
    warm = max(1, games // WARM_SHARE)
    start = time.perf_counter()
    for seed in range(WARM_SEED, WARM_SEED + warm):
        play(module, players, options, seed)
    first_time = time.perf_counter() - start
    # the first full collection of a process comes once, when the allocations since startup
    # reach a threshold, not because of any one game: made here, on both sides, rather than
    # left to fall into the measured games of whichever side's counts happen to reach it there
    # (some 20 ms of a run of about 200; full collections a long run makes again still fall
    # into the measured games)
    gc.collect()
    finals, scores, steps = [], [], 0
    # timed in parts of consecutive seeds (the same parts on both sides): the bench keeps the
    # best time of each part over its rounds, so that a moment of the machine's other load
    # spoils one part of one round, not a whole side's figure
    chunk_times, bounds = [], chunks(games)
    start = time.perf_counter()
    for first, last in bounds:
        begun = time.perf_counter()
        for seed in range(first, last):
            final, n = play(module, players, options, seed)
            finals.append(final)
            steps += n
        chunk_times.append(time.perf_counter() - begun)
    games_time = time.perf_counter() - start
    for final in finals:
        scores.append([s.total for s in final.scores()])

    # one widget click: apply an action and draw the new board, over the first game's steps
    rng = random.Random(0)
    state = module.new_game(players=players, seed=0, **options)
    clicks, click_time = 0, 0.0
    while not state.is_over and clicks < 60:
        action = rng.choice(state.legal_actions())
        t = time.perf_counter()
        state = state.apply(action)
        state.to_svg()
        click_time += time.perf_counter() - t
        clicks += 1

    # saving and loading the final states (each the best of a few repeats: they are short)
    cls = type(finals[0])
    texts = [final.to_json() for final in finals]
    save_time = best_of(lambda: [final.to_json() for final in finals])
    load_time = best_of(lambda: [cls.from_json(text) for text in texts])

    # listing the legal actions and scoring late positions (the last 40 of each of a few
    # games, so that the measured work is not a handful of microseconds): each position is
    # made afresh by applying its move (a loaded state was already probed, so its lists are
    # filled in)
    late = []
    for seed in LATE_SEEDS:
        rng = random.Random(seed)
        state = module.new_game(players=players, seed=seed, **options)
        steps_taken = []
        while not state.is_over and len(steps_taken) < 400:
            action = rng.choice(state.legal_actions())
            steps_taken.append((state, action))
            state = state.apply(action)
        late += steps_taken[-40:]
    listing_time = score_time = float("inf")
    for _ in range(REPEATS):
        fresh = [before.apply(action) for before, action in late]
        listing_time = min(listing_time, best_of(lambda: [f.legal_actions() for f in fresh], 1))
        fresh = [before.apply(action) for before, action in late]
        score_time = min(score_time, best_of(lambda: [f.scores() for f in fresh], 1))
    print(json.dumps({"mode": mode, "games": games, "steps": steps, "games_time": games_time,
                      "first_time": first_time, "chunk_times": chunk_times,
                      "click_time": click_time / max(clicks, 1), "score_time": score_time,
                      "save_time": save_time, "load_time": load_time,
                      "listing_time": listing_time, "scores": scores}))


if __name__ == "__main__":
    main()
