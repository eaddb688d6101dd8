"""Wild Woods: the expansion of The Dawn of Pangaea with Treetops, Seed Competition and Storms.

Each player gets a Player Board with 6 Treetops and 3 extra Seeds.  Taking Treetops (the new
Add Treetop action) raises Trees to level 2 and 3, unlocks Seeds and Blessings, and leaves
slots that score at the end.  Higher Trees sow further (range 1, 2 or 3, even across water);
Seeds may join other players' Seeds as long as their owner then holds the strict majority;
Land Rituals lower the Trees they use; Elemental Storms blow over Biome Tiles.  This module
holds what is new.  The expansion is a :class:`~.variant.Variant` (:data:`VARIANT`) with its
own record on the state (``state.woods``, a :class:`~.state.WoodsRecord`); the turn structure
in :mod:`.rules` calls its hooks.

>>> from pangaea_lab import pangaea
>>> s = pangaea.new_game(players=2, seed=5, wild_woods=True)
>>> s.woods.storms, s.woods.player_boards[0].slots, s.players[0].seeds
(True, (True, True, True, True, True, True), 2)
>>> [slot.cost for slot in s.edition.woods.slots]
[0, 1, 1, 2, 2, 3]
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import combinations
from typing import Any, Callable

import networkx as nx

from ..core.working import Thaw, WorkingCopy, records, remake
from ..core.errors import IllegalAction, InvalidSetup
from ..core.exercises import listed, plural
from ..core.validate import require
from ..core.rng import make_rng
from .actions import (AddTreetop, BlessFlyingSeed, BlessForesight, BlessStrongCanopy,
                      ExpandForest, FlyingSeed, MoreSeeds, PangaeaAction, PlaceTreetop,
                      ReturnTreetop, SowSeeds, StopSowing, TakeBackSeed, per_space)
from .board import stormy_board
from .draft import Draft
from .edition import ANCIENTS, BLESSING_KINDS, Edition, woods_data
from .game import GAME
from .rituals import NOBODY
from .state import (PLAYER_NAMES, STORM, GameState, Pending, PlayerBoard, SetupStep,
                    WoodsRecord, is_storm, storm_ids)
from .variant import (ArrangedRecord, Arranging, Heuristics, Listing, Pieces, Scoring, Seeds,
                      Turn, Variant, hand_rituals, register)

THORONDAL = ANCIENTS.index("Thorondal")

WILD = BLESSING_KINDS.index("Wild Weather")
FLY = BLESSING_KINDS.index("Flying Seed")
CANOPY = BLESSING_KINDS.index("Strong Canopy")
FORESIGHT = BLESSING_KINDS.index("Foresight")
#: the Wild Woods Blessings that never enter the bag: they come from and go back to the box
BOX_ONLY = (BLESSING_KINDS[CANOPY], BLESSING_KINDS[FORESIGHT])


def storm_weather(ed: Edition, card_id: str) -> str:
    """The weather printed on an Elemental Storm card."""
    return woods_data(ed).storms[int(card_id[len(STORM):]) - 1]


def level(s: GameState, i: int) -> int:
    """A Tree's level: 1, plus 1 per Treetop on it (0 if no Tree stands there)."""
    if s.trees[i] == NOBODY:
        return 0
    return 1 + (s.woods.treetops[i] if s.woods is not None else 0)


def majority(stack) -> int:
    """The one player with the most Seeds on a space (NOBODY when there are none)."""
    best = max(stack, default=0)
    if best == 0:
        return NOBODY
    return list(stack).index(best)


def needed(stack, p: int) -> int:
    """Seeds ``p`` must add to a space to hold the strict majority there (at least 1)."""
    return _needed(tuple(stack), p)


@lru_cache(maxsize=4096)
def _needed(stack: tuple[int, ...], p: int) -> int:
    # the same stack always needs the same: worked out once
    others = max((n for q, n in enumerate(stack) if q != p), default=0)
    return max(1, others - stack[p] + 1)


@lru_cache(maxsize=4096)
def within(board, start: int, reach: int) -> tuple[int, ...]:
    """Land Spaces 1..reach steps from ``start`` (steps between neighbouring spaces of any
    kind, so across water; assumption 'ww-range'): graph distances on the board's graph
    (a board never changes: found once per space and reach)."""
    far = nx.single_source_shortest_path_length(board.space_graph, start, cutoff=reach)
    return tuple(sorted(j for j, k in far.items() if k >= 1 and board.terrain[j] == "land"))


def in_range(s: GameState, p: int) -> set[int]:
    """Land Spaces within range of ``p``'s Trees (1, 2 or 3 by their level)."""
    out: set[int] = set()
    for i in s.board.land:
        if s.trees[i] == p:
            out.update(within(s.board, i, level(s, i)))
    return out


def sow_options(s: GameState, p: int, seeds: int, done: tuple[int, ...] = ()) -> list[tuple[int, int]]:
    """``(space, count)`` for every way to sow ``count`` Seeds on one space in range: a Tree
    blocks a space; on other players' Seeds the player must end with the strict majority."""
    out = []
    for j in sorted(in_range(s, p)):
        if s.trees[j] != NOBODY or j in done:
            continue
        low = needed(s.woods.seed_stacks[j], p)
        out += [(j, k) for k in range(low, seeds + 1)]
    return out


def flying_need(s: GameState, p: int, i: int) -> int:
    """Seeds a Flying Seed needs to land on space ``i`` (1 on an empty space)."""
    return needed(s.woods.seed_stacks[i], p)


def may_take_back(s: GameState, p: int, i: int) -> bool:
    """Taking a Seed back must not leave a tie between two colours (assumption 'ww-take-back')."""
    stack = s.woods.seed_stacks[i]
    return stack[p] != 0 and _untied_without_one(stack, p)


@lru_cache(maxsize=4096)
def _untied_without_one(stack: tuple[int, ...], p: int) -> bool:
    """No tie between two colours once one of ``p``'s Seeds leaves the stack."""
    stack = list(stack)
    stack[p] -= 1
    best = max(stack)
    return best == 0 or stack.count(best) == 1


# ----------------------------------------------------------------------------------------------
# Treetops


def payments(s: GameState, p: int, cost: int) -> list[tuple[tuple[str, ...], int]]:
    """Every way to pay a Treetop: ``(weather types, Wild Weather Blessings)``; the types are
    all different (a Wild Weather stands for a type not otherwise paid)."""
    ps = s.players[p]
    held = [b for k, b in enumerate(s.edition.biomes) if ps.weather[k] > 0]
    out = []
    for wild in range(0, min(cost, ps.blessings[WILD]) + 1):
        if cost - wild > len(held) or cost > len(s.edition.biomes):
            continue
        out += [(combo, wild) for combo in combinations(held, cost - wild)]
    return out


def raisable(s: GameState, p: int) -> list[int]:
    """``p``'s Trees that can take another Treetop (below the top level)."""
    top = woods_data(s.edition).max_level - 1
    return [i for i in s.board.land if s.trees[i] == p and s.woods.treetops[i] < top]


def treetop_actions(s: GameState, p: int, cls) -> list[PangaeaAction]:
    """Add Treetop (or Strong Canopy) for every slot still holding a Treetop and every
    payment, when a Tree can take it (see :func:`treetop_actions_afresh`; a slot's actions
    are made once per Weather types held and Wild Weather count, since only these choose
    them, and listed slot by slot)."""
    trees, treetops = s.trees, s.woods.treetops
    top = woods_data(s.edition).max_level - 1
    for i in s.board.land:   # raisable(s, p) is not empty
        if trees[i] == p and treetops[i] < top:
            break
    else:
        return []
    ps = s.players[p]
    edition, held, wild = s.edition, tuple([n > 0 for n in ps.weather]), ps.blessings[WILD]
    out: list[PangaeaAction] = []
    for k, full in enumerate(s.woods.player_boards[p].slots):
        if full:
            out += _slot_treetops(edition, cls, k, held, wild)
    return out


@lru_cache(maxsize=4096)
def _slot_treetops(edition: Edition, cls, k: int, held: tuple[bool, ...],
                   wild: int) -> tuple[PangaeaAction, ...]:
    """The Treetop actions of slot ``k`` (full) for the Weather types ``held`` (a flag per
    biome) and ``wild`` Wild Weather Blessings, as :func:`payments` pays them.  Kept per
    slot, not per set of full slots: the few slots, types and counts make far fewer lists,
    made early in a long run and then only found again."""
    biomes = edition.biomes
    kinds = [b for b, h in zip(biomes, held) if h]
    cost = woods_data(edition).slots[k].cost
    out: list[PangaeaAction] = []
    for w in range(0, min(cost, wild) + 1):
        if cost - w > len(kinds) or cost > len(biomes):
            continue
        out += [cls(k, combo, w) for combo in combinations(kinds, cost - w)]
    return tuple(out)


def treetop_actions_afresh(s: GameState, p: int, cls) -> list[PangaeaAction]:
    """:func:`treetop_actions` worked out afresh from :func:`raisable` and :func:`payments`."""
    if not raisable(s, p):
        return []
    data = woods_data(s.edition)
    out: list[PangaeaAction] = []
    for k, full in enumerate(s.woods.player_boards[p].slots):
        if full:
            out += [cls(k, pay, wild) for pay, wild in payments(s, p, data.slots[k].cost)]
    return out


def check_add_treetop(s: GameState, a: AddTreetop | BlessStrongCanopy) -> None:
    """Add Treetop (or the Strong Canopy Blessing): a full slot, a Tree that can grow, and a
    payment of different Weather Tokens that fits the slot's cost and what the player holds."""
    p = s.turn_player
    rule = "New Blessing Tokens: Strong Canopy" if isinstance(a, BlessStrongCanopy) else "Add Treetop"
    if s.woods is None:
        raise IllegalAction("Treetops belong to the Wild Woods expansion (new_game(..., "
                            "wild_woods=True)).", rule="Wild Woods")
    data = woods_data(s.edition)
    board = s.woods.player_boards[p]
    if not isinstance(a.slot, int) or isinstance(a.slot, bool) or not 0 <= a.slot < len(data.slots):
        raise s.reject(f"A Player Board has slots 1 to {len(data.slots)}.", rule=rule, like=type(a))
    if not board.slots[a.slot]:
        raise s.reject(f"Slot {a.slot + 1} of your Player Board holds no Treetop any more.",
                       rule=rule, like=type(a))
    if not raisable(s, p):
        raise s.reject("None of your Trees can take a Treetop (a Tree has at most 2 Treetops, "
                       "level 3).", rule=rule)
    cost = data.slots[a.slot].cost
    biomes = s.edition.biomes
    if (not isinstance(a.pay, (tuple, list)) or not all(w in biomes for w in a.pay)
            or isinstance(a.wild, bool) or not isinstance(a.wild, int) or a.wild < 0):
        raise s.reject(f"Pay a Treetop with a list of Weather Tokens among {listed(biomes)} and a "
                       "number of Wild Weather Blessings.", rule=rule, like=type(a))
    pay = tuple(sorted(a.pay, key=biomes.index))   # payments() lists types in biome order
    if (pay, a.wild) not in payments(s, p, cost):
        raise s.reject(f"Slot {a.slot + 1} costs {plural(cost, 'Weather Token')}, all of "
                       "different types (a Wild Weather Blessing may stand for one); "
                       f"{listed(pay, 'no Weather Token')} with "
                       f"{plural(a.wild, 'Wild Weather Blessing')} does not fit what you hold.",
                       rule=rule, like=type(a))
    if isinstance(a, BlessStrongCanopy) and not s.players[p].blessings[CANOPY]:
        raise s.reject("You hold no Strong Canopy Blessing.", rule=rule)


def take_treetop(s: GameState, d: Draft, p: int, a: AddTreetop | BlessStrongCanopy) -> None:
    """Pay a slot's cost and take its Treetop (with its Blessing; a Seed whose slots are all
    empty now is unlocked for good), then put it on one of the player's Trees."""
    data = woods_data(s.edition)
    biomes = s.edition.biomes
    pay = tuple(sorted(a.pay, key=biomes.index))
    if isinstance(a, BlessStrongCanopy):
        d.players[p].blessings[CANOPY] -= 1
        d.blessing_discard.append("Strong Canopy")
    for w in pay:
        k = biomes.index(w)
        d.players[p].weather[k] -= 1
        d.weather_supply[k] += 1
    d.players[p].blessings[WILD] -= a.wild
    d.blessing_discard.extend(["Wild Weather"] * a.wild)
    pb = d.woods.player_boards[p]
    pb.slots[a.slot] = False
    kind = pb.blessings[a.slot]
    if kind:
        pb.blessings[a.slot] = ""
        d.players[p].blessings[BLESSING_KINDS.index(kind)] += 1
    for n in range(data.extra_seeds):
        if not pb.unlocked[n] and not any(pb.slots[k] for k in data.slots_of_seed(n)):
            pb.unlocked[n] = True
            d.players[p].seeds += 1
    trees = raisable(s, p)
    if len(trees) == 1:
        raise_tree(d, trees[0])
    else:
        d.push(Pending("raise", p))


def raise_tree(d: Draft, i: int) -> None:
    """A Treetop goes on the Tree of space ``i``; a Tree reaching level 3 is remembered for the
    Shadow (Return of the Ancients with Wild Woods)."""
    d.woods.treetops[i] += 1
    if d.woods.treetops[i] == woods_data(d.s.edition).max_level - 1:
        d.woods.grown_tall = i


def give_back(d: Draft, owner: int, n: int) -> None:
    """``n`` Treetops go back to empty slots of the owner's board, chosen by the owner (a
    decision; taken at the end of the action)."""
    if n > 0:
        d.woods.to_return[owner] = d.woods.to_return.get(owner, 0) + n


def flush(d: Draft) -> None:
    """Ask each owner where their returned Treetops go (automatic when every empty slot fills,
    and once the game is over: the first empty slots); Seeds owed to the box leave the supply."""
    settle(d)
    ww = d.woods
    if not ww.to_return:
        return          # no Treetop on its way back
    over = d.over
    for owner in sorted(ww.to_return):
        n = ww.to_return[owner]
        slots = ww.player_boards[owner].slots
        empty = [k for k, full in enumerate(slots) if not full]
        if len(empty) <= n or over:
            for k in empty[:n]:
                slots[k] = True
        else:
            d.push(Pending("treetop", owner, amount=n))
    ww.to_return.clear()


def place_at_end(d: Draft, waiting: list[Pending]) -> None:
    """A co-op game ended while Treetops were on their way (assumption 'coop-end-treetops'): a
    Treetop taken but not yet placed goes on the first of its owner's Trees that can take it
    (back to the Player Board if none can); Treetops returning to a Player Board fill its first
    empty slots.  So a lost game still accounts for every Treetop."""
    top = woods_data(d.s.edition).max_level - 1
    for x in waiting:
        if x.kind == "raise":
            trees = [i for i in d.s.board.land
                     if d.trees[i] == x.player and d.woods.treetops[i] < top]
            if trees:
                d.woods.treetops[trees[0]] += 1
            else:
                give_back(d, x.player, 1)
        elif x.kind == "treetop":
            give_back(d, x.player, x.amount)


def treetops_back(d: Draft, i: int) -> None:
    """A whole Tree leaves the continent: its Treetops go back to its owner's board."""
    owner = d.trees[i]
    n = d.woods.treetops[i]
    d.woods.treetops[i] = 0
    give_back(d, owner, n)


def lower(d: Draft, i: int) -> None:
    """Play Ritual Card (Wild Woods): a Tree goes down a level; a level-1 Tree goes back to the
    supply, a higher one gives one Treetop back to its owner's board."""
    owner = d.trees[i]
    if d.woods.treetops[i] > 0:
        d.woods.treetops[i] -= 1
        give_back(d, owner, 1)
    else:
        d.remove_tree(i)


def land_ritual(s: GameState, d: Draft, p: int, path: list[int]) -> None:
    """Higher-level Trees on the path earn their owners a Weather Token each; then every Tree
    of the player on the path goes down a level (Thorondal protects; not in the final round)."""
    biomes = s.edition.biomes
    for i in path:
        owner = s.trees[i]
        if owner != NOBODY and s.woods.treetops[i] > 0:
            k = biomes.index(_biome(s.board, d.woods.storm_tiles, i))
            if d.weather_supply[k] > 0:
                d.weather_supply[k] -= 1
                d.players[owner].weather[k] += 1
    if s.phase == "final":   # Treetops, like Trees, stay in the final Rituals
        return
    for i in path:
        if s.trees[i] == p and i != s.ancients[2]:
            lower(d, i)


def decision_actions(s: GameState, pend: Pending) -> list[PangaeaAction]:
    b = s.board
    if pend.kind == "expand":
        opts = sow_options(s, pend.player, s.players[pend.player].seeds, pend.grown)
        return [MoreSeeds(b.cells[i], k) for i, k in opts] + [StopSowing()]
    if pend.kind == "raise":
        return [PlaceTreetop(b.cells[i]) for i in raisable(s, pend.player)]
    # "treetop": an empty slot for a returned Treetop
    return [ReturnTreetop(k) for k, full in enumerate(s.woods.player_boards[pend.player].slots)
            if not full]


def check_sow(s: GameState, p: int, cell, count: int, done: tuple[int, ...]) -> None:
    """Sowing ``count`` Seeds on one space: in range of the player's Trees, not sown yet in this
    Expand Forest, and winning the strict majority of Seeds there."""
    rule = "Expand Forest (Wild Woods)"
    i = s.board.action_space(cell, rule)
    seeds = s.players[p].seeds
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise s.reject("Sow at least 1 Seed.", rule=rule, like=SowSeeds)
    if count > seeds:
        raise s.reject(f"You have only {plural(seeds, 'Seed')} in your supply.", rule=rule,
                       like=SowSeeds)
    if (i, count) not in sow_options(s, p, seeds, done):
        b = s.board
        why = ("is not a Land Space" if b.terrain[i] != "land" else
               "holds a Tree" if s.trees[i] != NOBODY else
               "was already sown in this Expand Forest" if i in done else
               "is out of range of your Trees (level 1 reaches 1 space, level 2 two, level 3 three)"
               if i not in in_range(s, p) else
               f"would not give you the strict majority of Seeds there (you need "
               f"{needed(s.woods.seed_stacks[i], p)})")
        raise s.reject(f"{b.cells[i]} {why}.", rule=rule, like=SowSeeds)


def sow(s: GameState, d: Draft, p: int, cell, count: int, done: tuple[int, ...]) -> None:
    """Sow ``count`` Seeds on one space; Expand Forest goes on while Seeds and spaces remain."""
    i = s.board.cell_of(cell)
    seeds = s.players[p].seeds
    d.put_seed(i, p, count)
    done = tuple(done) + (i,)
    left = seeds - count
    now = remake(s, {"seeds": tuple(d.seeds), "woods": remake(
        s.woods, {"seed_stacks": tuple(map(tuple, d.woods.seed_stacks))})})
    if left and sow_options(now, p, left, done):
        d.push(Pending("expand", p, grown=done))


def check_sow_seeds(s: GameState, a: SowSeeds) -> None:
    if s.woods is None:
        raise IllegalAction("Sowing several Seeds by range is the Wild Woods Expand Forest; the "
                            "base game uses ExpandForest(cells).", rule="Expand Forest")
    check_sow(s, s.turn_player, a.cell, a.count, ())


def do_sow(s: GameState, d: Draft, a: SowSeeds) -> None:
    sow(s, d, s.turn_player, a.cell, a.count, ())


def do_more_seeds(s: GameState, d: Draft, a: MoreSeeds) -> None:
    check_sow(s, s.pending.player, a.cell, a.count, s.pending.grown)
    sow(s, d, s.pending.player, a.cell, a.count, s.pending.grown)


def do_stop_sowing(s: GameState, d: Draft, a: StopSowing) -> None:
    """Expand Forest ends here."""


def do_add_treetop(s: GameState, d: Draft, a: AddTreetop | BlessStrongCanopy) -> None:
    take_treetop(s, d, s.turn_player, a)


def do_place_treetop(s: GameState, d: Draft, a: PlaceTreetop) -> None:
    raise_tree(d, s.board.index[tuple(a.cell)])


def do_return_treetop(s: GameState, d: Draft, a: ReturnTreetop) -> None:
    pend = s.pending
    d.woods.player_boards[pend.player].slots[a.slot] = True
    if pend.amount > 1:
        d.woods.to_return[pend.player] = d.woods.to_return.get(pend.player, 0) + pend.amount - 1


def check_foresight(s: GameState, a: BlessForesight) -> None:
    """Foresight: a Foresight Blessing held and a card in the Open Market."""
    rule = "New Blessing Tokens: Foresight"
    p = s.turn_player
    if not s.players[p].blessings[FORESIGHT]:
        raise s.reject("You hold no Foresight Blessing.", rule=rule)
    if not hand_rituals(s):
        raise s.reject("Return of the Ancients has no Hand Rituals.", rule=rule)
    if not isinstance(a.card, str) or a.card not in s.market:
        raise s.reject(f"{a.card!r} is not a card in the Open Market.", rule=rule,
                       like=BlessForesight)


def do_foresight(s: GameState, d: Draft, a: BlessForesight) -> None:
    """Foresight: a market Ritual joins the hand for good, with its Favor Token."""
    p = s.turn_player
    slot = d.market.index(a.card)
    d.market[slot] = None
    d.players[p].hand.append(a.card)
    d.collect_favor(p, slot)
    d.players[p].blessings[FORESIGHT] -= 1
    d.blessing_discard.append("Foresight")


def free_actions(s: GameState, p: int) -> list[PangaeaAction]:
    ps = s.players[p]
    out: list[PangaeaAction] = []
    if ps.blessings[CANOPY]:
        out += treetop_actions(s, p, BlessStrongCanopy)
    if ps.blessings[FORESIGHT] and hand_rituals(s):
        out += [BlessForesight(c) for c in s.market if c is not None]
    return out


# ----------------------------------------------------------------------------------------------
# Elemental Storms


def _biome(board, storm_tiles: dict, i: int) -> str:
    got = storm_tiles.get(board.tile_of[i])
    return got[0] if got else board.biome[i]


def biome_at(s: GameState, i: int) -> str:
    """The biome a space counts as: a Storm's weather while its tokens cover the tile."""
    return _biome(s.board, {t: (w, n) for t, w, n in s.woods.storm_tiles}, i)


def ritual_board(s: GameState):
    """The board as Land Rituals see it: Storm-covered tiles count as the Storm's weather."""
    return stormy_board(s.board, s.woods.storm_tiles)


def reveal(d: Draft, deck: list[str]) -> str | None:
    """Refilling the Open Market: Storms revealed on the way blow over the current player's
    Spirit's tile; the first Ritual card fills the slot."""
    while deck and is_storm(deck[0]):
        storm(d, deck.pop(0))
    return deck.pop(0) if deck else None


def storm_reading(s: GameState) -> str:
    """In words, the reading of Thorondal in a Storm that the game uses (both are labelled
    assumptions of this project, assumption 'ww-storm-thorondal')."""
    if s.woods is not None and s.woods.storm_spares_thorondal:
        return ("This reading of the rules is ours, chosen for this game in place of the "
                "usual one: a Storm spares the Tree under Thorondal, as if its protection "
                "reached beyond Rituals.")
    return ("This reading of the rules is ours: Thorondal protects its Tree only against "
            "Rituals, so a Storm blows away a level-1 Tree even under Thorondal, and Thorondal "
            "leaves the continent until it is summoned again.")


def storm(d: Draft, card: str) -> None:
    """An Elemental Storm on the Biome Tile of the current player's Spirit: level-1 Trees there
    blow away (their owners draw a Blessing each), then Storm tokens, one per empty space,
    cover the tile and change its type while they last."""
    s = d.s
    b = s.board
    d.woods.storm_discard.append(card)
    spirit = d.spirits[s.turn_player]
    if spirit == NOBODY:
        return
    weather = storm_weather(s.edition, card)
    tile = b.tile_of[spirit]
    lands = [i for i in b.land if b.tile_of[i] == tile]
    spared = d.ancients[THORONDAL] if s.woods.storm_spares_thorondal else NOBODY
    for i in lands:
        if d.trees[i] != NOBODY and d.woods.treetops[i] == 0 and i != spared:
            if i == d.ancients[THORONDAL]:   # no Tree to stand on (assumption 'ww-storm-thorondal')
                d.ancients[THORONDAL] = NOBODY
            owner = d.remove_tree(i)
            if d.blessing_bag:
                kind = d.blessing_bag.pop(0)
                d.players[owner].blessings[BLESSING_KINDS.index(kind)] += 1
    biomes = s.edition.biomes
    old = d.woods.storm_tiles.pop(tile, None)
    if old:   # a second Storm: the first one's tokens go back (assumption 'ww-storm-empty')
        d.weather_supply[biomes.index(old[0])] += old[1]
    if lands and weather == b.biome[lands[0]]:
        return
    empty = sum(1 for i in lands if d.trees[i] == NOBODY and d.seeds[i] == NOBODY)
    k = biomes.index(weather)
    n = min(empty, d.weather_supply[k])
    if n:
        d.weather_supply[k] -= n
        d.woods.storm_tiles[tile] = (weather, n)


def take_weather(d: Draft, player: int, i: int, grow: bool) -> None:
    """A Weather Token of the biome a space counts as; growing Seeds on a Storm-covered tile
    take it from the tile."""
    k = d.s.edition.biomes.index(_biome(d.s.board, d.woods.storm_tiles, i))
    tile = d.s.board.tile_of[i]
    on_tile = d.woods.storm_tiles.get(tile)
    if grow and on_tile:
        weather, n = on_tile
        if n > 1:
            d.woods.storm_tiles[tile] = (weather, n - 1)
        else:
            del d.woods.storm_tiles[tile]
        d.players[player].weather[k] += 1
    elif d.weather_supply[k] > 0:
        d.weather_supply[k] -= 1
        d.players[player].weather[k] += 1


# ----------------------------------------------------------------------------------------------
# the working copy


class _Stacks(list):
    """The Seed stacks of a draft: each space's stack stays the record's tuple until the
    action reads it by index, then becomes a list of its own (most actions touch one or two
    of a hundred stacks)."""

    def __getitem__(self, i: Any) -> Any:
        got = list.__getitem__(self, i)
        if type(got) is tuple:
            got = list(got)
            list.__setitem__(self, i, got)
        return got


def _frozen_stacks(stacks: list) -> tuple:
    return tuple(map(tuple, stacks))


def _open_tiles(tiles: tuple) -> dict:
    return {t: (w, n) for t, w, n in tiles}


def _frozen_tiles(tiles: dict) -> tuple:
    return tuple((t, w, n) for t, (w, n) in sorted(tiles.items()))


class BoardCopy(WorkingCopy):
    """A Player Board while an action changes it (see :mod:`pangaea_lab.core.working`): its
    slots, Blessings and unlocked Seeds become lists when the action first reads them."""

    RECORD = PlayerBoard
    THAW = {"slots": 1, "blessings": 1, "unlocked": 1}


class WoodsCopy(WorkingCopy):
    """The Wild Woods record while an action changes it (see :mod:`pangaea_lab.core.working`),
    frozen back with the rest of a Draft.  The Treetops and the Storm discard become lists,
    the Seed stacks a :class:`_Stacks`, the Storm tiles a dict (tile -> (weather, tokens)),
    each when the action first reads it; each Player Board is a :class:`BoardCopy`, made when
    first asked for.  ``to_return`` (no part of the record) counts the Treetops on their way
    back to each owner's board during the action."""

    __slots__ = ("to_return",)

    RECORD = WoodsRecord
    THAW = {"treetops": 1, "seed_stacks": Thaw(_Stacks, _frozen_stacks),
            "player_boards": records(BoardCopy), "storm_discard": 1,
            "storm_tiles": Thaw(_open_tiles, _frozen_tiles)}

    def __init__(self, record: WoodsRecord) -> None:
        super().__init__(record)
        self.to_return: dict[int, int] = {}


def give_up_seed(d: Draft, p: int) -> None:
    """Wild Woods Moon Card: a player gives up a starting Seed for the rest of the game, from
    the supply; with none there, the next Seed coming back to the supply is given up
    (assumption 'ww-give-up-seed')."""
    d.woods.player_boards[p].owed += 1
    settle(d)


def settle(d: Draft) -> None:
    """Seeds owed to the box leave the supply as soon as there is one."""
    ww = d.woods
    boards = ww.peek("player_boards")
    if type(boards) is tuple and not any(b.owed for b in boards):
        return   # nothing owed (the boards as the state had them: not copied to find out)
    for p, pb in enumerate(ww.player_boards):
        while pb.owed and d.players[p].seeds > 0:
            d.players[p].seeds -= 1
            pb.owed -= 1
            pb.given_up += 1


# ----------------------------------------------------------------------------------------------
# Game Setup


def setup(state: GameState, rng, storms: bool,
          spares_thorondal: bool = False) -> list[tuple[str, str, GameState]]:
    """The Wild Woods setup steps on top of a finished base (or co-op) setup:
    ``(title, explanation, state)`` for each (``spares_thorondal``: the other reading of
    Thorondal in a Storm, kept on the record)."""
    ed = state.edition
    data = woods_data(ed)
    n = state.num_players
    coop = not hand_rituals(state)   # Return of the Ancients
    pool = [k for k, c in data.blessings for _ in range(c)]
    rng.shuffle(pool)
    if coop:   # no Hand Rituals in co-op: Foresight stays in the box (assumption)
        pool = [k for k in pool if k != "Foresight"] + [k for k in pool if k == "Foresight"]
    boards = []
    for _ in range(n):
        bless = tuple(pool.pop(0) if slot.blessing else "" for slot in data.slots)
        boards.append(PlayerBoard((True,) * len(data.slots), bless, (False,) * data.extra_seeds))
    cells = len(state.board)
    state = replace(state, woods=WoodsRecord(
        treetops=(0,) * cells,
        seed_stacks=tuple(tuple(int(o == p) for p in range(n)) for o in state.seeds),
        player_boards=tuple(boards), woods_box=tuple(pool)))
    steps = [("Wild Woods Player Boards",
              f"Each player takes a Player Board with {len(data.slots)} Treetops and "
              f"{data.extra_seeds} extra Seeds on its slots, and a Blessing from the Wild Woods "
              f"Blessings is laid on each marked slot ({sum(s.blessing for s in data.slots)} per "
              "board). Those Blessings never go on the continent"
              + ("; Foresight stays in the box, as nobody holds Hand Rituals in co-op." if coop else "."),
              state)]
    if storms:
        ids = list(storm_ids(ed))
        rng.shuffle(ids)
        land, creature = list(state.land_deck), list(state.creature_deck)
        per = data.storms_per_deck
        for deck, cards in ((land, ids[:per]), (creature, ids[per:2 * per])):
            for c in cards:
                deck.insert(rng.randrange(len(deck) + 1), c)
        state = replace(state, land_deck=tuple(land), creature_deck=tuple(creature),
                        woods=replace(state.woods, storms=True, storm_box=tuple(ids[2 * per:]),
                                      storm_spares_thorondal=spares_thorondal))
        steps.append(("Elemental Storms",
                      f"{per} Elemental Storm cards are shuffled into each Ritual deck. A Storm "
                      "revealed while the market is refilled blows over the tile of the current "
                      "player's Spirit. " + storm_reading(state), state))
    return steps


# ----------------------------------------------------------------------------------------------
# invariants, scoring, saving


def check_invariants(s: GameState) -> None:
    w = s.woods
    data = woods_data(s.edition)
    n = s.num_players
    b = s.board
    top = data.max_level - 1
    require(len(w.treetops) == len(b) and len(w.seed_stacks) == len(b) and len(w.player_boards) == n)
    for i in range(len(b)):
        t = w.treetops[i]
        require(0 <= t <= top, f"wild_woods.treetops {b.cells[i]}: a Tree has at most {top} Treetops")
        require(t == 0 or s.trees[i] != NOBODY, f"wild_woods.treetops {b.cells[i]}: Treetops stand only on Trees")
        stack = w.seed_stacks[i]
        require(len(stack) == n and min(stack) >= 0)
        if sum(stack):
            best = max(stack)
            require(stack.count(best) == 1, f"wild_woods.seed_stacks {b.cells[i]}: two colours tie on Seeds")
            require(s.trees[i] == NOBODY, f"wild_woods.seed_stacks {b.cells[i]}: a Tree and Seeds on one space")
        require(s.seeds[i] == majority(stack),
                f"seeds {b.cells[i]}: the Seed holder is not the majority of wild_woods.seed_stacks")
    for p, pb in enumerate(w.player_boards):
        on_trees = sum(w.treetops[i] for i in b.land if s.trees[i] == p)
        held = sum(1 for x in s.decisions if x.kind == "raise" and x.player == p)
        back = sum(x.amount for x in s.decisions if x.kind == "treetop" and x.player == p)
        require(not pb.owed or s.players[p].seeds == 0, "an owed Seed leaves the supply at once")
        require(on_trees + pb.slots.count(True) + held + back == len(data.slots),
                f"{PLAYER_NAMES[p]} should own {len(data.slots)} Treetops (board + Trees + in hand)")
        for k in range(data.extra_seeds):
            require(pb.unlocked[k] or any(pb.slots[j] for j in data.slots_of_seed(k)),
                    "an extra Seed with all its slots empty is unlocked")
        for k, kind in enumerate(pb.blessings):
            require(not kind or (pb.slots[k] and data.slots[k].blessing),
                    "a Blessing lies only on a marked slot that still holds its Treetop")
    require(not w.storm_tiles or w.storms, "Storm tokens need Elemental Storms")
    if w.storms:
        held = sorted([c for c in (*s.land_deck, *s.creature_deck) if is_storm(c)]
                      + list(w.storm_discard) + list(w.storm_box))
        require(held == sorted(storm_ids(s.edition)), "every Elemental Storm card is in one place")
    for _, weather, k in w.storm_tiles:
        require(k > 0 and weather in s.edition.biomes)


class WoodsArrangedRecord(ArrangedRecord):
    """The Wild Woods record while a position is placed by hand (see
    :meth:`GameState.arranged`): the Seed stacks follow the Trees and Seeds placed, the
    Blessings that never enter the bag come from the box, and hand-placed Treetops come off
    their owners' Player Boards."""

    def __init__(self, s: GameState) -> None:
        w = s.woods
        self.s = s
        self.stacks = [list(x) for x in w.seed_stacks]
        self.box = list(w.woods_box)
        self.tops = list(w.treetops)
        self.boards: list[PlayerBoard] = []

    def tree(self, i: int, owner: int) -> None:
        if owner != NOBODY:
            self.stacks[i] = [0] * self.s.num_players

    def seed(self, i: int, owner: int) -> None:
        self.stacks[i] = [int(owner == q) for q in range(self.s.num_players)]

    def stack(self, i: int, cell: Any, want: Any, player: Callable[[Any], int]) -> int:
        counts = [0] * self.s.num_players
        for q, k in want.items():
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                raise InvalidSetup(f"{cell}: Seed counts must be whole numbers >= 0")
            counts[player(q)] = k
        best = max(counts)
        if best and counts.count(best) > 1:
            raise InvalidSetup(f"{cell}: two colours may never tie on Seeds")
        self.stacks[i] = counts
        return counts.index(best) if best else NOBODY

    def blessings_from(self, kind: str) -> list[str] | None:
        return self.box if kind in BOX_ONLY else None

    def place_own(self, trees: list[int], players: list, changes: Any,
                  space: Callable[[Any], int]) -> None:
        """Hand-placed Treetops (``treetops={cell: n}``): each player's Treetops come off
        their board's slots in slot order (Blessings there go to the player, Seeds held back
        only by empty slots are unlocked) or go back onto the first empty slots."""
        s = self.s
        data = woods_data(s.edition)
        tops = [x if trees[i] != NOBODY and trees[i] == s.trees[i] else 0
                for i, x in enumerate(self.tops)]
        for cell, k in (changes["treetops"] or {}).items():
            i = space(cell)
            if trees[i] == NOBODY:
                raise InvalidSetup(f"{cell} holds no Tree to carry Treetops")
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < data.max_level:
                raise InvalidSetup(f"{cell}: a Tree carries 0 to {data.max_level - 1} Treetops")
            tops[i] = k
        self.tops = tops
        self.boards = [_arranged_board(data, pb, p, sum(tops[i] for i in s.board.land
                                                         if trees[i] == p), players)
                       for p, pb in enumerate(s.woods.player_boards)]

    def seed_supply(self, p: int) -> int:
        """The starting Seeds and the extra ones, less those locked on or given up from the
        Player Board and those on the continent."""
        ed, pb = self.s.edition, self.boards[p]
        return (ed.seeds_per_player - 1 + woods_data(ed).extra_seeds - pb.locked()
                - pb.given_up - sum(x[p] for x in self.stacks))

    def record(self) -> dict[str, Any]:
        return {"woods": replace(self.s.woods, seed_stacks=tuple(tuple(x) for x in self.stacks),
                                 treetops=tuple(self.tops), player_boards=tuple(self.boards),
                                 woods_box=tuple(self.box))}


def _arranged_board(data, pb: PlayerBoard, p: int, want: int, players: list) -> PlayerBoard:
    """Player ``p``'s board with ``want`` Treetops off it: taken from the slots in slot order
    (a Blessing there goes to the player in ``players``) or put back onto the first empty
    ones."""
    slots, bless, unl = list(pb.slots), list(pb.blessings), list(pb.unlocked)
    have = len(slots) - slots.count(True)
    if want > len(slots):
        raise InvalidSetup(f"player {p} has only {len(slots)} Treetops")
    for k in range(len(slots)):
        if want > have and slots[k]:
            slots[k] = False
            have += 1
            if bless[k]:
                ps = players[p]
                got = list(ps.blessings)
                got[BLESSING_KINDS.index(bless[k])] += 1
                players[p] = replace(ps, blessings=tuple(got))
                bless[k] = ""
        elif want < have and not slots[k]:
            slots[k] = True
            have -= 1
    for n in range(data.extra_seeds):
        if not any(slots[j] for j in data.slots_of_seed(n)):
            unl[n] = True
    return PlayerBoard(tuple(slots), tuple(bless), tuple(unl), pb.given_up, pb.owed)


class WoodsArranging(Arranging):
    """Treetops and several Seeds on one space are Wild Woods pieces."""

    own_pieces = {"treetops": "Treetops belong to the Wild Woods expansion",
                  "stacked Seeds": "several Seeds on one space need the Wild Woods expansion"}

    def start(self, s: GameState) -> WoodsArrangedRecord:
        return WoodsArrangedRecord(s)


# ----------------------------------------------------------------------------------------------
# Flying Seeds together (Seed Competition)


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def flying_together(a: FlyingSeed | BlessFlyingSeed) -> tuple[int, int]:
    """``(main actions, Flying Seed Blessings)`` landing together."""
    return (0, a.count) if isinstance(a, BlessFlyingSeed) else (a.actions, a.blessings)


def check_flying_seed(s: GameState, a, i: int, p: int, rule: str) -> None:
    """Seed Competition: Seeds may join other Seeds when their owner then holds the strict
    majority on the space.  Several Flying Seed actions (the turn's main actions and Flying
    Seed Blessings) may be used together for that: their Seeds land at once, exactly as many as
    the majority needs (assumption 'ww-flying-together')."""
    actions, blessings = flying_together(a)
    if isinstance(a, BlessFlyingSeed):
        if not _whole(blessings) or blessings < 1:
            raise s.reject("'count' is the number of Flying Seed Blessings played together "
                           "(at least 1).", rule=rule, like=type(a))
    else:
        if not _whole(blessings) or blessings < 0:
            raise s.reject("'blessings' counts the Flying Seed Blessings joining the action.",
                           rule=rule, like=type(a))
        if not _whole(actions) or not 1 <= actions <= 2:
            raise s.reject("'actions' is 1, or 2 when both actions of the turn are Flying Seeds "
                           "landing together.", rule=rule, like=type(a))
        if actions > 2 - s.actions_taken:
            raise s.reject(f"You have only {plural(2 - s.actions_taken, 'action')} left this turn.",
                           rule="Seed Competition", like=type(a))
    held = s.players[p].blessings[FLY]
    if blessings > held:
        raise s.reject(f"You hold only {plural(held, 'Flying Seed Blessing')}.",
                       rule="Seed Competition", like=type(a))
    if s.trees[i] != NOBODY:
        raise s.reject(f"{s.board.cells[i]} holds a Tree.", rule=rule, like=type(a))
    count = actions + blessings
    if count > s.players[p].seeds:
        raise s.reject(f"You have only {plural(s.players[p].seeds, 'Seed')} in your supply.",
                       rule=rule, like=type(a))
    need = flying_need(s, p, i)
    if count < need:
        raise s.reject(f"Other Seeds lie on {s.board.cells[i]}: you may add yours only if you then "
                       f"hold more Seeds there than anyone else ({need} needed, {count} would land; "
                       "a tie is never allowed).", rule="Seed Competition", like=type(a))
    if count > need:
        raise s.reject(f"Flying Seeds land together only to win a space: {plural(need, 'Seed')} "
                       f"{'is' if need == 1 else 'are'} "
                       f"enough on {s.board.cells[i]}; place more one at a time.",
                       rule="Seed Competition", like=type(a))


def seed_actions(s: GameState, p: int) -> list[PangaeaAction]:
    """Wild Woods Flying Seed (on any space without a Tree where the Seeds then hold the strict
    majority; when one Seed is not enough, the turn's second action and Flying Seed Blessings
    may join it, exactly as many as needed: Seed Competition) and the first step of Expand
    Forest."""
    b = s.board
    ps = s.players[p]
    out: list[PangaeaAction] = []
    seeds = ps.seeds
    if not seeds:
        return out
    left = 2 - s.actions_taken
    trees, stacks = s.trees, s.woods.seed_stacks
    bare = (0,) * s.num_players
    made = _made_seeds(b)
    flying = made.flying
    mine = []   # the player's Trees, for sow_options below
    for i in b.land:
        if trees[i] != NOBODY:
            if trees[i] == p:
                mine.append(i)
            continue
        stack = stacks[i]
        if stack == bare:   # flying_need (1 on a bare space)
            out.append(flying[i])
            continue
        need = _needed(stack, p)
        if need == 1:
            out.append(flying[i])
        elif need <= seeds:
            for actions in range(1, min(left, need) + 1):
                if need - actions <= ps.blessings[FLY]:
                    out.append(FlyingSeed(b.cells[i], need - actions, actions))
    # sow_options(s, p, seeds): the reach of the player's Trees found once per Trees and levels
    treetops = s.woods.treetops
    sow = made.sow
    for j in _reach(b, tuple(mine), tuple([treetops[i] for i in mine])):
        if trees[j] != NOBODY:
            continue
        stack = stacks[j]
        low = 1 if stack == bare else _needed(stack, p)
        row = sow[j]
        out += row[low:seeds + 1] if seeds < len(row) else [made.sowing(j, k)
                                                             for k in range(low, seeds + 1)]
    return out


@lru_cache(maxsize=4096)
def _reach(board, trees: tuple[int, ...], treetops: tuple[int, ...]) -> tuple[int, ...]:
    """The Land Spaces in range of these Trees with these Treetops, in board order (as
    :func:`in_range` finds them, sorted)."""
    out: set[int] = set()
    for i, tops in zip(trees, treetops):
        out.update(within(board, i, 1 + tops))
    return tuple(sorted(out))


class _MadeSeeds:
    """A board's Flying Seed and Sow Seeds actions, in board order, listed again and again
    (actions are values: a listed one equals one made afresh; those of one space are made
    once for every board, see :func:`.actions.per_space`)."""

    ROW = 8   # Sow Seeds counts 0..7 made at once per space (more are made when asked)

    def __init__(self, board) -> None:
        cells = board.cells
        self.cells = cells
        self.flying = per_space(FlyingSeed, cells)
        self.bless = per_space(BlessFlyingSeed, cells)
        self.sow = per_space(_sow_row, cells)

    def sowing(self, i: int, count: int) -> SowSeeds:
        return SowSeeds(self.cells[i], count)


def _sow_row(cell) -> tuple[SowSeeds | None, ...]:
    """Sow Seeds on ``cell`` with each count below :attr:`_MadeSeeds.ROW` (at its own index;
    nothing at 0)."""
    return (None, *[SowSeeds(cell, k) for k in range(1, _MadeSeeds.ROW)])


@lru_cache(maxsize=64)
def _made_seeds(board) -> _MadeSeeds:
    return _MadeSeeds(board)


@lru_cache(maxsize=64)
def _take_backs(board) -> list[TakeBackSeed]:
    """Taking back a Seed from each space of a board (actions are values, made once per
    space, see :func:`.actions.per_space`)."""
    return per_space(TakeBackSeed, board.cells)


def seed_free_actions(s: GameState, p: int) -> list[PangaeaAction]:
    """Taking a Seed back (never leaving a tie), Flying Seed Blessings (several together to
    win a space), then Strong Canopy and Foresight."""
    ps = s.players[p]
    b = s.board
    stacks = s.woods.seed_stacks
    take_back = _take_backs(b)
    out: list[PangaeaAction] = [take_back[i] for i in b.land   # may_take_back
                                if stacks[i][p] and _untied_without_one(stacks[i], p)]
    if ps.blessings[FLY] and ps.seeds:
        most = min(ps.blessings[FLY], ps.seeds)
        trees, cells = s.trees, b.cells
        bless = _made_seeds(b).bless
        bare = (0,) * s.num_players
        for i in b.land:
            if trees[i] != NOBODY:
                continue
            stack = stacks[i]
            need = 1 if stack == bare else _needed(stack, p)   # flying_need
            if need == 1:
                out.append(bless[i])
            elif need <= most:
                out.append(BlessFlyingSeed(cells[i], need))
    return out + free_actions(s, p)


# ----------------------------------------------------------------------------------------------
# the variant


def board_points(s: GameState, p: int) -> int:
    """Final Scoring: the points printed on the empty slots of a Player Board (0 without the
    expansion)."""
    woods = s.woods
    return woods.player_boards[p].free_points(woods_data(s.edition)) if woods is not None else 0


class WoodsListing(Listing):
    """Wild Woods in the listing: sowing by range, Treetops, Seed Competition's checks."""

    def seed_actions(self, s: GameState, p: int) -> list:
        return seed_actions(s, p)

    def main_actions(self, s: GameState, p: int) -> list:
        return treetop_actions(s, p, AddTreetop)

    def seed_free_actions(self, s: GameState, p: int) -> list:
        return seed_free_actions(s, p)

    def decision_actions(self, s: GameState, pend: Pending) -> list:
        return decision_actions(s, pend)

    def refusal(self, s: GameState, action: Any) -> IllegalAction | None:
        if isinstance(action, ExpandForest):
            return s.reject("In Wild Woods, Expand Forest sows by range: use SowSeeds(cell, "
                            "count) and then MoreSeeds / StopSowing.",
                            rule="Expand Forest (Wild Woods)")
        return None

    def check_flying_seed(self, s: GameState, a: Any, i: int, p: int, rule: str) -> bool:
        check_flying_seed(s, a, i, p, rule)
        return True

    def check_take_back(self, s: GameState, i: int, p: int) -> bool:
        if not s.woods.seed_stacks[i][p]:
            raise s.reject(f"There is no Seed of yours on {s.board.cells[i]}.",
                           rule="Expand Forest (note on Seeds)", like=TakeBackSeed)
        if not may_take_back(s, p, i):
            raise s.reject(f"Taking a Seed back from {s.board.cells[i]} would leave two colours "
                           "tied there, which is never allowed.", rule="Seed Competition",
                           like=TakeBackSeed)
        return True


class WoodsSeeds(Seeds):
    """Wild Woods on the continent: Seed stacks and their majorities, Treetops that follow
    their Trees, Weather from Elemental Storms."""

    def flying_seed(self, d: Draft, a: Any, i: int, p: int) -> bool:
        # Seed Competition: as many Seeds as the majority needs land together
        actions, blessings = flying_together(a)
        d.players[p].blessings[FLY] -= blessings
        d.blessing_discard.extend(["Flying Seed"] * blessings)
        d.put_seed(i, p, actions + blessings)
        return True

    def put_seed(self, d: Draft, i: int, p: int, n: int) -> bool:
        stack = d.woods.seed_stacks[i]
        stack[p] += n
        d.seeds[i] = majority(stack)
        return True

    def return_seeds(self, d: Draft, i: int) -> bool:
        stacks = d.woods.seed_stacks
        for q, n in enumerate(stacks[i]):
            d.players[q].seeds += n
        stacks[i] = [0] * len(stacks[i])
        d.seeds[i] = NOBODY
        return True

    def seeds_on(self, d: Draft, i: int) -> int:
        return max(d.woods.seed_stacks[i])

    def take_back(self, d: Draft, i: int, p: int) -> bool:
        stack = d.woods.seed_stacks[i]
        stack[p] -= 1
        d.seeds[i] = majority(stack)
        return True

    def gain_weather(self, d: Draft, player: int, i: int, grow: bool) -> bool:
        if not d.woods.storm_tiles:
            return False
        take_weather(d, player, i, grow)
        return True

    def on_tree_removed(self, d: Draft, i: int) -> None:
        treetops_back(d, i)

    def on_tree_moved(self, d: Draft, origin: int, target: int) -> None:
        # the Tree keeps its Treetops (assumption 'ww-moved-tree')
        d.woods.treetops[target], d.woods.treetops[origin] = d.woods.treetops[origin], 0

    def give_up_seed(self, d: Draft, p: int) -> None:
        give_up_seed(d, p)


class WoodsTurn(Turn):
    """Wild Woods in the turn: the record's working copy, Land Rituals that lower Trees,
    Storms turned up on a market refill, Treetops placed when the game ends."""

    copy = WoodsCopy

    def before_freeze(self, d: Draft) -> None:
        flush(d)   # returned Treetops: their owners choose the slots

    def on_land_ritual(self, s: GameState, d: Draft, p: int, path: list[int]) -> bool:
        land_ritual(s, d, p, path)   # Trees go down a level; higher Trees earn Weather
        return True

    def on_market_refill(self, d: Draft, deck: list[str]) -> None:
        while deck and is_storm(deck[0]):   # a Storm turned up on the way blows
            storm(d, deck.pop(0))

    def on_end_turn(self, d: Draft) -> None:
        d.ended_tall, d.woods.grown_tall = d.woods.grown_tall, NOBODY

    def on_game_over(self, d: Draft, waiting: list[Pending]) -> None:
        place_at_end(d, waiting)   # assumption 'coop-end-treetops'


class WoodsScoring(Scoring):
    """Wild Woods' scoring: the Player Board's free slots."""

    def board_points(self, s: GameState, p: int) -> int:
        return board_points(s, p)


class WoodsPieces(Pieces):
    """What the Wild Woods record holds: Seed stacks, Storm tokens, Blessings on the Player
    Boards and in the box."""

    def seeds_check(self, s: GameState, p: int) -> bool:
        ed = s.edition
        pb = s.woods.player_boards[p]
        owned = ed.seeds_per_player + woods_data(ed).extra_seeds
        held = (s.players[p].seeds + sum(x[p] for x in s.woods.seed_stacks) + 1 + pb.locked()
                + pb.given_up)
        require(held == owned, f"{PLAYER_NAMES[p]} should own {owned} Seeds (supply + "
                               "continent + score marker + locked + given up)")
        return True

    def weather_held(self, s: GameState, biome: str) -> int:
        return sum(n for _, w, n in s.woods.storm_tiles if w == biome)

    def blessings_held(self, s: GameState, kind: str) -> int:
        return (sum(pb.blessings.count(kind) for pb in s.woods.player_boards)
                + s.woods.woods_box.count(kind))

    def blessings_added(self, s: GameState, kind: str) -> int:
        return dict(woods_data(s.edition).blessings).get(kind, 0)

    def check_invariants(self, s: GameState) -> None:
        check_invariants(s)


class WoodsHeuristics(Heuristics):
    """What the computer players weigh in Wild Woods: the Player Board's free slots and the
    Treetops on their own Trees in the standing, and the expansion's own actions."""

    plain_sowing = False

    def more_points(self, s: GameState, p: int) -> int:
        return s.woods.player_boards[p].free_points(woods_data(s.edition))

    def treetops(self, s: GameState, p: int) -> int:
        return sum(n for n, o in zip(s.woods.treetops, s.trees) if o == p)

    def value(self, s: GameState, a: Any, p: int, spot: Callable[[GameState, int, int], float]
              ) -> float | None:
        """Sow good spots one Seed at a time (more only to win a majority), take
        cheap Treetops that free Seeds or Blessings, raise Trees that reach new ground, and
        send returned Treetops to slots that score nothing."""
        b = s.board
        data = woods_data(s.edition)
        if isinstance(a, (SowSeeds, MoreSeeds)):
            i = b.index[a.cell]
            stack = s.woods.seed_stacks[i]
            others = max((n for q, n in enumerate(stack) if q != p), default=0)
            steal = 1.5 if others else 0.0
            waste = 1.2 * (a.count - needed(stack, p))
            return spot(s, i, p) + steal - waste + (0.2 if isinstance(a, MoreSeeds) else 0.0)
        if isinstance(a, StopSowing):
            return 0.6
        if isinstance(a, (AddTreetop, BlessStrongCanopy)):
            slot = data.slots[a.slot]
            pb = s.woods.player_boards[p]
            frees_seed = slot.seed >= 0 and not pb.unlocked[slot.seed] and all(
                not pb.slots[k] for k in data.slots_of_seed(slot.seed) if k != a.slot)
            gain = (1.5 + (1.0 if pb.blessings[a.slot] else 0.0) + (2.0 if frees_seed else 0.0)
                    - 0.7 * slot.cost - 0.8 * a.wild + 0.3 * slot.points)
            return gain + (0.5 if isinstance(a, BlessStrongCanopy) else 0.0)
        if isinstance(a, PlaceTreetop):
            i = b.index[a.cell]
            now = set(within(b, i, level(s, i)))
            wider = set(within(b, i, level(s, i) + 1))
            return 0.2 * len(wider - now) + (0.5 if i == s.ancients[2] else 0.0)
        if isinstance(a, ReturnTreetop):
            slot = data.slots[a.slot]
            return -slot.points - 0.1 * slot.cost
        if isinstance(a, BlessForesight):
            return 0.4
        return None


class WoodsVariant(Variant):
    """Wild Woods as a variant: its record is ``state.woods``; it replaces the Seed actions
    (Seed Competition, sowing by range), what a Land Ritual does to its Trees (down a level),
    and adds Treetops, the Player Boards, Elemental Storms and three Blessings."""

    name = "Wild Woods"
    order = 2
    record = "woods"
    section = "wild_woods"
    decisions = {
        "expand": ("sow more Seeds or stop", "Expand Forest (Wild Woods)"),
        "raise": ("choose the Tree that takes the Treetop", "Add Treetop"),
        "treetop": ("choose the empty slot a returned Treetop goes back to",
                    "Play Ritual Card (Wild Woods)"),
    }
    checks = {SowSeeds: check_sow_seeds, AddTreetop: check_add_treetop,
              BlessStrongCanopy: check_add_treetop, BlessForesight: check_foresight}
    handlers = {SowSeeds: do_sow, MoreSeeds: do_more_seeds, StopSowing: do_stop_sowing,
                AddTreetop: do_add_treetop, BlessStrongCanopy: do_add_treetop,
                PlaceTreetop: do_place_treetop, ReturnTreetop: do_return_treetop,
                BlessForesight: do_foresight}
    hooks = (WoodsListing, WoodsSeeds, WoodsTurn, WoodsScoring, WoodsPieces, WoodsHeuristics,
             WoodsArranging)

    def chosen(self, options: dict[str, Any]) -> bool:
        return bool(options.get("wild_woods"))

    def check_setup(self, options: dict[str, Any]) -> None:
        """The seats of the way to play (:meth:`~pangaea_lab.core.game.Game.players_for`),
        as many as the edition allows."""
        low, high = GAME.players_for(options)
        players = options["players"]
        if not low <= players <= min(options["edition"].max_players, high):
            raise InvalidSetup(f"Wild Woods is for {low} to {high} players, not {players}")

    def setup_steps(self, steps: list[SetupStep], seed: int | str,
                    options: dict[str, Any]) -> list[SetupStep]:
        """The Wild Woods steps after the others (Player Boards, then the Storms)."""
        rng = make_rng(seed, "setup", "wild woods")
        return steps + [SetupStep(title, text, state) for title, text, state
                        in setup(steps[-1].state, rng, options["storms"],
                                 options.get("storm_spares_thorondal", False))]

    def summary(self, s: GameState, p: int) -> str:
        pb = s.woods.player_boards[p]
        tall = [s.level(i) for i in s.board.land if s.trees[i] == p]
        return (f"; Player Board: {pb.slots.count(True)} Treetops left, "
                f"{plural(pb.unlocked.count(True), 'extra Seed')} unlocked, free slots worth "
                f"{pb.free_points(woods_data(s.edition))}; Trees by level: "
                + (", ".join(f"{tall.count(k)}×L{k}" for k in (1, 2, 3) if tall.count(k))
                   or "none"))


VARIANT = register(WoodsVariant())
