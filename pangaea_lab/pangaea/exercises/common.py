"""What the Pangaea exercise modules share: words for lists, numbers and spaces, the small
hand-built continents and games they ask about, their drawing, and the retry loop that looks
for a fitting position.  The verdicts themselves come from :mod:`pangaea_lab.core.exercises`
(``cells_verdict``, ``choice_verdict``, ``choices_verdict``, ``number_verdict``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping, Sequence

from ...core.errors import InvalidSetup
from ...core.exercises import cell_text
from ..board import Board
from ..edition import load_edition
from ..render import board_svg
from ..rituals import NOBODY
from ..setup import new_game
from ..state import PLAYER_NAMES, GameState

RED = 0
#: how many positions a kind may build before it gives up
TRIES = 400
WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve")


# ----- words ----------------------------------------------------------------------------------


def in_words(n: int) -> str:
    """A small count in words, so that a hint or reason quoting a count never reads like an
    answer typed in digits.

    >>> in_words(3), in_words(12), in_words(15)
    ('three', 'twelve', '15')
    """
    return WORDS[n] if 0 <= n < len(WORDS) else str(n)


def and_list(items: Iterable) -> str:
    """Items in words: "a, b and c" ("" for none).

    >>> and_list(["Red"]), and_list(["Red", "Blue"]), and_list("abc"), and_list([])
    ('Red', 'Red and Blue', 'a, b and c', '')
    """
    items = [str(x) for x in items]
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def cells_words(cells: Iterable) -> str:
    """Spaces as the learner reads them, in board order.

    >>> cells_words({(3, 1), (0, 1), (2, 0)})
    '(0, 1), (2, 0) and (3, 1)'
    """
    return and_list(cell_text(c) for c in sorted(cells))


def player_names(players: Iterable[int]) -> str:
    """Players by name: "Red, Blue and Orange"."""
    return and_list(PLAYER_NAMES[p] for p in players)


def owned_piece(state: GameState, cell) -> str:
    """The Tree or Seed on a space with its owner ("Blue's Tree"), or "" when neither is."""
    i = state.board.index[tuple(cell)]
    if state.trees[i] != NOBODY:
        return f"{PLAYER_NAMES[state.trees[i]]}'s Tree"
    if state.seeds[i] != NOBODY:
        return f"{PLAYER_NAMES[state.seeds[i]]}'s Seed"
    return ""


def number_misconceptions(right: int, wrongs: Iterable[tuple[int, str, str]]
                          ) -> dict[int, tuple[str, str]]:
    """value -> (misconception, reason) for ``number_verdict``, from the typical wrong counts
    (value, misconception, reason) of a position: the first one listed for a value wins, a
    value equal to the right count or below zero is no mistake to diagnose."""
    known: dict[int, tuple[str, str]] = {}
    for value, name, reason in wrongs:
        if value != right and value >= 0 and value not in known:
            known[value] = (name, reason)
    return known


def named(why: Callable[[Any], str], name: Callable[[Any], str] | Mapping[Any, str]
          ) -> Callable[[Any], tuple[str, str]]:
    """A diagnosis for core's verdict helpers: ``why(x)`` (the rule a clicked space or a
    picked option breaks) with ``name(x)`` (a function or a mapping; "" where none) as the
    typical mistake it shows.

    >>> named(lambda c: "it is water.", {(0, 1): "water-counted"})((0, 1))
    ('water-counted', 'it is water.')
    >>> named(lambda c: "it is water.", {})((2, 2))
    ('', 'it is water.')
    """
    lookup = name.get if isinstance(name, Mapping) else name
    return lambda x: (lookup(x) or "", why(x))


# ----- positions ------------------------------------------------------------------------------


def grid(cols: int, rows: int) -> list[tuple[int, int]]:
    """A compact block of spaces: ``rows`` rows of ``cols`` hexes, drawn as a rectangle."""
    return [(q - r // 2, r) for r in range(rows) for q in range(cols)]


def continent(rng: random.Random, cols: int, rows: int, water: int
              ) -> tuple[dict, list[tuple[int, int]]]:
    """A small continent on :func:`grid`: (spaces for ``custom_board``, its ``water`` Water
    Spaces in the order drawn); the other spaces are land of random biomes."""
    biomes = load_edition().biomes
    cells = grid(cols, rows)
    wet = rng.sample(cells, water)
    drawn = set(wet)
    spaces = {c: ("water", biomes[0]) if c in drawn else ("land", rng.choice(biomes))
              for c in cells}
    return spaces, wet


def random_owners(rng: random.Random, cells: Iterable, caps: Mapping[int, int]) -> dict:
    """Each cell given to a random player who still has pieces left (``caps``: pieces per
    player); cells left over stay empty."""
    left = dict(caps)
    out = {}
    for cell in cells:
        able = [p for p, n in left.items() if n > 0]
        if not able:
            break
        p = rng.choice(able)
        out[cell] = p
        left[p] -= 1
    return out


def red_first(state: GameState) -> GameState:
    """The same position with Red (player 1) to play the first action of the turn."""
    return replace(state, first_player=RED, turn_player=RED)


def game(board: Board | None = None, seed: int = 0, players: int = 2,
         arranged: Mapping | None = None, **options) -> GameState:
    """A new game on ``board`` (``options`` as for ``new_game``), Red to move, with the pieces
    ``arranged`` by hand (trees=..., seeds=..., spirits=...)."""
    state = red_first(new_game(players=players, seed=seed, board=board, **options))
    return state.arranged(**arranged) if arranged else state


def first_fit(rng: random.Random, build: Callable[[random.Random], Any], what: str) -> Any:
    """The first thing ``build(rng)`` returns that is not None (a position that fits the
    question), trying at most :data:`TRIES` times on the one random stream."""
    for _ in range(TRIES):
        found = build(rng)
        if found is not None:
            return found
    raise InvalidSetup(f"no position found for {what}")


# ----- drawings -------------------------------------------------------------------------------


def drawer(state: GameState, kind: str = "cells", base: dict | None = None,
           paths: Sequence = (), path_labels: Sequence[str] = (), status: bool = False
           ) -> Callable:
    """``draw(marked)``: the position with the marked spaces outlined and labelled (a tick for a
    set of spaces, the step numbers 1, 2, 3... for a path), players' initials on the pieces,
    ``base`` badges (A, B, ?) on the spaces the question names."""

    def draw(marked: Iterable = ()) -> str:
        marked = [tuple(c) for c in marked]
        labels = dict(base or {})
        for k, cell in enumerate(marked):
            labels[cell] = str(k + 1) if kind == "path" else labels.get(cell, "✓")
        return board_svg(state, highlight=marked, chain=kind == "path", labels=labels,
                         letters=True, status=status, paths=paths, path_labels=path_labels)

    return draw

