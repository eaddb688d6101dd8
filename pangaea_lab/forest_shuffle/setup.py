"""Setting up a game (rulebook: "Setup"): cards removed unseen for fewer than five players,
the deck built in three piles with the winter cards in the bottom one, six cards each, and the
chance to swap a starting hand that holds no tree.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from ..core.errors import InvalidSetup
from ..core.rng import check_seed, make_rng, shuffled
from .edition import catalog, rules_data
from .forest import Forest
from .game import GAME
from .state import HAND_SIZE, GameState, counted_caves


def _option_words(setup: Callable[..., GameState]) -> Callable[..., GameState]:
    """``setup`` (one keyword per option of :data:`GAME`), refusing an option it does not
    have, or a value other than True or False, with :class:`InvalidSetup` in plain words
    rather than Python's ``TypeError``.  Its signature is the one ``inspect`` shows."""
    @functools.wraps(setup)
    def new_game(players: int = 2, seed: int | str = 0, **options: Any) -> GameState:
        for name, value in options.items():
            if name not in GAME.options:
                raise InvalidSetup(f"unknown option {name!r}; options are "
                                   f"{', '.join(sorted(GAME.options))}")
            if not isinstance(value, bool):
                raise InvalidSetup(f"option {name!r} must be True or False")
        return setup(players=players, seed=seed, **options)
    return new_game


def winter_deck(rest: list[str], winter: tuple[str, ...], rng, spread: bool) -> list[str]:
    """The deck built from three piles of ``rest`` (the bottom one ``len(rest) // 3`` cards)
    and the three ``winter`` cards, top card first.

    The published rulebook (the default): two winter cards are shuffled into the bottom pile
    and the third is laid on top of it, so all three lie in the bottom third.  With
    ``spread`` (the rules summary's reading, a labelled option): the two upper piles each get
    one winter card shuffled in, and the third is laid on top of the bottom pile, so the third
    winter card shows exactly when the bottom third is reached.
    """
    bottom_size = len(rest) // 3
    upper, bottom = rest[:len(rest) - bottom_size], rest[len(rest) - bottom_size:]
    w1, w2, w3 = winter
    if not spread:
        return upper + [w3] + shuffled(bottom + [w1, w2], rng)
    half = len(upper) // 2
    return (shuffled(upper[:half] + [w1], rng) + shuffled(upper[half:] + [w2], rng)
            + [w3] + bottom)


def deal(deck: list[str], players: int, winter_ids: tuple[str, ...]
         ) -> tuple[list[list[str]], list[str], list[str]]:
    """Each player in turn draws six cards from the top: ``(hands, deck, winter cards out)``.
    A winter card drawn is laid face up beside the clearing and replaced at once, as in play
    (it can only happen with ``winter_spread_over_piles``, where a winter card lies in the
    top third)."""
    deck = list(deck)
    winter: list[str] = []
    hands: list[list[str]] = []
    for _ in range(players):
        hand: list[str] = []
        while len(hand) < HAND_SIZE:
            card = deck.pop(0)
            (winter if card in winter_ids else hand).append(card)
        hands.append(hand)
    return hands, deck, winter


@_option_words
def new_game(players: int = 2, seed: int | str = 0, sapling_flips_clearing: bool = True,
             free_place_triggers_mushrooms: bool = True,
             sapling_triggers_chanterelle: bool = True,
             sapling_hosts_trigger_mushrooms: bool = True,
             winter_spread_over_piles: bool = False) -> GameState:
    """A new seeded game for 2-5 players (rulebook: "Setup").

    Cards are removed unseen for fewer than 5 players; the rest is split in three piles with
    all three winter cards in the bottom one (``winter_spread_over_piles=True``: the rules
    summary's reading, see :func:`winter_deck`); everyone draws 6.  The options switch the
    labelled assumptions of ``data/rules.json`` (see ``GAME.options``).

    >>> g = new_game(players=3, seed=1)
    >>> len(g.deck) + sum(map(len, g.hands)) + len(g.removed)
    161
    """
    GAME.check_players(players)
    check_seed(seed)
    chosen = GAME.check_options({
        "sapling_flips_clearing": sapling_flips_clearing,
        "free_place_triggers_mushrooms": free_place_triggers_mushrooms,
        "sapling_triggers_chanterelle": sapling_triggers_chanterelle,
        "sapling_hosts_trigger_mushrooms": sapling_hosts_trigger_mushrooms,
        "winter_spread_over_piles": winter_spread_over_piles})
    cat = catalog()
    rng = make_rng(seed, "forest_shuffle", "deck")
    cards = shuffled(cat.playable_ids, rng)
    k = rules_data()["removed_per_players"][str(players)]
    removed, rest = cards[:k], cards[k:]
    deck = winter_deck(rest, cat.winter_ids, rng, winter_spread_over_piles)
    hands, deck, winter = deal(deck, players, cat.winter_ids)
    no_tree = [p for p, h in enumerate(hands) if not any(cat.card(c).is_tree for c in h)]
    return counted_caves(GameState(     # empty forests, empty caves
        players=players, seed=seed, options=tuple(sorted(chosen.items())), deck=tuple(deck),
        hands=tuple(tuple(sorted(h)) for h in hands), clearing=(),
        forests=tuple(Forest() for _ in range(players)),
        caves=tuple(() for _ in range(players)), removed=tuple(removed), box=(),
        winter=tuple(winter),
        current=no_tree[0] if no_tree else 0, phase="mulligan" if no_tree else "turn",
        mulligan_left=tuple(no_tree)))
