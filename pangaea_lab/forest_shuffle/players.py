"""A quick move estimate for the shared greedy computer player.

``GreedyPlayer`` asks ``state.evaluate(action, player)``, and the package binds
:func:`estimate_gain` as that hook (``GreedyPlayer(seed, value=estimate_gain)`` is the same
player).  A play is worth the points it adds to the player's forest at once (scored against
the rival forests); the other choices get small fixed preferences so that a greedy seat draws
when no play helps.  :func:`safety_net` tells a game that ended only because the deck ran out.
"""

from __future__ import annotations

from ..core.memo import keep
from ..core.protocol import Action
from .actions import Decide, DrawCard, Mulligan, Pay, PlaceFree, PlayDweller, PlaySapling, PlayTree, ToCave
from .cards import SAPLING
from .edition import catalog
from .effects import played_symbol
from .forest import Tree
from .scoring import _Facts, _score
from .state import dweller_of

#: fixed preferences (in points) for choices that add nothing to the forest at once
DRAW, USE, MATCHING_PAY, MULLIGAN = 0.5, 0.4, 0.3, 0.1


def estimate_gain(state, action: Action, player: int) -> float:
    forest = state.forests[player]
    if isinstance(action, (PlayTree, PlaySapling, PlayDweller, PlaceFree)):
        if isinstance(action, PlayTree):
            after = forest.plant(Tree(str(catalog().card(action.card).species), action.card))
        elif isinstance(action, PlaySapling):
            after = forest.plant(Tree(SAPLING, action.card))
        else:
            after = forest.place(action.tree, action.side, dweller_of(action.card, action.side))
        rivals = _rival_facts(state, player)
        return float(_score(_Facts(after), rivals, player).total
                     - _score(_Facts(forest), rivals, player).total)
    if isinstance(action, DrawCard):
        return DRAW
    if isinstance(action, Decide):
        return USE if action.use else 0.0
    if isinstance(action, Pay):
        step = state.step
        symbol = played_symbol(step.card, step.tag) if step else None
        return MATCHING_PAY if symbol in catalog().card(action.card).symbols() else 0.0
    if isinstance(action, ToCave):
        return 1.0
    if isinstance(action, Mulligan):
        return MULLIGAN
    return 0.0


#: how the rules word the end that the labelled assumption ``deck_out`` adds (the deck ran out
#: before the third winter card showed), the game's only safety net
DECK_OUT = "the deck ran out"


def safety_net(state) -> str:
    """``"deck_out"`` if the deck ran out before the third winter card (the state's
    ``safety_net`` hook, see :func:`~pangaea_lab.core.players.safety_net`), else ``""``."""
    return "deck_out" if state.ended_by == DECK_OUT else ""


def _rival_facts(state, player: int) -> list:
    cached = getattr(state, "_rivals", None)
    if cached is None or cached[0] != player:
        cached = (player, [_Facts(f) for k, f in enumerate(state.forests) if k != player])
        keep(state, "_rivals", cached)  # the state never changes
    return cached[1]
