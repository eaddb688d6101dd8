"""Random playouts over 300 seeds with 2 to 4 players, checking after every step:
90 favor tokens conserved, markers conserved, at most one marker per space unless an
occupied-space rune put a second one there, JSON round-trip, seeded replay, and exactly
four seasons."""

from __future__ import annotations

import pytest

from pangaea_lab import inori
from pangaea_lab.core.players import RandomPlayer
from pangaea_lab.core.testing import check_playout, check_replay
from pangaea_lab.inori.actions import RuneOffer

SEEDS = range(300)
BLOCK = 30


def _occupancy(state):
    return {(i, j): occ for i, (_, spaces) in enumerate(state.slots)
            for j, occ in enumerate(spaces)}


def _play(players: int, seed: int, checks: bool):
    state = inori.new_game(players=players, seed=seed)
    bot = RandomPlayer(seed)
    cls = type(state)
    for step in range(2000):
        if checks:
            state.check_invariants()
            total = sum(state.supply) + sum(map(sum, state.favor)) + sum(state.root_tokens)
            assert total == 90, f"seed {seed} step {step}: {total} favor tokens"
            for p in range(players):
                assert (state.hand[p] + state.markers_on_board(p) + state.set_aside[p]
                        == (0 if state.is_over else state.schedule[state.season - 1]))
            assert all(m is None or 0 <= m < players for m in state.tree_markers)
            if step % 10 == 0 or state.is_over:
                text = state.to_json()
                again = cls.from_json(text)
                assert again == state and again.to_json() == text, f"seed {seed} step {step}"
        if state.is_over:
            return state
        actions = state.legal_actions()
        assert actions and len(set(actions)) == len(actions)
        if checks and step % 30 == 0:
            snapshot = state.to_json()
            for a in actions:
                state.apply(a)
            assert state.to_json() == snapshot
        action = bot.choose(state)
        after = state.apply(action)
        if checks:
            before_occ, after_occ = _occupancy(state), _occupancy(after)
            for key, occ in after_occ.items():
                old = before_occ.get(key, ()) if after.season == state.season else ()
                if len(occ) > 1 and len(occ) > len(old):
                    assert isinstance(action, RuneOffer) and (action.slot, action.space) == key, \
                        f"seed {seed}: a second marker on {key} without a rune"
        state = after
    raise AssertionError(f"seed {seed}: the game did not end")


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, len(SEEDS), BLOCK))
def test_random_playouts(first):
    for seed in SEEDS[first:first + BLOCK]:
        players = 2 + seed % 3
        final = _play(players, seed, checks=True)
        assert [r["season"] for r in final.reports] == [1, 2, 3, 4]
        assert final.current_player is None and final.legal_actions() == []
        assert len(final.slots) == 6
        again = _play(players, seed, checks=False)
        assert again.to_json() == final.to_json(), f"seed {seed} does not replay"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shared_protocol_checks(players):
    # The core's playout check: every listed action applies, old states are unchanged,
    # JSON round-trips after every step.
    check_playout(inori.new_game, players, seed=1000 + players, apply_all_every=3)
    check_replay(inori.new_game, players, seed=2000 + players)
