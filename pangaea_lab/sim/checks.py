"""Checks of the simulation lab's arguments, all made before anything runs: each bad value
gets one plain-words sentence naming the argument and its limits.  Whole numbers may be
Python or NumPy integers (``numpy.int64(5)``); ``True``/``False`` are never numbers.

>>> check_seeds(3), check_seeds(range(5, 8))
(range(0, 3), range(5, 8))
>>> check_chunk(-1)
Traceback (most recent call last):
...
pangaea_lab.sim.games.SimulationError: chunk (games per task) must be a whole number from 1 to 10,000, not -1
"""

from __future__ import annotations

import importlib
import math
import numbers
import os
from typing import Any, Sequence

from .games import SimulationError

#: the most games one run may ask for
MAX_GAMES = 10_000_000
#: seeds are stored as 64-bit integers: 0 <= seed < 2**63
SEED_LIMIT = 2 ** 63
#: the most local processes
MAX_WORKERS = 64
#: the most games in one task of a backend
MAX_CHUNK = 10_000
#: the longest interval between two writes of the results folder (seconds)
MAX_SAVE_EVERY = 3600


def whole(value: Any) -> int | None:
    """``value`` as an ``int`` if it is a whole number (Python or NumPy), else None."""
    if isinstance(value, bool) or type(value).__name__ == "bool_" \
            or not isinstance(value, numbers.Integral):
        return None
    return int(value)


def _seed(value: Any) -> int:
    seed = whole(value)
    if seed is None or not 0 <= seed < SEED_LIMIT:
        raise SimulationError(f"every seed must be a whole number from 0 to 2**63 - 1 "
                              f"(seeds are stored as 64-bit integers), not {_short(value)}")
    return seed


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _range_seeds(seeds: range) -> range:
    start, stop, step = seeds.start, seeds.stop, seeds.step
    count = max(0, (stop - start + step - (1 if step > 0 else -1)) // step)
    if count == 0:
        raise SimulationError("there are no games to play: the range of seeds is empty")
    if count > MAX_GAMES:
        raise SimulationError(f"at most {MAX_GAMES:,} games in one run, not {count:,}")
    _seed(start)
    _seed(start + (count - 1) * step)
    return seeds


def check_seeds(seeds: Any) -> Sequence[int]:
    """A count of games (seeds 0..n-1), a range, or a list of distinct seeds; a range stays a
    range (never spelled out in memory)."""
    count = whole(seeds)
    if count is not None:
        if count <= 0:
            raise SimulationError(f"the number of games must be at least 1, not {count}")
        if count > MAX_GAMES:
            raise SimulationError(f"at most {MAX_GAMES:,} games in one run, not {count:,}")
        return range(count)
    if isinstance(seeds, range):
        return _range_seeds(seeds)
    if isinstance(seeds, (str, bytes, dict, set, frozenset)) or not hasattr(seeds, "__iter__"):
        raise SimulationError("seeds must be a number of games, a range or a list of seeds, "
                              f"not {_short(seeds)}")
    try:
        size = len(seeds)
    except (TypeError, OverflowError):
        size = 0
    if size > MAX_GAMES:
        raise SimulationError(f"at most {MAX_GAMES:,} games in one run, not {size:,}")
    seed_list = []
    for s in seeds:
        if len(seed_list) >= MAX_GAMES:
            raise SimulationError(f"at most {MAX_GAMES:,} games in one run")
        seed_list.append(_seed(s))
    if not seed_list:
        raise SimulationError("there are no games to play: the list of seeds is empty")
    if len(set(seed_list)) != len(seed_list):
        raise SimulationError("a seed appears twice in the list: each game is played once")
    return seed_list


def check_players(players: Any, low: int, high: int, title: str) -> int:
    count = whole(players)
    if count is None or not low <= count <= high:
        raise SimulationError(f"{title} is played by {low} to {high} players, "
                              f"not {_short(players)}")
    return count


def check_workers(workers: Any) -> int:
    if workers is None:
        return 1
    count = whole(workers)
    if count is None or not 1 <= count <= MAX_WORKERS:
        raise SimulationError(f"workers must be a whole number from 1 to {MAX_WORKERS}, "
                              f"not {_short(workers)}")
    return count


def check_chunk(chunk: Any) -> int | None:
    if chunk is None:
        return None
    size = whole(chunk)
    if size is None or not 1 <= size <= MAX_CHUNK:
        raise SimulationError(f"chunk (games per task) must be a whole number from 1 to "
                              f"{MAX_CHUNK:,}, not {_short(chunk)}")
    return size


def check_save_every(seconds: Any, out: Any, default: float) -> float:
    if seconds is None:
        return default
    if out is None:
        raise SimulationError("save_every sets how often the results folder is written: it "
                              "needs a results folder (out=..., --out)")
    if (isinstance(seconds, bool) or not isinstance(seconds, numbers.Real)
            or not math.isfinite(seconds) or not 0 <= seconds <= MAX_SAVE_EVERY):
        raise SimulationError(f"save_every must be a number of seconds from 0 to "
                              f"{MAX_SAVE_EVERY}, not {_short(seconds)}")
    return float(seconds)


def check_flag(name: str, value: Any) -> bool:
    if type(value).__name__ not in ("bool", "bool_"):
        raise SimulationError(f"{name} must be True or False, not {_short(value)}")
    return bool(value)


def check_out(out: Any, resume: bool) -> Any:
    if out is None:
        if resume:
            raise SimulationError("resume needs a results folder to continue (out=..., --out)")
        return None
    if not isinstance(out, (str, os.PathLike)) or isinstance(out, str) and not out.strip():
        raise SimulationError(f"out must name a results folder (a path), not {_short(out)}")
    return out


def check_backends(client: Any, workers: Any) -> None:
    if client is not None and workers is not None:
        raise SimulationError("workers sets local processes and client a Dask cluster: give "
                              "one of them, not both")


def check_option_needs(game: str, given: dict[str, Any], chosen: dict[str, Any],
                       title: str) -> None:
    """Refuse an option given a value other than its default where it does nothing: each
    game's link settings say which option another needs (Midnight Hour is a difficulty of
    the co-op mode, Elemental Storms are part of Wild Woods)."""
    try:
        spec = importlib.import_module(f"pangaea_lab.{game}.game").LINK
    except (ImportError, AttributeError):
        return
    for opt in spec.options:
        if opt.needs is None or opt.name not in given or given[opt.name] == opt.default:
            continue
        need, value = opt.needs
        other = spec.option(need)
        have = chosen.get(need)
        if isinstance(have, str) and hasattr(other, "parse"):
            try:
                have = other.parse(have)
            except ValueError:
                pass
        if have != value:
            written = other.write(value) if isinstance(value, str) and other else value
            raise SimulationError(f"the option {opt.name}={given[opt.name]!r} of {title} only "
                                  f"counts with {need}={written!r}; here it would change "
                                  f"nothing: leave it out, or set {need}={written!r}")
