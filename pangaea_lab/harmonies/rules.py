"""Setup, legal actions and their effects: the Harmonies turn engine.

Rule sections cited are those of the rulebook: "Setup", "Playing a turn" (take and place
tokens, take an animal card, place a cube), "End of the game", "Nature's Spirits" and
"Solo mode".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..core.errors import InvalidSetup
from ..core.protocol import Action
from ..core.rng import check_seed, make_rng, shuffled
from .actions import ChooseSpirit, DiscardCard, EndTurn, PlaceCube, PlaceToken, TakeCard, \
    TakeTokens
from .board import COLOURS, can_stack, cell_index, cells, check_side, rules_data
from .cards import animal_ids, card, spirit_ids
from .habitats import habitat_indices
from .scoring import check_river_rule
from .state import HarmoniesState, PlayerArea


def setup_numbers(players: int) -> tuple[int, int]:
    """(central spaces, face-up cards) for a player count."""
    cb = rules_data()["central_board"]
    mode = "solo" if players == 1 else "multiplayer"
    return cb["spaces"][mode], cb["face_up_cards"][mode]


def token_mix() -> dict[str, int]:
    """The 120 tokens by colour."""
    return dict(rules_data()["tokens"]["counts"])


def new_game(players: int = 2, seed: int | str = 0, side: str = "A", spirits: bool = True,
             river_rule: str = "rings", tiebreak_counts_spirit: bool = False) -> HarmoniesState:
    """A new seeded game ("Setup"): pouch shuffled, central board filled, 5 cards face up
    (3 in solo), and with ``spirits`` two spirit cards dealt to each player.

    >>> g = new_game(players=2, seed=1)
    >>> len(g.pouch), len(g.row), g.legal_actions()[0].kind
    (105, 5, 'keep a spirit')
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
        raise InvalidSetup(f"Harmonies is played by 1 to 4 players, not {players!r}")
    check_seed(seed)
    side = check_side(side)
    if not isinstance(spirits, bool):
        raise InvalidSetup(f"spirits must be True or False, not {spirits!r}")
    if not isinstance(tiebreak_counts_spirit, bool):
        raise InvalidSetup(f"tiebreak_counts_spirit must be True or False, "
                           f"not {tiebreak_counts_spirit!r}")
    check_river_rule(river_rule)
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
    return HarmoniesState(
        side=side, spirits=spirits, seed=seed, river_rule=river_rule,
        tiebreak_counts_spirit=tiebreak_counts_spirit,
        pouch=tuple(pouch), central=central, deck=tuple(deck[row_size:]),
        row=tuple(deck[:row_size]), discard_pile=(), boxed_tokens=(), boxed_spirits=boxed,
        areas=tuple(areas), player=0, hand=(), took_tokens=False, took_card=False,
        discarded=False, end_reason="", over=False,
        cube_supply=rules_data()["central_board"]["animal_cubes"])


# ----- legal actions ----------------------------------------------------------------------

def unfinished(area: PlayerArea) -> list[tuple[int, int]]:
    """(card, cubes placed) of the cards still in a player's slots."""
    return [(c, k) for c, k in area.cards if k < card(c).cubes]


def legal_actions(state: HarmoniesState) -> list[Action]:
    """Every action the current player may take now, in a stable order."""
    if state.over:
        return []
    area = state.areas[state.player]
    if area.spirit_offer:
        return [ChooseSpirit(s) for s in area.spirit_offer]
    out: list[Action] = []
    if not state.took_tokens:
        out += [TakeTokens(i, t) for i, t in enumerate(state.central) if t]
    all_cells = cells(state.side)
    for colour in COLOURS:
        if colour in state.hand:
            out += [PlaceToken(colour, all_cells[i]) for i, s in enumerate(area.stacks)
                    if not area.cubes[i] and can_stack(s, colour)]
    slots = rules_data()["central_board"]["card_slots"]
    if not state.took_card and not state.discarded and len(unfinished(area)) < slots:
        out += [TakeCard(c) for c in state.row if card(c).cubes <= state.cube_supply]
    for c, _ in unfinished(area):
        out += [PlaceCube(c, all_cells[i])
                for i in habitat_indices(state.side, c, area.stacks, area.cubes)]
    if state.solo and not state.took_card and not state.discarded and state.deck:
        out += [DiscardCard(c) for c in state.row]
    if state.took_tokens and not state.hand:
        out.append(EndTurn())
    return out


def why_illegal(state: HarmoniesState, action: Action) -> tuple[str, str]:
    """A plain reason (and the rule's section) why ``action`` is not legal now."""
    area = state.areas[state.player]
    if area.spirit_offer and not isinstance(action, ChooseSpirit):
        return ("first keep one of your two spirit cards "
                f"({', '.join(card(s).name for s in area.spirit_offer)})", "Nature's Spirits")
    if isinstance(action, ChooseSpirit):
        if not area.spirit_offer:
            return "you have no spirit cards to choose from now", "Nature's Spirits"
        return "you may only keep one of the two spirits dealt to you", "Nature's Spirits"
    if isinstance(action, TakeTokens):
        if state.took_tokens:
            return "you already took tokens this turn", "Playing a turn: take tokens"
        return (f"central space {action.space + 1} does not exist or is empty",
                "Playing a turn: take tokens")
    if isinstance(action, PlaceToken):
        if action.colour not in state.hand:
            held = ", ".join(state.hand) or "no tokens"
            return (f"you hold {held}, not a {action.colour} token to place",
                    "Playing a turn: place tokens")
        idx = cell_index(state.side)
        i = idx.get(tuple(action.cell)) if isinstance(action.cell, tuple) else None
        if i is None:
            return f"{action.cell!r} is not a space of side {state.side}", "Personal boards"
        if area.cubes[i]:
            return "a token can never go on a space holding a cube", "How to place a token"
        under = ", ".join(area.stacks[i]) or "an empty space"
        return (f"{action.colour} cannot go on {under} (see the stacking chart)",
                "How to place a token")
    if isinstance(action, TakeCard):
        if state.took_card:
            return "you already took an animal card this turn", "Take an animal card"
        if state.discarded:
            return "you discarded a card this turn, so you take none", "Solo mode"
        if action.card not in state.row:
            return "that card is not in the face-up row", "Take an animal card"
        if len(unfinished(area)) >= rules_data()["central_board"]["card_slots"]:
            return ("all 4 of your card slots hold unfinished cards (a kept spirit counts "
                    "until its cube is placed)", "Take an animal card")
        return "the supply has too few cubes to load that card (assumption)", "Components"
    if isinstance(action, PlaceCube):
        if action.card not in [c for c, _ in unfinished(area)]:
            return "that card is not in your slots with cubes left", "Place an animal cube"
        return (f"the habitat of {card(action.card).name} is not built around "
                f"{action.cell} (cube space taken or a stack does not match)",
                "Place an animal cube")
    if isinstance(action, DiscardCard):
        if not state.solo:
            return "face-up cards can only be discarded in solo play", "Solo mode"
        return ("you may discard one face-up card only if you took no card this turn and "
                "the deck can replace it", "Solo mode")
    if isinstance(action, EndTurn):
        if not state.took_tokens:
            return "take the tokens of one central space first", "Playing a turn"
        return "place all the tokens you took before ending the turn", "Playing a turn"
    return f"{action!r} is not a Harmonies action", "Playing a turn"


# ----- effects ----------------------------------------------------------------------------

def apply(state: HarmoniesState, action: Action) -> HarmoniesState:
    """The state after a legal action (legality is checked by the caller)."""
    p = state.player
    area = state.areas[p]
    if isinstance(action, ChooseSpirit):
        other = tuple(s for s in area.spirit_offer if s != action.spirit)
        new = replace(area, spirit_offer=(), cards=area.cards + ((action.spirit, 0),))
        return _with_area(state, new, boxed_spirits=tuple(sorted(state.boxed_spirits + other)))
    if isinstance(action, TakeTokens):
        central = list(state.central)
        hand = central[action.space]
        central[action.space] = ()
        return replace(state, central=tuple(central), hand=hand, took_tokens=True)
    if isinstance(action, PlaceToken):
        hand = list(state.hand)
        hand.remove(action.colour)
        i = cell_index(state.side)[action.cell]
        stacks = list(area.stacks)
        stacks[i] = stacks[i] + (action.colour,)
        return _with_area(state, replace(area, stacks=tuple(stacks)), hand=tuple(hand))
    if isinstance(action, TakeCard):
        row = tuple(c for c in state.row if c != action.card)
        new = replace(area, cards=area.cards + ((action.card, 0),))
        return _with_area(state, new, row=row, took_card=True,
                          cube_supply=state.cube_supply - card(action.card).cubes)
    if isinstance(action, PlaceCube):
        i = cell_index(state.side)[action.cell]
        cubes = list(area.cubes)
        cubes[i] = action.card
        cards = tuple((c, k + 1) if c == action.card and k < card(c).cubes else (c, k)
                      for c, k in area.cards)
        return _with_area(state, replace(area, cubes=tuple(cubes), cards=cards))
    if isinstance(action, DiscardCard):
        row = tuple(state.deck[0] if c == action.card else c for c in state.row)
        return replace(state, row=row, deck=state.deck[1:],
                       discard_pile=state.discard_pile + (action.card,), discarded=True)
    if isinstance(action, EndTurn):
        return end_turn(state)
    raise TypeError(action)  # pragma: no cover - filtered by the legality check


def _with_area(state: HarmoniesState, area: PlayerArea, **changes) -> HarmoniesState:
    areas = list(state.areas)
    areas[state.player] = area
    return replace(state, areas=tuple(areas), **changes)


def end_turn(state: HarmoniesState) -> HarmoniesState:
    """Refill the central board and the card row, then check the end of the game
    ("End of the game": a refill the pouch cannot make, or 2 or fewer empty spaces)."""
    per = rules_data()["central_board"]["tokens_per_space"]
    pouch = state.pouch
    central = list(state.central)
    boxed = state.boxed_tokens
    reason = state.end_reason
    over = False
    if state.solo:
        boxed = boxed + tuple(t for space in central for t in space)
        need = per * len(central)
        if len(pouch) < need:
            central = [()] * len(central)
            reason = reason or "the pouch cannot refill the whole central board"
            over = True
        else:
            central = [pouch[k * per:(k + 1) * per] for k in range(len(central))]
            pouch = pouch[need:]
    else:
        for k, space in enumerate(central):
            if not space:
                central[k] = pouch[:per]
                if len(pouch) < per:
                    reason = reason or "the pouch cannot refill the central board"
                pouch = pouch[per:]
    _, row_size = setup_numbers(state.num_players)
    missing = max(0, row_size - len(state.row))
    row = state.row + state.deck[:missing]
    deck = state.deck[missing:]
    area = state.areas[state.player]
    area = replace(area, turns=area.turns + 1)
    if sum(1 for s in area.stacks if not s) <= 2:
        reason = reason or f"{state.player_name(state.player)} has 2 or fewer empty spaces"
    nxt = (state.player + 1) % state.num_players
    if reason and nxt == 0:
        over = True  # the round is complete: everyone has had the same number of turns
    new = _with_area(state, area, pouch=pouch, central=tuple(central), boxed_tokens=boxed,
                     row=row, deck=deck, end_reason=reason, hand=(), took_tokens=False,
                     took_card=False, discarded=False)
    return replace(new, player=0 if over else nxt, over=over)


def token_counts(state: HarmoniesState) -> Counter:
    """Every token in the game by colour, wherever it is (should always be the full mix)."""
    every = list(state.pouch) + list(state.hand) + list(state.boxed_tokens)
    for space in state.central:
        every += space
    for area in state.areas:
        for s in area.stacks:
            every += s
    return Counter(every)
