"""The components of a game of Harmonies, read from ``data/``: the rules data (token mix,
stacking chart, central board numbers, landscape points, solo bands, labelled assumptions)
and the animal and spirit cards.

:func:`load_edition` is the one loader: with no argument it gives the shipped edition; given
a folder it reads your own ``animals.json`` and ``spirits.json`` from it (same format as the
shipped files, validated the same way) with the shipped rules data.

>>> e = load_edition()
>>> len(e.cards), e.rules["central_board"]["animal_cubes"] > 0, e.label
(42, True, 'shipped reference data')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from ..core.errors import InvalidData
from .cards import Card, _load, all_cards, load_cards


@lru_cache(maxsize=None)
def rules_data() -> dict:
    """The token mix, stacking chart, landscape points and solo bands from ``data/rules.json``."""
    text = resources.files(__package__).joinpath("data").joinpath("rules.json").read_text("utf-8")
    return json.loads(text)


def assumptions() -> list[dict]:
    """The modelling choices where public sources are silent or disagree, each with its
    source label (``rulebook`` / ``public source`` / ``assumption``)."""
    return [dict(a) for a in rules_data()["assumptions"]]


def data_sources() -> dict[str, str]:
    """The source label of each shipped data set."""
    d = rules_data()
    out = {k: d[k]["source"] for k in ("tokens", "legal_stacks", "central_board",
                                       "landscapes", "solo")}
    out["animal cards"] = _load("animals.json", None)["source"]
    out["spirit cards"] = _load("spirits.json", None)["source"]
    return out


@dataclass(frozen=True)
class Edition:
    """One set of components: the rules data and every card by number."""

    rules: Mapping[str, Any]
    cards: Mapping[int, Card]
    #: where the components come from, in words
    label: str

    def sources(self) -> dict[str, str]:
        """The source label of each data set (the shipped labels for shipped data)."""
        out = data_sources()
        if self.label != SHIPPED:
            out["animal cards"] = out["spirit cards"] = self.label
        return out


SHIPPED = "shipped reference data"


@lru_cache(maxsize=None)
def _shipped() -> Edition:
    return Edition(rules_data(), all_cards(), SHIPPED)


def load_edition(source: str | Path | None = None) -> Edition:
    """The shipped edition (``source=None``), or the cards of a folder holding your own
    ``animals.json`` and ``spirits.json``; a bad file raises :class:`InvalidData` naming the
    field."""
    if source is None:
        return _shipped()
    if not isinstance(source, (str, Path)):
        raise InvalidData(f"an edition is a folder holding animals.json and spirits.json, "
                          f"not {type(source).__name__}")
    folder = Path(source)
    cards = load_cards(folder / "animals.json", folder / "spirits.json")
    return Edition(rules_data(), cards, f"cards from {folder}")
