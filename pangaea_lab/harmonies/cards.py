"""Animal cards and Nature's Spirit cards, loaded from ``data/*.json`` and validated.

Every card has a habitat: the stack its cube goes on (``cube``) and the other stacks around it
(``others``, axial offsets from the cube's hex).  Stacks are written as short codes: ``W`` water,
``Y`` field, ``M1``-``M3`` mountains, ``T1``-``T3`` trees, ``BLD`` a building.

>>> card("Fennec Fox").points
(4, 9, 16)
>>> card(33).name, card("lion's spirit").is_spirit
('Lion', True)
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import InvalidData
from ..core.jsonio import field, load_file

STACK_CODES = ("W", "Y", "M1", "M2", "M3", "T1", "T2", "T3", "BLD")
SHAPES = ("pair", "line", "triangle", "V", "rhombus")
SPIRIT_COUNTS = ("yellow_groups", "water_groups", "building_groups", "trees", "mountains",
                 "blue_tokens")


@dataclass(frozen=True)
class Card:
    """One animal or spirit card.  ``points`` run bottom to top, one per cube."""

    id: int
    name: str
    points: tuple[int, ...]
    cube: str
    others: tuple[tuple[int, int, str], ...]
    shape: str
    aliases: tuple[str, ...] = ()
    # spirit cards only
    colour: str = ""
    family: str = ""
    count: str = ""
    count_points: tuple[int, ...] = ()
    solo_suns: int = 0

    @property
    def is_spirit(self) -> bool:
        return bool(self.family)

    @property
    def cubes(self) -> int:
        """How many cubes the card holds when taken (1 for a spirit)."""
        return len(self.points)

    def value(self, placed: int) -> int:
        """Points of an animal card with ``placed`` cubes already on the board."""
        return self.points[placed - 1] if placed > 0 else 0

    def habitat_text(self) -> str:
        """The habitat in plain words, e.g. ``"cube on M1; Y at (-2, 0), M1 at (-1, 0)"``."""
        rest = ", ".join(f"{code} at ({q}, {r})" for q, r, code in self.others)
        return f"cube on {self.cube}; {rest}"

    def __str__(self) -> str:
        return f"{self.name} (#{self.id})"


def _load(name: str, path: str | Path | None) -> dict:
    if path is None:
        text = resources.files(__package__).joinpath("data").joinpath(name).read_text("utf-8")
        return json.loads(text)
    data = load_file(path, what="card file")
    if not isinstance(data, dict):
        raise InvalidData(f"the card file {path} must hold a JSON object")
    return data


def _parse_card(raw: Any, where: str, spirit: bool) -> Card:
    cid = field(raw, "id", int, where)
    name = field(raw, "name", str, where)
    where = f"{where} ({name})"
    cube = field(raw, "cube", str, where)
    if cube not in STACK_CODES:
        raise InvalidData(f"field {where}.cube: {cube!r} is not one of {STACK_CODES}")
    shape = field(raw, "shape", str, where)
    if shape not in SHAPES:
        raise InvalidData(f"field {where}.shape: {shape!r} is not one of {SHAPES}")
    others = []
    for item in field(raw, "others", list, where):
        if (not isinstance(item, list) or len(item) != 3 or item[2] not in STACK_CODES
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item[:2])):
            raise InvalidData(f"field {where}.others: each entry must be [q, r, code], "
                              f"found {item!r}")
        others.append((item[0], item[1], item[2]))
    aliases = tuple(field(raw, "aliases", list, where)) if "aliases" in raw else ()
    if spirit:
        scoring = field(raw, "scoring", dict, where)
        count = field(scoring, "count", str, f"{where}.scoring")
        if count not in SPIRIT_COUNTS:
            raise InvalidData(f"field {where}.scoring.count: {count!r} is not one of "
                              f"{SPIRIT_COUNTS}")
        family = field(raw, "family", str, where)
        if family not in ("groups", "number"):
            raise InvalidData(f"field {where}.family must be 'groups' or 'number'")
        pts = tuple(field(scoring, "points", list, f"{where}.scoring"))
        return Card(cid, name, (0,), cube, tuple(others), shape, aliases,
                    colour=field(raw, "colour", str, where), family=family, count=count,
                    count_points=pts, solo_suns=field(raw, "solo_suns", int, where))
    points = field(raw, "points", list, where)
    if not points or not all(isinstance(p, int) and not isinstance(p, bool) for p in points):
        raise InvalidData(f"field {where}.points must be a non-empty list of whole numbers")
    if list(points) != sorted(points):
        raise InvalidData(f"field {where}.points must run from low (bottom) to high (top)")
    return Card(cid, name, tuple(points), cube, tuple(others), shape, aliases)


def load_cards(animals: str | Path | None = None,
               spirits: str | Path | None = None) -> dict[int, Card]:
    """All cards by id, from the shipped data or from your own JSON files in the same format."""
    out: dict[int, Card] = {}
    for fname, path, spirit in (("animals.json", animals, False),
                                ("spirits.json", spirits, True)):
        data = _load(fname, path)
        raw_cards = data.get("cards")
        if not isinstance(raw_cards, list):
            raise InvalidData(f"missing list field 'cards' in {fname}")
        for i, raw in enumerate(raw_cards):
            c = _parse_card(raw, f"{fname} cards[{i}]", spirit)
            if c.id in out:
                raise InvalidData(f"{fname} cards[{i}]: card number {c.id} is used twice")
            out[c.id] = c
    return out


@lru_cache(maxsize=None)
def all_cards() -> dict[int, Card]:
    """The shipped 32 animal cards (ids 1-32) and 10 spirits (ids 33-42)."""
    return load_cards()


@lru_cache(maxsize=None)
def animal_ids() -> tuple[int, ...]:
    return tuple(i for i, c in all_cards().items() if not c.is_spirit)


@lru_cache(maxsize=None)
def spirit_ids() -> tuple[int, ...]:
    return tuple(i for i, c in all_cards().items() if c.is_spirit)


@lru_cache(maxsize=None)
def _names() -> dict[str, int]:
    out: dict[str, int] = {}
    for c in all_cards().values():
        for n in (c.name, *c.aliases):
            out.setdefault(n.lower(), c.id)
        if c.is_spirit:
            out.setdefault(f"{c.name.lower()}'s spirit", c.id)
            out.setdefault(f"{c.name.lower()} spirit", c.id)
    return out


def card(key: int | str | Card) -> Card:
    """A card by number (1-42), name or alternate name (any case); a clear error otherwise."""
    if isinstance(key, Card):
        return key
    cards = all_cards()
    if isinstance(key, int) and not isinstance(key, bool):
        if key in cards:
            return cards[key]
        raise InvalidData(f"there is no card number {key}; animals are 1-32, spirits 33-42")
    if isinstance(key, str):
        cid = _names().get(key.strip().lower())
        if cid is not None:
            return cards[cid]
        close = difflib.get_close_matches(key.strip().lower(), list(_names()), n=3)
        hint = f"; did you mean {', '.join(repr(c.title()) for c in close)}?" if close else ""
        raise InvalidData(f"unknown card name {key!r}{hint}")
    raise InvalidData(f"a card is named by its number or name, not {key!r}")
