"""The Dawn of Pangaea: the full game with the Ancient Guardians, Favor Tokens and Ritual
Chains, the family rules without them (``new_game(..., family=True)``), the cooperative
Return of the Ancients for 1-4 players (``new_game(..., mode="coop")``) and the Wild Woods
expansion (``new_game(..., wild_woods=True)``, also with ``mode="coop"``).

>>> from pangaea_lab import pangaea
>>> state = pangaea.new_game(players=2, seed=7)
>>> state.current_player in (0, 1), state.is_over
(True, False)
>>> kinds = {a.kind for a in state.legal_actions()}
>>> sorted(kinds)
['Flying Seed', 'Spirit Growth', 'Summon the Ancients']
"""

from .actions import (ActivateFavor, BlessCallAncient, BlessFlyingSeed, BlessVigorousSeed,
                      ConvertFavor, DrawFromDeck, EndTurn, ExchangeWeather, ExpandForest,
                      FlyingSeed, MoveOkuma, MoveTree, PlaceAncient, PlaceInChain, PlayCreature,
                      PlayLand, SpiritGrowth, SummonAncient, TakeBackSeed, TakeBlessing,
                      TakeMarketCard)
from .actions import (AscendAncient, LeaveSeed, MoveShadow, PlaceScourge, PlaceSeed,
                      ShareWeather)
from .actions import (AddTreetop, BlessForesight, BlessStrongCanopy, MoreSeeds, PlaceTreetop,
                      ReturnTreetop, SowSeeds, StopSowing)
from .board import Board, build_continent, custom_board
from .edition import Edition, load_edition
from .game import GAME, LINK, WAYS
from . import summary
from .rituals import (PairSummary, Position, RitualOption, best_ritual, count_shortest_paths,
                      explain_path, land_ritual_options, ritual_pairs)
from . import arrange, render, rules, scoring, variants  # noqa: F401  (pangaea.scoring, as before)
from . import coop_render, woods_render  # noqa: F401  (each registers its variant's drawing)
from .actions import PangaeaAction
from . import players
from .players import ForesterPlayer
from .scoring import mountain_position, most_trees_holder
from .variants import rank_rituals
from .setup import SetupStep, new_game, setup_steps
from .state import PLAYER_NAMES, GameState, PlayerState
from ..core.players import GreedyPlayer, RandomPlayer

# The parts of the game, bound in one place above them all: the state is data and imports
# none of them; the game's front door (``state.apply``) reaches the rules through GAME.
GAME.bind(new_game=new_game, state=GameState, actions=PangaeaAction,
          legal_actions=rules.legal_actions, why=rules.why, handlers=rules.HANDLERS,
          scores=variants.scores, to_svg=render.to_svg, load_edition=load_edition, link=LINK,
          bots={"random": RandomPlayer, "greedy": GreedyPlayer, "forester": ForesterPlayer},
          # the state's hooks (the greedy player's measure is its evaluate hook, so every
          # greedy player uses it) and its own part, pieces placed by hand
          check_invariants=rules.check_invariants, player_summary=variants.player_summary,
          winners=variants.winners, evaluate=players.greedy_value,
          safety_net=players.safety_net, arranged=arrange.arranged, ways=WAYS)
GAME.bind(summary=summary)   # what the simulation lab reads from a game

__all__ = [
    "AddTreetop", "BlessForesight", "BlessStrongCanopy", "MoreSeeds", "PlaceTreetop",
    "ReturnTreetop", "SowSeeds", "StopSowing",
    "AscendAncient", "LeaveSeed", "MoveShadow", "PlaceScourge", "PlaceSeed", "ShareWeather",
    "ActivateFavor", "BlessCallAncient", "ConvertFavor", "MoveOkuma", "PlaceAncient",
    "PlaceInChain", "SummonAncient", "TakeBlessing", "BlessFlyingSeed", "BlessVigorousSeed", "Board", "DrawFromDeck", "Edition", "EndTurn",
    "ExchangeWeather", "ExpandForest", "FlyingSeed", "ForesterPlayer", "GameState", "MoveTree", "PLAYER_NAMES",
    "PlayCreature", "PlayLand", "PlayerState", "Position", "RitualOption", "SetupStep",
    "SpiritGrowth", "TakeBackSeed", "TakeMarketCard", "build_continent", "custom_board",
    "PairSummary", "best_ritual", "ritual_pairs",
    "explain_path", "land_ritual_options", "load_edition", "mountain_position", "GAME",
    "count_shortest_paths",
    "most_trees_holder", "new_game", "rank_rituals", "setup_steps",
]
