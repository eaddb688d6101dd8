"""Save files: exact round-trip, and malformed saves refused with the field named."""

from __future__ import annotations

import json

import pytest

from pangaea_lab import inori
from pangaea_lab.core.errors import InvalidData
from pangaea_lab.core.players import RandomPlayer


def midgame():
    state = inori.new_game(players=3, seed=17)
    bot = RandomPlayer(17)
    for _ in range(40):
        state = state.apply(bot.choose(state))
    return state


def test_round_trip_is_exact_and_the_reference_edition_is_saved_by_name():
    state = midgame()
    text = state.to_json()
    assert json.loads(text)["edition"] == "reference"
    again = inori.GameState.from_json(text)
    assert again == state and again.to_json() == text
    assert again.legal_actions() == state.legal_actions()


def _broken(change):
    data = json.loads(midgame().to_json())
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(game="harmonies"), "field 'game'"),
    (lambda d: d.pop("favor"), "missing field 'favor'"),
    (lambda d: d.update(players=7), "players: expected a whole number from 2 to 4, got 7"),
    (lambda d: d["slots"][0].__setitem__(0, "X-unknown"), "slots[0][0]: expected a card id of this edition, got a text 'X-unknown'"),
    (lambda d: d["supply"].__setitem__(0, d["supply"][0] + 1), "light favor tokens not conserved"),
    (lambda d: d.update(hand=[9, 9, 9]), "hand[0]: expected a whole number from 0 to 7, got 9"),
    (lambda d: d.update(hand=[4, 4, 4]), "markers not conserved"),
    (lambda d: d.update(hand=[4, 4]), "hand: expected 3 entries, got 2"),
    (lambda d: d.update(season=9), "season: expected a whole number from 1 to 4, got 9"),
    (lambda d: d.update(favor="lots"), "favor: expected a list, got a text"),
    (lambda d: d["favor"][1].__setitem__(2, "x"), "favor[1][2]: expected a whole number, got a text"),
    (lambda d: d["slots"].__setitem__(0, 5), "slots[0]: expected [card id, spaces], got a whole number"),
])
def test_a_malformed_save_is_refused_with_a_plain_reason(change, words):
    with pytest.raises(InvalidData) as info:
        inori.GameState.from_json(_broken(change))
    assert words in str(info.value)


def test_not_json_at_all():
    with pytest.raises(InvalidData, match="not valid JSON"):
        inori.GameState.from_json("{oops")
