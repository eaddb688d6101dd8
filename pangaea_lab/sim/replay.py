"""One game again from its row: :func:`replay` plays it to its final state, and
:func:`replay_widget` opens it in the game's step-through widget, move by move.

A row holds everything that decides its game: the game, the number of players, the options,
the seed and the bot in each seat (after any seat rotation).  The computer player in seat
``s`` of game ``seed`` is made as ``Bot(f"sim-{seed}-{s}")`` (:func:`~.play.bot_seed`), so the
same moves follow.  A row is read like any outside input: every field is checked before a
game is built, and the replayed scores must equal the row's, or the replay is refused.

>>> from pangaea_lab.simulate import simulate
>>> row = simulate("inori", players=2, seeds=[5], bots="greedy,random", progress=False).iloc[0]
>>> final = replay(row)
>>> [s.total for s in final.scores()] == [row.p0_total, row.p1_total]
True
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

from ..core.players import Player
from .games import SimulationError, reader
from .play import RunSpec, bot_seed, options_text, play_states
from .run import make_spec

#: the longest options text a row may hold
MAX_OPTIONS_TEXT = 2000
#: seeds are whole numbers from 0 below this bound (as the results file stores them)
SEED_LIMIT = 2 ** 63


def _field(row: Any, name: str) -> Any:
    try:
        return row[name]
    except (KeyError, IndexError, TypeError):
        raise SimulationError(f"the row has no field {name!r}: give one row of a games "
                              "table (for example table.iloc[0])") from None


def _whole(row: Any, name: str, low: int, high: int) -> int:
    value = _field(row, name)
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()   # a numpy number, as a table row holds it
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < high:
        raise SimulationError(f"the row's {name!r} must be a whole number from {low} below "
                              f"{high}, not {value!r}")
    return value


def parse_options(game: str, text: Any) -> dict[str, Any]:
    """A row's options text (``"side=A, spirits=True"``, ``"-"`` for none) back into the
    game's options, each value of the type of the option's default."""
    read = reader(game)
    if not isinstance(text, str) or len(text) > MAX_OPTIONS_TEXT:
        raise SimulationError("the row's 'options' must be the options text of a games table")
    options: dict[str, Any] = {}
    for item in ([] if text == "-" else text.split(", ")):
        name, sep, value = item.partition("=")
        if not sep or name not in read.options or name in options:
            raise SimulationError(f"the row's 'options' has {item!r}, not an option of "
                                  f"{read.title} written NAME=VALUE once")
        options[name] = _typed(read.options[name], value, name)
    return options


def _typed(default: Any, value: str, name: str) -> Any:
    if isinstance(default, bool):
        if value not in ("True", "False"):
            raise SimulationError(f"the row's option {name!r} must be True or False")
        return value == "True"
    if isinstance(default, int):
        if not value.lstrip("-").isdigit() or len(value) > 20:
            raise SimulationError(f"the row's option {name!r} must be a whole number")
        return int(value)
    return value


def row_spec(row: Any, bots: Mapping[str, type[Player]] | None = None) -> tuple[RunSpec, int]:
    """The run settings and the seed of a row's game, checked field by field.  ``bots`` names
    computer players the lab does not know (a class of your own, by the name the row shows)."""
    game = _field(row, "game")
    read = reader(game if isinstance(game, str) else "")
    low, high = read.players
    players = _whole(row, "players", low, high + 1)
    seed = _whole(row, "seed", 0, SEED_LIMIT)
    options = parse_options(game, _field(row, "options"))
    known: dict[str, Any] = {**read.bots, **dict(bots or {})}
    seat_bots = []
    for seat in range(players):
        name = _field(row, f"p{seat}_bot")
        if not isinstance(name, str) or name not in known:
            raise SimulationError(f"the row's 'p{seat}_bot' is {name!r}, not a computer "
                                  f"player of {read.title} ({', '.join(read.bots)}); pass "
                                  "bots={name: class} for one of your own")
        seat_bots.append(known[name])
    spec = make_spec(game, players, seat_bots, options, events=False, rotate_seats=False)
    if options_text(spec.options) != _field(row, "options"):
        raise SimulationError("the row's 'options' leave out options of the game: give a row "
                              "of a games table as the lab wrote it")
    return spec, seed


def replay(row: Any, bots: Mapping[str, type[Player]] | None = None) -> Any:
    """The final state of the game of ``row`` (one row of a games table, a Series or a dict),
    played again with the same seed, options and seated bots.  Refused if the scores differ
    from the row's (the rules or a bot changed since the run)."""
    spec, seed = row_spec(row, bots)
    final = play_states(spec, seed)[1]
    _check_scores(row, final, spec.players)
    return final


def _check_scores(row: Any, final: Any, players: int) -> None:
    got = [int(s.total) for s in final.scores()]
    want = [_whole(row, f"p{seat}_total", -10**9, 10**9) for seat in range(players)]
    if got != want:
        raise SimulationError(f"replaying seed {_field(row, 'seed')} gives the scores {got}, "
                              f"the row says {want}: the rules or a computer player changed "
                              "since this game was played")


def replay_widget(row: Any, bots: Mapping[str, type[Player]] | None = None) -> Any:
    """The game's step-through widget holding the game of ``row`` from the first move to the
    last (its move slider steps back through it); refused like :func:`replay`."""
    spec, seed = row_spec(row, bots)
    computer = {seat: cls(bot_seed(seed, seat)) for seat, cls in enumerate(spec.bots)}
    # the game's widgets (ipywidgets) are imported only when a widget is asked for
    widgets = importlib.import_module(f"pangaea_lab.{spec.game}.widgets")
    box = widgets.play(players=spec.players, seed=seed, computer=computer, link=False,
                       **dict(spec.options))
    box.model.play_to_end(spec.max_steps)
    _check_scores(row, box.model.state, spec.players)
    return box
