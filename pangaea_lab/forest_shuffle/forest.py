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
from typing import Any

from ..core.errors import InvalidData
from .cards import SAPLING, SIDES, catalog


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


@dataclass(frozen=True)
class Forest:
    """A forest: its trees in play order and the number of cards under its cave."""

    trees: tuple[Tree, ...] = ()
    cave: int = 0

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
        sp = catalog().species(dweller.species)
        if not sp.fits(side):
            where = "left or right" if sp.slot == "side" else sp.slot
            raise InvalidData(f"{sp.name} cannot sit in a {side} slot; it belongs {where} "
                              f"of a tree")
        why = can_join(self.trees[index].slot(side), sp.name, placed_now)
        if why:
            raise InvalidData(f"cannot put {sp.name} {side} of tree {index}: {why}")
        trees = list(self.trees)
        trees[index] = trees[index].with_dweller(side, dweller)
        return replace(self, trees=tuple(trees))

    def _repr_svg_(self) -> str:
        from .render import forest_svg
        return forest_svg(self)

    # ----- dictionaries -------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Any) -> "Forest":
        """A forest from plain data, as a teacher would type it.

        ``{"cave": 2, "trees": [{"tree": "Oak", "top": ["Red Squirrel"], "left": [...]}]}``.
        A dweller is a species name, optionally ``"Species/Tree symbol"`` (needed for Roe
        Deer); a tree is a species or ``"Sapling"``.  Unknown names, wrong slots, too many
        cards in a slot and more copies than the base game has raise ``InvalidData``.  A
        left/right species may be typed on either side with any symbol its cards show (the
        printed side of each half is not enforced, so a teacher need not look it up)."""
        if not isinstance(data, dict):
            raise InvalidData("a forest must be a dict with 'trees' (a list) and 'cave'")
        unknown = set(data) - {"trees", "cave"}
        if unknown:
            raise InvalidData(f"unknown forest field(s): {', '.join(sorted(unknown))} "
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
                raise InvalidData(f"{where} has unknown field(s) {', '.join(sorted(extra))}; "
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
        forest.check_copies()
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

    def check_copies(self) -> None:
        """Raise ``InvalidData`` if the forest holds more copies of a card than exist."""
        cat = catalog()
        seen: dict[str, int] = {}
        seen_sym: dict[tuple[str, str], int] = {}
        for t in self.trees:
            if not t.is_sapling:
                seen[t.species] = seen.get(t.species, 0) + 1
        for _, side, d in self.dwellers():
            seen[d.species] = seen.get(d.species, 0) + 1
            if d.symbol:
                seen_sym[(d.species, d.symbol)] = seen_sym.get((d.species, d.symbol), 0) + 1
        for name, n in seen.items():
            if n > cat.species(name).count:
                raise InvalidData(f"impossible forest: {n} {name} cards, but the base game "
                                  f"has only {cat.species(name).count}")
        for (name, sym), n in seen_sym.items():
            have = cat.species(name).symbols().get(sym, 0)
            if n > have:
                raise InvalidData(f"impossible forest: {n} {name} cards with the {sym} symbol, "
                                  f"but the base game has only {have}")


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
    elif sp.scoring.get("kind") == "same_symbol":
        raise InvalidData(f"{where}: {sp.name} scores by its tree symbol, so write it as "
                          f"'{sp.name}/<tree>' (one of {', '.join(sorted(sp.symbols()))})")
    return Dweller(sp.name, symbol)
