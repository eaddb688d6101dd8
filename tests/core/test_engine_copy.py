"""The working copy's fast paths give the same results as the plain dataclass machinery:
``remake`` as ``dataclasses.replace``, the per-class field table, and the compiled action
checks as the general type test."""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field
from typing import Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pangaea_lab.core.engine import SHORT_LIST, WorkingCopy, remake
from pangaea_lab.core.errors import IllegalAction
from pangaea_lab.core.validate import _declared, _fits, check_action


@dataclass(frozen=True)
class Plain:
    cells: tuple = ()
    turn: int = 0
    name: str = "x"


@dataclass(frozen=True)
class Checked:
    turn: int = 0

    def __post_init__(self) -> None:
        if self.turn < 0:
            raise ValueError("turn below zero")


@dataclass(frozen=True)
class Derived:
    turn: int = 0
    double: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", 2 * self.turn)


def test_remake_is_replace_for_plain_states():
    old = Plain(cells=((1, 2), (3,)), turn=4)
    object.__setattr__(old, "_legal", ("cached",))
    new = remake(old, {"turn": 5})
    assert new == dataclasses.replace(old, turn=5)
    assert new.cells is old.cells                      # unchanged parts are shared
    assert "_legal" not in new.__dict__                # a cache of the old state is not copied
    with pytest.raises(TypeError):
        remake(old, {"no_such_field": 1})


def test_remake_keeps_the_fields_alone_in_one_plain_dict_in_field_order():
    """What the old value keeps beyond its fields is dropped wherever it sits among them
    (taken off the end, or the fields copied one by one when a kept entry comes first);
    the new value's attributes are one plain dict (a copy made by ``dict()`` is the same
    size; a dict split from its names, as a constructor may leave it, grows)."""
    made = Plain(cells=(1,), turn=2, name="y")
    late = Plain(cells=(1,), turn=2, name="y")
    for key in ("_a", "_b", "_c"):
        object.__setattr__(late, key, key)
    early = object.__new__(Plain)
    object.__setattr__(early, "__dict__", {"_a": 1, "cells": (1,), "_b": 2, "turn": 2,
                                           "name": "y", "_c": 3})
    for old in (made, late, early, remake(late, {})):
        new = remake(old, {"turn": 7})
        assert list(new.__dict__) == ["cells", "turn", "name"]
        assert new == Plain(cells=(1,), turn=7, name="y")
        assert sys.getsizeof(new.__dict__) == sys.getsizeof(dict(new.__dict__))


def test_remake_runs_the_constructor_when_the_class_has_one_to_run():
    with pytest.raises(ValueError):
        remake(Checked(1), {"turn": -1})
    assert remake(Derived(2), {"turn": 3}).double == 6


def test_working_copy_freezes_changed_fields_only():
    old = Plain(cells=((1, 2), (3,)), turn=4)
    w = WorkingCopy(old, {"cells": 2})
    assert w.cells == [[1, 2], [3]] and w.turn == 4
    assert w.freeze() is old                           # nothing changed: the same state
    w.cells[1].append(7)
    w.name = "y"
    new = w.freeze()
    assert new == Plain(cells=((1, 2), (3, 7)), turn=4, name="y")
    assert old.cells == ((1, 2), (3,))                 # the old state is untouched


@dataclass(frozen=True)
class Move:
    space: int
    cell: tuple[int, int]
    colour: str
    spirit: Optional[int] = None
    path: tuple[tuple[int, int], ...] = ()


values = st.one_of(st.integers(-3, 3), st.booleans(), st.text(max_size=3), st.none(),
                   st.floats(allow_nan=False, width=16),
                   st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
                   st.tuples(st.booleans(), st.integers(-3, 3)),
                   st.tuples(st.integers(), st.integers(), st.integers()),
                   st.lists(st.integers(-3, 3), max_size=2),
                   st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=2)
                   .map(tuple))


@given(space=values, cell=values, colour=values, spirit=values, path=values)
def test_the_fast_check_refuses_exactly_what_the_type_test_refuses(space, cell, colour,
                                                                    spirit, path):
    move = Move(space, cell, colour, spirit, path)
    fits = all(_fits(getattr(move, name), tp) for name, tp in _declared(Move))
    if fits:
        check_action(move, Move, "a test")
    else:
        with pytest.raises(IllegalAction):
            check_action(move, Move, "a test")


def test_a_field_to_thaw_is_thawed_when_first_read_or_replaced():
    old = Plain(cells=((1, 2), (3,)), turn=4)
    w = WorkingCopy(old, {"cells": 2})
    assert "cells" not in w.__dict__                   # not read yet: nothing copied
    assert w.freeze() is old
    w = WorkingCopy(old, {"cells": 2})
    w.cells = [[5]]                                    # replaced without being read
    assert w.freeze() == Plain(cells=((5,),), turn=4)
    w = WorkingCopy(old, {"cells": 2})
    with pytest.raises(AttributeError):
        w.no_such_field


def test_a_listed_action_skips_the_type_check_and_an_equal_copy_does_not():
    """The very object a state listed is known to be well made; an equal object built by
    hand is still checked (and refused when a field has the wrong type)."""
    from dataclasses import replace as copy_of

    from pangaea_lab import harmonies
    from pangaea_lab.core.engine import is_listed_object

    state = harmonies.new_game(players=2, seed=4, spirits=False)
    listed = state.legal_actions()[0]                          # take the tokens of a space
    assert is_listed_object(state, listed)
    assert not is_listed_object(state, copy_of(listed))
    assert state.apply(listed) == state.apply(copy_of(listed))
    fresh = harmonies.new_game(players=2, seed=4, spirits=False)   # nothing listed yet
    assert not is_listed_object(fresh, listed)
    with pytest.raises(IllegalAction, match="space"):
        state.apply(copy_of(listed, space="0"))


def test_a_plain_field_is_taken_when_first_read_and_looked_at_only_then():
    old = Plain(cells=((1, 2), (3,)), turn=4, name="x")
    w = WorkingCopy(old, {"cells": 2})
    assert set(w.__dict__) & {"cells", "turn", "name"} == set()   # nothing taken yet
    assert w.turn == 4 and w.name == "x"                          # read: the state's own
    assert w.__dict__["name"] is old.name
    assert w.freeze() is old                                      # read, not changed
    w = WorkingCopy(old, {"cells": 2})
    w.turn = 5                                                    # set without reading
    new = w.freeze()
    assert new == Plain(cells=((1, 2), (3,)), turn=5, name="x") and new.cells is old.cells
    w = WorkingCopy(old, {"cells": 2})
    assert w.freeze(name="z") == dataclasses.replace(old, name="z")
    w = WorkingCopy(old, {"cells": 2})
    w.helper = [1]                                                # not a field: left out
    assert w.freeze() is old


@given(turn=st.integers(-3, 3), name=st.sampled_from(["x", "y"]), read=st.booleans(),
       grow=st.booleans(), set_turn=st.booleans(), set_name=st.booleans())
def test_freezing_the_touched_fields_gives_what_replace_gives(turn, name, read, grow,
                                                               set_turn, set_name):
    old = Plain(cells=((1, 2), (3,)), turn=1, name="x")
    w = WorkingCopy(old, {"cells": 2})
    changes = {}
    if read:
        assert w.cells == [[1, 2], [3]]
    if grow:
        w.cells[0].append(9)
        changes["cells"] = ((1, 2, 9), (3,))
    if set_turn:
        w.turn = turn
        changes["turn"] = turn
    if set_name:
        w.name = name
        changes["name"] = name
    new = w.freeze()
    assert new == dataclasses.replace(old, **changes)
    for name in {"cells", "turn", "name"} - set(changes):
        assert getattr(new, name) is getattr(old, name)       # unchanged parts are shared


@pytest.mark.parametrize("length", [0, 1, 5, SHORT_LIST, SHORT_LIST + 1, 300])
def test_a_listed_object_is_known_by_identity_asked_any_number_of_times(length):
    """Short lists are scanned at every question (nothing is kept); a long list is scanned
    while its questions alternate with those of other lists, and keeps its set of ids once
    asked twice in a row.  Either way only the very listed objects are recognised, every
    time they are asked about."""
    from pangaea_lab.core.engine import is_listed_object

    class Listed:
        pass

    def state_listing(items):
        state = Listed()
        state._legal = items
        return state

    listed = [[k, k] for k in range(length)]            # equal lists are not the same objects
    state = state_listing(listed)
    other = state_listing([[k] for k in range(length)])
    for a in listed:    # questions alternating between two states: each answered by a scan
        assert is_listed_object(state, a) and not is_listed_object(other, a)
        assert "_legal_ids" not in state.__dict__ and "_legal_ids" not in other.__dict__
    for _ in range(3):
        assert all(is_listed_object(state, a) for a in listed)
        assert not any(is_listed_object(state, list(a)) for a in listed)
        assert not is_listed_object(state, object())
    assert ("_legal_ids" in state.__dict__) == (length > SHORT_LIST)
    assert "_legal_ids" not in other.__dict__
