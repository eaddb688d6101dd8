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
from .ratings import rating_gap, ratings
from .run import simulate
from .stats import (PERMUTATIONS, by_turn_order, bot_results, describe_rate, detectable_edge,
                    difference_words, games_needed, group_means, max_gap_test, per_game,
                    percent, percentile_interval, resample_games, safety_net_share, wilson)

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")
HATCHES = ("", "//", "..", "xx", "\\\\", "oo")
WILSON_NOTE = ("Bars: win rates; whiskers: 95% Wilson score intervals. A shared win counts as "
               "a fraction.")
BOOTSTRAP_NOTE = ("Whiskers: 95% bootstrap intervals of the mean (the games drawn again with "
                  "repeats 2,000 times).")
#: the edge over the fair share that the first-player question says how many games need
EDGE = 0.05


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


def safety_net_words(table: pd.DataFrame) -> str:
    """A sentence on the games a safety net ended (empty when the rules ended them all)."""
    count, share = safety_net_share(table)
    if not count:
        return " Every game ended by the rules."
    return (f" Careful: {count} of {len(table)} games ({percent(share)}) did not end by the "
            "rules but by a safety net (a labelled assumption, such as the round limit), so "
            "these games say more about that safety net than about the game: choose a "
            "computer player that finishes games.")


def needed_words(games: int, fair: float) -> str:
    """How big an edge these games can find, and how many games a 5-point edge needs."""
    edge = detectable_edge(games, fair)
    need = games_needed(EDGE, fair)
    return (f" With {games} games only an edge of about {100 * edge:.0f} points over the fair "
            f"share is found reliably (4 runs in 5); an edge of {100 * EDGE:.0f} points needs "
            f"about {need:,} games.")


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
    text = (describe_rate("The player who starts", first.win_rate, first.low, first.high,
                          1 / players, games)
            + needed_words(games, 1 / players) + safety_net_words(table))
    return Answer(fig, rates, text, table)


# ----- a small tournament (every game) ------------------------------------------------------


def tournament(game: str, bots: Any = ("random", "greedy"), games: int = 10,
               progress: bool = True, players: int = 2, first_seed: int = 0) -> Answer:
    """Every pair of computer players meets for ``games`` games, the seats rotating from game
    to game so that each sits first equally often; the chart shows each player's share of wins
    with its Wilson interval and its rating with its 95% band."""
    read = reader(game)
    bots = list(dict.fromkeys(bots))
    if len(bots) < 2:
        raise SimulationError("a tournament needs at least two different computer players")
    players = max(players, read.players[0], 2)
    tables = []
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            lineups = [[a] + [b] * (players - 1)]
            if players > 2:   # with two players the rotation already swaps the seats
                lineups.append([b] + [a] * (players - 1))
            for lineup in lineups:
                tables.append(simulate(game, players=players, bots=lineup, progress=progress,
                                       seeds=range(first_seed, first_seed + games),
                                       rotate_seats=True))
    results = bot_results(tables)
    rated = ratings(tables)
    results = results.merge(rated[["bot", "rating", "low", "high"]].rename(
        columns={"low": "rating_low", "high": "rating_high"}), on="bot")
    fig = _figure(9, 3.6)
    left, right = fig.subplots(1, 2, width_ratios=(1.2, 1))
    _rate_bars(left, list(results.bot), results, 1 / players)
    left.set_title("share of wins (Wilson 95% interval)", fontsize=9)
    _rating_marks(right, rated)
    fig.suptitle(f"{read.title}: tournament, {len(tables)} match-up"
                 f"{'s' if len(tables) > 1 else ''} of {games} games, seats rotating",
                 fontsize=10)
    fig.text(0.01, -0.02, WILSON_NOTE, fontsize=8, va="top")
    all_games = pd.concat(tables, ignore_index=True)
    return Answer(fig, results, _tournament_words(results, rated, players) +
                  safety_net_words(all_games), all_games)


def _rating_marks(ax: Any, rated: pd.DataFrame) -> None:
    y = list(range(len(rated)))[::-1]
    ax.errorbar(rated.rating, y, xerr=[rated.rating - rated.low, rated.high - rated.rating],
                fmt="D", color="black", markerfacecolor="white", capsize=4)
    ax.set_yticks(y, list(rated.bot))
    ax.axvline(25, linestyle=":", color="black", linewidth=1)
    ax.set_xlabel("rating (dotted: the starting rating, 25)")
    ax.set_title("rating (openskill) with its 95% band", fontsize=9)


def _tournament_words(results: pd.DataFrame, rated: pd.DataFrame, players: int) -> str:
    best = results.iloc[0]
    text = describe_rate(f"The {best.bot} player", best.win_rate, best.low, best.high,
                         1 / players, int(best.games))
    top, second = rated.iloc[0], rated.iloc[1]
    gap, low, high = rating_gap(rated, top.bot, second.bot)
    verdict = ("so it is the stronger player" if low > 0 else
               "so these games cannot yet tell which is stronger: play more games")
    return (f"{text} Ratings: {top.bot} {top.rating:.1f} against {second.bot} "
            f"{second.rating:.1f}; the gap is {gap:.1f} with a 95% band from {low:.1f} to "
            f"{high:.1f}, {verdict}.")


# ----- The Dawn of Pangaea: Land Rituals ------------------------------------------------------


def land_rituals(game: str = "pangaea", players: int = 2, bots: Any = ("forester",),
                 games: int = 20, progress: bool = True, first_seed: int = 0) -> Answer:
    """How many points does a Land Ritual bring, by round and by card?"""
    table, events = simulate(game, players=players, seeds=range(first_seed, first_seed + games),
                             bots=list(bots)[:1], events=True, progress=progress)
    lands = events[events["kind"] == "Land Ritual"] if "kind" in events else events
    if lands.empty:
        fig = _figure(7, 2)
        fig.text(0.5, 0.5, "No Land Ritual was played in these games: try the forester "
                 "player or more games.", ha="center")
        return Answer(fig, pd.DataFrame(), "No Land Ritual was played in these games.", table)
    fig = _figure(9, 3.8)
    left, right = fig.subplots(1, 2, width_ratios=(1.2, 1))
    rounds = sorted(lands["round"].unique())
    data = [lands[lands["round"] == r]["points"].to_numpy() for r in rounds]
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
    text = _ritual_words(lands, sorted(table.seed))
    by_round.insert(0, "what", "round")
    cards.insert(0, "what", "card")
    numbers = pd.concat([by_round.rename(columns={"round": "group"}),
                         cards.rename(columns={"label": "group"})], ignore_index=True)
    return Answer(fig, numbers, text, table)


def _ritual_words(lands: pd.DataFrame, seeds: list[int]) -> str:
    """The average Land Ritual, and early against late Rituals by the interval of their
    difference, all from the same resampled games."""
    middle = lands["round"].median()
    halves = lands.assign(half=["early" if r <= middle else "late" for r in lands["round"]],
                          every="all")
    whole, counts, _ = per_game(halves, "every", "points", seeds)
    sums, numbers, names = per_game(halves, "half", "points", seeds)
    [(mean, reps), (halves_mean, halves_reps)] = resample_games((whole, counts), (sums, numbers))
    low, high = percentile_interval(reps)
    text = (f"A Land Ritual brought {mean[0]:.1f} points on average (95% bootstrap interval "
            f"{low[0]:.1f} to {high[0]:.1f}, from {len(seeds)} games drawn again).")
    if names != ["early", "late"]:
        return text + " All Rituals fell in the same rounds, so early and late cannot be compared."
    diff = halves_mean[1] - halves_mean[0]
    d_low, d_high = percentile_interval(halves_reps[:, 1:] - halves_reps[:, :1])
    return (f"{text} Up to round {middle:g} it brought {halves_mean[0]:.1f}, later "
            f"{halves_mean[1]:.1f}: later Rituals brought {diff:+.1f} points; "
            f"{difference_words(diff, float(d_low[0]), float(d_high[0]))}.")


# ----- Harmonies: animal cards ----------------------------------------------------------------


def animal_cards(game: str = "harmonies", players: int = 2, bots: Any = ("greedy",),
                 games: int = 10, progress: bool = True, first_seed: int = 0) -> Answer:
    """Which animal cards pay most once taken?  Mean points per card taken, with intervals."""
    table, events = simulate(game, players=players, seeds=range(first_seed, first_seed + games),
                             bots=list(bots)[:1], events=True, progress=progress)
    animals = events[events["kind"] == "Animal card"] if "kind" in events else events
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
            f"its interval is wide: run more games to separate the cards. And the top of "
            f"{len(animals.label.unique())} cards is favoured by luck: take it as a lead to "
            "check with new games (other seeds), not as a finding.")
    return Answer(fig, cards, text, table)


# ----- winners against the others (Forest Shuffle, Inori) ------------------------------------


def winners_vs_others(players: pd.DataFrame, columns: list[str]) -> tuple[pd.DataFrame, float]:
    """``players`` has one row per player of each game: ``seed``, ``winner`` and one column of
    points per category.  Returns per category the winners' and the others' mean with 95%
    bootstrap intervals and the gap with the 95% interval of the difference (the games drawn
    again, the same draws for both sides), and the p-value of the largest gap corrected for
    having picked the largest (:func:`~.stats.max_gap_test`)."""
    seeds = sorted(players.seed.unique())

    def sums_counts(part: pd.DataFrame) -> tuple[Any, Any]:
        sums = part.groupby("seed")[columns].sum().reindex(seeds, fill_value=0)
        count = part.groupby("seed").size().reindex(seeds, fill_value=0).to_numpy(float)
        return sums.to_numpy(float), count[:, None].repeat(len(columns), axis=1)

    won = players.winner.astype(bool)
    [(w, w_reps), (o, o_reps)] = resample_games(sums_counts(players[won]),
                                                sums_counts(players[~won]))
    (wl, wh), (ol, oh), (gl, gh) = (percentile_interval(r) for r in
                                    (w_reps, o_reps, w_reps - o_reps))
    _, p_value = max_gap_test(players[columns].to_numpy(float), won.to_numpy(),
                              players.seed.to_numpy())
    rows = pd.DataFrame({"name": columns, "winners": w, "winners_low": wl, "winners_high": wh,
                         "others": o, "others_low": ol, "others_high": oh, "gap": w - o,
                         "gap_low": gl, "gap_high": gh})
    return rows, p_value


def largest_gap_words(top: Any, what: str, how_many: int, p_value: float) -> str:
    """The largest gap, the interval of its difference, and whether it beats chance's
    largest gap."""
    verdict = ("so even as the largest of them it is more than chance" if p_value < 0.05 else
               "so it could be chance: more games would tell")
    return (f"{top['name']} gave the winners {top.winners:.1f} points on average against "
            f"{top.others:.1f} for the others, a lead of {top.gap:.1f} (95% interval of the "
            f"difference {top.gap_low:.1f} to {top.gap_high:.1f}). It is the largest lead of "
            f"{how_many} {what}, and picking the largest favours chance: shuffling which "
            f"players won within each game ({PERMUTATIONS:,} times), the largest lead of all "
            f"{how_many} was as large in {_share_of_shuffles(p_value)}, {verdict}.")


def _share_of_shuffles(p_value: float) -> str:
    if p_value <= 1.5 / (PERMUTATIONS + 1):   # no shuffle reached it (the p-value counts one)
        return f"none of the {PERMUTATIONS:,} shuffles"
    return f"{100 * p_value:.1f}% of the shuffles"


def _players_frame(table: pd.DataFrame, players: int, values: pd.DataFrame | None,
                   columns: list[str]) -> pd.DataFrame:
    """One row per player of each game: seed, seat, winner and the category columns (from
    ``values`` indexed by seed and seat, or from the table's ``p<seat>_<column>``)."""
    parts = []
    for seat in range(players):
        part = pd.DataFrame({"seed": table.seed, "seat": seat,
                             "winner": table[f"p{seat}_won"].astype(bool)})
        if values is None:
            for col in columns:
                part[col] = table[f"p{seat}_{col}"].to_numpy(float)
        parts.append(part)
    frame = pd.concat(parts, ignore_index=True)
    if values is not None:
        frame = frame.join(values, on=["seed", "seat"]).fillna(0.0)
    return frame


def _gap_chart(gaps: pd.DataFrame, horizontal: bool, labels: tuple[str, str]) -> tuple[Any, Any]:
    fig = _figure(8, 4.2 if horizontal else 3.8)
    ax = fig.add_subplot()
    pos = pd.Series(range(len(gaps)), dtype=float)
    draw = ax.barh if horizontal else ax.bar
    size = "height" if horizontal else "width"
    err = "xerr" if horizontal else "yerr"
    for shift, side, colour, hatch, label in ((0.2, "winners", "#6f9e6a", "", labels[0]),
                                              (-0.2, "others", "#d9d9d9", "//", labels[1])):
        shift = shift if horizontal else -shift
        draw(pos + shift, gaps[side], **{size: 0.4}, color=colour, edgecolor="black",
             hatch=hatch, capsize=2, label=label,
             **{err: [(gaps[side] - gaps[f"{side}_low"]).clip(lower=0),
                      (gaps[f"{side}_high"] - gaps[side]).clip(lower=0)]})
    if horizontal:
        ax.set_yticks(list(pos), list(gaps["name"]), fontsize=8)
        ax.set_xlabel("mean points per player (95% bootstrap interval)")
    else:
        ax.set_xticks(list(pos), list(gaps["name"]))
        ax.set_ylabel("mean points (95% bootstrap interval)")
    ax.legend(fontsize=8, loc="lower right" if horizontal else "best")
    fig.text(0.01, -0.02, BOOTSTRAP_NOTE, fontsize=8, va="top")
    return fig, ax


# ----- Forest Shuffle: species of winning forests --------------------------------------------


def winning_species(game: str = "forest_shuffle", players: int = 2, bots: Any = ("random",),
                    games: int = 30, progress: bool = True, first_seed: int = 0) -> Answer:
    """Which species carry a winning forest?  Mean points of each species in the winners'
    forests and in the others', the gap with the interval of the difference, and the largest
    gap judged against the largest that chance gives."""
    table, events = simulate(game, players=players, seeds=range(first_seed, first_seed + games),
                             bots=list(bots)[:1], events=True, progress=progress)
    # every forest counts, with 0 for a species it does not have
    species = events.pivot_table(index=["seed", "seat"], columns="label", values="points",
                                 aggfunc="sum", fill_value=0)
    forests = _players_frame(table, players, species, list(species.columns))
    if forests.winner.all() or not forests.winner.any():
        fig = _figure(7, 2)
        fig.text(0.5, 0.5, "Every forest won (or none did) in these games: play more games.",
                 ha="center")
        return Answer(fig, pd.DataFrame(), "No forest lost in these games, so there is "
                      "nothing to compare: play more games.", table)
    rows, p_value = winners_vs_others(forests, list(species.columns))
    gaps = rows.sort_values(["gap", "name"], kind="stable").tail(10).reset_index(drop=True)
    fig, ax = _gap_chart(gaps, True, ("winning forests (plain)", "other forests (hatched)"))
    ax.set_title(f"Forest Shuffle: species with the biggest lead in winning forests "
                 f"({games} games)", fontsize=10)
    text = largest_gap_words(gaps.iloc[-1], "species", len(rows), p_value)
    return Answer(fig, gaps.rename(columns={"name": "species"}), text, table)


# ----- Inori: where the points come from ------------------------------------------------------


def point_sources(game: str = "inori", players: int = 2, bots: Any = ("greedy",),
                  games: int = 20, progress: bool = True, first_seed: int = 0) -> Answer:
    """Where do a winner's points come from?  Mean points per scoring category for the winners
    and for the others, and the gap of each with the interval of the difference."""
    table = simulate(game, players=players, seeds=range(first_seed, first_seed + games),
                     bots=list(bots)[:1], progress=progress)
    cats = [c[3:] for c in table.columns if c.startswith("p0_")
            and c not in ("p0_bot", "p0_won", "p0_total")]
    frame = _players_frame(table, players, None, cats)
    parts, p_value = winners_vs_others(frame, cats)
    parts["name"] = [c.replace("_", " ") for c in parts["name"]]
    fig, ax = _gap_chart(parts, False, ("winners (plain)", "the others (hatched)"))
    ax.set_title(f"Inori: points by category ({games} games, {players} players, all "
                 f"{list(bots)[0]})", fontsize=10)
    top = parts.sort_values("gap", kind="stable").iloc[-1]
    text = largest_gap_words(top, "categories", len(parts), p_value)
    return Answer(fig, parts.rename(columns={"name": "category"}), text, table)


def _bots(game: str) -> tuple[str, ...]:
    return tuple(reader(game).bots)


QUESTIONS: dict[str, Question] = {}


def _add(q: Question) -> None:
    QUESTIONS[q.key] = q


for _game, _bot, _games in (("pangaea", "forester", 20), ("harmonies", "random", 40),
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
