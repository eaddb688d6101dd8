"""Drawing a Wild Woods position: Tree levels, Seed stacks, Elemental Storms and the Player
Boards in the status lines (rulebook, Wild Woods: Add Treetop, Seed Competition, Elemental
Storms, Final Scoring); none of it in a base game."""

import re
from dataclasses import replace
from html import unescape

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core import hexgrid
from pangaea_lab.pangaea.render import SIZE, board_svg, draw_board
from pangaea_lab.pangaea.woods_render import WOODS_WIDTH
from pangaea_lab.pangaea.woods import level, woods_data

WOODS_WORDS = ("level ", "Player Board", "Elemental Storm", "Seeds on ", "Treetop")


def land(s, k):
    return s.board.cells[s.board.land[k]]


def words(s, **kw):
    """The picture's SVG with the XML escapes undone, to look for titles and labels."""
    return unescape(board_svg(s, **kw))


@pytest.fixture
def woods():
    """Red: a level-2 and a level-1 Tree; Blue: a level-3 Tree (its first extra Seed
    unlocked); Red 2 and Blue 1 Seeds on one space, Blue alone with 2 Seeds on another."""
    s = pangaea.new_game(players=2, seed=8, wild_woods=True)
    return s.arranged(trees={land(s, 0): 0, land(s, 1): 1, land(s, 2): 0},
                      treetops={land(s, 0): 1, land(s, 1): 2},
                      seeds={land(s, 3): {0: 2, 1: 1}, land(s, 4): {1: 2}})


@pytest.mark.parametrize("options", [dict(players=3), dict(players=2, mode="coop")],
                         ids=["base", "coop"])
def test_without_wild_woods_nothing_of_it_is_drawn(options):
    s = pangaea.new_game(seed=2024, **options)
    svg = s.to_svg()
    assert not any(word in svg for word in WOODS_WORDS)
    assert svg.count("Tree on") == sum(1 for t in s.trees if t != -1)
    assert float(re.search(r'viewBox="\S+ \S+ ([\d.]+) ', svg).group(1)) < WOODS_WIDTH


def test_tree_levels_in_titles_and_discs(woods):
    svg = words(woods)
    assert f"Red Tree on {land(woods, 0)}, level 2 (1 Treetop)" in svg
    assert f"Blue Tree on {land(woods, 1)}, level 3 (2 Treetops)" in svg
    assert f"Red Tree on {land(woods, 2)}, level 1 (0 Treetops)" in svg
    assert [level(woods, woods.board.index[land(woods, k)]) for k in range(3)] == [2, 3, 1]
    # the tree glyph's title appears once per Tree (the level disc repeats it)
    assert svg.count("Tree on") == 3 + 2
    digits = re.findall(r'fill="#1e1e1e" font-weight="bold">(\d)</text>', svg)
    assert sorted(digits) == ["2", "3"]


def test_seed_stacks_show_each_colour_with_its_count(woods):
    svg = words(woods)
    assert f"Seeds on {land(woods, 3)}: Red 2, Blue 1 (Red holds the majority)" in svg
    assert f"Seeds on {land(woods, 4)}: Blue 2 (Blue holds the majority)" in svg
    # a single Seed is drawn as in the base game
    s = woods.arranged(seeds={land(woods, 4): {1: 1}})
    assert f"Blue Seed on {land(woods, 4)}" in words(s) and "Seeds on " in words(s)


def test_player_boards_in_the_status_lines(woods):
    svg = words(woods)
    assert svg.count(">Player Board</text>") == 2
    red, blue = woods.woods.player_boards
    assert red.slots.count(True) == 5 and blue.slots.count(True) == 4
    assert "5 Treetops on slots · free slots worth 0 points" in svg
    assert "4 Treetops on slots · free slots worth 0 points" in svg
    assert "extra Seeds unlocked: 0 of 3" in svg and "extra Seeds unlocked: 1 of 3" in svg
    data = woods_data(woods.edition)
    assert "Red's slot 6 (cost 3, extra Seed 3, 3 points when empty): holds its Treetop" in svg
    # an empty slot shows the points it scores
    emptied = woods.edited(player_boards=(replace(red, slots=(False,) * 6), blue))
    svg = words(emptied)
    worth = emptied.woods.player_boards[0].free_points(data)
    assert worth > 1 and f"free slots worth {worth} points" in svg
    assert ">+3</text>" in svg and ">+2</text>" in svg
    assert "Red's slot 6 (cost 3, extra Seed 3, 3 points when empty): empty" in svg


def test_storm_covered_tile_has_badges_and_a_status_line():
    s = pangaea.new_game(players=2, seed=8, wild_woods=True, storms=True)
    assert "Elemental Storms (0 played, 4 in the decks) — covered tiles: none" in words(s)
    assert "Elemental Storm on" not in words(s)
    tile = s.board.tiles[0]
    weather = next(b for b in s.edition.biomes if b != tile.biome)
    stormy = s.edited(storm_tiles=((tile.index, weather, 2),), storm_discard=("storm-1",))
    svg = words(stormy)
    for cell in tile.land:
        assert (f"Elemental Storm on {cell}: the tile counts as {weather} while 2 Storm "
                f"tokens lie on it (printed biome {tile.biome})") in svg
    assert svg.count(f">{weather[:2]}2</text>") == len(tile.land)
    first = next(i for i in s.board.land if s.board.tile_of[i] == tile.index)
    assert f"{s.board.cells[first]} {tile.biome}→{weather}, 2 tokens" in svg
    assert "(1 played, 4 in the decks)" in svg


def test_no_storm_line_without_storms():
    s = pangaea.new_game(players=2, seed=8, wild_woods=True, storms=False)
    svg = s.to_svg()
    assert "Player Board" in svg and "Elemental Storms" not in svg


def test_wild_woods_picture_is_wide_enough_and_deterministic(woods):
    svg = woods.to_svg()
    width = float(re.search(r'width="([\d.]+)"', svg).group(1))
    assert width >= WOODS_WIDTH
    again = pangaea.new_game(players=2, seed=8, wild_woods=True)
    again = again.arranged(trees={land(again, 0): 0, land(again, 1): 1, land(again, 2): 0},
                           treetops={land(again, 0): 1, land(again, 1): 2},
                           seeds={land(again, 3): {0: 2, 1: 1}, land(again, 4): {1: 2}})
    assert again.to_svg() == svg
    assert " id=" not in svg


def test_coop_with_wild_woods_draws_both_status_blocks():
    s = pangaea.new_game(players=1, seed=3, mode="coop", wild_woods=True)
    svg = s.to_svg()
    assert "Ancient Markers:" in svg and "Player Board" in svg and "Elemental Storms" in svg


def test_highlight_outline_is_centred_on_its_space(woods):
    cell = land(woods, 6)
    svg = board_svg(woods, highlight=[cell])
    outline = re.findall(r'<polygon points="([^"]+)" fill="none" stroke="#ffe14a"', svg)
    assert len(outline) == 1
    pts = [tuple(map(float, p.split(","))) for p in outline[0].split()]
    cx = sum(x for x, _ in pts) / 6
    cy = sum(y for _, y in pts) / 6
    x, y = hexgrid.to_pixel(cell, SIZE)
    assert abs(cx - x) < 0.05 and abs(cy - y) < 0.05


def test_matplotlib_drawing_marks_levels_and_stacks(woods):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ax = draw_board(woods)
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == ["2", "2", "2/1", "3"]   # levels 2 and 3; Seeds 2/1 and 2
    plt.close("all")


def test_player_board_picture(woods):
    from pangaea_lab.pangaea.woods_render import player_board_svg
    blue = unescape(player_board_svg(woods, 1))
    assert blue.startswith("<svg") and blue == unescape(player_board_svg(woods, 1))
    assert "Blue's Player Board: 4 Treetops on slots · free slots worth 0 points" in blue
    assert ">extra Seeds unlocked: 1 of 3</text>" in blue
    assert blue.count(">empty</text>") == 2 and blue.count("<title>Treetop</title>") == 4
    assert ">+3 if empty</text>" in blue and ">+2 if empty</text>" in blue
    assert ("extra Seed 1: unlocked (in the supply for good); it was held back by slots 1 "
            "and 2") in blue
    assert "extra Seed 3: held back by slots 5 and 6" in blue
    red = unescape(player_board_svg(woods, 0))
    kinds = [k for k in woods.woods.player_boards[0].blessings if k]
    assert all(f"{k} Blessing</title>" in red for k in kinds) and len(kinds) == 2


def test_a_set_of_spaces_is_not_drawn_as_a_path(woods):
    b = woods.board
    first = b.cells[b.land[0]]
    chain = [first, next(b.cells[j] for j in b.neighbours[b.land[0]] if b.terrain[j] == "land")]
    assert "<polyline" in board_svg(woods, highlight=chain)
    assert "<polyline" not in board_svg(woods, highlight=chain, chain=False)
