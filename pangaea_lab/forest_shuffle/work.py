"""The working copy of a Forest Shuffle state while one action is applied.

:class:`Work` holds the zones an action changes as lists (each thawed when first used) and
freezes them back into the new :class:`~.state.GameState`, so a rejected action never changes
anything.  It knows how cards move (drawing, flipping into the clearing, playing from the hand)
and nothing of the cards' effects: :mod:`.effects` and :mod:`.rules`, above it, change it.
"""

from __future__ import annotations

from dataclasses import fields, replace
from operator import is_, itemgetter
from typing import Any

from ..core.engine import WorkingCopy
from ..core.protocol import Action
from ..core.validate import require
from .actions import PlayDweller, PlaySapling, PlayTree
from .cards import SAPLING
from .edition import catalog
from .forest import Tree
from .state import CLEARING_LIMIT, HAND_LIMIT, GameState, Step, dweller_of

#: the fields of a state, and those a working copy changes in place (see :attr:`Work.THAW`)
FIELDS = tuple(f.name for f in fields(GameState) if f.init)
_NESTED = ("hands", "caves")
_FLAT = ("clearing", "forests", "winter", "mulligan_left", "pending", "this_turn")
_ZONES = _NESTED + _FLAT
_PLAIN = tuple(name for name in FIELDS if name not in _ZONES)
_plain_of = itemgetter(*_PLAIN)
fields_of = itemgetter(*FIELDS)


class _Zone:
    """A zone of the working copy, thawed into a list when first used: the list is kept on
    the copy, hiding this descriptor from then on.  An action touches a few zones, and
    copying every zone of every player for each action cost more than the rules.

    A zone kept per player (``per_player``: hands and caves) becomes a list of the players'
    rows in which only the current player's row is a list: the rules change only the hand
    and cave of the player whose turn it is (the others stay tuples, so a change to one of
    them would fail loudly, never pass unnoticed)."""

    def __init__(self, per_player: bool) -> None:
        self.per_player = per_player

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, w: "Work | None", owner: type | None = None) -> Any:
        if w is None:
            return self
        state = w.state
        value = list(state.__dict__[self.name])
        if self.per_player:
            value[state.current] = list(value[state.current])
        w.__dict__[self.name] = value
        return value


#: the winter cards
WINTER = frozenset(catalog().winter_ids)


def options_map(options: tuple[tuple[str, bool], ...]) -> dict[str, bool]:
    """A state's options (pairs of name and value) by name (one dict per set of options;
    not to be changed)."""
    found = _OPTIONS.get(options)
    if found is None:
        found = _OPTIONS[options] = dict(options)
    return found


_OPTIONS: dict[tuple, dict[str, bool]] = {}


class Work(WorkingCopy):
    """A mutable copy of a state, used while one action is applied: the zones that change
    are lists, and the helpers below move cards between them (what follows a card's
    placing, its effects and the flow of the turn, is in :mod:`.rules`)."""

    #: the zones changed in place.  The long deck and box stay tuples, replaced by a slice or
    #: a sum when they change: thawing a hundred card ids into a list and freezing them back
    #: on every action would slow every game down
    THAW = {"hands": 2, "clearing": 1, "forests": 1, "caves": 2, "winter": 1,
            "mulligan_left": 1, "pending": 1, "this_turn": 1}

    hands = _Zone(per_player=True)
    caves = _Zone(per_player=True)
    clearing = _Zone(per_player=False)
    forests = _Zone(per_player=False)
    winter = _Zone(per_player=False)
    mulligan_left = _Zone(per_player=False)
    pending = _Zone(per_player=False)
    this_turn = _Zone(per_player=False)

    def __init__(self, state: GameState) -> None:  # pylint: disable=super-init-not-called
        # The generic copy looks every field up by name and thaws the zones at once; here
        # the other fields are taken in one pass and each zone is thawed when first used
        # (the result is the same: the zones as lists, the other fields as they are).
        fresh = self.__dict__
        fresh.update(zip(_PLAIN, _plain_of(state.__dict__)))
        fresh["state"] = state

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def peek(self, name: str) -> Any:
        """A zone as it stands, without thawing it (to read, not to change)."""
        return self.__dict__.get(name, self.state.__dict__[name])

    def option(self, name: str) -> bool:
        return self.state.option(name)

    def options_map(self) -> dict[str, bool]:
        """The game's options by name."""
        return options_map(self.options)

    def freeze(self) -> GameState:  # type: ignore[override]
        """The new state: caves counted into the forests, changed hands sorted, and nothing
        pending once the game is over.  A zone used is frozen and kept as the old value when
        equal; any other field counts as changed only when it was replaced."""
        old = self.state
        before = old.__dict__
        now = self.__dict__
        caves = now.get("caves", old.caves)
        if "forests" in now or "caves" in now or not before.get("_caves_counted") and any(
                f.cave != len(c) for f, c in zip(old.forests, caves)):
            self.forests = [f if f.cave == len(c) else replace(f, cave=len(c))
                            for f, c in zip(self.forests, caves)]
        if "hands" in now:
            hands = now["hands"]
            for p, (prev, new) in enumerate(zip(old.hands, hands)):
                same = tuple(new)
                if same == prev or (len(prev) == len(same) and set(prev) == set(same)):
                    hands[p] = prev
                else:
                    hands[p] = tuple(sorted(same))
        if self.over:
            self.pending.clear()
            self.busy = False
        plain = _plain_of(now)
        changed = not all(map(is_, plain, _plain_of(before)))
        values = dict(zip(FIELDS, fields_of(before)))
        values.update(zip(_PLAIN, plain))
        # the zones used back into tuples (hands and caves hold tuples or lists of card ids)
        for name in _ZONES:
            if name in now:
                value = tuple(map(tuple, now[name])) if name in _NESTED else tuple(now[name])
                if value != before[name]:
                    values[name] = value
                    changed = True
        if not changed:
            return old
        # ``values`` are the new state's fields: it is made as ``dataclasses.replace`` would
        # (the state class has no checks on creation), without its per-field bookkeeping
        values["_caves_counted"] = True     # a private note: its forests count its caves
        new = object.__new__(GameState)
        new.__dict__.update(values)
        return new

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
            card, self.deck = self.deck[0], self.deck[1:]
            if card in WINTER:
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

    def end_turn(self) -> None:
        """Clear a full clearing, then give an extra turn or pass to the next player."""
        if len(self.peek("clearing")) >= CLEARING_LIMIT:
            self.box += tuple(self.clearing)
            self.clearing.clear()
        self.busy = False
        if self.peek("this_turn"):
            self.this_turn.clear()
        self.turn += 1
        if not self.deck:
            self.end_game("the deck ran out")
            return
        if self.extra_turns > 0:
            self.extra_turns -= 1
        else:
            self.current = (self.current + 1) % len(self.peek("hands"))

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
