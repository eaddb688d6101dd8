"""Legal actions, why an action is illegal, and the handlers that apply actions: the Harmonies
turn engine.  (Setup is in ``setup.py``.)

Rule sections cited are those of the rulebook: "Playing a turn" (take and place tokens, take
an animal card, place a cube), "End of the game", "Nature's Spirits" and "Solo mode".

>>> from pangaea_lab import harmonies
>>> g = harmonies.new_game(players=2, seed=1)
>>> why(g, TakeTokens(0)).reason[:38]
'you must first keep one of your two sp'
>>> why(g, g.legal_actions()[0]) is None
True
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from ..core.engine import Decision, Handlers, listed
from ..core.working import remake, replaced
from ..core.errors import IllegalAction
from ..core.memo import keep, plain_object
from ..core.protocol import Action
from .actions import ChooseSpirit, DiscardCard, EndTurn, PlaceCube, PlaceToken, TakeCard, \
    TakeTokens
from .board import COLOURS, cell_index, cells, rules_data
from .cards import all_cards, card
from .game import SIDES
from .habitats import _GROWN, MASK_WIDTH, BoardView, add_picked, board_view, grown, picker
from .state import AreaCopy, GameState, PlayerArea, StateCopy


def setup_numbers(players: int) -> tuple[int, int]:
    """(central spaces, face-up cards) for a player count."""
    cb = rules_data()["central_board"]
    mode = "solo" if players == 1 else "multiplayer"
    return cb["spaces"][mode], cb["face_up_cards"][mode]


def token_mix() -> dict[str, int]:
    """The 120 tokens by colour."""
    return dict(rules_data()["tokens"]["counts"])


def token_counts(state: GameState) -> Counter:
    """Every token in the game by colour, wherever it is (should always be the full mix)."""
    return state.token_counts()


# ----- legal actions ----------------------------------------------------------------------

def unfinished(area: PlayerArea) -> list[tuple[int, int]]:
    """(card, cubes placed) of the cards still in a player's slots."""
    return list(_unfinished(area))


def _unfinished(area: PlayerArea) -> tuple[tuple[int, int], ...]:
    found = getattr(area, "_open", None)    # kept with the area, which never changes
    if found is None:
        found = keep(area, "_open", tuple((c, k) for c, k in area.cards if k < card(c).cubes))
    return found


# The actions the lists are made of are values, so the same ones are handed out every time
# (made once per side, card, cell or central space); equal actions stay equal either way.

@lru_cache(maxsize=None)
def _token_actions(side: str, colour: str) -> tuple[PlaceToken, ...]:
    """``PlaceToken(colour, cell)`` for each board index."""
    return tuple(PlaceToken(colour, c) for c in cells(side))


@lru_cache(maxsize=None)
def _cube_actions(side: str, card_id: int) -> tuple[PlaceCube, ...]:
    """``PlaceCube(card, cell)`` for each board index."""
    return tuple(PlaceCube(card_id, c) for c in cells(side))


@lru_cache(maxsize=None)
def _take_card(card_id: int) -> TakeCard:
    return TakeCard(card_id)


@lru_cache(maxsize=None)
def _discard(card_id: int) -> DiscardCard:
    return DiscardCard(card_id)


#: for each central space, its tokens -> the ``TakeTokens`` that takes them (the space's
#: tokens change every turn: a table per space, emptied when it grows large)
_TAKES: list[dict[tuple[str, ...], TakeTokens]] = []


def _take_tokens(space: int, tokens: tuple[str, ...]) -> TakeTokens:
    while len(_TAKES) <= space:
        _TAKES.append({})
    table = _TAKES[space]
    if len(table) >= _MEMO_SIZE:
        table.clear()
    found = table[tokens] = TakeTokens(space, tokens)
    return found


_END_TURN = EndTurn()


@lru_cache(maxsize=None)
def _cubes() -> dict[int, int]:
    """How many cubes each card holds."""
    return {c: cd.cubes for c, cd in all_cards().items()}


_CENTRAL = rules_data()["central_board"]
#: card slots of a player, tokens per central space
_SLOTS = _CENTRAL["card_slots"]
_PER = _CENTRAL["tokens_per_space"]
#: face-up cards by player count
_ROW_SIZE = {n: _CENTRAL["face_up_cards"]["solo" if n == 1 else "multiplayer"]
             for n in range(1, 5)}
#: side -> colour -> (where the colour's bits start in a view's packed masks, the picker of
#: the side's ``PlaceToken`` for each board index)
_TOKEN_PICKERS = {side: {c: (n * MASK_WIDTH, picker(_token_actions(side, c)))
                         for n, c in enumerate(COLOURS)} for side in SIDES}
#: side -> hand -> what ``add_picked`` needs to pick the token actions of the hand's colours
#: (hands are few)
_HAND_PICKS: dict[str, dict[tuple[str, ...], tuple]] = {side: {} for side in SIDES}


def _hand_picks(side: str, hand: tuple[str, ...]) -> tuple:
    table = _HAND_PICKS[side]
    if len(table) >= _MEMO_SIZE:
        table.clear()
    pickers = _TOKEN_PICKERS[side]
    found = table[hand] = tuple(pickers[c][1].entry(pickers[c][0]) for c in _hand_colours(hand))
    return found


#: side -> card -> the side's ``PlaceCube`` of the card for each board index
_CUBE_TABLES: dict[str, dict[int, tuple[PlaceCube, ...]]] = {side: {} for side in SIDES}
#: side -> cell -> board index
_INDEX = {side: cell_index(side) for side in SIDES}


def token_actions(side: str, view: BoardView, colour: str) -> tuple[PlaceToken, ...]:
    """Where a ``colour`` token may go on the board of ``view``, as actions."""
    return view.token_spots_in(colour, _token_actions(side, colour))


def cube_actions(side: str, view: BoardView, card_id: int) -> tuple[PlaceCube, ...]:
    """Where the next cube of a card may go on the board of ``view``, as actions."""
    return view.habitats_in(card_id, _cube_actions(side, card_id))


#: ready-made actions for the face-up row (see below): the states of a turn repeat them.
#: Kept small: a row lasts a turn or two, and a large memo of rows that never come back
#: would be cleared and refilled again and again, each time handing the garbage collector
#: thousands of long-lived objects to look through (a full collection of this process takes
#: over ten milliseconds).
_ROW_ACTIONS: dict[tuple, tuple[tuple[TakeCard, ...], int, tuple[DiscardCard, ...]]] = {}
_ROW_MEMO_SIZE = 8
_MEMO_SIZE = 2048


def _hand_colours(hand: tuple[str, ...]) -> tuple[str, ...]:
    """The colours of the game in ``hand``, each once, in the order of ``COLOURS``."""
    return tuple(c for c in COLOURS if c in hand)


#: hand -> colour -> the hand left once a token of that colour (its first) is placed, made
#: when the hand is first seen (hands of up to 3 tokens of 6 colours are few)
_HAND_LEFT: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}


def _hand_left(hand: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    for k, colour in enumerate(hand):
        if colour not in found:
            found[colour] = hand[:k] + hand[k + 1:]
    if len(_HAND_LEFT) >= _MEMO_SIZE:
        _HAND_LEFT.clear()
    _HAND_LEFT[hand] = found
    return found


_HAND_LEFT_GET = _HAND_LEFT.get

#: card -> (its ``TakeCard``, the cubes it holds, its ``DiscardCard``), made when first seen
_CARD_ACTIONS: dict[int, tuple[TakeCard, int, DiscardCard]] = {}


def _card_actions(card_id: int) -> tuple[TakeCard, int, DiscardCard]:
    found = _CARD_ACTIONS.get(card_id)
    if found is None:
        cubes = _cubes()
        load = cubes[card_id] if card_id in cubes else card(card_id).cubes
        found = _CARD_ACTIONS[card_id] = (_take_card(card_id), load, _discard(card_id))
    return found


def _row_actions(row: tuple) -> tuple[tuple[TakeCard, ...], int, tuple[DiscardCard, ...]]:
    """For a face-up row: ``TakeCard`` for each card, the most cubes one of them needs, and
    ``DiscardCard`` for each card."""
    if len(_ROW_ACTIONS) >= _ROW_MEMO_SIZE:
        _ROW_ACTIONS.clear()
    get = _CARD_ACTIONS.get
    takes, discards, need = [], [], 0
    for c in row:
        take, load, discard = get(c) or _card_actions(c)
        takes.append(take)
        discards.append(discard)
        if load > need:
            need = load
    found = _ROW_ACTIONS[row] = (tuple(takes), need, tuple(discards))
    return found


def legal_actions(state: GameState) -> list[Action]:
    """Every action the current player may take now, in a stable order.  (The state keeps
    the list it was given: see ``core.protocol.GameState.legal_actions``.)"""
    if state.over:
        return []
    areas = state.areas
    area = areas[state.player]
    if area.spirit_offer:
        return [ChooseSpirit(s) for s in area.spirit_offer]
    side = state.side
    hand = state.hand
    took_tokens = state.took_tokens
    out: list[Action] = []
    if not took_tokens:
        i = 0
        takes = _TAKES
        for tokens in state.central:
            if tokens:
                found = takes[i].get(tokens) if i < len(takes) else None
                out.append(found or _take_tokens(i, tokens))
            i += 1
    # what the rules keep with an area (its board view, its open cards), read as attributes
    # (an area made otherwise, loaded from a save say, gets them here)
    try:
        view = area._view
    except AttributeError:
        view = board_view(side, area)
    if hand:
        # each colour's spots picked by its bit mask from the side's ready-made actions
        picks = _HAND_PICKS[side].get(hand)
        if picks is None:
            picks = _hand_picks(side, hand)
        add_picked(out, view.masks, picks)
    try:
        open_cards = area._open
    except AttributeError:
        open_cards = _unfinished(area)
    may_take = not state.took_card and not state.discarded
    if may_take:
        row = state.row
        takes, need, discards = _ROW_ACTIONS.get(row) or _row_actions(row)
        if len(open_cards) < _SLOTS:
            supply = state.cube_supply
            if need <= supply:
                out += takes
            else:
                cubes = _cubes()
                out += [a for a in takes
                        if (cubes[a.card] if a.card in cubes else card(a.card).cubes) <= supply]
    if open_cards:
        tables = _CUBE_TABLES[side]
        entries = view._habitats
        for c, _ in open_cards:
            found = entries.get(c)
            if found is not None:
                items = found[3]
                if items is not None:
                    out += items
                    continue
            table = tables.get(c)
            if table is None:
                table = tables[c] = _cube_actions(side, c)
            out += view.habitats_in(c, table)
    if may_take and len(areas) == 1 and state.deck:
        out += discards
    if took_tokens and not hand:
        out.append(_END_TURN)
    return out


def pending(state: GameState) -> Decision | None:
    """The decision the current player must take before anything else: with Nature's
    Spirits, keeping one of the two spirits dealt (their first turn)."""
    if state.over:
        return None
    offer = state.areas[state.player].spirit_offer
    if not offer:
        return None
    names = ", ".join(card(s).name for s in offer)
    return Decision("keep-spirit", state.player, f"keep one of your two spirit cards ({names})",
                    offer)


def why_illegal(state: GameState, action: Action) -> tuple[str, str]:
    """A plain reason (and the rule's section) why ``action`` is not legal now (asked only
    of an action that is not among the legal ones)."""
    area = state.areas[state.player]
    decision = pending(state)
    if decision is not None and not isinstance(action, ChooseSpirit):
        return f"you must first {decision.must}", "Nature's Spirits"
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


def why(state: GameState, action: Action) -> IllegalAction | None:
    """``None`` if ``action`` is legal now, else the :class:`IllegalAction` saying why (with a
    few legal actions of the same kind as alternatives)."""
    if listed(state, action):       # (a finished game lists no action)
        return None
    if state.over:
        return state.reject("the game is over", rule="End of the game")
    decision = pending(state)
    if decision is not None and not isinstance(action, ChooseSpirit):
        return decision.refuse("Nature's Spirits",
                               alternatives=[a.describe() for a in state.legal_actions()])
    reason, rule = why_illegal(state, action)
    return state.reject(reason, rule=rule, like=type(action))


# ----- effects ----------------------------------------------------------------------------
# Each handler builds the new state straight from the old one, as the working copy's fast
# path (``StateCopy.successor``, ``StateCopy.fresh``; see ``core.working``): the fields it
# changes are new values, every other field is shared with the old state, which is never
# changed (a refused action leaves nothing behind).  A player area changed by one token or
# one cube gets a board view derived from the old area's (see ``habitats.BoardView``).

def area_after(old: PlayerArea, changes: dict[str, Any], token: int | None = None,
               cube: int | None = None) -> PlayerArea:
    """``old`` with the fields in ``changes`` replaced.  ``token`` (or ``cube``) names the one
    board index where a token (or a cube) was added, so that the new area's board view is
    derived from the old one's; what only depends on the cards is passed on when the cards
    stay the same."""
    new = remake(old, changes)
    view = getattr(old, "_view", None)
    if view is not None and view.stacks is old.stacks and view.cubes is old.cubes:
        if new.stacks is old.stacks and new.cubes is old.cubes:
            keep(new, "_view", view)
        elif token is not None and new.cubes is old.cubes:
            keep(new, "_view", view.with_token(token, new.stacks))
        elif cube is not None and new.stacks is old.stacks:
            keep(new, "_view", view.with_cube(cube, new.cubes))
    was = getattr(old, "_open", None)
    if was is not None and new.cards is old.cards:
        keep(new, "_open", was)
    return new

#: ``_GROWN.get`` (a method of a name imported from another module is looked up by name at
#: every call; the table itself is only ever added to)
_GROWN_GET = _GROWN.get


def _change_area(state: GameState, changes: dict[str, Any], token: int | None = None,
                 cube: int | None = None) -> tuple[PlayerArea, ...]:
    """The areas of ``state`` with the current player's changed (see :func:`area_after`)."""
    p = state.player
    return replaced(state.areas, p, area_after(state.areas[p], changes, token, cube))


HANDLERS = Handlers("Harmonies")


@HANDLERS.on(ChooseSpirit)
def keep_spirit(state: GameState, action: ChooseSpirit) -> GameState:
    """Keep one spirit; the other goes back to the box ("Nature's Spirits")."""
    area = state.areas[state.player]
    other = tuple(s for s in area.spirit_offer if s != action.spirit)
    return StateCopy.successor(state, {
        "areas": _change_area(state, {"spirit_offer": (),
                                      "cards": area.cards + ((action.spirit, 0),)}),
        "boxed_spirits": tuple(sorted(state.boxed_spirits + other))})


@HANDLERS.on(TakeTokens)
def take_tokens(state: GameState, action: TakeTokens) -> GameState:
    """Take every token of one central space into the hand."""
    central = state.central
    space = action.space
    # made as ``StateCopy.successor`` makes it, in line
    values = StateCopy.fresh(state)
    values["hand"] = central[space]
    values["central"] = central[:space] + ((),) + central[space + 1:]
    values["took_tokens"] = True
    return plain_object(type(state), values)


@HANDLERS.on(PlaceToken)
def place_token(state: GameState, action: PlaceToken) -> GameState:
    """Put a held token on top of a stack of the player's board."""
    colour = action.colour
    hand = state.hand
    left = (_HAND_LEFT_GET(hand) or _hand_left(hand))[colour]
    p = state.player
    areas = state.areas
    area = areas[p]
    i = _INDEX[state.side][action.cell]
    stacks = area.stacks
    stack, step = _GROWN_GET((stacks[i], colour)) or grown(stacks[i], colour)
    board = list(stacks)
    board[i] = stack
    stacks = tuple(board)
    # the new area keeps the old one's open cards (same cards) and, derived at index i,
    # its board view (kept with the area: always its own board's view); the area is made
    # as ``AreaCopy.successor`` makes it, in line (this is the commonest move)
    fresh = AreaCopy.fresh(area)
    fresh["stacks"] = stacks
    view = fresh.get("_view")
    if view is not None:
        fresh["_view"] = view.with_token(i, stacks, step)
    new_area = plain_object(PlayerArea, fresh)
    # the new state made as ``StateCopy.successor`` makes it, in line
    values = StateCopy.fresh(state)
    values["hand"] = left
    values["areas"] = (new_area,) if len(areas) == 1 else \
        areas[:p] + (new_area,) + areas[p + 1:]
    return plain_object(type(state), values)


@HANDLERS.on(TakeCard)
def take_card(state: GameState, action: TakeCard) -> GameState:
    """Take a face-up card into a slot, loading it with cubes from the supply."""
    taken = action.card
    p = state.player
    areas = state.areas
    area = areas[p]
    cubes = _cubes()
    load = cubes[taken] if taken in cubes else card(taken).cubes
    new = area_after(area, {"cards": area.cards + ((taken, 0),)})
    was = getattr(area, "_open", None)
    if was is not None:     # the new card comes last, still open unless it holds no cube
        keep(new, "_open", was + ((taken, 0),) if load > 0 else was)
    # made as ``StateCopy.successor`` makes it, in line
    values = StateCopy.fresh(state)
    values["row"] = tuple([c for c in state.row if c != taken])
    values["areas"] = (new,) if len(areas) == 1 else areas[:p] + (new,) + areas[p + 1:]
    values["took_card"] = True
    values["cube_supply"] = state.cube_supply - load
    return plain_object(type(state), values)


@HANDLERS.on(PlaceCube)
def place_cube(state: GameState, action: PlaceCube) -> GameState:
    """Move a card's next cube onto the cube space of a habitat built for it."""
    area = state.areas[state.player]
    i = _INDEX[state.side][action.cell]
    cards = tuple((c, k + 1) if c == action.card and k < card(c).cubes else (c, k)
                  for c, k in area.cards)
    cubes = replaced(area.cubes, i, action.card)
    return StateCopy.successor(state, {"areas": _change_area(state, {"cubes": cubes, "cards": cards},
                                                cube=i)})


@HANDLERS.on(DiscardCard)
def discard_card(state: GameState, action: DiscardCard) -> GameState:
    """Solo: discard a face-up card and replace it from the deck."""
    gone = action.card
    deck = state.deck
    # made as ``StateCopy.successor`` makes it, in line
    values = StateCopy.fresh(state)
    values["row"] = tuple([deck[0] if c == gone else c for c in state.row])
    values["deck"] = deck[1:]
    values["discard_pile"] = state.discard_pile + (gone,)
    values["discarded"] = True
    return plain_object(type(state), values)


#: for each number of central spaces, the slices of the pouch that refill them (solo)
_REFILLS = {n: tuple(slice(k * _PER, (k + 1) * _PER) for k in range(n)) for n in range(1, 8)}


@HANDLERS.on(EndTurn)
def end_turn(state: GameState, action: EndTurn | None = None) -> GameState:
    """Refill the central board and the card row, then check the end of the game
    ("End of the game": a refill the pouch cannot make, or 2 or fewer empty spaces)."""
    per = _PER
    reason = state.end_reason
    over = False
    central, pouch = state.central, state.pouch
    areas = state.areas
    # the new state made as ``StateCopy.successor`` makes it, in line (its fields set one by one below)
    values = StateCopy.fresh(state)
    if len(areas) == 1:
        # the untaken tokens go to the box, space by space (the box's tuple copied once)
        values["boxed_tokens"] = state.boxed_tokens + sum(central, ())
        need = per * len(central)
        if len(pouch) < need:
            refill = ((),) * len(central)
            reason = reason or "the pouch cannot refill the whole central board"
            over = True
        else:
            slices = _REFILLS.get(len(central))
            if slices is None:
                slices = tuple(slice(k * per, (k + 1) * per) for k in range(len(central)))
            refill = tuple(map(pouch.__getitem__, slices))
            pouch = pouch[need:]
    else:
        spaces = list(central)
        for k, space in enumerate(central):
            if not space:
                spaces[k] = pouch[:per]
                if len(pouch) < per:
                    reason = reason or "the pouch cannot refill the central board"
                pouch = pouch[per:]
        refill = tuple(spaces)
    row, deck = state.row, state.deck
    missing = _ROW_SIZE[len(areas)] - len(row)
    if missing > 0 and deck:
        row, deck = row + deck[:missing], deck[missing:]
    p = state.player
    area = areas[p]
    new = AreaCopy.successor(area, {"turns": area.turns + 1})   # what it keeps included
    if area.stacks.count(()) <= 2:      # empty spaces
        reason = reason or f"{state.player_name(p)} has 2 or fewer empty spaces"
    nxt = p + 1
    if nxt == len(areas):
        nxt = 0
        if reason:
            over = True  # the round is complete: everyone has had the same number of turns
    areas = (new,) if len(areas) == 1 else areas[:p] + (new,) + areas[p + 1:]
    if over:
        # a finished game lists no more actions: its areas keep nothing made for listing
        # (a simulation may keep thousands of final positions)
        areas = tuple(map(_plain_area, areas))
    values["central"] = refill
    values["pouch"] = pouch
    values["row"] = row
    values["deck"] = deck
    values["areas"] = areas
    values["end_reason"] = reason
    values["hand"] = ()
    values["took_tokens"] = values["took_card"] = values["discarded"] = False
    values["player"] = 0 if over else nxt
    values["over"] = over
    return plain_object(type(state), values)


def _plain_area(area: PlayerArea) -> PlayerArea:
    """``area`` without what the rules keep with it (its board view, its open cards)."""
    return remake(area, {})
