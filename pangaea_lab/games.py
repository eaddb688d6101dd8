"""The games of pangaea_lab, listed once: each game's :class:`~pangaea_lab.core.game.Game`, in
the order the start page shows them.  The catalogue, the exercise registry and the simulation
lab take their lists of games from here.

>>> NAMES
('pangaea', 'harmonies', 'forest_shuffle', 'inori')
>>> [game.title for game in GAMES][-1]
'Inori'
"""

from __future__ import annotations

from .core.game import Game
from .forest_shuffle.game import GAME as FOREST_SHUFFLE
from .harmonies.game import GAME as HARMONIES
from .inori.game import GAME as INORI
from .pangaea.game import GAME as PANGAEA

#: every game, in the start page's order
GAMES: tuple[Game, ...] = (PANGAEA, HARMONIES, FOREST_SHUFFLE, INORI)

#: their package names (``pangaea_lab.<name>``), in the same order
NAMES: tuple[str, ...] = tuple(game.name for game in GAMES)
