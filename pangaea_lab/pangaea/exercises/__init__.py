"""Exercise generators for The Dawn of Pangaea (see :mod:`pangaea_lab.core.exercises`).

``first_steps`` covers notebooks 01-04 (setup, turns, Land Rituals, scoring);
``ancients_and_woods`` covers notebooks 05-08 (Ancients, chains and Favor, Return of the
Ancients, Wild Woods); ``graphs``, ``turns`` and ``modes`` add kinds for notebooks 02, 04 and
06-09.  ``common`` holds what they share (words, small continents and games, the drawing);
their verdicts come from core.  Importing this package registers every kind.
"""

from . import ancients_and_woods, first_steps  # noqa: F401  (importing registers the kinds)
from . import graphs  # noqa: F401,E402  (notebook 09: the graph behind the board)
from . import modes  # noqa: F401,E402  (notebooks 06-08: Favor conversion, co-op Shadow Markers, Wild Woods)
from . import turns  # noqa: F401,E402  (notebooks 02 and 04: Moving Trees, Spirits and Blessings, the market, the final round)
from . import audit  # noqa: F401,E402  (rules the notebooks teach that no other kind practised)
