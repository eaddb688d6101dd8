"""Game Setup: the continent of Biome Tiles around the Sacred Mountain."""

from collections import Counter

import networkx as nx
import pytest

from pangaea_lab.core import hexgrid
from pangaea_lab.core.errors import InvalidSetup
from pangaea_lab.pangaea import build_continent, load_edition


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(12))
def test_four_tiles_per_player_one_of_each_biome_contiguous(players, seed):
    # Game Setup: 4 Biome Tiles per player, one of each type, one contiguous continent.
    ed = load_edition()
    board = build_continent(ed, players, seed)
    assert len(board.tiles) == 4 * players
    assert Counter(t.biome for t in board.tiles) == {b: players for b in ed.biomes}
    assert board.is_contiguous()
    for t in board.tiles:  # 5 spaces: 3 land and 2 water, one of them marked for a blessing
        assert len(t.land) == 3 and len(t.water) == 2 and len(t.blessing) == 1
    mountain = set(board.mountain)
    assert any(n in mountain for c in board.cells for n in hexgrid.neighbours(c)), \
        "the continent must be attached to the Sacred Mountain"
    assert not mountain & set(board.cells)


def test_same_seed_same_continent_and_different_seeds_differ():
    ed = load_edition()
    assert build_continent(ed, 3, 42).key == build_continent(ed, 3, 42).key
    layouts = {build_continent(ed, 3, s).key for s in range(8)}
    assert len(layouts) > 4


def test_graph_attributes_and_adjacency_across_tiles():
    board = build_continent(load_edition(), 2, 3)
    g = board.graph
    assert isinstance(g, nx.Graph) and g.number_of_nodes() == 40
    for cell, data in g.nodes(data=True):
        assert data["terrain"] in ("land", "water")
        assert data["biome"] in load_edition().biomes
    crossing = [(a, b) for a, b in g.edges if g.nodes[a]["tile"] != g.nodes[b]["tile"]]
    assert crossing, "spaces of neighbouring tiles are adjacent too"
    for a, b in g.edges:
        assert hexgrid.distance(a, b) == 1


def test_player_count_is_checked():
    with pytest.raises(InvalidSetup, match="2 to 4 players"):
        build_continent(load_edition(), 5, 1)
