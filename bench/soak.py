"""A long soak run: many seeded random games of every game, mode and player count.

After every step the game's invariants are checked (every piece, token and card accounted
for); at the end the final state is saved and loaded back, and must be equal.  Any exception,
broken invariant, game that does not end, or final state that does not round-trip is counted
as a break.  One summary line per mode and player count: games, steps, invariant breaks (must
be 0).

Then each game's other computer players (greedy, and the forester of The Dawn of Pangaea: every
name in its ``GAME.bots``) play ``--bot-games`` games per mode and player count, every seat the
same player, checked the same way.  Per mode and player, the share of games a safety net ended
(see :func:`pangaea_lab.core.players.safety_net`: 40 rounds, no Ritual Card left, the Forest
Shuffle deck running out) is printed; for any player but the random one it must stay under
``--net-limit`` percent (default 2), or the run fails.

    python bench/soak.py                  # 1,000 games per mode and player count
    python bench/soak.py --games 20       # a quick check (co-op + Wild Woods at 2 players
                                          # always plays 5x as many)
    python bench/soak.py --jobs 2         # worker processes (default: every core)
    python bench/soak.py --bot-games 200  # greedy/forester games per mode and player count
                                          # (default: a tenth of --games, at least 1)

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
from pangaea_lab.core.players import RandomPlayer, safety_net  # noqa: E402

MAX_STEPS = 20_000


def _pangaea(**options):
    return lambda players, seed: pangaea.new_game(players=players, seed=seed, **options)


#: (mode name, the game's package, new game(players, seed), player counts, games multiplier
#: by player count)
MODES = [
    ("Dawn of Pangaea competitive", pangaea, _pangaea(), (2, 3, 4), {}),
    ("Dawn of Pangaea family", pangaea, _pangaea(family=True), (2, 3, 4), {}),
    ("Dawn of Pangaea co-op", pangaea, _pangaea(mode="coop"), (1, 2, 3, 4), {}),
    ("Dawn of Pangaea Wild Woods", pangaea, _pangaea(wild_woods=True), (2, 3, 4), {}),
    ("Dawn of Pangaea co-op + Wild Woods", pangaea, _pangaea(mode="coop", wild_woods=True),
     (1, 2, 3, 4), {2: 5}),
    ("Harmonies with spirits", harmonies,
     lambda players, seed: harmonies.new_game(players=players, seed=seed, spirits=True),
     (1, 2, 3, 4), {}),
    ("Harmonies without spirits", harmonies,
     lambda players, seed: harmonies.new_game(players=players, seed=seed, spirits=False),
     (1, 2, 3, 4), {}),
    ("Forest Shuffle", forest_shuffle,
     lambda players, seed: forest_shuffle.new_game(players=players, seed=seed),
     (2, 3, 4, 5), {}),
    ("Inori", inori, lambda players, seed: inori.new_game(players=players, seed=seed),
     (2, 3, 4), {}),
]

#: the player of the first pass (two random streams, see the module's text)
RANDOM = "random"


def bot_names(mode: int) -> list[str]:
    """The computer players of a mode's game other than the random one (``GAME.bots``)."""
    return [name for name in MODES[mode][1].GAME.bots if name != RANDOM]


def _pickers(mode: int, bot: str, players: int, game: int) -> list:
    """Who picks the actions of game ``game``: for the random pass one picker for every seat
    (stream 0 picks uniformly, stream 1 is the package's RandomPlayer); otherwise a player of
    that name per seat, seeded by game and seat."""
    if bot == RANDOM:
        seed, stream = divmod(game, 2)
        return [random.Random(seed) if stream == 0 else RandomPlayer(seed)]
    make = MODES[mode][1].GAME.bots[bot]
    return [make(f"{game}/{seat}") for seat in range(players)]


def play_one(mode: int, players: int, game: int, bot: str = RANDOM) -> tuple[int, str, str]:
    """Play game number ``game`` of a mode; returns (steps, "" or what broke, the safety net
    that ended it or "")."""
    new_game = MODES[mode][2]
    seed = divmod(game, 2)[0] if bot == RANDOM else game
    steps = 0
    try:
        state = new_game(players, seed)
        pickers = _pickers(mode, bot, players, game)
        while not state.is_over:
            state.check_invariants()
            if steps >= MAX_STEPS:
                return steps, f"did not end within {MAX_STEPS} steps", "steps"
            actions = state.legal_actions()
            if not actions:
                return steps, "no legal action but the game is not over", ""
            pick = pickers[state.current_player % len(pickers)]
            action = pick.choice(actions) if isinstance(pick, random.Random) else pick.choose(state)
            state = state.apply(action)
            steps += 1
        state.check_invariants()
        text = state.to_json()
        again = type(state).from_json(text)
        if again != state or again.to_json() != text:
            return steps, "the final state does not save and load back exactly", ""
        return steps, "", safety_net(state)
    except Exception as exc:  # noqa: BLE001 - every failure is a break to report
        return steps, f"step {steps}: {type(exc).__name__}: {str(exc)[:200]}", ""


def peak_memory_mb() -> float:
    """The most memory this process has held so far (peak resident size), in megabytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # kilobytes on Linux


def play_batch(mode: int, players: int, games: range, bot: str = RANDOM
                ) -> tuple[int, int, str, int, int, list[str], dict[str, int], float, float]:
    steps = breaks = 0
    notes = []
    nets: dict[str, int] = {}
    began = time.process_time()
    for g in games:
        n, why, net = play_one(mode, players, g, bot)
        steps += n
        if net:
            nets[net] = nets.get(net, 0) + 1
        if why:
            breaks += 1
            seed, stream = divmod(g, 2)
            notes.append(f"{players} players, seed {seed}, stream {stream}: {why}" if bot == RANDOM
                         else f"{players} players, {bot}, game {g}: {why}")
    return (mode, players, bot, steps, breaks, notes, nets, time.process_time() - began,
            peak_memory_mb())


def make_tasks(args: argparse.Namespace) -> list[tuple[int, int, range, str]]:
    """(mode, players, games, player name) batches: the random pass, then the other players'."""
    tasks = []
    exact = any(args.only.lower() == name.lower() for name, *_ in MODES)
    for m, (name, _, _, counts, more) in enumerate(MODES):
        wanted = args.only.lower() == name.lower() if exact else args.only.lower() in name.lower()
        if not wanted:
            continue
        for bot in [RANDOM, *bot_names(m)]:
            for players in counts:
                total = (args.games * more.get(players, 1) if bot == RANDOM
                         else args.bot_games)
                for start in range(0, total, args.batch):
                    tasks.append((m, players, range(start, min(total, start + args.batch)), bot))
    return tasks


def net_line(name: str, bot: str, games: int, nets: dict[str, int]) -> str:
    """One mode's safety-net share for one computer player."""
    ended = sum(nets.values())
    which = ", ".join(f"{net} {n}" for net, n in sorted(nets.items()))
    return (f"{name}, {bot} players: {ended} of {games} games ended by a safety net "
            f"({100 * ended / max(games, 1):.1f}%{'; ' + which if which else ''})")


def report(results: dict, args: argparse.Namespace) -> tuple[bool, bool]:
    """Print the lines per mode and player count, then the safety-net shares per mode and
    computer player; returns (no break, every share within --net-limit)."""
    everything_ok = nets_ok = True
    shares: dict[tuple[int, str], list] = {}
    order = sorted(results, key=lambda k: (k[0], k[2] != RANDOM, k[2], k[1]))
    for mode, players, bot in order:
        games, steps, breaks, notes, nets, cpu = results[mode, players, bot]
        name = MODES[mode][0]
        who = "" if bot == RANDOM else f" ({bot})"
        print(f"{name}{who}, {players} player{'s' if players > 1 else ''}: games {games}, "
              f"steps {steps}, invariant breaks {breaks} "
              f"({games / max(cpu, 1e-9):.1f} games per CPU second)")
        for note in notes[:5]:
            print(f"    {note}")
        everything_ok &= breaks == 0
        share = shares.setdefault((mode, bot), [0, {}])
        share[0] += games
        for net, n in nets.items():
            share[1][net] = share[1].get(net, 0) + n
    for (mode, bot), (games, nets) in shares.items():
        line = net_line(MODES[mode][0], bot, games, nets)
        over = bot != RANDOM and 100 * sum(nets.values()) >= args.net_limit * games
        nets_ok &= not over
        print(line + (f" -- AT LEAST {args.net_limit:g}%" if over else ""))
    return everything_ok, nets_ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="games per mode and player count (default 1000)")
    parser.add_argument("--bot-games", type=int, default=0,
                        help="games per mode and player count for each computer player but the "
                             "random one (default: a tenth of --games, at least 1)")
    parser.add_argument("--net-limit", type=float, default=2.0,
                        help="largest share (percent) of those games a safety net may end; "
                             "reaching it fails the run (default 2)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: every core)")
    parser.add_argument("--batch", type=int, default=10, help="games per task")
    parser.add_argument("--max-memory", type=float, default=1000,
                        help="most megabytes a worker process may hold (default 1000)")
    parser.add_argument("--only", default="", help="play only the mode of this name, or the modes whose name has this")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.batch < 1 or args.bot_games < 0:
        parser.error("--games, --jobs and --batch must be at least 1, --bot-games at least 0")
    args.bot_games = args.bot_games or max(1, args.games // 10)

    tasks = make_tasks(args)
    total_games = sum(len(t[2]) for t in tasks)
    done = 0
    results: dict[tuple[int, int, str], list] = {}
    peak = 0.0
    start = shown = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(play_batch, *t): len(t[2]) for t in tasks}
        for f in as_completed(futures):
            mode, players, bot, steps, breaks, notes, nets, cpu, memory = f.result()
            peak = max(peak, memory)
            r = results.setdefault((mode, players, bot), [0, 0, 0, [], {}, 0.0])
            r[0] += futures[f]
            r[1] += steps
            r[2] += breaks
            r[3] += notes
            for net, n in nets.items():
                r[4][net] = r[4].get(net, 0) + n
            r[5] += cpu
            done += futures[f]
            if done == total_games or time.monotonic() - shown > 2:
                shown = time.monotonic()
                print(f"\r{done}/{total_games} games, {shown - start:.0f} s", end="",
                      file=sys.stderr, flush=True)
    print(file=sys.stderr)
    everything_ok, nets_ok = report(results, args)
    print(f"largest worker memory: {peak:.0f} MB (at most {args.max_memory:.0f} MB)")
    too_big = peak > args.max_memory
    verdict = ("SOME GAMES BROKE" if not everything_ok else
               "A WORKER HELD TOO MUCH MEMORY" if too_big else
               "TOO MANY GAMES ENDED BY A SAFETY NET" if not nets_ok else "no breaks")
    print(f"{total_games} games in {time.monotonic() - start:.0f} s with {args.jobs} "
          f"worker{'s' if args.jobs > 1 else ''}; {verdict}")
    return 0 if everything_ok and not too_big and nets_ok else 1


if __name__ == "__main__":
    sys.exit(main())
