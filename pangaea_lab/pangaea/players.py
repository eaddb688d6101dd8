"""Computer players that know a little about The Dawn of Pangaea.

The greedy player (the shared :class:`~pangaea_lab.core.players.GreedyPlayer`; the package
binds :func:`greedy_value` as the state's ``evaluate`` hook, so the widgets' and the simulation
lab's greedy players all use it) takes the action that raises its :func:`standing` most: its
points, plus what pays for the next points on the way to the summit (Trees, Weather Tokens,
Seeds a Spirit can grow, Blessings, Favor Tokens, Treetops and the best Ritual it could
perform now).  It looks one step further only through its own choice of which Tree moves,
which card it draws or where an Ancient it summons goes, so a Spirit Growth that moves a Tree
is worth where the Tree goes, and a summoned Ancient what its best place does for the player's
next Ritual.

:class:`ForesterPlayer` plays like a sensible beginner: it performs the best-scoring Ritual it
can, lets its Spirit grow as many of its own Seeds as possible, sows Seeds next to free water
(where a Spirit can reach them) and never throws away a Seed it has sown.  Ties are broken by
its seed, so a game between foresters is the same every time.

>>> from pangaea_lab import pangaea
>>> from pangaea_lab.core.players import play_game
>>> final = play_game(pangaea.new_game(players=2, seed=4), [ForesterPlayer(1), ForesterPlayer(2)])
>>> final.is_over and "summit" in final.end_reason or "Sacred Mountain" in final.end_reason
True
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence

from ..core.memo import kept_table
from ..core.players import GreedyPlayer
from ..core.protocol import Action
from .actions import (ActivateFavor, BlessCallAncient, BlessFlyingSeed, BlessVigorousSeed,
                      ConvertFavor, EndTurn, ExpandForest, FlyingSeed, PangaeaAction,
                      PlaceAncient, PlayCreature, PlayLand, SpiritGrowth, SummonAncient,
                      TakeBackSeed, TakeBlessing, TakeMarketCard)
from .edition import BLESSING_KINDS, CreatureCard, LandCard
from .rituals import NOBODY, Position, best_ritual
from .rules import placements
from .state import GameState
from .variant import Variant, active

_WILD = BLESSING_KINDS.index("Wild Weather")

#: what the greedy player's standing counts, in tenths of a point each: a point on the
#: mountain (or what a variant counts instead, see :meth:`.variant.Heuristics.points`), a
#: Tree of its own on the continent, a Weather Token, a Seed in its supply, a Seed on the
#: continent (more next to water, where a Spirit can grow it), a Blessing, a Favor Token, a
#: Treetop on its own Trees, and each point of the best Ritual it could perform now
POINT, TREE, WEATHER, SUPPLY_SEED, SEED, SEED_BY_WATER = 10, 4, 3, 1, 1, 3
BLESSING, FAVOR, TREETOP, BEST_RITUAL = 2, 1, 3, 4

#: the player's own decisions the greedy player looks through to value an action: which Tree
#: moves when its Seed grows with no Tree left in the supply, which card it draws, where a
#: summoned Ancient goes
LOOK_THROUGH = ("move", "draw", "summon")


#: the labelled assumptions that end a game that neither reached the summit nor (in co-op) was
#: won or lost: 40 rounds played, no Ritual Card left anywhere
SAFETY_NETS = ("round-limit", "cards-exhausted")


def safety_net(s: GameState) -> str:
    """Which of :data:`SAFETY_NETS` ended the game ("" if none did; the state's
    ``safety_net`` hook, see :func:`~pangaea_lab.core.players.safety_net`)."""
    return next((net for net in SAFETY_NETS if f"(assumption '{net}')" in s.end_reason), "")


def standing(s: GameState, p: int) -> int:
    """How near the summit ``p`` stands, in hundredths of a point (see :data:`POINT` and the
    weights after it); kept with the state."""
    kept = kept_table(s, "_greedy_standing")
    got = kept.get(p)
    if got is None:
        got = kept[p] = _standing(s, p)
    return got


def _standing(s: GameState, p: int) -> int:
    ps = s.players[p]
    variants = active(s)
    points = _points(s, p, variants)
    tenths = (POINT * points + TREE * s.trees.count(p) + SUPPLY_SEED * ps.seeds
              + WEATHER * sum(ps.weather) + BLESSING * sum(ps.blessings) + FAVOR * sum(ps.favors)
              + sum(_seed_worth(s, i) for i, o in enumerate(s.seeds) if o == p))
    for v in variants:
        tenths += (POINT * v.players.more_points(s, p)
                   + TREETOP * v.players.treetops(s, p))
    return 10 * tenths + round(10 * BEST_RITUAL * ritual_potential(s, p))


def _points(s: GameState, p: int, variants: tuple[Variant, ...]) -> int:
    """The points ``p``'s standing counts: its own on the mountain, or what a variant counts
    instead (Return of the Ancients: the team's progress)."""
    for v in variants:
        points = v.players.points(s, p)
        if points is not None:
            return points
    return s.players[p].points


def _seed_worth(s: GameState, i: int) -> int:
    b = s.board
    return SEED_BY_WATER if any(b.terrain[j] == "water" for j in b.neighbours[i]) else SEED


def ritual_potential(s: GameState, p: int) -> float:
    """The points of the best Ritual ``p`` could perform now from its hand or the market: a
    Land Ritual's best path, or a Creature Ritual's points times the share of its cost the
    player's Weather Tokens (and Wild Weather Blessings) cover."""
    ps = s.players[p]
    cards = [s.card(c) for c in (*ps.hand, *s.market) if c]
    lands = tuple(c for c in cards if isinstance(c, LandCard))
    creatures = tuple(c for c in cards if isinstance(c, CreatureCard))
    return max(_best_land(s.position, p, lands),
               _best_creature(creatures, ps.weather, ps.blessings[_WILD], s.edition.biomes))


@lru_cache(maxsize=1024)
def _best_land(pos: Position, p: int, cards: tuple[LandCard, ...]) -> int:
    best = (best_ritual(pos, p, c) for c in cards)
    return max((o.points for o in best if o is not None), default=0)


@lru_cache(maxsize=4096)
def _best_creature(cards: tuple[CreatureCard, ...], have: tuple[int, ...], wild: int,
                   biomes: tuple[str, ...]) -> float:
    best = 0.0
    for c in cards:
        need = dict(c.cost)
        matched = sum(min(n, need.get(b, 0)) for n, b in zip(have, biomes))
        covered = min(c.size, matched + min(c.wild, sum(have) - matched) + wild)
        best = max(best, c.points * covered / c.size)
    return best


def greedy_value(s: GameState, a: PangaeaAction, p: int) -> float:
    """How much ``a`` raises ``p``'s :func:`standing`, in points (the greedy player's measure
    and the state's ``evaluate`` hook).  Sowing is counted directly (it moves nothing else)."""
    if (p == s.turn_player and not s.decisions
            and isinstance(a, (FlyingSeed, BlessFlyingSeed, ExpandForest))
            and all(v.players.plain_sowing for v in active(s))):
        cells = a.cells if isinstance(a, ExpandForest) else (a.cell,)
        tenths = sum(_seed_worth(s, s.board.index[c]) - SUPPLY_SEED for c in cells)
        return (tenths - (BLESSING if isinstance(a, BlessFlyingSeed) else 0)) / 10
    return (_settled(s.apply(a), p) - standing(s, p)) / 100


def _settled(after: GameState, p: int) -> int:
    """The standing after an action, through ``p``'s own choice if one of
    :data:`LOOK_THROUGH` follows at once (its best option)."""
    pending = after.pending
    if pending is not None and pending.player == p and pending.kind in LOOK_THROUGH:
        return max(standing(after.apply(x), p) for x in after.legal_actions())
    return standing(after, p)


class ForesterPlayer(GreedyPlayer):
    """Heuristic player: rituals first, then growth, then sowing near free water.  It is the
    core :class:`~pangaea_lab.core.players.GreedyPlayer` with its own :meth:`value` of an
    action; among the best it picks uniformly (not kind first), as it always has."""

    name = "forester"

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed, value=self.value)

    def _pick(self, rng: random.Random, actions: Sequence[Action]) -> Action:
        return rng.choice(list(actions))

    def value(self, s: GameState, a: PangaeaAction, p: int) -> float:
        b = s.board
        variants = active(s)
        for v in variants:   # the variants' own actions (co-op: the team's interest)
            worth = v.players.value(s, a, p, self._sow_spot)
            if worth is not None:
                return worth
        if isinstance(a, (PlayCreature, PlayLand)):
            after = s.apply(a)
            gain = _points(after, p, variants) - _points(s, p, variants)
            # a Land Ritual also costs the Trees it returns: prefer it only when it pays well
            cost = 0.4 * (s.trees.count(p) - after.trees.count(p))
            spent = 0.3 * a.wild_blessings if isinstance(a, PlayCreature) else 0
            return 10 * gain - cost - spent
        if isinstance(a, (SpiritGrowth, BlessVigorousSeed)):
            i = b.index[a.cell]
            near = b.neighbours[i] if isinstance(a, SpiritGrowth) else (i,)
            mine = sum(1 for j in near if s.seeds[j] == p)
            theirs = sum(1 for j in near if s.seeds[j] not in (NOBODY, p))
            bonus = 1.0 if isinstance(a, SpiritGrowth) and s.board_blessings[i] else 0.0
            return 6 * mine - 1.5 * theirs + bonus - (3 if isinstance(a, BlessVigorousSeed) and not mine else 0)
        if isinstance(a, (FlyingSeed, ExpandForest, BlessFlyingSeed)):
            cells = a.cells if isinstance(a, ExpandForest) else (a.cell,)
            spirits = {i for q, i in enumerate(s.spirits) if q != p}
            score = 0.0
            for c in cells:
                i = b.index[c]
                water = [j for j in b.neighbours[i] if b.terrain[j] == "water" and j not in spirits]
                score += 1.0 + 0.5 * len(water) if water else 0.2
            return score + (0.5 if isinstance(a, BlessFlyingSeed) else 0.0)
        if isinstance(a, PlaceAncient):
            return self._placement(s, a, p)
        if isinstance(a, (SummonAncient, BlessCallAncient, ActivateFavor)):
            best = max((self._placement(s, x, p) for x in placements(s, a.ancient, p)),
                       default=0.0)
            cost = 1.5 if isinstance(a, SummonAncient) else (0.5 if isinstance(a, BlessCallAncient) else 0)
            return best - cost
        if isinstance(a, TakeBlessing):
            return 0.3 if a.blessing == "Vigorous Seed" else 0.2
        if isinstance(a, ConvertFavor):
            return 0.05
        if isinstance(a, TakeBackSeed):
            return -5.0
        if isinstance(a, TakeMarketCard):
            return 0.5
        if isinstance(a, EndTurn):
            return 0.0
        return 0.1

    def _sow_spot(self, s: GameState, i: int, p: int) -> float:
        """How good a space is for a Seed: next to free water a Spirit can reach."""
        b = s.board
        spirits = {j for q, j in enumerate(s.spirits) if q != p}
        water = [j for j in b.neighbours[i] if b.terrain[j] == "water" and j not in spirits]
        return 1.0 + 0.5 * len(water) if water else 0.2

    def _placement(self, s: GameState, a: PlaceAncient, p: int) -> float:
        """How much a summoned Ancient's direct effect helps: Okuma's Weather Token, the Seed
        Chelon grows, Thorondal guarding your own Tree and sowing a Seed."""
        b = s.board
        if a.ancient == "Okuma":
            return 1.5
        if a.ancient == "Chelon":
            if a.second is None:
                i = b.index[a.cell]
                return 0.3 * sum(1 for j in b.neighbours[i] if s.trees[j] == p)
            return 6.0 if s.seeds[b.index[a.second]] == p else -1.0
        own = 1.0 if s.trees[b.index[a.cell]] == p else 0.0
        return own + (1.0 if a.second is not None else 0.0)
