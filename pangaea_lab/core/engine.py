"""The turn machinery every game shares: a working copy, decisions, handler tables and the
front door through which every action enters the rules.

A state is frozen data.  To apply an action, a game's handler takes a :class:`WorkingCopy`
(see :mod:`.working`: the fields it changes thawed into lists), changes it, and freezes it
back into a new state; the old state is never touched, so a refused action leaves nothing
half-changed.

A pending decision says, in plain words, what must be done first:

>>> d = Decision("return-treetop", player=1, must="return a Treetop to your Player Board")
>>> d.words()
'Player 2 must first return a Treetop to your Player Board.'
"""

from __future__ import annotations

from functools import partial
from itertools import repeat
from operator import is_
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .errors import IllegalAction, PangaeaLabError
from .memo import keep
from .validate import guarded_apply
# the working copy lives in its own module; its names are also read from here
from .working import (  # noqa: F401
    WorkingCopy, field_names, freeze, plain_attributes, remake, replaced, thaw)

# ----- decisions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """A decision a player must take before anything else: its ``kind`` (a short label),
    the ``player`` who takes it, what they ``must`` do in plain words (completing "you must
    first ..."), and any game data it carries."""

    kind: str
    player: int
    must: str
    data: tuple = ()

    def words(self, name: Callable[[int], str] | None = None) -> str:
        who = name(self.player) if name else f"Player {self.player + 1}"
        return f"{who} must first {self.must}."

    def refuse(self, rule: str | None = None, alternatives: Iterable[str] = ()) -> IllegalAction:
        """The error for an action that ignores this decision."""
        return IllegalAction(f"you must first {self.must}", rule=rule,
                             alternatives=alternatives)


# ----- handler tables -----------------------------------------------------------------------


class Handlers:
    """The function that applies each type of action: ``handlers = Handlers()``, then
    ``@handlers.on(TakeTokens)`` above ``def take_tokens(state, action)``.

    >>> handlers = Handlers("demo")
    >>> @handlers.on(int)
    ... def double(state, action):
    ...     return state + 2 * action
    >>> handlers(1, 5)
    11
    >>> handlers(1, "x")
    Traceback (most recent call last):
    ...
    pangaea_lab.core.errors.IllegalAction: demo has no rule for a str action
    """

    def __init__(self, game: str = "this game") -> None:
        self.game = game
        self.table: dict[type, Callable[[Any, Any], Any]] = {}

    def on(self, *types: type) -> Callable[[Callable], Callable]:
        def register(fn: Callable) -> Callable:
            for tp in types:
                if tp in self.table:
                    raise TypeError(f"two handlers for {tp.__name__}")
                self.table[tp] = fn
            return fn
        return register

    def lookup(self, tp: type) -> Callable[[Any, Any], Any]:
        for base in tp.__mro__:
            fn = self.table.get(base)
            if fn is not None:
                return fn
        raise IllegalAction(f"{self.game} has no rule for a {tp.__name__} action")

    def __call__(self, state: Any, action: Any) -> Any:
        fn = self.table.get(type(action))
        return (fn or self.lookup(type(action)))(state, action)

    def __contains__(self, tp: type) -> bool:
        return any(base in self.table for base in tp.__mro__)


# ----- legality -----------------------------------------------------------------------------


def legal_set(state: Any) -> frozenset:
    """The state's legal actions as a set, worked out once per state and kept with it
    (``_legal_set``, see :mod:`.memo`)."""
    got = state.__dict__.get("_legal_set")
    if got is None:
        got = keep(state, "_legal_set", frozenset(state.legal_actions()))
    return got


def listed(state: Any, action: Any) -> bool:
    """Is ``action`` among the state's listed legal actions?  The very object taken from the
    list is recognised at once (the one :func:`apply` has just recognised, then
    :func:`is_listed_object`); any other is compared by value.  A game's ``why`` asks this
    first, so that it answers an action it listed itself without working anything out."""
    recognised_state, recognised = _RECOGNISED
    if recognised is action and recognised_state is state:
        return True
    return is_listed_object(state, action) or action in legal_set(state)


def apply(state: Any, action: Any) -> Any:
    """The state after ``action``: the one way into a game's rules.  It is ``state.apply``
    itself (the protocol's method), and ``GAME.apply(state, action)`` calls it, for an action
    taken from the state's list as for one built by hand; the rules are those of the state's
    game (``state.GAME``).

    1. the action's fields are checked against the types its dataclass declares, unless it
       is the very object the state listed (made by the rules, recognised by identity);
    2. the game's ``why(state, action)`` returns the :class:`IllegalAction` that forbids it,
       or ``None`` when the rules allow it (a game's ``why`` answers an action it listed
       itself at once, see :func:`listed`);
    3. the handler for the action's type returns the new state.
    A failure on a value no rule foresaw is reported as :class:`IllegalAction` unless the
    action was legal (then it is the engine's fault and shows as it is).  The old state
    never changes."""
    global _RECOGNISED
    game = state.GAME
    listed_actions = state.__dict__.get("_legal")
    if listed_actions is not None:
        if len(listed_actions) <= SHORT_LIST:
            for item in listed_actions:     # a plain loop costs less to start
                if item is action:
                    break
            else:
                listed_actions = None
        elif not is_listed_object(state, action):
            listed_actions = None
    if listed_actions is None:      # not the very object the state listed: step 1 first
        return guarded_apply(state, action, game.part("actions"),
                             partial(_through_rules, game, state, action), game.title)
    _RECOGNISED = (state, action)
    refusal = (game._why or game.why)(state, action)
    if refusal is not None:
        raise _refused(game, refusal)
    return (game._table.get(type(action)) or game.part("handlers"))(state, action)


def _through_rules(game: Any, state: Any, action: Any) -> Any:
    """Steps 2 and 3 of :func:`apply` for an action its step 1 checked."""
    refusal = game.why(state, action)
    if refusal is not None:
        raise _refused(game, refusal)
    return game.part("handlers")(state, action)


def _refused(game: Any, refusal: Any) -> Exception:
    """The error a game's ``why`` answered, to be raised."""
    if not isinstance(refusal, PangaeaLabError):
        return TypeError(f"{game.title}: why() must return an IllegalAction or None")
    return refusal


#: the state and the action :func:`apply` recognised last as one the state listed (one
#: pair, replaced as a whole: holding both, no other object can take either's ``id``)
_RECOGNISED: tuple[Any, Any] = (None, None)

#: lists of legal actions this long or shorter are scanned at every question
SHORT_LIST = 64


def is_listed_object(state: Any, action: Any) -> bool:
    """Is ``action`` the very object the state listed among its legal actions (taken from
    ``state.legal_actions()``)?  Such an action was built by the rules, so its fields need no
    type check.  Two objects alive at once never share an ``id``, and the listed ones live as
    long as the state.

    A short list (most are) is scanned by identity every time: that costs less than
    building or keeping anything.  A long list is scanned by identity in C, which costs
    less than building the set of ids, and nothing is kept with the state (a game's usual
    question, once per state); a long list asked about twice in a row (a widget or a
    computer player trying several actions on one state) gets the set of its ids kept with
    its state (``_legal_ids``, see :mod:`.memo`).  The action :func:`apply` has just
    recognised is known at once."""
    pair = _RECOGNISED
    if pair[1] is action and pair[0] is state:
        return True
    values = state.__dict__
    listed_actions = values.get("_legal")
    if listed_actions is None:
        return False
    if len(listed_actions) <= SHORT_LIST:
        for item in listed_actions:     # a plain loop costs less to start
            if item is action:
                return True
        return False
    ids = values.get("_legal_ids")
    if ids is None:
        if _LAST_LONG[0] is not listed_actions:
            _LAST_LONG[0] = listed_actions
            return any(map(is_, listed_actions, repeat(action)))
        ids = keep(state, "_legal_ids", frozenset(map(id, listed_actions)))
    return id(action) in ids


#: the long list of actions asked about last (see :func:`is_listed_object`; held here, it
#: is never freed while compared, so it cannot be mistaken for a new list)
_LAST_LONG: list[Any] = [None]
