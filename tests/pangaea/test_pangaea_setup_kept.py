"""What Game Setup of The Dawn of Pangaea keeps or skips to go faster agrees with working it
out plainly: the contiguity a joined tile shape guarantees against networkx's search, the
distances to the mountain kept per mountain against hex-grid distances, over many seeds."""

import random
from dataclasses import replace

import networkx as nx
import pytest

from pangaea_lab import pangaea
from pangaea_lab.core import hexgrid
from pangaea_lab.pangaea import board as board_module, coop
from pangaea_lab.core.rng import make_rng
from pangaea_lab.pangaea.coop import distances_to_mountain
from pangaea_lab.pangaea.edition import tiles_per_player
from test_pangaea_caches import lay_tiles_plainly

_EDITION = pangaea.load_edition()


def boards(seeds=range(25)):
    for players in range(pangaea.GAME.players_for({})[0], _EDITION.max_players + 1):
        for seed in [*seeds, "lesson"]:
            yield board_module._build.__wrapped__(_EDITION, players, seed)   # laid afresh
    yield pangaea.custom_board({(0, 0): ("land", "Sun"), (1, 0): ("water", "Rain"),
                                (5, 5): ("land", "Snow")}, mountain=[(3, 3)])


def test_a_joined_tile_shape_lays_only_contiguous_continents():
    assert board_module.tile_is_joined(_EDITION)
    for b in boards(range(40)):
        if b.tiles and len(b.tiles) > 1 and b.mountain == tuple(sorted(
                hexgrid.spiral((0, 0), _EDITION.mountain_radius))) and len(b) > 3:
            assert b.is_contiguous()
            assert nx.is_connected(b.graph)


def test_a_tile_shape_in_pieces_is_not_joined():
    shape = ((0, 0), (1, 0), (3, 0))
    assert not board_module._shape_joined(shape)
    assert board_module._shape_joined(((0, 0), (1, 0), (1, 1)))
    assert not board_module._shape_joined(())


@pytest.mark.parametrize("players", [1, 2, 4])
def test_kept_distances_to_the_mountain_are_hex_grid_distances(players):
    for seed in range(15):
        b = pangaea.new_game(players=players, seed=seed, mode="coop").board
        for _ in range(2):                          # the second time from the kept ones
            assert distances_to_mountain(b) == {
                i: min(hexgrid.distance(c, m) for m in b.mountain) for i, c in enumerate(b.cells)}
    b = pangaea.custom_board({(0, 0): ("land", "Sun"), (4, 0): ("water", "Rain")},
                             mountain=[(2, 0), (9, 9)])
    assert distances_to_mountain(b) == {0: 2, 1: 2}
    b = pangaea.custom_board({(0, 0): ("land", "Sun"), (4, 0): ("water", "Rain")})
    assert distances_to_mountain(b) == {0: 0, 1: 4}


@pytest.mark.parametrize("wild_woods", [False, True])
def test_coop_setup_states_made_without_constructors_equal_replaced_ones(monkeypatch, wild_woods):
    seeds = [*range(12), "lesson"]
    options = dict(mode="coop", wild_woods=wild_woods)
    made = {(p, s): pangaea.setup_steps(players=p, seed=s, **options)
            for p in (1, 2, 4) for s in seeds}
    monkeypatch.setattr(coop, "_with", lambda value, **changes: replace(value, **changes))
    for (p, s), steps in made.items():
        plain = pangaea.setup_steps(players=p, seed=s, **options)
        assert [(x.title, x.explanation) for x in steps] == [(x.title, x.explanation) for x in plain]
        for a, b in zip(steps, plain):
            assert a.state == b.state and hash(a.state) == hash(b.state)
            assert a.state.to_json() == b.state.to_json()
        assert steps[-1].state.legal_actions() == plain[-1].state.legal_actions()


SHAPES = {   # land, water, blessing (a symmetric tile keeps fewer rotations)
    "line": (((0, 0), (1, 0)), ((2, 0),), ((2, 0),)),
    "flower": (((0, 0), (1, 0), (0, 1), (-1, 1)), ((-1, 0), (0, -1), (1, -1)), ((1, -1),)),
    "hook": (((0, 0), (1, 0)), ((1, 1), (1, 2)), ()),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
@pytest.mark.parametrize("radius", [0, 1, 2])
def test_other_tile_shapes_are_laid_as_by_the_plain_search(name, radius):
    land, water, blessing = SHAPES[name]
    ed = replace(_EDITION, land_shape=land, water_shape=water, blessing_shape=blessing,
                 mountain_radius=radius)
    assert board_module.tile_is_joined(ed)
    for players in (2, 4):
        for seed in range(8):
            biomes = [b for b, n in tiles_per_player(ed).items() for _ in range(n * players)]
            rng = make_rng(seed, "continent", name)
            rng.shuffle(biomes)
            again = random.Random()
            again.setstate(rng.getstate())
            laid = board_module._lay_tiles(ed, list(biomes), rng)
            assert laid == lay_tiles_plainly(ed, list(biomes), again), (players, seed)
            assert rng.getstate() == again.getstate()
            spaces = [c for t in laid for c in t.cells]
            g = nx.Graph()
            g.add_edges_from((c, n) for c in spaces for n in hexgrid.neighbours(c) if n in spaces)
            g.add_nodes_from(spaces)
            assert nx.is_connected(g)     # as the joined shape guarantees


def test_the_tiles_counted_by_their_numbers_are_the_board_tiles():
    for b in boards(range(10)):
        assert len(set(b.tile_of)) == len(b.tiles)
        assert b.neighbours == tuple(tuple(b.index[n] for n in hexgrid.neighbours(c)
                                           if n in b.index) for c in b.cells)
