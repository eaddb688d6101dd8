"""The shared protocol: score breakdowns, grouping actions, default hooks, teaching errors."""

import dataclasses

import pytest

from pangaea_lab.core import (IllegalAction, InvalidData, InvalidSetup, PangaeaLabError,
                              ScoreBreakdown, group_by_kind)
from pangaea_lab.core.protocol import GameState, as_mapping, score_gain

import toy_game
from toy_game import Pass, Place


def test_score_breakdown_totals_and_lookup():
    s = ScoreBreakdown(player=0, categories=(("Rituals", 12), ("Most Trees", 2)))
    assert s.total == 14
    assert s["Most Trees"] == 2
    assert s.as_dict() == {"Rituals": 12, "Most Trees": 2, "Total": 14}
    assert list(s.as_dict()) == ["Rituals", "Most Trees", "Total"]
    with pytest.raises(KeyError):
        s["Animals"]


def test_score_breakdown_empty_negative_and_notes():
    assert ScoreBreakdown(1, ()).total == 0
    assert ScoreBreakdown(1, (("A", 5), ("Penalty", -3))).total == 2
    # notes explain a score but do not make two equal scores different
    a = ScoreBreakdown(0, (("A", 1),), notes=("from the left column",))
    assert a == ScoreBreakdown(0, (("A", 1),))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.player = 3


def test_group_by_kind_keeps_first_seen_order():
    actions = [Place((0, 0)), Pass(), Place((1, 0))]
    groups = group_by_kind(actions)
    assert list(groups) == ["place", "pass"]
    assert groups["place"] == [Place((0, 0)), Place((1, 0))]
    assert group_by_kind([]) == {}


def test_actions_are_hashable_values():
    assert Place((0, 0)) == Place((0, 0))
    assert len({Place((0, 0)), Place((0, 0)), Pass()}) == 2
    assert Place((0, 0)) in toy_game.new_game(rocks=0).legal_actions()


def test_errors_are_value_errors():
    for cls in (IllegalAction, InvalidData, InvalidSetup):
        assert issubclass(cls, PangaeaLabError)
        assert issubclass(cls, ValueError)


def test_illegal_action_message_names_rule_and_alternatives():
    err = IllegalAction("that space is taken", rule="Placing a tile",
                        alternatives=[f"option {i}" for i in range(9)])
    assert err.reason == "that space is taken"
    assert err.rule == "Placing a tile"
    assert err.alternatives == tuple(f"option {i}" for i in range(5))
    assert str(err) == ("that space is taken (rule: Placing a tile)\n"
                        "Legal choices include: option 0; option 1; option 2; option 3; option 4")
    assert str(IllegalAction("no")) == "no"


def test_reject_lists_legal_alternatives_of_the_same_kind():
    state = toy_game.new_game(rocks=0)
    err = state.reject("nope", rule="Placing", like=Pass)
    assert err.alternatives == ("Pass",)
    err = state.reject("nope")
    assert err.alternatives[0] == "Place a stone on (0, 0)" and len(err.alternatives) == 5
    # a kind with no legal action falls back to any legal action
    class Other(Place):
        pass
    assert state.reject("nope", like=Other).alternatives[0] == "Place a stone on (0, 0)"


def test_illegal_apply_raises_and_changes_nothing():
    state = toy_game.new_game(rocks=0).apply(Place((0, 0)))
    before = state.to_json()
    with pytest.raises(IllegalAction, match=r"cannot do this now.*rule: Placing a stone"):
        state.apply(Place((0, 0)))
    assert state.to_json() == before


class Bare(GameState):
    """A state that only implements the required parts, to see the default hooks."""

    def __init__(self, totals, over=True):
        self.totals, self.over = totals, over

    num_players = property(lambda self: len(self.totals))
    current_player = property(lambda self: None if self.over else 0)
    is_over = property(lambda self: self.over)

    def legal_actions(self):
        return [] if self.over else [Pass()]

    def apply(self, action):
        return Bare([t + 1 for t in self.totals], over=True)

    def scores(self):
        return [ScoreBreakdown(p, (("Points", t),)) for p, t in enumerate(self.totals)]

    def to_json(self):
        return "{}"

    @classmethod
    def from_json(cls, text):
        return cls([])


def test_default_hooks():
    state = Bare([3, 5])
    assert state.player_name(1) == "Player 2"
    assert state.player_summary(0) == ""
    assert state.to_svg().startswith("<svg") and state._repr_svg_() == state.to_svg()
    assert state.check_invariants() is None
    assert state.game == "game"


def test_winners_include_ties_and_wait_for_the_end():
    assert Bare([3, 5, 5]).winners() == [1, 2]
    assert Bare([7, 5]).winners() == [0]
    assert Bare([7, 5], over=False).winners() == []


def test_score_gain_and_as_mapping():
    before = Bare([1, 1], over=False)
    assert score_gain(before, before.apply(Pass()), 0) == 1
    assert as_mapping({"a": 1}) == {"a": 1}
    with pytest.raises(InvalidData, match="expected a JSON object, found list"):
        as_mapping([1])
