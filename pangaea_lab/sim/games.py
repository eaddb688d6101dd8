"""What the simulation lab reads from each game: its options, its computer players, how a turn
is recognised, the columns of a game's row and the rows of its event table.

One :class:`GameReader`, made from a game's :class:`~pangaea_lab.core.game.Game`: the title,
the seat range and the option defaults it declares, its computer players (``GAME.bots``), and
what the game itself says about a finished game, its ``summary`` part (a module of the game's
package, ``<game>/summary.py``).  The lab reads states only through the common protocol and
that part, so it names no game's state fields.  A summary part defines any of these functions
(:data:`HOOKS`); the reader falls back on the default of each one it leaves out:

``summary(final)``
    the game-wide columns (a dict); its ``"ended_by"`` says how the game ended, ``"rules"``
    when by the game's own rules (the default), else the label of the modelling assumption
    that stopped it (a safety net such as ``"round-limit"``)
``first_player(first)``
    the seat that began the game (default: the first state's player to move, or 0)
``turn_marker(state)``
    a value that changes exactly when a new turn begins (default: the player to move)
``count_turns(first, final)``
    the turns of the game from its first and final states, for a game that keeps count
    (default: none; the turns are counted with ``turn_marker`` as the game is played)
``seat_scores(final, seat)``
    a seat's score categories, column name -> points (default: the categories of the seat's
    ``scores()``, their names made column names)
``seat_summary(final, seat)``
    a seat's further columns after its score categories (default: none)
``step_events(before, action, after)``
    event rows made by one action (default: none, and nothing is called during play)
``final_events(final)``
    event rows read from the final state, after those collected during play (default: none)
``cooperative(options)``
    whether these options make the players one team that wins or loses together (default:
    never)

>>> reader("harmonies").title, sorted(reader("pangaea").bots)
('Harmonies', ['forester', 'greedy', 'random'])
"""

from __future__ import annotations

import functools
import importlib
import re
from types import ModuleType
from typing import Any, Callable

from ..core.errors import PangaeaLabError
from ..core.game import Game
from ..core.players import Player
from ..core.protocol import GameState
from ..games import GAMES

#: the functions a game's summary part may define (see the module's text)
HOOKS = ("summary", "first_player", "turn_marker", "count_turns", "seat_scores",
         "seat_summary", "step_events", "final_events", "cooperative")


class SimulationError(PangaeaLabError):
    """Arguments or a results file that cannot make (or continue) a simulation run."""


@functools.lru_cache(maxsize=4096)
def slug(name: str) -> str:
    """A category name as a column name: ``"Water (river)"`` -> ``"water_river"`` (kept:
    every game's row asks for the same few names)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _no_columns(*_: Any) -> dict[str, Any]:
    return {}


def _no_rows(final: GameState) -> list[dict[str, Any]]:
    return []


def _first_to_move(first: GameState) -> int:
    return first.current_player or 0


def _to_move(state: GameState) -> Any:
    return state.current_player


def _score_categories(final: GameState, seat: int) -> dict[str, int]:
    return {slug(name): int(points) for name, points in final.scores()[seat].categories}


def _never(options: dict[str, Any]) -> bool:
    return False


#: each hook's default, for a summary part that leaves it out
DEFAULTS: dict[str, Callable[..., Any] | None] = {
    "summary": _no_columns, "first_player": _first_to_move, "turn_marker": _to_move,
    "count_turns": None, "seat_scores": _score_categories, "seat_summary": _no_columns,
    "step_events": None, "final_events": _no_rows, "cooperative": _never}


class GameReader:
    """The lab's view of one game, read from its :class:`~pangaea_lab.core.game.Game`."""

    def __init__(self, game: Game) -> None:
        self.GAME = game
        self.key = game.name
        self.title = game.title

    def __repr__(self) -> str:
        return f"<GameReader of {self.title}>"

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and the most players."""
        return self.GAME.min_players, self.GAME.max_players

    @property
    def options(self) -> dict[str, Any]:
        """Every option with its default (the values ``new_game`` takes as keywords)."""
        return self.GAME.defaults()

    @functools.cached_property
    def module(self) -> ModuleType:
        """The game's package, imported on first use: importing it binds the game's parts."""
        return importlib.import_module(f"pangaea_lab.{self.key}")

    def bound(self) -> Game:
        """The game, its parts bound (its package imported on first use)."""
        return self.module.GAME

    @functools.cached_property
    def hooks(self) -> dict[str, Callable[..., Any] | None]:
        """Every hook of :data:`HOOKS` by name: the one the game's summary part defines,
        else the default."""
        part = self.bound().part("summary")
        return {name: getattr(part, name, DEFAULTS[name]) for name in HOOKS}

    @property
    def bots(self) -> dict[str, type[Player]]:
        """Every computer player of the game by its short name (``GAME.bots``)."""
        return self.bound().bots

    def new_game(self, players: int, seed: int, options: dict[str, Any]) -> GameState:
        return self.bound().new_game(players=players, seed=seed, **options)


#: every game's reader, in the order of :data:`pangaea_lab.games.GAMES` (each reader names
#: the game it reads, ``GAME``)
READERS: dict[str, GameReader] = {game.name: GameReader(game) for game in GAMES}


def reader(game: str) -> GameReader:
    """The reader of a game by its package name, or a plain-words error listing the games."""
    if not isinstance(game, str) or game not in READERS:
        raise SimulationError(f"there is no game called {game!r}; the games are "
                              f"{', '.join(READERS)}")
    return READERS[game]
