"""The Inori game: who may play and which options a game has, declared once.

The seat range and the option below are read by setup, the save reader, the widgets, the
catalogue and the simulation lab.  The edition (the component data) is not an option: it is
data given to ``new_game(edition=...)``.

>>> GAME.seats, GAME.defaults()
(range(2, 5), {'marker_schedule': 'default'})
"""

from __future__ import annotations

from ..core.game import Game, Option
from ..core.links import Choice, Flag, LinkSpec

#: the marker schedules of the shipped edition (a custom edition may name tables of its own)
MARKER_SCHEDULES = ("default", "three_at_start")

GAME = Game("inori", "Inori", seats=(2, 4), options=[
    Option("marker_schedule", "default", values=MARKER_SCHEDULES, kind=str,
           doc="how many markers each player has in hand in each season: one table of the "
               "edition's marker_schedule section"),
], own_parts=("describe_card",))  # the state's ``describe_card(slot)``, in words

#: what a page's link (``?seed=12&players=3``) may set: the seats and the marker schedule
LINK = LinkSpec("inori", GAME.title, (GAME.min_players, GAME.max_players), (
    Choice("marker_schedule", GAME.options["marker_schedule"].default,
           tuple((name, name, f"markers: {name.replace('_', ' ')}")
                 for name in GAME.options["marker_schedule"].values)),))
