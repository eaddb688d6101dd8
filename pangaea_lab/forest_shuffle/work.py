"""The working copy of a Forest Shuffle state while one action is applied.

:class:`ForestCopy` is the game's declaration of the project's working copy
(:mod:`pangaea_lab.core.working`): it starts from the old state's attributes and its
:meth:`~ForestCopy.freeze` makes them the new :class:`~.state.GameState`, so a rejected action
never changes anything.  Every field is plain, replaced whole when it changes: a hand, the
clearing or the pending steps hold a handful of entries, and a new tuple of them costs less
than a list thawed and frozen back; the long deck and box are sliced or added to.  It knows
how cards move (drawing, flipping into the clearing, into and out of the current player's hand
and cave) and nothing of the cards' effects: :mod:`.effects` and :mod:`.rules`, above it,
change it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from ..core.working import WorkingCopy, replaced
from .edition import catalog
from .forest import Forest
from .state import CLEARING_LIMIT, HAND_LIMIT, GameState, Step

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


class ForestCopy(WorkingCopy):
    """A copy of a state that changes while one action is applied: its fields are plain
    attributes, replaced by the handlers and the operations below (what follows a card's
    placing, its effects and the flow of the turn, is in :mod:`.rules` and :mod:`.effects`).
    Only the current player's hand, cave and forest change.

    A new state starts with its legal actions not listed yet (``_legal``) and noted as one
    whose forests count the cards under their caves (``_caves_counted``, see
    :func:`.state.counted_caves`): :meth:`freeze` makes sure they do.  Every action changes
    the state (a step or a turn at least), so a copy always freezes into a new state
    (``ALWAYS_NEW``)."""

    RECORD = GameState
    BLANK = {"_legal": None, "_caves_counted": True}
    ALWAYS_NEW = True

    #: the old state's note that its forests count their caves, among the copy's attributes
    #: when it has one (this default when not)
    _caves_counted = None

    def freeze(self) -> GameState:     # type: ignore[override]
        """The new state: nothing pending once the game is over, and forests that count the
        cards under their caves (counted again when the old state was not noted so, as a
        position put together by hand may not be)."""
        if self.phase == "over":
            self.pending = ()
            self.busy = False
        if not self._caves_counted:
            self.forests = tuple([f if f.cave == len(c) else replace(f, cave=len(c))
                                  for f, c in zip(self.forests, self.caves)])
        return WorkingCopy.freeze(self)

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
        self.hands = replaced(self.hands, self.current, tuple(sorted(cards)))

    def take_from_hand(self, card: int) -> None:
        """Remove ``card`` from the current player's hand."""
        hand = list(self.hands[self.current])
        hand.remove(card)
        self.set_hand(hand)

    def to_cave(self, cards: tuple[int, ...]) -> None:
        """Put ``cards`` under the current player's cave (its forest counts them)."""
        p = self.current
        cave = self.caves[p] + cards
        self.caves = replaced(self.caves, p, cave)
        self.forests = replaced(self.forests, p, replace(self.forests[p], cave=len(cave)))

    @property
    def forest(self) -> Forest:
        """The current player's forest."""
        return self.forests[self.current]

    def set_forest(self, forest: Forest) -> None:
        self.forests = replaced(self.forests, self.current, forest)

    # ----- the pending steps ----------------------------------------------------------------

    def push(self, *steps: Step) -> None:
        """``steps`` come next, before those already pending."""
        self.pending = steps + self.pending

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
