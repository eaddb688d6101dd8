"""Saving and loading games, and bad input leaving the state unchanged."""

import json

import pytest

from pangaea_lab import pangaea
from pangaea_lab.core.errors import IllegalAction, InvalidData
from pangaea_lab.core.players import RandomPlayer
from pangaea_lab.pangaea import FlyingSeed, GameState, load_edition


def midgame(seed=3, players=3, steps=150):
    s = pangaea.new_game(players=players, seed=seed)
    bot = RandomPlayer(seed)
    for _ in range(steps):
        s = s.apply(bot.choose(s))
    return s


def test_round_trip_is_exact():
    s = midgame()
    text = s.to_json()
    again = GameState.from_json(text)
    assert again == s and again.to_json() == text
    assert again.legal_actions() == s.legal_actions()


@pytest.mark.parametrize("options", [{}, {"mode": "coop"}, {"wild_woods": True}])
def test_a_save_is_canonical_text_with_the_boards_rows_in_their_place(options):
    """The board's rows, written once per board and put in their place in a save, give the
    same text as writing the whole save at once: the edition first, then every other field
    in sorted order, compact."""
    from pangaea_lab.core import jsonio
    s = pangaea.new_game(players=2, seed=5, **options)
    bot = RandomPlayer(5)
    for step in range(60):
        text = s.to_json()
        data = json.loads(text)
        assert data["board"] == s.board.to_list()
        edition = data.pop("edition")
        assert text == ('{"edition":' + jsonio.dumps(edition) + ","
                        + jsonio.dumps(data)[1:])
        assert GameState.from_json(text).to_json() == text
        s = s.apply(bot.choose(s))


def tampered(mutate):
    data = json.loads(midgame().to_json())
    mutate(data)
    return json.dumps(data)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(game="chess"), "field 'game'"),
    (lambda d: d.update(format=99), "field 'format'"),
    (lambda d: d.pop("trees"), "missing field save.trees"),
    (lambda d: d["players"][0].update(trees=d["players"][0]["trees"] + 1), "Trees"),
    (lambda d: d["players"][0]["weather"].update(Sun=d["players"][0]["weather"]["Sun"] + 1),
     "Weather Tokens"),
    (lambda d: d["players"][1].update(hand=["NOPE"]), "'NOPE' is not a card"),
    (lambda d: d["land_deck"].append(d["land_deck"][0]), "exactly one place"),
    (lambda d: d["trees"].append([99, 99, 0]), "not a space"),
    (lambda d: d.update(phase="halftime"), "field 'phase'"),
    (lambda d: d.update(turn_player=7), "turn_player"),
    (lambda d: d["spirits"].__setitem__(0, d["trees"][0][:2] if d["trees"] else [99, 0]), "Spirit|not a space"),
    (lambda d: (d.update(edition=json.loads(load_edition().canonical_json)),
                d["edition"]["summit_steps"].update(value=-3)), "summit_steps"),
    (lambda d: d.update(actions_taken=5), "actions_taken"),
])
def test_tampered_save_names_the_problem(mutate, message):
    with pytest.raises(InvalidData, match=message):
        GameState.from_json(tampered(mutate))


def test_not_json_at_all():
    with pytest.raises(InvalidData, match="not valid JSON"):
        GameState.from_json("{{{")
    with pytest.raises(InvalidData, match="JSON object"):
        GameState.from_json("[1, 2]")


def test_illegal_action_leaves_the_state_unchanged_and_lists_alternatives():
    s = midgame(steps=20)
    before = s.to_json()
    water = s.board.cells[s.board.water[0]]
    with pytest.raises(IllegalAction) as info:
        s.apply(FlyingSeed(water))
    assert s.to_json() == before
    message = str(info.value)
    assert "rule: Flying Seed" in message or "decision" in message or "actions" in message
    assert isinstance(info.value, ValueError)


def test_foreign_objects_are_refused():
    s = pangaea.new_game(players=2, seed=1)
    with pytest.raises(IllegalAction, match="not an action"):
        s.apply("place a seed")


def test_a_save_names_the_shipped_edition_and_embeds_any_other():
    state = pangaea.new_game(players=2, seed=3)
    text = state.to_json()
    assert json.loads(text)["edition"] == "reference"
    assert GameState.from_json(text) == state
    data = json.loads(load_edition().canonical_json)
    data["name"] = "Club edition"
    own = pangaea.new_game(players=2, seed=3, edition=data)
    saved = json.loads(own.to_json())
    assert saved["edition"]["name"] == "Club edition"
    assert GameState.from_json(own.to_json()) == own
    # an older save with the shipped edition embedded still loads
    saved = json.loads(text)
    saved["edition"] = json.loads(load_edition().canonical_json)
    assert GameState.from_json(json.dumps(saved)) == state


def test_a_save_naming_an_edition_not_shipped_is_refused():
    data = json.loads(pangaea.new_game(players=2, seed=3).to_json())
    for name in ("/etc/passwd", "my club", "reference.json"):
        data["edition"] = name
        with pytest.raises(InvalidData, match="not the name of an edition shipped"):
            GameState.from_json(json.dumps(data))
