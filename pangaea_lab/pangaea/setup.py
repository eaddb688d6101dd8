"""Game Setup for The Dawn of Pangaea, as a sequence of steps a learner can watch.

>>> state = new_game(players=3, seed=11)
>>> state.num_players, len(state.board.tiles), state.players[0].seeds
(3, 12, 2)
>>> [step.title for step in setup_steps(players=2, seed=1)][:2]
['Players take their pieces', 'Build the continent']
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

from ..core.errors import InvalidSetup
from ..core.rng import check_seed, make_rng
from .board import Board, build_continent, check_seats
from .edition import Edition, load_edition
from .game import GAME
from .state import (FAMILY_BOXED_BLESSINGS, PLAYER_NAMES, GameState, SetupStep,  # noqa: F401
                    blank_state, lay_blessings)
from .variants import VARIANTS


def setup_steps(players: int = 2, seed: int | str = 0, family: bool = False,
                edition: Edition | str | Path | Mapping | None = None,
                board: Board | None = None, mode: str = "",
                difficulty: str = "standard", wild_woods: bool = False,
                storms: bool = True, storm_spares_thorondal: bool = False) -> list[SetupStep]:
    """Every step of Game Setup with the state after it; the last one is the first state of
    the game (the same as :func:`new_game` gives).  ``board`` replaces the seeded continent
    with a hand-built one (see :func:`~.board.custom_board`), e.g. for a lesson.
    The variants the options choose (:data:`~.variants.VARIANTS`, in order) check the options
    and bring their steps: after the base game's, or in their place (Return of the Ancients,
    ``mode="ancients"`` or ``"coop"``, has 9 steps of its own; Wild Woods adds its steps
    after them); see :data:`~.game.GAME` for the options."""
    GAME.check_players(players)
    GAME.check_options(dict(family=family, mode=mode, difficulty=difficulty,
                            wild_woods=wild_woods, storms=storms,
                            storm_spares_thorondal=storm_spares_thorondal))
    if storm_spares_thorondal and not storms:
        raise InvalidSetup("storm_spares_thorondal=True decides whether an Elemental Storm "
                           "spares the Tree under Thorondal; with storms=False there are no "
                           "Storms, so it would change nothing: leave it out, or play with "
                           "storms=True")
    ed = load_edition(edition)
    check_seed(seed)
    options = dict(players=players, edition=ed, board=board, family=family, mode=mode,
                   difficulty=difficulty, wild_woods=wild_woods, storms=storms,
                   storm_spares_thorondal=storm_spares_thorondal)
    chosen = [v for v in VARIANTS if v.chosen(options)]
    for v in chosen:
        v.check_setup(options)
    steps = [] if any(v.own_setup for v in chosen) else _base_setup(ed, board, players, seed,
                                                                     family)
    for v in chosen:
        steps = v.setup_steps(steps, seed, options)
    return steps


def _base_setup(ed: Edition, board: Board | None, players: int, seed: int | str,
                family: bool) -> list[SetupStep]:
    """The base game's Game Setup, on the seeded continent unless ``board`` is given."""
    if board is None:
        board = build_continent(ed, players, seed)
    elif not set(board.biome) <= set(ed.biomes):
        raise InvalidSetup(f"the board uses biomes outside the edition's {list(ed.biomes)}")
    else:
        check_seats(ed, players)
    return _base_steps(ed, board, players, seed, family)


def _base_steps(ed: Edition, board: Board, players: int, seed: int | str,
                family: bool) -> list[SetupStep]:
    """The base game's Game Setup on ``board``: pieces, continent, Blessings, hands, market,
    starting player (the random draws in this order, from one generator)."""
    rng = make_rng(seed, "setup")
    steps: list[SetupStep] = []
    state = blank_state(ed, board, players, seed, family)
    steps.append(SetupStep(
        "Players take their pieces",
        f"Each player takes {ed.trees_per_player} Trees, {ed.seeds_per_player} Seeds and a "
        "Spirit of their colour. One Seed becomes the score marker beside the Sacred Mountain, "
        f"so {ed.seeds_per_player - 1} Seeds stay in the supply.", state))
    steps.append(SetupStep(
        "Build the continent",
        f"Each player brings one Biome Tile of each type ({len(set(board.tile_of))} tiles in all). They are shuffled and attached to the Sacred Mountain one by one so that "
        "they form one contiguous continent.", state))

    state = lay_blessings(state, rng)
    steps.append(SetupStep(
        "Blessings on the marked Water Spaces",
        "A Blessing Token from the bag is laid face up on every Water Space with the blessing "
        f"icon ({sum(board.blessing_marked)} here). The others stay in the bag."
        + (" Family rules: the Call Ancient Blessings stay in the box, because there are no "
           "Ancient Guardians to call (a choice of this project: the rulebook does not say)."
           if family else ""), state))
    steps.append(_deal_hands(steps[-1].state, rng))
    steps.append(_open_market(steps[-1].state, rng))
    first = rng.randrange(players)
    state = replace(steps[-1].state, first_player=first, turn_player=first)
    steps.append(SetupStep(
        "Choose the starting player",
        f"One Seed of each player is drawn blindly: {PLAYER_NAMES[first]} starts and takes the "
        "First Player Marker. Play goes clockwise.", state))
    return steps


def _deal_hands(state: GameState, rng: Any) -> SetupStep:
    """The two Ritual decks shuffled, and a card of each dealt to every player."""
    land = list(state.land_deck)
    creature = list(state.creature_deck)
    rng.shuffle(land)
    rng.shuffle(creature)
    base = list(state.players)
    for p in range(state.num_players):
        base[p] = replace(base[p], hand=(land.pop(0), creature.pop(0)))
    state = replace(state, players=tuple(base), land_deck=tuple(land),
                    creature_deck=tuple(creature))
    return SetupStep(
        "Shuffle the Ritual decks and deal hands",
        "The Land and the Creature Ritual decks are shuffled separately; every player draws one "
        "card of each into a hidden hand.", state)


def _open_market(state: GameState, rng: Any) -> SetupStep:
    """Two cards of each deck face up; in the full game a Favor Token drawn onto each."""
    land = list(state.land_deck)
    creature = list(state.creature_deck)
    market = (land.pop(0), land.pop(0), creature.pop(0), creature.pop(0))
    state = replace(state, market=market, land_deck=tuple(land), creature_deck=tuple(creature))
    if state.family:
        return SetupStep(
            "Open the market",
            "Two cards of each deck are turned face up to form the Open Market. (Family rules: "
            "no Favor Tokens and no Ancient Guardians.)", state)
    favors = list(state.favor_bag)
    rng.shuffle(favors)
    market_favors = tuple(favors.pop(0) for _ in market)
    state = replace(state, favor_bag=tuple(favors), market_favors=market_favors)
    return SetupStep(
        "Open the market and its Favor Tokens",
        "Two cards of each deck are turned face up to form the Open Market, and a Favor "
        "Token drawn from the bag is laid on each of them. The three Ancient Guardians "
        "(Okuma, Chelon and Thorondal) wait beside the market.", state)


def new_game(players: int = 2, seed: int | str = 0, family: bool = False,
             edition: Edition | str | Path | Mapping | None = None,
             board: Board | None = None, mode: str = "",
             difficulty: str = "standard", wild_woods: bool = False,
             storms: bool = True, storm_spares_thorondal: bool = False) -> GameState:
    """The first state of a game: ``players`` 2..4, everything random drawn from ``seed``.

    The full game is the default; ``family=True`` plays the family rules, without Favor
    Tokens and Ancient Guardians; ``mode="coop"`` (also spelled ``"ancients"``) plays the
    cooperative Return of the Ancients for 1..4 players at ``difficulty`` "standard", "cozy"
    (Cozy Afternoon) or "midnight" (Midnight Hour); ``wild_woods=True`` adds the Wild Woods
    expansion (2..4 players, or with ``mode="coop"`` 1..4), its optional Elemental Storms
    unless ``storms=False`` (``storm_spares_thorondal=True``: a Storm spares the Tree under
    Thorondal, the other reading of its passive);
    ``edition`` takes a user's component file (path or dict) instead of the reference set.
    """
    return setup_steps(players=players, seed=seed, family=family, edition=edition,
                       board=board, mode=mode, difficulty=difficulty, wild_woods=wild_woods,
                       storms=storms, storm_spares_thorondal=storm_spares_thorondal)[-1].state
