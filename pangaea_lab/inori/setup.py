"""Setting up an Inori game (rules summary and reference notes, "Setup").

Three start cards are dealt with no two opposed spirits (and no colour twice); the favor
tokens of each start card's bottom-right colour are set aside on a root space of the Great
Tree; every player has the season's markers in hand while the rest wait for later seasons.
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import InvalidSetup
from ..core.rng import check_seed, make_rng, shuffled
from .board import root_spaces
from .edition import Edition, load_edition
from .game import GAME
from .scoring import CATEGORIES
from .state import GameState


def deal_start_cards(edition: Edition, order: list[str]) -> tuple[list[str], list[str]]:
    """Walk the shuffled start cards, keeping a card unless its colour or the opposed colour is
    already on the board; returns (dealt, left over)."""
    dealt: list[str] = []
    colours: set[str] = set()
    for cid in order:
        c = edition.cards[cid].colour
        if len(dealt) < edition.start_cards_dealt and c not in colours \
                and edition.opposite[c] not in colours:
            dealt.append(cid)
            colours.add(c)
    return dealt, [c for c in order if c not in dealt]


def new_game(players: int = 2, seed: int | str = 0,
             edition: str | Path | dict | Edition | None = None,
             marker_schedule: str = "default") -> GameState:
    """A new seeded Inori game for 2 to 4 players.

    ``edition`` is a path to your own edition file (or its data); by default the labelled
    reference edition is used.  ``marker_schedule`` picks a table from the edition's
    ``marker_schedule`` section (the reference edition's default gives 4/5/6/7 markers in a
    2-player game, one more at each season end; ``"three_at_start"`` gives 3/5/6/7).

    >>> state = new_game(players=3, seed=1)
    >>> state.season, state.hand, len(state.slots)
    (1, (3, 3, 3), 3)
    """
    GAME.check_players(players)
    check_seed(seed)
    ed = load_edition(edition)
    if ed.is_reference:
        GAME.check_options({"marker_schedule": marker_schedule})
    elif not isinstance(marker_schedule, str) or marker_schedule not in ed.schedules:
        # an edition of your own may name marker schedules of its own
        raise InvalidSetup(f"Inori: option marker_schedule must be one of "
                           f"{', '.join(repr(k) for k in ed.schedules)} for the edition "
                           f"{ed.name!r}, not {str(marker_schedule)[:40]!r}")
    schedule = ed.schedules[marker_schedule][players]
    rng = make_rng(seed, "inori-setup")
    dealt, unused = deal_start_cards(ed, shuffled(ed.start_ids, rng))
    supply = [ed.favor_per_colour] * len(ed.colours)
    root_colours = tuple(ed.cards[c].incomplete_colour for c in dealt)
    for c in root_colours:
        supply[ed.colours.index(c)] -= ed.set_aside_per_root
    if min(supply) < 0:
        raise InvalidSetup("the edition sets aside more favor tokens than a colour has")
    piles = tuple(tuple(shuffled(ed.piles[c], rng)) for c in ed.colours)
    return GameState(
        edition=ed, players=players, seed=seed, schedule=schedule, season=1,
        first_player=0, turn=0, hand=(schedule[0],) * players, set_aside=(0,) * players,
        favor=((0,) * len(ed.colours),) * players, supply=tuple(supply),
        root_colours=root_colours,
        root_tokens=(ed.set_aside_per_root,) * len(root_spaces(ed)),
        slots=tuple((c, ((),) * len(ed.cards[c].spaces)) for c in dealt),
        piles=piles, new_start_deck=tuple(shuffled(ed.new_start_ids, rng)),
        unused_start=tuple(unused), spent_cards=(), altars=(None,) * len(ed.tree),
        tree_markers=(None,) * len(ed.tree), neutral_home=ed.neutral_markers,
        rune_deck=tuple(shuffled(sorted(ed.runes), rng)), rune_hands=((),) * players,
        runes_used=(), points=((0,) * len(CATEGORIES),) * players, offered=False,
        pending=(), over=False, reports=())
