"""Points, the Sacred Mountain track, the Most Trees achievement and the winner."""

from __future__ import annotations

from typing import Sequence

from ..core.protocol import ScoreBreakdown


def mountain_position(points: int, summit: int) -> tuple[int, int]:
    """``(step, summit markers)`` for a score: passing the summit takes a marker and counting
    goes on from 1 (End of the Game).

    >>> mountain_position(30, 30), mountain_position(33, 30)
    ((30, 0), (3, 1))
    """
    if points <= 0:
        return (0, 0)
    return ((points - 1) % summit + 1, (points - 1) // summit)


def most_trees_holder(tree_counts: Sequence[int], minimum: int) -> int:
    """Achievement: Most Trees goes to the one player with at least ``minimum`` Trees and
    more than everybody else; on a tie, or if nobody has enough, nobody holds it (-1).

    >>> most_trees_holder([5, 4, 2], 5), most_trees_holder([6, 6], 5), most_trees_holder([4, 1], 5)
    (0, -1, -1)
    """
    best = max(tree_counts)
    if best < minimum or list(tree_counts).count(best) > 1:
        return -1
    return list(tree_counts).index(best)


def breakdown(player: int, creature: int, land: int, most_trees: int,
              final: bool, board: int | None = None) -> ScoreBreakdown:
    """A player's points by category; the Most Trees bonus (and in Wild Woods the free slots
    of the Player Board) count only in the final scoring."""
    cats = [("Creature Rituals", creature), ("Land Rituals", land)]
    if final:
        cats.append(("Most Trees", most_trees))
        if board is not None:
            cats.append(("Player Board", board))
    return ScoreBreakdown(player=player, categories=tuple(cats))


def rank(totals: Sequence[int], weather_left: Sequence[int]) -> list[int]:
    """Winners: most points; a tie goes to most Weather Tokens left; still tied, they share.

    >>> rank([20, 20, 18], [3, 5, 9]), rank([20, 20], [4, 4])
    ([1], [0, 1])
    """
    best = max(totals)
    tied = [p for p, t in enumerate(totals) if t == best]
    most = max(weather_left[p] for p in tied)
    return [p for p in tied if weather_left[p] == most]
