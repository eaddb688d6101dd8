"""Harmonies (Libellud, 2024): personal boards, token stacking, landscapes, animal habitats,
Nature's Spirits and solo play.

>>> from pangaea_lab import harmonies
>>> g = harmonies.new_game(players=2, seed=7, side="A", spirits=True)
>>> g.current_player, len(g.central)
(0, 5)
"""

from .actions import ChooseSpirit, DiscardCard, EndTurn, PlaceCube, PlaceToken, TakeCard, \
    TakeTokens
from .board import assumptions, board_graph, data_sources, can_stack, cells, legal_stacks, neighbours
from .cards import Card, all_cards, card, load_cards
from .habitats import habitat_cells, pattern_cells
from .render import board_svg, plot_board
from .rules import new_game
from .scoring import BoardScore, card_points, score_board, solo_suns
from .state import HarmoniesState, PlayerArea

GameState = HarmoniesState

__all__ = [
    "BoardScore", "Card", "ChooseSpirit", "DiscardCard", "EndTurn", "GameState",
    "HarmoniesState", "PlaceCube", "PlaceToken", "PlayerArea", "TakeCard", "TakeTokens",
    "all_cards", "assumptions", "board_graph", "data_sources", "board_svg", "can_stack", "card", "card_points", "cells", "habitat_cells",
    "legal_stacks", "load_cards", "neighbours", "new_game", "pattern_cells", "plot_board", "score_board",
    "solo_suns",
]
