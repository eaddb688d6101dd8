"""Arrange a teaching position: give a player a chosen hand, forest, clearing or deck top.

Cards are named as in :meth:`Forest.from_dict` (``"Oak"``, ``"Red Fox"``,
``"Roe Deer/Birch"``, ``"Sapling"``) or given by id; ``"Winter"`` names a winter card (only
for ``deck_top``).  Each named card is taken from the cards out of play (removed, box) or
from the deck, and cards the player held before go out of the game, so the card total is
always conserved.

>>> from pangaea_lab.forest_shuffle import new_game
>>> g = arrange(new_game(players=2, seed=1), hand=["Oak", "Red Squirrel"],
...             forest={"trees": [{"tree": "Beech"}]})
>>> [c.name for c in map(catalog().card, g.hands[0])][:1], g.forests[0].trees[0].species
(['Oak'], 'Beech')
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from ..core.errors import InvalidData
from .cards import SAPLING, SIDES
from .edition import catalog
from .forest import Forest
from .actions import Pay, PlayDweller, PlaySapling, PlayTree
from .state import GameState, dweller_of, tree_of

Spec = Any  # a card id or a name


class _Pool:
    """Where arranged cards come from: removed, box, then the deck (bottom first)."""

    def __init__(self, removed: list[int], box: list[int], deck: list[int]) -> None:
        self.zones = {"removed": removed, "box": box, "deck": deck}

    def take(self, spec: Spec, side: str | None = None, where: str = "") -> int:
        cat = catalog()
        match = _matcher(spec, side, where)
        for name in ("removed", "box", "deck"):
            zone = self.zones[name]
            order = range(len(zone) - 1, -1, -1) if name == "deck" else range(len(zone))
            for k in order:
                if match(cat.card(zone[k])):
                    return zone.pop(k)
        raise InvalidData(f"{where}: no free card {spec!r} is left (all copies are in use)")


def _matcher(spec: Spec, side: str | None, where: str):
    cat = catalog()
    if isinstance(spec, int) and not isinstance(spec, bool):
        cat.card(spec)
        return lambda c: c.id == spec
    if not isinstance(spec, str):
        raise InvalidData(f"{where}: a card must be a name or an id, found {spec!r}")
    text = spec.strip()
    if text.lower() == "winter":
        return lambda c: c.kind == "winter"
    if text.lower() == "sapling":
        return lambda c: c.kind != "winter"
    name, _, sym = text.partition("/")
    sp = cat.species(name)
    symbol = cat.symbol(sym) if sym.strip() else None
    if sp.is_tree:
        return lambda c: c.is_tree and c.species == sp.name
    if side is not None and not sp.fits(side):
        raise InvalidData(f"{where}: {sp.name} cannot sit in a {side} slot")

    def match(c) -> bool:
        if not c.is_split:
            return False
        halves = [c.half_for(side)] if side else list(c.halves)
        return any(h is not None and h.species == sp.name and (symbol is None or h.symbol == symbol)
                   for h in halves)
    return match


def arrange(state: GameState, player: int | None = None, hand: Sequence[Spec] | None = None,
            forest: dict | None = None, clearing: Sequence[Spec] | None = None,
            deck_top: Sequence[Spec] | None = None, cave: int | None = None) -> GameState:
    """A copy of ``state`` at the start of ``player``'s turn with the given zones."""
    if state.phase == "over":
        raise InvalidData("cannot arrange a finished game")
    p = state.current if player is None else player
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < state.players:
        raise InvalidData(f"there is no player {p} in a {state.players}-player game")
    removed, box, deck = list(state.removed), list(state.box), list(state.deck)
    hands = [list(h) for h in state.hands]
    clear = list(state.clearing)
    caves = [list(c) for c in state.caves]
    forests = list(state.forests)
    pool = _Pool(removed, box, deck)
    if hand is not None:
        removed.extend(hands[p])
        hands[p] = []
    if clearing is not None:
        removed.extend(clear)
        clear = []
    if forest is not None:
        for t in forests[p].trees:
            removed.append(t.card)
            for _, d in t.dwellers():
                removed.append(d.card)
        forests[p] = _build_forest(forest, pool)
    if cave is not None:
        removed.extend(caves[p])
        caves[p] = [pool.take("Sapling", where="cave") for _ in range(cave)]
    if hand is not None:
        hands[p] = [pool.take(s, where=f"hand[{k}]") for k, s in enumerate(hand)]
        if len(hands[p]) > 10:
            raise InvalidData("a hand holds at most 10 cards")
    if clearing is not None:
        clear = [pool.take(s, where=f"clearing[{k}]") for k, s in enumerate(clearing)]
    if deck_top is not None:
        top = [pool.take(s, where=f"deck_top[{k}]") for k, s in enumerate(deck_top)]
        deck[0:0] = top
    forests = [replace(f, cave=len(caves[i])) for i, f in enumerate(forests)]
    out = replace(state, removed=tuple(removed), box=tuple(box), deck=tuple(deck),
                  hands=tuple(tuple(sorted(h)) for h in hands), clearing=tuple(clear),
                  caves=tuple(tuple(c) for c in caves), forests=tuple(forests), current=p,
                  phase="turn", mulligan_left=(), pending=(), busy=False, extra_turns=0,
                  this_turn=())
    out.check_invariants()
    return out


def _build_forest(spec: Any, pool: _Pool) -> Forest:
    """A game forest (with card ids) from the plain form of :meth:`Forest.from_dict`."""
    # the cards dealt below decide their symbols, so none needs to be typed here
    Forest.from_dict({"trees": spec.get("trees", [])} if isinstance(spec, dict) else spec,
                     symbols_needed=False)
    forest = Forest()
    for i, raw in enumerate(spec.get("trees", [])):
        if isinstance(raw, str):
            raw = {"tree": raw}
        name = raw["tree"]
        sapling = isinstance(name, str) and name.strip().lower() == SAPLING.lower()
        cid = pool.take("Sapling" if sapling else name, where=f"trees[{i}]")
        forest = forest.plant(tree_of(cid, sapling))
        for side in SIDES:
            items = raw.get(side, [])
            for item in [items] if isinstance(items, str) else items:
                cid = pool.take(item, side=side, where=f"trees[{i}].{side}")
                forest = forest.place(i, side, dweller_of(cid, side))
    return forest


def shows(card: int, name: str) -> bool:
    """Does a card show ``name`` (a tree species, or the species of either half)?"""
    c = catalog().card(card)
    if c.is_tree:
        return c.species == name
    return any(h.species == name for h in c.halves)


def find_card(state: GameState, name: str, exclude: Sequence[int] = ()) -> int:
    """The id of a card in the current player's hand that shows ``name``."""
    for c in state.hands[state.current]:
        if c not in exclude and shows(c, name):
            return c
    raise InvalidData(f"{state.player_name(state.current)} holds no {name}")


def play_named(state: GameState, name: str, tree: int = 0, pay: Sequence[str] = (),
               sapling: bool = False) -> GameState:
    """Play the hand card showing ``name`` (a tree, or that half on tree number ``tree``,
    counting from 0), then pay with the hand cards named in ``pay``, in order."""
    card = find_card(state, name)
    c = catalog().card(card)
    if sapling:
        action: Any = PlaySapling(card)
    elif c.is_tree:
        action = PlayTree(card)
    else:
        side = next(s for s, h in zip(c.sides(), c.halves) if h.species == name)
        action = PlayDweller(card, side, tree)
    state = state.apply(action)
    for payer in pay:
        state = state.apply(Pay(find_card(state, payer)))
    return state
