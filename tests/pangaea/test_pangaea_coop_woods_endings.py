"""Return of the Ancients with Wild Woods: a game that ends (won or lost) while Treetops are on
their way still accounts for every piece, and its final state saves and loads.

The seeds are games in which random players lost while a Treetop was taken but not yet placed,
or was on its way back to a Player Board (issue 15, finding 1).  Rule label
'coop-end-treetops'.
"""

import random
from dataclasses import replace

import pytest

from pangaea_lab import pangaea
from pangaea_lab.pangaea import GameState
from pangaea_lab.pangaea.state import Pending


def random_final(seed, stream, players=2, max_steps=6000):
    state = pangaea.new_game(players=players, seed=seed, mode="coop", wild_woods=True)
    rng = random.Random(stream)
    for _ in range(max_steps):
        if state.is_over:
            return state
        state = state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"seed {seed}: the game did not end in {max_steps} steps")


def treetops_owned(state, p):
    b = state.board
    return (sum(state.woods.treetops[i] for i in b.land if state.trees[i] == p)
            + state.woods.player_boards[p].slots.count(True))


def check_final(state):
    assert state.is_over and state.coop.result in ("won", "lost")
    assert not state.decisions and not state.legal_actions()
    state.check_invariants()
    for p in range(state.num_players):   # no Treetop is left "in hand" in a finished game
        assert treetops_owned(state, p) == 6
    back = GameState.from_json(state.to_json())
    assert back.to_json() == state.to_json()


@pytest.mark.parametrize("seed,stream", [(90, 90), (192, 192), (306, 306), (1169, 1169),
                                         (2387, 2387), (69, 100069), (151, 100151)])
def test_a_co_op_wild_woods_game_lost_with_treetops_on_their_way_saves_and_loads(seed, stream):
    check_final(random_final(seed, stream))


def test_treetops_on_their_way_when_the_team_loses_find_a_place():
    """The team loses while Red still has to place a Treetop it paid for and one of Blue's
    Treetops is on its way back to Blue's Player Board: Red's goes on Red's Tree, Blue's onto
    the empty slot (assumption 'coop-end-treetops')."""
    from pangaea_lab.pangaea import coop
    from pangaea_lab.pangaea.draft import Draft
    from pangaea_lab.pangaea.variant import active

    s = pangaea.new_game(players=2, seed=7, mode="coop", wild_woods=True)
    boards = tuple(replace(pb, slots=(False,) + pb.slots[1:]) for pb in s.woods.player_boards)
    s = s.edited(player_boards=boards,
                decisions=(Pending("raise", 0), Pending("treetop", 1, amount=1)))
    s.check_invariants()                            # Treetops: 5 on the board + 1 on the way
    red_tree = s.board.index[s.trees_of(0)[0]]
    d = Draft(s, active(s))
    coop.finish(d, "lost", "the last Scourge Marker was placed")
    lost = d.freeze()
    assert lost.coop.result == "lost" and not lost.decisions
    assert lost.woods.treetops[red_tree] == 1 and lost.woods.player_boards[1].slots == (True,) * 6
    check_final(lost)


def test_known_seeds_still_end_with_treetops_on_their_way():
    """Random games that end while a returned Treetop still waits for its slot."""
    for seed, stream in [(41, 41), (271, 271), (590, 100590)]:
        state = pangaea.new_game(players=2, seed=seed, mode="coop", wild_woods=True)
        rng = random.Random(stream)
        while not state.is_over:
            before = state
            state = state.apply(rng.choice(state.legal_actions()))
        assert any(x.kind in ("raise", "treetop") for x in before.decisions), seed
        check_final(state)


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, 300, 50))
def test_co_op_wild_woods_final_states_are_sound_over_many_seeds(first):
    for seed in range(first, first + 50):
        for stream in (seed, seed + 100000):
            check_final(random_final(seed, stream))
