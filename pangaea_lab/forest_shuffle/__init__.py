"""Forest Shuffle (base game): cards, forests, scoring, the turn engine and widgets.

>>> from pangaea_lab import forest_shuffle as fs
>>> forest = fs.Forest.from_dict({"trees": [{"tree": "Oak", "top": ["Red Squirrel"]}]})
>>> fs.score([forest])[0].by_species
{'Oak': 0, 'Red Squirrel': 5}
"""

from .actions import (Decide, DrawCard, Finish, KeepHand, Mulligan, Pay, PlaceFree, PlayDweller,
                      PlaySapling, PlayTree, ToCave)
from .cards import Catalog, catalog, load_catalog, rules_data
from .forest import Dweller, Forest, Tree
from .rules import OPTION_DEFAULTS, legal_actions, new_game
from .render import forest_svg, plot_scores, position_svg, state_svg
from .scenario import arrange, find_card, play_named
from .scoring import ForestScore, check_answer, explain, score, score_forest
from .state import GameState, Step
from .widgets import ForestBuilderModel, forest_builder, play

__all__ = [
    "Catalog", "Decide", "DrawCard", "Dweller", "Finish", "Forest", "ForestBuilderModel",
    "ForestScore", "GameState", "KeepHand", "Mulligan", "OPTION_DEFAULTS", "Pay",
    "PlaceFree", "PlayDweller", "PlaySapling", "PlayTree", "Step", "ToCave", "Tree",
    "arrange", "catalog", "check_answer", "explain", "find_card", "forest_builder",
    "forest_svg", "legal_actions", "load_catalog", "new_game", "play", "play_named",
    "plot_scores", "position_svg", "rules_data", "score", "score_forest", "state_svg",
]
