"""Legal actions, legality and the turn engine (rulebook: "Course of play", "Tree saplings",
"Winter cards", "End of the game").

:func:`why` says why an action is not legal now (or ``None`` when it is); :data:`HANDLERS`
apply each action type to a working copy (:class:`.work.ForestCopy`) that freezes into the new
:class:`~.state.GameState`, so a rejected action never changes anything.  The game object
puts them together (``state.apply(action)``: field types, then :func:`why`, then the handler).
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from ..core.engine import Handlers, listed
from ..core.errors import IllegalAction, InvalidData
from ..core.memo import keep, kept_table
from ..core.protocol import Action
from ..core.validate import InvariantError, require
from .actions import (Decide, DrawCard, Finish, KeepHand, Mulligan, Pay, PlaceFree, PlayDweller,
                      PlaySapling, PlayTree, ToCave, card_text)
from .cards import SAPLING
from .edition import catalog
from .effects import (EFFECT_KINDS, after_play_steps, carry_mushrooms, free_options, place_free,
                      resolve)
from .forest import Forest, Tree, can_join
from .state import HAND_LIMIT, HAND_SIZE, STEP_WORDS, GameState, Step, dweller_of
from .work import ForestCopy


def _check_effect_kinds() -> None:
    for sp in catalog().all_species():
        for part in sp.effect + sp.bonus:
            if part["kind"] not in EFFECT_KINDS:
                raise InvalidData(f"cards.json: {sp.name} has an unknown effect {part['kind']!r}")


_check_effect_kinds()

#: the step of drawing a second card (steps are immutable values)
_DRAW_STEP = Step("draw")



# ----- turn flow ----------------------------------------------------------------------------


def _advance(w: ForestCopy) -> None:
    """Resolve automatic steps; end the turn once nothing is left to do."""
    while w.phase != "over":
        pending = w.pending
        if pending:
            if pending[0].kind != "placed":
                return
            w.pending = pending[1:]
            _card_placed(w, pending[0])
        elif w.busy:
            w.end_turn()
        else:
            return


def _card_placed(w: ForestCopy, step: Step) -> None:
    """A card is placed and paid for: a tree (or a sapling, with the option) turns a card
    into the clearing, then its mushroom draws, effect and bonus wait as steps (behind the
    Mole's plays, when it came through the Mole: they come once the Mole ends)."""
    tag = step.tag
    options = w.options_map()
    if tag == "tree" or (tag == "sapling" and options["sapling_flips_clearing"]):
        w.flip()
        if w.phase == "over":
            return
    forest = w.forest
    host = None
    if tag != "tree" and tag != "sapling":
        host = _host(forest, tag, step.card)
    steps = after_play_steps(forest, w.this_turn, options, step.card, tag, step.cards, host)
    if step.via != "mole":
        if steps:
            w.push(*steps)
        return
    pending = list(w.pending)
    m = next(i for i, s in enumerate(pending) if s.kind == "mole")
    mole = pending[m]
    at = m + 1 + mole.n
    pending[at:at] = steps
    pending[m] = Step("mole", mole.card, mole.n + len(steps), mole.cards, mole.tag)
    w.pending = tuple(pending)


def _host(forest: Forest, side: str, card: int) -> int:
    """The number of the tree holding ``card`` in its ``side`` slot."""
    for i, tree in enumerate(forest.trees):
        for d in getattr(tree, side):
            if d.card == card:
                return i
    raise InvariantError(f"card #{card} is in no {side} slot")  # pragma: no cover


# ----- a played card's forest ----------------------------------------------------------------
#
# A play makes the new forest with what is kept with the old one (its empty slots, its
# mushrooms, the plays of the cards still in hand) carried over where the new card leaves it
# the same: the next listing of the player's plays then starts from it.


def _planted(forest: Forest, tree: Tree, hand: tuple[int, ...]) -> Forest:
    """``forest.plant(tree)``, with its empty slots and the plays of the cards of ``hand``
    noted from the old forest's."""
    new = Forest(forest.trees + (tree,), forest.cave)
    carry_mushrooms(forest, new, None)
    empty = getattr(forest, "_empty", None)
    if empty is not None:
        n = (len(forest.trees),)
        keep(new, "_empty", {side: at + n for side, at in empty.items()})
    _carry_moves(forest, new, hand, len(forest.trees), "")
    return new


def _placed(forest: Forest, i: int, side: str, d: Any, hand: tuple[int, ...]) -> Forest:
    """``forest.place(i, side, d)`` for a legal play (checked by the listing), with what is
    noted on the old forest and tree carried over where the new card leaves it the same."""
    trees = forest.trees
    old = trees[i]
    slots = {"top": old.top, "bottom": old.bottom, "left": old.left, "right": old.right}
    slots[side] += (d,)
    tree = Tree(old.species, old.card, **slots)
    carry_mushrooms(old, tree, d.species)
    new = Forest(trees[:i] + (tree,) + trees[i + 1:], forest.cave)
    carry_mushrooms(forest, new, d.species)
    empty = getattr(forest, "_empty", None)
    if empty is not None:
        empty = dict(empty)
        empty[side] = tuple(k for k in empty[side] if k != i)
        keep(new, "_empty", empty)
    _carry_moves(forest, new, hand, i, side)
    return new


#: what never changes, looked up once: each tree card's species, each species' cost
_TREE_SPECIES = {c: str(catalog().card(c).species) for c in catalog().card_ids
                 if catalog().card(c).is_tree}
_COSTS = {sp.name: sp.cost for sp in catalog().all_species()}



# ----- legal actions ----------------------------------------------------------------------

def _card_plays(cid: int) -> tuple:
    """How a card can be played: ("tree", cost) or ((side, species, cost, stacks), ...) per
    half (``stacks``: the species may share a slot, as Hares and Toads do)."""
    cached = _PLAYS.get(cid)
    if cached is None:
        cat = catalog()
        card = cat.card(cid)
        if card.is_tree:
            cached = ("tree", cat.species(str(card.species)).cost)
        else:
            cached = tuple((side, h.species, cat.species(h.species).cost,
                            cat.species(h.species).stack != 1)
                           for side, h in zip(card.sides(), card.halves))
        _PLAYS[cid] = cached
    return cached


_PLAYS: dict[int, tuple] = {}


def _empty_slots(forest: Forest) -> dict[str, tuple[int, ...]]:
    """Per side, the trees whose slot on that side is empty; worked out once per forest
    (forests never change).  Only an empty slot takes a card that cannot share one."""
    cached = getattr(forest, "_empty", None)
    if cached is None:
        top: list[int] = []
        bottom: list[int] = []
        left: list[int] = []
        right: list[int] = []
        for i, t in enumerate(forest.trees):
            if not t.top:
                top.append(i)
            if not t.bottom:
                bottom.append(i)
            if not t.left:
                left.append(i)
            if not t.right:
                right.append(i)
        cached = {"top": tuple(top), "bottom": tuple(bottom), "left": tuple(left),
                  "right": tuple(right)}
        keep(forest, "_empty", cached)
    return cached


def _made(cls: type, *args: Any) -> Any:
    """The action ``cls(*args)``: actions are immutable values, so each one the legal lists
    offer is built once and reused."""
    key = (cls, args)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = cls(*args)
    return action


_ACTIONS: dict[tuple, Action] = {}
#: each card's sapling play; each tree card's (cost, play)
_SAPLINGS = {c: _made(PlaySapling, c) for c in catalog().card_ids}
_TREE_MOVES = {c: (catalog().species(sp).cost, _made(PlayTree, c))
               for c, sp in _TREE_SPECIES.items()}


def play_options(st: GameState, allowed: tuple[int, ...] | None = None) -> list[Action]:
    """Every card the current player can play now (paying from the rest of the hand): the
    trees, then the cards into slots, then the saplings, each in the order of the hand."""
    p = st.current
    hand = st.hands[p]
    budget = len(hand) - 1
    forest = st.forests[p]
    placed_now = st.this_turn
    if allowed is not None:
        hand = tuple(c for c in hand if c in allowed)
    # a split card's plays at every budget depend on the forest and, for cards that share a
    # slot, on the cards placed this turn: with none placed (a turn's start), each card's
    # plays are kept with the (immutable) forest
    kept = None
    if not placed_now:
        kept = kept_table(forest, "_moves")
    trees: list[Action] = []
    dwellers: list[Action] = []
    for c in hand:
        moves = _TREE_MOVES.get(c)
        if moves is not None:
            if moves[0] <= budget:
                trees.append(moves[1])
            continue
        moves = kept.get(c) if kept is not None else None
        if moves is None:
            moves = _moves_of(c, forest, placed_now)
            if kept is not None:
                kept[c] = moves
        for cost, actions in moves:
            if cost <= budget:
                dwellers += actions
    return trees + dwellers + [_SAPLINGS.get(c) or _made(PlaySapling, c) for c in hand]


def _moves_of(c: int, forest: Forest, placed_now: tuple[int, ...] = ()
              ) -> tuple[tuple[int, tuple[Action, ...]], ...]:
    """The ways to play split card ``c`` into slots of ``forest``, per half: (cost, plays)."""
    return tuple((cost, _half_moves(c, side, species, stacks, forest, placed_now))
                 for side, species, cost, stacks in _card_plays(c))


def _half_moves(c: int, side: str, species: str, stacks: bool, forest: Forest,
                placed_now: tuple[int, ...]) -> tuple[Action, ...]:
    row = _row(c, side, len(forest.trees))
    if not stacks:      # can_join refuses any card in the slot
        return tuple([row[i] for i in _empty_slots(forest)[side]])
    return tuple([row[i] for i, tree in enumerate(forest.trees)
                  if not getattr(tree, side)
                  or can_join(getattr(tree, side), species, placed_now) is None])


def _carry_moves(old: Forest, new: Forest, hand: tuple[int, ...], at: int, side: str) -> None:
    """Note on ``new`` the plays of the cards of ``hand`` kept with ``old``, where ``new`` is
    ``old`` with a new tree (``side`` empty, ``at`` its number) or with one more card in
    slot ``side`` of tree ``at``."""
    kept = getattr(old, "_moves", None)
    if not kept:
        return
    carried = {}
    for c in hand:
        moves = kept.get(c)
        if moves is None:
            continue
        if side and side not in _SIDES_OF[c]:      # no half of it goes there: the same
            carried[c] = moves
            continue
        halves = []
        for (cost, actions), (s, species, _, stacks) in zip(moves, _card_plays(c)):
            if not side:
                actions += (_row(c, s, at + 1)[at],)
            elif s == side:
                if stacks:
                    actions = _half_moves(c, s, species, stacks, new, ())
                else:
                    actions = tuple([a for a in actions if a.tree != at])  # type: ignore
            halves.append((cost, actions))
        carried[c] = tuple(halves)
    keep(new, "_moves", carried)


def _row(c: int, side: str, n: int) -> list[Action]:
    """``PlayDweller(c, side, i)`` for every tree ``i`` below ``n`` (at least)."""
    row = _ROWS.get((c, side))
    if row is None:
        row = _ROWS[(c, side)] = []
    while len(row) < n:
        row.append(_made(PlayDweller, c, side, len(row)))
    return row


_ROWS: dict[tuple[int, str], list[Action]] = {}
#: the sides a split card's halves go to
_SIDES_OF = {c: catalog().card(c).sides() for c in catalog().card_ids
             if catalog().card(c).is_split}


def _make_rows(n: int) -> None:
    """Every split card's plays into the first ``n`` trees of a forest, made at once (a row
    grows further when a forest does)."""
    for c, sides in _SIDES_OF.items():
        for side in sides:
            _row(c, side, n)


_make_rows(12)


def _draw_options(st: GameState) -> list[Action]:
    out: list[Action] = [_DRAW_DECK] if st.deck else []
    out += [_DRAWS.get(c) or _made(DrawCard, c) for c in st.clearing]
    return out


def _pay_options(hand: tuple[int, ...]) -> list[Action]:
    return [_PAYS.get(c) or _made(Pay, c) for c in hand]


def _decide_options(step: Step) -> list[Action]:
    return [_made(Decide, step.kind, step.tag, True), _made(Decide, step.kind, step.tag, False)]


#: the draws and payments of each card, made once
_DRAW_DECK = _made(DrawCard, None)
_DRAWS = {c: _made(DrawCard, c) for c in catalog().card_ids}
_PAYS = {c: _made(Pay, c) for c in catalog().card_ids}


def legal_actions(st: GameState) -> list[Action]:
    phase = st.phase
    if phase != "turn":
        if phase == "over":
            return []
        if phase == "mulligan":
            return [KeepHand(), Mulligan()]
    hand = st.hands[st.current]
    if not st.pending:
        if len(hand) < HAND_LIMIT:
            return _draw_options(st) + play_options(st)
        return play_options(st)
    step = st.pending[0]
    if step.kind == "draw":
        return _draw_options(st)
    if step.kind == "pay":
        return _pay_options(hand)
    if step.kind in ("mushroom", "effect", "bonus"):
        return _decide_options(step)
    if step.kind == "free":
        return [PlaceFree(c, s, i) for c, s, i in free_options(st, step.tag)] + [Finish("free")]
    if step.kind == "raccoon":
        return [ToCave(c) for c in hand] + [Finish("raccoon")]
    if step.kind == "mole":
        return play_options(st, allowed=step.cards) + [Finish("mole")]
    raise InvariantError(f"unexpected step {step.kind}")  # pragma: no cover


# ----- legality -----------------------------------------------------------------------------

def why(st: GameState, action: Action) -> IllegalAction | None:
    """``None`` if ``action`` is legal now, else the :class:`IllegalAction` saying which rule
    forbids it (in plain words, with a few legal alternatives)."""
    if listed(st, action):
        return None
    return _why(st, action)


def _why(st: GameState, action: Action) -> IllegalAction:
    """A plain-words reason why ``action`` is not legal now."""
    if st.is_over:
        return IllegalAction(f"the game is over ({st.ended_by})", rule="End of the game")
    if st.phase == "mulligan":
        return st.reject(f"{st.player_name(st.current)} first decides whether to swap a "
                         f"starting hand with no tree", rule="Setup: new hand")
    card = getattr(action, "card", None)
    hand = st.hands[st.current]
    step = st.step
    expected = {None: (DrawCard, PlayTree, PlaySapling, PlayDweller), "draw": (DrawCard,),
                "pay": (Pay,), "mushroom": (Decide,), "effect": (Decide,), "bonus": (Decide,),
                "free": (PlaceFree, Finish), "raccoon": (ToCave, Finish),
                "mole": (PlayTree, PlaySapling, PlayDweller, Finish)}[step.kind if step else None]
    if not isinstance(action, expected):
        decision = st.decision
        if decision is None:
            return st.reject("not now: at the start of a turn you either draw 2 cards or play "
                             "1 card", rule="Course of play")
        return decision.refuse(rule=STEP_WORDS[decision.kind][1],
                               alternatives=[a.describe() for a in st.legal_actions()[:5]])
    if isinstance(action, DrawCard):
        if len(hand) >= HAND_LIMIT:
            return st.reject("your hand holds 10 cards, the hand limit; play a card instead",
                             rule="Draw 2 cards: hand limit")
        if action.card is not None and action.card not in st.clearing:
            return st.reject(f"card #{action.card} is not in the clearing",
                             rule="Draw 2 cards", like=DrawCard)
        return st.reject("the deck is empty", rule="Draw 2 cards", like=DrawCard)
    if isinstance(action, (PlayTree, PlaySapling, PlayDweller, Pay, PlaceFree, ToCave)) and (
            card not in hand):
        return st.reject(f"{_name(card)} is not in your hand", like=type(action))
    if isinstance(action, PlayTree):
        c = catalog().card(card)
        if not c.is_tree:
            return st.reject(f"{card_text(card)} is not a tree; play it into a slot or as a "
                             f"sapling", rule="Play a card", like=PlayDweller)
        cost = catalog().species(str(c.species)).cost
        return st.reject(f"{c.species} costs {cost} but you hold only {len(hand) - 1} other "
                         f"cards to pay with", rule="Play a card: pay its cost")
    if isinstance(action, (PlayDweller, PlaceFree)):
        return _why_slot(st, action)
    if isinstance(action, Decide):
        return st.reject(f"the choice now is about the {step.kind} of {step.tag}",
                         rule=STEP_WORDS[step.kind][1], like=Decide)
    if isinstance(action, PlaySapling) and step and step.kind == "mole":
        return st.reject(f"{_name(card)} was drawn after the Mole was played, so the Mole "
                         f"cannot play it", rule="Mole")
    if isinstance(action, Finish):
        return st.reject(f"there is no {action.what} to finish now", like=Finish)
    return st.reject("this action is not allowed now")


def _name(card: int) -> str:
    try:
        return card_text(card)
    except InvalidData:
        return f"card #{card}"


def _why_slot(st: GameState, action: PlayDweller | PlaceFree) -> IllegalAction:
    cat = catalog()
    c = cat.card(action.card)
    like = type(action)
    half = c.half_for(action.side)
    if half is None:
        return st.reject(f"{card_text(action.card)} has no half for a {action.side} slot "
                         f"(it is a {c.kind} card)", rule="Play a card: split cards", like=like)
    forest = st.forests[st.current]
    if not 0 <= action.tree < len(forest.trees):
        return st.reject(f"you have no tree number {action.tree + 1}",
                         rule="Play a card: split cards", like=like)
    slot = forest.trees[action.tree].slot(action.side)
    why = can_join(slot, half.species)
    rule = "Play a card: split cards"
    if why is None:
        why = can_join(slot, half.species, st.this_turn)
        rule = f"{half.species} (appendix): sharing a slot only on a later turn"
    if why:
        return st.reject(f"{half.species} cannot go {action.side} of tree {action.tree + 1}: "
                         f"{why}", rule=rule, like=like)
    sp = cat.species(half.species)
    if isinstance(action, PlaceFree):
        step = st.step
        return st.reject(f"this free placement is for a {step.tag if step else '?'} card, and "
                         f"{half.species} is not one", rule="Effects and bonuses", like=like)
    if st.step and st.step.kind == "mole" and action.card not in st.step.cards:
        return st.reject(f"{card_text(action.card)} was drawn after the Mole was played",
                         rule="Mole", like=like)
    return st.reject(f"{half.species} costs {sp.cost} but you hold only {len(st.hands[st.current]) - 1} "
                     f"other cards to pay with", rule="Play a card: pay its cost", like=like)




# ----- the handlers -------------------------------------------------------------------------

HANDLERS = Handlers("Forest Shuffle")


def _on(*types: type) -> Callable:
    """Register ``fn(w, action, step)`` as the handler of ``types``: it changes the working
    copy ``w`` (``step`` is the front pending step, if any); then the automatic steps
    resolve, the turn ends if nothing is left to do, and the copy freezes."""
    def register(fn: Callable[[ForestCopy, Any, Step | None], None]) -> Callable:
        @functools.wraps(fn)
        def handler(st: GameState, action: Action) -> GameState:
            w = ForestCopy(st)
            pending = st.pending
            fn(w, action, pending[0] if pending else None)
            _advance(w)
            return w.freeze()

        HANDLERS.on(*types)(handler)
        return fn
    return register


@_on(KeepHand, Mulligan)
def _starting_hand(w: ForestCopy, action: Action, step: Step | None) -> None:
    if isinstance(action, Mulligan):
        w.box += w.hand
        w.set_hand(())
        w.draw_to_hand(HAND_SIZE)
    w.mulligan_left = w.mulligan_left[1:]
    if w.mulligan_left:
        w.current = w.mulligan_left[0]
    elif not w.over:
        w.phase, w.current = "turn", 0


@_on(DrawCard)
def _draw(w: ForestCopy, action: DrawCard, step: Step | None) -> None:
    if step is None:
        w.busy = True
    else:
        w.pending = w.pending[1:]
    card = action.card
    if card is None:
        w.draw_to_hand(1)
    else:
        clearing = w.clearing
        i = clearing.index(card)
        w.clearing = clearing[:i] + clearing[i + 1:]
        w.set_hand(w.hand + (card,))
    if (step is None and w.phase != "over" and len(w.hand) < HAND_LIMIT
            and (w.deck or w.clearing)):
        w.push(_DRAW_STEP)


@_on(PlayTree, PlaySapling, PlayDweller)
def _play(w: ForestCopy, action: PlayTree | PlaySapling | PlayDweller, step: Step | None) -> None:
    """The card leaves the hand for the forest; paying for it comes next (a card played
    while a step waits is played through the Mole)."""
    card = action.card
    w.busy = True
    w.take_from_hand(card)
    forest, hand = w.forest, w.hand
    if isinstance(action, PlayTree):
        w.set_forest(_planted(forest, Tree(_TREE_SPECIES[card], card), hand))
        placement, cost = "tree", _card_plays(card)[1]
    elif isinstance(action, PlaySapling):
        w.set_forest(_planted(forest, Tree(SAPLING, card), hand))
        placement, cost = "sapling", 0
    else:
        side = action.side
        d = dweller_of(card, side)
        w.set_forest(_placed(forest, action.tree, side, d, hand))
        placement, cost = side, _COSTS[d.species]
    w.this_turn += (card,)
    w.push(Step("pay" if cost else "placed", card, cost, (), placement,
                "" if step is None else "mole"))


@_on(Pay)
def _pay(w: ForestCopy, action: Pay, step: Step | None) -> None:
    require(step is not None)
    card = action.card
    w.take_from_hand(card)
    w.clearing += (card,)
    w.set_step(Step("pay" if step.n > 1 else "placed", step.card, step.n - 1,
                    step.cards + (card,), step.tag, step.via))


@_on(Decide)
def _decide(w: ForestCopy, action: Decide, step: Step | None) -> None:
    require(step is not None)
    w.pending = w.pending[1:]
    if action.use:
        resolve(w, step.kind, step)


@_on(PlaceFree)
def _place_free(w: ForestCopy, action: PlaceFree, step: Step | None) -> None:
    place_free(w, action.card, action.side, action.tree)


@_on(ToCave)
def _to_cave(w: ForestCopy, action: ToCave, step: Step | None) -> None:
    require(step is not None)
    card = action.card
    w.take_from_hand(card)
    w.to_cave((card,))
    w.set_step(Step("raccoon", step.card, step.n + 1, step.cards + (card,)))
    if not w.hand:
        w.pending = w.pending[1:]
        w.draw_to_hand(step.n + 1)


@_on(Finish)
def _finish(w: ForestCopy, action: Finish, step: Step | None) -> None:
    require(step is not None)
    w.pending = w.pending[1:]
    if step.kind == "raccoon":
        w.draw_to_hand(step.n)
