"""Mutated saves for the fuzz tests of every game (also run as a script under ``python -O``).

A real mid-game save is changed in one place: a field dropped, two fields swapped, a list item
duplicated, a value given another type, a number made negative or huge, a list made longer
or shorter, a value nested deeply.  Each mutant must either load into a state that plays on
to the end with random legal moves (every listed action applies, invariants hold), or be
refused with ``InvalidData`` -- and nothing else, within a time bound.

    python -O tests/hostile/fuzz_support.py pangaea 40     # a small fuzz run, exit status 0 if clean
"""

from __future__ import annotations

import copy
import json
import random
import sys
import time
from functools import lru_cache
from typing import Any, Callable

from pangaea_lab import forest_shuffle, harmonies, inori, pangaea
from pangaea_lab.core.errors import InvalidData
from pangaea_lab.core.players import RandomPlayer

#: how a game is started for the saves the fuzz mutates: (name, new_game keywords)
SETUPS: dict[str, list[tuple[Callable, dict]]] = {
    "pangaea": [(pangaea.new_game, dict(players=2, seed=3)),
                (pangaea.new_game, dict(players=3, seed=4, family=True)),
                (pangaea.new_game, dict(players=2, seed=5, mode="coop")),
                (pangaea.new_game, dict(players=2, seed=6, wild_woods=True))],
    "harmonies": [(harmonies.new_game, dict(players=2, seed=3)),
                  (harmonies.new_game, dict(players=1, seed=4, spirits=False))],
    "forest_shuffle": [(forest_shuffle.new_game, dict(players=2, seed=3)),
                       (forest_shuffle.new_game, dict(players=3, seed=4))],
    "inori": [(inori.new_game, dict(players=2, seed=3)),
              (inori.new_game, dict(players=3, seed=4))],
}
HUGE = [2**63, -(2**63), 10**6, -1, 10**9, 2**31]
#: a loaded mutant is played on for at most this many random moves
MAX_STEPS = 3000
#: one mutant (load + play) must finish within this many seconds
TIME_BOUND = 20.0


@lru_cache(maxsize=None)
def saves(game: str) -> tuple[tuple[type, str], ...]:
    """Real saves of ``game``: each setup played some random moves in (a mid-game save)."""
    out = []
    for k, (new_game, kw) in enumerate(SETUPS[game]):
        state = new_game(**kw)
        bot = RandomPlayer(k)
        for step in range(12 + 9 * k):
            if state.is_over:
                break
            state = state.apply(bot.choose(state))
        out.append((type(state), state.to_json()))
    return tuple(out)


def _paths(obj: Any, path: tuple = ()) -> list[tuple]:
    """Every path into a JSON value (keys and list indexes)."""
    out = [path]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, path + (i,))
    return out


def _get(obj: Any, path: tuple) -> Any:
    for k in path:
        obj = obj[k]
    return obj


def _other_type(value: Any, rng: random.Random) -> Any:
    options = [None, True, 0, 1, -1, 1.5, "", "x", "1", [], [1], [[0, 0]], {}, {"a": 1},
               "/dev/zero", "reference", [0, 0, 0]]
    options = [o for o in options if type(o) is not type(value) or o != value]
    return copy.deepcopy(rng.choice(options))


#: the last mutation made, (operation, path), to report a failing mutant
LAST: tuple = ()
NEST = "\u2063nest\u2063"


def mutate(data: Any, rng: random.Random) -> str:
    """``data`` (a parsed save) changed in one randomly chosen place; returns its JSON text."""
    data = copy.deepcopy(data)
    paths = _paths(data)
    # prefer the game's own fields over the bulk of an embedded edition
    inner = [p for p in paths if p and p[0] != "edition"]
    path = rng.choice(inner if inner and rng.random() < 0.85 else paths[1:] or paths)
    parent, key = (_get(data, path[:-1]), path[-1]) if path else (None, None)
    value = _get(data, path)
    global LAST
    op = rng.choice(["drop", "swap", "duplicate", "retype", "retype", "huge", "huge",
                     "longer", "shorter", "nest", "negate", "neighbour"])
    LAST = (op, path)
    if parent is None:
        return json.dumps(data)
    if op == "drop":
        del parent[key]
    elif op == "swap" and isinstance(parent, dict) and len(parent) > 1:
        other = rng.choice([k for k in parent if k != key] or [key])
        parent[key], parent[other] = parent[other], parent[key]
    elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
        j = rng.randrange(len(parent))
        parent[key], parent[j] = parent[j], parent[key]
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(value))
    elif op == "huge":
        parent[key] = rng.choice(HUGE)
    elif op == "negate" and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = -value - 1
    elif op == "neighbour" and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = value + rng.choice([-2, -1, 1, 2])
    elif op == "longer" and isinstance(value, list):
        parent[key] = value + [copy.deepcopy(rng.choice(value)) if value else 0] * rng.choice(
            [1, 3, 1000])
    elif op == "shorter" and isinstance(value, list) and value:
        parent[key] = value[:rng.randrange(len(value))]
    elif op == "nest":   # written by hand: json.dumps itself cannot write 5,000 levels
        depth = rng.choice([3, 70, 5000])
        parent[key] = NEST
        return json.dumps(data).replace(json.dumps(NEST),
                                        "[" * depth + json.dumps(value) + "]" * depth)
    else:
        parent[key] = _other_type(value, rng)
    return json.dumps(data)


def check_mutant(cls: type, text: str, seed: int) -> str:
    """Load ``text``; if it loads, play it to the end.  Returns "refused" or "played";
    anything else (a crash, a broken invariant, a step that fails, a game that does not end,
    too slow) raises AssertionError with the reason."""
    start = time.monotonic()
    try:
        state = cls.from_json(text)
    except InvalidData:
        return "refused"
    except Exception as exc:
        raise AssertionError(f"the loader raised {type(exc).__name__}: {exc}") from exc
    bot = RandomPlayer(seed)
    for step in range(MAX_STEPS):
        try:
            state.check_invariants()
            if state.is_over:
                state.scores()
                again = cls.from_json(state.to_json())
                if again.to_json() != state.to_json():
                    raise AssertionError("the final state does not round-trip")
                return "played"
            state = state.apply(bot.choose(state))
        except AssertionError:
            raise
        except Exception as exc:
            raise AssertionError(f"a loaded save failed at step {step}: "
                                 f"{type(exc).__name__}: {exc}") from exc
        if time.monotonic() - start > TIME_BOUND:
            raise AssertionError(f"a loaded save took over {TIME_BOUND} s to play")
    raise AssertionError(f"a loaded save did not end within {MAX_STEPS} moves")


def one(game: str, seed: int) -> str:
    """Mutate one of ``game``'s saves (chosen by ``seed``) and check it."""
    rng = random.Random(seed)
    cls, text = rng.choice(saves(game))
    return check_mutant(cls, mutate(json.loads(text), rng), seed)


def run(game: str, count: int, first: int = 0) -> dict[str, int]:
    """Check ``count`` mutants; returns how many were refused and played."""
    tally = {"refused": 0, "played": 0}
    for seed in range(first, first + count):
        try:
            tally[one(game, seed)] += 1
        except AssertionError as exc:
            raise AssertionError(f"{game} mutant {seed}: {exc}") from None
    return tally


if __name__ == "__main__":   # python -O tests/hostile/fuzz_support.py GAME COUNT
    name, n = sys.argv[1], int(sys.argv[2])
    print(name, run(name, n), "(python -O)" if sys.flags.optimize else "")
