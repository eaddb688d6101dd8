"""Landscape, card, spirit and solo scoring, with the worked examples of the reference notes."""

import pytest

from pangaea_lab import harmonies
from pangaea_lab.harmonies import scoring


def water(cells):
    return {c: ["blue"] for c in cells}


# ----- worked examples ---------------------------------------------------------------------

def test_issue_example_board():
    stacks = {(1, 2): ["blue"], (2, 1): ["brown", "green"], (3, 1): ["gray", "red"]}
    s = harmonies.score_board(side="A", stacks=stacks)
    assert (s.trees, s.mountains, s.fields, s.buildings, s.water, s.total) == (3, 0, 0, 0, 0, 3)


def test_rulebook_river_example_scores_15():
    cells = [(1, 2), (1, 1), (1, 0), (2, 1), (3, 1), (3, 2), (4, 3)]
    s = harmonies.score_board("A", water(cells))
    assert (s.water_size, s.water) == (6, 15)


def test_river_with_a_stray_branch_scores_11():
    cells = [(2, 0), (4, 1), (0, 3), (1, 3), (2, 3), (3, 3), (4, 3)]
    assert harmonies.score_board("A", water(cells)).water == 11


def test_ring_of_six_counts_as_a_loop_of_six():
    ring = [(1, 0), (1, 1), (2, 0), (2, 2), (3, 0), (3, 1)]
    assert harmonies.score_board("A", water(ring)).water == 15
    # the plain shortest-path reading gives a river of 4 tokens
    plain = harmonies.score_board("A", water(ring), river_rule="shortest")
    assert (plain.water_size, plain.water) == (4, 8)


def test_river_rule_option_is_checked():
    with pytest.raises(ValueError, match="river_rule"):
        harmonies.score_board("A", {}, river_rule="longest")


def test_cat_spirit_with_three_isolated_buildings_and_a_lone_red_scores_12():
    stacks = {(0, 0): ["gray", "red"], (2, 0): ["brown", "red"], (4, 4): ["red", "red"],
              (0, 4): ["red"]}
    assert harmonies.card_points("Cat", 1, side="A", stacks=stacks) == 12


def test_solo_rulebook_example_130_side_a_lion_is_7_suns():
    assert harmonies.solo_suns(130, "A", "Lion's Spirit") == 7


# ----- one test per landscape rule ------------------------------------------------------------

def test_trees_score_1_3_7_and_bare_trunks_nothing():
    stacks = {(0, 0): ["green"], (0, 2): ["brown", "green"], (0, 4): ["brown", "brown", "green"],
              (2, 0): ["brown"], (2, 2): ["brown", "brown"]}
    assert harmonies.score_board("A", stacks).trees == 11


def test_mountains_need_a_neighbouring_mountain():
    alone = {(0, 0): ["gray", "gray", "gray"], (4, 4): ["gray"]}
    assert harmonies.score_board("A", alone).mountains == 0
    pair = {(0, 0): ["gray", "gray", "gray"], (0, 1): ["gray"], (4, 4): ["gray", "gray"]}
    assert harmonies.score_board("A", pair).mountains == 8
    chain = {(0, 0): ["gray"], (0, 1): ["gray", "gray"], (0, 2): ["gray", "gray", "gray"]}
    assert harmonies.score_board("A", chain).mountains == 11


def test_fields_score_5_per_group_of_two_or_more():
    stacks = {(0, 0): ["yellow"], (0, 1): ["yellow"], (0, 2): ["yellow"], (0, 3): ["yellow"],
              (4, 0): ["yellow"], (4, 1): ["yellow"], (2, 4): ["yellow"]}
    assert harmonies.score_board("A", stacks).fields == 10


def test_buildings_need_three_colours_around():
    base = {(2, 2): ["gray", "red"], (2, 1): ["blue"], (2, 3): ["yellow"]}
    assert harmonies.score_board("A", base).buildings == 0
    # a third colour, here a red top, completes it; empty neighbours never count
    more = {**base, (1, 1): ["red"]}
    assert harmonies.score_board("A", more).buildings == 5
    same = {**base, (1, 1): ["blue"], (1, 2): ["yellow"]}
    assert harmonies.score_board("A", same).buildings == 0
    # the neighbour's top token counts: brown under green shows green
    tree = {**base, (3, 1): ["brown", "green"]}
    assert harmonies.score_board("A", tree).buildings == 5
    lone_red = {(2, 2): ["red"], (2, 1): ["blue"], (2, 3): ["yellow"], (1, 1): ["green"]}
    assert harmonies.score_board("A", lone_red).buildings == 0


@pytest.mark.parametrize("length,points", [(0, 0), (1, 0), (2, 2), (3, 5), (4, 8), (5, 11),
                                           (6, 15), (7, 19), (8, 23), (10, 31)])
def test_river_points_table(length, points):
    assert scoring.river_points(length) == points


def test_river_uses_shortest_path_between_ends_and_only_the_best_river():
    straight = [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]
    assert harmonies.score_board("A", water(straight)).water == 11
    two = water(straight[:3] + [(4, 0), (4, 1)])
    assert harmonies.score_board("A", two).water_size == 3


def test_islands_on_side_b():
    assert harmonies.score_board("B", {}).water == 5  # the empty board is one island
    # a wall of water down column 1 (and its bend) cuts the board in two
    wall = water([(1, 0), (1, 1), (1, 2), (0, 3)])
    s = harmonies.score_board("B", wall)
    assert (s.water_size, s.water) == (2, 10)
    # an enclosed space is an island of its own
    ring = water([(1, 0), (1, 1), (2, 0), (2, 2), (3, 0), (3, 1)])
    assert harmonies.score_board("B", ring).water_size == 2


def test_side_b_does_not_score_rivers_and_side_a_does_not_score_islands():
    straight = water([(0, 0), (0, 1), (0, 2)])
    assert harmonies.score_board("B", straight).water == 5
    assert harmonies.score_board("A", straight).water == 5


def test_explain_lists_every_row():
    text = harmonies.score_board("A", water([(0, 0), (0, 1)])).explain()
    assert "Water (river): 2" in text and "longest river: 2" in text and "Total: 2" in text


# ----- animal cards --------------------------------------------------------------------------

def test_animal_card_scores_highest_uncovered_value():
    assert harmonies.card_points("Fennec Fox", 0) == 0
    assert harmonies.card_points("Fennec Fox", 1) == 4
    assert harmonies.card_points("Fennec Fox", 3) == 16
    with pytest.raises(ValueError, match="0-3 can be placed"):
        harmonies.card_points("Fennec Fox", 4)


# ----- spirits ---------------------------------------------------------------------------------

SPIRIT_CASES = [
    ("Lion", {(0, 0): ["yellow"], (2, 0): ["yellow"], (2, 1): ["yellow"],
              (4, 0): ["yellow"], (4, 1): ["yellow"], (4, 2): ["yellow"]}, 2 + 2 + 10),
    ("Butterfly", {(0, 0): ["yellow"], (2, 0): ["yellow"], (2, 1): ["yellow"]}, 10),
    ("Deer", {(0, 0): ["green"], (0, 2): ["brown", "green"], (0, 4): ["brown", "brown", "green"]},
     8),
    ("Owl", {(0, 0): ["green"], (0, 2): ["brown", "green"], (0, 4): ["brown", "brown", "green"]},
     7),
    ("Cat", {(0, 0): ["gray", "red"], (0, 1): ["red", "red"], (4, 4): ["brown", "red"]}, 8),
    ("Crane", {(0, 0): ["gray", "red"], (0, 1): ["red", "red"], (4, 4): ["brown", "red"]}, 6),
    ("Ram", {(0, 0): ["gray"], (2, 0): ["gray", "gray"], (4, 0): ["gray", "gray", "gray"]}, 8),
    ("Marmot", {(0, 0): ["gray"], (2, 0): ["gray", "gray"], (4, 0): ["gray", "gray", "gray"]},
     7),
    ("Dragonfly", {(0, 0): ["blue"], (0, 1): ["blue"], (4, 4): ["blue"], (2, 2): ["blue"],
                   (2, 3): ["blue"], (2, 4): ["blue"]}, 14),
    ("Tortoise", {(0, 0): ["blue"], (0, 1): ["blue"], (4, 4): ["blue"]}, 6),
]


@pytest.mark.parametrize("name,stacks,points", SPIRIT_CASES)
def test_each_spirit_scores_its_count(name, stacks, points):
    assert harmonies.card_points(name, 1, side="A", stacks=stacks) == points
    assert harmonies.card_points(name, 0, side="A", stacks=stacks) == 0


def test_all_ten_spirits_are_covered():
    assert {n for n, _, _ in SPIRIT_CASES} == {c.name for c in harmonies.all_cards().values()
                                               if c.is_spirit}


@pytest.mark.parametrize("score,suns", [(39, 0), (40, 1), (69, 1), (70, 2), (90, 3), (110, 4),
                                        (130, 5), (140, 6), (150, 7), (160, 8), (250, 8)])
def test_sun_bands(score, suns):
    assert scoring.suns_for_score(score) == suns


def test_sun_modifiers():
    assert harmonies.solo_suns(100, "B") == 3 + 2
    assert harmonies.solo_suns(100, "A", "Ram") == 3 + 1
    assert harmonies.solo_suns(100, "B", "Dragonfly") == 3 + 1


def test_longest_loop_agrees_with_networkx_on_random_small_rivers():
    import random

    import networkx as nx

    from pangaea_lab.harmonies.board import _neighbour_table, board_graph, cells
    rng = random.Random(4)
    nbrs = _neighbour_table("A")
    all_cells = cells("A")
    for _ in range(60):
        chosen = sorted(rng.sample(range(23), rng.randint(3, 11)))
        sub = board_graph("A").subgraph(all_cells[i] for i in chosen)
        for comp in nx.connected_components(sub):
            expected = max((len(c) for c in nx.simple_cycles(sub.subgraph(comp))
                            if len(c) >= 3), default=0)
            group = [i for i in chosen if all_cells[i] in comp]
            assert scoring.longest_loop(group, nbrs) == expected


def test_two_loops_joined_count_their_longest_loop_without_shortcuts():
    # a ring of six around (2, 1) plus a second ring of six around (2, 3) sharing (2, 2)
    top = [(1, 0), (1, 1), (2, 0), (2, 2), (3, 0), (3, 1)]
    bottom = [(1, 2), (1, 3), (2, 4), (3, 2), (3, 3)]
    s = harmonies.score_board("A", water(top + bottom))
    # the outer loop of ten goes round (2, 1), (2, 2) and (2, 3) and no two of its tokens
    # touch except along it: (2,0) (3,0) (3,1) (3,2) (3,3) (2,4) (1,3) (1,2) (1,1) (1,0)
    assert s.water_size == 10 and s.water == 31
    # the loop through all eleven tokens is cut short by (2, 2), which touches (1, 1)
    old = harmonies.score_board("A", water(top + bottom), river_rule="loops")
    assert old.water_size == 11 and old.water == 35
    plain = harmonies.score_board("A", water(top + bottom), river_rule="shortest")
    assert plain.water_size == 6   # e.g. (2,0) (1,0) (1,1) (1,2) (1,3) (2,4)


# ----- the river with loops (default rule: loops without shortcuts) ---------------------------

def test_compact_blob_of_water_scores_its_longest_path_not_a_loop():
    # two triangles sharing a side: the loop round all four has a shortcut, (3, 2)-(3, 3)
    blob = harmonies.score_board("A", water([(2, 3), (3, 2), (3, 3), (4, 3)]))
    assert (blob.water_size, blob.water) == (3, 5)


def test_triangle_counts_three_and_a_ring_with_a_tail_counts_the_longer_of_both():
    assert harmonies.score_board("A", water([(2, 2), (2, 3), (3, 3)])).water_size == 3
    ring = [(1, 0), (1, 1), (2, 0), (2, 2), (3, 0), (3, 1)]
    short_tail = harmonies.score_board("A", water(ring + [(2, 3)]))
    assert short_tail.water_size == 6             # the ring is longer than any path (5)
    long_tail = harmonies.score_board("A", water(ring + [(2, 3), (2, 4)]))
    # (2, 0) ... (2, 4): the shortest way between the far ends passes 6 tokens, the ring 6
    assert long_tail.water_size == 6


def test_a_loop_cut_short_by_one_of_its_tokens_does_not_count_at_full_length():
    # the ring of six round (2, 1), and (2, 1) itself: a loop of seven can wind through the
    # centre, but the centre touches every ring token, so that loop has shortcuts
    ring = [(1, 0), (1, 1), (2, 0), (2, 2), (3, 0), (3, 1)]
    flower = water(ring + [(2, 1)])
    assert harmonies.score_board("A", flower).water_size == 6
    assert harmonies.score_board("A", flower, river_rule="loops").water_size == 7
    # a ring of eight round (2, 1) and (2, 2), then (2, 2) filled in: the loop of nine
    # through (2, 2) is cut short by it, the outer ring of eight still counts
    ring8 = [(1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (2, 3), (1, 2), (1, 1)]
    assert harmonies.score_board("A", water(ring8)).water_size == 8
    assert harmonies.score_board("A", water(ring8 + [(2, 2)])).water_size == 8
    assert harmonies.score_board("A", water(ring8 + [(2, 2)]),
                                 river_rule="loops").water_size == 9


def _rings_by_definition(chosen_cells):
    """Longest closed chain of the chosen cells in which no two cells that are not next to
    each other along the chain are neighbours (every simple cycle, filtered by hand)."""
    import networkx as nx

    from pangaea_lab.harmonies.board import board_graph
    graph = board_graph("A").subgraph(chosen_cells)
    best = 0
    for cycle in nx.simple_cycles(graph):
        if len(cycle) < 3:
            continue
        n = len(cycle)
        shortcut = any(graph.has_edge(cycle[i], cycle[j])
                       for i in range(n) for j in range(i + 2, n)
                       if not (i == 0 and j == n - 1))
        if not shortcut:
            best = max(best, n)
    return best


def test_river_length_is_the_longest_of_path_and_loop_without_shortcuts_on_random_boards():
    import random

    import networkx as nx

    from pangaea_lab.harmonies.board import board_graph, cells
    rng = random.Random(11)
    all_cells = cells("A")
    for _ in range(80):
        chosen = rng.sample(all_cells, rng.randint(3, 12))
        graph = board_graph("A").subgraph(chosen)
        expected = 0
        for comp in nx.connected_components(graph):
            diameter = nx.diameter(graph.subgraph(comp)) + 1
            expected = max(expected, diameter, _rings_by_definition(comp))
        assert scoring.river_length("A", scoring.stacks_tuple("A", water(chosen))) == expected


def test_the_river_rule_is_labelled_in_the_data():
    labels = {a["id"]: a for a in harmonies.assumptions()}
    assert "rings" in labels["river-rings"]["text"]
    assert scoring.RIVER_RULES[0] == "rings" == scoring.DEFAULT_RIVER_RULE
    assert harmonies.new_game(seed=1).river_rule == "rings"
