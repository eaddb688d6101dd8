"""Run many seeded games and collect the results: ``pangaea_lab.simulate(...)`` in Python,
``python -m pangaea_lab.simulate`` on the command line.

    python -m pangaea_lab.simulate harmonies --players 3 --games 10000 \\
        --bots greedy,random,random --out runs/h3.parquet

prints a summary (each seat's mean points and win rate with its 95% Wilson interval) and
writes the table to the results folder as games arrive; ``--resume`` continues an interrupted
run, ``--workers 2`` uses two local processes, ``--scheduler tcp://host:8786`` a Dask cluster.
This module is callable, so ``pangaea_lab.simulate("inori", seeds=10)`` works after
``import pangaea_lab``; see :func:`pangaea_lab.sim.run.simulate` for every argument.
"""

from __future__ import annotations

import signal
import sys

#: set once the command line's run has begun: a Ctrl-C is then a KeyboardInterrupt, which
#: keeps what was done
_RUNNING = False


def _ctrl_c(signum: int, frame: object) -> None:
    """Ctrl-C on the command line: before the run, one line and out; during it, the usual
    interruption (caught by :func:`main`, which says what was kept)."""
    if _RUNNING:
        raise KeyboardInterrupt
    print("stopped before any game was played", file=sys.stderr)
    sys.exit(130)


if __name__ == "__main__":   # from the command's first line on, before the slow imports
    signal.signal(signal.SIGINT, _ctrl_c)

import argparse  # noqa: E402 - after the start-up handler above
import types  # noqa: E402
import warnings  # noqa: E402
from typing import Any, Sequence  # noqa: E402

from .sim.games import READERS, SimulationError  # noqa: E402
from .sim.run import FLUSH_SECONDS, execute, load, make_plan, simulate  # noqa: E402
from .sim.stats import summary_lines  # noqa: E402
from .sim.store import SimulationWarning  # noqa: E402

__all__ = ["SimulationError", "load", "main", "simulate"]


def _value(text: str) -> Any:
    """A command-line option value: true/false, a whole number, or the text itself."""
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m pangaea_lab.simulate",
        description="Play many seeded games between computer players and collect the results.")
    p.add_argument("game", help=f"one of: {', '.join(READERS)}")
    p.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--first-seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument("--bots", default="random",
                   help="computer players by seat, e.g. greedy,random,random, or one name for "
                        "everyone (random, greedy, and forester in The Dawn of Pangaea)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a game option, e.g. --option side=B (repeatable)")
    p.add_argument("--out", help="results folder (Parquet), written as games arrive")
    p.add_argument("--resume", action="store_true",
                   help="continue the run in --out, playing only the seeds not yet there")
    p.add_argument("--save-every", type=float, default=None, metavar="SECONDS",
                   help=f"write the results folder at least this often (default "
                        f"{FLUSH_SECONDS:g}; 0: as each game, or batch of games, finishes)")
    p.add_argument("--workers", type=int, default=None,
                   help="local processes, 1 to 64 (default: 1, in this process)")
    p.add_argument("--chunk", type=int, default=None,
                   help="games per task sent to a worker, 1 to 10000 (default: chosen)")
    p.add_argument("--scheduler", help="address of a Dask scheduler, e.g. tcp://host:8786")
    p.add_argument("--events", action="store_true",
                   help="also record the event table (Rituals, animal cards, species, ...) "
                        "in the results folder")
    p.add_argument("--fixed-seats", action="store_true",
                   help="keep each bot in its seat (by default the line-up moves one seat "
                        "round the table from seed to seed)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def summary(table: Any) -> str:
    """Mean points and win rate (shared wins count half) with a 95% Wilson interval, in a few
    plain lines: per seat, per bot when seats rotate, the team's in a co-op game; and the
    share of games a safety net ended (see :func:`pangaea_lab.sim.stats.summary_lines`)."""
    return "\n".join(summary_lines(table))


def _note(message: Any, category: Any, *args: Any, **kwargs: Any) -> None:
    """A warning about the results folder as one plain line."""
    print(f"note: {message}", file=sys.stderr)


def _plan(args: argparse.Namespace) -> Any:
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SimulationError(f"an option is written NAME=VALUE, not {item!r}")
        options[name] = _value(value)
    if args.games < 1:
        raise SimulationError(f"the number of games must be at least 1, not {args.games}")
    if args.first_seed < 0:
        raise SimulationError("the first seed must be 0 or more")
    if args.events and not args.out:
        raise SimulationError("--events records the event table in the results folder: "
                              "give --out as well")
    seeds = range(args.first_seed, args.first_seed + args.games)
    return make_plan(args.game, args.players, seeds, args.bots, options, args.scheduler,
                     args.out, args.resume, args.workers, args.events, not args.quiet,
                     args.chunk, args.save_every, not args.fixed_seats, keep=False)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: checks every argument, plays the games, prints the summary.  No
    table is held in memory: the rows go to --out as they arrive (or nowhere without it) and
    the summary is counted game by game."""
    global _RUNNING
    args = parser().parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("always", SimulationWarning)
        warnings.showwarning = _note
        try:
            _RUNNING = True
            _, _, tally = execute(_plan(args))
        except SimulationError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"error: {exc.strerror or exc} ({exc.filename or args.out})", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            where = (f"; what finished is in {args.out} (add --resume to continue)"
                     if args.out else "")
            print(f"{'' if args.quiet else chr(10)}stopped{where}", file=sys.stderr)
            return 130
    print("\n".join(tally.lines()))
    if args.out:
        print(f"results: {args.out}")
    return 0


class _CallableModule(types.ModuleType):
    """``pangaea_lab.simulate(...)`` calls :func:`simulate` although it names this module."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return simulate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

if __name__ == "__main__":
    sys.exit(main())
