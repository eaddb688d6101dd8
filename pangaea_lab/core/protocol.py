"""The game protocol every game in pangaea_lab follows.

A game is a module with ``new_game(players=..., seed=...)`` returning an immutable
:class:`GameState`.  A state lists its :meth:`~GameState.legal_actions`, and
:meth:`~GameState.apply` returns a *new* state (the old one is never changed), so a history
is just a list of states and undo is free.  Actions are small frozen dataclasses with a
``kind`` (used to group them in the widgets) and a :meth:`~Action.describe` in plain words.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping, Sequence, TypeVar

from .engine import apply as one_way_in
from .errors import IllegalAction, InvalidData

S = TypeVar("S", bound="GameState")


class Action:
    """Base for actions.  Subclasses are ``@dataclass(frozen=True)`` so they are hashable."""

    kind: ClassVar[str] = "action"

    def describe(self) -> str:  # pragma: no cover - every game overrides it
        """One line in plain words, e.g. "Place a Seed on (2, -1) (Sun)"."""
        return repr(self)


@dataclass(frozen=True)
class ScoreBreakdown:
    """A player's points by category, in display order, and their total.

    >>> s = ScoreBreakdown(player=0, categories=(("Rituals", 12), ("Most Trees", 2)))
    >>> s.total, s["Most Trees"]
    (14, 2)
    """

    player: int
    categories: tuple[tuple[str, int], ...]
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def total(self) -> int:
        return sum(points for _, points in self.categories)

    def __getitem__(self, name: str) -> int:
        for key, points in self.categories:
            if key == name:
                return points
        raise KeyError(name)

    def as_dict(self) -> dict[str, int]:
        """Categories and ``"Total"`` as a plain dict."""
        out = dict(self.categories)
        out["Total"] = self.total
        return out


class GameState(ABC):
    """An immutable position of a game, with whose decision it is and what they may do.

    A game's state class is frozen data; its behaviour lives in the game's rules, reached
    through the game's :class:`~pangaea_lab.core.game.Game` object (the class attribute
    ``GAME``): ``legal_actions``, ``apply``, ``scores`` and ``to_svg`` below hand the state to
    the parts the game bound (see ``Game.bind``).  A state class without a ``GAME`` must
    override them itself.  The optional hooks further down (``evaluate``, ``winners``,
    ``check_invariants``, ``player_summary``, ``action_highlight``, ``safety_net``) ask the
    game for the hook of that name it bound, and keep their default when it bound none.
    """

    #: short name of the game, e.g. "pangaea"; also written into save files
    game: ClassVar[str] = "game"
    #: the game's fixed facts and parts (a :class:`pangaea_lab.core.game.Game`)
    GAME: ClassVar[Any] = None

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats the game has."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Index of the player who decides next, or ``None`` when the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended and final scores are known."""

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now, in a stable order (computed once
        per state: states never change)."""
        values = self.__dict__
        cached = values.get("_legal")
        if cached is None:
            game = self.GAME
            listing = game._legal
            cached = listing(self) if listing is not None else game.legal_actions(self)
            if type(cached) is not list and type(cached) is not tuple:
                cached = tuple(cached)
            # kept as the rules made it (never changed, only copies are handed out), written
            # into the table just read: the engine's hottest entry (see core.memo)
            values["_legal"] = cached
        return list(cached)

    #: ``state.apply(action)``: the state after ``action``; raises :class:`IllegalAction` and
    #: changes nothing if the rules forbid it.  The method is the rules' one way in itself,
    #: :func:`.engine.apply` (which ``GAME.apply`` calls too)
    apply = one_way_in

    def scores(self) -> list[ScoreBreakdown]:
        """Each player's points so far (final points once the game is over)."""
        return self.GAME.scores(self)

    @abstractmethod
    def to_json(self) -> str:
        """The whole state as JSON text; ``type(self).from_json`` reads it back exactly."""

    @classmethod
    @abstractmethod
    def from_json(cls: type[S], text: str) -> S:
        """Read a state saved by :meth:`to_json`; raises ``InvalidData`` naming the bad field."""

    # ----- optional hooks with sensible defaults -----------------------------------------
    # The step-through widget, the exercise widget and the computer players call these.

    def player_name(self, player: int) -> str:
        """Display name of a seat."""
        return f"Player {player + 1}"

    def player_summary(self, player: int) -> str:
        """What a player holds, in a line or two of plain words."""
        hook = _hook(self, "player_summary")
        return hook(self, player) if hook is not None else ""

    def to_svg(self, highlight: Iterable[Any] = ()) -> str:
        """The board as an SVG string, with the ``highlight`` cells marked."""
        if self.GAME is not None and self.GAME.has_part("to_svg"):
            return self.GAME.to_svg(self, highlight)
        return "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'></svg>"

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def action_highlight(self, action: Action) -> Sequence[Any]:
        """The board cells an action concerns (the widgets highlight them, and a click on a
        cell selects the actions that concern it).  Cells are whatever the game's drawing
        marks with ``data-cell``; empty when the game has none."""
        hook = _hook(self, "action_highlight")
        return hook(self, action) if hook is not None else ()

    def space_name(self, cell: Any) -> str:
        """A board space as a player reads it on the board ("card 2, space 3"); empty when
        the drawing's own label for the space says it (the widgets then use that)."""
        return ""

    def outcome(self) -> str:
        """How a finished game ended, in words, when the winner-by-points sentence does not
        fit (a co-op win or loss); empty for the usual case."""
        return ""

    def evaluate(self, action: Action, player: int) -> float:
        """How much ``action`` is worth to ``player`` now (the greedy computer player takes
        the best); by default the change in the player's total score."""
        game = self.GAME
        hook = game.hooks.get("evaluate") if game is not None else None
        if hook is not None:
            return hook(self, action, player)
        return self.apply(action).scores()[player].total - self.scores()[player].total

    def safety_net(self) -> str:
        """The safety net that ended this finished game, by the id of the labelled assumption
        that sets it up (e.g. ``"round-limit"``), or ``""`` when the game ended by its own
        rules; by default ``""`` (a game without a net)."""
        hook = _hook(self, "safety_net")
        return hook(self) if hook is not None else ""

    def winners(self) -> list[int]:
        """The players who win (several on a shared victory); empty until the game is over."""
        hook = _hook(self, "winners")
        if hook is not None:
            return hook(self)
        if not self.is_over:
            return []
        totals = [s.total for s in self.scores()]
        best = max(totals)
        return [p for p, t in enumerate(totals) if t == best]

    def check_invariants(self) -> None:
        """Raise :class:`~pangaea_lab.core.validate.InvariantError` if component counts are
        not conserved (the game's hook, or a state class's own method; none by default)."""
        hook = _hook(self, "check_invariants")
        if hook is not None:
            hook(self)

    def reject(self, reason: str, rule: str | None = None,
               like: type | None = None) -> IllegalAction:
        """Build an :class:`IllegalAction` listing a few legal alternatives (of kind ``like``
        where given).  Use as ``raise self.reject(...)``."""
        options = self.legal_actions()
        if like is not None:
            same = [a for a in options if isinstance(a, like)]
            options = same or options
        return IllegalAction(reason, rule=rule, alternatives=[a.describe() for a in options[:5]])


def _hook(state: GameState, name: str) -> Any:
    """The hook ``name`` the state's game bound, or ``None`` (then the protocol's default)."""
    game = state.GAME
    return game.hooks.get(name) if game is not None else None


def group_by_kind(actions: Sequence[Action]) -> dict[str, list[Action]]:
    """Actions grouped by their ``kind`` label, kinds in first-seen order."""
    groups: dict[str, list[Action]] = {}
    for action in actions:
        groups.setdefault(action.kind, []).append(action)
    return groups


def score_gain(before: GameState, after: GameState, player: int) -> int:
    """How many points ``player`` gained between two states."""
    return after.scores()[player].total - before.scores()[player].total


def as_mapping(obj: Any) -> Mapping[str, Any]:
    """Helper for ``from_json``: the object if it is a JSON object, else an error."""
    if not isinstance(obj, dict):
        raise InvalidData(f"expected a JSON object, found {type(obj).__name__}")
    return obj
