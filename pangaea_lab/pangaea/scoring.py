"""The scoring of The Dawn of Pangaea's base game: points on the Sacred Mountain, the Most
Trees achievement, each player's breakdown and the winner, and what a Ritual would score now
(the points of one Ritual, every Ritual ranked best first).  What the variants change (the
team's progress in Return of the Ancients, the Wild Woods Player Board, a returned Ancient's
free Rituals) they say through their hooks, asked by :mod:`.variants`, which passes it in.

Every function works on a hand-built position as well as on a game in progress (see
``GameState.arranged``); a state is only read, never changed.

>>> from pangaea_lab import pangaea
>>> s = pangaea.new_game(players=2, seed=7)
>>> [b.total for b in scores(s)], winners(s)
([0, 0], [])
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import product
from typing import Any, Callable, Iterator, Sequence

from ..core.memo import kept_table
from ..core.protocol import ScoreBreakdown
from .actions import PangaeaAction, PlayCreature, PlayLand
from .edition import BLESSING_KINDS, CreatureCard, LandCard
from .rituals import (Position, RitualOption, checked_option, has_pairs, listed_options,
                      listed_tuple)

WILD = BLESSING_KINDS.index("Wild Weather")


def mountain_position(points: int, summit: int) -> tuple[int, int]:
    """``(step, summit markers)`` for a score: passing the summit takes a marker and counting
    goes on from 1 (End of the Game).

    >>> mountain_position(30, 30), mountain_position(33, 30)
    ((30, 0), (3, 1))
    """
    if points <= 0:
        return (0, 0)
    return ((points - 1) % summit + 1, (points - 1) // summit)


def most_trees_holder(tree_counts: Sequence[int], minimum: int) -> int:
    """Achievement: Most Trees goes to the one player with at least ``minimum`` Trees and
    more than everybody else; on a tie, or if nobody has enough, nobody holds it (-1).

    >>> most_trees_holder([5, 4, 2], 5), most_trees_holder([6, 6], 5), most_trees_holder([4, 1], 5)
    (0, -1, -1)
    """
    best = max(tree_counts)
    if best < minimum or list(tree_counts).count(best) > 1:
        return -1
    return list(tree_counts).index(best)


@lru_cache(maxsize=4096)
def breakdown(player: int, creature: int, land: int, most_trees: int,
              final: bool, board: int | None = None) -> ScoreBreakdown:
    """A player's points by category; the Most Trees bonus (and in Wild Woods the free slots
    of the Player Board) count only in the final scoring.  The same points give the same
    breakdown (a value, made once and shared)."""
    cats = [("Creature Rituals", creature), ("Land Rituals", land)]
    if final:
        cats.append(("Most Trees", most_trees))
        if board is not None:
            cats.append(("Player Board", board))
    return ScoreBreakdown(player=player, categories=tuple(cats))


def rank(totals: Sequence[int], weather_left: Sequence[int]) -> list[int]:
    """Winners: most points; a tie goes to most Weather Tokens left; still tied, they share.

    >>> rank([20, 20, 18], [3, 5, 9]), rank([20, 20], [4, 4])
    ([1], [0, 1])
    """
    best = max(totals)
    tied = [p for p, t in enumerate(totals) if t == best]
    most = max(weather_left[p] for p in tied)
    return [p for p in tied if weather_left[p] == most]


def scores(s: Any, board_points: Callable[[Any, int], int | None] | None = None
           ) -> list[ScoreBreakdown]:
    """Each player's points by category in the base game's points race.  ``board_points``
    gives a player's extra Player Board points in the final scoring (None: no Player Board);
    the variants pass theirs in (see :func:`.variants.scores`, which also lets a variant
    replace the race altogether)."""
    final = s.is_over
    bonus = s.edition.most_trees_bonus
    # a Player Board counts only in the final scoring: asked for only then
    boards = board_points if final else None
    most = s.most_trees
    return [breakdown(p, ps.creature_points, ps.land_points, bonus if most == p else 0, final,
                      boards(s, p) if boards is not None else None)
            for p, ps in enumerate(s.players)]


def winners(s: Any, breakdowns: Sequence[ScoreBreakdown] | None = None) -> list[int]:
    """Who wins a finished game of the points race: the best total (ties broken by
    :func:`rank`), from ``breakdowns`` (default: :func:`scores`)."""
    if not s.is_over:
        return []
    if breakdowns is None:
        breakdowns = scores(s)
    return rank([b.total for b in breakdowns], [sum(ps.weather) for ps in s.players])


# ----- what a Ritual scores now -------------------------------------------------------------


def payments(card: CreatureCard, have: tuple[int, ...], wild_blessings: int,
             biomes: tuple[str, ...]) -> Iterator[tuple[tuple[tuple[str, int], ...], int]]:
    """Every distinct way to pay a Creature Ritual: ``(tokens per weather, Wild Weather used)``.

    Tokens must cover the card's weather symbols, any token may fill a wild symbol, and a Wild
    Weather Blessing stands in for one token of any kind."""
    need = [dict(card.cost).get(b, 0) for b in biomes]
    size = card.size
    ranges = [range(0, min(have[k], need[k] + card.wild) + 1) for k in range(len(biomes))]
    for tokens in product(*ranges):
        used_wild = size - sum(tokens)
        if used_wild < 0 or used_wild > wild_blessings:
            continue
        extra = sum([t - n for t, n in zip(tokens, need) if t > n])
        if extra > card.wild:
            continue
        yield tuple((b, t) for b, t in zip(biomes, tokens) if t), used_wild


def never_free(s: Any, card: Any) -> bool:
    """In the base game every Creature Ritual is paid for."""
    return False


def ritual_actions(s: Any, player: int,
                   free: Callable[[Any, Any], bool] = never_free) -> list[PangaeaAction]:
    """Every Ritual ``player`` could perform now with a card from their hand or the Open
    Market: Land Rituals along each listed path (see :func:`~.rituals.listed_options`),
    Creature Rituals with each way to pay (none for a card ``free(s, card)`` says costs
    nothing: the variants say so, see :func:`.variants.free_ritual`)."""
    ps = s.players[player]
    out: list[PangaeaAction] = []
    pos = s.position
    # a card's Land Rituals, kept with the position (which the next state shares while no
    # Tree, Spirit or Ancient on the paths moves): looked up without hashing the position
    kept = kept_table(pos, "_land")
    sources = [(c, False) for c in ps.hand] + [(c, True) for c in s.market if c is not None]
    cards = s.edition.cards
    biomes = s.edition.biomes
    for card_id, from_market in sources:
        card = cards.get(card_id) or s.card(card_id)
        if isinstance(card, CreatureCard):
            gratis = free(s, card)
            if gratis:
                have, wild = (), 0
            else:   # only what a payment can use: the same payments for more held
                caps = _CAPS.get(card_id)
                if caps is None or caps[0] is not card or caps[1] is not biomes:
                    if len(_CAPS) >= 4096:
                        _CAPS.clear()
                    caps = _CAPS[card_id] = (card, biomes, *payment_caps(card, biomes))
                have = ps.weather
                if len(have) == len(caps[2]):
                    have = tuple(map(min, have, caps[2]))
                wild = ps.blessings[WILD]
                if wild > caps[3]:
                    wild = caps[3]
            key = (card_id, from_market, gratis, have, wild, biomes)
            got = _CREATURE_KEPT.get(key)
            if got is None or got[0] is not card:
                if len(_CREATURE_KEPT) >= 4096:
                    _CREATURE_KEPT.clear()
                got = _CREATURE_KEPT[key] = (card, _creature_actions(
                    card_id, card, from_market, gratis, have, wild, biomes))
            out += got[1]
        else:
            got = kept.get((player, card_id, from_market))
            if got is None or got[0] is not card:
                # none without the player's Trees on both of the card's biomes: found before
                # the listing kept for a whole position is looked up
                got = kept[player, card_id, from_market] = (
                    card, _land_actions(pos, pos.board.biome, player, card_id, card, from_market)
                    if has_pairs(pos, player, card) else ())
            out += got[1]
    return out


#: positions are large (each keeps its own listings and distances) and a game's next state
#: shares its position (and what it keeps) while nothing on the paths moves: this cache only
#: serves a position met again as another object (a loaded save, a widget's copy), so it
#: stays small: in a long simulation it never serves, and every entry a larger one holds
#: lives long enough to be looked through by full garbage collections before it is dropped
@lru_cache(maxsize=32)
def _land_actions(pos: Position, biomes: tuple[str, ...], player: int, card_id: str,
                  card: LandCard, from_market: bool) -> tuple[PlayLand, ...]:
    """The Land Rituals of one card along each listed path, labelled for the action menu;
    kept like the listing itself (per position, biomes, player and card: see
    :func:`~.rituals.listed_tuple`), so the same position gives the same actions without
    labelling them again (actions are values, shared safely)."""
    where = "market" if from_market else "hand"
    out = []
    for opt in listed_tuple(pos, player, card):
        via = " ".join([str(c) for c in opt.path[1:-1]])
        out.append(PlayLand(card_id, from_market, opt.path,
                            label=f"{card.title} from {where}: {opt.start}→{opt.end}"
                            + (f" via {via}" if via else "") + f", {opt.points} points"))
    return tuple(out)


#: the Creature Rituals of a card by (card id, from the market, free, tokens held, Wild
#: Weather held, biomes), with the card they were made for: found without hashing the card.
#: The tokens and Wild Weather held are counted only up to what a payment of the card can
#: use (see :func:`payment_caps`), so that a player's growing pile of tokens meets the
#: entries made for smaller ones
_CREATURE_KEPT: dict[tuple, tuple[CreatureCard, tuple[PlayCreature, ...]]] = {}

#: (card, biomes, :func:`payment_caps`) by card id, for the card and biomes last asked
_CAPS: dict[str, tuple] = {}


def payment_caps(card: CreatureCard, biomes: tuple[str, ...]) -> tuple[tuple[int, ...], int]:
    """The most tokens of each weather (in ``biomes`` order) and the most Wild Weather
    Blessings a payment of ``card`` can use: :func:`payments` gives the same ways to pay for
    holdings counted up to these as for the holdings themselves (it never uses more tokens
    of a kind than the card's symbols of that kind and its wild symbols, nor more Blessings
    than the card has symbols)."""
    need = dict(card.cost)
    return tuple([need.get(b, 0) + card.wild for b in biomes]), card.size


@lru_cache(maxsize=32)      # behind _CREATURE_KEPT, which serves the repeats
def _creature_actions(card_id: str, card: CreatureCard, from_market: bool, free: bool,
                      have: tuple[int, ...], wild_blessings: int,
                      biomes: tuple[str, ...]) -> tuple[PlayCreature, ...]:
    """The Creature Rituals of one card, one per way to pay (see :func:`payments`), labelled
    for the action menu; the same holdings always give the same actions, so they are made
    once (actions are values, shared safely)."""
    where = "market" if from_market else "hand"
    out = []
    for pay, wild in (((), 0),) if free else payments(card, have, wild_blessings, biomes):
        a = PlayCreature(card_id, from_market, pay, wild)
        out.append(replace(a, label=f"{card.title} from {where}: pay "
                           + ", ".join([f"{n} {w}" for w, n in pay]
                                       + ([f"{wild} Wild Weather"] if wild else []))))
    return tuple(out)


def ritual_points(s: Any, action: PangaeaAction, player: int | None = None) -> int:
    """Points a Ritual action would score now (0 for other actions)."""
    player = s.turn_player if player is None else player
    if isinstance(action, PlayCreature):
        return s.card(action.card).points
    if isinstance(action, PlayLand):
        card = s.card(action.card)
        if not isinstance(card, LandCard):
            return 0
        option = checked_option(s.position, player, card, action.path)
        return option.points if isinstance(option, RitualOption) else 0
    return 0


def rank_rituals(s: Any, player: int | None = None,
                 free: Callable[[Any, Any], bool] = never_free
                 ) -> list[tuple[int, PangaeaAction]]:
    """Every Ritual the player can perform now (hand and market; Land Rituals with every
    start, end and shortest path, or one path per score between two Trees joined by very many
    paths, see :func:`~.rituals.listed_options`; Creature Rituals with every payment, ``free``
    as for :func:`ritual_actions`), best first, as ``(points, action)``."""
    player = s.turn_player if player is None else player
    points: dict[str, dict] = {}
    ranked = []
    for a in ritual_actions(s, player, free):
        if isinstance(a, PlayLand):
            if a.card not in points:
                points[a.card] = {o.path: o.points for o in
                                  listed_options(s.position, player, s.card(a.card))}
            ranked.append((points[a.card][a.path], a))
        else:
            ranked.append((s.card(a.card).points, a))
    ranked.sort(key=lambda pa: -pa[0])
    return ranked


def evaluate(s: Any, action: PangaeaAction, player: int) -> int:
    """The immediate score gain of an action for the greedy computer player: a Ritual's points
    (see :func:`ritual_points`) for the player whose turn it is, 0 for anything else."""
    return ritual_points(s, action) if player == s.turn_player else 0
