"""Forest Shuffle (base game): cards, forests, scoring, the turn engine and widgets.

The modules follow the package template (see ARCHITECTURE.md): ``game`` declares the seats
and options, ``edition`` loads the cards, ``state`` is the data, ``rules`` the legality and
handlers, ``setup`` starts a game, ``scoring`` scores forests, ``render``/``widgets`` draw and
show, ``players`` estimates moves for the computer.  The parts are bound to the game here,
in one place above them all.

>>> from pangaea_lab import forest_shuffle as fs
>>> forest = fs.Forest.from_dict({"trees": [{"tree": "Oak", "top": ["Red Squirrel"]}]})
>>> fs.score([forest])[0].by_species
{'Oak': 0, 'Red Squirrel': 5}
"""

from ..core.players import GreedyPlayer, RandomPlayer
from . import edition, players, render, rules, scoring, setup
from .actions import (ACTION_TYPES, Decide, DrawCard, Finish, KeepHand, Mulligan, Pay,
                      PlaceFree, PlayDweller, PlaySapling, PlayTree, ToCave)
from .cards import Catalog
from .edition import catalog, load_catalog, load_edition, rules_data
from .forest import Dweller, Forest, Tree
from .game import GAME, LINK, OPTION_DEFAULTS
from . import summary
from .render import forest_svg, plot_scores, position_svg, state_svg
from .rules import legal_actions
from .scenario import arrange, find_card, play_named
from .scoring import ForestScore, check_answer, explain, score, score_forest
from .setup import new_game
from .state import GameState, Step
from .widgets import ForestBuilderModel, forest_builder, play

GAME.bind(new_game=setup.new_game, state=GameState, actions=ACTION_TYPES,
          legal_actions=rules.legal_actions, why=rules.why, handlers=rules.HANDLERS,
          scores=scoring.game_scores, to_svg=render.state_svg, load_edition=edition.load_edition, link=LINK,
          bots={"random": RandomPlayer, "greedy": GreedyPlayer},
          # what the state and the forests need from the layers above them
          evaluate=players.estimate_gain, safety_net=players.safety_net,
          forest_svg=render.forest_svg)
GAME.bind(summary=summary)   # what the simulation lab reads from a game

__all__ = [
    "Catalog", "Decide", "DrawCard", "Dweller", "Finish", "Forest", "ForestBuilderModel",
    "ForestScore", "GAME", "GameState", "KeepHand", "Mulligan", "OPTION_DEFAULTS", "Pay",
    "PlaceFree", "PlayDweller", "PlaySapling", "PlayTree", "Step", "ToCave", "Tree",
    "arrange", "catalog", "check_answer", "explain", "find_card", "forest_builder",
    "forest_svg", "legal_actions", "load_catalog", "load_edition", "new_game", "play",
    "play_named", "plot_scores", "position_svg", "rules_data", "score", "score_forest",
    "state_svg",
]
