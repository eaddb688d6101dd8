"""Checks for everything that comes from outside: saves, editions, typed positions and
hand-built actions.  Shared by the four games.

- :func:`require` raises :class:`InvariantError` when a condition fails.  Unlike ``assert`` it
  stays active under ``python -O``.
- :func:`check_action` compares each field of a hand-built action with the type declared on
  its dataclass, so ``TakeTokens(space="1")`` is refused with :class:`IllegalAction` naming the
  field, before the rules look at it.
- :func:`load_guarded` runs a game's loader and turns any failure that is not one of the
  package's own errors into :class:`InvalidData`, then checks that the loaded position can be
  played on (its legal actions, scores and save text can be computed, and a game that is not
  over has a legal action).
- :func:`count`, :func:`kind_of` describe a value for error messages and check a whole number
  against its declared limits.

>>> require(1 + 1 == 2, "arithmetic")
>>> require(False, "two Spirits share a Water Space")
Traceback (most recent call last):
...
pangaea_lab.core.validate.InvariantError: two Spirits share a Water Space
>>> count(3, "players[0].trees", high=10)
3
>>> count(2**63, "shadow_markers", high=50)
Traceback (most recent call last):
...
pangaea_lab.core.errors.InvalidData: shadow_markers: expected a whole number from 0 to 50, got a number of 19 digits
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import lru_cache
from typing import Any, Callable, TypeVar

from .errors import IllegalAction, InvalidData, PangaeaLabError

T = TypeVar("T")


class InvariantError(AssertionError):
    """A position that breaks the game's own rules of conservation (a piece lost or doubled).

    A subclass of ``AssertionError`` (it reports a broken promise of the engine), raised
    explicitly so that it is never switched off by ``python -O``.  Loaders turn it into
    :class:`InvalidData`."""


def require(condition: object, message: str = "a game invariant does not hold") -> None:
    """Raise :class:`InvariantError` with ``message`` unless ``condition`` is true."""
    if not condition:
        raise InvariantError(message)


def kind_of(value: Any) -> str:
    """A value's JSON kind in plain words, for messages (``a list``, ``a number``...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def show(value: Any) -> str:
    """A value as a short text for an error message (a huge number by its digit count)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_show = show


def count(value: Any, where: str, low: int = 0, high: int = 10_000) -> int:
    """``value`` checked to be a whole number (not true/false) from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidData(f"{where}: expected a whole number, got {kind_of(value)}")
    if not low <= value <= high:
        raise InvalidData(f"{where}: expected a whole number from {low} to {high}, "
                          f"got {_show(value)}")
    return value


# ----- hand-built actions ---------------------------------------------------------------------


@lru_cache(maxsize=None)
def _declared(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints.get(f.name, Any)) for f in dataclasses.fields(cls)
                 if f.compare)


def _fits(value: Any, tp: Any) -> bool:
    """Does ``value`` have the declared type ``tp``?  (ints are not bools; tuples are tuples.)"""
    if tp is Any:
        return True
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arg) for arg in typing.get_args(tp))
    if tp is type(None):
        return value is None
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is bool:
        return isinstance(value, bool)
    if tp in (str, float):
        return isinstance(value, tp) and not isinstance(value, bool)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return len(value) <= 1000 and all(_fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(_fits(v, a) for v, a in zip(value, args))
    if isinstance(tp, type):
        return isinstance(value, tp)
    return True


def _checker(tp: Any) -> Callable[[Any], bool]:
    """A function answering ``_fits(value, tp)``, built once per declared type (the common
    types get a direct test; any other falls back to :func:`_fits`)."""
    if tp is Any:
        return lambda value: True
    if tp is int:
        return lambda value: type(value) is int or (isinstance(value, int)
                                                    and not isinstance(value, bool))
    if tp is str:
        return lambda value: type(value) is str or _fits(value, str)
    origin = typing.get_origin(tp)
    if origin is tuple:
        args = typing.get_args(tp)
        if args == (int, int):
            return lambda value: (type(value) is tuple and len(value) == 2
                                  and type(value[0]) is int and type(value[1]) is int
                                  ) or _fits(value, tp)
    return lambda value: _fits(value, tp)


@lru_cache(maxsize=None)
def _checks(cls: type) -> tuple[tuple[str, Callable[[Any], bool]], ...]:
    """(field name, checker) for each compared field of an action class."""
    return tuple((name, _checker(tp)) for name, tp in _declared(cls))


def _type_words(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_words(a) for a in typing.get_args(tp))
    if tp is type(None):
        return "nothing (None)"
    if tp is int:
        return "a whole number"
    if tp is bool:
        return "True or False"
    if tp is str:
        return "a text"
    if origin is tuple:
        args = typing.get_args(tp)
        if args == (int, int):
            return "a space (q, r) of two whole numbers"
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a tuple of ({_type_words(args[0])})"
        return f"a tuple of {len(args)} items"
    return getattr(tp, "__name__", str(tp))


def check_action(action: Any, base: type | tuple[type, ...], game: str = "this game") -> None:
    """Refuse an action that is not a ``base`` dataclass or whose fields do not have their
    declared types, with :class:`IllegalAction` naming the field."""
    if not isinstance(action, base) or not dataclasses.is_dataclass(action):
        raise IllegalAction(f"{_show(action)} is not an action of {game} (got "
                            f"{kind_of(action)}, {type(action).__name__})")
    fields = _checks(type(action))
    values = action.__dict__ if hasattr(action, "__dict__") else None
    if values is not None and all(name in values and ok(values[name]) for name, ok in fields):
        return
    for name, tp in _declared(type(action)):
        value = getattr(action, name)
        if not _fits(value, tp):
            raise IllegalAction(f"{type(action).__name__}.{name}: expected {_type_words(tp)}, "
                                f"got {kind_of(value)} {_show(value)}")


# ----- loading --------------------------------------------------------------------------------


def load_guarded(what: str, build: Callable[[], T]) -> T:
    """Run ``build()`` (a game's loader) and check the loaded state can be played on.

    Every failure becomes :class:`InvalidData` naming ``what``: the loader's own
    :class:`InvalidData` passes through; an invariant that does not hold, or an error from
    deep inside (a wrong type the loader did not foresee), is reported as an inconsistent
    file."""
    try:
        state = build()
    except InvalidData:
        raise
    except PangaeaLabError as exc:
        raise InvalidData(f"the {what} cannot be loaded: {exc}") from None
    except InvariantError as exc:
        raise InvalidData(f"the {what} is inconsistent: {exc}") from None
    except (RecursionError, MemoryError, OverflowError):
        raise InvalidData(f"the {what} is too large or too deeply nested") from None
    except Exception as exc:  # noqa: BLE001 - a hostile file must never escape as a crash
        raise InvalidData(f"the {what} is malformed ({type(exc).__name__}: {exc})") from None
    probe(state, what)
    return state


def probe(state: Any, what: str) -> None:
    """Check a freshly loaded state answers the protocol's questions without failing: whose
    turn, the legal actions (at least one unless the game is over), scores and save text."""
    try:
        over = state.is_over
        actions = state.legal_actions()
        state.scores()
        state.to_json()
        who = state.current_player
    except PangaeaLabError as exc:
        raise InvalidData(f"the {what} describes a position the rules cannot continue "
                          f"from: {exc}") from None
    except InvariantError as exc:
        raise InvalidData(f"the {what} is inconsistent: {exc}") from None
    except (RecursionError, MemoryError, OverflowError):
        raise InvalidData(f"the {what} is too large or too deeply nested") from None
    except Exception as exc:  # noqa: BLE001
        raise InvalidData(f"the {what} describes a position the rules cannot continue "
                          f"from ({type(exc).__name__}: {exc})") from None
    if over and actions:
        raise InvalidData(f"the {what} says the game is over but lists moves to make")
    if not over and not actions:
        raise InvalidData(f"the {what} describes a game that is not over but where nobody "
                          "can move")
    if not over and (isinstance(who, bool) or not isinstance(who, int)
                     or not 0 <= who < state.num_players):
        raise InvalidData(f"the {what} names no player whose turn it is")


def guarded_apply(state: Any, action: Any, base: type | tuple[type, ...],
                  apply: Callable[[], T], game: str = "this game", typed: bool = False) -> T:
    """The front door of a game's ``apply``: the action's fields are checked against their
    declared types first (:func:`check_action`); then ``apply()`` runs.  If the rules fail on
    an action that is not among the legal ones (a value no rule foresaw, such as a space off
    the board), the failure is reported as :class:`IllegalAction`; the state is unchanged
    either way, because states are never changed in place.  ``typed=True`` says the action
    was made by the rules themselves (one of the listed legal actions): no type check."""
    if not typed:
        check_action(action, base, game)
    try:
        return apply()
    except IllegalAction:
        raise
    except (PangaeaLabError, LookupError, TypeError, ValueError, AttributeError) as exc:
        try:
            legal = action in state.legal_actions()
        except Exception:  # noqa: BLE001 - only used to decide how to report
            legal = False
        if legal:
            raise   # a legal action that fails is the engine's fault: let it show
        raise IllegalAction(f"{type(action).__name__} with these values is not a legal move "
                            f"now ({_show(action)})") from exc
