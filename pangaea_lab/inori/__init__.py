"""Inori: offer to spirit cards and the Great Tree over four seasons.

>>> from pangaea_lab import inori
>>> state = inori.new_game(players=2, seed=7)
>>> state.edition.label
'assumption'
>>> inori.GAME.from_json(state.to_json()) == state
True

The package follows the template every game shares: :mod:`.game` declares the seats and
options, :mod:`.state` holds the data, :mod:`.rules` the legality and the handlers,
:mod:`.scoring` all the scoring, :mod:`.render` the drawing and :mod:`.players` the computer
players.  They are bound to the :data:`GAME` object here, in one place above them all.
"""

from . import players, render, rules, scoring
from .actions import ACTION_TYPES
from .edition import Edition, load_edition, reference_data, reference_edition
from .game import GAME, LINK
from . import summary
from .scoring import describe_preview, score_card, score_majorities, season_end_preview
from .setup import new_game
from .state import GameState, InoriState
from .widgets import play, season_explorer

GAME.bind(new_game=new_game, state=GameState, actions=ACTION_TYPES,
          legal_actions=rules.legal_actions, why=rules.why, handlers=rules.HANDLERS,
          scores=scoring.scores, to_svg=render.board_svg, load_edition=load_edition, link=LINK,
          bots=players.BOTS,
          # the state's hooks that need the scoring, the drawing or the players
          winners=scoring.winners, evaluate=players.evaluate,
          action_highlight=render.action_cells, describe_card=render.card_text)
GAME.bind(summary=summary)   # what the simulation lab reads from a game

__all__ = ["Edition", "GAME", "GameState", "InoriState", "describe_preview", "load_edition",
           "new_game", "play", "reference_data", "reference_edition", "score_card",
           "score_majorities", "season_end_preview", "season_explorer"]
