"""A board typed in a notebook (The Dawn of Pangaea's ``custom_board``) is checked before
anything is built: every bad entry is refused with ``InvalidData`` naming it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pangaea_lab.core.errors import InvalidData
from pangaea_lab.pangaea import custom_board, new_game

GOOD = {(0, 0): ("land", "Sun"), (1, 0): ("land", "Rain"), (0, 1): ("water", "Sun")}


@pytest.mark.parametrize("spaces, blessing, mountain, named", [
    ([((0, 0), ("land", "Sun"))], (), (), "spaces: expected a mapping"),
    ({}, (), (), "spaces: a board needs"),
    ({(0, 0, 0): ("land", "Sun")}, (), (), "spaces[(0, 0, 0)]"),
    ({(True, 0): ("land", "Sun")}, (), (), "spaces[(True, 0)]"),
    ({(0, 10**30): ("land", "Sun")}, (), (), "coordinates run from"),
    ({(0, 0): ("land",)}, (), (), "expected (terrain, biome)"),
    ({(0, 0): ("hill", "Sun")}, (), (), "terrain must be"),
    ({(0, 0): (["land"], "Sun")}, (), (), "terrain must be"),
    ({(0, 0): ("land", ["Sun"])}, (), (), "expected a biome name"),
    ({(0, 0): ("land", "x" * 500)}, (), (), "expected a biome name"),
    ({(0, 0): ("land", "Sun"), (0, 1): ("land", "Sun"), (0, 2): ("land", "Sun")},
     [(5, 5)], (), "blessing: (5, 5) is not one of the spaces"),
    (GOOD, "ab", (), "blessing: expected a list"),
    (GOOD, 7, (), "blessing: expected a list"),
    (GOOD, (), [(0, 0)], "mountain: (0, 0) is also given as a space"),
    (GOOD, (), [(0, "1")], "mountain[0]"),
])
def test_a_bad_entry_is_named(spaces, blessing, mountain, named):
    with pytest.raises(InvalidData) as refused:
        custom_board(spaces, blessing=blessing, mountain=mountain)
    assert named in str(refused.value)


def test_a_huge_board_is_refused_before_it_is_built():
    many = {(q, r): ("land", "Sun") for q in range(-40, 40) for r in range(-40, 40)}
    with pytest.raises(InvalidData, match="at most 1000 spaces"):
        custom_board(many)

    def endless():
        while True:
            yield (0, 0)
    with pytest.raises(InvalidData, match="at most 1000 spaces"):
        custom_board(GOOD, mountain=endless())


def test_a_good_board_plays():
    board = custom_board(GOOD, blessing=[(0, 1)], mountain=[(5, 5)])
    assert board.land == (0, 2) and len(board.water) == 1
    assert new_game(players=2, seed=0, board=board).legal_actions()


values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4),
                                st.floats()),
                      lambda inner: st.one_of(st.lists(inner, max_size=3),
                                              st.lists(inner, max_size=3).map(tuple)),
                      max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(cells=st.lists(st.one_of(values, st.tuples(st.integers(-3, 3), st.integers(-3, 3))),
                      max_size=4),
       entries=st.lists(st.one_of(values, st.tuples(st.sampled_from(["land", "water", "x"]),
                                                    st.sampled_from(["Sun", "", 3]))),
                        max_size=4),
       blessing=values, mountain=values)
def test_anything_typed_is_a_board_or_invalid_data(cells, entries, blessing, mountain):
    try:
        spaces = dict(zip(cells, entries))
    except TypeError:          # an unhashable key cannot even be typed as a dict
        return
    try:
        custom_board(spaces, blessing=blessing or (), mountain=mountain or ())
    except InvalidData:
        pass
