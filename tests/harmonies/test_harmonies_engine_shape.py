"""Harmonies on the shared engine: the Game object, the edition loader, legality through
``why``, the handler table, the save schema, invariants that raise and the greedy player."""

import json
import shutil
from dataclasses import replace
from importlib import resources

import pytest

from pangaea_lab import catalog, harmonies
from pangaea_lab.core.errors import IllegalAction, InvalidData, InvalidSetup
from pangaea_lab.core.players import GreedyPlayer, play_game
from pangaea_lab.core.validate import InvariantError
from pangaea_lab.harmonies import players, rules
from pangaea_lab.harmonies.actions import ACTION_TYPES, ChooseSpirit, PlaceToken, TakeTokens
from pangaea_lab.sim.games import reader


# ----- the Game object ---------------------------------------------------------------------------

def test_game_declares_seats_and_options_once():
    game = harmonies.GAME
    assert (game.min_players, game.max_players) == (1, 4)
    assert game.defaults() == {"side": "A", "spirits": True, "river_rule": "rings",
                               "tiebreak_counts_spirit": False}
    assert catalog.game("harmonies").players == (1, 4)
    lab = reader("harmonies")
    assert lab.players == (1, 4) and lab.options == game.defaults()


def test_game_object_starts_and_reads_games():
    state = harmonies.GAME.new_game(players=3, seed=5, side="B")
    assert state == harmonies.new_game(players=3, seed=5, side="B")
    assert harmonies.GAME.from_json(state.to_json()) == state
    assert state.GAME is harmonies.GAME and isinstance(state, harmonies.HarmoniesState)


def test_option_errors_keep_the_game_words():
    with pytest.raises(InvalidSetup, match="Harmonies is played by 1 to 4 players, not 0"):
        harmonies.new_game(players=0)
    with pytest.raises(InvalidSetup, match="tiebreak_counts_spirit must be"):
        harmonies.new_game(tiebreak_counts_spirit=1)
    assert harmonies.new_game(players=1, side="b").side == "B"   # lower case still read


# ----- the edition ---------------------------------------------------------------------------------

def test_shipped_edition_is_the_data_the_game_uses():
    e = harmonies.load_edition()
    assert e is harmonies.GAME.load_edition()
    assert dict(e.cards) == harmonies.all_cards() and e.rules == harmonies.board.rules_data()
    assert e.sources() == harmonies.data_sources()


def test_an_edition_of_your_own_cards_is_read_and_checked(tmp_path):
    data = resources.files("pangaea_lab.harmonies").joinpath("data")
    for name in ("animals.json", "spirits.json"):
        shutil.copyfile(str(data.joinpath(name)), tmp_path / name)
    mine = harmonies.load_edition(tmp_path)
    assert len(mine.cards) == 42 and str(tmp_path) in mine.label
    assert mine.sources()["animal cards"] == mine.label
    raw = json.loads((tmp_path / "animals.json").read_text())
    raw["cards"][0]["points"] = "many"
    (tmp_path / "animals.json").write_text(json.dumps(raw))
    with pytest.raises(InvalidData, match="points"):
        harmonies.load_edition(tmp_path)
    with pytest.raises(InvalidData, match="cannot read"):
        harmonies.load_edition(tmp_path / "nowhere")
    with pytest.raises(InvalidData, match="folder"):
        harmonies.load_edition(42)


# ----- legality and handlers ---------------------------------------------------------------------

def test_why_answers_none_for_a_legal_action_and_the_rule_otherwise():
    g = harmonies.new_game(players=2, seed=1)
    assert all(rules.why(g, a) is None for a in g.legal_actions())
    refusal = rules.why(g, TakeTokens(0))
    assert isinstance(refusal, IllegalAction) and refusal.rule == "Nature's Spirits"
    assert refusal.alternatives    # a few legal choices are offered
    g = g.apply(g.legal_actions()[0]).apply(TakeTokens(0))
    refusal = rules.why(g, TakeTokens(1))
    assert "already took tokens" in refusal.reason
    with pytest.raises(IllegalAction, match="already took tokens"):
        g.apply(TakeTokens(1))


def test_every_action_type_has_a_handler():
    assert all(tp in rules.HANDLERS for tp in ACTION_TYPES)


def test_a_handler_leaves_the_old_state_unchanged():
    g = harmonies.new_game(players=2, seed=2, spirits=False)
    before = g.to_json()
    after = g.apply(TakeTokens(2))
    cell = next(a for a in after.legal_actions() if isinstance(a, PlaceToken)).cell
    after.apply(PlaceToken(after.hand[0], cell))
    assert g.to_json() == before and after.central[2] == () and len(after.hand) == 3


# ----- saves and invariants ----------------------------------------------------------------------

def test_a_bad_save_field_is_named_by_its_path():
    g = harmonies.new_game(players=2, seed=8)
    data = json.loads(g.to_json())
    data["areas"][1]["cubes"][3] = "three"
    with pytest.raises(InvalidData, match=r"save\.areas\[1\]\.cubes\[3\]"):
        harmonies.GameState.from_json(json.dumps(data))
    data = json.loads(g.to_json())
    data["areas"][0]["cards"] = [[99, 0]]
    with pytest.raises(InvalidData, match=r"save\.areas\[0\]\.cards\[0\].*no card number 99"):
        harmonies.GameState.from_json(json.dumps(data))
    data = json.loads(g.to_json())
    data["river_rule"] = "diameter"
    with pytest.raises(InvalidData, match=r"save\.river_rule"):
        harmonies.GameState.from_json(json.dumps(data))
    data = json.loads(g.to_json())
    data["areas"] = data["areas"] * 3
    with pytest.raises(InvalidData, match=r"save\.areas"):
        harmonies.GameState.from_json(json.dumps(data))


def test_broken_conservation_raises_an_invariant_error():
    g = harmonies.new_game(players=2, seed=8)
    broken = replace(g, cube_supply=3)
    with pytest.raises(InvariantError, match="animal cubes not conserved"):
        broken.check_invariants()


# ----- the computer players ------------------------------------------------------------------------

def test_the_harmonies_greedy_player_is_the_shared_one_with_the_game_value():
    assert harmonies.GAME.bots["greedy"] is players.Greedy
    start = harmonies.new_game(players=1, seed=6, spirits=False)
    a = play_game(start, players.Greedy(0))
    b = play_game(start, GreedyPlayer(0))       # through the state's evaluate hook
    assert a == b and a.is_over
    g = start.apply(TakeTokens(0))
    action = g.legal_actions()[0]
    assert g.evaluate(action, 0) == players.value(g, action, 0)
