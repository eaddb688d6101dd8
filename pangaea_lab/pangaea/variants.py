"""The variants of The Dawn of Pangaea and which of them a game plays.

:data:`VARIANTS` lists them in the order the rules ask them: the family rules, Return of the
Ancients, Wild Woods (each registers itself in :mod:`.variant`, whose :func:`.variant.active`
gives those a state plays); the rules call their hooks in this order.

>>> from pangaea_lab import pangaea
>>> [v.name for v in active(pangaea.new_game(players=2, seed=5, wild_woods=True))]
['Wild Woods']
"""

from __future__ import annotations

from . import coop, scoring, woods  # noqa: F401  (each registers its variant)
from .edition import ANCIENTS, BLESSING_KINDS
from .state import GameState, add_decisions
from .variant import Variant, active, guardians, registered  # noqa: F401

#: every variant, in the order the rules ask them (each registered itself on import)
VARIANTS: tuple[Variant, ...] = registered()

for _v in VARIANTS:
    add_decisions(_v.decisions)

#: which variant owns each of the variants' decisions
DECISION_OWNER = {kind: v for v in VARIANTS for kind in v.decisions}


def player_summary(s: GameState, player: int) -> str:
    """A player's line in the widgets: points, pieces, tokens and hand, then what the
    variants add (bound to the state as ``GameState.player_summary``)."""
    ps = s.players[player]
    step, markers = scoring.mountain_position(ps.points, s.edition.summit_steps)
    weather = ", ".join(f"{n} {b}" for b, n in zip(s.edition.biomes, ps.weather) if n) or "none"
    bless = ", ".join(f"{n} {k}" for k, n in zip(BLESSING_KINDS, ps.blessings) if n) or "none"
    hand = "; ".join(s.edition.card(c).title for c in ps.hand) or "empty"
    on_board = s.trees.count(player)
    text = (f"{ps.points} points (mountain step {step}/{s.edition.summit_steps}"
            f"{f', {markers} Summit Marker' if markers else ''}); "
            f"Trees: {ps.trees} in supply, {on_board} on the continent; "
            f"Seeds: {ps.seeds} in supply; Weather: {weather}; Blessings: {bless}; "
            f"Hand: {hand}")
    if s.most_trees == player:
        text += "; holds Most Trees"
    for v in active(s):
        text += v.summary(s, player)
    if guardians(s):
        favors = ", ".join(f"{n} {a}" for a, n in zip(ANCIENTS, ps.favors) if n) or "none"
        chains = " | ".join(" ".join(c) for c in ps.chains) or "none yet"
        text += f"; Favor Tokens: {favors}; Ritual Chains: {chains}"
    return text
