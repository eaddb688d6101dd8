"""Inori cards, card spaces and their effects, read from an edition file.

A card has a colour, a top-right colour (the colour a complete card is replaced by and that it
scores) and a bottom-right colour (the colour of the replacement when it stays incomplete).
Along its top edge it has 2 to 4 spaces; each space has an optional cost and one effect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.errors import InvalidData

#: card effect types (rules summary, "Offer to a Card"), with the fields each one needs
CARD_EFFECTS: dict[str, tuple[str, ...]] = {
    "favor": ("colours",),            # favor tokens of set colours
    "favor_least": ("count",),        # favor tokens of your least-held colour
    "rune": ("count",),               # draw Rune tiles
    "points_distinct": (),            # 1 point per distinct colour you hold
    "points_colour": ("colour",),     # 1 point per token of a named colour
    "points_majority": (),            # 1 point per token of your majority colour
}

CARD_TYPES = ("start", "new_start", "journey")


@dataclass(frozen=True)
class Effect:
    """One effect: its ``type`` and parameters (``colours``, ``colour``, ``count``, ``block``)."""

    type: str
    colours: tuple[str, ...] = ()
    colour: str | None = None
    count: int = 1
    block: int = 0

    def describe(self, names: dict[str, str] | None = None, altar: str | None = None) -> str:
        """Plain words, e.g. "gain Water + Fire favor"."""
        def nm(c: str | None) -> str:
            if c is None:
                return "altar-colour"
            return (names or {}).get(c, c)
        t = self.type
        if t == "favor":
            return "gain " + " + ".join(nm(c) for c in self.colours) + " favor"
        if t == "favor_least":
            return f"gain {self.count} favor of your least-held colour"
        if t == "rune":
            return "draw a Rune tile" if self.count == 1 else f"draw {self.count} Rune tiles"
        if t == "points_distinct":
            return "1 point per distinct colour you hold"
        if t == "points_colour":
            return f"1 point per {nm(self.colour)} token you hold"
        if t == "points_majority":
            return "1 point per token of your majority colour"
        if t == "favor_any":
            return f"take any {self.count} favor tokens"
        if t == "points":
            return f"score {self.count} points"
        if t == "rune_and_altar_favor":
            return f"draw a Rune tile and gain {self.count} {nm(altar)} favor"
        if t == "points_altar_colour":
            return f"1 point per {nm(altar)} token you hold"
        if t == "block_and_altar_favor":
            return (f"block {self.block} card spaces with the neutral markers and gain "
                    f"{self.count} {nm(altar)} favor")
        if t == "altar_favor":
            return f"gain {self.count} {nm(altar)} favor"
        if t == "set_aside":
            return "take the favor tokens set aside at setup"
        return t


@dataclass(frozen=True)
class Space:
    """A space on a card's top edge: ``cost`` is None, ``"majority"`` or a colour id."""

    cost: str | None
    effect: Effect


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    type: str
    colour: str
    complete_colour: str
    incomplete_colour: str
    spaces: tuple[Space, ...]
    incomplete_score: str | None = None
    source: str = "assumption"
    #: the first season this card may come into play (a replacement drawn for an earlier
    #: season passes over it); 1 for most cards
    earliest_season: int = 1


def parse_effect(raw: Any, where: str, colours: set[str], allowed: dict[str, tuple[str, ...]]
                 ) -> Effect:
    """An :class:`Effect` from its JSON object, or :class:`InvalidData` naming the field."""
    if not isinstance(raw, dict):
        raise InvalidData(f"{where} must be a JSON object with a 'type'")
    kind = raw.get("type")
    if kind not in allowed:
        raise InvalidData(f"{where}.type: unknown effect {kind!r} "
                          f"(known here: {', '.join(sorted(allowed))})")
    for need in allowed[kind]:
        if need not in raw:
            raise InvalidData(f"{where}: effect {kind!r} needs the field {need!r}")
    cols = raw.get("colours", [])
    if not isinstance(cols, list) or not cols and "colours" in allowed[kind]:
        raise InvalidData(f"{where}.colours must be a non-empty list of colour ids")
    for c in cols:
        if not isinstance(c, str) or c not in colours:
            raise InvalidData(f"{where}.colours: unknown colour {c!r} "
                              f"(known: {', '.join(sorted(colours))})")
    colour = raw.get("colour")
    if colour is not None and (not isinstance(colour, str) or colour not in colours):
        raise InvalidData(f"{where}.colour: unknown colour {colour!r} "
                          f"(known: {', '.join(sorted(colours))})")
    count = raw.get("count", 1)
    block = raw.get("block", 2 if kind == "block_and_altar_favor" else 0)
    for name, value in (("count", count), ("block", block)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
            raise InvalidData(f"{where}.{name} must be a whole number from 0 to 20, "
                              f"found {value!r}")
    return Effect(type=kind, colours=tuple(cols), colour=colour, count=count, block=block)


def parse_card(raw: Any, where: str, colours: set[str]) -> Card:
    """A :class:`Card` from its JSON object, checking every field."""
    if not isinstance(raw, dict):
        raise InvalidData(f"{where} must be a JSON object")
    for key in ("id", "name", "type", "colour", "complete_colour", "incomplete_colour",
                "spaces"):
        if key not in raw:
            raise InvalidData(f"{where}: missing field {key!r}")
    for key in ("id", "name"):
        if not isinstance(raw[key], str) or not raw[key]:
            raise InvalidData(f"{where}.{key} must be a non-empty text")
    where = f"{where} ({raw['id']})"
    if raw["type"] not in CARD_TYPES:
        raise InvalidData(f"{where}.type must be one of {', '.join(CARD_TYPES)}, "
                          f"found {raw['type']!r}")
    for key in ("colour", "complete_colour", "incomplete_colour"):
        if not isinstance(raw[key], str) or raw[key] not in colours:
            raise InvalidData(f"{where}.{key}: unknown colour {raw[key]!r} "
                              f"(known: {', '.join(sorted(colours))})")
    if raw["complete_colour"] != raw["colour"]:
        raise InvalidData(f"{where}.complete_colour must equal the card's own colour "
                          f"(the top-right corner shows the card's colour)")
    if raw["incomplete_colour"] == raw["colour"]:
        raise InvalidData(f"{where}.incomplete_colour must differ from the card's colour "
                          f"(the bottom-right corner shows another colour)")
    spaces_raw = raw["spaces"]
    if not isinstance(spaces_raw, list) or not 1 <= len(spaces_raw) <= 6:
        raise InvalidData(f"{where}.spaces must be a list of 1 to 6 spaces")
    spaces = []
    for i, sp in enumerate(spaces_raw):
        sw = f"{where}.spaces[{i}]"
        if not isinstance(sp, dict) or "effect" not in sp:
            raise InvalidData(f"{sw} must be an object with 'cost' and 'effect'")
        cost = sp.get("cost")
        if cost is not None and cost != "majority" and (not isinstance(cost, str)
                                                        or cost not in colours):
            raise InvalidData(f"{sw}.cost must be null, \"majority\" or a colour id, "
                              f"found {cost!r}")
        spaces.append(Space(cost=cost, effect=parse_effect(sp["effect"], f"{sw}.effect",
                                                           colours, CARD_EFFECTS)))
    inc = raw.get("incomplete_score")
    inc_colour = None
    if inc is not None:
        if not isinstance(inc, dict) or not isinstance(inc.get("colour"), str) \
            or inc.get("colour") not in colours:
            raise InvalidData(f"{where}.incomplete_score must be null or "
                              f"{{\"colour\": <colour id>}}")
        inc_colour = inc["colour"]
    source = raw.get("source", "assumption")
    if not isinstance(source, str):
        raise InvalidData(f"{where}.source must be a text label")
    earliest = raw.get("earliest_season", 1)
    if isinstance(earliest, bool) or not isinstance(earliest, int) or not 1 <= earliest <= 20:
        raise InvalidData(f"{where}.earliest_season must be a whole number from 1 to 20, "
                          f"found {earliest!r}")
    if earliest > 1 and raw["type"] != "journey":
        raise InvalidData(f"{where}.earliest_season: only journey cards wait for a later "
                          f"season (start and New Start cards come when they are dealt)")
    return Card(id=raw["id"], name=raw["name"], type=raw["type"], colour=raw["colour"],
                complete_colour=raw["complete_colour"],
                incomplete_colour=raw["incomplete_colour"], spaces=tuple(spaces),
                incomplete_score=inc_colour, source=source, earliest_season=earliest)
