"""Hex grid geometry: property tests over many random hexes."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pangaea_lab.core import hexgrid

quick = settings(max_examples=150, deadline=None, database=None)
coord = st.integers(min_value=-60, max_value=60)
hexes = st.tuples(coord, coord)
steps = st.integers(min_value=-20, max_value=20)
orientations = st.sampled_from(hexgrid.ORIENTATIONS)


def test_directions_match_the_documented_order():
    assert hexgrid.neighbours((0, 0))[:2] == ((1, 0), (1, -1))
    assert hexgrid.distance((0, 0), (2, -1)) == 2
    assert len(set(hexgrid.DIRECTIONS)) == 6


@quick
@given(hexes)
def test_neighbours_are_at_distance_one(h):
    around = hexgrid.neighbours(h)
    assert len(set(around)) == 6
    for direction, n in enumerate(around):
        assert hexgrid.distance(h, n) == 1
        assert hexgrid.are_adjacent(h, n)
        assert hexgrid.neighbour(h, direction) == n
        assert hexgrid.neighbour(h, direction + 6) == n
    assert not hexgrid.are_adjacent(h, h)


@quick
@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert hexgrid.distance(a, a) == 0
    assert hexgrid.distance(a, b) == hexgrid.distance(b, a)
    assert hexgrid.distance(a, c) <= hexgrid.distance(a, b) + hexgrid.distance(b, c)
    assert hexgrid.distance(a, b) == hexgrid.distance(hexgrid.sub(a, b), (0, 0))
    assert hexgrid.add(hexgrid.sub(a, b), b) == a


@quick
@given(hexes, hexes, steps)
def test_rotation_by_six_is_identity_and_keeps_distance(h, centre, k):
    assert hexgrid.rotate(h, 6, centre) == h
    assert hexgrid.rotate(h, 0, centre) == h
    assert hexgrid.rotate(hexgrid.rotate(h, k, centre), -k, centre) == h
    turned = hexgrid.rotate(h, k, centre)
    assert hexgrid.distance(turned, centre) == hexgrid.distance(h, centre)
    other = hexgrid.add(h, (1, 2))
    assert hexgrid.distance(turned, hexgrid.rotate(other, k, centre)) == \
        hexgrid.distance(h, other)


def test_rotation_turns_counter_clockwise_through_the_directions():
    # rotating each direction by one sixth gives the next direction in the listed order
    for i, d in enumerate(hexgrid.DIRECTIONS):
        assert hexgrid.rotate(d, 1) == hexgrid.DIRECTIONS[(i + 1) % 6]
    assert hexgrid.rotate((1, 0), 1) == (1, -1)
    assert hexgrid.rotate((3, 1), 2, center=(2, 1)) == (2, 0)


@quick
@given(hexes, st.integers(min_value=0, max_value=12))
def test_ring_sizes_and_distances(centre, k):
    ring = hexgrid.ring(centre, k)
    assert len(ring) == (6 * k if k else 1)
    assert len(set(ring)) == len(ring)
    assert all(hexgrid.distance(centre, h) == k for h in ring)
    # consecutive hexes of a ring touch, and the ring closes
    if k:
        for a, b in zip(ring, ring[1:] + ring[:1]):
            assert hexgrid.are_adjacent(a, b)


@quick
@given(hexes, st.integers(min_value=0, max_value=8))
def test_spiral_holds_every_hex_within_the_radius(centre, radius):
    cells = hexgrid.spiral(centre, radius)
    assert len(cells) == 1 + 3 * radius * (radius + 1)
    assert len(set(cells)) == len(cells)
    assert cells[0] == centre
    assert all(hexgrid.distance(centre, h) <= radius for h in cells)


def test_negative_ring_radius_is_refused():
    with pytest.raises(ValueError, match="negative"):
        hexgrid.ring((0, 0), -1)


@quick
@given(hexes, orientations, st.floats(min_value=0.5, max_value=80))
def test_pixel_round_trip(h, orientation, size):
    x, y = hexgrid.to_pixel(h, size, orientation)
    assert hexgrid.from_pixel(x, y, size, orientation) == h


@quick
@given(hexes, orientations, st.floats(min_value=-0.4, max_value=0.4),
       st.floats(min_value=-0.4, max_value=0.4))
def test_points_inside_a_hex_find_that_hex(h, orientation, fx, fy):
    # a point well inside the inscribed circle (radius sqrt(3)/2 * size) is in the hex
    size = 10.0
    x, y = hexgrid.to_pixel(h, size, orientation)
    assert hexgrid.from_pixel(x + fx * size, y + fy * size, size, orientation) == h


@quick
@given(hexes, orientations)
def test_neighbour_centres_are_one_hex_width_apart(h, orientation):
    x, y = hexgrid.to_pixel(h, 1.0, orientation)
    for n in hexgrid.neighbours(h):
        nx, ny = hexgrid.to_pixel(n, 1.0, orientation)
        assert math.isclose(math.hypot(nx - x, ny - y), math.sqrt(3))


def test_corners_lie_on_the_circumcircle():
    for orientation in hexgrid.ORIENTATIONS:
        cx, cy = hexgrid.to_pixel((2, -1), 5, orientation)
        pts = hexgrid.corners((2, -1), 5, orientation)
        assert len(pts) == 6
        assert all(math.isclose(math.hypot(x - cx, y - cy), 5) for x, y in pts)
    # pointy hexes have a corner straight above the centre, flat ones to the right
    assert any(math.isclose(x, 0, abs_tol=1e-9) for x, _ in hexgrid.corners((0, 0), 1, "pointy"))
    assert any(math.isclose(y, 0, abs_tol=1e-9) for _, y in hexgrid.corners((0, 0), 1, "flat"))


def test_unknown_orientation_and_layout_are_refused():
    with pytest.raises(ValueError, match="orientation"):
        hexgrid.to_pixel((0, 0), 1, "sideways")
    with pytest.raises(ValueError, match="orientation"):
        hexgrid.from_pixel(0, 0, 1, "sideways")
    with pytest.raises(ValueError, match="layout"):
        hexgrid.to_offset((0, 0), "odd-x")
    with pytest.raises(ValueError, match="layout"):
        hexgrid.from_offset(0, 0, "odd-x")


@quick
@given(hexes, st.sampled_from(hexgrid.OFFSET_LAYOUTS))
def test_offset_round_trip_for_every_layout(h, layout):
    col, row = hexgrid.to_offset(h, layout)
    assert hexgrid.from_offset(col, row, layout) == h


@quick
@given(coord, coord, st.sampled_from(hexgrid.OFFSET_LAYOUTS))
def test_offset_to_axial_round_trip(col, row, layout):
    assert hexgrid.to_offset(hexgrid.from_offset(col, row, layout), layout) == (col, row)


def test_offset_layouts_shift_the_documented_rows_and_columns():
    # "odd-r": odd rows are pushed right, so (0, 1) in offset terms is axial (0, 1)
    assert hexgrid.from_offset(0, 1, "odd-r") == (0, 1)
    assert hexgrid.from_offset(0, 1, "even-r") == (-1, 1)
    assert hexgrid.from_offset(1, 0, "odd-q") == (1, 0)
    assert hexgrid.from_offset(1, 0, "even-q") == (1, -1)


@quick
@given(hexes, hexes)
def test_line_length_and_steps(a, b):
    cells = list(hexgrid.line(a, b))
    assert len(cells) == hexgrid.distance(a, b) + 1
    assert cells[0] == a and cells[-1] == b
    for x, y in zip(cells, cells[1:]):
        assert hexgrid.are_adjacent(x, y)


def test_line_along_an_axis():
    assert list(hexgrid.line((0, 0), (3, 0))) == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert list(hexgrid.line((1, 1), (1, 1))) == [(1, 1)]


@quick
@given(st.floats(min_value=-50, max_value=50), st.floats(min_value=-50, max_value=50))
def test_round_hex_picks_the_nearest_centre(q, r):
    h = hexgrid.round_hex(q, r)
    # the chosen hex is at least as close (in cube distance) as any of its neighbours
    def cube_gap(c):
        return max(abs(c[0] - q), abs(c[1] - r), abs((-c[0] - c[1]) - (-q - r)))
    assert all(cube_gap(h) <= cube_gap(n) + 1e-9 for n in hexgrid.neighbours(h))


def test_bounding_box_covers_every_corner():
    cells = hexgrid.spiral((0, 0), 2)
    for orientation in hexgrid.ORIENTATIONS:
        x0, y0, x1, y1 = hexgrid.bounding_box(cells, 10, orientation)
        for h in cells:
            for x, y in hexgrid.corners(h, 10, orientation):
                assert x0 - 1e-9 <= x <= x1 + 1e-9 and y0 - 1e-9 <= y <= y1 + 1e-9
        assert math.isclose(x0, -x1) and math.isclose(y0, -y1)
    assert hexgrid.bounding_box([]) == (0.0, 0.0, 0.0, 0.0)
