"""Computer players for Inori.

The greedy player is the shared :class:`~pangaea_lab.core.players.GreedyPlayer` with Inori's
own measure of a move, :func:`evaluate`: how much the player's *outlook* (points now, plus what
the season's cards and the altar majorities would give if they were scored now, plus a little
for favor tokens and runes) improves.

>>> from pangaea_lab import inori
>>> from pangaea_lab.core.players import play_game
>>> final = play_game(inori.new_game(players=2, seed=1), [OutlookPlayer(1), RandomPlayer(2)])
>>> final.is_over
True
"""

from __future__ import annotations

from ..core.players import GreedyPlayer, RandomPlayer
from ..core.protocol import Action
from .scoring import score_card, score_majorities
from .state import GameState

__all__ = ["BOTS", "OutlookPlayer", "RandomPlayer", "evaluate", "outlook"]


def outlook(s: GameState, player: int) -> float:
    """Points now, plus what the season's cards and the altar majorities would give if they
    were scored now, plus a little for every favor token and rune held."""
    ed = s.edition
    value = float(sum(s.points[player]))
    if s.over:
        return value
    for cid, spaces in s.slots:
        r = score_card(ed, cid, spaces, s.favor)
        if r["complete"]:
            value += r["points"].get(player, 0)
        elif player in r["present"]:
            # an incomplete card counts for part of what it would give, by how full it is
            filled = sum(1 for o in spaces if o) / len(spaces)
            value += 0.5 * filled * s.favor[player][ed.colours.index(ed.cards[cid].colour)]
    for m in score_majorities(ed, s.altars, s.favor):
        value += m["points"].get(player, 0)
    return value + 0.3 * sum(s.favor[player]) + 0.5 * len(s.rune_hands[player])


def evaluate(s: GameState, action: Action, player: int) -> float:
    """The change in :func:`outlook` that ``action`` brings (the greedy player's measure, and
    the state's ``evaluate`` hook)."""
    return outlook(s.apply(action), player) - outlook(s, player)


class OutlookPlayer(GreedyPlayer):
    """Takes the move that improves its :func:`outlook` most; ties broken by seed."""

    name = "greedy"

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed, value=evaluate)


#: the computer players by the names the widgets and the simulation lab use
BOTS = {"random": RandomPlayer, "greedy": OutlookPlayer}
