"""A run's summary built game by game while it plays, so that a run of any length holds a
few counters rather than its table: per seat, per bot over every seat it took, the co-op
team's win rate and how the games ended (``ended_by``).

Its figures are those :func:`~pangaea_lab.sim.stats.summary_figures` reads from the whole
games table (the same counts, sums and intervals, records in the same order), whatever order
the games arrive in.

>>> tally = Tally()
>>> tally.add([{"seed": 0, "players": 1, "winners": 1, "cooperative": True,
...             "ended_by": "rules", "p0_bot": "greedy", "p0_won": True, "p0_total": 30}])
>>> tally.lines()
['1 games', 'the team (greedy): mean 30.0 points, won 100.0% of the games (95% interval 20.7% to 100.0%)']
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Iterable

from .stats import figures_lines, wilson


class _Count:
    """Games (or seat-games), points and wins of one seat or one bot.  A win shared by ``k``
    players counts ``1/k``: kept as counts per ``k``, so the order of the games never changes
    the sum."""

    def __init__(self) -> None:
        self.games = 0
        self.points = 0
        self.wins_by_k: Counter[int] = Counter()

    def add(self, points: int, won: bool, winners: int) -> None:
        self.games += 1
        self.points += points
        if won:
            self.wins_by_k[winners] += 1

    def record(self) -> dict[str, Any]:
        wins = sum(n / k for k, n in sorted(self.wins_by_k.items()))
        low, high = wilson(wins, self.games)
        return {"games": self.games, "wins": wins, "win_rate": wins / self.games,
                "low": low, "high": high, "mean_points": self.points / self.games}


class Tally:
    """The summary of the games added so far (rows as the lab writes them)."""

    def __init__(self) -> None:
        self.games = 0
        self.players = 0
        self.all_cooperative = True
        self.team_wins = 0
        self.team_points = 0
        self.ended_by: Counter[str] = Counter()
        self.seats: list[_Count] = []
        self.seat_bots: list[set[str]] = []
        self.bots: dict[str, _Count] = {}
        #: where each bot first shows in the table read seat by seat: (seat, seed)
        self.first_seen: dict[str, tuple[int, int]] = {}

    def add(self, rows: Iterable[dict[str, Any]]) -> None:
        """Count the games of ``rows`` (any order; each game once)."""
        for row in rows:
            self._add(row)

    def _add(self, row: dict[str, Any]) -> None:
        if not self.games:
            self.players = int(row["players"])
            self.seats = [_Count() for _ in range(self.players)]
            self.seat_bots = [set() for _ in range(self.players)]
        self.games += 1
        winners = int(row["winners"])
        self.all_cooperative = self.all_cooperative and bool(row.get("cooperative"))
        self.team_wins += winners > 0
        self.team_points += int(row["p0_total"])
        if "ended_by" in row:
            self.ended_by[str(row["ended_by"])] += 1
        seed = int(row["seed"])
        for seat in range(self.players):
            bot, won = str(row[f"p{seat}_bot"]), bool(row[f"p{seat}_won"])
            points = int(row[f"p{seat}_total"])
            self.seats[seat].add(points, won, winners)
            self.seat_bots[seat].add(bot)
            self.bots.setdefault(bot, _Count()).add(points, won, winners)
            where = (seat, seed)
            if where < self.first_seen.get(bot, (math.inf, 0)):
                self.first_seen[bot] = where

    def figures(self) -> dict[str, Any]:
        """The figures of :func:`~pangaea_lab.sim.stats.summary_figures`."""
        figures: dict[str, Any] = {"games": self.games, "kind": "seats", "records": [],
                                   "ended_by": dict(self.ended_by)}
        if not self.games:
            return figures
        if self.all_cooperative:
            low, high = wilson(self.team_wins, self.games)
            bots = sorted({b for seat in self.seat_bots for b in seat})
            figures.update(kind="team", records=[{
                "games": self.games, "wins": self.team_wins,
                "win_rate": self.team_wins / self.games, "low": low, "high": high,
                "mean_points": self.team_points / self.games, "bots": bots}])
        elif all(len(bots) == 1 for bots in self.seat_bots):
            figures["records"] = [
                {"seat": seat, "bot": next(iter(self.seat_bots[seat])),
                 **{k: v for k, v in count.record().items() if k in _SEAT_FIELDS}}
                for seat, count in enumerate(self.seats)]
        else:
            order = sorted(self.bots, key=self.first_seen.__getitem__)
            records = [{"bot": bot, **self.bots[bot].record()} for bot in order]
            records.sort(key=lambda r: -r["win_rate"])   # stable: ties keep the table's order
            figures.update(kind="bots", records=records)
        return figures

    def lines(self) -> list[str]:
        """The summary in a few plain lines (those of
        :func:`~pangaea_lab.sim.stats.summary_lines`)."""
        return figures_lines(self.figures())


_SEAT_FIELDS = ("mean_points", "win_rate", "low", "high")


def summary_columns(name: str) -> bool:
    """The columns a run's summary reads: the game-wide ones and each seat's bot, win and
    total (the seats' score categories are left out)."""
    head, _, rest = name.partition("_")
    if head[:1] == "p" and head[1:].isdigit():
        return rest in ("bot", "won", "total")
    return True
