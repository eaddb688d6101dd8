"""Setup per player count (reference notes, "Setup"; rules summary, "Overview")."""

from __future__ import annotations

import pytest

from pangaea_lab import inori


@pytest.mark.parametrize("players, total, schedule", [
    (2, 7, (4, 5, 6, 7)), (3, 6, (3, 4, 5, 6)), (4, 5, (3, 3, 4, 5))])
def test_markers_in_hand_and_waiting_for_later_seasons(players, total, schedule):
    # "players gain a new marker from the next season's space (with 4 players, the first
    # season end gives none)"; the last season uses every marker of the seat
    state = inori.new_game(players=players, seed=2)
    assert state.edition.markers_total[players] == total
    assert state.schedule == schedule and schedule[-1] == total
    assert state.hand == (schedule[0],) * players
    assert "waiting for later seasons " + str(schedule[-1] - schedule[0]) in \
        state.player_summary(0)


@pytest.mark.parametrize("seed", range(40))
def test_start_cards_never_pair_opposed_spirits(seed):
    # "No opposed spirits together" among the opening cards.
    state = inori.new_game(players=2 + seed % 3, seed=seed)
    ed = state.edition
    colours = [ed.cards[c].colour for c, _ in state.slots]
    assert len(colours) == 3 and all(ed.cards[c].type == "start" for c, _ in state.slots)
    assert len({frozenset((c, ed.opposite[c])) for c in colours}) == 3


def test_set_aside_tokens_are_the_missing_spirits_in_bottom_right_colours():
    # Favor tokens at the foot of the tree in each start card's bottom-right colour.
    state = inori.new_game(players=3, seed=11)
    ed = state.edition
    start_colours = {ed.cards[c].colour for c, _ in state.slots}
    assert state.root_colours == tuple(ed.cards[c].incomplete_colour for c, _ in state.slots)
    assert set(state.root_colours) == set(ed.colours) - start_colours
    assert state.root_tokens == (2, 2, 2)
    for k, colour in enumerate(ed.colours):
        expected = 15 - (2 if colour in state.root_colours else 0)
        assert state.supply[k] == expected
    assert sum(state.supply) == 84


def test_neutral_markers_tree_and_supplies_at_start():
    state = inori.new_game(players=4, seed=5)
    assert state.neutral_home == 2
    assert state.altars == (None,) * 9 and state.tree_markers == (None,) * 9
    assert len(state.rune_deck) == 15 and state.rune_hands == ((),) * 4
    assert all(len(p) == 6 for p in state.piles) and len(state.new_start_deck) == 6
    assert state.current_player == 0 and state.season == 1
    state.check_invariants()


def test_same_seed_same_game_and_different_seeds_differ():
    a = inori.new_game(players=3, seed="class-7")
    b = inori.new_game(players=3, seed="class-7")
    assert a == b and a.to_json() == b.to_json()
    layouts = {tuple(c for c, _ in inori.new_game(players=3, seed=s).slots) for s in range(10)}
    assert len(layouts) > 5
