"""The game's component data: the shipped base-game card set (``data/cards.json``), a card set
from a user's file in the same format, and the setup numbers and labelled assumptions of
``data/rules.json``.  :func:`load_edition` is the one loader; ``catalog``, ``load_catalog`` and
``rules_data`` are its older names.

A save names no edition: a game is always played with the shipped cards, so a save holds card
ids only.  A user's file is read only by an explicit call with its path.

>>> load_edition().card(72).name
'European Hare / Red Fox'
>>> rules_data()["players"]
{'min': 2, 'max': 5}
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import InvalidData
from ..core.jsonio import load_file, parse
from .cards import Catalog, _data_text

#: the source labels every entry of the data files carries
SOURCES = ("rulebook", "public source", "assumption")


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The shipped base-game card set (loaded and validated once)."""
    return Catalog(parse(_data_text("cards.json"), what="data file 'cards.json'"))


def load_catalog(path: str | Path) -> Catalog:
    """A card set from a user's JSON file in the same format, validated."""
    return Catalog(load_file(path), where=str(path))


def load_edition(source: Any = None) -> Catalog:
    """The card set: the shipped one (``source=None``), a :class:`Catalog` as it is, or one
    read from a user's JSON file (a path), validated."""
    if source is None:
        return catalog()
    if isinstance(source, Catalog):
        return source
    if isinstance(source, (str, Path)):
        return load_catalog(source)
    raise InvalidData(f"a Forest Shuffle card set is loaded from a file path, not from "
                      f"{type(source).__name__}")


@lru_cache(maxsize=1)
def rules_data() -> dict:
    """Setup numbers and labelled assumptions from ``data/rules.json``."""
    data = parse(_data_text("rules.json"), what="data file 'rules.json'")
    for entry in data["assumptions"]:
        if entry.get("source") not in SOURCES:
            raise InvalidData(f"rules.json: assumption {entry.get('id')!r} needs a source label")
        if "older_saves_lack" in entry and (entry["older_saves_lack"] is not True
                                            or not entry.get("option")):
            raise InvalidData(f"rules.json: assumption {entry.get('id')!r}: older_saves_lack "
                              "is only written as true, on an option")
    return data
