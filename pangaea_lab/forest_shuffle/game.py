"""The Forest Shuffle :class:`~pangaea_lab.core.game.Game`: its seat range and its options,
declared once.  Both come from ``data/rules.json``: the player counts, and each labelled
assumption that a game may switch (an option, True or False, with its default).

The package's ``__init__`` binds the parts (setup, state, rules, scoring, drawing, players).

>>> GAME.seats
range(2, 6)
>>> GAME.defaults()["sapling_flips_clearing"]
True
"""

from __future__ import annotations

from ..core.game import Game, Option
from ..core.links import Choice, Flag, LinkSpec
from .edition import rules_data

GAME = Game(
    "forest_shuffle", "Forest Shuffle",
    seats=(rules_data()["players"]["min"], rules_data()["players"]["max"]),
    options=[Option(a["option"], a["default"], values=(True, False), kind=bool,
                    doc=f"({a['source']}) {a['text']}")
             for a in rules_data()["assumptions"] if a["option"]],
    # a forest's drawing, shown when a notebook cell ends in a ``Forest``
    own_parts=("forest_svg",),
)

#: every option with its default (an older name, kept for notebooks)
OPTION_DEFAULTS: dict[str, bool] = GAME.defaults()

#: what a page's link (``?seed=12&players=3``) may set: the seats and every switch
LINK = LinkSpec("forest_shuffle", GAME.title, (GAME.min_players, GAME.max_players), tuple(
    Flag(name, option.default, f"{name.replace('_', ' ')}: yes", f"{name.replace('_', ' ')}: no")
    for name, option in GAME.options.items()))
