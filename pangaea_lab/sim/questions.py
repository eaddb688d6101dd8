"""Questions the statistics notebooks ask of simulated games, each answered with a chart, the
numbers behind it (with 95% intervals) and a sentence a student can follow.

Every chart carries its meaning in labels, hatching and markers as well as colour.

>>> a = answer("inori.first_player", players=2, bots=["random"], games=6, progress=False)
>>> list(a.table.columns)
['place', 'games', 'wins', 'win_rate', 'low', 'high']
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Callable

import pandas as pd
from matplotlib.figure import Figure

from .games import SimulationError, reader
from .run import simulate
from .stats import (by_turn_order, bot_results, describe_rate, group_means, mean_interval,
                    percent, wilson)

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")
HATCHES = ("", "//", "..", "xx", "\\\\", "oo")
WILSON_NOTE = ("Bars: win rates; whiskers: 95% Wilson score intervals. A shared win counts as "
               "a fraction.")
BOOTSTRAP_NOTE = "Whiskers: 95% bootstrap intervals of the mean (2,000 resamples of the games)."


@dataclass
class Answer:
    """A question's answer: the chart, the numbers behind it and a sentence about them."""

    figure: Figure
    table: pd.DataFrame
    text: str
    games: pd.DataFrame = field(repr=False, default_factory=pd.DataFrame)

    def png(self) -> bytes:
        buf = io.BytesIO()
        self.figure.savefig(buf, format="png", dpi=90, bbox_inches="tight",
                            metadata={"Software": None})
        return buf.getvalue()


@dataclass(frozen=True)
class Question:
    """A question about one game, with the choices its widget offers."""

    key: str
    game: str
    title: str
    ask: Callable[..., Answer]
    players: tuple[int, int]
    bots: tuple[str, ...]
    default_bots: tuple[str, ...]
    default_players: int = 2
    default_games: int = 20
    tournament: bool = False


def _figure(width: float = 7.0, height: float = 3.6) -> Figure:
    fig = Figure(figsize=(width, height))
    fig.set_layout_engine("constrained")
    return fig


def _rate_bars(ax: Any, labels: list[str], table: pd.DataFrame, fair: float | None) -> None:
    x = range(len(labels))
    err = [(table.win_rate - table.low).clip(lower=0), (table.high - table.win_rate).clip(lower=0)]
    bars = ax.bar(x, table.win_rate, yerr=err, capsize=6, color="#7aa6c2", edgecolor="black")
    for bar, hatch in zip(bars, HATCHES * 3):
        bar.set_hatch(hatch)
    for i, row in enumerate(table.itertuples()):
        ax.text(i, row.high + 0.02, percent(row.win_rate), ha="center", va="bottom")
    if fair is not None:
        ax.axhline(fair, linestyle="--", color="black", linewidth=1)
        ax.text(len(labels) - 0.5, fair, f" fair share {percent(fair)}", va="bottom",
                ha="right", fontsize=8)
    ax.set_xticks(list(x), labels)
    ax.set_ylim(0, 1.12)
    ax.yaxis.set_major_formatter(lambda v, _: percent(v))
    ax.set_ylabel("games won")


# ----- the first-player question (every game) ---------------------------------------------


def first_player(game: str, players: int = 2, bots: Any = ("random",), games: int = 20,
                 progress: bool = True, first_seed: int = 0) -> Answer:
    """Does the player who starts win more often?  Everyone plays the same computer player, so
    only the place in the turn order differs."""
    title = reader(game).title
    table = simulate(game, players=players, seeds=range(first_seed, first_seed + games),
                     bots=list(bots)[:1], progress=progress)
    rates = by_turn_order(table)
    fig = _figure()
    ax = fig.add_subplot()
    _rate_bars(ax, [f"{ORDINALS[k - 1]} to play" for k in rates.place], rates, 1 / players)
    ax.set_title(f"{title}: wins by place in the turn order ({games} games, "
                 f"{players} players, all {list(bots)[0]})", fontsize=10)
    fig.text(0.01, -0.02, WILSON_NOTE, fontsize=8, va="top")
    first = rates.iloc[0]
    text = describe_rate("The player who starts", first.win_rate, first.low, first.high,
                         1 / players, games)
    return Answer(fig, rates, text, table)


# ----- a small tournament (every game) ------------------------------------------------------


def tournament(game: str, bots: Any = ("random", "greedy"), games: int = 10,
               progress: bool = True, players: int = 2, first_seed: int = 0) -> Answer:
    """Every pair of computer players meets in both seat orders for ``games`` games each; the
    chart shows each player's share of wins with its Wilson interval."""
    read = reader(game)
    bots = list(dict.fromkeys(bots))
    if len(bots) < 2:
        raise SimulationError("a tournament needs at least two different computer players")
    players = max(players, read.players[0], 2)
    tables = []
    for a in bots:
        for b in bots:
            if a != b:
                lineup = [a] + [b] * (players - 1)
                tables.append(simulate(game, players=players, bots=lineup, progress=progress,
                                       seeds=range(first_seed, first_seed + games)))
    results = bot_results(tables)
    fig = _figure()
    ax = fig.add_subplot()
    _rate_bars(ax, list(results.bot), results, 1 / players)
    ax.set_title(f"{read.title}: tournament, {len(tables)} match-ups of {games} games",
                 fontsize=10)
    fig.text(0.01, -0.02, WILSON_NOTE, fontsize=8, va="top")
    best = results.iloc[0]
    text = describe_rate(f"The {best.bot} player", best.win_rate, best.low, best.high,
                         1 / players, int(best.games))
    return Answer(fig, results, text, pd.concat(tables, ignore_index=True))


# ----- The Dawn of Pangaea: Land Rituals ------------------------------------------------------


def land_rituals(game: str = "pangaea", players: int = 2, bots: Any = ("forester",),
                 games: int = 20, progress: bool = True, first_seed: int = 0) -> Answer:
    """How many points does a Land Ritual bring, by round and by card?"""
    table, events = simulate(game, players=players, seeds=range(first_seed, first_seed + games),
                             bots=list(bots)[:1], events=True, progress=progress)
    lands = events[events.kind == "Land Ritual"] if "kind" in events else events
    if lands.empty:
        fig = _figure(7, 2)
        fig.text(0.5, 0.5, "No Land Ritual was played in these games: try the forester "
                 "player or more games.", ha="center")
        return Answer(fig, pd.DataFrame(), "No Land Ritual was played in these games.", table)
    fig = _figure(9, 3.8)
    left, right = fig.subplots(1, 2, width_ratios=(1.2, 1))
    rounds = sorted(lands["round"].unique())
    data = [lands[lands["round"] == r].points.to_numpy() for r in rounds]
    left.boxplot(data, showmeans=True,
                 meanprops={"marker": "D", "markerfacecolor": "white",
                            "markeredgecolor": "black"})
    left.set_xticks(list(range(1, len(rounds) + 1)), [str(r) for r in rounds])
    left.set_xlabel("round")
    left.set_ylabel("points of one Land Ritual")
    left.set_title("by round (box: middle half, diamond: mean)", fontsize=9)
    left.tick_params(axis="x", labelsize=7 if len(rounds) > 12 else 9)
    cards = group_means(lands, "label")
    cards = cards.sort_values("mean", kind="stable").reset_index(drop=True)
    y = range(len(cards))
    right.errorbar(cards["mean"], list(y), xerr=[cards["mean"] - cards.low,
                                                 cards.high - cards["mean"]],
                   fmt="o", color="black", capsize=3)
    right.set_yticks(list(y), [f"{lab} ({n})" for lab, n in zip(cards.label, cards["count"])],
                     fontsize=8)
    right.set_xlabel("mean points (95% bootstrap interval)")
    right.set_title("by card biomes (number played)", fontsize=9)
    fig.suptitle(f"The Dawn of Pangaea: {len(lands)} Land Rituals in {games} games",
                 fontsize=10)
    by_round = group_means(lands, "round")
    mean, low, high = mean_interval(lands.points.to_numpy())
    middle = lands["round"].median()
    early = mean_interval(lands[lands["round"] <= middle].points.to_numpy())
    late = mean_interval(lands[lands["round"] > middle].points.to_numpy())
    if late[1] > early[2]:
        trend = "later Rituals clearly bring more (the two intervals do not overlap)"
    elif late[2] < early[1]:
        trend = "later Rituals clearly bring less (the two intervals do not overlap)"
    else:
        trend = "early and late Rituals cannot be told apart (the two intervals overlap)"
    text = (f"A Land Ritual brought {mean:.1f} points on average (95% bootstrap interval "
            f"{low:.1f} to {high:.1f}). Up to round {middle:g} it brought {early[0]:.1f} "
            f"(interval {early[1]:.1f} to {early[2]:.1f}), later {late[0]:.1f} (interval "
            f"{late[1]:.1f} to {late[2]:.1f}): {trend}.")
    by_round.insert(0, "what", "round")
    cards.insert(0, "what", "card")
    numbers = pd.concat([by_round.rename(columns={"round": "group"}),
                         cards.rename(columns={"label": "group"})], ignore_index=True)
    return Answer(fig, numbers, text, table)


# ----- Harmonies: animal cards ----------------------------------------------------------------


def animal_cards(game: str = "harmonies", players: int = 2, bots: Any = ("greedy",),
                 games: int = 10, progress: bool = True, first_seed: int = 0) -> Answer:
    """Which animal cards pay most once taken?  Mean points per card taken, with intervals."""
    table, events = simulate(game, players=players, seeds=range(first_seed, first_seed + games),
                             bots=list(bots)[:1], events=True, progress=progress)
    animals = events[events.kind == "Animal card"] if "kind" in events else events
    cards = group_means(animals, "label").sort_values(["mean", "label"], kind="stable")
    cards = cards.tail(12).reset_index(drop=True)
    done = animals.groupby("label").completed.mean()
    cards["completed"] = [float(done[lab]) for lab in cards.label]
    fig = _figure(8, 4)
    ax = fig.add_subplot()
    y = list(range(len(cards)))
    ax.barh(y, cards["mean"], xerr=[cards["mean"] - cards.low, cards.high - cards["mean"]],
            capsize=3, color="#c2a77a", edgecolor="black", hatch="//")
    ax.set_yticks(y, [f"{lab} (taken {n}x, {percent(c)} completed)" for lab, n, c in
                      zip(cards.label, cards["count"], cards.completed)], fontsize=8)
    ax.set_xlabel("mean points once taken (95% bootstrap interval)")
    ax.set_title(f"Harmonies: the animal cards that paid most ({games} games, all "
                 f"{list(bots)[0]})", fontsize=10)
    if cards.empty:
        return Answer(fig, cards, "No animal card was taken in these games.", table)
    seen = cards[cards["count"] >= 2]
    top = (seen if not seen.empty else cards).iloc[-1]
    times = "once" if top["count"] == 1 else f"{int(top['count'])} times"
    among = "Among the cards taken more than once, " if not seen.empty else ""
    text = (f"{among}{top.label} paid most: {top['mean']:.1f} points on average each time it was "
            f"taken (95% bootstrap interval {top.low:.1f} to {top.high:.1f}, taken "
            f"{times}). With few games a card is seen only a few times, so "
            "its interval is wide: run more games to separate the cards.")
    return Answer(fig, cards, text, table)


# ----- Forest Shuffle: species of winning forests --------------------------------------------


def winning_species(game: str = "forest_shuffle", players: int = 2, bots: Any = ("random",),
                    games: int = 30, progress: bool = True, first_seed: int = 0) -> Answer:
    """Which species carry a winning forest?  Mean points of each species in the winners'
    forests and in the others'."""
    table, events = simulate(game, players=players, seeds=range(first_seed, first_seed + games),
                             bots=list(bots)[:1], events=True, progress=progress)
    won = {(r.seed, seat) for r in table.itertuples() for seat in range(players)
           if getattr(r, f"p{seat}_won")}
    events = events.assign(winner=[(s, p) in won for s, p in zip(events.seed, events.seat)])
    # every forest counts, with 0 for a species it does not have
    forests = events.pivot_table(index=["seed", "seat", "winner"], columns="label",
                                 values="points", aggfunc="sum", fill_value=0)
    flags = set(forests.index.get_level_values("winner"))
    if flags != {True, False}:
        fig = _figure(7, 2)
        fig.text(0.5, 0.5, "Every forest won (or none did) in these games: play more games.",
                 ha="center")
        return Answer(fig, pd.DataFrame(), "No forest lost in these games, so there is "
                      "nothing to compare: play more games.", table)
    winners = forests.xs(True, level="winner")
    others = forests.xs(False, level="winner")
    rows = []
    for species in forests.columns:
        w, wl, wh = mean_interval(winners[species].to_numpy())
        o, ol, oh = mean_interval(others[species].to_numpy())
        rows.append({"species": species, "winners": w, "winners_low": wl, "winners_high": wh,
                     "others": o, "others_low": ol, "others_high": oh, "gap": w - o})
    gaps = pd.DataFrame(rows).sort_values(["gap", "species"], kind="stable").tail(10)
    gaps = gaps.reset_index(drop=True)
    fig = _figure(8, 4.2)
    ax = fig.add_subplot()
    y = pd.Series(range(len(gaps)), dtype=float)
    ax.barh(y + 0.2, gaps.winners, height=0.4, color="#6f9e6a", edgecolor="black",
            xerr=[gaps.winners - gaps.winners_low, gaps.winners_high - gaps.winners],
            capsize=2, label="winning forests (plain)")
    ax.barh(y - 0.2, gaps.others, height=0.4, color="#d9d9d9", edgecolor="black", hatch="//",
            xerr=[gaps.others - gaps.others_low, gaps.others_high - gaps.others], capsize=2,
            label="other forests (hatched)")
    ax.set_yticks(list(y), list(gaps.species), fontsize=8)
    ax.set_xlabel("mean points per forest (95% bootstrap interval)")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(f"Forest Shuffle: species with the biggest lead in winning forests "
                 f"({games} games)", fontsize=10)
    top = gaps.iloc[-1]
    text = (f"{top.species} gave winning forests {top.winners:.1f} points on average against "
            f"{top.others:.1f} in the others (95% bootstrap intervals {top.winners_low:.1f}–"
            f"{top.winners_high:.1f} and {top.others_low:.1f}–{top.others_high:.1f}): "
            + ("the intervals do not overlap, so the lead is more than chance."
               if top.winners_low > top.others_high else
               "the intervals overlap, so these games cannot tell the lead from chance."))
    return Answer(fig, gaps, text, table)


# ----- Inori: where the points come from ------------------------------------------------------


def point_sources(game: str = "inori", players: int = 2, bots: Any = ("greedy",),
                  games: int = 20, progress: bool = True, first_seed: int = 0) -> Answer:
    """Where do a winner's points come from?  Mean points per scoring category for the winners
    and for the others."""
    table = simulate(game, players=players, seeds=range(first_seed, first_seed + games),
                     bots=list(bots)[:1], progress=progress)
    cats = [c[3:] for c in table.columns if c.startswith("p0_")
            and c not in ("p0_bot", "p0_won", "p0_total")]
    rows = []
    for cat in cats:
        win, lose = [], []
        for seat in range(players):
            for pts, w in zip(table[f"p{seat}_{cat}"], table[f"p{seat}_won"]):
                (win if w else lose).append(pts)
        w, wl, wh = mean_interval(win)
        o, ol, oh = mean_interval(lose)
        rows.append({"category": cat.replace("_", " "), "winners": w, "winners_low": wl,
                     "winners_high": wh, "others": o, "others_low": ol, "others_high": oh})
    parts = pd.DataFrame(rows)
    fig = _figure(8, 3.8)
    ax = fig.add_subplot()
    x = pd.Series(range(len(parts)), dtype=float)
    ax.bar(x - 0.2, parts.winners, width=0.4, color="#a58bc4", edgecolor="black",
           yerr=[parts.winners - parts.winners_low, parts.winners_high - parts.winners],
           capsize=3, label="winners (plain)")
    ax.bar(x + 0.2, parts.others, width=0.4, color="#d9d9d9", edgecolor="black", hatch="//",
           yerr=[parts.others - parts.others_low, parts.others_high - parts.others], capsize=3,
           label="the others (hatched)")
    ax.set_xticks(list(x), list(parts.category))
    ax.set_ylabel("mean points (95% bootstrap interval)")
    ax.legend(fontsize=8)
    ax.set_title(f"Inori: points by category ({games} games, {players} players, all "
                 f"{list(bots)[0]})", fontsize=10)
    parts["gap"] = parts.winners - parts.others
    top = parts.sort_values("gap", kind="stable").iloc[-1]
    text = (f"Winners pulled ahead most in {top.category}: {top.winners:.1f} points on "
            f"average against {top.others:.1f} for the others (95% bootstrap intervals "
            f"{top.winners_low:.1f}–{top.winners_high:.1f} and {top.others_low:.1f}–"
            f"{top.others_high:.1f}).")
    return Answer(fig, parts, text, table)


def _bots(game: str) -> tuple[str, ...]:
    return tuple(reader(game).bots)


QUESTIONS: dict[str, Question] = {}


def _add(q: Question) -> None:
    QUESTIONS[q.key] = q


for _game, _bot, _games in (("pangaea", "greedy", 20), ("harmonies", "random", 40),
                            ("forest_shuffle", "random", 40), ("inori", "random", 60)):
    _read = reader(_game)
    _add(Question(f"{_game}.first_player", _game, "Does the first player win more often?",
                  first_player, (max(2, _read.players[0]), _read.players[1]), _bots(_game),
                  (_bot,), default_games=_games))
    _add(Question(f"{_game}.tournament", _game, "A tournament between the computer players",
                  tournament, (2, 2), _bots(_game), _bots(_game), default_games=6,
                  tournament=True))
_add(Question("pangaea.land_rituals", "pangaea", "How many points does a Land Ritual bring?",
              land_rituals, (2, 4), _bots("pangaea"), ("forester",), default_games=12))
_add(Question("harmonies.animal_cards", "harmonies", "Which animal cards pay most?",
              animal_cards, (1, 4), _bots("harmonies"), ("greedy",), default_games=8))
_add(Question("forest_shuffle.winning_species", "forest_shuffle",
              "Which species carry a winning forest?", winning_species, (2, 5),
              _bots("forest_shuffle"), ("random",), default_games=40))
_add(Question("inori.point_sources", "inori", "Where do a winner's points come from?",
              point_sources, (2, 4), _bots("inori"), ("greedy",), default_games=20))


def answer(key: str, players: int | None = None, bots: Any = None, games: int | None = None,
           progress: bool = True) -> Answer:
    """Ask a question by its key with the given (or default) choices."""
    if key not in QUESTIONS:
        raise SimulationError(f"no question {key!r}; the questions are {', '.join(QUESTIONS)}")
    q = QUESTIONS[key]
    kwargs: dict[str, Any] = {"bots": list(bots or q.default_bots),
                              "games": games or q.default_games, "progress": progress}
    if not q.tournament:
        kwargs["players"] = players or q.default_players
    return q.ask(q.game, **kwargs)


__all__ = ["Answer", "QUESTIONS", "Question", "answer", "first_player", "tournament",
           "land_rituals", "animal_cards", "winning_species", "point_sources", "wilson"]


def save_chart(key: str, path: str, games: int, players: int | None = None) -> str:
    """Answer a question and save its chart as a PNG file (the README's chart is made so);
    returns the sentence about it."""
    result = answer(key, players=players, games=games, progress=False)
    with open(path, "wb") as f:
        f.write(result.png())
    return result.text
