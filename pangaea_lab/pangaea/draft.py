"""The working copy of a state while one action of The Dawn of Pangaea is applied.

A :class:`Draft` is the core working copy (:mod:`pangaea_lab.core.working`) of a state: it
holds the state's fields that an action changes as lists (each player as a :class:`PlayerCopy`,
made when the action first touches that player) and freezes them into the new state; one
action is applied as a whole or not at all.  The variants the game plays are handed to it
(:func:`.variant.active`): it asks them at the hooks it owns (a Seed put, a Tree removed, the
market refilled ...), and their records are copied with it.  It sits below the variants and
the rules, which both change it.  Freezing counts who holds the Most Trees
marker (:func:`trees_holder`, kept with the state).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..core.memo import keep
from ..core.working import WorkingCopy, extended, record, records
from . import scoring
from .edition import ANCIENTS
from .rituals import NOBODY
from .state import GameState, Pending, PlayerState


class PlayerCopy(WorkingCopy):
    """One player of a :class:`Draft` while an action changes them (see
    :mod:`pangaea_lab.core.working`): the counts are attributes to replace (``trees``,
    ``seeds``, the points), the cards, tokens and Favors become lists when the action first
    reads them (``hand``, ``weather``, ``blessings``, ``played``, ``favors``, ``activated``),
    each Ritual Chain a list of its own (``chains``)."""

    RECORD = PlayerState
    THAW = {"hand": 1, "weather": 1, "blessings": 1, "played": 1, "favors": 1, "activated": 1,
            "chains": 2}


class Draft(WorkingCopy):
    """A mutable working copy of a state while one action is applied (see
    :mod:`pangaea_lab.core.working`): the per-space tuples, decks, bags and supplies become
    lists, each player a :class:`PlayerCopy` (``d.players[p].hand``); :meth:`freeze` builds
    the new state.  ``variants`` are the variants the state plays, in order
    (``variant.active(s)``), asked at the copy's hooks; the record of each variant that has
    one is a nested record of the copy, under the record's field (the variant's ``record``),
    copied by the class the variant gives (its ``turn.copy``): ``Draft(s, variants)`` is made
    of the subclass that declares those (one per set of variants, see
    :func:`~pangaea_lab.core.working.extended`).

    Beside the state's fields the copy holds what the action leaves for the rules and the
    variants: ``s`` (the state it copies), ``new_decisions`` (see :meth:`push`), ``fields``
    (fields set as they are when the copy is frozen), ``over`` (the game ended at once:
    Return of the Ancients), ``free_card`` (a Ritual card played for free, a returned
    Ancient's) and ``ended_tall`` (a Tree that reached the top level in the turn just ended).
    What the state keeps of its empty Land Spaces stays with the new state while no Tree or
    Seed moved (``CARRY``); the Most Trees holder is counted when the copy is frozen."""

    __slots__ = ("s", "new_decisions", "fields", "variants", "over", "free_card", "ended_tall")

    RECORD = GameState
    THAW = {**{name: 1 for name in (
        "trees", "seeds", "spirits", "board_blessings", "land_deck", "creature_deck", "market",
        "weather_supply", "blessing_bag", "blessing_discard", "ancients", "favor_bag",
        "market_favors", "decisions")}, "players": records(PlayerCopy)}
    CARRY = {"_empty_land": ("trees", "seeds", "board")}   # see rules._empty_land

    def __new__(cls, s: GameState, variants: tuple[Any, ...]) -> "Draft":
        made = _DRAFTS.get(variants)
        if made is None:
            made = _DRAFTS[variants] = extended(Draft, {
                v.record: record(v.turn.copy) for v in variants if v.turn.copy is not None})
        return object.__new__(made)

    def __init__(self, s: GameState, variants: tuple[Any, ...]) -> None:
        super().__init__(s)
        self.s = s
        self.new_decisions: list[Pending] = []
        self.fields: dict = {}
        self.variants = variants
        self.over = False
        self.free_card = ""
        self.ended_tall = NOBODY

    def push(self, decision: Pending) -> None:
        """A decision this action creates; it is taken before any decision already waiting
        (none once the game has ended at once: a finished game waits for nobody)."""
        if self.over:
            return
        self.new_decisions.append(decision)

    def draw_favor(self) -> str | None:
        """The top Favor Token of the bag (None if the bag is empty)."""
        return self.favor_bag.pop(0) if self.favor_bag else None

    def gain_weather(self, player: int, space: int, grow: bool = False) -> None:
        """Gain Weather Tokens: 1 token of the biome of a space where a new Tree stands (a
        variant may say otherwise: a Wild Woods Storm)."""
        for v in self.variants:
            if v.seeds.gain_weather(self, player, space, grow):
                return
        k = self.s.edition.biomes.index(self.s.board.biome[space])
        if self.weather_supply[k] > 0:
            self.weather_supply[k] -= 1
            self.players[player].weather[k] += 1

    def remove_tree(self, i: int) -> int:
        """The Tree on space ``i`` goes back to its owner's supply (the variants hear of it
        first: Wild Woods Treetops go back to their board); returns the owner."""
        owner = self.trees[i]
        for v in self.variants:
            v.seeds.on_tree_removed(self, i)
        self.trees[i] = NOBODY
        self.players[owner].trees += 1
        return owner

    def refill_market(self, slots: tuple[str, ...], favors: bool) -> None:
        """End of Turn: fill the empty market slots from the decks (the variants act on each
        deck first: a Wild Woods Storm on top blows); ``favors`` lays a Favor Token on each
        new card."""
        for k, slot in enumerate(slots):
            if self.market[k] is None:
                deck = self.land_deck if slot == "land" else self.creature_deck
                for v in self.variants:
                    v.turn.on_market_refill(self, deck)
                card = deck.pop(0) if deck else None
                if card is not None:
                    self.market[k] = card
                    if favors and self.market_favors[k] is None:
                        self.market_favors[k] = self.draw_favor()

    def put_seed(self, i: int, p: int, n: int = 1) -> None:
        """``n`` of ``p``'s Seeds from the supply onto space ``i``."""
        self.players[p].seeds -= n
        if not any(v.seeds.put_seed(self, i, p, n) for v in self.variants):
            self.seeds[i] = p

    def seeds_on(self, i: int) -> int:
        """Seeds the majority holder has on space ``i`` (Wild Woods stacks them)."""
        for v in self.variants:
            n = v.seeds.seeds_on(self, i)
            if n is not None:
                return n
        return int(self.seeds[i] != NOBODY)

    def return_seeds(self, i: int) -> None:
        """Every Seed on space ``i`` goes back to its owner's supply."""
        if any(v.seeds.return_seeds(self, i) for v in self.variants):
            return
        if self.seeds[i] != NOBODY:
            self.players[self.seeds[i]].seeds += 1
            self.seeds[i] = NOBODY

    def collect_favor(self, player: int, slot: int) -> None:
        """The Favor Token lying on a market slot goes to ``player``."""
        token = self.market_favors[slot]
        if token is not None:
            self.market_favors[slot] = None
            self.players[player].favors[ANCIENTS.index(token)] += 1

    def freeze(self) -> GameState:
        s = self.s
        for v in self.variants:
            v.turn.before_freeze(self)   # e.g. returned Treetops: their owners choose the slots
        # the Trees as the action left them: counted again only when the action read them
        trees = self.peek("trees")
        holder = trees_holder(s) if trees is s.trees else _holder_of(s, trees)
        # the waiting decisions, read without thawing them when the action did not touch them
        waiting = self.peek("decisions")
        if self.new_decisions:
            waiting = tuple(self.new_decisions) + tuple(waiting)
        elif type(waiting) is not tuple:
            waiting = tuple(waiting)
        changes = {"most_trees": holder, "decisions": waiting}
        changes.update(self.fields)
        new = super().freeze(**changes)
        keep(new, "_trees_holder", holder)      # the holder by its Trees (see trees_holder)
        return new


#: the variants a state plays -> the Draft that declares their records (see Draft)
_DRAFTS: dict[tuple, type] = {}


def trees_holder(s: GameState) -> int:
    """Who holds the Most Trees marker by the Trees on the continent (-1: nobody), as
    :func:`.scoring.most_trees_holder` counts them; kept with the state (a state made by an
    action keeps the count its working copy made)."""
    got = getattr(s, "_trees_holder", None)
    if got is None:
        got = keep(s, "_trees_holder", _holder_of(s, s.trees))
    return got


def _holder_of(s: GameState, trees: Sequence[int]) -> int:
    """Who holds the Most Trees marker when these are the Trees on the continent."""
    return scoring.most_trees_holder([trees.count(p) for p in range(len(s.players))],
                                     s.edition.most_trees_minimum)
