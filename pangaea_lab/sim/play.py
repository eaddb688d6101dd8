"""Playing the games of a run: the part that runs in a worker (a local process or a Dask
worker), so it imports no table library and keeps its inputs small and picklable.

>>> spec = RunSpec("inori", 2, (), (RandomPlayer, RandomPlayer), ("random", "random"))
>>> [row["seed"] for row, _ in play_chunk(spec, [3, 4])]
[3, 4]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.players import Player, RandomPlayer  # noqa: F401  (RandomPlayer: doctest)
from .games import SimulationError, reader


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides the games of a run except the seeds."""

    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    bots: tuple[type[Player], ...]
    bot_names: tuple[str, ...]
    events: bool = True
    max_steps: int = 20000
    #: rotate the bots round the seats from game to game (see :func:`seat_bots`)
    rotate_seats: bool = False


def seat_shift(spec: RunSpec, seed: int) -> int:
    """How many seats the line-up moves round the table in game ``seed``: ``seed`` modulo the
    number of players when seats rotate, else 0.  So in seeds 0..n-1, with n a multiple of the
    number of players, every bot of the line-up sits in every seat equally often."""
    return seed % spec.players if spec.rotate_seats else 0


def seat_bots(spec: RunSpec, seed: int) -> list[int]:
    """For each seat of game ``seed``, the place in the line-up (``spec.bots``) of its bot:
    the line-up's bot ``i`` sits in seat ``(i + shift) % players``."""
    shift = seat_shift(spec, seed)
    return [(seat - shift) % spec.players for seat in range(spec.players)]


def bot_seed(seed: int, seat: int) -> str:
    """The seed of the computer player in ``seat`` for game ``seed``: fixed for a game and a
    seat (the seat at the table, after any rotation), so a game is the same whichever worker
    plays it and in whatever order, and is replayed from its row alone.

    >>> bot_seed(12, 1)
    'sim-12-1'
    """
    return f"sim-{seed}-{seat}"


def play_one(spec: RunSpec, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play game ``seed`` to the end: its row and its event rows."""
    first, state, turns, steps, events = play_states(spec, seed)
    return _row(spec, seed, first, state, turns, steps), _events(spec, seed, state, events)


def play_states(spec: RunSpec, seed: int) -> tuple[Any, Any, int, int, list[dict[str, Any]]]:
    """Play game ``seed`` to the end: its first and final states, its turns and actions, and
    the event rows gathered on the way."""
    read = reader(spec.game)
    hooks = read.hooks
    first = state = read.new_game(spec.players, seed, dict(spec.options))
    bots = [spec.bots[i](bot_seed(seed, seat)) for seat, i in enumerate(seat_bots(spec, seed))]
    hook = hooks["step_events"] if spec.events else None
    # turns are read off the final state where the game keeps count, else seen move by move
    count = hooks["count_turns"]
    marker = hooks["turn_marker"] if count is None else None
    events: list[dict[str, Any]] = []
    steps = turns = 0
    last: Any = object()
    limit = spec.max_steps
    while not state.is_over:
        if steps >= limit:
            raise SimulationError(f"game {seed} of {read.title} did not end within "
                                  f"{spec.max_steps} actions")
        if marker is not None:
            mark = marker(state)
            if mark != last:
                turns, last = turns + 1, mark
        action = bots[state.current_player].choose(state)
        after = state.apply(action)
        if hook is not None:
            events += hook(state, action, after)
        state = after
        steps += 1
    if count is not None:
        turns = count(first, state)
    return first, state, turns, steps, events


def _row(spec: RunSpec, seed: int, first: Any, final: Any, turns: int,
         steps: int) -> dict[str, Any]:
    hooks = reader(spec.game).hooks
    winners = final.winners()
    row: dict[str, Any] = {"seed": seed, "game": spec.game, "players": spec.players,
                           "options": options_text(spec.options),
                           "first_player": int(hooks["first_player"](first)),
                           "turns": turns, "steps": steps, "winners": len(winners),
                           "seat_shift": seat_shift(spec, seed),
                           # the game's summary may say otherwise (and keeps this place)
                           "ended_by": "rules",
                           "cooperative": hooks["cooperative"](dict(spec.options))}
    row.update(hooks["summary"](final))
    scores = final.scores()
    for seat, i in enumerate(seat_bots(spec, seed)):
        row[f"p{seat}_bot"] = spec.bot_names[i]
        row[f"p{seat}_won"] = seat in winners
        row[f"p{seat}_total"] = int(scores[seat].total)
        for name, points in hooks["seat_scores"](final, seat).items():
            row[f"p{seat}_{name}"] = points
        for name, value in hooks["seat_summary"](final, seat).items():
            row[f"p{seat}_{name}"] = value
    return row


def _events(spec: RunSpec, seed: int, final: Any,
            during: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not spec.events:
        return []
    rows = during + reader(spec.game).hooks["final_events"](final)
    return [{"seed": seed, "n": n, **row} for n, row in enumerate(rows)]


def play_chunk(spec: RunSpec, seeds: list[int]) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Play several games in a row (one task of a backend)."""
    return [play_one(spec, seed) for seed in seeds]


def options_text(options: tuple[tuple[str, Any], ...]) -> str:
    """Options in one short line, e.g. ``"side=A, spirits=True"`` (``"-"`` for none)."""
    return ", ".join(f"{k}={v}" for k, v in options) or "-"
