"""Inori on the shared engine shape: the Game object, the legality front door, the handlers,
pending decisions, the save schema and the computer players."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from pangaea_lab import inori
from pangaea_lab.core.engine import Decision
from pangaea_lab.core.errors import IllegalAction, InvalidData, InvalidSetup
from pangaea_lab.core.players import GreedyPlayer, RandomPlayer
from pangaea_lab.inori import players, rules, scoring
from pangaea_lab.inori.actions import ACTION_TYPES, ChooseAltar, EndTurn, OfferCard, OfferTree

from inori_helpers import game


def test_the_game_declares_seats_and_the_marker_schedules_of_the_shipped_edition():
    assert inori.GAME.seats == range(2, 5)
    option = inori.GAME.options["marker_schedule"]
    assert option.values == tuple(inori.load_edition().schedules)
    assert option.default == "default"
    assert inori.GAME.bots == players.BOTS


def test_an_edition_of_your_own_may_name_marker_schedules_of_its_own():
    data = inori.reference_data()
    data["marker_schedule"]["slow"] = copy.deepcopy(data["marker_schedule"]["default"])
    state = inori.new_game(players=2, seed=1, edition=data, marker_schedule="slow")
    assert state.schedule == inori.new_game(players=2, seed=1).schedule
    with pytest.raises(InvalidSetup, match="marker_schedule must be one of 'default'"):
        inori.new_game(players=2, seed=1, edition=data, marker_schedule="fast")
    with pytest.raises(InvalidSetup, match="marker_schedule must be one of"):
        inori.new_game(players=2, seed=1, marker_schedule="slow")


def test_why_allows_every_listed_action_and_explains_the_others():
    state = game(players=3, seed=2)
    for action in state.legal_actions():
        assert rules.why(state, action) is None
    refusal = rules.why(state, EndTurn())
    assert isinstance(refusal, IllegalAction) and refusal.rule == "Turn"
    assert "before ending your turn" in str(refusal)


def test_every_action_type_has_a_handler():
    assert all(tp in rules.HANDLERS for tp in ACTION_TYPES)


def test_the_package_writes_no_attribute_table_itself():
    """States are plain data: what the rules keep with a state or an edition goes through
    ``core.memo``, and no module of the package names an attribute table or sets an
    attribute past a frozen class."""
    folder = Path(inori.__file__).parent
    found = [f"{path.name}:{n}" for path in sorted(folder.glob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if "__dict__" in line or "object.__setattr__" in line]
    assert found == []


def test_a_pending_decision_is_a_core_decision_saved_as_before():
    state = game(players=2, seed=0)
    altar = next(a for a in state.legal_actions()
                 if isinstance(a, OfferTree) and state.edition.tree[a.space].altar)
    after = state.apply(altar)
    d = after.pending[0]
    assert isinstance(d, Decision) and d.kind == "altar" and d.player == 0
    assert d.data == (altar.space,)
    assert json.loads(after.to_json())["pending"] == [["altar", altar.space]]
    with pytest.raises(IllegalAction, match="you must first choose an Altar tile"):
        after.apply(OfferCard(0, 0))
    assert any(isinstance(a, ChooseAltar) for a in after.legal_actions())
    assert inori.GameState.from_json(after.to_json()) == after


@pytest.mark.parametrize("change, words", [
    (lambda d: d["pending"].append(["altar", 99]), "pending[0][1]: expected a whole number"),
    (lambda d: d["pending"].append(["shrug"]), "pending[0][0]: unknown decision 'shrug'"),
    (lambda d: d.update(reports=[{}]), "reports: expected 0 entries, got 1"),
    (lambda d: d.update(schedule=[1, 2, 3, 4]), "is not a marker schedule of this edition"),
    (lambda d: d.update(seed=[1]), "seed: expected a whole number or a short text"),
])
def test_the_save_schema_names_the_bad_field(change, words):
    data = json.loads(game(players=2, seed=5).to_json())
    change(data)
    with pytest.raises(InvalidData) as info:
        inori.GameState.from_json(json.dumps(data))
    assert words in str(info.value)


def test_the_greedy_player_is_the_core_loop_with_the_games_measure():
    state = game(players=2, seed=4)
    bot, core = players.OutlookPlayer(9), GreedyPlayer(9)
    for _ in range(30):
        if state.is_over:
            break
        action = bot.choose(state)
        assert action == core.choose(state)      # the state's evaluate hook is the same measure
        state = state.apply(action)
    assert state.evaluate(RandomPlayer(1).choose(state), state.current_player) == \
        players.evaluate(state, RandomPlayer(1).choose(state), state.current_player)


def test_scores_and_winners_come_from_the_scoring_module():
    state = game(players=2, seed=3)
    assert state.scores() == scoring.scores(state)
    assert [c for c, _ in state.scores()[0].categories] == list(scoring.CATEGORIES)
    assert state.winners() == [] == scoring.winners(state)
