"""What the lab reads from a game comes from its Game: the reader's title, seats, option
defaults and computer players are the Game's, and the columns and events of a game's row come
from the game's own ``summary`` part, which defines only the hooks the lab knows."""

from __future__ import annotations

import importlib
import inspect

import pandas as pd
import pytest

from pangaea_lab.core.players import GreedyPlayer
from pangaea_lab.games import GAMES
from pangaea_lab.sim import games as sim_games
from pangaea_lab.simulate import simulate


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_reader_is_made_from_the_game(game):
    read = sim_games.reader(game.name)
    assert read.GAME is game and read.title == game.title
    assert read.players == (game.min_players, game.max_players)
    assert read.options == game.defaults()
    assert read.bots == game.bots and list(read.bots)[:2] == ["random", "greedy"]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_each_game_binds_a_summary_of_known_hooks(game):
    """The summary part is the module ``<game>/summary.py``; every function it defines is a
    hook of the lab (a misspelt name would be left unused) and every hook the reader holds is
    the module's own or the lab's default."""
    importlib.import_module(f"pangaea_lab.{game.name}")
    part = game.part("summary")
    assert part is importlib.import_module(f"pangaea_lab.{game.name}.summary")
    own = {name for name, value in vars(part).items()
           if inspect.isfunction(value) and value.__module__ == part.__name__
           and not name.startswith("_")}
    assert own and own <= set(sim_games.HOOKS)
    hooks = sim_games.reader(game.name).hooks
    assert set(hooks) == set(sim_games.HOOKS)
    for name in sim_games.HOOKS:
        assert hooks[name] is (getattr(part, name) if name in own else sim_games.DEFAULTS[name])


def test_a_hook_left_out_takes_the_default():
    assert "step_events" not in vars(sim_games.reader("inori").GAME.part("summary"))
    assert sim_games.reader("inori").hooks["step_events"] is None
    assert sim_games.reader("inori").hooks["cooperative"]({"anything": 1}) is False


def test_team_modes_come_from_the_mode_option():
    """The options that make one team are read off Pangaea's declared ``mode`` option."""
    cooperative = sim_games.reader("pangaea").hooks["cooperative"]
    modes = sim_games.reader("pangaea").GAME.options["mode"].values
    assert [cooperative({"mode": mode}) for mode in modes] == [bool(mode) for mode in modes]


@pytest.mark.parametrize("game", [g.name for g in GAMES
                                  if sim_games.reader(g.name).bots["greedy"] is not GreedyPlayer])
def test_the_shared_greedy_player_plays_as_the_games_own(game):
    """A game whose ``greedy`` is its own class built on the shared ``GreedyPlayer`` (with the
    measure it also binds as the state's ``evaluate`` hook) plays the same games with either,
    and the shared one given as a class keeps the short name in the table."""
    own = simulate(game, players=2, seeds=2, bots="greedy,random", progress=False)
    shared = simulate(game, players=2, seeds=2, bots=[GreedyPlayer, "random"], progress=False)
    pd.testing.assert_frame_equal(own, shared)
