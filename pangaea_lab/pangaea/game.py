"""The Dawn of Pangaea as a :class:`~pangaea_lab.core.game.Game`: who may play and which
options a game is set up with.  Everything else reads these facts from here.

>>> GAME.seats, GAME.defaults()["mode"]
(range(1, 5), '')
"""

from __future__ import annotations

from ..core.game import Game, Option
from ..core.links import Choice, Flag, LinkSpec
from .edition import DIFFICULTIES

#: the modes: "" is the competitive game; "coop" (also spelled "ancients") is the cooperative
#: Return of the Ancients
MODES = ("", "coop", "ancients")

GAME = Game(
    "pangaea", "The Dawn of Pangaea",
    # 1 to 4 seats overall: the competitive, family and Wild Woods games need 2 to 4 players
    # (the mode's seats below; setup says so with the game's own words); Return of the
    # Ancients is played from 1.  The catalogue, the widgets and setup ask players_for.
    seats=(1, 4),
    options=[
        Option("family", False, values=(False, True),
               doc="the family rules, without Favor Tokens and Ancient Guardians"),
        Option("mode", "", values=MODES,
               doc="'coop' (or 'ancients') for the cooperative Return of the Ancients",
               seats=(("", (2, 4)), ("coop", (1, 4)), ("ancients", (1, 4)))),
        Option("difficulty", "standard", values=tuple(DIFFICULTIES),
               doc="Return of the Ancients: standard, cozy (Cozy Afternoon) or midnight "
                   "(Midnight Hour)"),
        Option("wild_woods", False, values=(False, True),
               doc="the Wild Woods expansion"),
        Option("storms", True, values=(False, True),
               doc="Wild Woods: Elemental Storms in the Ritual decks"),
        Option("storm_spares_thorondal", False, values=(False, True),
               doc="Wild Woods, the other reading of Thorondal's passive (a labelled "
                   "assumption): an Elemental Storm spares the Tree under Thorondal; by "
                   "default Thorondal protects a Tree only against Rituals"),
    ],
    # the state's ``arranged(**changes)``: pieces placed by hand (see :mod:`.arrange`); the
    # ``ways`` to play (:data:`WAYS`)
    own_parts=("arranged", "ways"))

#: the ways to play offered on the start page, each a name and the options that make it
#: (their seats come from the ``mode`` option's, see ``GAME.players_for``)
WAYS = (
    ("Full game with the Ancients", ()),
    ("Family rules", (("family", True),)),
    ("Return of the Ancients (solo/co-op)", (("mode", "coop"),)),
    ("Wild Woods", (("wild_woods", True),)),
    ("Return of the Ancients with Wild Woods", (("mode", "coop"), ("wild_woods", True))),
)

#: what a page's link (``?seed=12&players=3&...``) may set: the seats and these options
LINK = LinkSpec("pangaea", GAME.title, (GAME.min_players, GAME.max_players), (
    Flag("family", False, "family rules"),
    Choice("mode", "", (("standard", "", ""), ("coop", "ancients", "Return of the Ancients")),
           aliases=(("ancients", "coop"),)),
    Choice("difficulty", "standard",
           tuple((name, name, label) for name, label in DIFFICULTIES.items()),
           needs=("mode", "ancients")),
    Flag("wild_woods", False, "Wild Woods"),
    Flag("storms", True, "", "no Elemental Storms", needs=("wild_woods", True)),
    Flag("storm_spares_thorondal", False, "Storms spare Thorondal's Tree",
         needs=("wild_woods", True)),
))
