"""The SVG builder: deterministic, escaped, and sized to fit a board."""

from pangaea_lab.core import hexgrid
from pangaea_lab.core.svg import Svg, _num, hex_canvas

import toy_game


def build():
    pic = hex_canvas(hexgrid.spiral((0, 0), 1), 12, background="#fff")
    for i, h in enumerate(hexgrid.spiral((0, 0), 1)):
        pic.hexagon(h, 12, fill="#9c6", title=f"cell {h}", class_="cell")
        x, y = hexgrid.to_pixel(h, 12)
        pic.circle(x, y, 3.333333, fill="red")
        pic.text(x, y, str(i), size=7)
    pic.line(0, 0, 1 / 3, 2 / 3, stroke="black")
    pic.polyline([(0, 0), (1, 1)], stroke="blue")
    pic.rect(0, 0, 5, 5, fill="none", stroke_width=2)
    return pic.render()


def test_same_drawing_gives_identical_text():
    assert build() == build()


def test_numbers_are_rounded_and_trimmed():
    assert _num(1.0) == "1"
    assert _num(2.50) == "2.5"
    assert _num(1 / 3) == "0.33"
    assert _num(-0.001) == "0"
    assert _num(100) == "100"
    assert 'r="3.33"' in build()
    assert 'x2="0.33" y2="0.67"' in build()


def test_attributes_are_written_in_svg_spelling_and_escaped():
    pic = Svg(10, 10)
    pic.rect(0, 0, 10, 10, fill="#abc", stroke_width=2, class_="tile", title="a <b> & c")
    pic.text(5, 5, 'say "hi" & <go>', size=8)
    out = pic.render()
    assert 'stroke-width="2"' in out and 'class="tile"' in out
    assert "<title>a &lt;b&gt; &amp; c</title>" in out
    assert "say &quot;hi&quot; &amp; &lt;go&gt;" in out
    assert 'text-anchor="middle"' in out and 'dominant-baseline="central"' in out


def test_none_attributes_are_left_out():
    pic = Svg(4, 4)
    pic.circle(1, 1, 1, fill=None, stroke="red")
    assert "fill" not in pic.render()


def test_canvas_fits_the_hexes():
    cells = hexgrid.spiral((0, 0), 2)
    pic = hex_canvas(cells, 10, margin=5, extra_bottom=20)
    x0, y0, x1, y1 = hexgrid.bounding_box(cells, 10)
    assert pic.min_x == x0 - 5 and pic.min_y == y0 - 5
    assert pic.width == x1 - x0 + 10 and pic.height == y1 - y0 + 10 + 20
    assert pic.render().startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="')
    assert pic._repr_svg_() == pic.render()


def test_raw_fragments_and_empty_picture():
    pic = Svg(3, 3)
    pic.raw("<g id='x'></g>")
    assert pic.render().endswith("<g id='x'></g></svg>")
    assert Svg(1, 1).render().endswith("></svg>")


def test_a_game_board_draws_the_same_twice_and_shows_highlights():
    state = toy_game.new_game(seed=2).apply(toy_game.Place((0, 0)))
    assert state.to_svg() == toy_game.new_game(seed=2).apply(toy_game.Place((0, 0))).to_svg()
    assert state._repr_svg_() == state.to_svg()
    assert state.to_svg(highlight=[(1, 0)]) != state.to_svg()
    assert 'stroke-width="3"' in state.to_svg(highlight=[(1, 0)])


def test_repeated_shapes_are_written_as_the_first_time_and_by_their_types():
    from pangaea_lab.core.svg import Svg
    first, again = Svg(10, 10), Svg(10, 10)
    for pic in (first, again):
        pic.rect(0, 0, 5, 5, fill="a&b", stroke_width=2, title="x<y")
        pic.circle(1, 1, 1, data_flag=True)
        pic.circle(1, 1, 1, data_flag=1)
        pic.circle(1, 1, 1, data_flag=1.0)
    assert first.render() == again.render()
    flags = [item.split('data-flag="')[1].split('"')[0] for item in first.items[1:]]
    assert flags == ["True", "1", "1"]
    assert 'fill="a&amp;b"' in first.items[0] and "<title>x&lt;y</title>" in first.items[0]
