"""A player's forest: trees (or saplings) with the cards in their four slots, and a cave.

Forests are immutable values.  In a game every entry carries its card id; a forest built by
hand with :meth:`Forest.from_dict` names cards by species only (``card`` is ``None``).

>>> f = Forest.from_dict({"cave": 1, "trees": [
...     {"tree": "Oak", "top": ["Red Squirrel"], "left": ["European Hare", "European Hare"]}]})
>>> len(f.trees), f.trees[0].slot("left")[0].species, f.cave
(1, 'European Hare', 1)
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..core.errors import InvalidData
from .cards import SAPLING, SIDES
from .edition import catalog
from .game import GAME


@dataclass(frozen=True)
class Dweller:
    """A visible half in a slot: its species, the tree symbol it shows, and its card id."""

    species: str
    symbol: str | None = None
    card: int | None = None

    def label(self) -> str:
        return f"{self.species}/{self.symbol}" if self.symbol else self.species


@dataclass(frozen=True)
class Tree:
    """A tree (species name) or a face-down ``"Sapling"``, with its four slots."""

    species: str
    card: int | None = None
    top: tuple[Dweller, ...] = ()
    bottom: tuple[Dweller, ...] = ()
    left: tuple[Dweller, ...] = ()
    right: tuple[Dweller, ...] = ()

    @property
    def is_sapling(self) -> bool:
        return self.species == SAPLING

    def slot(self, side: str) -> tuple[Dweller, ...]:
        return getattr(self, side)

    def with_dweller(self, side: str, dweller: Dweller) -> "Tree":
        return replace(self, **{side: self.slot(side) + (dweller,)})

    @property
    def is_full(self) -> bool:
        """Fully occupied: at least one card on each of the four sides."""
        return all(self.slot(s) for s in SIDES)

    def dwellers(self) -> Iterator[tuple[str, Dweller]]:
        for side in SIDES:
            for d in self.slot(side):
                yield side, d

    def card_count(self) -> int:
        return sum(len(self.slot(s)) for s in SIDES)


def can_join(slot: tuple[Dweller, ...], species: str,
             placed_now: Collection[int] = ()) -> str | None:
    """Why ``species`` may not go into a slot holding ``slot``, or None if it may.

    One card per slot; European Hares stack without limit and Common Toads two high, but
    only onto cards placed on an earlier turn: ``placed_now`` holds the ids of the cards
    placed this turn (empty for a finished forest, where any stack is allowed)."""
    if not slot:
        return None
    sp = catalog().species(species)
    if sp.stack == 1 or any(d.species != sp.name for d in slot):
        return (f"the slot already holds {slot[0].species}, and only one card fits a slot "
                f"(only European Hares, and Common Toads two high, may share one)")
    if sp.stack is not None and len(slot) >= sp.stack:
        return f"at most {sp.stack} {sp.name} cards may share a slot"
    if placed_now and any(d.card in placed_now for d in slot):
        return (f"a {sp.name} may only join other {sp.name}s placed on an earlier turn, not "
                f"one placed this turn (a free placement or a Mole play is still the same "
                f"turn; an extra turn is a later one)")
    return None


def check_place(slot: tuple[Dweller, ...], index: int, side: str, dweller: Dweller,
                placed_now: Collection[int] = ()) -> None:
    """Raise ``InvalidData`` unless ``dweller`` may join ``slot`` (side ``side`` of tree
    ``index``): its species must fit that side and the slot must take it (see
    :func:`can_join`)."""
    sp = catalog().species(dweller.species)
    if not sp.fits(side):
        where = "left or right" if sp.slot == "side" else sp.slot
        raise InvalidData(f"{sp.name} cannot sit in a {side} slot; it belongs {where} "
                          f"of a tree")
    why = can_join(slot, sp.name, placed_now)
    if why:
        raise InvalidData(f"cannot put {sp.name} {side} of tree {index}: {why}")


@dataclass(frozen=True)
class Forest:
    """A forest: its trees in play order and the number of cards under its cave."""

    trees: tuple[Tree, ...] = ()
    cave: int = 0

    def _repr_svg_(self) -> str:
        """The forest drawn, when a notebook cell ends in it (:func:`.render.forest_svg`,
        bound to GAME by the package)."""
        return GAME.part("forest_svg")(self)

    # ----- queries ------------------------------------------------------------------------

    def dwellers(self) -> Iterator[tuple[int, str, Dweller]]:
        """(tree index, side, dweller) for every visible half."""
        for i, tree in enumerate(self.trees):
            for side, d in tree.dwellers():
                yield i, side, d

    def count_species(self, name: str) -> int:
        trees = sum(1 for t in self.trees if t.species == name)
        return trees + sum(1 for _, _, d in self.dwellers() if d.species == name)

    def card_count(self) -> int:
        """Cards lying in the forest (trees, saplings, dwellers), not counting the cave."""
        return len(self.trees) + sum(t.card_count() for t in self.trees)

    def free_spots(self, species: str,
                   placed_now: Collection[int] = ()) -> list[tuple[int, str]]:
        """(tree index, side) where a half of ``species`` could be placed now (``placed_now``:
        cards placed this turn, see :func:`can_join`)."""
        sp = catalog().species(species)
        out = []
        for i, tree in enumerate(self.trees):
            for side in SIDES:
                if sp.fits(side) and can_join(tree.slot(side), sp.name, placed_now) is None:
                    out.append((i, side))
        return out

    # ----- changes (new forests) ----------------------------------------------------------

    def plant(self, tree: Tree) -> "Forest":
        return replace(self, trees=self.trees + (tree,))

    def place(self, index: int, side: str, dweller: Dweller,
              placed_now: Collection[int] = ()) -> "Forest":
        """The forest with ``dweller`` added to slot ``side`` of tree ``index`` (checked;
        ``placed_now``: cards placed this turn in a game, see :func:`can_join`)."""
        if not 0 <= index < len(self.trees):
            raise InvalidData(f"there is no tree number {index} in this forest "
                              f"(it has {len(self.trees)})")
        check_place(self.trees[index].slot(side), index, side, dweller, placed_now)
        trees = list(self.trees)
        trees[index] = trees[index].with_dweller(side, dweller)
        return replace(self, trees=tuple(trees))

    # ----- dictionaries -------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Any, symbols_needed: bool = True) -> "Forest":
        """A forest from plain data, as a teacher would type it.

        ``{"cave": 2, "trees": [{"tree": "Oak", "top": ["Red Squirrel"], "left": [...]}]}``.
        A dweller is a species name, optionally ``"Species/Tree symbol"`` (needed for Roe
        Deer); a tree is a species or ``"Sapling"``.  Names may be typed as printed
        ("Bechstein’s Bat", "Linden Tree") in any letter case.  Unknown names, wrong
        slots, too many cards in a slot, and forests the deck cannot lay out (more copies of a
        card than it has, or both halves of one split card) raise ``InvalidData`` naming the
        card and its place in ``data``; so does a card without its symbol where a Roe Deer
        counts that symbol (a species printed with one symbol only gets it filled in).  A
        left/right species may be typed on either side with any symbol its cards show (the
        printed side of each half is not enforced, so a teacher need not look it up).
        ``symbols_needed=False`` skips the symbol check, for a position whose cards are then
        dealt from the deck (which decides their symbols)."""
        if not isinstance(data, dict):
            raise InvalidData("a forest must be a dict with 'trees' (a list) and 'cave'")
        unknown = set(data) - {"trees", "cave"}
        if unknown:
            raise InvalidData(f"unknown forest {'field' if len(unknown) == 1 else 'fields'}: "
                              f"{', '.join(sorted(unknown))} "
                              f"(expected 'trees' and 'cave')")
        cave = data.get("cave", 0)
        if isinstance(cave, bool) or not isinstance(cave, int) or cave < 0:
            raise InvalidData(f"field 'cave' must be the number of cards under the cave "
                              f"(a whole number >= 0), found {cave!r}")
        trees_raw = data.get("trees", [])
        if not isinstance(trees_raw, list):
            raise InvalidData("field 'trees' must be a list of trees")
        cat = catalog()
        forest = cls(cave=cave)
        for i, raw in enumerate(trees_raw):
            where = f"trees[{i}]"
            if isinstance(raw, str):
                raw = {"tree": raw}
            if not isinstance(raw, dict) or "tree" not in raw:
                raise InvalidData(f"{where} must be a dict with a 'tree' name")
            extra = set(raw) - {"tree", *SIDES}
            if extra:
                raise InvalidData(f"{where} has unknown {'field' if len(extra) == 1 else 'fields'} "
                                  f"{', '.join(sorted(extra))}; "
                                  f"slots are top, bottom, left and right")
            name = raw["tree"]
            if isinstance(name, str) and name.strip().lower() == "sapling":
                forest = forest.plant(Tree(SAPLING))
            else:
                sp = cat.species(name)
                if not sp.is_tree:
                    raise InvalidData(f"{where}: {sp.name} is not a tree; write it in a slot "
                                      f"of a tree, or use 'Sapling'")
                forest = forest.plant(Tree(sp.name))
            for side in SIDES:
                items = raw.get(side, [])
                if isinstance(items, str):
                    items = [items]
                if not isinstance(items, list):
                    raise InvalidData(f"{where}.{side} must be a list of card names")
                for item in items:
                    forest = forest.place(i, side, parse_dweller(item, side, f"{where}.{side}"))
        forest.check_copies(paths=True, symbols_needed=symbols_needed)
        return forest

    def to_dict(self) -> dict:
        """The plain-data form read by :meth:`from_dict` (card ids are not kept)."""
        trees = []
        for t in self.trees:
            entry: dict[str, Any] = {"tree": t.species}
            for side in SIDES:
                if t.slot(side):
                    entry[side] = [d.label() for d in t.slot(side)]
            trees.append(entry)
        return {"cave": self.cave, "trees": trees}

    def check_copies(self, paths: bool = False, symbols_needed: bool = True) -> None:
        """Raise ``InvalidData`` unless the base game's deck can lay out this forest.

        Every tree and every visible half must be a different physical card: the two halves
        of one split card can never both be in a forest, and no card is used more often than
        the deck holds it.  Saplings and cave cards take any cards left over.  Where a Roe
        Deer counts cards of a tree symbol, a card whose symbol could be that one must say
        its symbol.  The error names the card and where it lies (``paths``: as the input of
        :meth:`from_dict` spells it, ``trees[1].left[0]``; otherwise "tree 2, left slot")."""
        _DeckCheck(self, paths).run(symbols_needed)

    check_deck = check_copies


def _where(i: int, side: str | None, k: int, paths: bool) -> str:
    if paths:
        return f"trees[{i}]" if side is None else f"trees[{i}].{side}[{k}]"
    return f"tree {i + 1}" if side is None else f"tree {i + 1}, {side} slot" + (
        f" (card {k + 1} of the stack)" if k else "")


def _label(species: str, symbol: str | None) -> str:
    return f"{species} with the {symbol} symbol" if symbol else species


class _DeckCheck:
    """Match every card of a forest to a distinct card of the deck (augmenting paths)."""

    def __init__(self, forest: "Forest", paths: bool) -> None:
        self.forest, self.paths = forest, paths
        #: (where, species, symbol or None, candidate card ids)
        self.entries: list[tuple[str, str, str | None, tuple[int, ...]]] = []
        self.saplings = 0

    def run(self, symbols_needed: bool = True) -> None:
        cat = catalog()
        for i, tree in enumerate(self.forest.trees):
            where = _where(i, None, 0, self.paths)
            if tree.is_sapling:
                if tree.card is None:
                    self.saplings += 1
                else:
                    self.entries.append((where, SAPLING, None, (tree.card,)))
                continue
            ids = _tree_cards(tree.species) if tree.card is None else (tree.card,)
            if tree.card is not None and cat.card(tree.card).species != tree.species:
                raise InvalidData(f"impossible forest: {where} is card #{tree.card}, "
                                  f"which is not a {tree.species}")
            self.entries.append((where, tree.species, None, ids))
            for side in SIDES:
                for k, d in enumerate(tree.slot(side)):
                    where = _where(i, side, k, self.paths)
                    if d.card is None:
                        ids = _half_cards(d.species, d.symbol)
                    else:
                        half = cat.card(d.card).half_for(side)
                        if half is None or half.species != d.species or (
                                d.symbol and half.symbol != d.symbol):
                            raise InvalidData(f"impossible forest: {where} is card #{d.card}, "
                                              f"which shows no {_label(d.species, d.symbol)} "
                                              f"there")
                        ids = (d.card,)
                    self.entries.append((where, d.species, d.symbol, ids))
        self._match()
        self._check_leftovers()
        if symbols_needed:
            self._check_symbols()

    def _match(self) -> None:
        owner: dict[int, int] = {}          # card id -> entry index

        def augment(e: int, seen: set[int]) -> bool:
            for cid in self.entries[e][3]:
                if cid in seen:
                    continue
                seen.add(cid)
                if cid not in owner or augment(owner[cid], seen):
                    owner[cid] = e
                    return True
            return False

        for e in range(len(self.entries)):
            if not augment(e, set()):
                raise InvalidData(self._why(e, owner))
        self.used = len(owner)

    def _why(self, e: int, owner: dict[int, int]) -> str:
        cat = catalog()
        where, species, symbol, ids = self.entries[e]
        same = [x for x in self.entries[:e + 1] if x[1] == species]
        if species == SAPLING:
            have = 1
        elif cat.species(species).is_tree:
            have = len(_tree_cards(species))
        else:
            have = len(_half_cards(species, None))
        if len(same) > have:
            return (f"impossible forest: {where} is {species} card number {len(same)}, but "
                    f"the base game has only {have}")
        twins = [x for x in self.entries[:e + 1] if x[1] == species and x[2] == symbol]
        if symbol and len(twins) > len(ids):
            return (f"impossible forest: {where} is {_label(species, symbol)} card number "
                    f"{len(twins)}, but the base game has only {len(ids)}")
        users = []
        for cid in ids:
            other = self.entries[owner[cid]] if cid in owner else None
            if other is not None and other[1] != species:
                users.append(f"#{cid} ({cat.card(cid).name}) already lies at {other[0]} "
                             f"as {_label(other[1], other[2])}")
        if users:
            return (f"impossible forest: {where} needs a card showing "
                    f"{_label(species, symbol)}, but " + "; ".join(users)
                    + ". The two halves of one card cannot both be in a forest")
        return (f"impossible forest: {where} needs a card showing {_label(species, symbol)}, "
                f"and every such card of the base game is already used in this forest")

    def _check_leftovers(self) -> None:
        left = len(catalog().playable_ids) - self.used
        if self.saplings + self.forest.cave > left:
            raise InvalidData(f"impossible forest: {self.saplings} saplings and "
                              f"{self.forest.cave} cave cards need more cards than the "
                              f"{left} the base game has left over")

    def _check_symbols(self) -> None:
        """A card whose unknown symbol could change a Roe Deer's count must name it."""
        cat = catalog()
        counted = {sym for _, sp, sym, _ in self.entries
                   if sym and sp != SAPLING and cat.species(sp).scoring.get("kind")
                   == "same_symbol"}
        if not counted:
            return
        for where, species, symbol, _ in self.entries:
            if symbol or species == SAPLING or cat.species(species).is_tree:
                continue
            could = sorted(set(cat.species(species).symbols()) & counted)
            if could:
                raise InvalidData(
                    f"{where}: which tree symbol does this {species} show? Some {species} "
                    f"cards show {' or '.join(could)}, which the Roe Deer in this forest "
                    f"count; write it as '{species}/<tree symbol>' (its cards show "
                    f"{', '.join(sorted(cat.species(species).symbols()))})")


@lru_cache(maxsize=None)
def _tree_cards(species: str) -> tuple[int, ...]:
    return tuple(c for c in catalog().card_ids if catalog().card(c).species == species)


@lru_cache(maxsize=None)
def _half_cards(species: str, symbol: str | None) -> tuple[int, ...]:
    """Split cards with a half showing ``species`` (with ``symbol``, if given)."""
    out = []
    for c in catalog().card_ids:
        card = catalog().card(c)
        if card.is_split and any(h.species == species and symbol in (None, h.symbol)
                                 for h in card.halves):
            out.append(c)
    return tuple(out)


def parse_dweller(item: Any, side: str, where: str) -> Dweller:
    """``"Roe Deer/Birch"`` -> Dweller("Roe Deer", "Birch"); checks species, slot, symbol."""
    if not isinstance(item, str) or not item.strip():
        raise InvalidData(f"{where}: each card must be a species name, found {item!r}")
    name, _, sym = item.partition("/")
    cat = catalog()
    sp = cat.species(name)
    if sp.is_tree:
        raise InvalidData(f"{where}: {sp.name} is a tree; trees are not placed in slots")
    if not sp.fits(side):
        allowed = "left or right" if sp.slot == "side" else sp.slot
        raise InvalidData(f"{where}: {sp.name} cannot sit in a {side} slot "
                          f"(it is a {allowed} card)")
    symbol = None
    if sym.strip():
        symbol = cat.symbol(sym)
        if symbol not in sp.symbols():
            raise InvalidData(f"{where}: no {sp.name} card shows the {symbol} symbol "
                              f"(base game: {', '.join(sorted(sp.symbols()))})")
    elif len(sp.symbols()) == 1:
        symbol = next(iter(sp.symbols()))   # every card of it shows the same symbol
    elif sp.scoring.get("kind") == "same_symbol":
        raise InvalidData(f"{where}: {sp.name} scores by its tree symbol, so write it as "
                          f"'{sp.name}/<tree>' (one of {', '.join(sorted(sp.symbols()))})")
    return Dweller(sp.name, symbol)
