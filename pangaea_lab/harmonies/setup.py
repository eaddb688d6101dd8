"""Setting up a game of Harmonies ("Setup" in the rulebook): the pouch shuffled, the central
board filled, the face-up animal cards dealt and, with Nature's Spirits, two spirit cards
dealt to each player."""

from __future__ import annotations

from ..core.rng import check_seed, make_rng, shuffled
from .board import cells, check_side, rules_data
from .cards import animal_ids, spirit_ids
from .game import GAME
from .rules import setup_numbers, token_mix
from .scoring import check_river_rule
from .state import GameState, PlayerArea


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
    check_river_rule(river_rule)          # explains each way of measuring a river
    GAME.check_options({"side": side, "spirits": spirits, "river_rule": river_rule,
                        "tiebreak_counts_spirit": tiebreak_counts_spirit})
    spaces, row_size = setup_numbers(players)
    tokens = [c for c, n in token_mix().items() for _ in range(n)]
    pouch = shuffled(tokens, make_rng(seed, "harmonies", "pouch"))
    per = rules_data()["central_board"]["tokens_per_space"]
    central = tuple(tuple(pouch[i * per:(i + 1) * per]) for i in range(spaces))
    pouch = pouch[spaces * per:]
    deck = shuffled(animal_ids(), make_rng(seed, "harmonies", "animals"))
    spirit_deck = shuffled(spirit_ids(), make_rng(seed, "harmonies", "spirits"))
    n_cells = len(cells(side))
    areas = []
    for p in range(players):
        offer = tuple(spirit_deck[2 * p:2 * p + 2]) if spirits else ()
        areas.append(PlayerArea(stacks=((),) * n_cells, cubes=(0,) * n_cells, cards=(),
                                spirit_offer=offer, turns=0))
    boxed = tuple(sorted(spirit_deck[2 * players:] if spirits else spirit_deck))
    return GameState(
        side=side, spirits=spirits, seed=seed, river_rule=river_rule,
        tiebreak_counts_spirit=tiebreak_counts_spirit,
        pouch=tuple(pouch), central=central, deck=tuple(deck[row_size:]),
        row=tuple(deck[:row_size]), discard_pile=(), boxed_tokens=(), boxed_spirits=boxed,
        areas=tuple(areas), player=0, hand=(), took_tokens=False, took_card=False,
        discarded=False, end_reason="", over=False,
        cube_supply=rules_data()["central_board"]["animal_cubes"])
