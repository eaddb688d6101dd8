"""The board's ground (spaces, labels, Sacred Mountain, tile borders) is drawn once per board
and reused for every position on it: each picture must be the very one drawn from scratch."""

from __future__ import annotations

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.testing import seeded_positions
from pangaea_lab.pangaea import render


def _fresh(state, **kw) -> str:
    render._drawn.cache_clear()
    return render.board_svg(state, **kw)


@pytest.mark.parametrize("options", [{}, {"mode": "coop"}, {"wild_woods": True}],
                         ids=["base", "coop", "wild-woods"])
def test_kept_ground_gives_the_picture_drawn_afresh(options):
    def new_game(players, seed):
        return pangaea.new_game(players=players if not options else 2, seed=seed, **options)
    checked = 0
    for state in seeded_positions(new_game, seeds=range(2), players=[3], every=37):
        highlight = [state.board.cells[1], state.board.cells[2]]
        kept = render.board_svg(state, highlight=highlight)
        assert kept == render.board_svg(state, highlight=highlight)     # now from the table
        assert kept == _fresh(state, highlight=highlight)
        assert render.board_svg(state, show_coords=False) == _fresh(state, show_coords=False)
        checked += 1
    assert checked >= 4


def test_the_ground_of_one_board_is_not_used_for_another():
    a = pangaea.new_game(players=2, seed=1)
    b = pangaea.new_game(players=2, seed=2)
    assert a.board != b.board
    render._drawn.cache_clear()
    first = a.to_svg()
    assert b.to_svg() == _fresh(b)
    assert a.to_svg() == first


def test_a_board_without_state_is_drawn_from_its_ground():
    board = pangaea.new_game(players=2, seed=3).board
    assert render.board_svg(board=board) == _fresh(None, board=board)
