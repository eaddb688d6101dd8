"""Random playouts of the full game (Ancients, Favor Tokens, Ritual Chains) over 200 seeds and
2-4 players, with the family game's checks plus: Favor Tokens conserved (bag + market + players
+ activated), each card activated at most once, the Ancients always on legal spaces (all in
check_invariants), and a Tree under Thorondal never removed while Thorondal stays on it."""

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.players import GreedyPlayer, play_game
from pangaea_lab.core.testing import check_playout, check_replay
from pangaea_lab.pangaea import ForesterPlayer, PlaceAncient


def protected_tree_stays(before, action, after):
    guard = before.ancients[2]
    if guard == -1 or (isinstance(action, PlaceAncient) and action.ancient == "Thorondal"):
        return
    assert after.trees[guard] == before.trees[guard], \
        f"the Tree under Thorondal on {before.board.cells[guard]} was removed by {action}"


@pytest.mark.parametrize("seed", range(200))
def test_random_full_game_playout(seed):
    final = check_playout(pangaea.new_game, 2 + seed % 3, seed, max_steps=4000,
                          apply_all_every=15, json_every=10, on_step=protected_tree_stays)
    assert final.is_over and final.winners() and not final.family


@pytest.mark.parametrize("seed", [2000, 2001])
def test_random_full_game_checked_on_every_step(seed):
    final = check_playout(pangaea.new_game, 2 + seed % 3, seed, max_steps=4000,
                          on_step=protected_tree_stays)
    assert final.is_over


@pytest.mark.parametrize("seed", range(0, 200, 20))
def test_same_seed_replays_the_same_full_game(seed):
    check_replay(pangaea.new_game, 2 + seed % 3, seed, steps=150)


def test_computer_players_use_every_new_action():
    kinds = set()
    for seed in range(6):
        state = pangaea.new_game(players=3, seed=seed)
        bots = [ForesterPlayer(seed * 3 + k) for k in range(3)]
        play_game(state, bots, on_step=lambda b, a, af: kinds.add(a.kind))
        play_game(state, [GreedyPlayer(k) for k in range(3)],
                  on_step=lambda b, a, af: kinds.add(a.kind))
    assert {"Summon the Ancients", "Place the Ancient", "Activate a Favor Token",
            "Place in a Ritual Chain"} <= kinds, kinds
