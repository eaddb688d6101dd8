"""The working copy: the mutable copy of a frozen state that one action changes.

A state is frozen data.  To apply an action, a game's handler makes a :class:`WorkingCopy` of
it, changes the copy, and freezes the copy into a new state; the old state is never touched,
so a refused action leaves nothing half-changed.

Every field of the state is an attribute of the copy.  A field is either plain (taken as it
is, to be replaced rather than changed) or thawed (turned into something to change in place,
lists most often, when the action first reads it: most actions touch a few fields).  Freezing
builds the new state: a thawed field is frozen back and kept as the old value when equal; a
plain field counts as changed only when it was replaced (checked by identity, never by
comparing large values).  When nothing changed, the old state itself comes back.

How a game declares its copy.  A subclass of :class:`WorkingCopy` names the frozen class it
copies (``RECORD``) and, in ``THAW``, how each field to thaw is thawed; the fields it leaves
out are plain.  A field's entry is one of:

* a whole number: the depth of nested tuples turned into lists (``{"cells": 2}``);
* ``Thaw(thaw, freeze)``: a pair of functions, for anything a depth does not say (a set, a
  dict, lists inside pairs);
* ``records(SomeCopy)``: the field holds a tuple of frozen records (one per player, say);
  ``copy.field[k]`` is record ``k``'s own working copy (a ``SomeCopy``), made when first asked
  for, with its own declared table; ``copy.field[k] = record`` puts a frozen record in its
  place;
* ``record(SomeCopy)``: the field holds one frozen record (or ``None``), given as its working
  copy when first read.

A table that must name a copy class defined later (above the module of the declaring class)
is completed there: :func:`extended` gives a subclass with further entries.

A nested copy is frozen with the copy that holds it: a record that did not change is the old
record itself, and a tuple of records in which none changed is the old tuple, so every
unchanged part stays shared with the old state.

Two more declarations say what happens to what the engine keeps with a frozen value (see
:mod:`.memo`): ``BLANK`` gives the entries a new value starts with (a "not worked out yet"
``None`` keeps the attributes of consecutive states in one shape); ``CARRY`` names, for each
kept entry, the fields it is worked out from: the new value keeps the old one's entry when
none of those fields changed.  A kept entry set on the copy itself (``copy._view = ...``), when
``CARRY`` names it, is the new value's.  Every other kept entry is left behind, and so is any
attribute of the copy that is not a field (a helper a game sets on it).  A game adds its own
small operations as methods of its subclass.

A declared copy starts from the old value's attributes, copied in one block: they become the
new value's when it is frozen, so a declared copy is frozen once.  Before it is frozen, its
attributes are compared with the old value's, one by one, to give back the old value when
nothing changed; a class whose every use changes something (a game where every action does)
declares ``ALWAYS_NEW = True`` and is spared that comparison: its copy always freezes into a
new value, equal to the old one if nothing changed.

A class that names no ``RECORD`` is made the copy of the first value it is given and takes
each field when first read (``WorkingCopy(value, depths)`` gives its depths there and then,
for a one-off).

The fast path.  A handler that replaces a few fields and nothing else may build the new value
directly, without a copy: ``SomeCopy.successor(value, changes)``, or ``SomeCopy.fresh(value)``
(the new value's attributes, to change before making it with :func:`.memo.plain_object`).
Both follow the same declarations (``BLANK``; the ``CARRY`` entries are kept as they are, and
the caller replaces those its changes make wrong) and give what the copy gives (a test holds
them to it); a copy costs a few objects and calls more, which matters only for the handlers
that a random game runs millions of times.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Seat:
...     hand: tuple = ()
...     points: int = 0
>>> @dataclass(frozen=True)
... class Table:
...     seats: tuple = ()
...     cards: tuple = ()
...     turn: int = 0
>>> class SeatCopy(WorkingCopy):
...     RECORD = Seat
...     THAW = {"hand": 1}
>>> class TableCopy(WorkingCopy):
...     RECORD = Table
...     THAW = {"seats": records(SeatCopy), "cards": 2}
>>> old = Table(seats=(Seat((1,)), Seat((2,))), cards=((1, 2), (3,)))
>>> w = TableCopy(old)
>>> w.seats[1].hand.append(5); w.seats[1].points += 2; w.cards[0].append(9); w.turn = 1
>>> new = w.freeze()
>>> new
Table(seats=(Seat(hand=(1,), points=0), Seat(hand=(2, 5), points=2)), cards=((1, 2, 9), (3,)), turn=1)
>>> new.seats[0] is old.seats[0]
True

A copy may also be made with a table of depths given there and then, for a one-off:

>>> w = WorkingCopy(old, {"cards": 2})
>>> w.cards[1].append(4); w.freeze().cards
((1, 2), (3, 4))
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache, partial
from operator import is_, itemgetter
from typing import Any, Callable, ClassVar, Mapping

from .memo import plain_object

# ----- thawing and freezing values ----------------------------------------------------------


def thaw(value: Any, depth: int = 1) -> Any:
    """Tuples turned into lists, ``depth`` levels deep (items below stay as they are)."""
    if depth <= 0 or not isinstance(value, tuple):
        return value
    if depth == 1:
        return list(value)
    return [thaw(v, depth - 1) for v in value]


def freeze(value: Any) -> Any:
    """Lists turned back into tuples, at every depth (a flat list in one step)."""
    if type(value) is not list:
        return value
    if list in set(map(type, value)):
        return tuple(freeze(v) for v in value)
    return tuple(value)


def replaced(items: tuple, k: int, value: Any) -> tuple:
    """``items`` with entry ``k`` replaced by ``value``: a new tuple that shares the other
    entries (one change to a long field, without thawing it).

    >>> replaced((1, 2, 3), 1, 9)
    (1, 9, 3)
    """
    if k < 0:
        k += len(items)
    if not 0 <= k < len(items):
        raise IndexError(f"no entry {k} in a tuple of {len(items)}")
    return items[:k] + (value,) + items[k + 1:]


def replaced_in(rows: tuple, p: int, k: int, value: Any) -> tuple:
    """``rows`` with entry ``k`` of row ``p`` replaced by ``value`` (the other rows, and the
    other entries of row ``p``, shared).

    >>> replaced_in(((1, 2), (3, 4)), 1, 0, 9)
    ((1, 2), (9, 4))
    """
    return replaced(rows, p, replaced(rows[p], k, value))


# ----- the fields of a frozen dataclass -----------------------------------------------------

_FIELDS: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields set by its constructor (looked up once per class)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.init)
    return names


def _plain(cls: type) -> bool:
    """May a new instance of ``cls`` be made by copying field values (no ``__post_init__``,
    no slots, every field set by the constructor)?"""
    return (not hasattr(cls, "__post_init__") and "__slots__" not in cls.__dict__
            and len(field_names(cls)) == len(dataclasses.fields(cls)))


@lru_cache(maxsize=None)
def _field_set(cls: type) -> frozenset[str]:
    """:func:`field_names` as a set (made once per class)."""
    return frozenset(field_names(cls))


def remake(old: Any, changes: Mapping[str, Any]) -> Any:
    """``dataclasses.replace(old, **changes)`` for a frozen dataclass, made without running the
    constructor when it does nothing but store the fields (the new value shares every
    unchanged field with ``old``; values cached on ``old`` are not carried over).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> remake(Point(1, 2), {"y": 5})
    Point(x=1, y=5)
    """
    cls = type(old)
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = (_plain(cls), len(field_names(cls)), _field_set(cls))
    plain, size, fields = shape
    if not plain:
        return dataclasses.replace(old, **changes)
    if not fields.issuperset(changes):
        name = next(name for name in changes if name not in fields)
        raise TypeError(f"{cls.__name__} has no field {name!r}")
    values = old.__dict__
    # the old attributes copied in one block, then what the old value keeps beyond its
    # fields (added after them) taken off the end; should a field come last, the fields
    # are copied one by one instead
    fresh = _DICT(values)
    extra = len(fresh) - size
    if extra > 0:
        while extra > 0:
            if fresh.popitem()[0] in fields:
                fresh = {name: values[name] for name in field_names(cls)}
                break
            extra -= 1
        else:
            fresh = _DICT(fresh)    # sized for its fields alone (one plain table: see memo)
    fresh.update(changes)
    return plain_object(cls, fresh)


#: class -> (may it be made by copying its fields (see ``_plain``), how many fields it has,
#: their names as a set), worked out once per class
_SHAPES: dict[type, tuple[bool, int, frozenset[str]]] = {}


_SET = object.__setattr__
_NEW = object.__new__
_DICT = dict


def plain_attributes(obj: Any) -> Any:
    """``obj`` itself, its attributes moved into one plain dict (see :mod:`.memo`):
    for an object made once and read all game long (a board, an edition), whose ``__dict__``
    something asks for."""
    _SET(obj, "__dict__", dict(obj.__dict__))
    return obj


# ----- how a field is thawed ----------------------------------------------------------------


class Thaw:
    """How a field of a working copy is thawed (``thaw``, from the frozen value) and frozen
    back (``freeze``, to a value equal to the old one when nothing changed)."""

    __slots__ = ("thaw", "freeze")

    def __init__(self, thaw: Callable[[Any], Any], freeze: Callable[[Any], Any]) -> None:
        self.thaw = thaw
        self.freeze = freeze


class Nested:
    """A field holding frozen records, each copied by its own working copy class ``copy``:
    a tuple of them (``many``) or one (or ``None``).  Made by :func:`records` and
    :func:`record`."""

    __slots__ = ("copy", "many")

    def __init__(self, copy: type["WorkingCopy"], many: bool) -> None:
        if not (isinstance(copy, type) and issubclass(copy, WorkingCopy)):
            raise TypeError("a nested record is copied by a WorkingCopy class")
        self.copy = copy
        self.many = many


def records(copy: type["WorkingCopy"]) -> Nested:
    """A field holding a tuple of records, each given as a ``copy`` when first asked for."""
    return Nested(copy, True)


def record(copy: type["WorkingCopy"]) -> Nested:
    """A field holding one record (or ``None``), given as a ``copy`` when first read."""
    return Nested(copy, False)


class Records(dict):
    """A field holding a tuple of records, in a working copy: ``field[k]`` is record ``k`` as
    its own working copy, made when first asked for (and the same copy afterwards);
    ``field[k] = value`` puts a frozen record (or a copy) in its place.  Its length and its
    order are the tuple's; :meth:`freeze` gives the new tuple."""

    __slots__ = ("frozen", "make")

    def __init__(self, make: Callable[[Any], Any], frozen: tuple) -> None:  # pylint: disable=super-init-not-called
        # (an empty dict: the records are added as they are asked for)
        self.frozen = frozen
        self.make = make

    def __missing__(self, k: int) -> Any:
        if k < 0:
            return self[k + len(self.frozen)]
        value = self[k] = self.make(self.frozen[k])
        return value

    def __len__(self) -> int:
        return len(self.frozen)

    def __iter__(self) -> Any:
        return map(self.__getitem__, range(len(self.frozen)))

    def freeze(self) -> tuple:
        """The records as the action left them: the old tuple itself when none changed."""
        frozen = self.frozen
        out = None
        for k, value in dict.items(self):
            if isinstance(value, WorkingCopy):
                value = value.freeze()
            if value is not frozen[k]:
                if out is None:
                    out = list(frozen)
                out[k] = value
        return frozen if out is None else tuple(out)


def _freeze_many(value: Any) -> Any:
    return value.freeze() if type(value) is Records else value


def _freeze_one(value: Any) -> Any:
    return value.freeze() if isinstance(value, WorkingCopy) else value


class _Field:
    """A plain field of a working copy, taken from the state when first read: the value is
    kept on the copy, which hides this from then on."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, w: Any, owner: type | None = None) -> Any:
        if w is None:
            return self
        value = w.__dict__[self.name] = w.state.__dict__[self.name]
        return value


class _Thawed(_Field):
    """A field of a working copy thawed when first read (``thaw``)."""

    __slots__ = ("thaw",)

    def __init__(self, name: str, thaw: Callable[[Any], Any]) -> None:
        super().__init__(name)
        self.thaw = thaw

    def __get__(self, w: Any, owner: type | None = None) -> Any:
        if w is None:
            return self
        name = self.name
        value = w.__dict__[name] = self.thaw(w.state.__dict__[name])
        return value


def _depth(n: int) -> Callable[[Any], Any]:
    if n == 1:
        return lambda value: list(value) if type(value) is tuple else thaw(value, 1)
    return lambda value: thaw(value, n)


def _one(make: type["WorkingCopy"]) -> Callable[[Any], Any]:
    return lambda value: value if value is None else make(value)


class _Opened:
    """A field to thaw of a declared working copy (see :class:`WorkingCopy`): thawed from the
    value in the copy's attributes when first read, and kept among the copy's opened fields;
    setting it replaces the value (to be thawed again if read).  A list set on it is a thawed
    value given whole: it is kept among the opened fields, so that freezing freezes it as it
    does a field thawed by reading (a frozen value holds no list)."""

    __slots__ = ("name", "thaw")

    def __init__(self, name: str, thaw: Callable[[Any], Any]) -> None:
        self.name = name
        self.thaw = thaw

    def __get__(self, w: Any, owner: type | None = None) -> Any:
        if w is None:
            return self
        opened = w._opened
        if opened is None:
            opened = w._opened = {}
        elif self.name in opened:
            return opened[self.name]
        value = opened[self.name] = self.thaw(w.__dict__[self.name])
        return value

    def __set__(self, w: Any, value: Any) -> None:
        opened = w._opened
        if type(value) is list:
            if opened is None:
                opened = w._opened = {}
            opened[self.name] = value
            return
        if opened is not None:
            opened.pop(self.name, None)
        w.__dict__[self.name] = value


def _prepare(cls: type["WorkingCopy"], kind: type) -> None:
    """Make ``cls`` the working copy of ``kind``: the tables that freezing reads, and a
    descriptor for each field to thaw (for a class that declares no ``RECORD``, for every
    field: it is taken when first read).  The fields ``cls`` or a base of its own already
    defines are left as they are."""
    names = field_names(kind)
    if "state" in names:
        raise TypeError(f"{kind.__name__} has a field named 'state', the copy's own name")
    table = cls.THAW
    unknown = [name for name in table if name not in names]
    if unknown:
        raise TypeError(f"{cls.__name__}.THAW names {unknown[0]!r}, no field of "
                        f"{kind.__name__}")
    declared = cls._DECLARED
    how: dict[str, Callable[[Any], Any]] = {}
    compare = set()
    for name in names:
        entry = table.get(name)
        if entry is None:
            if declared:
                continue        # a plain field is among the copy's attributes from the start
            field: Any = _Field(name)
        else:
            thawing, how[name], same = _how(cls, name, entry)
            if same:
                compare.add(name)
            if declared:
                field = _Opened(name, thawing)
            elif isinstance(entry, Nested) and entry.many:
                field = _Thawed(name, partial(Records, entry.copy))  # a tuple of records
            else:
                field = _Thawed(name, thawing)
        found = getattr(cls, name, _OTHER)
        if found is _OTHER or isinstance(found, (_Field, _Opened)):
            setattr(cls, name, field)
    cls._HOW = how
    cls._THAWED = frozenset(how)
    cls._COMPARE = frozenset(compare)
    cls._FIELDS = frozenset(names)
    cls._SIZE = len(names)
    cls._PLAIN = _plain(kind)
    cls._BLANK_NAMES = frozenset(cls.BLANK)
    cls._USUAL = frozenset(cls.BLANK) | frozenset(cls.CARRY)
    cls._OF_FIELDS = itemgetter(*names) if len(names) > 1 else (lambda v: (v[names[0]],))
    cls._RECORD = kind


def _how(cls: type, name: str, entry: Any) -> tuple[Callable, Callable, bool]:
    """(thaw, freeze, compare the frozen value with the old one) for a ``THAW`` entry."""
    if isinstance(entry, Nested):
        if entry.many:
            make = entry.copy
            return (lambda value: Records(make, value) if type(value) is tuple else value,
                    _freeze_many, False)
        return _one(entry.copy), _freeze_one, False
    if isinstance(entry, Thaw):
        return entry.thaw, entry.freeze, True
    if isinstance(entry, int) and not isinstance(entry, bool) and entry >= 0:
        return _depth(entry), freeze, True
    raise TypeError(f"{cls.__name__}.THAW[{name!r}] is {entry!r}: a depth, a Thaw, "
                    "records(...) or record(...)")


_FAST_PATH = """
def fresh(value):
    values = _DICT(value.__dict__)
    if {check}:
        values = _sorted_out(cls, values)
{blank}    return values


def successor(value, changes):
    values = _DICT(value.__dict__)
    if {check}:
        values = _sorted_out(cls, values)
{blank}    values.update(changes)
    new = _NEW(type(value))
    _SET(new, "__dict__", values)
    return new
"""


def _fast_path(cls: type["WorkingCopy"]) -> None:
    """Give ``cls`` its ``fresh`` and ``successor`` (see :class:`WorkingCopy`), written out
    for its table: what a value usually keeps (its ``CARRY`` and ``BLANK`` entries) is
    recognised by its size and names, and ``BLANK`` set entry by entry."""
    usual = sorted(set(cls.CARRY) | set(cls.BLANK))
    check = f"len(values) != {cls._SIZE + len(usual)}"
    if len(usual) <= 3:
        check += "".join(f" or {name!r} not in values" for name in usual)
    else:
        check += " or not values.keys() >= usual"
    blank = "".join(f"    values[{name!r}] = blank[{name!r}]\n" for name in cls.BLANK)
    space = {"_DICT": _DICT, "_NEW": _NEW, "_SET": _SET, "_sorted_out": _sorted_out,
             "cls": cls, "usual": frozenset(usual), "blank": dict(cls.BLANK)}
    exec(_FAST_PATH.format(check=check, blank=blank), space)  # pylint: disable=exec-used
    cls.fresh = staticmethod(space["fresh"])
    cls.successor = staticmethod(space["successor"])
    if not cls._PLAIN:      # made by its constructor, which has more to do than store fields
        cls.fresh = staticmethod(_no_fresh(cls))
        cls.successor = staticmethod(lambda value, changes: dataclasses.replace(value,
                                                                                **changes))


def _no_fresh(cls: type["WorkingCopy"]) -> Callable[[Any], dict[str, Any]]:
    def fresh(value: Any) -> dict[str, Any]:
        raise TypeError(f"a {cls._RECORD.__name__} is made by its constructor: use "
                        f"{cls.__name__}.successor")
    return fresh


def _sorted_out(cls: type["WorkingCopy"], values: dict[str, Any]) -> dict[str, Any]:
    """``values`` without the kept entries a successor leaves behind (all but ``CARRY``)."""
    carry = cls.CARRY
    dropped = [name for name in values.keys() - cls._FIELDS
               if name not in carry or name in cls.BLANK]
    for name in dropped:
        del values[name]
    return _DICT(values) if dropped else values     # (one plain table again: see memo)


#: not a field of the record a copy copies
_OTHER = object()


#: (copy class, record class, depths) -> the copy class with those depths (see WorkingCopy)
_WITH_DEPTHS: dict[tuple, type] = {}


def _with_depths(cls: type["WorkingCopy"], kind: type, depths: Mapping[str, int]) -> type:
    key = (cls, kind, tuple(sorted(depths.items())))
    found = _WITH_DEPTHS.get(key)
    if found is None:
        found = _WITH_DEPTHS[key] = type(cls)(cls.__name__, (cls,), {
            "THAW": dict(depths), "__module__": cls.__module__, "__doc__": cls.__doc__})
    return found


def extended(cls: type["WorkingCopy"], more: Mapping[str, Any]) -> type:
    """A subclass of the declared copy class ``cls`` whose ``THAW`` adds the entries
    ``more``: for a field whose copy class only a part of the game made later knows (a
    variant's record, say), so that the class declaring the copy need not name it.  A new
    class each call: a caller that asks often keeps the class it was given."""
    if not cls._DECLARED:
        raise TypeError(f"{cls.__name__} declares no RECORD to extend")
    return type(cls)(cls.__name__, (cls,), {
        "RECORD": cls._RECORD, "THAW": {**cls.THAW, **more}, "__slots__": (),
        "__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__})


# ----- the working copy ---------------------------------------------------------------------


class _CopyClass(type):
    """The type of the working copy classes: a class that declares its ``RECORD`` keeps the
    old value (``state``) and its opened fields in two slots, out of its attributes, which
    are the new value's attributes in the making (a game keeps its own helpers on such a copy
    in ``__slots__`` of its own)."""

    def __new__(mcls, name: str, bases: tuple, ns: dict[str, Any], **kwargs: Any) -> Any:
        if ns.get("RECORD") is not None and not any(getattr(b, "_DECLARED", False)
                                                    for b in bases):
            own = ns.get("__slots__", ())
            ns["__slots__"] = ("state", "_opened", *((own,) if isinstance(own, str) else own))
            ns["_DECLARED"] = True
        return super().__new__(mcls, name, bases, ns, **kwargs)


class WorkingCopy(metaclass=_CopyClass):
    """A mutable copy of a frozen dataclass value (a state, or a record within one), used
    while one action is applied (see the module's words).

    ``RECORD`` is the class copied, ``THAW`` how its fields are thawed, ``BLANK`` and
    ``CARRY`` what happens to what the engine keeps with a value, ``ALWAYS_NEW`` that a
    declared copy freezes into a new value without first comparing its attributes with the
    old value's.

    A class that declares its ``RECORD`` starts from the old value's attributes copied in one
    block (the new value's, once changed); a field to thaw is thawed when first read.  A
    class that names no ``RECORD`` is made the copy of the first value it is given, and takes
    each field when first read; ``WorkingCopy(value, depths)`` gives the depths there and
    then.  Both freeze alike.
    """

    RECORD: ClassVar[type | None] = None
    THAW: ClassVar[Mapping[str, Any]] = {}
    BLANK: ClassVar[Mapping[str, Any]] = {}
    CARRY: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    ALWAYS_NEW: ClassVar[bool] = False

    # made from the declarations above (see ``_prepare``)
    _DECLARED: ClassVar[bool] = False
    _RECORD: ClassVar[type | None] = None
    _HOW: ClassVar[dict[str, Any]] = {}
    _THAWED: ClassVar[frozenset[str]] = frozenset()
    _COMPARE: ClassVar[frozenset[str]] = frozenset()
    _FIELDS: ClassVar[frozenset[str]] = frozenset()
    _SIZE: ClassVar[int] = 0
    _PLAIN: ClassVar[bool] = False
    _BLANK_NAMES: ClassVar[frozenset[str]] = frozenset()
    _USUAL: ClassVar[frozenset[str]] = frozenset()
    _OF_FIELDS: ClassVar[Callable[[Any], tuple]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("RECORD")
        if kind is not None:
            _prepare(cls, kind)
            _fast_path(cls)
            if "__init__" not in cls.__dict__ and cls.__init__ is WorkingCopy.__init__:
                cls.__init__ = _declared_init
            if "freeze" not in cls.__dict__ and cls.freeze is WorkingCopy.freeze:
                cls.freeze = _declared_freeze

    # The fast path, made for each class that declares its RECORD (see ``_fast_path``):
    #
    # fresh(value) -> dict: the attributes of a successor of ``value``, built directly rather
    #     than through a copy (for a handler that replaces a few fields and nothing else,
    #     where a copy would cost more than the rule): ``value``'s attributes copied in one
    #     block, what it keeps dropped except the ``CARRY`` entries (kept as they are: the
    #     caller replaces or drops those its changes make wrong), then ``BLANK``.  The caller
    #     replaces the fields that change and makes the value with :func:`.memo.plain_object`.
    # successor(value, changes): ``value`` with the fields in ``changes`` replaced, built
    #     so (``changes`` names fields only).
    fresh: ClassVar[Callable[[Any], dict[str, Any]]]
    successor: ClassVar[Callable[[Any, Mapping[str, Any]], Any]]

    def __init__(self, state: Any, depths: Mapping[str, int] | None = None) -> None:
        if self._DECLARED:
            if depths is not None:
                raise TypeError(f"{type(self).__name__} declares its table")
            _declared_init(self, state)
            return
        self.state = state
        kind = type(state)
        if depths is not None:
            self.__class__ = _with_depths(type(self), kind, depths)
        if self._RECORD is not kind:
            _prepare(type(self), kind)

    def peek(self, name: str) -> Any:
        """A field as it stands, without thawing it (to read, not to change): its thawed
        value once thawed, else the value held (a one-entry change made with
        :func:`replaced` is set so, without thawing the field)."""
        if self._DECLARED:
            opened = self._opened
            if opened is not None and name in opened:
                return opened[name]
            return self.__dict__[name]
        return self.__dict__.get(name, self.state.__dict__[name])

    def freeze(self, **override: Any) -> Any:
        """The new value: the fields that changed, plus ``override`` (fields set as they are);
        the old value itself when nothing changed (unless the class says ``ALWAYS_NEW``).
        (A subclass's own ``freeze`` ends here: with no fields to set, none are passed on.)"""
        if self._DECLARED:
            return _declared_freeze(self, **override) if override else _declared_freeze(self)
        now = self.__dict__
        state = now["state"]
        before = state.__dict__
        how = self._HOW
        changes = {}
        # only the fields the action read or set are looked at
        for name in self._FIELDS.intersection(now):
            value = now[name]
            old = before[name]
            if value is old:
                continue
            if name in how:
                value = _frozen(self, name, value, old)
                if value is old:
                    continue
            changes[name] = value
        if override:
            _check_fields(self, state, override)
            changes.update(override)
        kept = self.CARRY and self.CARRY.keys() & now.keys()
        if not changes and not kept:
            return state
        if not self._PLAIN:
            return dataclasses.replace(state, **changes)
        if not (self.CARRY or self.BLANK):
            return remake(state, changes)
        values = _DICT(before)
        values.update(changes)
        for name in kept or ():
            values[name] = now[name]
        return _finished(self, state, values)


def _frozen(w: WorkingCopy, name: str, value: Any, old: Any) -> Any:
    """The thawed field ``name`` frozen back (the old value itself when equal)."""
    value = w._HOW[name](value)
    if value is not old and name in w._COMPARE and value == old:
        return old
    return value


def _check_fields(w: WorkingCopy, state: Any, override: Mapping[str, Any]) -> None:
    if not w._FIELDS.issuperset(override):
        name = next(name for name in override if name not in w._FIELDS)
        raise TypeError(f"{type(state).__name__} has no field {name!r}")


def _finished(w: WorkingCopy, state: Any, values: dict[str, Any]) -> Any:
    """The new value made of ``values``, its fields and what it keeps (see :func:`_kept`)."""
    blank = w.BLANK
    if len(values) - w._SIZE != len(blank) or (blank and not values.keys() >= w._BLANK_NAMES):
        values = _kept(w, state.__dict__, values)
    elif blank:
        values.update(blank)
    new = _NEW(type(state))
    _SET(new, "__dict__", values)
    return new


def _kept(w: WorkingCopy, before: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with what the new value keeps: of the old value's kept entries, those that
    stay true (``CARRY``) and those set on the copy; then ``BLANK``."""
    blank = w.BLANK
    carry = w.CARRY
    dropped = False
    for name in values.keys() - w._FIELDS:
        needs = carry.get(name)
        if needs is not None and name not in blank:
            if values[name] is not before.get(name, _OTHER):
                continue            # set on the copy
            for need in needs:
                if values[need] is not before[need]:
                    break
            else:
                continue            # worked out from fields that did not change
        del values[name]
        dropped = True
    if dropped:
        values = _DICT(values)      # (one plain table again: see memo)
    if blank:
        values.update(blank)
    return values


def _declared_init(self: WorkingCopy, state: Any) -> None:
    """A copy of ``state`` for a class that declares its ``RECORD``: its attributes are the
    state's, copied in one block."""
    if type(state) is not self._RECORD:
        raise TypeError(f"{type(self).__name__} copies a {self._RECORD.__name__}, not a "
                        f"{type(state).__name__}")
    self.state = state
    self._opened = None
    _SET(self, "__dict__", _DICT(state.__dict__))


def _declared_freeze(self: WorkingCopy, **override: Any) -> Any:
    """:meth:`WorkingCopy.freeze` for a class that declares its ``RECORD``: the copy's
    attributes become the new value's (the copy is used up: its attributes are emptied)."""
    state = self.state
    before = state.__dict__
    values = self.__dict__
    if not values:
        raise RuntimeError(f"this {type(self).__name__} was frozen already")
    opened = self._opened
    if opened:
        how = self._HOW
        for name, value in opened.items():
            old = before[name]
            value = how[name](value)
            if value is not old and name in self._COMPARE and value == old:
                value = old
            values[name] = value
    if override:
        _check_fields(self, state, override)
        values.update(override)
    elif (not self.ALWAYS_NEW and len(values) == len(before)
          and all(map(is_, values.values(), before.values()))):
        return state
    if not self._PLAIN:
        return dataclasses.replace(state, **dict(zip(field_names(type(state)),
                                                     self._OF_FIELDS(values))))
    _SET(self, "__dict__", {})
    self._opened = None
    blank = self.BLANK
    if len(values) - self._SIZE != len(blank) or (blank and not values.keys() >= self._BLANK_NAMES):
        values = _kept(self, before, values)
    elif blank:
        values.update(blank)
    new = _NEW(type(state))
    _SET(new, "__dict__", values)
    return new
