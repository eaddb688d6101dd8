"""The working copy (``core.working``): changes made through a copy, with its declared table
and nested records, give what ``dataclasses.replace`` gives on the frozen values; what did not
change is shared; what the engine keeps with a value follows ``CARRY`` and ``BLANK``."""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pangaea_lab.core.memo import keep
from pangaea_lab.core.working import (Thaw, WorkingCopy, extended, record, records, replaced,
                                      replaced_in)


@dataclass(frozen=True)
class Seat:
    hand: tuple = ()
    points: int = 0
    tags: tuple = ()


@dataclass(frozen=True)
class Table:
    seats: tuple = ()
    cards: tuple = ()
    turn: int = 0
    bank: Optional[Seat] = None
    marks: tuple = ()


class SeatCopy(WorkingCopy):
    RECORD = Seat
    THAW = {"hand": 1, "tags": Thaw(set, lambda tags: tuple(sorted(tags)))}


class TableCopy(WorkingCopy):
    RECORD = Table
    THAW = {"seats": records(SeatCopy), "cards": 2, "bank": record(SeatCopy)}


class LazySeatCopy(WorkingCopy):
    """The same tables on a class that names no record: fields taken when first read."""
    THAW = SeatCopy.THAW


class LazyTableCopy(WorkingCopy):
    THAW = {"seats": records(LazySeatCopy), "cards": 2, "bank": record(LazySeatCopy)}


def _table(players: int, bank: bool) -> Table:
    return Table(seats=tuple(Seat(hand=(p,), points=p, tags=(p,)) for p in range(players)),
                 cards=((1, 2), (3,), ()), turn=1,
                 bank=Seat(hand=(9,), points=5) if bank else None, marks=(0, 0, 0))


def _apply(w: WorkingCopy, t: Table, op: tuple) -> Table:
    """``op`` made through the copy ``w`` and, on the frozen table ``t``, with
    ``dataclasses.replace``; returns the changed frozen table."""
    kind, k, n = op
    seats = t.seats
    k %= len(seats)
    seat = seats[k]
    if kind == "hand":
        _seat(w, k).hand.append(n)
        new = dataclasses.replace(seat, hand=seat.hand + (n,))
    elif kind == "points":
        _seat(w, k).points += n
        new = dataclasses.replace(seat, points=seat.points + n)
    elif kind == "tag":
        _seat(w, k).tags.add(n)
        new = dataclasses.replace(seat, tags=tuple(sorted({*seat.tags, n})))
    elif kind == "read":
        assert w.seats[k].points == seat.points and list(w.seats[k].hand) == list(seat.hand)
        return t
    elif kind == "seat":
        new = Seat(hand=(n,), points=n)
        w.seats[k] = new
    elif kind == "card":
        i = n % len(t.cards)
        w.cards[i].append(n)
        return dataclasses.replace(t, cards=replaced(t.cards, i, t.cards[i] + (n,)))
    elif kind == "turn":
        w.turn = n
        return dataclasses.replace(t, turn=n)
    elif kind == "mark":
        w.marks = replaced(w.marks, n % 3, n)
        return dataclasses.replace(t, marks=replaced(t.marks, n % 3, n))
    else:       # the bank, one record
        if t.bank is None:
            assert w.bank is None
            return t
        w.bank.points += n
        return dataclasses.replace(t, bank=dataclasses.replace(t.bank, points=t.bank.points + n))
    return dataclasses.replace(t, seats=replaced(seats, k, new))


def _seat(w: WorkingCopy, k: int) -> WorkingCopy:
    """Seat ``k`` of the copy as a copy (a frozen seat put in its place is copied again)."""
    seat = w.seats[k]
    if not isinstance(seat, WorkingCopy):
        seat = w.seats[k] = type(w).THAW["seats"].copy(seat)
    return seat


OPS = st.lists(st.tuples(
    st.sampled_from(["hand", "points", "tag", "read", "seat", "card", "turn", "mark", "bank"]),
    st.integers(0, 5), st.integers(0, 3)), max_size=8)


@settings(max_examples=300, deadline=None)
@given(ops=OPS, players=st.integers(1, 4), bank=st.booleans(), lazy=st.booleans())
def test_changes_through_a_copy_give_what_replace_gives(ops, players, bank, lazy):
    old = _table(players, bank)
    w = (LazyTableCopy if lazy else TableCopy)(old)
    expected = old
    for op in ops:
        expected = _apply(w, expected, op)
    new = w.freeze()
    assert new == expected
    assert _table(players, bank) == old                      # the old table is untouched
    # a plain field or a record put in place counts as changed (checked by identity); a
    # thawed field or an opened record that ends equal is the old value itself
    put = {("seats", k % players) for kind, k, _ in ops if kind == "seat"}
    put |= {name for kind, _, _ in ops for name in ("turn", "marks") if kind == name[:4]}
    if new == old and not put:
        assert new is old                                    # nothing changed: the old one
    for k, (was, now) in enumerate(zip(old.seats, new.seats)):
        if was == now and ("seats", k) not in put:
            assert now is was, k                             # unchanged records are shared
    if old.seats == new.seats and not any(p[0] == "seats" for p in put if type(p) is tuple):
        assert new.seats is old.seats
    for name in ("cards", "turn", "bank", "marks"):
        if getattr(new, name) == getattr(old, name) and name not in put:
            assert getattr(new, name) is getattr(old, name), name


def test_a_record_is_copied_when_first_asked_for_and_only_then():
    old = _table(3, bank=True)
    w = TableCopy(old)
    assert w._opened is None                                  # nothing thawed yet
    assert w.seats[1] is w.seats[1] and w.seats[-1] is w.seats[2]
    assert len(w.seats) == 3 and [s.points for s in w.seats] == [0, 1, 2]
    assert w.freeze() is old                                  # read only: the old table


class NewTableCopy(WorkingCopy):
    """The declared table, always frozen into a new value."""
    RECORD = Table
    THAW = TableCopy.THAW
    BLANK = {"_legal": None}
    ALWAYS_NEW = True


def test_an_always_new_copy_freezes_into_a_new_value_even_when_nothing_changed():
    old = _table(3, bank=True)
    keep(old, "_legal", [1, 2])
    w = NewTableCopy(old)
    assert w.seats[1].points == 1                             # read only
    same = w.freeze()
    assert same == old and same is not old
    assert all(getattr(same, f.name) is getattr(old, f.name) for f in dataclasses.fields(old))
    assert same._legal is None and old._legal == [1, 2]     # a new value starts as BLANK says
    for ops in ([("turn", 0, 2)], [("hand", 1, 3), ("mark", 2, 1)], [("seat", 0, 1)]):
        w, plain = NewTableCopy(old), TableCopy(old)
        for op in ops:
            _apply(w, old, op)
            _apply(plain, old, op)
        assert w.freeze() == plain.freeze() != old


def test_a_declared_copy_is_frozen_once_and_refuses_what_it_does_not_know():
    old = _table(2, bank=False)
    w = TableCopy(old)
    w.turn = 4
    assert w.freeze().turn == 4
    with pytest.raises(RuntimeError):
        w.freeze()
    with pytest.raises(TypeError):
        TableCopy(old).freeze(no_such_field=1)
    with pytest.raises(TypeError):
        TableCopy(Seat())
    with pytest.raises(TypeError):
        class Wrong(WorkingCopy):   # pylint: disable=unused-variable
            RECORD = Seat
            THAW = {"no_such_field": 1}
    with pytest.raises(TypeError):
        class Bad(WorkingCopy):     # pylint: disable=unused-variable
            RECORD = Seat
            THAW = {"hand": "deep"}


class PlainTableCopy(WorkingCopy):
    """A table copy whose seats and bank are plain until a later table adds their copies."""

    __slots__ = ("note",)

    RECORD = Table
    THAW = {"cards": 2}


def test_an_extended_copy_adds_nested_records_and_leaves_its_base_as_it_was():
    old = _table(3, bank=True)
    more = extended(PlainTableCopy, {"seats": records(SeatCopy), "bank": record(SeatCopy)})
    assert issubclass(more, PlainTableCopy) and more.__name__ == "PlainTableCopy"
    w = more(old)
    w.note = "kept in the base's slot"
    w.seats[1].hand.append(7)
    w.bank.points += 5
    w.cards[0].append(9)
    new = w.freeze()
    assert new == dataclasses.replace(
        old, seats=(old.seats[0], dataclasses.replace(old.seats[1], hand=(*old.seats[1].hand, 7)),
                    old.seats[2]),
        bank=dataclasses.replace(old.bank, points=old.bank.points + 5),
        cards=((*old.cards[0], 9), *old.cards[1:]))
    assert new.seats[0] is old.seats[0] and new.seats[2] is old.seats[2]
    plain = PlainTableCopy(old)
    assert plain.seats is old.seats and plain.bank is old.bank   # the base: plain fields
    assert more(old).freeze() is old
    with pytest.raises(TypeError):
        extended(WorkingCopy, {"seats": records(SeatCopy)})
    with pytest.raises(TypeError):
        extended(PlainTableCopy, {"no_such_field": 1})


class KeepingSeatCopy(WorkingCopy):
    RECORD = Seat
    CARRY = {"_total": ("hand",), "_both": ("hand", "points")}
    BLANK = {"_legal": None}


def _kept_seat(listed: bool, extra: bool) -> "Seat":
    """A seat keeping two entries, and its listed actions and an undeclared entry if asked."""
    old = Seat(hand=(1, 2), points=3)
    keep(old, "_total", 3)
    keep(old, "_both", "both")
    if listed:
        keep(old, "_legal", ["listed"])
    if extra:
        keep(old, "_other", "gone")
    return old


@given(change_hand=st.booleans(), change_points=st.booleans(), set_total=st.booleans(),
       listed=st.booleans(), extra=st.booleans())
def test_what_a_value_keeps_follows_carry_and_blank(change_hand, change_points, set_total,
                                                    listed, extra):
    old = _kept_seat(listed, extra)
    w = KeepingSeatCopy(old)
    if change_hand:
        w.hand = (1, 2, 4)
    if change_points:
        w.points = 9
    if set_total:
        w._total = 99
    new = w.freeze()
    if new is old:
        assert not (change_hand or change_points or set_total)
        return
    kept = new.__dict__
    assert kept["_legal"] is None                             # what a new value starts with
    assert "_other" not in kept                               # not declared: left behind
    assert kept.get("_total") == (99 if set_total else None if change_hand else 3)
    assert kept.get("_both") == (None if change_hand or change_points else "both")
    assert new == dataclasses.replace(old, hand=(1, 2, 4) if change_hand else old.hand,
                                      points=9 if change_points else old.points)


def test_one_entry_replacements():
    assert replaced((1, 2, 3), 0, 7) == (7, 2, 3)
    assert replaced((1, 2, 3), -1, 7) == (1, 2, 7)
    with pytest.raises(IndexError):
        replaced((1, 2, 3), 3, 7)
    rows = ((1, 2), (3, 4))
    new = replaced_in(rows, 0, 1, 9)
    assert new == ((1, 9), (3, 4)) and new[1] is rows[1]


@given(hand=st.sampled_from([None, (1, 2), (5,)]), points=st.sampled_from([None, 3, 7]),
       listed=st.booleans(), extra=st.booleans())
def test_a_successor_built_directly_is_what_the_copy_freezes(hand, points, listed, extra):
    """The fast path (``successor``: the fields replaced, nothing looked at) and the copy
    give equal values; both start the new value with ``BLANK``, leave undeclared kept
    entries behind and keep the ``CARRY`` ones whose fields did not change (the fast path
    keeps every ``CARRY`` entry: its caller replaces those its changes make wrong)."""
    old = _kept_seat(listed, extra)
    changes = {name: value for name, value in (("hand", hand), ("points", points))
               if value is not None}
    w = KeepingSeatCopy(old)
    for name, value in changes.items():
        setattr(w, name, value)
    direct = KeepingSeatCopy.successor(old, changes)
    frozen = w.freeze()
    assert direct == frozen == dataclasses.replace(old, **changes)
    assert direct is not old
    assert direct.__dict__["_legal"] is None and "_other" not in direct.__dict__
    assert direct.__dict__["_total"] == 3 and direct.__dict__["_both"] == "both"
    if frozen is not old:
        moved = {name for name in changes if changes[name] is not getattr(old, name)}
        for name, needs in KeepingSeatCopy.CARRY.items():
            if not moved & set(needs):
                assert frozen.__dict__[name] == direct.__dict__[name]
    fresh = KeepingSeatCopy.fresh(old)
    assert set(fresh) == {"hand", "points", "tags", "_total", "_both", "_legal"}
    assert sys.getsizeof(fresh) == sys.getsizeof(dict(fresh))      # one plain table


class HelpedTableCopy(WorkingCopy):
    RECORD = Table
    THAW = {"cards": 2, "marks": 1}
    __slots__ = ("note",)


@given(lazy=st.booleans(), thaw_first=st.booleans())
def test_peek_reads_without_thawing_and_helpers_are_never_frozen(lazy, thaw_first):
    old = _table(2, bank=False)
    w = WorkingCopy(old, {"cards": 2, "marks": 1}) if lazy else HelpedTableCopy(old)
    if thaw_first:
        w.marks[0] = 5
        assert w.peek("marks") == [5, 0, 0]
    else:
        assert w.peek("marks") is old.marks                   # not thawed by a peek
        w.marks = replaced(w.peek("marks"), 0, 5)             # one entry, nothing thawed
        assert w.peek("marks") == (5, 0, 0)
    w.note = "a helper"
    new = w.freeze()
    assert new == dataclasses.replace(old, marks=(5, 0, 0))
    assert "note" not in new.__dict__


@pytest.mark.parametrize("lazy", [False, True])
def test_a_list_set_on_a_thawed_field_is_frozen_like_a_thawed_one(lazy):
    """A handler may set a thawed field to a new list (the field's thawed form, given whole):
    the frozen value holds tuples all the same, equal to the old field when equal, and a
    later tuple set on the field replaces the list."""
    copy = LazyTableCopy if lazy else TableCopy
    old = _table(2, bank=True)
    w = copy(old)
    w.cards = [[5], [6, 7]]
    w.seats[0].hand = [4, 4]
    new = w.freeze()
    assert new.cards == ((5,), (6, 7)) and new.seats[0].hand == (4, 4)
    assert type(new.cards) is tuple and all(type(row) is tuple for row in new.cards)
    w = copy(old)
    w.cards = [list(row) for row in old.cards]
    assert w.freeze() is old
    w = copy(old)
    w.cards = [[1]]
    w.cards = ((2,),)
    assert w.freeze().cards == ((2,),)
