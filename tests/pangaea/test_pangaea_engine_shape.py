"""The Dawn of Pangaea on the shared engine: its Game object, the legality front door
(``rules.why``), the handler table, the decision words and the scoring module."""

from dataclasses import replace

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.errors import IllegalAction, InvalidSetup
from pangaea_lab.core.players import RandomPlayer
from pangaea_lab.pangaea import EndTurn, FlyingSeed, GAME, GameState, SpiritGrowth, rules, scoring
from pangaea_lab.pangaea.state import Pending


def test_the_game_declares_seats_and_options_once():
    assert (GAME.min_players, GAME.max_players) == (1, 4)
    assert GAME.defaults() == {"family": False, "mode": "", "difficulty": "standard",
                               "wild_woods": False, "storms": True,
                               "storm_spares_thorondal": False}
    assert GameState.GAME is GAME and GAME.new_game(players=2, seed=1) == pangaea.new_game(
        players=2, seed=1)
    with pytest.raises(InvalidSetup, match="difficulty"):
        pangaea.new_game(players=2, difficulty="hard")
    with pytest.raises(InvalidSetup, match="storms"):
        pangaea.new_game(players=2, wild_woods=True, storms="yes")
    # the modes keep their own seat ranges, in the game's words
    with pytest.raises(InvalidSetup, match="2 to 4 players"):
        pangaea.new_game(players=1)
    assert pangaea.new_game(players=1, seed=2, mode="coop").num_players == 1


@pytest.mark.parametrize("options", [{}, {"family": True}, {"mode": "coop"},
                                     {"wild_woods": True}, {"mode": "coop", "wild_woods": True}])
def test_why_allows_every_listed_action_and_refuses_without_changing_anything(options):
    state = pangaea.new_game(players=2, seed=4, **options)
    bot = RandomPlayer(4)
    for _ in range(40):
        if state.is_over:
            break
        for action in state.legal_actions():
            assert rules.why(state, action) is None, action
        before = state.to_json()
        refusal = rules.why(state, SpiritGrowth(state.board.cells[state.board.land[0]]))
        assert isinstance(refusal, IllegalAction)          # a Spirit never stands on land
        assert state.to_json() == before
        state = state.apply(bot.choose(state))


def test_the_front_door_refuses_a_decision_out_of_turn_with_its_words():
    s = pangaea.new_game(players=2, seed=3)
    waiting = replace(s, decisions=(Pending("draw", 1),))
    assert waiting.pending.words() == "Blue must first choose a new Hand Ritual."
    refusal = rules.why(waiting, EndTurn())
    assert "A decision is waiting: Blue must first choose a new Hand Ritual." in str(refusal)
    with pytest.raises(IllegalAction, match="must first choose a new Hand Ritual"):
        waiting.apply(FlyingSeed(s.board.cells[s.board.land[0]]))


def test_every_action_type_has_a_handler():
    from pangaea_lab.pangaea import actions
    import inspect
    types = [c for _, c in inspect.getmembers(actions, inspect.isclass)
             if issubclass(c, actions.PangaeaAction) and c is not actions.PangaeaAction]
    assert types and all(t in rules.HANDLERS for t in types)


def test_scoring_works_on_a_hand_built_position():
    s = pangaea.new_game(players=2, seed=1)
    s = s.arranged(points={0: 12, 1: 30})
    assert [b.total for b in scoring.scores(s)] == [12, 30]
    assert scoring.mountain_position(31, s.edition.summit_steps) == (1, 1)
    ranked = scoring.rank_rituals(s)
    assert all(p == scoring.ritual_points(s, a) for p, a in ranked)
    assert scoring.winners(s) == []      # nobody wins before the end
