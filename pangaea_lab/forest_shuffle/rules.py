"""Setup, legal actions and the turn engine (rulebook: "Setup", "Course of play",
"Tree saplings", "Winter cards", "End of the game").

:func:`apply` works on a mutable copy (:class:`Work`) and freezes it into a new
:class:`~.state.GameState`, so a rejected action never changes anything.
"""

from __future__ import annotations

from ..core.errors import IllegalAction, InvalidData, InvalidSetup
from ..core.validate import require
from ..core.protocol import Action
from ..core.rng import check_seed, make_rng, shuffled
from .actions import (Decide, DrawCard, Finish, KeepHand, Mulligan, Pay, PlaceFree, PlayDweller,
                      PlaySapling, PlayTree, ToCave, card_text)
from .cards import SAPLING, catalog, rules_data
from .effects import EFFECT_KINDS, after_play_steps, free_options, place_free, resolve
from .forest import Tree, can_join
from .state import GameState, Step, dweller_of

#: options a game can set (the labelled assumptions of ``data/rules.json``)
OPTION_DEFAULTS: dict[str, bool] = {
    a["option"]: a["default"] for a in rules_data()["assumptions"] if a["option"]}

HAND_LIMIT = rules_data()["hand_limit"]["value"]
CLEARING_LIMIT = rules_data()["clearing_limit"]["value"]
HAND_SIZE = rules_data()["hand_size"]["value"]


def _check_effect_kinds() -> None:
    for sp in catalog().all_species():
        for part in sp.effect + sp.bonus:
            if part["kind"] not in EFFECT_KINDS:
                raise InvalidData(f"cards.json: {sp.name} has an unknown effect {part['kind']!r}")


_check_effect_kinds()


class Work:
    """A mutable copy of a state, used while one action is applied."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.options = dict(st.options)
        self.deck = list(st.deck)
        self.hands = [list(h) for h in st.hands]
        self.clearing = list(st.clearing)
        self.forests = list(st.forests)
        self.caves = [list(c) for c in st.caves]
        self.box = list(st.box)
        self.winter = list(st.winter)
        self.current = st.current
        self.phase = st.phase
        self.mulligan_left = list(st.mulligan_left)
        self.pending = list(st.pending)
        self.busy = st.busy
        self.extra_turns = st.extra_turns
        self.this_turn = list(st.this_turn)
        self.turn = st.turn
        self.ended_by = st.ended_by

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def freeze(self) -> GameState:
        from dataclasses import replace
        st = self.st
        forests = tuple(f if f.cave == len(c) else replace(f, cave=len(c))
                        for f, c in zip(self.forests, self.caves))
        hands = tuple(old if len(old) == len(new) and set(old) == set(new) else tuple(sorted(new))
                      for old, new in zip(st.hands, self.hands))
        caves = tuple(old if len(old) == len(new) else tuple(new)
                      for old, new in zip(st.caves, self.caves))
        return GameState(
            players=st.players, seed=st.seed, options=st.options, removed=st.removed,
            deck=tuple(self.deck), hands=hands, clearing=tuple(self.clearing), forests=forests,
            caves=caves, box=tuple(self.box), winter=tuple(self.winter), current=self.current,
            phase=self.phase, mulligan_left=tuple(self.mulligan_left),
            pending=() if self.over else tuple(self.pending), busy=self.busy and not self.over,
            extra_turns=self.extra_turns, this_turn=tuple(self.this_turn), turn=self.turn,
            ended_by=self.ended_by)

    # ----- cards moving -------------------------------------------------------------------

    def end_game(self, why: str) -> None:
        self.phase = "over"
        self.ended_by = why
        self.pending.clear()

    def draw_from_deck(self) -> int | None:
        """The top deck card; a winter card is laid out and replaced (the third ends the
        game, and then None is returned)."""
        while not self.over:
            if not self.deck:
                self.end_game("the deck ran out")
                return None
            card = self.deck.pop(0)
            if catalog().card(card).kind == "winter":
                self.winter.append(card)
                if len(self.winter) >= 3:
                    self.end_game("the third winter card was revealed")
                continue
            return card
        return None

    def draw_to_hand(self, n: int) -> None:
        """Draw up to ``n`` cards from the deck, stopping at the hand limit."""
        hand = self.hands[self.current]
        for _ in range(n):
            if len(hand) >= HAND_LIMIT:
                return
            card = self.draw_from_deck()
            if card is None:
                return
            hand.append(card)

    def flip(self) -> None:
        card = self.draw_from_deck()
        if card is not None:
            self.clearing.append(card)

    # ----- turn flow ----------------------------------------------------------------------

    def advance(self) -> None:
        """Resolve automatic steps; end the turn once nothing is left to do."""
        while not self.over:
            if self.pending and self.pending[0].kind == "placed":
                self._placed(self.pending.pop(0))
            elif not self.pending and self.busy:
                self.end_turn()
            else:
                return

    def _placed(self, step: Step) -> None:
        if step.tag == "tree" or (step.tag == "sapling" and self.options["sapling_flips_clearing"]):
            self.flip()
            if self.over:
                return
        host = None
        if step.tag not in ("tree", "sapling"):
            host = next(i for i, t in enumerate(self.forests[self.current].trees)
                        if any(d.card == step.card for d in t.slot(step.tag)))
        steps = after_play_steps(self, step.card, step.tag, step.cards, host)
        if step.via != "mole":
            self.pending[0:0] = steps
            return
        m = next(i for i, s in enumerate(self.pending) if s.kind == "mole")
        mole = self.pending[m]
        at = m + 1 + mole.n
        self.pending[at:at] = steps
        self.pending[m] = Step("mole", mole.card, mole.n + len(steps), mole.cards, mole.tag)

    def end_turn(self) -> None:
        """Clear a full clearing, then give an extra turn or pass to the next player."""
        if len(self.clearing) >= CLEARING_LIMIT:
            self.box.extend(self.clearing)
            self.clearing.clear()
        self.busy = False
        self.this_turn.clear()
        self.turn += 1
        if not self.deck:
            self.end_game("the deck ran out")
            return
        if self.extra_turns > 0:
            self.extra_turns -= 1
        else:
            self.current = (self.current + 1) % len(self.hands)

    def play(self, action: Action, via: str) -> None:
        p = self.current
        self.hands[p].remove(action.card)  # type: ignore[attr-defined]
        cat = catalog()
        if isinstance(action, PlayTree):
            species = str(cat.card(action.card).species)
            self.forests[p] = self.forests[p].plant(Tree(species, action.card))
            placement, cost = "tree", cat.species(species).cost
        elif isinstance(action, PlaySapling):
            self.forests[p] = self.forests[p].plant(Tree(SAPLING, action.card))
            placement, cost = "sapling", 0
        else:
            require(isinstance(action, PlayDweller))
            d = dweller_of(action.card, action.side)
            self.forests[p] = self.forests[p].place(action.tree, action.side, d, self.this_turn)
            placement, cost = action.side, cat.species(d.species).cost
        self.this_turn.append(action.card)  # type: ignore[attr-defined]
        kind = "pay" if cost else "placed"
        self.pending.insert(0, Step(kind, action.card, cost, (), placement, via))  # type: ignore[attr-defined]


# ----- setup ------------------------------------------------------------------------------

def new_game(players: int = 2, seed: int | str = 0, **options: bool) -> GameState:
    """A new seeded game for 2-5 players (rulebook: "Setup").

    Cards are removed unseen for fewer than 5 players; the rest is split in three piles with
    all three winter cards in the bottom one; everyone draws 6.  ``options`` switch the
    labelled assumptions (see ``data/rules.json``).

    >>> g = new_game(players=3, seed=1)
    >>> len(g.deck) + sum(map(len, g.hands)) + len(g.removed)
    161
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise InvalidSetup(f"Forest Shuffle is for 2 to 5 players, not {players!r}")
    check_seed(seed)
    chosen = dict(OPTION_DEFAULTS)
    for name, value in options.items():
        if name not in OPTION_DEFAULTS:
            raise InvalidSetup(f"unknown option {name!r}; options are "
                               f"{', '.join(sorted(OPTION_DEFAULTS))}")
        if not isinstance(value, bool):
            raise InvalidSetup(f"option {name!r} must be True or False")
        chosen[name] = value
    cat = catalog()
    rng = make_rng(seed, "forest_shuffle", "deck")
    cards = shuffled(cat.playable_ids, rng)
    k = rules_data()["removed_per_players"][str(players)]
    removed, rest = cards[:k], cards[k:]
    bottom_size = len(rest) // 3
    upper, bottom = rest[:len(rest) - bottom_size], rest[len(rest) - bottom_size:]
    w1, w2, w3 = cat.winter_ids
    deck = upper + [w3] + shuffled(bottom + [w1, w2], rng)
    hands = [deck[HAND_SIZE * p:HAND_SIZE * (p + 1)] for p in range(players)]
    deck = deck[HAND_SIZE * players:]
    no_tree = [p for p, h in enumerate(hands) if not any(cat.card(c).is_tree for c in h)]
    from .forest import Forest
    return GameState(
        players=players, seed=seed, options=tuple(sorted(chosen.items())), deck=tuple(deck),
        hands=tuple(tuple(sorted(h)) for h in hands), clearing=(),
        forests=tuple(Forest() for _ in range(players)),
        caves=tuple(() for _ in range(players)), removed=tuple(removed), box=(), winter=(),
        current=no_tree[0] if no_tree else 0, phase="mulligan" if no_tree else "turn",
        mulligan_left=tuple(no_tree))


# ----- legal actions ----------------------------------------------------------------------

def _card_plays(cid: int) -> tuple:
    """How a card can be played: ("tree", cost) or ((side, species, cost), ...) per half."""
    cached = _PLAYS.get(cid)
    if cached is None:
        cat = catalog()
        card = cat.card(cid)
        if card.is_tree:
            cached = ("tree", cat.species(str(card.species)).cost)
        else:
            cached = tuple((side, h.species, cat.species(h.species).cost)
                           for side, h in zip(card.sides(), card.halves))
        _PLAYS[cid] = cached
    return cached


_PLAYS: dict[int, tuple] = {}


def play_options(st: GameState, allowed: tuple[int, ...] | None = None) -> list[Action]:
    """Every card the current player can play now (paying from the rest of the hand)."""
    p = st.current
    hand = st.hands[p]
    budget = len(hand) - 1
    trees_in_forest = st.forests[p].trees
    placed_now = st.this_turn
    trees, dwellers, saplings = [], [], []
    for c in hand:
        if allowed is not None and c not in allowed:
            continue
        plays = _card_plays(c)
        if plays[0] == "tree":
            if plays[1] <= budget:
                trees.append(PlayTree(c))
        else:
            for side, species, cost in plays:
                if cost > budget:
                    continue
                for i, tree in enumerate(trees_in_forest):
                    slot = getattr(tree, side)
                    if not slot or can_join(slot, species, placed_now) is None:
                        dwellers.append(PlayDweller(c, side, i))
        saplings.append(PlaySapling(c))
    return trees + dwellers + saplings


def _draw_options(st: GameState) -> list[Action]:
    out: list[Action] = [DrawCard(None)] if st.deck else []
    return out + [DrawCard(c) for c in st.clearing]


def legal_actions(st: GameState) -> list[Action]:
    if st.phase == "over":
        return []
    if st.phase == "mulligan":
        return [KeepHand(), Mulligan()]
    hand = st.hands[st.current]
    step = st.step
    if step is None:
        draws = _draw_options(st) if len(hand) < HAND_LIMIT else []
        return draws + play_options(st)
    if step.kind == "draw":
        return _draw_options(st)
    if step.kind == "pay":
        return [Pay(c) for c in hand]
    if step.kind in ("mushroom", "effect", "bonus"):
        return [Decide(step.kind, step.tag, True), Decide(step.kind, step.tag, False)]
    if step.kind == "free":
        w = Work(st)
        return [PlaceFree(c, s, i) for c, s, i in free_options(w, step.tag)] + [Finish("free")]
    if step.kind == "raccoon":
        return [ToCave(c) for c in hand] + [Finish("raccoon")]
    if step.kind == "mole":
        return play_options(st, allowed=step.cards) + [Finish("mole")]
    raise AssertionError(f"unexpected step {step.kind}")  # pragma: no cover


# ----- apply ------------------------------------------------------------------------------

_STEP_WORDS = {
    "draw": ("draw your second card (deck or clearing)", "Draw 2 cards"),
    "pay": ("finish paying for the card you played", "Play a card: pay its cost"),
    "mushroom": ("decide on the mushroom draw first", "Mushrooms (permanent effects)"),
    "effect": ("decide whether to use the card's effect first", "Effects and bonuses"),
    "bonus": ("decide whether to use the card's bonus first", "Effects and bonuses"),
    "free": ("finish the free placements first", "Effects and bonuses: free placement"),
    "raccoon": ("finish the Raccoon (cards under your cave) first", "Raccoon"),
    "mole": ("play cards with the Mole, or finish it", "Mole"),
}


def _why(st: GameState, action: Action) -> IllegalAction:
    """A plain-words reason why ``action`` is not legal now."""
    if st.is_over:
        return IllegalAction(f"the game is over ({st.ended_by})", rule="End of the game")
    if not isinstance(action, Action):
        return st.reject(f"{action!r} is not a Forest Shuffle action")
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
        reason, rule = _STEP_WORDS[step.kind] if step else (
            "at the start of a turn you either draw 2 cards or play 1 card", "Course of play")
        return st.reject(f"not now: {reason}", rule=rule)
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
                         rule=_STEP_WORDS[step.kind][1], like=Decide)
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


def apply(st: GameState, action: Action) -> GameState:
    """The state after ``action``; :class:`IllegalAction` (state unchanged) if not legal."""
    try:
        legal = action in st.legal_actions()
    except TypeError:
        legal = False
    if not legal:
        raise _why(st, action)
    w = Work(st)
    p = w.current
    step = w.pending[0] if w.pending else None
    if isinstance(action, (KeepHand, Mulligan)):
        if isinstance(action, Mulligan):
            w.box.extend(w.hands[p])
            w.hands[p] = []
            w.draw_to_hand(HAND_SIZE)
        w.mulligan_left.pop(0)
        if w.mulligan_left:
            w.current = w.mulligan_left[0]
        elif not w.over:
            w.phase, w.current = "turn", 0
    elif isinstance(action, DrawCard):
        if step is None:
            w.busy = True
        else:
            w.pending.pop(0)
        if action.card is None:
            w.draw_to_hand(1)
        else:
            w.clearing.remove(action.card)
            w.hands[p].append(action.card)
        if (step is None and not w.over and len(w.hands[p]) < HAND_LIMIT
                and (w.deck or w.clearing)):
            w.pending.insert(0, Step("draw"))
    elif isinstance(action, (PlayTree, PlaySapling, PlayDweller)):
        w.busy = True
        w.play(action, "mole" if step is not None else "")
    elif isinstance(action, Pay):
        require(step is not None)
        w.hands[p].remove(action.card)
        w.clearing.append(action.card)
        paid = step.cards + (action.card,)
        kind = "pay" if step.n > 1 else "placed"
        w.pending[0] = Step(kind, step.card, step.n - 1, paid, step.tag, step.via)
    elif isinstance(action, Decide):
        require(step is not None)
        w.pending.pop(0)
        if action.use:
            resolve(w, step.kind, step)
    elif isinstance(action, PlaceFree):
        place_free(w, action.card, action.side, action.tree)
    elif isinstance(action, ToCave):
        require(step is not None)
        w.hands[p].remove(action.card)
        w.caves[p].append(action.card)
        w.pending[0] = Step("raccoon", step.card, step.n + 1, step.cards + (action.card,))
        if not w.hands[p]:
            w.pending.pop(0)
            w.draw_to_hand(step.n + 1)
    elif isinstance(action, Finish):
        require(step is not None)
        w.pending.pop(0)
        if step.kind == "raccoon":
            w.draw_to_hand(step.n)
    w.advance()
    return w.freeze()
