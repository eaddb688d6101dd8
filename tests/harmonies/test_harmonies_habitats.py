"""Habitats of all 32 animal cards and 10 spirits, in every rotation (rulebook "Animal cards",
"Orientations" and "Combinations")."""

import pytest

from pangaea_lab import harmonies
from pangaea_lab.harmonies import habitats

ALL_CARDS = sorted(harmonies.all_cards())
# a stack one step away from each code: wrong height, wrong colour, or a lone red token
NEAR_MISS = {"W": ["yellow"], "Y": ["blue"], "M1": ["gray", "gray"], "M2": ["gray", "gray", "gray"],
             "M3": ["gray", "gray"], "T1": ["brown", "green"], "T2": ["brown", "brown", "green"],
             "T3": ["brown", "green"], "BLD": ["red"]}


def placement(card_id, rotation, side="B"):
    """A cube cell where the rotated pattern fits entirely on the board."""
    on_board = set(harmonies.cells(side))
    for cell in harmonies.cells(side):
        pattern = harmonies.pattern_cells(card_id, cell, rotation)
        if set(pattern) <= on_board:
            return cell, pattern
    raise AssertionError("no placement")


def build(pattern):
    return {c: habitats.stacks_for_code(code) for c, code in pattern.items()}


def test_there_are_32_animals_and_10_spirits():
    cards = harmonies.all_cards().values()
    assert sum(1 for c in cards if not c.is_spirit) == 32
    assert sum(1 for c in cards if c.is_spirit) == 10
    assert sum(c.cubes for c in cards if not c.is_spirit) == 96


@pytest.mark.parametrize("card_id", ALL_CARDS)
def test_card_matches_in_every_rotation_and_fails_with_one_wrong_cell(card_id):
    for rotation in range(6):
        cube_cell, pattern = placement(card_id, rotation)
        stacks = build(pattern)
        assert cube_cell in harmonies.habitat_cells(card_id, side="B", stacks=stacks)
        for cell, code in pattern.items():
            broken = dict(stacks)
            broken[cell] = NEAR_MISS[code]
            assert cube_cell not in harmonies.habitat_cells(card_id, side="B", stacks=broken), \
                (card_id, rotation, cell)
        # the cube space must be free of cubes; the others may hold cubes
        others = [c for c in pattern if c != cube_cell]
        assert cube_cell not in harmonies.habitat_cells(card_id, "B", stacks, cubes=[cube_cell])
        assert cube_cell in harmonies.habitat_cells(card_id, "B", stacks, cubes=others)


def test_each_pattern_uses_distinct_adjacent_cells():
    for card_id in ALL_CARDS:
        cells = list(harmonies.pattern_cells(card_id, (10, 10)))
        assert len(set(cells)) == len(cells)


def test_fennec_fox_example_and_side_a_edges():
    stacks = {(0, 1): ["yellow"], (1, 1): ["gray"], (2, 2): ["gray"]}
    assert harmonies.habitat_cells("Fennec Fox", "A", stacks) == [(2, 2)]
    assert habitats.fits_at("Fennec Fox", "A", stacks, (2, 2))
    assert not habitats.fits_at("Fennec Fox", "A", stacks, (2, 2), cubes=[(2, 2)])
    # a line running off the board never fits
    assert harmonies.habitat_cells("Fennec Fox", "A", {(4, 0): ["gray"]}) == []


def test_building_base_is_a_wildcard():
    for base in ("red", "brown", "gray"):
        lizard = {(2, 2): [base, "red"], (1, 1): ["yellow"], (0, 1): ["yellow"]}
        assert harmonies.habitat_cells("Lizard", "A", lizard) == [(2, 2)]
        # Shrew: cube on the building with two fields 120 degrees apart
        shrew = {(2, 2): [base, "red"], (3, 2): ["yellow"], (1, 2): ["yellow"]}
        assert harmonies.habitat_cells("Shrew", "A", shrew) == [(2, 2)]


def test_tree_heights_must_match_exactly():
    koala = {(0, 0): ["green"], (0, 1): ["brown", "green"]}
    assert harmonies.habitat_cells("Koala", "A", koala) == [(0, 1)]
    taller = {(0, 0): ["green"], (0, 1): ["brown", "brown", "green"]}
    assert harmonies.habitat_cells("Koala", "A", taller) == []


def test_overlapping_habitats_share_tokens():
    # two Frog habitats share the same tree (rulebook "Combinations")
    stacks = {(2, 2): ["green"], (2, 1): ["blue"], (2, 3): ["blue"]}
    assert harmonies.habitat_cells("Frog", "A", stacks) == [(2, 1), (2, 3)]
    # after a cube on (2, 1), the second habitat still fits
    assert harmonies.habitat_cells("Frog", "A", stacks, cubes=[(2, 1)]) == [(2, 3)]


def test_unknown_card_names_are_explained():
    with pytest.raises(ValueError, match="unknown card name 'Fenec Fox'.*Fennec Fox"):
        harmonies.habitat_cells("Fenec Fox", "A", {})
    with pytest.raises(ValueError, match="no card number 99"):
        harmonies.card(99)


def test_alternate_names_find_the_same_card():
    assert harmonies.card("Alligator").id == harmonies.card("crocodile").id == 1
    assert harmonies.card("Lion's Spirit").name == "Lion"


def test_load_cards_rejects_bad_files(tmp_path):
    bad = tmp_path / "animals.json"
    bad.write_text('{"cards": [{"id": 1, "name": "X", "points": [3, 1], "shape": "pair", '
                   '"cube": "W", "others": [[-1, 0, "Y"]]}]}')
    with pytest.raises(ValueError, match="low \\(bottom\\) to high"):
        harmonies.load_cards(animals=bad)
    bad.write_text('{"cards": [{"id": 1, "name": "X", "points": [1], "shape": "pair", '
                   '"cube": "Q", "others": []}]}')
    with pytest.raises(ValueError, match="'Q' is not one of"):
        harmonies.load_cards(animals=bad)
    with pytest.raises(ValueError, match="cannot read"):
        harmonies.load_cards(animals=tmp_path / "missing.json")
