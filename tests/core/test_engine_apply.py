"""The one way in (``core.engine.apply``): an action taken from the state's list and an equal
one built by hand reach the same ``why()`` and the same handler and give the same state,
whatever the length of the list, whether the game's handlers are a ``Handlers`` table (found
by the action's type, also when a type is added after the game was bound) or one plain
function."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest

from pangaea_lab.core.engine import SHORT_LIST, Handlers, listed
from pangaea_lab.core.errors import IllegalAction
from pangaea_lab.core.game import Game
from pangaea_lab.core.protocol import Action, GameState


@dataclass(frozen=True)
class Add(Action):
    kind: ClassVar[str] = "Add"
    amount: int


@dataclass(frozen=True)
class Stop(Action):
    kind: ClassVar[str] = "Stop"


def _game(handlers_kind: str, choices: int) -> tuple[Game, type, list]:
    """A tiny game: a total, ``choices`` amounts to add to it (0 to choices - 1) or a stop.
    The list of what ``why()`` was asked (the action, and whether it was listed) is returned
    with it."""
    game = Game("counting", "Counting", (1, 1))

    @dataclass(frozen=True)
    class Total(GameState):
        GAME: ClassVar[Any] = game
        total: int = 0
        stopped: bool = False

        num_players = 1
        current_player = 0

        @property
        def is_over(self) -> bool:
            return self.stopped

        def to_json(self) -> str:       # pragma: no cover - not saved here
            return str(self.total)

        @classmethod
        def from_json(cls, text: str) -> "Total":   # pragma: no cover - not saved here
            return cls(int(text))

    asked: list[tuple[Any, bool]] = []

    def legal_actions(state: Total) -> list[Action]:
        return [] if state.stopped else [*(Add(k) for k in range(choices)), Stop()]

    def why(state: Total, action: Action) -> IllegalAction | None:
        known = listed(state, action)
        asked.append((action, known))
        return None if known else state.reject("not now", rule="Counting")

    def add(state: Total, action: Add) -> Total:
        return replace(state, total=state.total + action.amount)

    def stop(state: Total, action: Stop) -> Total:
        return replace(state, stopped=True)

    if handlers_kind == "table":
        handlers: Any = Handlers("Counting")
        handlers.on(Add)(add)
    else:
        def handlers(state: Total, action: Action) -> Total:
            return add(state, action) if isinstance(action, Add) else stop(state, action)
    game.bind(state=Total, actions=Action, legal_actions=legal_actions, why=why,
              handlers=handlers)
    if handlers_kind == "table":
        handlers.on(Stop)(stop)     # a type added after the game was bound
    return game, Total, asked


@pytest.mark.parametrize("handlers_kind", ["table", "function"])
@pytest.mark.parametrize("choices", [1, 7, SHORT_LIST, SHORT_LIST + 1, 200])
def test_listed_and_hand_built_actions_give_one_state_through_why(handlers_kind, choices):
    game, Total, asked = _game(handlers_kind, choices)
    state = Total(total=5)
    actions = state.legal_actions()
    assert len(actions) == choices + 1
    for action in actions:
        made = replace(action)          # equal, built by hand
        assert made == action and made is not action
        del asked[:]
        after = [state.apply(action), game.apply(state, action), state.apply(made)]
        assert asked == [(action, True), (action, True), (made, True)]
        expected = Total(total=5 + getattr(action, "amount", 0), stopped=type(action) is Stop)
        assert after == [expected] * 3
    assert state == Total(total=5)      # the old state never changes


@pytest.mark.parametrize("handlers_kind", ["table", "function"])
def test_an_action_the_state_does_not_list_is_refused_by_why(handlers_kind):
    game, Total, asked = _game(handlers_kind, 3)
    state, stopped = Total(), Total(stopped=True)
    taken = state.legal_actions()[0]
    assert stopped.legal_actions() == []
    for where, action in ((state, Add(3)), (stopped, Add(0)), (stopped, taken)):
        with pytest.raises(IllegalAction, match="not now"):
            where.apply(action)
        assert asked[-1] == (action, False)
