"""The same comparison as ``bench_speed.py``, counted in CPU instructions instead of seconds.

    python bench/bench_instructions.py --base <commit>   # make bench-instructions BASE=<commit>

This machine is shared, so a timing moves with whatever else runs; the number of instructions
a program executes hardly moves at all.  For every mode, each side plays the seeded random games
of ``speed_worker.py`` under ``valgrind --tool=cachegrind`` (which counts every instruction;
about fifty times slower than a plain run, hence fewer games), twice: ``first`` games, then
``last`` games.  The difference of the two counts, divided by ``last - first``, is what one game
costs once the caches of a run are warm, without Python's start and the imports.  The ratio
base / this commit is printed per mode.  An instruction ratio is an upper bound on the time
ratio rather than the same thing: memory and branch effects are not counted, and on this
machine the time ratios have come out from about the same to two fifths lower.  Needs
``valgrind`` (the Debian package).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from bench_speed import base_tree, parser_for, print_header  # noqa: E402
from speed_worker import MODES  # noqa: E402

#: games per mode: (first, last); the count of ``last`` games minus that of ``first`` games
GAMES = {"harmonies-solo-A": (40, 80), "harmonies-4p": (4, 8), "forest_shuffle-4p": (2, 4),
         "inori-4p": (3, 6), "pangaea-4p": (1, 2), "pangaea-coop": (2, 4),
         "pangaea-wild-woods": (1, 2)}

#: the line of cachegrind's summary with the count of instructions executed
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")

#: what each side runs: seeded random games of one mode, nothing timed
PLAY = """
import importlib, sys
sys.path.insert(0, {bench!r})
from speed_worker import MODES, play
name, players, options = MODES[{mode!r}]
module = importlib.import_module("pangaea_lab." + name)
play(module, players, options, 10_000)
for seed in range({games}):
    play(module, players, options, seed)
"""


def instructions(text: str) -> int:
    """The instruction count in cachegrind's summary (``==1== I   refs:   1,234``)."""
    found = _REFS.search(text)
    if found is None:
        raise SystemExit("valgrind printed no instruction count:\n" + text[-2000:])
    return int(found.group(1).replace(",", ""))


def count(side: Path, mode: str, games: int) -> int:
    """Instructions executed by a run that plays ``games`` seeded games with ``side``."""
    env = {**os.environ, "PYTHONPATH": str(side), "PYTHONHASHSEED": "0"}
    code = PLAY.format(bench=str(HERE), mode=mode, games=games)
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                          "--cachegrind-out-file=/dev/null", sys.executable, "-c", code],
                         env=env, capture_output=True, text=True, cwd=side)
    if out.returncode != 0:
        raise SystemExit(f"{mode} failed on {side}:\n{out.stderr[-2000:]}")
    return instructions(out.stderr)


def per_game(side: Path, mode: str) -> float:
    """Instructions one warm game of ``mode`` costs with ``side``."""
    first, last = GAMES[mode]
    return (count(side, mode, last) - count(side, mode, first)) / (last - first)


def main(argv: list[str] | None = None) -> int:
    args = parser_for(__doc__).parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed (Debian: apt install valgrind)")
    modes = [m for m in MODES if args.only in m]
    with base_tree(args.base, "bench-instructions-", "millions of instructions per warm "
                   "random game; ratio > 1: this commit executes fewer") as base:
        print_header(f"{'mode':<20} {'base':>9} {'new':>9} {'ratio':>7}")
        for mode in modes:
            old, new = per_game(base, mode), per_game(REPO, mode)
            print(f"{mode:<20} {old / 1e6:>9.2f} {new / 1e6:>9.2f} {old / new:>6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
