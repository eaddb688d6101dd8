"""Ratings of computer players from the games of a tournament, with intervals.

The ratings come from openskill's Plackett-Luce model (a Bayesian rating for games of two or
more players, in the family of TrueSkill): every bot starts at the same rating (25, with an
uncertainty sigma of 25/3), and each game moves the ratings of the bots in it by how they
placed.  The interval is the rating plus or minus 1.96 sigma, the model's 95% band.

* The games are read in a fixed order (table by table, by seed), so the same games always give
  the same ratings.
* A game's places: the winners first (together when they share the win), then the others by
  their points, ties sharing a place.
* A bot that sits in several seats of one game (``greedy,random,random``) plays as one team of
  that many members, placed where its best seat placed; its new rating is the average of its
  members' new ratings.
* Games of one bot only tell nothing about the bots and are left out; co-op games have no
  opponents and are refused.

>>> from pangaea_lab.simulate import simulate
>>> games = simulate("inori", players=2, seeds=4, bots="greedy,random", progress=False)
>>> list(ratings([games]).bot)
['greedy', 'random']
"""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd
from openskill.models import PlackettLuce

from .games import SimulationError
from .stats import Z95


def _places(row: Any, players: int) -> list[int]:
    """Each seat's place (1 = best): winners first, then by points; equal places for ties."""
    keys = [(not bool(row[f"p{s}_won"]), -float(row[f"p{s}_total"])) for s in range(players)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def _game_teams(row: Any, players: int) -> tuple[list[str], list[int], list[int]]:
    """The bots of a game, each bot's number of seats and its best place."""
    places = _places(row, players)
    best: dict[str, int] = {}
    seats: dict[str, int] = {}
    for seat in range(players):
        bot = str(row[f"p{seat}_bot"])
        best[bot] = min(best.get(bot, players), places[seat])
        seats[bot] = seats.get(bot, 0) + 1
    bots = list(best)
    return bots, [seats[b] for b in bots], [best[b] for b in bots]


def ratings(tables: Sequence[pd.DataFrame] | pd.DataFrame) -> pd.DataFrame:
    """One line per bot, best first: the games it played, its rating (``mu``), ``sigma``, and
    the 95% band ``low`` to ``high`` (``mu`` plus or minus 1.96 ``sigma``)."""
    if isinstance(tables, pd.DataFrame):
        tables = [tables]
    model = PlackettLuce()
    rated: dict[str, Any] = {}
    played: dict[str, int] = {}
    for table in tables:
        if "cooperative" in table and table["cooperative"].any():
            raise SimulationError("co-op games have no opponents to rate the computer "
                                  "players against")
        players = int(table["players"].iloc[0])
        for row in table.sort_values("seed", kind="stable").to_dict("records"):
            bots, sizes, places = _game_teams(row, players)
            if len(bots) < 2:
                continue
            teams = [[rated.setdefault(b, model.rating(name=b))] * n
                     for b, n in zip(bots, sizes)]
            new = model.rate(teams, ranks=places)
            for bot, team in zip(bots, new):
                mu = sum(r.mu for r in team) / len(team)
                sigma = sum(r.sigma for r in team) / len(team)
                rated[bot] = model.rating(mu=mu, sigma=sigma, name=bot)
                played[bot] = played.get(bot, 0) + 1
    if not rated:
        raise SimulationError("ratings need games between at least two different computer "
                              "players")
    rows = [{"bot": bot, "games": played[bot], "rating": r.mu, "sigma": r.sigma,
             "low": r.mu - Z95 * r.sigma, "high": r.mu + Z95 * r.sigma}
            for bot, r in rated.items()]
    return pd.DataFrame(rows).sort_values(["rating", "bot"], ascending=[False, True],
                                          kind="stable").reset_index(drop=True)


def rating_gap(table: pd.DataFrame, better: str, worse: str) -> tuple[float, float, float]:
    """The difference of two bots' ratings and its 95% band (their sigmas combined as
    independent errors)."""
    a = table.set_index("bot").loc[better]
    b = table.set_index("bot").loc[worse]
    gap = float(a.rating - b.rating)
    half = Z95 * float((a.sigma ** 2 + b.sigma ** 2) ** 0.5)
    return gap, gap - half, gap + half
