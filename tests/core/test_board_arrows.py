"""The arrow keys on every board (issue: the app in a real lesson): from every space each
arrow moves to the visually nearest space in its direction when there is one, and the
arrows reach every space from every space.  The browser test
tests/browser/test_browser_drawings.py checks that the board's script in Chromium moves
as :func:`arrow_target` does here."""

from __future__ import annotations

import math

import pytest
from board_spaces import boards, space_centres

from pangaea_lab.core.board_widget import ARROWS, arrow_target


def in_direction(v: tuple[float, float], key: str) -> bool:
    """Within 60 degrees of the arrow (the half-turn of a hexagon either side)."""
    dx, dy = ARROWS[key]
    d = math.hypot(*v)
    return d > 0 and v[0] * dx + v[1] * dy >= 0.49 * d


def off_axis(v: tuple[float, float], key: str) -> float:
    """How far off the arrow's line a step goes, as a share of its length (0: straight)."""
    dx, dy = ARROWS[key]
    return abs(v[0] * dy - v[1] * dx) / math.hypot(*v)


def moves(centres: dict) -> dict[str, dict[str, str]]:
    return {cell: {key: target for key in ARROWS
                   if (target := arrow_target(centres, cell, key)) is not None}
            for cell in centres}


def reached(graph: dict[str, dict[str, str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph[todo.pop()].values():
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@pytest.mark.parametrize("name", sorted(boards()))
def test_each_arrow_goes_to_the_nearest_space_its_way(name):
    centres = space_centres(boards()[name])
    for cell, (x0, y0) in centres.items():
        step = {other: (x - x0, y - y0) for other, (x, y) in centres.items()}
        for key in ARROWS:
            ahead = {o: v for o, v in step.items() if in_direction(v, key)}
            target = arrow_target(centres, cell, key)
            where = f"{name}: {key} from {cell}"
            if not ahead:
                assert target is None, f"{where} goes to {target}, not its way"
                continue
            assert target in ahead, f"{where} goes nowhere or not its way ({target})"
            length = math.hypot(*step[target])
            nearest = min(math.hypot(*v) for v in ahead.values())
            assert length <= 1.5 * nearest, f"{where} skips nearer spaces to {target}"
            better = [o for o, v in ahead.items() if math.hypot(*v) < 0.98 * length
                      and off_axis(v, key) <= off_axis(step[target], key)]
            assert not better, f"{where} goes to {target}, past {better}"


@pytest.mark.parametrize("name", sorted(boards()))
def test_the_arrows_reach_every_space_from_every_space(name):
    centres = space_centres(boards()[name])
    graph = moves(centres)
    for start in centres:
        missing = set(centres) - reached(graph, start)
        assert not missing, f"{name}: from {start} the arrows never reach {sorted(missing)}"


def test_the_spaces_that_went_astray_on_the_pangaea_board():
    """ArrowDown from (1,1) jumped to (0,3) and ArrowUp from (1,2) to (2,0); (1,2) was out of
    reach from (1,1)."""
    centres = space_centres(boards()["pangaea, 2 players"])
    assert arrow_target(centres, "1,1", "ArrowDown") in {"1,2", "0,2"}
    assert arrow_target(centres, "1,2", "ArrowUp") in {"1,1", "2,1"}
    assert "1,2" in reached(moves(centres), "1,1")


@pytest.mark.parametrize("name", ["harmonies, 2 players", "pangaea, 4 players"])
def test_a_key_and_its_opposite_come_back_inside_a_hex_board(name):
    """From a space with all six neighbours (flat- or pointy-topped hexagons)."""
    centres = space_centres(boards()[name])
    step = min(math.dist(a, b) for a in centres.values() for b in centres.values() if a != b)
    back = {"ArrowUp": "ArrowDown", "ArrowDown": "ArrowUp",
            "ArrowLeft": "ArrowRight", "ArrowRight": "ArrowLeft"}
    inside = [cell for cell, c in centres.items()
              if sum(0 < math.dist(c, o) < 1.1 * step for o in centres.values()) == 6]
    assert inside, f"{name}: no space with six neighbours"
    for cell in inside:
        for key, opposite in back.items():
            there = arrow_target(centres, cell, key)
            assert arrow_target(centres, there, opposite) == cell, f"{name}: {key} from {cell}"


def test_the_check_sees_a_bad_move():
    row = {"a": (0.0, 0.0), "b": (10.0, 0.0), "c": (20.0, 0.0)}
    assert arrow_target(row, "a", "ArrowRight") == "b"
    assert reached({"a": {"x": "b"}, "b": {}, "c": {}}, "a") == {"a", "b"}
