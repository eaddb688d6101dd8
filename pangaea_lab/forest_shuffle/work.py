"""The working copy of a Forest Shuffle state while one action is applied.

:class:`Work` holds the fields of the state being made while a handler changes them, and
:meth:`Work.freeze` makes them the new :class:`~.state.GameState`, so a rejected action never
changes anything.  Its zones stay tuples, each replaced whole when it changes: a hand, the
clearing or the pending steps hold a handful of entries, and a new tuple of them costs less
than a list thawed and frozen back; the long deck and box are sliced or added to.  It knows
how cards move (drawing, flipping into the clearing, into and out of the current player's hand
and cave) and nothing of the cards' effects: :mod:`.effects` and :mod:`.rules`, above it,
change it.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Iterable

from ..core.memo import attributes, plain_object
from .edition import catalog
from .forest import Forest
from .state import CLEARING_LIMIT, HAND_LIMIT, GameState, Step

#: the fields of a state (a working copy holds each of them)
FIELDS = tuple(f.name for f in fields(GameState) if f.init)

#: the attributes of a state made by a move once its legal actions are listed: its fields,
#: the note that its forests count their caves, and the list
_USUAL_SIZE = len(FIELDS) + 2

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


class Work:
    """A copy of a state that changes while one action is applied: the fields an action may
    change are plain attributes, replaced by the handlers and the helpers below (what follows
    a card's placing, its effects and the flow of the turn, is in :mod:`.rules` and
    :mod:`.effects`); the number of players, the seed, the options and the cards removed from
    the game stay the state's.  Only the current player's hand, cave and forest change."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.options = state.options        # to read
        self.deck = state.deck
        self.hands = state.hands
        self.clearing = state.clearing
        self.forests = state.forests
        self.caves = state.caves
        self.box = state.box
        self.winter = state.winter
        self.current = state.current
        self.phase = state.phase
        self.mulligan_left = state.mulligan_left
        self.pending = state.pending
        self.busy = state.busy
        self.extra_turns = state.extra_turns
        self.this_turn = state.this_turn
        self.turn = state.turn
        self.ended_by = state.ended_by

    def freeze(self) -> GameState:
        """The new state: nothing pending once the game is over, and forests that count the
        cards under their caves (noted on the state, as on every state a move makes).  It is
        made from a copy of the old state's attributes in one block, the fields replaced and
        each entry the old state kept marked as not worked out yet (``None``), so that
        consecutive states keep one shape (see core.memo)."""
        old = self.state
        values = attributes(old)
        if len(values) == _USUAL_SIZE and "_legal" in values and "_caves_counted" in values:
            values["_legal"] = None         # what a state made by a move keeps once listed
        else:
            for name in [name for name in values if name[0] == "_"]:
                values[name] = None
        forests = self.forests
        if not getattr(old, "_caves_counted", None):
            forests = tuple([f if f.cave == len(c) else replace(f, cave=len(c))
                             for f, c in zip(forests, self.caves)])
        values["_caves_counted"] = True
        values["deck"] = self.deck
        values["hands"] = self.hands
        values["clearing"] = self.clearing
        values["forests"] = forests
        values["caves"] = self.caves
        values["box"] = self.box
        values["winter"] = self.winter
        values["current"] = self.current
        values["mulligan_left"] = self.mulligan_left
        values["extra_turns"] = self.extra_turns
        values["this_turn"] = self.this_turn
        values["turn"] = self.turn
        if self.phase == "over":
            values["phase"] = "over"
            values["ended_by"] = self.ended_by
            values["pending"] = ()
            values["busy"] = False
        else:
            values["phase"] = self.phase
            values["pending"] = self.pending
            values["busy"] = self.busy
        return plain_object(GameState, values)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def option(self, name: str) -> bool:
        return options_map(self.options)[name]

    def options_map(self) -> dict[str, bool]:
        """The game's options by name."""
        return options_map(self.options)

    # ----- the current player's hand, cave and forest ---------------------------------------

    @property
    def hand(self) -> tuple[int, ...]:
        """The current player's hand (sorted, as every hand a move changes)."""
        return self.hands[self.current]

    def set_hand(self, cards: Iterable[int]) -> None:
        """The current player's hand becomes ``cards`` (sorted)."""
        p = self.current
        hands = self.hands
        self.hands = hands[:p] + (tuple(sorted(cards)),) + hands[p + 1:]

    def take_from_hand(self, card: int) -> None:
        """Remove ``card`` from the current player's hand."""
        hand = list(self.hands[self.current])
        hand.remove(card)
        self.set_hand(hand)

    def to_cave(self, cards: tuple[int, ...]) -> None:
        """Put ``cards`` under the current player's cave (its forest counts them)."""
        p = self.current
        caves = self.caves
        cave = caves[p] + cards
        self.caves = caves[:p] + (cave,) + caves[p + 1:]
        forest = self.forests[p]
        self.set_forest(replace(forest, cave=len(cave)))

    @property
    def forest(self) -> Forest:
        """The current player's forest."""
        return self.forests[self.current]

    def set_forest(self, forest: Forest) -> None:
        p = self.current
        forests = self.forests
        self.forests = forests[:p] + (forest,) + forests[p + 1:]

    # ----- the pending steps ----------------------------------------------------------------

    def push(self, *steps: Step) -> None:
        """``steps`` come next, before those already pending."""
        self.pending = steps + self.pending

    def pop_step(self) -> Step:
        """The front step, taken off."""
        pending = self.pending
        self.pending = pending[1:]
        return pending[0]

    def set_step(self, step: Step) -> None:
        """The front step becomes ``step``."""
        self.pending = (step,) + self.pending[1:]

    # ----- cards moving -------------------------------------------------------------------

    def end_game(self, why: str) -> None:
        self.phase = "over"
        self.ended_by = why
        self.pending = ()

    def draw_from_deck(self) -> int | None:
        """The top deck card; a winter card is laid out and replaced (the third ends the
        game, and then None is returned)."""
        while self.phase != "over":
            deck = self.deck
            if not deck:
                self.end_game("the deck ran out")
                return None
            card = deck[0]
            self.deck = deck[1:]
            if card in WINTER:
                self.winter += (card,)
                if len(self.winter) >= 3:
                    self.end_game("the third winter card was revealed")
                continue
            return card
        return None

    def draw_to_hand(self, n: int) -> None:
        """Draw up to ``n`` cards from the deck, stopping at the hand limit."""
        hand = self.hands[self.current]
        room = HAND_LIMIT - len(hand)
        drawn: tuple[int, ...] = ()
        for _ in range(min(n, room)):
            card = self.draw_from_deck()
            if card is None:
                break
            drawn += (card,)
        if drawn:
            self.set_hand(hand + drawn)

    def flip(self) -> None:
        card = self.draw_from_deck()
        if card is not None:
            self.clearing += (card,)

    # ----- turn flow ----------------------------------------------------------------------

    def end_turn(self) -> None:
        """Clear a full clearing, then give an extra turn or pass to the next player."""
        if len(self.clearing) >= CLEARING_LIMIT:
            self.box += self.clearing
            self.clearing = ()
        self.busy = False
        self.this_turn = ()
        self.turn += 1
        if not self.deck:
            self.end_game("the deck ran out")
        elif self.extra_turns > 0:
            self.extra_turns -= 1
        else:
            self.current = (self.current + 1) % len(self.hands)
