"""The Game object: what stays fixed for one game, apart from any position.

Each game package declares one :class:`Game` in its ``game.py``: its name, how many may play,
its options (allowed values, defaults, a line of words each) and, once the package is
imported, its parts (the setup function, the state class, the rules and the drawing).  The
catalogue, the widgets, the simulation lab and every seat or option check read from it, so a
seat range or an option default is written once.

>>> g = Game("demo", "A demo game", seats=(2, 4),
...          options=[Option("side", "A", values=("A", "B"), doc="board side")])
>>> g.seats, g.defaults()
(range(2, 5), {'side': 'A'})
>>> g.check_options({"side": "B"})
{'side': 'B'}
>>> g.check_options({"colour": "red"})
Traceback (most recent call last):
...
pangaea_lab.core.errors.InvalidSetup: A demo game has no option 'colour'; its options are: side
>>> g.check_players(5)
Traceback (most recent call last):
...
pangaea_lab.core.errors.InvalidSetup: A demo game is played by 2 to 4 players, not 5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from .engine import apply as one_way_in
from .errors import IllegalAction, InvalidSetup

#: the parts a game package binds to its Game (see :meth:`Game.bind`)
PARTS = ("new_game", "state", "actions", "legal_actions", "why", "handlers", "scores",
         "to_svg", "load_edition", "bots", "link",
         "summary")

#: the state's hooks a game may bind in place of the protocol's defaults (see
#: :class:`~.protocol.GameState`): a state's ``evaluate(action, player)`` asks its game for
#: the ``evaluate`` part, and so on; a game that binds none keeps the default
HOOKS = ("evaluate", "winners", "check_invariants", "player_summary", "action_highlight",
         "safety_net")


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same kind (True is not 1)."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _words(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class Option:
    """One option of a game: its name, default, allowed ``values`` (or, when any value of a
    ``kind`` will do, ``values=None``), and a line of plain words for menus and errors.
    ``seats`` pairs values with the seats a game has when that value is chosen (narrower
    than the game's own, e.g. a mode that is also played solo), see :meth:`Game.players_for`."""

    name: str
    default: Any
    values: tuple[Any, ...] | None = None
    kind: type | tuple[type, ...] = object
    doc: str = ""
    seats: tuple[tuple[Any, tuple[int, int]], ...] = ()

    def check(self, value: Any, title: str) -> Any:
        """``value`` if this option allows it, else :class:`InvalidSetup` naming the option."""
        if self.values is not None:
            if not any(_same(value, v) for v in self.values):
                allowed = ", ".join(repr(v) for v in self.values)
                raise InvalidSetup(f"{title}: option {self.name} must be one of {allowed}, "
                                   f"not {_words(value)}")
            return value
        kinds = self.kind if isinstance(self.kind, tuple) else (self.kind,)
        if (isinstance(value, bool) and bool not in kinds and object not in kinds) \
                or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise InvalidSetup(f"{title}: option {self.name} must be {names}, "
                               f"not {_words(value)}")
        return value


class Game:
    """A game's fixed facts and its parts.  States refer to their game (``state.GAME``)."""

    def __init__(self, name: str, title: str, seats: tuple[int, int],
                 options: Iterable[Option] = (), own_parts: Iterable[str] = ()) -> None:
        self.name = name
        self.title = title
        self.min_players, self.max_players = seats
        self.options: dict[str, Option] = {o.name: o for o in options}
        self._parts: dict[str, Any] = {}
        #: the names of the parts only this game has (``Game.bind`` refuses any other name
        #: outside :data:`PARTS` and :data:`HOOKS`)
        self.own_parts: tuple[str, ...] = tuple(own_parts)
        #: the state's hooks the game bound (name -> function of the state, see HOOKS)
        self.hooks: dict[str, Callable[..., Any]] = {}
        # the parts every step of a game calls, held directly (see bind)
        self._legal: Callable[[Any], list] | None = None
        self._why: Callable[[Any, Any], IllegalAction | None] | None = None
        self._handlers: Callable[[Any, Any], Any] | None = None
        #: the handlers' table by action type, when they are a ``Handlers`` table (else empty)
        self._table: dict[type, Callable[[Any, Any], Any]] = {}

    def __repr__(self) -> str:
        return f"<Game {self.name}: {self.title}, {self.min_players}-{self.max_players} players>"

    # ----- facts ------------------------------------------------------------------------

    @property
    def seats(self) -> range:
        """The allowed numbers of players."""
        return range(self.min_players, self.max_players + 1)

    def players_for(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """The fewest and the most players with these options (the others at their
        defaults): the game's seats, narrowed by the seats an option declares for its value.

        >>> g = Game("demo", "A demo game", seats=(1, 4), options=[
        ...     Option("mode", "", values=("", "solo"), seats=(("", (2, 4)),))])
        >>> g.players_for({}), g.players_for({"mode": "solo"})
        ((2, 4), (1, 4))
        """
        low, high = self.min_players, self.max_players
        for name, option in self.options.items():
            value = options.get(name, option.default)
            for chosen, (fewest, most) in option.seats:
                if _same(chosen, value):
                    low, high = max(low, fewest), min(high, most)
        return low, high

    def defaults(self) -> dict[str, Any]:
        """Every option with its default value."""
        return {name: o.default for name, o in self.options.items()}

    def check_players(self, players: Any) -> int:
        """``players`` if the game can seat that many, else :class:`InvalidSetup`."""
        if isinstance(players, bool) or not isinstance(players, int) \
                or players not in self.seats:
            raise InvalidSetup(f"{self.title} is played by {self.min_players} to "
                               f"{self.max_players} players, not {_words(players)}")
        return players

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The chosen options checked one by one, with the defaults of the others filled in."""
        chosen = self.defaults()
        for name, value in options.items():
            option = self.options.get(name)
            if option is None:
                known = ", ".join(self.options) or "none"
                raise InvalidSetup(f"{self.title} has no option {name!r}; its options are: "
                                   f"{known}")
            chosen[name] = option.check(value, self.title)
        return chosen

    # ----- parts ------------------------------------------------------------------------

    def bind(self, **parts: Any) -> None:
        """Attach the package's parts (called once, by the package's ``__init__``): the
        setup function ``new_game``, the ``state`` class, the ``actions`` base class(es),
        ``legal_actions(state)``, ``why(state, action)`` (an :class:`IllegalAction` or
        ``None``), the ``handlers`` table, ``scores(state)``, ``to_svg(state, highlight)``,
        ``load_edition``, the computer players ``bots`` (name -> class), the ``link``
        spec (what a page's link may set) and the ``summary`` module (what the simulation
        lab reads from a game, see :mod:`pangaea_lab.sim.games`); the state's
        hooks named in :data:`HOOKS` (each a function of the state and the hook's
        arguments); and the parts the game declared as its own (``own_parts``)."""
        unknown = set(parts) - set(PARTS) - set(HOOKS) - set(self.own_parts)
        if unknown:
            raise TypeError(f"unknown parts for {self.name}: {', '.join(sorted(unknown))}")
        self._parts.update(parts)
        self.hooks.update((name, parts[name]) for name in HOOKS if name in parts)
        self._legal = self._parts.get("legal_actions")
        self._why = self._parts.get("why")
        self._handlers = self._parts.get("handlers")
        table = getattr(self._handlers, "table", None)
        self._table = table if table is not None else {}

    def part(self, name: str) -> Any:
        try:
            return self._parts[name]
        except KeyError:
            raise RuntimeError(f"{self.title} has no part {name!r} bound; import the game's "
                               "package (pangaea_lab.<game>) first") from None

    def has_part(self, name: str) -> bool:
        return name in self._parts

    def new_game(self, players: int = 2, seed: int | str = 0, **options: Any) -> Any:
        """A new seeded game (the package's ``new_game``)."""
        return self.part("new_game")(players=players, seed=seed, **options)

    def from_json(self, text: str | bytes) -> Any:
        """A state read from a save (the state class's ``from_json``)."""
        return self.part("state").from_json(text)

    def load_edition(self, source: Any = None) -> Any:
        """The game's component data: the shipped edition, or one given explicitly."""
        return self.part("load_edition")(source)

    @property
    def bots(self) -> dict[str, type]:
        return dict(self.part("bots")) if self.has_part("bots") else {}

    # ----- the turn engine's front door -------------------------------------------------

    def legal_actions(self, state: Any) -> list:
        listing = self._legal
        return (listing or self.part("legal_actions"))(state)

    def apply(self, state: Any, action: Any) -> Any:
        """The state after ``action``: the rules' one way in, :func:`~.engine.apply`, which
        is also ``state.apply`` (the action's fields checked unless the state listed this very
        object, then the game's ``why(state, action)``, then the handler for its type)."""
        return one_way_in(state, action)

    def why(self, state: Any, action: Any) -> IllegalAction | None:
        return self.part("why")(state, action)

    def scores(self, state: Any) -> list:
        return self.part("scores")(state)

    def to_svg(self, state: Any, highlight: Iterable[Any] = ()) -> str:
        return self.part("to_svg")(state, highlight)

