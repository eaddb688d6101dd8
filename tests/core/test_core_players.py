"""Computer players and play_game, on the toy game."""

import pytest

from pangaea_lab.core import GreedyPlayer, RandomPlayer, play_game
from pangaea_lab.core.players import Player

import toy_game
from toy_game import Pass, Place


def test_random_player_is_seeded():
    a = play_game(toy_game.new_game(players=3, seed=4), RandomPlayer(9))
    b = play_game(toy_game.new_game(players=3, seed=4), RandomPlayer(9))
    assert a.is_over and a.to_json() == b.to_json()
    others = {play_game(toy_game.new_game(players=3, seed=4), RandomPlayer(s)).to_json()
              for s in range(6)}
    assert len(others) > 1


def test_random_player_picks_a_kind_first():
    # two kinds (place, pass): passing is chosen about half the time although it is one of
    # many actions
    state = toy_game.new_game(rocks=0)
    bot = RandomPlayer(1)
    picks = [bot.choose(state) for _ in range(400)]
    passes = sum(isinstance(a, Pass) for a in picks)
    assert 150 < passes < 250
    assert all(a in state.legal_actions() for a in picks)


def test_players_refuse_a_finished_game():
    over = play_game(toy_game.new_game(), RandomPlayer(0))
    for bot in (RandomPlayer(0), GreedyPlayer(0)):
        with pytest.raises(ValueError, match="game is over"):
            bot.choose(over)


def test_greedy_takes_the_best_immediate_gain():
    # Red has a stone in the centre; a stone next to it scores 2 (stone + link), elsewhere 1
    state = toy_game.new_game(rocks=0).apply(Place((0, 0))).apply(Place((2, -2)))
    for seed in range(10):
        choice = GreedyPlayer(seed).choose(state)
        assert isinstance(choice, Place) and choice.cell in {(1, 0), (1, -1), (0, -1),
                                                             (-1, 0), (-1, 1), (0, 1)}


def test_greedy_uses_a_games_evaluate_hook():
    class PassLover(toy_game.MossState):
        def evaluate(self, action, player):
            return 10 if isinstance(action, Pass) else 0

    state = PassLover(2, 0, ())
    assert GreedyPlayer(0).choose(state) == Pass()
    assert GreedyPlayer(0).gain(state, Place((0, 0)), 0) == 0


def test_greedy_beats_random_most_of_the_time():
    wins = 0
    for seed in range(10):
        final = play_game(toy_game.new_game(seed=seed), [GreedyPlayer(seed), RandomPlayer(seed)])
        wins += final.winners() == [0]
    assert wins >= 7


def test_play_game_calls_on_step_with_each_move():
    seen = []
    start = toy_game.new_game(players=2, seed=1)
    final = play_game(start, [RandomPlayer(1), RandomPlayer(2)],
                      on_step=lambda before, action, after: seen.append((before, action, after)))
    assert final.is_over
    assert seen[0][0] is start and seen[-1][2] is final
    for (before, action, after), nxt in zip(seen, seen[1:] + [(final, None, None)]):
        assert before.apply(action) == after
        assert after is nxt[0]


def test_play_game_from_a_finished_state_returns_it():
    over = play_game(toy_game.new_game(), RandomPlayer(0))
    assert play_game(over, RandomPlayer(0)) is over


def test_play_game_gives_up_after_max_steps():
    class Passer(Player):
        name = "passer"

        def choose(self, state):
            return Pass()

    # two players passing twice each end the game in exactly four moves
    assert play_game(toy_game.new_game(), Passer(), max_steps=4).is_over
    with pytest.raises(RuntimeError, match="did not end within 3 actions"):
        play_game(toy_game.new_game(), Passer(), max_steps=3)
