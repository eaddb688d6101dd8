"""Confidence intervals and summaries for simulated games.

* win rates: the **Wilson score interval** (95%), which stays inside 0-100% and behaves well
  for small counts and rates near 0 or 1;
* means: a **bootstrap percentile interval** (95%): the games are resampled with replacement
  2,000 times from a fixed seed, so the interval is the same every time.

>>> low, high = wilson(55, 100)
>>> round(low, 3), round(high, 3)
(0.452, 0.644)
>>> mean, low, high = mean_interval([1, 2, 3, 4, 5])
>>> mean, low <= mean <= high
(3.0, True)
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import pandas as pd

Z95 = 1.959963984540054
RESAMPLES = 2000


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate ``wins / games`` (shared wins may count as
    fractions)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    # the interval always holds the observed rate (rounding could push an end past it)
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def mean_interval(values: Sequence[float], seed: int = 0) -> tuple[float, float, float]:
    """Mean and 95% bootstrap percentile interval (resampling from a fixed seed)."""
    data = np.asarray(values, dtype=float)
    if data.size == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(data.mean())
    if data.size == 1:
        return (mean, mean, mean)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(RESAMPLES, data.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return (mean, float(low), float(high))


def win_shares(table: pd.DataFrame, seat: int) -> pd.Series:
    """1 for a game a seat won alone, 1/k for a win shared by k players, else 0."""
    won = table[f"p{seat}_won"].astype(float)
    return won / table["winners"].clip(lower=1)


def seat_summary(table: pd.DataFrame) -> pd.DataFrame:
    """One line per seat: bot, mean points, win rate and its Wilson interval."""
    rows = []
    players = int(table["players"].iloc[0])
    for seat in range(players):
        wins = float(win_shares(table, seat).sum())
        low, high = wilson(wins, len(table))
        rows.append({"seat": seat, "bot": table[f"p{seat}_bot"].iloc[0],
                     "mean_points": float(table[f"p{seat}_total"].mean()),
                     "win_rate": wins / len(table), "low": low, "high": high})
    return pd.DataFrame(rows)


def by_turn_order(table: pd.DataFrame) -> pd.DataFrame:
    """Win rate by place in the turn order (1 = the player who starts), with Wilson intervals.
    Shared wins count as a fraction."""
    players = int(table["players"].iloc[0])
    wins = np.zeros(players)
    for seat in range(players):
        place = (seat - table["first_player"]) % players
        share = win_shares(table, seat)
        for k in range(players):
            wins[k] += float(share[place == k].sum())
    rows = []
    for k in range(players):
        low, high = wilson(wins[k], len(table))
        rows.append({"place": k + 1, "games": len(table), "wins": wins[k],
                     "win_rate": wins[k] / len(table), "low": low, "high": high})
    return pd.DataFrame(rows)


def bot_results(tables: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Win rate of each bot over several tables (a tournament), each seat a separate try."""
    wins: dict[str, float] = {}
    played: dict[str, int] = {}
    for table in tables:
        for seat in range(int(table["players"].iloc[0])):
            bot = str(table[f"p{seat}_bot"].iloc[0])
            wins[bot] = wins.get(bot, 0.0) + float(win_shares(table, seat).sum())
            played[bot] = played.get(bot, 0) + len(table)
    rows = []
    for bot in wins:
        low, high = wilson(wins[bot], played[bot])
        rows.append({"bot": bot, "games": played[bot], "wins": wins[bot],
                     "win_rate": wins[bot] / played[bot], "low": low, "high": high})
    return pd.DataFrame(rows).sort_values("win_rate", ascending=False,
                                          kind="stable").reset_index(drop=True)


def group_means(frame: pd.DataFrame, by: str, value: str = "points",
                min_count: int = 1) -> pd.DataFrame:
    """Mean of ``value`` per group with a 95% bootstrap interval and the count."""
    rows = []
    for key, part in frame.groupby(by, sort=True):
        if len(part) < min_count:
            continue
        mean, low, high = mean_interval(part[value].to_numpy())
        rows.append({by: key, "count": len(part), "mean": mean, "low": low, "high": high})
    return pd.DataFrame(rows, columns=[by, "count", "mean", "low", "high"])


def percent(x: float) -> str:
    return f"{100 * x:.0f}%"


def interval_words(rate: float, low: float, high: float, fair: float) -> str:
    """Whether an interval includes the fair share, in words."""
    if low <= fair <= high:
        return (f"the interval includes the fair share of {percent(fair)}, so these games do "
                "not show a real difference: more games would tell")
    side = "above" if low > fair else "below"
    return f"the whole interval lies {side} the fair share of {percent(fair)}"


def describe_rate(what: str, rate: float, low: float, high: float, fair: float,
                  games: int) -> str:
    return (f"{what} won {percent(rate)} of {games} games (95% interval {percent(low)} to "
            f"{percent(high)}); {interval_words(rate, low, high, fair)}.")


def as_records(frame: pd.DataFrame, digits: int = 3) -> list[dict[str, Any]]:
    """A small table as rounded records, for printing in a stable form."""
    return [{k: (round(v, digits) if isinstance(v, float) else v) for k, v in r.items()}
            for r in frame.to_dict("records")]
