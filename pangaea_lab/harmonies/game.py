"""The Harmonies :class:`~pangaea_lab.core.game.Game`: seats and options, declared once.

Setup, the save reader, the widgets, the catalogue and the simulation lab all read the seat
range and the option defaults from here.

>>> GAME.seats, GAME.defaults()["river_rule"]
(range(1, 5), 'rings')
"""

from __future__ import annotations

from ..core.game import Game, Option
from ..core.links import Choice, Flag, LinkSpec

#: the two sides of the personal boards
SIDES = ("A", "B")
#: how a river with loops is measured on side A (see ``scoring.river_length``); the first is
#: the default, labelled ``river-rings`` in the game's data
RIVER_RULES = ("rings", "loops", "shortest")

GAME = Game("harmonies", "Harmonies", seats=(1, 4), options=[
    Option("side", "A", values=SIDES,
           doc="board side: A (23 spaces, a river) or B (25 spaces, islands)"),
    Option("spirits", True, values=(True, False),
           doc="play with the Nature's Spirits (each player keeps one of two)"),
    Option("river_rule", RIVER_RULES[0], values=RIVER_RULES,
           doc="how a river with loops is measured: rings (loops without shortcuts), loops "
               "(any loop) or shortest (the shortest path only)"),
    Option("tiebreak_counts_spirit", False, values=(False, True),
           doc="whether a spirit's cube counts in the tie-break of cubes placed"),
])

#: what a page's link (``?seed=12&players=3&side=B``) may set: the seats and every option
LINK = LinkSpec("harmonies", GAME.title, (GAME.min_players, GAME.max_players), (
    Choice("side", GAME.options["side"].default, tuple((s, s, f"side {s}") for s in SIDES)),
    Flag("spirits", GAME.options["spirits"].default, "Nature's Spirits", "no Nature's Spirits"),
    Choice("river_rule", GAME.options["river_rule"].default,
           tuple((r, r, f"river rule: {r}") for r in RIVER_RULES)),
    Flag("tiebreak_counts_spirit", GAME.options["tiebreak_counts_spirit"].default,
         "ties count the spirit"),
))
