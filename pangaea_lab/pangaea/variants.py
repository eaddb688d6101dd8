"""The variants of The Dawn of Pangaea and which of them a game plays.

:data:`VARIANTS` lists them in the order the rules ask them: the family rules, Return of the
Ancients, Wild Woods (each registers itself in :mod:`.variant`, whose :func:`.variant.active`
gives those a state plays); the rules call their hooks in this order.

>>> from pangaea_lab import pangaea
>>> [v.name for v in active(pangaea.new_game(players=2, seed=5, wild_woods=True))]
['Wild Woods']
"""

from __future__ import annotations

from ..core.protocol import ScoreBreakdown
from . import coop, scoring, woods  # noqa: F401  (each registers its variant)
from .edition import ANCIENTS, BLESSING_KINDS
from .actions import PangaeaAction
from .state import GameState, add_decisions
from .variant import Scoring, Variant, active, guardians, registered  # noqa: F401

#: every variant, in the order the rules ask them (each registered itself on import)
VARIANTS: tuple[Variant, ...] = registered()

for _v in VARIANTS:
    add_decisions(_v.decisions)

#: which variant owns each of the variants' decisions
DECISION_OWNER = {kind: v for v in VARIANTS for kind in v.decisions}


# ----- scoring: the base game's (:mod:`.scoring`) with what the variants change ----------------


def board_points(s: GameState, p: int) -> int | None:
    """``p``'s Player Board points in the final scoring, from the first variant that has a
    Player Board (None: none has)."""
    for v in active(s):
        points = v.scoring.board_points(s, p)
        if points is not None:
            return points
    return None


def scores(s: GameState) -> list[ScoreBreakdown]:
    """Each player's points by category (bound as the game's ``scores``): the first variant
    that replaces the points race gives them (Return of the Ancients: the team's progress),
    otherwise the base game's, with a variant's Player Board in the final scoring.

    >>> from pangaea_lab import pangaea
    >>> [c for c, _ in scores(pangaea.new_game(players=1, seed=3, mode="coop"))[0].categories]
    ['Okuma Marker step', 'Chelon Marker step', 'Thorondal Marker step']
    """
    for v in active(s):
        team = v.scoring.team_scores(s)
        if team is not None:
            return team
    return scoring.scores(s, board_points)


def winners(s: GameState) -> list[int]:
    """Who wins a finished game (bound as ``GameState.winners``): the first variant that
    decides it (Return of the Ancients: everyone or no one), otherwise the best total."""
    if not s.is_over:
        return []
    for v in active(s):
        won = v.scoring.winners(s)
        if won is not None:
            return won
    return scoring.winners(s, scores(s))


def free_ritual(s: GameState, card) -> bool:
    """Whether a card's Creature Ritual costs no Weather Tokens (a returned Ancient's, in
    Return of the Ancients)."""
    return any(v.scoring.free_ritual(s, card) for v in active(s))


def ritual_actions(s: GameState, player: int) -> list[PangaeaAction]:
    """Every Ritual ``player`` could perform now (see :func:`.scoring.ritual_actions`), free
    ones as the variants say."""
    vs = active(s)
    gives = _GIVES_FREE.get(vs)
    if gives is None:
        gives = _GIVES_FREE[vs] = any(type(v.scoring).free_ritual is not Scoring.free_ritual
                                      for v in vs)
    return scoring.ritual_actions(s, player, free_ritual if gives else scoring.never_free)


#: whether any of a set of active variants makes some Creature Ritual free (when none does,
#: every card's Ritual is paid for and the listing need not ask)
_GIVES_FREE: dict[tuple[Variant, ...], bool] = {}


def rank_rituals(s: GameState, player: int | None = None) -> list[tuple[int, PangaeaAction]]:
    """Every Ritual the player can perform now, best first, as ``(points, action)`` (see
    :func:`.scoring.rank_rituals`), free ones as the variants say."""
    return scoring.rank_rituals(s, player, free_ritual)


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
