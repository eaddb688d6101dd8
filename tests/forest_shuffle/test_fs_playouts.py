"""Random playouts over many seeds (2-5 players), checking the game's promises each step:
the card total is conserved, no slot holds what it may not, saves round-trip, the same seed
replays the same game, and the game ends (with the third winter card)."""

import pytest

from pangaea_lab import forest_shuffle as fs
from pangaea_lab.core.players import RandomPlayer, play_game
from pangaea_lab.core.testing import check_playout, check_replay

SEEDS = range(300)


def light_playout(players, seed, json_every=25, apply_all_every=60, max_steps=3000):
    """Like ``core.testing.check_playout`` but with the costly checks spaced out, so that
    hundreds of seeds fit in the time budget; invariants are still checked every step."""
    st = fs.new_game(players=players, seed=seed)
    bot = RandomPlayer(seed)
    for step in range(max_steps):
        st.check_invariants()
        if step % json_every == 0:
            text = st.to_json()
            assert fs.GameState.from_json(text) == st, f"round trip changed step {step}"
        if st.is_over:
            assert st.legal_actions() == [] and st.current_player is None
            return st, step
        actions = st.legal_actions()
        assert actions and len(set(actions)) == len(actions)
        if step % apply_all_every == 0:
            for a in actions:
                st.apply(a)
        st = st.apply(bot.choose(st))
    raise AssertionError(f"seed {seed}: no end within {max_steps} steps")


@pytest.mark.slow
def test_three_hundred_seeded_playouts():
    endings = {}
    for seed in SEEDS:
        players = 2 + seed % 4
        final, steps = light_playout(players, seed)
        endings[final.ended_by] = endings.get(final.ended_by, 0) + 1
        assert len(final.winter) == 3 or final.ended_by == "the deck ran out"
        assert final.winners()
        if seed % 10 == 0:  # the same seed and player replay the same game
            assert play_game(fs.new_game(players=players, seed=seed), RandomPlayer(seed)) == final
    assert endings.get("the third winter card was revealed", 0) == len(SEEDS)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_full_checks_on_a_few_seeds(players):
    check_playout(fs.new_game, players, 1000 + players, apply_all_every=7, json_every=3)


@pytest.mark.parametrize("players", [2, 5])
def test_seeded_replay(players):
    for seed in range(3):
        check_replay(fs.new_game, players, seed, steps=400)
