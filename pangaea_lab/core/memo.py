"""What the engine remembers about a frozen value: the one place where a result worked out
from a state (or from a part of it: a player area, a forest) is kept and found again.

States are plain data.  A state, a player area or a forest never changes once made, so a
result computed from it alone (its legal actions, the cards still open in an area, a board
view, the empty slots of a forest, the save text) stays true for as long as the value lives:
it is kept with the value the first time and read back afterwards, and nothing ever needs
clearing.  What may be kept is therefore only what the value itself determines: never
something that depends on the edition being loaded, on a player, on a clock, or on another
state.  What is kept is no field: it does not change what the value equals, hashes to,
prints as or saves, and a copy or a pickle of the value leaves it behind (a game's
``__getstate__`` keeps its fields only).

Where it lives.  The memory of a value is a set of entries beside its fields, each under a
name that begins with ``_`` (``_open``, ``_view``, ``_legal`` ...) and that no class defines,
written by :func:`keep` (or in a :func:`kept_table`) and only there, past the frozen
dataclass's refusal to be changed; a :class:`kept_property` keeps its result under its own
name, which the class defines as that property.  No game package writes a value's attributes
itself, nor keeps a result any other way (a test reads every game module for it): the
engine's own entries on a state are its legal actions as listed (``_legal``), as a set
(``_legal_set``) and, for a long list asked about twice, the set of their ids
(``_legal_ids``), see :mod:`.engine`.  The one entry written elsewhere is the first: the
protocol's ``legal_actions`` stores ``_legal`` straight into the attribute table it has
just read, once for every state a game passes through (through :func:`keep`, a call of its
own, it would add several hundred instructions to every step of a game).  It is read back
as a plain attribute with a default, ``getattr(area, "_open", None)``: ``None`` means "not
worked out yet", and the read costs no more than a field's (hot paths read it so, with no
call of their own).  No table keyed by the value is needed: such a table would hash a whole
state (or hold a weak reference and a callback per state), where an entry beside the fields
costs one lookup and goes when the value goes.

How a successor is made in one step.  A handler in a hurry makes the next state from a copy
of the old one's attributes (:func:`attributes`, fields and kept entries in one block), with
the fields that change replaced and the kept entries that the change makes wrong replaced or
dropped, and then :func:`plain_object` turns that dict into the new value without running the
constructor.  Such a dict is one plain table: Python reads an attribute of the value from the
place it found that attribute in the last value of the same shape.  A value made by its
constructor keeps its values apart from the names instead; once its attributes are asked for
as a dict (the protocol asks every state), the dict keeps that split form, and so does its
copy, whose attributes Python then looks up by name at every read.  That is why an entry that
is "not worked out yet" is written as ``None`` rather than left out by a handler that copies
states: the attributes of consecutive states keep one shape and copy in one block.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Pile:
...     cards: tuple = ()
>>> pile = Pile((3, 1))
>>> getattr(pile, "_sorted", None) is None
True
>>> keep(pile, "_sorted", tuple(sorted(pile.cards)))
(1, 3)
>>> pile._sorted, pile == Pile((3, 1)), pile
((1, 3), True, Pile(cards=(3, 1)))
>>> nxt = plain_object(Pile, attributes(pile))
>>> nxt == pile, nxt._sorted
(True, (1, 3))
"""

from __future__ import annotations

from typing import Any, Callable

_PUT = object.__setattr__
_NEW = object.__new__
_DICT = dict


def keep(value: Any, name: str, result: Any) -> Any:
    """Keep ``result`` (worked out from ``value`` alone) with ``value`` under ``name``;
    returns ``result``."""
    value.__dict__[name] = result       # (``object.__setattr__`` costs twice as much)
    return result


def kept_table(value: Any, name: str) -> dict:
    """The table ``name`` kept with ``value``, made empty the first time: for a value that
    keeps many results of one kind (one per card, per player, per question asked).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Pile:
    ...     cards: tuple = ()
    >>> pile = Pile((3, 1))
    >>> kept_table(pile, "_sorted")["cards"] = (1, 3)
    >>> kept_table(pile, "_sorted"), pile == Pile((3, 1))
    ({'cards': (1, 3)}, True)
    """
    values = value.__dict__
    table = values.get(name)
    if table is None:
        table = values[name] = {}
    return table


class KeptTable:
    """A class attribute that hands each instance its own table, made empty on the first ask
    and kept with the instance (the instance's own entry is found first afterwards: this is
    not a data descriptor).  ``_cache: ClassVar[Any] = KeptTable("_cache")``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, value: Any, owner: type | None = None) -> Any:
        if value is None:
            return self
        table: dict = {}
        value.__dict__[self.name] = table
        return table


class kept_property:  # noqa: N801 - named as the decorator it is, like ``property``
    """A property worked out from the value alone, the first time it is asked for, and kept
    with the value under the property's own name (through :func:`keep`): afterwards the
    value's own entry is found before the property (this is not a data descriptor), so a
    read costs no more than a field's.  For a frozen value, or an object made once and read
    all game long (a board, the spaces' ready-made actions).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Pile:
    ...     cards: tuple = ()
    ...     @kept_property
    ...     def ordered(self):
    ...         return tuple(sorted(self.cards))
    >>> pile = Pile((3, 1))
    >>> pile.ordered, pile.ordered is pile.ordered, pile == Pile((3, 1))
    ((1, 3), True, True)
    """

    def __init__(self, work: Callable[[Any], Any]) -> None:
        self.work = work
        self.name = work.__name__
        self.__doc__ = work.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, value: Any, owner: type | None = None) -> Any:
        if value is None:
            return self
        return keep(value, self.name, self.work(value))


def attributes(value: Any) -> dict[str, Any]:
    """A new dict of ``value``'s attributes, its fields and what it keeps, copied in one block:
    the attributes of a successor once the caller has replaced what changes (see the module's
    words) and made it with :func:`plain_object`."""
    return _DICT(value.__dict__)


def fields_of(value: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """A new dict of ``value``'s fields ``names`` alone, nothing it keeps included."""
    values = value.__dict__
    return {name: values[name] for name in names}


def plain_object(cls: type, values: dict[str, Any]) -> Any:
    """A new ``cls`` (a plain frozen dataclass) whose attributes are the dict ``values`` itself,
    made without its constructor (see the module's words on why one plain table)."""
    new = _NEW(cls)
    _PUT(new, "__dict__", values)
    return new
