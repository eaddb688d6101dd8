"""The answers the statistics pages open with, kept as package data, so that a page starts
without playing games and without loading pandas, matplotlib or the other games.

A statistics page asks each of its questions once as it opens (:mod:`.widgets`), always with
the same choices and seeds, so the answer is always the same.  The engine computes those
answers once (``python -m pangaea_lab.sim.opening_writer`` writes ``data/openings.json``): for each,
the chart, the sentence, the numbers behind the chart and the first games, exactly as the
widget shows them after a Run; with them the questions' choices (players, computer players,
default numbers), read from :data:`.questions.QUESTIONS`.  ``tests/sim/test_sim_openings.py``
plays every stored opening again and fails when anything differs (a rule or a computer player
changed: run the command again).  Pressing Run plays the games, as before.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

#: the stored openings and question choices
FILE = Path(__file__).resolve().parent / "data" / "openings.json"

#: the questions the statistics pages ask as they open, with their choices (as in the pages)
PAGE_QUESTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("pangaea.first_player", {"games": 20, "bots": ["forester"]}),
    ("pangaea.land_rituals", {"games": 12}),
    ("pangaea.tournament", {"games": 4}),
    ("harmonies.first_player", {"games": 40}),
    ("harmonies.animal_cards", {"games": 8}),
    ("harmonies.tournament", {"games": 4}),
    ("forest_shuffle.first_player", {"games": 40}),
    ("forest_shuffle.winning_species", {"games": 40}),
    ("forest_shuffle.tournament", {"games": 4}),
    ("inori.first_player", {"games": 60}),
    ("inori.point_sources", {"games": 20}),
    ("inori.tournament", {"games": 4}),
)


@dataclass(frozen=True)
class Choices:
    """What a question's widget offers (the fields of :class:`.questions.Question` that the
    widget reads, without the function that answers it)."""

    key: str
    title: str
    players: tuple[int, int]
    bots: tuple[str, ...]
    default_bots: tuple[str, ...]
    default_players: int
    default_games: int
    tournament: bool


def opening_key(key: str, bots: Sequence[str], games: int, players: int) -> str:
    """The name of an opening: the question and the widget's choices."""
    return f"{key} | {','.join(bots)} | {games} games | {players} players"


@lru_cache(maxsize=1)
def _stored() -> dict[str, Any]:
    try:
        return json.loads(FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):       # no stored openings: every page plays its games
        return {"questions": {}, "openings": {}}


def choices_of(key: str) -> Choices | None:
    """A question's choices from the stored file (None for a question not stored there)."""
    facts = _stored()["questions"].get(key)
    if facts is None:
        return None
    return Choices(key=key, title=facts["title"], players=tuple(facts["players"]),
                   bots=tuple(facts["bots"]), default_bots=tuple(facts["default_bots"]),
                   default_players=facts["default_players"],
                   default_games=facts["default_games"], tournament=facts["tournament"])


def opening(key: str, bots: Sequence[str], games: int, players: int) -> dict[str, Any] | None:
    """The stored opening for these choices: ``png`` (bytes), ``text``, ``numbers_html``,
    ``numbers_text`` and ``games_html``; None when it is not stored."""
    found = _stored()["openings"].get(opening_key(key, bots, games, players))
    if found is None:
        return None
    return {**found, "png": base64.b64decode(found["png"])}
