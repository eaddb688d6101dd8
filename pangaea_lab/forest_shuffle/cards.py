"""The Forest Shuffle base-game cards as data types, checked when a card set is built (the
loaders of the shipped set and of a user's file are in :mod:`.edition`).

A playable card has an id (the public numbering: 1-66 trees, 67-69 winter, 70-161 split
cards).  A split card has two halves; which half shows depends on the slot it is played in
(top/left half in a top/left slot, bottom/right half in a bottom/right slot).

>>> from pangaea_lab.forest_shuffle.edition import catalog
>>> catalog().card(72).halves[1].species
'Red Fox'
>>> catalog().species("european hare").count
11
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any, Mapping

from ..core.errors import InvalidData

SIDES = ("top", "bottom", "left", "right")
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
SAPLING = "Sapling"
TREE_TYPE = "tree"


@dataclass(frozen=True)
class Species:
    """One species: a tree (slot ``"tree"``) or a dweller (``"top"``, ``"bottom"``, ``"side"``).

    ``copies`` maps tree symbol -> number of halves (for side species: per side).
    ``stack`` is how many may share a slot (``None`` = any number)."""

    name: str
    slot: str
    types: tuple[str, ...]
    count: int
    cost: int
    effect: tuple[Mapping[str, Any], ...]
    bonus: tuple[Mapping[str, Any], ...]
    scoring: Mapping[str, Any]
    source: str
    copies: Mapping[str, Any]
    stack: int | None = 1

    @property
    def is_tree(self) -> bool:
        return self.slot == "tree"

    def fits(self, side: str) -> bool:
        """Can a half of this species sit in ``side`` (top/bottom/left/right)?"""
        if self.slot == "side":
            return side in ("left", "right")
        return self.slot == side

    def symbols(self, side: str | None = None) -> dict[str, int]:
        """Tree symbols this species' halves show, with their number of copies."""
        if self.is_tree:
            return {self.name: self.count}
        if self.slot != "side":
            return dict(self.copies)
        sides = [side] if side in ("left", "right") else ["left", "right"]
        out: dict[str, int] = {}
        for s in sides:
            for sym, n in self.copies[s].items():
                out[sym] = out.get(sym, 0) + n
        return out


@dataclass(frozen=True)
class Half:
    """One half of a split card: its species and tree symbol."""

    species: str
    symbol: str


@dataclass(frozen=True)
class Card:
    """A physical card.  ``kind`` is ``"tree"``, ``"winter"``, ``"top-bottom"`` or
    ``"left-right"``; a tree has ``species``; a split card has two ``halves``."""

    id: int
    kind: str
    species: str | None = None
    halves: tuple[Half, ...] = ()

    @property
    def is_tree(self) -> bool:
        return self.kind == "tree"

    @property
    def is_split(self) -> bool:
        return self.kind in ("top-bottom", "left-right")

    def half_for(self, side: str) -> Half | None:
        """The half that shows when the card sits in ``side``, or None if it cannot."""
        if self.kind == "top-bottom" and side in ("top", "bottom"):
            return self.halves[0 if side == "top" else 1]
        if self.kind == "left-right" and side in ("left", "right"):
            return self.halves[0 if side == "left" else 1]
        return None

    def sides(self) -> tuple[str, str]:
        return ("top", "bottom") if self.kind == "top-bottom" else ("left", "right")

    def symbols(self) -> frozenset[str]:
        """Every tree symbol the card shows (a tree shows its own species)."""
        if self.is_tree:
            return frozenset([self.species or ""])
        return frozenset(h.symbol for h in self.halves)

    @property
    def name(self) -> str:
        if self.kind == "winter":
            return "Winter card"
        if self.is_tree:
            return str(self.species)
        return " / ".join(h.species for h in self.halves)


class Catalog:
    """All species and cards of the base game, validated."""

    def __init__(self, data: Any, where: str = "cards.json") -> None:
        self.where = where
        self.symbols: tuple[str, ...] = self._names(self._field(data, "tree_symbols", list),
                                                    "tree_symbols")
        self.types: tuple[str, ...] = self._names(self._field(data, "types", list), "types")
        self.component_counts: dict[str, int] = dict(self._field(data, "component_counts", dict))
        self._species: dict[str, Species] = {}
        self._cards: dict[int, Card] = {}
        for i, raw in enumerate(self._field(data, "trees", list)):
            self._add_tree(raw, f"trees[{i}]")
        for i, raw in enumerate(self._field(data, "dwellers", list)):
            self._add_dweller(raw, f"dwellers[{i}]")
        for i, raw in enumerate(self._field(data, "split_cards", list)):
            self._add_split(raw, f"split_cards[{i}]")
        for cid in self._field(data, "winter_cards", list):
            self._new_card(Card(id=self._int(cid, "winter_cards"), kind="winter"), "winter_cards")
        self._lower = {plain_name(name): name for name in self._species}
        caves = self._field(data, "caves", dict)
        self.cave_points = self._int(caves.get("points_per_card"), "caves.points_per_card")
        for key in ("caves", "reference_cards"):
            entry = self._field(data, key, dict)
            short = "cave" if key == "caves" else "reference"
            if entry.get("count") != self.component_counts.get(short):
                raise InvalidData(f"{self.where}: {key}.count is {entry.get('count')!r}, "
                                  f"component_counts says {self.component_counts.get(short)}")
        self._check_totals()

    # ----- loading helpers ----------------------------------------------------------------

    def _field(self, obj: Any, key: str, kind: type) -> Any:
        if not isinstance(obj, dict) or key not in obj:
            raise InvalidData(f"{self.where}: missing field {key!r}")
        if not isinstance(obj[key], kind):
            raise InvalidData(f"{self.where}: field {key!r} must be a {kind.__name__}")
        return obj[key]

    def _names(self, values: list, where: str) -> tuple[str, ...]:
        if not all(isinstance(value, str) and value for value in values):
            raise InvalidData(f"{self.where}: {where} must be a list of names")
        return tuple(values)

    def _int(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidData(f"{self.where}: {where} must be a whole number >= 0, "
                              f"found {value!r}")
        return value

    def _new_card(self, card: Card, where: str) -> None:
        if card.id in self._cards:
            raise InvalidData(f"{self.where}: {where} reuses card id {card.id}")
        self._cards[card.id] = card

    def _species_from(self, raw: Any, where: str, slot: str) -> Species:
        if not isinstance(raw, dict):
            raise InvalidData(f"{self.where}: {where} must be an object")
        name = raw.get("species")
        if not isinstance(name, str) or not name:
            raise InvalidData(f"{self.where}: {where}.species must be a name")
        if name.lower() in (n.lower() for n in self._species):
            raise InvalidData(f"{self.where}: species {name!r} is listed twice")
        if raw.get("source") not in ("rulebook", "public source", "assumption"):
            raise InvalidData(f"{self.where}: {where}.source must be 'rulebook', "
                              f"'public source' or 'assumption'")
        types = raw.get("types", [TREE_TYPE] if slot == "tree" else [])
        if not isinstance(types, list):
            raise InvalidData(f"{self.where}: {where}.types must be a list of names")
        types = self._names(types, f"{where}.types")
        for t in types:
            if t not in self.types:
                raise InvalidData(f"{self.where}: {where} has unknown type {t!r}")
        if not types:
            raise InvalidData(f"{self.where}: {where}.types is empty")
        stack = raw.get("stack", 1)
        if stack is not None:
            stack = self._int(stack, f"{where}.stack")
        for part in ("effect", "bonus"):
            if not isinstance(raw.get(part), list) or not all(
                    isinstance(e, dict) and isinstance(e.get("kind"), str) for e in raw[part]):
                raise InvalidData(f"{self.where}: {where}.{part} must be a list of "
                                  f"objects with a 'kind'")
        scoring = raw.get("scoring")
        if not isinstance(scoring, dict) or not isinstance(scoring.get("kind"), str):
            raise InvalidData(f"{self.where}: {where}.scoring must be an object with a 'kind'")
        if not isinstance(raw.get("copies", {}), dict):
            raise InvalidData(f"{self.where}: {where}.copies must map tree symbols to counts")
        return Species(name=name, slot=slot, types=types,
                       count=self._int(raw.get("count"), f"{where}.count"),
                       cost=self._int(raw.get("cost"), f"{where}.cost"),
                       effect=tuple(raw["effect"]), bonus=tuple(raw["bonus"]),
                       scoring=scoring, source=raw["source"],
                       copies=raw.get("copies", {}), stack=stack)

    def _add_tree(self, raw: Any, where: str) -> None:
        sp = self._species_from(raw, where, "tree")
        if sp.name not in self.symbols:
            raise InvalidData(f"{self.where}: tree {sp.name!r} is not one of the tree symbols")
        first = self._int(raw.get("first_id"), f"{where}.first_id")
        self._species[sp.name] = sp
        for cid in range(first, first + sp.count):
            self._new_card(Card(id=cid, kind="tree", species=sp.name), where)

    def _add_dweller(self, raw: Any, where: str) -> None:
        slot = raw.get("slot") if isinstance(raw, dict) else None
        if slot not in ("top", "bottom", "side"):
            raise InvalidData(f"{self.where}: {where}.slot must be top, bottom or side")
        sp = self._species_from(raw, where, slot)
        groups = [sp.copies] if slot != "side" else [sp.copies.get(s) for s in ("left", "right")]
        total = 0
        for group in groups:
            if not isinstance(group, dict):
                raise InvalidData(f"{self.where}: {where}.copies must map tree symbols to counts")
            for sym, n in group.items():
                if sym not in self.symbols:
                    raise InvalidData(f"{self.where}: {where}.copies has unknown symbol {sym!r}")
                total += self._int(n, f"{where}.copies")
        if total != sp.count:
            raise InvalidData(f"{self.where}: {sp.name} copies add up to {total}, "
                              f"not its count {sp.count}")
        self._species[sp.name] = sp

    def _add_split(self, raw: Any, where: str) -> None:
        if not isinstance(raw, dict):
            raise InvalidData(f"{self.where}: {where} must be an object")
        kind = raw.get("layout")
        if kind not in ("top-bottom", "left-right"):
            raise InvalidData(f"{self.where}: {where}.layout must be top-bottom or left-right")
        halves = raw.get("halves")
        if not isinstance(halves, list) or len(halves) != 2:
            raise InvalidData(f"{self.where}: {where}.halves must list two halves")
        out = []
        for k, half in enumerate(halves):
            if not (isinstance(half, list) and len(half) == 2):
                raise InvalidData(f"{self.where}: {where}.halves[{k}] must be [species, symbol]")
            species, symbol = half
            if not (isinstance(species, str) and isinstance(symbol, str)):
                raise InvalidData(f"{self.where}: {where}.halves[{k}] must be [species, symbol]")
            sp = self._species.get(species)
            side = (("top", "bottom") if kind == "top-bottom" else ("left", "right"))[k]
            if sp is None or sp.is_tree:
                raise InvalidData(f"{self.where}: {where} names unknown species {species!r}")
            if not sp.fits(side):
                raise InvalidData(f"{self.where}: {where}: {species} cannot be a {side} half")
            if symbol not in self.symbols:
                raise InvalidData(f"{self.where}: {where} has unknown tree symbol {symbol!r}")
            out.append(Half(species, symbol))
        self._new_card(Card(id=self._int(raw.get("id"), f"{where}.id"), kind=kind,
                            halves=tuple(out)), where)

    def _check_totals(self) -> None:
        """Cross-check the card list against the species table and the component counts."""
        tally: dict[tuple[str, str, str], int] = {}
        for card in self._cards.values():
            if card.is_split:
                for side, half in zip(card.sides(), card.halves):
                    key = (half.species, side, half.symbol)
                    tally[key] = tally.get(key, 0) + 1
        for sp in self._species.values():
            if sp.is_tree:
                continue
            sides = ("left", "right") if sp.slot == "side" else (sp.slot,)
            for side in sides:
                expected = sp.copies[side] if sp.slot == "side" else sp.copies
                for sym in self.symbols:
                    found = tally.get((sp.name, side, sym), 0)
                    if found != expected.get(sym, 0):
                        raise InvalidData(
                            f"{self.where}: the card list has {found} {side} halves of "
                            f"{sp.name} with symbol {sym}, the species table says "
                            f"{expected.get(sym, 0)}")
        kinds: dict[str, int] = {}
        for card in self._cards.values():
            kinds[card.kind] = kinds.get(card.kind, 0) + 1
        counts = self.component_counts
        for kind in ("tree", "top-bottom", "left-right", "winter"):
            if kinds.get(kind, 0) != counts.get(kind):
                raise InvalidData(f"{self.where}: {kinds.get(kind, 0)} {kind} cards, "
                                  f"component_counts says {counts.get(kind)}")
        listed = sum(v for k, v in counts.items() if k != "total")
        if listed != counts.get("total"):
            raise InvalidData(f"{self.where}: component counts add up to {listed}, "
                              f"not {counts.get('total')}")

    # ----- look-ups -----------------------------------------------------------------------

    def card(self, cid: int) -> Card:
        try:
            return self._cards[cid]
        except (KeyError, TypeError):
            raise InvalidData(f"there is no card with id {cid!r} in the base game") from None

    @property
    def card_ids(self) -> tuple[int, ...]:
        return tuple(sorted(self._cards))

    @property
    def playable_ids(self) -> tuple[int, ...]:
        return tuple(c for c in self.card_ids if self._cards[c].kind != "winter")

    @property
    def winter_ids(self) -> tuple[int, ...]:
        return tuple(c for c in self.card_ids if self._cards[c].kind == "winter")

    def species(self, name: str) -> Species:
        """A species by name (any letter case); a clear error naming close matches."""
        exact = self._species.get(name) if isinstance(name, str) else None
        if exact is not None:
            return exact
        if isinstance(name, str):
            real = self._lower.get(plain_name(name))
            if real is None and plain_name(name).endswith(" tree"):
                # a tree as printed on its card ("Linden Tree")
                real = self._lower.get(plain_name(name)[:-len(" tree")].strip())
                real = real if real is not None and self._species[real].is_tree else None
            if real is not None:
                return self._species[real]
        close = [n for n in self._species if isinstance(name, str) and name
                 and name.strip().lower()[:4] in n.lower()]
        hint = f" Did you mean {', '.join(close[:3])}?" if close else ""
        raise InvalidData(f"{name!r} is not a species of the Forest Shuffle base game.{hint}")

    def all_species(self) -> list[Species]:
        return list(self._species.values())

    def tree_species(self) -> list[str]:
        return [s.name for s in self._species.values() if s.is_tree]

    def symbol(self, name: str) -> str:
        """A tree symbol by name (any case)."""
        if isinstance(name, str):
            text = plain_name(name)
            if text.endswith(" tree"):
                text = text[:-len(" tree")].strip()
            for s in self.symbols:
                if s.lower() == text:
                    return s
        raise InvalidData(f"{name!r} is not a tree symbol of the base game "
                          f"(one of {', '.join(self.symbols)})")


#: typographic quotes (as printed on the cards) and their plain equivalents
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'", "\u00b4": "'"})


def plain_name(name: str) -> str:
    """A name as the look-ups compare it: lower case, single spaces, straight apostrophes
    (so "Bechstein\u2019s Bat" as printed finds "Bechstein's Bat").

    >>> plain_name("  Bechstein\u2019s   BAT ")
    "bechstein's bat"
    """
    return " ".join(name.translate(_QUOTES).split()).lower()


def _data_text(name: str) -> str:
    """The text of a file shipped in this package's ``data/`` folder."""
    return resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
