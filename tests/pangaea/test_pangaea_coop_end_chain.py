"""Return of the Ancients: a Ritual that wins the game ends it at once, and the card just played
still belongs to a Ritual Chain (assumption 'coop-end-chain').

The games are ones in which the computer players won with a card that waited for its place in a
chain: before, the end of the game dropped that decision and the card lay in no chain.
"""

import pytest

from pangaea_lab import pangaea
from pangaea_lab.pangaea import coop
from pangaea_lab.pangaea.players import ForesterPlayer, GreedyPlayer
from pangaea_lab.pangaea.draft import Draft
from pangaea_lab.pangaea.state import Pending
from pangaea_lab.pangaea.variant import active


def play_checked(players, seed, bot, wild_woods=False, max_steps=2000):
    """A co-op game played by one ``bot`` per seat, its invariants checked after every step."""
    state = pangaea.new_game(players=players, seed=seed, mode="coop", wild_woods=wild_woods)
    seats = [bot(f"{seed}/{k}") for k in range(players)]
    state.check_invariants()
    for _ in range(max_steps):
        if state.is_over:
            return state
        state = state.apply(seats[state.current_player % players].choose(state))
        state.check_invariants()
    raise AssertionError(f"seed {seed}: the game did not end in {max_steps} steps")


@pytest.mark.parametrize("players,seed,bot,wild_woods", [
    (1, 14, ForesterPlayer, False), (1, 0, ForesterPlayer, False),
    (2, 4, GreedyPlayer, False), (2, 21, GreedyPlayer, False),
    (1, 7, ForesterPlayer, True), (2, 6, GreedyPlayer, True)])
def test_a_winning_ritual_leaves_every_played_card_in_one_chain(players, seed, bot, wild_woods):
    state = play_checked(players, seed, bot, wild_woods)
    assert state.coop.result == "won" and not state.decisions and not state.legal_actions()
    for ps in state.players:
        assert sorted(c for chain in ps.chains for c in chain) == sorted(ps.played)
    back = pangaea.GameState.from_json(state.to_json())
    assert back.to_json() == state.to_json()


def test_the_winning_card_waiting_for_its_chain_starts_a_chain_of_its_own():
    """Seed 14, the forester alone: the last card, C21, could join two chains; the game ends
    as it is played, so it stays in front of the player as a new chain, and no step or Favor
    Token comes of it."""
    state = pangaea.new_game(players=1, seed=14, mode="coop")
    bot = ForesterPlayer("14/0")
    while not state.is_over:
        before = state
        state = state.apply(bot.choose(state))
    assert state.players[0].played[-1] == "C21"
    assert state.players[0].chains == before.players[0].chains + (("C21",),)
    assert state.players[0].favors == before.players[0].favors


def test_settling_keeps_a_card_already_in_a_chain_where_it_is():
    """A chain decision already answered (the card is in a chain) adds nothing."""
    s = pangaea.new_game(players=1, seed=3, mode="coop")
    d = Draft(s, active(s))
    d.players[0].played.append("C01")
    d.players[0].chains.append(["C01"])
    coop.settle_chains(d, [Pending("chain", 0, card="C01"), Pending("chain", 0, card="C02")])
    assert d.players[0].chains == [["C01"], ["C02"]]
