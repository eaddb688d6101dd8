"""Random playouts of Return of the Ancients over 200 seeds and 1-4 players.  After every step
check_invariants holds (Scourge Markers conserved: supply + continent = 5 per player; the 14
Shadow Markers conserved across bag, Moon Board, mountain and box; Trees, Seeds, Favor Tokens
and cards as in the full game); JSON round-trips, the same seed replays the same game, and
every game ends won or lost."""

from functools import partial

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.testing import check_playout, check_replay

DIFFICULTIES = ("standard", "cozy", "midnight")


def new_coop(seed):
    return partial(pangaea.new_game, mode="ancients", difficulty=DIFFICULTIES[seed % 3])


def scourge_only_from_the_supply(before, action, after):
    assert len(after.coop.scourged) - len(before.coop.scourged) == before.coop.scourge_supply - after.coop.scourge_supply
    assert after.coop.cycle >= before.coop.cycle


@pytest.mark.parametrize("seed", range(200))
def test_random_co_op_playout(seed):
    final = check_playout(new_coop(seed), 1 + seed % 4, seed, max_steps=4000,
                          apply_all_every=15, json_every=10, on_step=scourge_only_from_the_supply)
    assert final.is_over and final.coop.result in ("won", "lost") and final.end_reason


@pytest.mark.parametrize("seed", range(0, 200, 25))
def test_same_seed_replays_the_same_co_op_game(seed):
    check_replay(new_coop(seed), 1 + seed % 4, seed, steps=150)
