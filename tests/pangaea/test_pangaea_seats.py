"""The Dawn of Pangaea's seats per way to play are declared once, on its GAME (the seats of
its ``mode`` option): the catalogue, the step-through widget and setup all ask it."""

from dataclasses import replace

import pytest

from pangaea_lab import catalog
from pangaea_lab.core.errors import InvalidSetup
from pangaea_lab.pangaea import GAME, new_game
from pangaea_lab.pangaea.widgets import play

WAYS = ("Full game with the Ancients", "Family rules", "Return of the Ancients (solo/co-op)",
        "Wild Woods", "Return of the Ancients with Wild Woods")


def _ways() -> dict[str, tuple[int, int]]:
    return {way.name: way.players for way in catalog.game("pangaea").ways_to_play()}


def test_the_declared_seats():
    assert GAME.players_for({}) == (2, 4)
    assert GAME.players_for({"mode": "coop"}) == GAME.players_for({"mode": "ancients"}) == (1, 4)
    assert _ways() == dict(zip(WAYS, [(2, 4), (2, 4), (1, 4), (2, 4), (1, 4)]))


def test_the_catalogue_the_widget_and_setup_read_the_game(monkeypatch):
    """Another declaration on the game (three or four for the competitive game, two to four
    for Return of the Ancients) is what all three then use."""
    mode = GAME.options["mode"]
    monkeypatch.setitem(GAME.options, "mode", replace(
        mode, seats=(("", (3, 4)), ("coop", (2, 4)), ("ancients", (2, 4)))))
    assert _ways() == dict(zip(WAYS, [(3, 4), (3, 4), (2, 4), (3, 4), (2, 4)]))
    assert play(players=3, seed=1, computer={}).model.player_range == (3, 4)
    assert play(players=2, seed=1, mode="coop", computer={}).model.player_range == (2, 4)
    with pytest.raises(InvalidSetup, match="Wild Woods is for 3 to 4 players, not 2"):
        new_game(players=2, seed=1, wild_woods=True)
    assert new_game(players=3, seed=1, wild_woods=True).num_players == 3
