"""The Inori turn engine: which actions are legal (:func:`legal_actions`), why one is not
(:func:`why`), what each one does (the :data:`HANDLERS` table) and the season's end.

Rule names cited in messages follow the sections of the rules summary: "Turn", "Offer to a
Card", "Offer to the Great Tree", "Play a Rune Tile", "End of Season", "End of Game".
Choices inside an effect (which altar, which favor colours, which spaces to block, which New
Start card) are asked one at a time as pending :class:`~pangaea_lab.core.engine.Decision`
values, so the list of legal actions stays short and each step can be explained on its own.
Every action comes in through the game's front door (``GAME.apply``: the action's fields are
checked, then :func:`why`, then its handler).  Each action type has one handler, which
applies the action to a working copy of the state (:class:`InoriCopy`, declared with the
project's working copy) and freezes it into the new state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterator

from ..core.engine import Handlers, listed
from ..core.errors import IllegalAction
from ..core.memo import keep
from ..core.protocol import Action
from ..core.validate import InvariantError, require
from ..core.working import WorkingCopy, replaced, replaced_in
from .actions import (BlockSpace, ChooseAltar, ChooseNewStart, EndTurn, OfferCard, OfferTree,
                      PassRunes, RuneGain, RuneMove, RuneOffer, SetAside, TakeFavor)
from .board import NEUTRAL, root_spaces
from .cards import Effect
from .edition import Edition
from .scoring import (CARD_PTS, MAJ_PTS, POINT_EFFECTS, SEASON_PTS, TREE_PTS, effect_points,
                      least_colours, majority_colours, score_majorities)
from .state import DECISIONS, GameState, decision


# ----- legal actions ---------------------------------------------------------------------

def _pay_options(s: GameState, player: int, cost: str | None, amount: int = 1
                 ) -> list[str | None]:
    """Ways to pay a cost: nothing, one set colour, or one of your majority colours."""
    ed = s.edition
    held = s.favor[player]
    if cost is None:
        return [None]
    if cost == "majority":
        return [c for c in majority_colours(held, ed.colours) if held[ed.colours.index(c)] >= amount]
    return [cost] if held[ed.colours.index(cost)] >= amount else []


def _cost_words(ed: Edition, cost: str | None) -> str:
    if cost is None:
        return "free"
    return "cost: 1 of your majority colour" if cost == "majority" else \
        f"cost: 1 {ed.names[cost]}"


@lru_cache(maxsize=4096)
def _space_note(ed: Edition, cid: str, j: int) -> str:
    card = ed.cards[cid]
    sp = card.spaces[j]
    return f"{card.name}, {sp.effect.describe(ed.names)} ({_cost_words(ed, sp.cost)})"


def _card_offers(s: GameState, player: int) -> list[Action]:
    ed = s.edition
    memo = _memo(ed)
    held = s.favor[player]
    majority = None
    out: list[Action] = []
    append = out.append
    for how, a, b in _free_plan(ed, memo, s.slots):
        if how is _FREE_SPACE:
            append(a)
        elif how is _COLOUR_COST:
            if held[a] >= 1:
                append(b)
        else:                       # the same for every such space
            if majority is None:
                majority = _majority_pays(ed, memo, held)
            made, cid, i, j = b
            for pay in majority:
                action = made.get(pay)
                if action is None:
                    action = made[pay] = _offer_card(ed, cid, i, j, pay)
                append(action)
    return out


def _free_plan(ed: Edition, memo: dict[str, Any], slots: tuple) -> tuple:
    """The plan (see :func:`_card_plan`) of every free card space on the board, in order,
    the last one worked out kept with the edition while its cards stand as they are (the
    cards of a state are a tuple shared by the states that follow until a marker moves: it
    is recognised by identity, and kept alive by the note)."""
    last = memo["free_plan"]
    if last[0] is slots:
        return last[1]
    plans = memo["card_plans"]
    entries = []
    for i, (cid, spaces) in enumerate(slots):
        plan = plans.get((cid, i))
        if plan is None:
            plan = plans[(cid, i)] = _card_plan(ed, cid, i)
        for occ, entry in zip(spaces, plan):
            if not occ:
                entries.append(entry)
    found = tuple(entries)
    memo["free_plan"] = (slots, found)
    return found


def _majority_pays(ed: Edition, memo: dict[str, Any], held: tuple[int, ...]) -> tuple[str, ...]:
    """The colours a player holding ``held`` may pay a majority-cost space with (as
    ``_pay_options(s, player, "majority")``), kept per ``held``."""
    table = memo["majority_pays"]
    pays = table.get(held)
    if pays is None:
        if len(table) >= 20_000:       # a bound on memory
            table.clear()
        colours = ed.colours
        pays = table[held] = tuple(c for c in majority_colours(held, colours)
                                   if held[colours.index(c)] >= 1)
    return pays


#: how a card space is paid for, in a card's plan (see :func:`_card_plan`)
_FREE_SPACE, _COLOUR_COST, _MAJORITY_COST = "free", "colour", "majority"


def _card_plan(ed: Edition, cid: str, i: int) -> tuple[tuple[str, Any, Any], ...]:
    """How each space of card ``cid`` lying at place ``i`` is offered to: a free space with
    its action; a space costing one colour with the colour's position and the action; a
    space costing a majority colour with the space's number and (the actions made so far
    for each colour paid, the card, its place, the space's number)."""
    index = {c: k for k, c in enumerate(ed.colours)}
    plan = []
    for j, sp in enumerate(ed.cards[cid].spaces):
        if sp.cost is None:
            plan.append((_FREE_SPACE, _offer_card(ed, cid, i, j, None), None))
        elif sp.cost == "majority":
            plan.append((_MAJORITY_COST, j, ({}, cid, i, j)))
        else:
            plan.append((_COLOUR_COST, index[sp.cost], _offer_card(ed, cid, i, j, sp.cost)))
    return tuple(plan)


def _memo(ed: Edition) -> dict[str, Any]:
    """Look-ups the legal actions need, worked out once per edition and kept with it (an
    edition never changes): colour positions, the root spaces, how each card at each place
    is offered to, the Great Tree's spaces, and the offer actions built so far (actions are
    immutable values)."""
    memo = getattr(ed, "_rules_memo", None)
    if memo is None:
        memo = {"colour_index": {c: k for k, c in enumerate(ed.colours)},
                "roots": {t: k for k, t in enumerate(root_spaces(ed))},
                "card_plans": {}, "offer_tree": {}, "rune_gain": {}, "rune_move": {},
                "rune_offer": {}, "choices": {}, "majority_pays": {},
                "free_plan": (None, ()), "tree_open": (None,) * 5, "distinct_runes": {},
                "tree_plan": _tree_plan(ed)}
        keep(ed, "_rules_memo", memo)
    return memo


@lru_cache(maxsize=8192)
def _offer_card(ed: Edition, cid: str, i: int, j: int, pay: str | None) -> OfferCard:
    """Actions are immutable values, so the same one is built once and reused."""
    return OfferCard(i, j, pay, note=_space_note(ed, cid, j))


@lru_cache(maxsize=1024)
def _tree_note(ed: Edition, t: int, altar: str | None) -> str:
    space = ed.tree[t]
    if altar is None:
        return f"{space.effect.describe(ed.names)}, then place an Altar tile (free)"
    return (f"{space.effect.describe(ed.names, altar)} "
            f"(altar {ed.names[altar]}, cost {ed.altar_cost} {ed.names[altar]})")


@lru_cache(maxsize=1024)
def _offer_tree(ed: Edition, t: int, altar: str | None) -> OfferTree:
    return OfferTree(t, altar, note=_tree_note(ed, t, altar))


def _tree_plan(ed: Edition) -> tuple[tuple[int, bool, int | None], ...]:
    """The Great Tree's spaces in order: each with whether it takes an Altar tile, and for a
    root space its position among the root spaces."""
    roots = {t: k for k, t in enumerate(root_spaces(ed))}
    return tuple((t, space.altar, None if space.altar else roots[t])
                 for t, space in enumerate(ed.tree))


def _tree_offers(s: GameState, player: int) -> list[Action]:
    ed = s.edition
    memo = _memo(ed)
    markers, altars = s.tree_markers, s.altars
    tokens, colours = s.root_tokens, s.root_colours
    last = memo["tree_open"]
    if last[0] is markers and last[1] is altars and last[2] is tokens and last[3] is colours:
        entries = last[4]
    else:
        entries = _open_tree_spaces(ed, memo, markers, altars, tokens, colours)
        # kept while the Great Tree stands as it is (the fields are tuples shared by the
        # states that follow until one changes: recognised by identity, kept alive here)
        memo["tree_open"] = (markers, altars, tokens, colours, entries)
    held = s.favor[player]
    cost = ed.altar_cost
    return [action for k, action in entries if k < 0 or held[k] >= cost]


def _open_tree_spaces(ed: Edition, memo: dict[str, Any], markers: tuple, altars: tuple,
                      tokens: tuple, colours: tuple) -> tuple[tuple[int, OfferTree], ...]:
    """The Great Tree spaces open to an offering, in order, each with its action and the
    position of the colour its altar costs (-1: free)."""
    made = memo["offer_tree"]
    index = memo["colour_index"]
    entries = []
    for t, has_altar, k in memo["tree_plan"]:
        if markers[t] is not None:
            continue
        paid = -1
        if has_altar:
            altar = altars[t]
            if altar is not None:
                paid = index[altar]
            key: tuple = (t, altar)
        else:
            left = tokens[k]
            if not left and ed.emptied_root == "closed":
                continue
            key = (t, left, colours[k])
        action = made.get(key)
        if action is None:
            action = made[key] = _tree_offer(ed, key)
        entries.append((paid, action))
    return tuple(entries)


def _tree_offer(ed: Edition, key: tuple) -> OfferTree:
    """The offering on a Great Tree space: ``(space, altar colour or None)`` for a space that
    takes an Altar tile, ``(space, tokens left, their colour)`` for a root space."""
    if len(key) == 2:
        return _offer_tree(ed, *key)
    t, left, colour = key
    what = f"take {left} set-aside {ed.names[colour]}" if left else \
        "the set-aside tokens are gone: no effect"
    return OfferTree(t, None, note=f"root space, {what} (free)")


def _rune_offers(s: GameState, player: int, rune: str) -> list[Action]:
    """Offerings on occupied card spaces held only by other players (an occupied-space rune)."""
    ed = s.edition
    memo = _memo(ed)
    made = memo["rune_offer"]
    index = memo["colour_index"]
    held = tuple(s.favor[player])     # (a working copy's may be a list)
    majority = None
    out: list[Action] = []
    for i, cid, j, cost in _others_spaces(ed, s.slots, player):
        if cost is None:
            pays: Any = _PAY_NOTHING
        elif cost == "majority":     # (as _pay_options finds them)
            if majority is None:
                majority = _majority_pays(ed, memo, held)
            pays = majority
        else:
            pays = (cost,) if held[index[cost]] >= 1 else ()
        for pay in pays:
            key = (rune, cid, i, j, pay)
            action = made.get(key)
            if action is None:
                if len(made) >= 20_000:     # a bound on memory
                    made.clear()
                action = made[key] = RuneOffer(rune, i, j, pay, note=_space_note(ed, cid, j))
            out.append(action)
    return out


def _others_spaces(ed: Edition, slots: Any, player: int) -> Iterator[tuple[int, int, int, Any]]:
    """``(slot, card id, space, its cost)`` of each card space that other players hold and
    ``player`` and the neutral colour do not: where an occupied-space rune may offer."""
    for i, (cid, spaces) in enumerate(slots):
        costs = ed.cards[cid].spaces
        for j, occ in enumerate(spaces):
            if occ and player not in occ and NEUTRAL not in occ:
                yield i, cid, j, costs[j].cost


_PAY_NOTHING = (None,)


def _free_card_spaces(s: GameState) -> list[tuple[int, int]]:
    return [(i, j) for i, (_, spaces) in enumerate(s.slots) for j, occ in enumerate(spaces)
            if not occ]


def _rune_actions(s: GameState, player: int, window: bool = False) -> list[Action]:
    """Playable runes, one per distinct kind of tile in hand (identical tiles act alike).
    ``window``: the season is ending and ``player`` plays outside their turn, so only
    any-time runes count (and no offering can be made).  ``s`` may also be a working copy
    (:class:`InoriCopy`): a hand's tiles are looked at in hand order, which changes only the
    order of the list."""
    hand = s.rune_hands[player]
    if not hand:
        return []
    ed = s.edition
    out: list[Action] = []
    free = own = moves = None     # worked out for the first rune that moves a marker
    for rid, rune in _distinct_runes(ed, hand):
        if window and not rune.any_time:
            continue
        if rune.start_of_turn and s.offered:
            continue
        if rune.kind == "gain_favor":
            gains = _memo(ed)["rune_gain"]
            action = gains.get(rid)
            if action is None:
                action = gains[rid] = RuneGain(
                    rid, note=f"{rune.describe(ed.names)} ({rune.timing_words()})")
            out.append(action)
        elif rune.kind == "offer_occupied":
            if not s.offered and not window:
                out += _rune_offers(s, player, rid)
        else:
            if free is None:            # the free spaces and the player's markers
                free, own = [], []
                for i, (_, spaces) in enumerate(s.slots):
                    for j, occ in enumerate(spaces):
                        if not occ:
                            free.append((i, j))
                        elif player in occ:
                            own.append((i, j))
                moves = _memo(ed)["rune_move"]
            # the markers the rune may move, and the free spaces of the cards it may move
            # them to (each in the order found)
            sources = own if rune.kind != "move_from_slot" else \
                [(fi, fj) for fi, fj in own if fi == rune.slot - 1]
            targets = free if rune.kind != "move_to_colour" else \
                [(ti, tj) for ti, tj in free if ed.cards[s.slots[ti][0]].colour == rune.colour]
            for fi, fj in sources:
                for ti, tj in targets:
                    if ti == fi:
                        continue
                    key = (rid, fi, fj, ti, tj)
                    action = moves.get(key)
                    if action is None:
                        if len(moves) >= 50_000:    # a bound on memory
                            moves.clear()
                        action = moves[key] = RuneMove(rid, fi, fj, ti, tj)
                    out.append(action)
    return out


def _distinct_runes(ed: Edition, hand: Any) -> tuple:
    """The tiles of a hand that act differently, each with its rune, in hand order (the
    first of identical tiles), kept per hand."""
    key = hand if type(hand) is tuple else tuple(hand)
    kinds = _memo(ed)["distinct_runes"]
    found = kinds.get(key)
    if found is None:
        if len(kinds) >= 20_000:       # a bound on memory
            kinds.clear()
        seen = set()
        entries = []
        for rid in key:
            rune = ed.runes[rid]
            sig = rune.kind, rune.colour, rune.count, rune.slot, rune.timing
            if sig not in seen:
                seen.add(sig)
                entries.append((rid, rune))
        found = kinds[key] = tuple(entries)
    return found


def _can_play_rune(ed: Edition, offered: bool, hand: Any, slots: Any, held: Any, player: int,
                   window: bool = False) -> bool:
    """Would :func:`_rune_actions` list anything (``hand``: the player's rune tiles, ``held``:
    their favor, ``slots``: the cards as they stand)?  Answered without building the
    actions, stopping at the first rune that can be played."""
    runes = ed.runes
    for rid in hand:
        rune = runes[rid]
        if window and not rune.any_time:
            continue
        if rune.start_of_turn and offered:
            continue
        kind = rune.kind
        if kind == "gain_favor":
            return True
        if kind == "offer_occupied":
            if offered or window:
                continue
            colours = ed.colours
            majority = None
            for _, _, _, cost in _others_spaces(ed, slots, player):
                if cost is None:
                    return True
                if cost == "majority":
                    if majority is None:
                        majority = [c for c in majority_colours(held, colours)
                                    if held[colours.index(c)] >= 1]
                    if majority:
                        return True
                elif held[colours.index(cost)] >= 1:
                    return True
            continue
        for fi, (_, spaces) in enumerate(slots):
            if kind == "move_from_slot" and fi != rune.slot - 1:
                continue
            if not any(player in occ for occ in spaces):
                continue
            for ti, (cid, to_spaces) in enumerate(slots):
                if ti == fi:
                    continue
                if kind == "move_to_colour" and ed.cards[cid].colour != rune.colour:
                    continue
                if not all(to_spaces):
                    return True
    return False


def legal_actions(s: GameState) -> list[Action]:
    """Every action the current player may take, in a stable order."""
    if s.over:
        return []
    ed = s.edition
    if s.pending:
        d = s.pending[0]
        kind = d.kind
        p = s.turn
        made = _memo(ed)["choices"]
        if kind == "new_start":
            return [_choice(made, ed, "new_start", c) for c in d.data[0]]
        if kind == "altar":
            used = {a for a in s.altars if a}
            return [_choice(made, ed, "altar", c) for c in ed.altar_colours if c not in used]
        if kind == "favor_any":
            return [_choice(made, ed, kind, c, d.data[0])
                    for k, c in enumerate(ed.colours) if s.supply[k] > 0]
        if kind == "favor_least":
            return [_choice(made, ed, kind, c, d.data[0])
                    for c in least_colours(s.favor[p], ed.colours)]
        if kind == "block":
            return [_choice(made, ed, kind, i, j) for i, j in _free_card_spaces(s)]
        if kind == "rune_window":
            return _rune_actions(s, d.player, window=True) + [_PASS_RUNES]
        raise InvariantError(f"unknown pending decision {kind!r}")
    p = s.turn
    runes = _rune_actions(s, p)
    if not s.offered:
        offers = _card_offers(s, p) + _tree_offers(s, p)
        if not offers and not any(isinstance(a, RuneOffer) for a in runes):
            offers = [_SET_ASIDE]
        return offers + runes
    return runes + [_END_TURN] if runes else []


#: actions without fields, made once (actions are immutable values)
_END_TURN, _PASS_RUNES, _SET_ASIDE = EndTurn(), PassRunes(), SetAside()


def _choice(made: dict, ed: Edition, kind: str, a: Any, b: Any = None) -> Action:
    """The action answering a pending decision of ``kind`` (a New Start card, an Altar tile,
    a favor colour with how many are left to take, a space to block), made once per
    edition."""
    key = (kind, a, b)
    action = made.get(key)
    if action is None:
        if len(made) >= 10_000:     # a bound on memory
            made.clear()
        if kind == "new_start":
            action = ChooseNewStart(a, note=_card_note(ed, a))
        elif kind == "altar":
            action = ChooseAltar(a)
        elif kind == "favor_any":
            action = TakeFavor(a, note=f"{b} left to take")
        elif kind == "favor_least":
            action = TakeFavor(a, note=f"gain {b} of your least-held colour")
        else:
            action = BlockSpace(a, b)
        made[key] = action
    return action


def _card_note(ed: Edition, cid: str) -> str:
    card = ed.cards[cid]
    effects = "; ".join(sp.effect.describe(ed.names) for sp in card.spaces)
    return f"{card.name} ({ed.names[card.colour]}): {effects}"


# ----- applying actions ------------------------------------------------------------------

class InoriCopy(WorkingCopy):
    """A state while one action is applied (see :mod:`pangaea_lab.core.working`): the
    state's fields as plain attributes, each replaced as the action changes it, and
    :meth:`freeze` makes the new state of them.  The fields stay tuples: a change to one
    entry makes the tuple anew (:func:`~pangaea_lab.core.working.replaced`, or one of the
    operations below), sharing the rows and cards it leaves as they are, so nothing is thawed
    and frozen back.  Beside the fields the copy holds the ``player`` who takes the action
    (as ``state.current_player``).

    What a new state keeps (see :mod:`pangaea_lab.core.memo`): its listed actions start as
    "not listed yet" (``_legal``), so that consecutive states keep one shape; its rune hands
    are in sorted order (``_runes_sorted``, true of every state a copy makes: a copy of a
    state without it sorts them); the texts of the season reports (``_report_texts``, see
    :func:`~.state.report_texts`) are handed on from state to state, whatever changes, as
    each text is used only for the very report it was written from."""

    RECORD = GameState
    BLANK = {"_legal": None, "_runes_sorted": True}
    CARRY = {"_report_texts": ()}
    ALWAYS_NEW = True       # every action changes the state (at least whose turn or decision)

    __slots__ = ("player",)

    def __init__(self, state: GameState) -> None:
        WorkingCopy.__init__(self, state)
        pending = state.pending
        self.player = None if state.over else pending[0].player if pending else state.turn
        if not getattr(state, "_runes_sorted", False):
            # a state made otherwise (by a setup, from a save) may hold its rune hands in
            # any order: sorted here, for the new state (what the rules ask of the copy's
            # hands, whether a rune can be played and which tile leaves, the order does
            # not change)
            hands = state.rune_hands
            if any(list(h) != sorted(h) for h in hands):
                self.rune_hands = tuple(tuple(sorted(h)) for h in hands)

    def done(self) -> GameState:
        """After an action: close a season-end rune window that has nobody left to ask, drop
        decisions with no choice left, end the turn if nothing is left to do, and freeze."""
        pending = self.state.pending
        if pending and pending[0].kind == "rune_window":
            _close_rune_window(self)
        _settle(self)
        return self.freeze()

    # ----- the decisions waiting

    def ask(self, *decisions: Any) -> None:
        """Decisions to take first, before those already waiting."""
        self.pending = (*decisions, *self.pending)

    def next_decision(self) -> Any:
        """The first waiting decision, taken off the list (the action answers it)."""
        pending = self.pending
        self.pending = pending[1:]
        return pending[0]

    # ----- the rules' small operations

    def put(self, slot: int, space: int, marker: int) -> None:
        """Put a marker (a player's, or the neutral one) on a card space."""
        self._set_space(slot, space, (*self.slots[slot][1][space], marker))

    def lift(self, slot: int, space: int, marker: int) -> None:
        """Take a marker off a card space."""
        held = self.slots[slot][1][space]
        if marker in held:
            self._set_space(slot, space, tuple(m for m in held if m != marker))

    def _set_space(self, slot: int, space: int, held: tuple) -> None:
        """The markers on one card space replaced by ``held`` (the other cards shared)."""
        slots = self.slots
        cid, spaces = slots[slot]
        self.slots = replaced(slots, slot, (cid, replaced(spaces, space, held)))

    def gain(self, p: int, colour: str, n: int) -> None:
        """Take up to ``n`` tokens from the supply (fewer if it runs short)."""
        k = self.edition.colours.index(colour)
        n = min(n, self.supply[k])
        if n:
            self._move_favor(p, k, n)

    def pay(self, p: int, colour: str, n: int = 1) -> None:
        k = self.edition.colours.index(colour)
        require(self.favor[p][k] >= n)
        self._move_favor(p, k, -n)

    def _move_favor(self, p: int, k: int, n: int) -> None:
        """``n`` tokens of colour ``k`` from the supply to player ``p`` (from the player back
        to the supply when ``n`` is negative)."""
        supply = self.supply
        self.supply = replaced(supply, k, supply[k] - n)
        rows = self.favor
        self.favor = replaced_in(rows, p, k, rows[p][k] + n)

    def draw_runes(self, p: int, n: int) -> None:
        """Up to ``n`` rune tiles from the deck into the player's hand (kept in order)."""
        deck = self.rune_deck
        n = min(n, len(deck))
        if n:
            hands = self.rune_hands
            self.rune_hands = replaced(hands, p, tuple(sorted((*hands[p], *deck[:n]))))
            self.rune_deck = deck[n:]

    def use_rune(self, p: int, rid: str) -> None:
        """A rune tile leaves the player's hand for good."""
        hand = list(self.rune_hands[p])
        hand.remove(rid)
        self.rune_hands = replaced(self.rune_hands, p, tuple(hand))
        self.runes_used += (rid,)

    def effect(self, p: int, eff: Effect, altar: str | None, category: int) -> None:
        """Carry out an effect; choices it needs are queued as pending decisions."""
        t = eff.type
        if t in POINT_EFFECTS:
            n = effect_points(self.edition, eff, self.favor[p], altar)
            if n:
                points = self.points
                self.points = replaced_in(points, p, category, points[p][category] + n)
        elif t == "favor":
            for c in eff.colours:
                self.gain(p, c, 1)
        elif t == "favor_least":
            self.ask(decision("favor_least", p, eff.count))
        elif t == "rune":
            self.draw_runes(p, eff.count)
        elif t == "favor_any":
            if eff.count:
                self.ask(decision("favor_any", p, eff.count))
        elif t == "rune_and_altar_favor":
            self.draw_runes(p, 1)
            self.gain(p, altar, eff.count)      # type: ignore[arg-type]
        elif t == "block_and_altar_favor":
            self.gain(p, altar, eff.count)      # type: ignore[arg-type]
            if eff.block:
                self.ask(decision("block", p, eff.block))
        elif t == "altar_favor":
            self.gain(p, altar, eff.count)      # type: ignore[arg-type]
        else:
            raise InvariantError(f"effect {t!r} is not handled here")

    def take_marker(self, p: int) -> None:
        """One of the player's markers leaves their hand for this turn's offering."""
        hand = self.hand
        self.hand = replaced(hand, p, hand[p] - 1)
        self.offered = True

    def place_on_card(self, p: int, slot: int, space: int, pay: str | None) -> None:
        if pay is not None:
            self.pay(p, pay)
        self.put(slot, space, p)
        self.take_marker(p)
        sp = self.edition.cards[self.slots[slot][0]].spaces[space]
        self.effect(p, sp.effect, None, CARD_PTS)


def _settle(w: InoriCopy) -> None:
    """Drop pending decisions that have no choice left, then end the turn if nothing remains
    to decide and the player has no rune they could still play."""
    pending = w.pending
    while pending:
        kind = pending[0].kind
        if kind == "favor_any" and not any(w.supply) or kind == "block" and (
                w.neutral_home == 0 or all(o for _, sp in w.slots for o in sp)):
            w.next_decision()
            pending = w.pending
        else:
            return
    if w.over or not w.offered:
        return
    turn = w.turn
    hand = w.rune_hands[turn]
    if not hand or not _can_play_rune(w.edition, True, hand, w.slots, w.favor[turn], turn):
        _end_turn(w)


def _end_turn(w: InoriCopy) -> None:
    w.offered = False
    hand = w.hand
    n = len(hand)
    if not any(hand):
        _open_rune_window(w)
        return
    for k in range(1, n + 1):
        q = (w.turn + k) % n
        if hand[q] > 0:
            w.turn = q
            return


def _window_runes(w: InoriCopy, p: int) -> bool:
    hand = w.rune_hands[p]
    return bool(hand) and _can_play_rune(w.edition, w.offered, hand, w.slots, w.favor[p], p,
                                         window=True)


def _open_rune_window(w: InoriCopy) -> None:
    """The last marker of the season is placed: before the cards are scored, every player
    holding an any-time rune (in turn order from the season's first player) may play it or
    let the scoring begin; with nobody to ask, the season ends at once."""
    n = len(w.hand)
    order = [(w.first_player + k) % n for k in range(n)]
    asked = [decision("rune_window", p) for p in order if _window_runes(w, p)]
    if asked:
        w.ask(*asked)
    _close_rune_window(w)


def _close_rune_window(w: InoriCopy) -> None:
    """Skip the players with nothing left to play; when nobody is left, score the season."""
    while w.pending and w.pending[0].kind == "rune_window" and \
            not _window_runes(w, w.pending[0].player):
        w.next_decision()
    if not w.pending:
        _season_end(w)


def _by_player(values: dict) -> dict:
    """Numbers per player with the players as text keys, in the order a saved and reloaded
    report has them (sorted as text)."""
    return dict(sorted([(str(p), n) for p, n in values.items()]))


def _majority_report(m: dict) -> dict:
    """One Great Tree majority (:func:`~.scoring.score_majorities`) as a saved and reloaded
    report holds it."""
    return {"colour": m["colour"], "counts": _by_player(m["counts"]), "first": list(m["first"]),
            "points": _by_player(m["points"]), "second": list(m["second"]),
            "space": m["space"], "space_id": m["space_id"], "values": list(m["values"])}


def _draw_journey(w: InoriCopy, colour: str, season: int) -> str | None:
    """The first card of the pile of ``colour`` that may come into play in ``season`` (cards
    of later seasons stay in the pile, in order); if the pile has none, the next pile in
    colour order that has one (labelled assumptions)."""
    cols = w.edition.colours
    start = cols.index(colour)
    for k in range(len(cols)):
        at = (start + k) % len(cols)
        pile = w.piles[at]
        for i, cid in enumerate(pile):
            if w.edition.cards[cid].earliest_season <= season:
                w.piles = (*w.piles[:at], pile[:i] + pile[i + 1:], *w.piles[at + 1:])
                return cid
    return None


def _season_end(w: InoriCopy) -> None:
    """End of Season: score complete cards, replace every card, bring markers back, give the
    new season's markers, and let the lowest score choose a New Start card.

    The season's report is built as a saved and reloaded report reads (text keys in sorted
    order, lists rather than tuples), so a state and its reloaded save compare equal."""
    ed = w.edition
    last = w.season == ed.seasons
    slots = w.slots
    favor = w.favor
    points = [list(row) for row in w.points]
    # the board as it is scored, so a season can be looked at again later
    board = {"altars": list(w.altars), "favor": [list(r) for r in favor],
             "points": None,
             "slots": [[cid, [list(o) for o in spaces]] for cid, spaces in slots],
             "tree_markers": list(w.tree_markers)}
    results, new_slots = _score_cards(w, slots, favor, points, last)
    board["points"] = [list(p) for p in points]     # after this season's cards
    w.slots = tuple(new_slots)
    w.tree_markers = (None,) * len(ed.tree)
    w.neutral_home = ed.neutral_markers
    w.set_aside = (0,) * len(w.hand)
    report: dict[str, Any] = {"board": board, "cards": results}
    if last:
        _end_game(w, favor, points, report)
    else:
        _next_season(w, points, report)
    w.points = tuple(map(tuple, points))
    w.reports += (report,)


def _score_cards(w: InoriCopy, slots: tuple, favor: tuple, points: list[list[int]],
                 last: bool) -> tuple[list[dict], list[tuple]]:
    """Each card in play scored as :func:`~.scoring.score_card` scores it (into ``points``)
    and, unless the game ends, replaced from the journey piles: the cards' reports, and the
    new slots with no markers on them."""
    ed = w.edition
    results = []
    new_slots = []
    index = _memo(ed)["colour_index"]
    for i, (cid, spaces) in enumerate(slots):
        # the card scored as score_card scores it, written as its report reads
        card = ed.cards[cid]
        complete = all(spaces)
        present = sorted({m for held in spaces for m in held if m != NEUTRAL})
        colour = card.complete_colour if complete else card.incomplete_score
        scored = {}
        if colour is not None:
            k = index[colour]
            scored = {p: favor[p][k] for p in present}
            for p, n in scored.items():
                points[p][SEASON_PTS] += n
        next_colour = card.complete_colour if complete else card.incomplete_colour
        report_card = {"card": cid, "complete": complete, "name": card.name,
                       "next_colour": next_colour, "points": _by_player(scored),
                       "present": present}
        if last:
            new_slots.append((cid, ((),) * len(spaces)))
        else:
            new = _draw_journey(w, next_colour, w.season + 1)
            if new is not None:
                w.spent_cards += (cid,)
                new_slots.append((new, ((),) * len(ed.cards[new].spaces)))
            else:
                new_slots.append((cid, ((),) * len(spaces)))
            report_card["replaced_by"] = new
        report_card["scored_colour"] = colour
        report_card["slot"] = i
        results.append(report_card)
    return results, new_slots


def _end_game(w: InoriCopy, favor: tuple, points: list[list[int]],
              report: dict[str, Any]) -> None:
    """The last season: the Great Tree majorities scored, and the game over."""
    majorities = score_majorities(w.edition, w.altars, favor)
    for m in majorities:
        for p, n in m["points"].items():
            points[p][MAJ_PTS] += n
    report["majorities"] = [_majority_report(m) for m in majorities]
    report["season"] = w.season
    w.over = True
    w.hand = (0,) * len(w.hand)
    w.offered = False


def _next_season(w: InoriCopy, points: list[list[int]], report: dict[str, Any]) -> None:
    """The next season's markers in hand, and the lowest score (the last of them in turn
    order from the first player) to choose a New Start card and play first."""
    ed = w.edition
    order = [(w.first_player + k) % len(w.hand) for k in range(len(w.hand))]
    season = w.season
    w.season += 1
    w.hand = (w.schedule[w.season - 1],) * len(w.hand)
    totals = [sum(p) for p in points]
    low = min(totals)
    chooser = [p for p in order if totals[p] == low][-1]
    options = w.new_start_deck[:ed.new_start_draw]
    w.new_start_deck = w.new_start_deck[ed.new_start_draw:]
    report["lowest"] = chooser
    report["new_start_options"] = list(options)
    report["season"] = season
    w.turn = chooser
    w.ask(decision("new_start", chooser, options))


def end_season_now(s: GameState) -> GameState:
    """The position right after the End of Season, as if the season ended now with the
    markers as they stand (for "what if" questions: who scores, who plays first next)."""
    w = InoriCopy(s)
    _season_end(w)
    return w.freeze()


# ----- why an action is illegal ----------------------------------------------------------

def _reason(s: GameState, a: Action) -> tuple[str, str]:
    """A plain-words reason and the rule section for an action that is not legal now (no
    decision pending)."""
    ed = s.edition
    p = s.turn
    if isinstance(a, (OfferCard, RuneOffer)):
        if isinstance(a, RuneOffer) and a.rune not in s.rune_hands[p]:
            return f"you do not hold rune {a.rune}", "Play a Rune Tile"
        if s.offered:
            return "you have already made this turn's offering", "Turn"
        if not (0 <= a.slot < len(s.slots)) or not (0 <= a.space < len(s.slots[a.slot][1])):
            return f"there is no card {a.slot + 1} with a space {a.space + 1}", \
                "Offer to a Card"
        occ = s.slots[a.slot][1][a.space]
        sp = ed.cards[s.slots[a.slot][0]].spaces[a.space]
        if isinstance(a, OfferCard) and occ:
            return ("that space is taken; each space holds one marker unless an "
                    "occupied-space rune is played", "Offer to a Card")
        if isinstance(a, RuneOffer) and (not occ or p in occ or NEUTRAL in occ):
            return ("the occupied-space rune needs a space held by another player, "
                    "not an empty one, one of yours or a blocked one", "Play a Rune Tile")
        options = _pay_options(s, p, sp.cost)
        if a.pay not in options:
            if not options:
                return (f"you cannot pay this space's cost ({_cost_words(ed, sp.cost)})",
                        "Offer to a Card")
            return (f"this space must be paid with "
                    f"{' or '.join(ed.colour_name(o) for o in options)}", "Offer to a Card")
    if isinstance(a, OfferTree):
        if s.offered:
            return "you have already made this turn's offering", "Turn"
        if not 0 <= a.space < len(ed.tree):
            return f"there is no Great Tree space {a.space + 1}", "Offer to the Great Tree"
        if s.tree_markers[a.space] is not None:
            return "that Great Tree space already holds a marker", "Offer to the Great Tree"
        if not ed.tree[a.space].altar and ed.emptied_root == "closed" and \
                not s.root_tokens[root_spaces(ed).index(a.space)]:
            return ("the set-aside tokens of this root space are gone, so it takes no more "
                    "offerings (a labelled choice of the edition)", "Offer to the Great Tree")
        altar = s.altars[a.space]
        if altar is not None and a.pay != altar:
            return (f"this space has the {ed.names[altar]} altar: pay {ed.altar_cost} "
                    f"{ed.names[altar]} favor", "Offer to the Great Tree")
        if altar is not None:
            return (f"you need {ed.altar_cost} {ed.names[altar]} favor to offer here (the "
                    f"space has the {ed.names[altar]} altar)", "Offer to the Great Tree")
        if a.pay is not None:
            return "an empty tree space costs nothing", "Offer to the Great Tree"
    if isinstance(a, (RuneGain, RuneMove)):
        if a.rune not in s.rune_hands[p]:
            return f"you do not hold rune {a.rune}", "Play a Rune Tile"
        if ed.runes[a.rune].start_of_turn and s.offered:
            return ("this rune can be played only at the start of your turn, before your "
                    "offering"), "Play a Rune Tile"
        return "this rune cannot be played that way now", "Play a Rune Tile"
    if isinstance(a, EndTurn) and not s.offered:
        return "place this turn's marker before ending your turn", "Turn"
    if isinstance(a, SetAside):
        return "a marker may only be set aside when no offering is possible", "Turn"
    if isinstance(a, (ChooseAltar, TakeFavor, BlockSpace, ChooseNewStart, PassRunes)):
        return "there is no such choice to make now", "Turn"
    return "that action is not allowed now", "Turn"


def why(s: GameState, a: Action) -> IllegalAction | None:
    """``None`` if the rules allow ``a`` now, else the :class:`IllegalAction` that says why
    (the reason, the rule section, and a few legal actions of the same kind)."""
    if listed(s, a):
        return None     # (an action taken from the list is found by identity first)
    legal = s.legal_actions()
    same = [x for x in legal if type(x) is type(a)] or legal
    alternatives = [x.describe() for x in same[:5]]
    if s.over:
        return IllegalAction("the game is over (after season 4 nobody offers any more)",
                             rule="End of Game")
    if s.pending:
        d = s.pending[0]
        return d.refuse(rule=DECISIONS[d.kind][1], alternatives=alternatives)
    reason, rule = _reason(s, a)
    return IllegalAction(reason, rule=rule, alternatives=alternatives)


# ----- what each action does -------------------------------------------------------------

HANDLERS = Handlers("Inori")


@HANDLERS.on(OfferCard)
def _do_offer_card(s: GameState, a: OfferCard) -> GameState:
    w = InoriCopy(s)
    w.place_on_card(w.player, a.slot, a.space, a.pay)
    return w.done()


@HANDLERS.on(RuneOffer)
def _do_rune_offer(s: GameState, a: RuneOffer) -> GameState:
    w = InoriCopy(s)
    w.use_rune(w.player, a.rune)
    w.place_on_card(w.player, a.slot, a.space, a.pay)
    return w.done()


@HANDLERS.on(OfferTree)
def _do_offer_tree(s: GameState, a: OfferTree) -> GameState:
    w = InoriCopy(s)
    ed, p, t = w.edition, w.player, a.space
    space = ed.tree[t]
    w.tree_markers = replaced(w.tree_markers, t, p)
    w.take_marker(p)
    if not space.altar:
        k = _memo(ed)["roots"][t]
        tokens = w.root_tokens[k]
        if tokens:
            favor = w.favor
            c = ed.colours.index(w.root_colours[k])
            w.favor = replaced_in(favor, p, c, favor[p][c] + tokens)
            w.root_tokens = replaced(w.root_tokens, k, 0)
    elif w.altars[t] is None:
        w.ask(decision("altar", p, t))
    else:
        w.pay(p, a.pay, ed.altar_cost)
        w.effect(p, space.effect, w.altars[t], TREE_PTS)
    return w.done()


@HANDLERS.on(ChooseAltar)
def _do_choose_altar(s: GameState, a: ChooseAltar) -> GameState:
    w = InoriCopy(s)
    t = w.next_decision().data[0]
    w.altars = replaced(w.altars, t, a.colour)
    w.effect(w.player, w.edition.tree[t].effect, a.colour, TREE_PTS)
    return w.done()


@HANDLERS.on(TakeFavor)
def _do_take_favor(s: GameState, a: TakeFavor) -> GameState:
    w = InoriCopy(s)
    p = w.player
    d = w.next_decision()
    left = d.data[0]
    if d.kind == "favor_least":
        w.gain(p, a.colour, left)
    else:
        w.gain(p, a.colour, 1)
        if left > 1:
            w.ask(decision("favor_any", p, left - 1))
    return w.done()


@HANDLERS.on(BlockSpace)
def _do_block_space(s: GameState, a: BlockSpace) -> GameState:
    w = InoriCopy(s)
    left = w.next_decision().data[0]
    w.put(a.slot, a.space, NEUTRAL)
    w.neutral_home -= 1
    if left > 1:
        w.ask(decision("block", w.player, left - 1))
    return w.done()


@HANDLERS.on(RuneGain)
def _do_rune_gain(s: GameState, a: RuneGain) -> GameState:
    w = InoriCopy(s)
    rune = w.edition.runes[a.rune]
    w.use_rune(w.player, a.rune)
    w.gain(w.player, rune.colour, rune.count)
    return w.done()


@HANDLERS.on(RuneMove)
def _do_rune_move(s: GameState, a: RuneMove) -> GameState:
    w = InoriCopy(s)
    w.use_rune(w.player, a.rune)
    w.lift(a.from_slot, a.from_space, w.player)
    w.put(a.to_slot, a.to_space, w.player)
    return w.done()


@HANDLERS.on(PassRunes)
def _do_pass_runes(s: GameState, a: PassRunes) -> GameState:
    w = InoriCopy(s)
    w.next_decision()
    return w.done()


@HANDLERS.on(SetAside)
def _do_set_aside(s: GameState, a: SetAside) -> GameState:
    w = InoriCopy(s)
    w.take_marker(w.player)
    w.set_aside = replaced(w.set_aside, w.player, w.set_aside[w.player] + 1)
    return w.done()


@HANDLERS.on(EndTurn)
def _do_end_turn(s: GameState, a: EndTurn) -> GameState:
    w = InoriCopy(s)
    _end_turn(w)
    return w.done()


@HANDLERS.on(ChooseNewStart)
def _do_choose_new_start(s: GameState, a: ChooseNewStart) -> GameState:
    w = InoriCopy(s)
    d = w.next_decision()
    w.slots = (*w.slots, (a.card, ((),) * len(w.edition.cards[a.card].spaces)))
    w.spent_cards += tuple(c for c in d.data[0] if c != a.card)
    w.first_player = d.player
    w.turn = d.player
    return w.done()
