"""Setting up a game of Harmonies ("Setup" in the rulebook): the pouch shuffled, the central
board filled, the face-up animal cards dealt and, with Nature's Spirits, two spirit cards
dealt to each player."""

from __future__ import annotations

import random
from functools import lru_cache

from ..core.memo import plain_object
from ..core.rng import check_seed, make_rng
from .board import cells, check_side, rules_data
from .cards import animal_ids, spirit_ids
from .game import GAME, RIVER_RULES
from .habitats import BoardView
from .rules import setup_numbers, token_mix
from .scoring import check_river_rule
from .state import GameState, PlayerArea

#: how many bits ``random.Random`` draws to pick an index below each n (``n.bit_length()``)
_BITS = tuple(n.bit_length() for n in range(257))


def shuffled(items, rng: random.Random) -> list:
    """A shuffled copy of ``items``: the very order ``rng.shuffle`` gives, from the same
    draws (for the plain ``random.Random`` of :func:`~pangaea_lab.core.rng.make_rng`, the
    index below ``i + 1`` is drawn as that class draws it, without a method call per item)."""
    out = list(items)
    if type(rng)._randbelow is not random.Random._randbelow_with_getrandbits \
            or len(out) >= len(_BITS):
        rng.shuffle(out)
        return out
    draw = rng.getrandbits
    for i, n, k in _steps(len(out)):
        j = draw(k)
        while j >= n:
            j = draw(k)
        out[i], out[j] = out[j], out[i]
    return out


@lru_cache(maxsize=None)
def _steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """For shuffling ``length`` items: (index, the bound below which its partner is drawn,
    the bits drawn for it), in the order ``random.shuffle`` draws them."""
    return tuple((i, i + 1, _BITS[i + 1]) for i in range(length - 1, 0, -1))


_EMPTY: dict[str, tuple[list, int]] = {}


def _empty_board(side: str) -> tuple[list, int]:
    """The stack codes and colour masks of an empty board (see ``habitats.BoardView``;
    the codes are never changed in place)."""
    found = _EMPTY.get(side)
    if found is None:
        n = len(cells(side))
        view = BoardView(side, ((),) * n, (0,) * n)
        found = _EMPTY[side] = (view.codes, view.masks)
    return found


_CENTRAL = rules_data()["central_board"]
#: the 120 tokens in the order of the token mix (shuffled for each game)
_TOKENS = tuple(c for c, n in token_mix().items() for _ in range(n))


def new_game(players: int = 2, seed: int | str = 0, side: str = "A", spirits: bool = True,
             river_rule: str = "rings", tiebreak_counts_spirit: bool = False) -> GameState:
    """A new seeded game ("Setup"): pouch shuffled, central board filled, 5 cards face up
    (3 in solo), and with ``spirits`` two spirit cards dealt to each player.  The options
    and their defaults are those of :data:`pangaea_lab.harmonies.GAME`.

    >>> g = new_game(players=2, seed=1)
    >>> len(g.pouch), len(g.row), g.legal_actions()[0].kind
    (105, 5, 'Keep a spirit')
    """
    GAME.check_players(players)
    check_seed(seed)
    side = check_side(side)               # lower case accepted, with the game's own words
    if not (type(river_rule) is str and river_rule in RIVER_RULES
            and type(spirits) is bool and type(tiebreak_counts_spirit) is bool):
        check_river_rule(river_rule)      # explains each way of measuring a river
        GAME.check_options({"side": side, "spirits": spirits, "river_rule": river_rule,
                            "tiebreak_counts_spirit": tiebreak_counts_spirit})
    spaces, row_size = setup_numbers(players)
    pouch = shuffled(_TOKENS, make_rng(seed, "harmonies", "pouch"))
    per = _CENTRAL["tokens_per_space"]
    central = tuple(tuple(pouch[i * per:(i + 1) * per]) for i in range(spaces))
    pouch = pouch[spaces * per:]
    deck = shuffled(animal_ids(), make_rng(seed, "harmonies", "animals"))
    # without Nature's Spirits every spirit card stays in the box, in sorted order: the
    # spirits' own random stream is not needed
    spirit_deck = shuffled(spirit_ids(), make_rng(seed, "harmonies", "spirits")) \
        if spirits else spirit_ids()
    n_cells = len(cells(side))
    empty, free = ((),) * n_cells, (0,) * n_cells
    codes, masks = _empty_board(side)
    areas = []
    for p in range(players):
        offer = tuple(spirit_deck[2 * p:2 * p + 2]) if spirits else ()
        # the area made as PlayerArea(...) makes it, with what the rules keep with an area
        # (its view, its open cards), its attributes one plain dict (see core.memo)
        areas.append(plain_object(PlayerArea, {
            "stacks": empty, "cubes": free, "cards": (), "spirit_offer": offer, "turns": 0,
            "_view": BoardView(side, empty, free, codes, None, masks), "_open": ()}))
    boxed = tuple(sorted(spirit_deck[2 * players:] if spirits else spirit_deck))
    # made as GameState(...) makes it, without a frozen attribute set per field: the fields
    # in the order of STATE_FIELDS (as the constructor sets them)
    return plain_object(GameState, {
        "side": side, "spirits": spirits, "seed": seed, "river_rule": river_rule,
        "tiebreak_counts_spirit": tiebreak_counts_spirit,
        "pouch": tuple(pouch), "central": central, "deck": tuple(deck[row_size:]),
        "row": tuple(deck[:row_size]), "discard_pile": (), "boxed_tokens": (),
        "boxed_spirits": boxed, "areas": tuple(areas), "player": 0, "hand": (),
        "took_tokens": False, "took_card": False, "discarded": False, "end_reason": "",
        "over": False, "cube_supply": _CENTRAL["animal_cubes"]})
