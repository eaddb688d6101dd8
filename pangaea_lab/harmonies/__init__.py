"""Harmonies (Libellud, 2024): personal boards, token stacking, landscapes, animal habitats,
Nature's Spirits and solo play.

>>> from pangaea_lab import harmonies
>>> g = harmonies.new_game(players=2, seed=7, side="A", spirits=True)
>>> g.current_player, len(g.central)
(0, 5)

The package follows the template of every game (see ARCHITECTURE.md): ``game.py`` declares
the :data:`GAME` (seats and options), ``state.py`` holds the data, ``rules.py`` the rules,
``setup.py`` the setup, ``scoring.py`` every score; the parts are bound to the game here.
"""

from . import players, render, rules, scoring, setup
from .actions import ACTION_TYPES, ChooseSpirit, DiscardCard, EndTurn, PlaceCube, PlaceToken, \
    TakeCard, TakeTokens
from .board import board_graph, can_stack, cells, legal_stacks, neighbours
from .cards import Card, all_cards, card, load_cards
from .edition import Edition, assumptions, data_sources, load_edition
from .game import GAME, LINK
from . import summary
from .habitats import habitat_cells, pattern_cells
from .render import board_svg, plot_board
from .scoring import BoardScore, card_points, score_board, solo_suns
from .setup import new_game
from .state import GameState, HarmoniesState, PlayerArea

GAME.bind(new_game=setup.new_game, state=GameState, actions=ACTION_TYPES,
          legal_actions=rules.legal_actions, why=rules.why, handlers=rules.HANDLERS,
          scores=scoring.scores, to_svg=render.game_svg, load_edition=load_edition, link=LINK,
          bots=players.BOTS,
          # the greedy value of Harmonies is the state's evaluate hook, so every greedy
          # player uses it
          evaluate=players.value)
GAME.bind(summary=summary)   # what the simulation lab reads from a game

__all__ = [
    "BoardScore", "Card", "ChooseSpirit", "DiscardCard", "Edition", "EndTurn", "GAME",
    "GameState", "HarmoniesState", "PlaceCube", "PlaceToken", "PlayerArea", "TakeCard",
    "TakeTokens", "all_cards", "assumptions", "board_graph", "data_sources", "board_svg",
    "can_stack", "card", "card_points", "cells", "habitat_cells", "legal_stacks", "load_cards",
    "load_edition", "neighbours", "new_game", "pattern_cells", "plot_board", "score_board",
    "solo_suns",
]
