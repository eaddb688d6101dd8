"""Confidence intervals, tests and summaries for simulated games.

* win rates: the **Wilson score interval** (95%), which stays inside 0-100% and behaves well
  for small counts and rates near 0 or 1;
* means of one value per game: a **bootstrap percentile interval** (95%): the values are
  resampled with replacement 2,000 times from a fixed seed, so the interval is the same every
  time;
* means over events (Rituals, cards, forests), of which a game holds several: the **games** are
  resampled (:func:`resample_games`), and each average is worked out again from the events of
  the games drawn, so that events of one game, which hang together, move together;
* two groups are compared by the interval of their **difference** (from the same resampled
  games), never by whether their own intervals overlap;
* the largest of many gaps is judged against the largest gap that chance alone gives
  (:func:`max_gap_test`, a permutation test);
* how many games a claim needs: :func:`games_needed` and :func:`detectable_edge`.

>>> low, high = wilson(55, 100)
>>> round(low, 3), round(high, 3)
(0.452, 0.644)
>>> mean, low, high = mean_interval([1, 2, 3, 4, 5])
>>> mean, low <= mean <= high
(3.0, True)
>>> games_needed(0.05, 0.5)
783
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Sequence

import numpy as np
import pandas as pd

Z95 = 1.959963984540054
#: the one-sided normal quantile of 80% power
Z80 = 0.8416212335729143
RESAMPLES = 2000
#: shuffles of the permutation test of the largest gap
PERMUTATIONS = 1000


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


def is_cooperative(table: pd.DataFrame) -> bool:
    """Whether the games were played by one team (a co-op mode), as the rows record."""
    return bool("cooperative" in table and len(table) and table["cooperative"].all())


def team_result(table: pd.DataFrame) -> dict[str, Any]:
    """A co-op run's one result: the games the team won (every seat wins together, so a
    win is counted once, never split between the seats), with the Wilson interval."""
    games = len(table)
    wins = int((table["winners"] > 0).sum())
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games if games else math.nan,
            "low": low, "high": high,
            "mean_points": float(table["p0_total"].mean()) if games else math.nan}


def seats_fixed(table: pd.DataFrame) -> bool:
    """Whether every seat kept one bot in all the games (no seat rotation, or one bot)."""
    players = int(table["players"].iloc[0])
    return all(table[f"p{seat}_bot"].nunique() == 1 for seat in range(players))


def seat_summary(table: pd.DataFrame) -> pd.DataFrame:
    """One line per seat: bot, mean points, win rate and its Wilson interval (the bot is
    "mixed" when seats rotate and the bots differ)."""
    rows = []
    players = int(table["players"].iloc[0])
    for seat in range(players):
        wins = float(win_shares(table, seat).sum())
        low, high = wilson(wins, len(table))
        bots = table[f"p{seat}_bot"].unique()
        rows.append({"seat": seat, "bot": bots[0] if len(bots) == 1 else "mixed",
                     "mean_points": float(table[f"p{seat}_total"].mean()),
                     "win_rate": wins / len(table), "low": low, "high": high})
    return pd.DataFrame(rows)


def _seat_frame(tables: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """One row per seat of each game: its bot, its points and its share of the win."""
    parts = []
    for table in tables:
        for seat in range(int(table["players"].iloc[0])):
            parts.append(pd.DataFrame({"bot": table[f"p{seat}_bot"].astype(str),
                                       "points": table[f"p{seat}_total"].astype(float),
                                       "win": win_shares(table, seat)}))
    return pd.concat(parts, ignore_index=True)


def bot_results(tables: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Each bot's share of wins over every seat it took in several tables (a tournament),
    each seat of each game a separate try, with the Wilson interval and its mean points."""
    seats = _seat_frame(tables)
    rows = []
    for bot, part in seats.groupby("bot", sort=False):
        wins, played = float(part.win.sum()), len(part)
        low, high = wilson(wins, played)
        rows.append({"bot": bot, "games": played, "wins": wins, "win_rate": wins / played,
                     "low": low, "high": high, "mean_points": float(part["points"].mean())})
    return pd.DataFrame(rows).sort_values("win_rate", ascending=False,
                                          kind="stable").reset_index(drop=True)


def summary_figures(table: pd.DataFrame) -> dict[str, Any]:
    """The figures of a run's summary, read from its games table: the number of games, the
    kind of summary (``"team"`` in a co-op game, ``"seats"`` when every seat kept one bot,
    ``"bots"`` when seats rotate), its records, and how many games each way of ending ended
    (``ended_by``).  :class:`~pangaea_lab.sim.tally.Tally` gives the same figures built game
    by game while a run plays."""
    ended = (table["ended_by"].astype(str).value_counts(sort=False).to_dict()
             if "ended_by" in table else {})
    figures: dict[str, Any] = {"games": len(table), "kind": "seats", "records": [],
                               "ended_by": {str(k): int(v) for k, v in ended.items()}}
    if not len(table):
        return figures
    if is_cooperative(table):
        team = team_result(table)
        figures.update(kind="team", records=[{**team, "bots": sorted(set(_bots(table)))}])
    elif seats_fixed(table):
        figures["records"] = seat_summary(table).to_dict("records")
    else:
        figures.update(kind="bots", records=bot_results([table]).to_dict("records"))
    return figures


def summary_lines(table: pd.DataFrame) -> list[str]:
    """A run in a few plain lines: the team's result in a co-op game; each seat's when seats
    keep their bots; each bot's over all its seats when the seats rotate."""
    return figures_lines(summary_figures(table))


def figures_lines(figures: dict[str, Any]) -> list[str]:
    """The lines of :func:`summary_lines` from the figures of :func:`summary_figures`."""
    games = figures["games"]
    lines = [f"{games} games"]
    for row in figures["records"]:
        if figures["kind"] == "team":
            lines.append(f"the team ({', '.join(row['bots'])}): mean "
                         f"{row['mean_points']:.1f} points, won {row['win_rate']:.1%} of the "
                         f"games (95% interval {row['low']:.1%} to {row['high']:.1%})")
        elif figures["kind"] == "seats":
            lines.append(f"seat {row['seat'] + 1} ({row['bot']}): mean "
                         f"{row['mean_points']:.1f} points, wins {row['win_rate']:.1%} (95% "
                         f"interval {row['low']:.1%} to {row['high']:.1%})")
        else:
            lines.append(f"{row['bot']} (seats rotate; {row['games']} seat-games): mean "
                         f"{row['mean_points']:.1f} points, wins {row['win_rate']:.1%} (95% "
                         f"interval {row['low']:.1%} to {row['high']:.1%})")
    count = sum(n for how, n in figures["ended_by"].items() if how != "rules")
    if count:
        lines.append(f"{count} of {games} games ({count / games:.0%}) were ended by a safety "
                     "net (a labelled assumption), not by the rules")
    return lines


def _bots(table: pd.DataFrame) -> list[str]:
    players = int(table["players"].iloc[0])
    return [str(b) for seat in range(players) for b in table[f"p{seat}_bot"].unique()]


def safety_net_share(table: pd.DataFrame) -> tuple[int, float]:
    """How many games, and what share, a safety net ended (a labelled assumption such as
    the round limit) rather than the game's own rules."""
    if "ended_by" not in table or not len(table):
        return 0, 0.0
    count = int((table["ended_by"] != "rules").sum())
    return count, count / len(table)


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


# ----- how many games a claim needs ---------------------------------------------------------


def games_needed(edge: float, fair: float, power: float = 0.8) -> int:
    """Games needed to tell a win rate of ``fair + edge`` from ``fair`` (two-sided test at 5%)
    with the given power (80%: such an edge is found in 4 runs of 5)."""
    if not 0 < fair < 1 or not 0 < fair + edge < 1 or edge == 0 or power != 0.8:
        raise ValueError("games_needed takes a fair share and an edge inside 0..1, power 0.8")
    top = Z95 * math.sqrt(fair * (1 - fair)) + Z80 * math.sqrt((fair + edge) * (1 - fair - edge))
    return math.ceil((top / edge) ** 2)


def detectable_edge(games: int, fair: float) -> float:
    """The smallest edge over ``fair`` that ``games`` games find with 80% power (two-sided
    test at 5%), found by halving on :func:`games_needed`."""
    low, high = 1e-4, 1 - fair - 1e-4
    if games_needed(high, fair) > games:
        return high
    for _ in range(40):
        mid = (low + high) / 2
        low, high = (mid, high) if games_needed(mid, fair) > games else (low, mid)
    return high


# ----- resampling games ---------------------------------------------------------------------


def _game_weights(games: int, seed: int, resamples: int, block: int = 200):
    """Blocks of resamples of ``games`` games: how many times each game is drawn (rows:
    resamples, columns: games)."""
    rng = np.random.default_rng(seed)
    for start in range(0, resamples, block):
        size = min(block, resamples - start)
        draws = rng.integers(0, games, size=(size, games))
        flat = (draws + np.arange(size)[:, None] * games).ravel()
        yield np.bincount(flat, minlength=size * games).reshape(size, games)


def resample_games(*pairs: tuple[np.ndarray, np.ndarray], seed: int = 0,
                   resamples: int = RESAMPLES) -> list[tuple[np.ndarray, np.ndarray]]:
    """Averages over events, and their bootstrap replicates from resampling **games**.

    Each pair is ``(sums, counts)``, one row per game and one column per group (a card, a
    species, a category): the points and the number of events of that group in that game.
    Returns, for each pair, the averages ``sum / count`` per group and a ``resamples x groups``
    array of the same averages over games drawn with replacement (the same draws for every
    pair, so that differences between pairs can be read off the replicates)."""
    games = pairs[0][0].shape[0]
    out = [(_ratio(s.sum(axis=0), c.sum(axis=0)), []) for s, c in pairs]
    for weights in _game_weights(games, seed, resamples):
        for (s, c), (_, reps) in zip(pairs, out):
            reps.append(_ratio(weights @ s, weights @ c))
    return [(est, np.vstack(reps)) for est, reps in out]


def _ratio(sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.where(counts > 0, counts, 1), np.nan)


def percentile_interval(replicates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 2.5% and 97.5% points of each column of bootstrap replicates (resamples in
    which a group did not occur are left out)."""
    with warnings.catch_warnings():   # a group seen in no resample: its interval is empty
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = np.nanpercentile(replicates, [2.5, 97.5], axis=0)
    return low, high


def per_game(frame: pd.DataFrame, by: str, value: str,
             games: Sequence[Any] | None = None) -> tuple[np.ndarray, np.ndarray, list[Any]]:
    """Sums and counts of ``value`` per game (``seed``) and group ``by``: the input of
    :func:`resample_games`.  ``games`` fixes the rows (games with no event count 0)."""
    sums = frame.pivot_table(index="seed", columns=by, values=value, aggfunc="sum",
                             fill_value=0)
    counts = frame.pivot_table(index="seed", columns=by, values=value, aggfunc="count",
                               fill_value=0)
    if games is not None:
        sums = sums.reindex(games, fill_value=0)
        counts = counts.reindex(games, fill_value=0)
    return (sums.to_numpy(dtype=float), counts.to_numpy(dtype=float), list(sums.columns))


def group_means(frame: pd.DataFrame, by: str, value: str = "points",
                min_count: int = 1) -> pd.DataFrame:
    """Mean of ``value`` per group with the count and a 95% bootstrap interval from resampling
    the games (the ``seed`` column): the events of the games drawn give each average again."""
    columns = [by, "count", "mean", "low", "high"]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    sums, counts, groups = per_game(frame, by, value)
    [(means, reps)] = resample_games((sums, counts))
    low, high = percentile_interval(reps)
    rows = [{by: g, "count": int(counts[:, j].sum()), "mean": float(means[j]),
             "low": float(low[j]), "high": float(high[j])}
            for j, g in enumerate(groups) if counts[:, j].sum() >= min_count]
    return pd.DataFrame(rows, columns=columns)


def difference_words(diff: float, low: float, high: float, unit: str = "points") -> str:
    """Whether the 95% interval of a difference excludes 0, in words."""
    if low > 0 or high < 0:
        return (f"the 95% interval of the difference, {low:+.1f} to {high:+.1f} {unit}, "
                "excludes 0, so the difference is more than chance")
    return (f"the 95% interval of the difference, {low:+.1f} to {high:+.1f} {unit}, includes "
            "0, so these games cannot tell the difference from chance: more games would tell")


def max_gap_test(values: np.ndarray, winner: np.ndarray, game: np.ndarray, seed: int = 0,
                 permutations: int = PERMUTATIONS) -> tuple[np.ndarray, float]:
    """The gaps ``mean of winners - mean of the others`` of each column of ``values`` (one row
    per player of a game) and how often chance alone gives a gap as large as the largest.

    Chance is played out by shuffling which players of each game are the winners
    (``permutations`` times, from a fixed seed) and taking each time the largest gap of all
    columns, as the largest was taken from the real games: the share of shuffles reaching the
    real largest gap is a p-value corrected for having picked the largest."""
    values = np.asarray(values, dtype=float)
    order = np.argsort(game, kind="stable")
    values, winner, game = values[order], np.asarray(winner, bool)[order], np.asarray(game)[order]
    _, starts, sizes = np.unique(game, return_index=True, return_counts=True)
    wins_in = np.add.reduceat(winner.astype(int), starts)
    place = np.arange(len(game)) - np.repeat(starts, sizes)
    cut = np.repeat(wins_in, sizes)
    observed = _gaps(values, winner)
    top = np.nanmax(observed)
    rng = np.random.default_rng(seed)
    reached = 0
    for _ in range(permutations):
        keys = rng.random(len(game))
        shuffled = np.lexsort((keys, game))    # players of each game in a random order
        flags = np.empty(len(game), bool)
        flags[shuffled] = place < cut          # the first ``wins`` of each game win
        reached += np.nanmax(_gaps(values, flags)) >= top - 1e-12
    return observed, (reached + 1) / (permutations + 1)


def _gaps(values: np.ndarray, winner: np.ndarray) -> np.ndarray:
    return values[winner].mean(axis=0) - values[~winner].mean(axis=0)


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
