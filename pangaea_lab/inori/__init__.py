"""Inori: offer to spirit cards and the Great Tree over four seasons.

>>> from pangaea_lab import inori
>>> state = inori.new_game(players=2, seed=7)
>>> state.edition.label
'assumption'
"""

from .edition import Edition, load_edition, reference_data, reference_edition
from .scoring import describe_preview, score_card, score_majorities, season_end_preview
from .setup import new_game
from .state import InoriState
from .widgets import play, season_explorer

GameState = InoriState

__all__ = ["Edition", "GameState", "InoriState", "describe_preview", "load_edition",
           "new_game", "play", "reference_data", "reference_edition", "score_card",
           "score_majorities", "season_end_preview", "season_explorer"]
