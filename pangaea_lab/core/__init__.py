"""Game-agnostic building blocks: hex geometry, the state/action protocol, errors, seeded
randomness, JSON save/load, SVG drawing, computer players and the step-through widget."""

from . import hexgrid
from .errors import IllegalAction, InvalidData, InvalidSetup, PangaeaLabError
from .players import GreedyPlayer, RandomPlayer, play_game
from .protocol import Action, GameState, ScoreBreakdown, group_by_kind
from .rng import make_rng

__all__ = [
    "Action", "GameState", "GreedyPlayer", "IllegalAction", "InvalidData", "InvalidSetup",
    "PangaeaLabError", "RandomPlayer", "ScoreBreakdown", "group_by_kind", "hexgrid",
    "make_rng", "play_game",
]
