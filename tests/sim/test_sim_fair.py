"""Fair seats, replayable rows, ratings and honest statistics: bots rotate round the table,
a row replays to its recorded scores in every game and mode, ratings put a strong bot above a
random one, a co-op team's win rate is the team's, and the statistics resample games and
correct for picking the largest gap."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pangaea_lab.sim.questions import winners_vs_others
from pangaea_lab.sim.ratings import rating_gap, ratings
from pangaea_lab.sim.replay import replay, replay_widget
from pangaea_lab.sim.stats import (games_needed, group_means, max_gap_test, safety_net_share,
                                   summary_lines, team_result)
from pangaea_lab.simulate import SimulationError, simulate, summary


def seat_counts(table, players):
    return {(seat, bot): int((table[f"p{seat}_bot"] == bot).sum())
            for seat in range(players) for bot in set(table[f"p{seat}_bot"])}


def test_each_bot_sits_in_each_seat_equally_often():
    table = simulate("inori", players=3, seeds=9, bots="greedy,random,random", progress=False)
    counts = seat_counts(table, 3)
    assert all(counts[(seat, "greedy")] == 3 for seat in range(3))
    assert all(counts[(seat, "random")] == 6 for seat in range(3))
    # the row says where the line-up sat and who started
    assert list(table.seat_shift) == [s % 3 for s in range(9)]
    assert set(table.first_player) <= {0, 1, 2}
    fixed = simulate("inori", players=3, seeds=3, bots="greedy,random,random",
                     rotate_seats=False, progress=False)
    assert set(fixed.p0_bot) == {"greedy"} and set(fixed.seat_shift) == {0}


def test_rotation_gives_identical_tables_on_every_backend():
    from distributed import Client, LocalCluster
    kw = dict(players=2, seeds=range(4, 10), bots="greedy,random", rotate_seats=True,
              progress=False)
    here = simulate("harmonies", **kw)
    assert set(here.p0_bot) == {"greedy", "random"}
    processes = simulate("harmonies", workers=2, **kw)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        on_dask = simulate("harmonies", client=client, **kw)
    pd.testing.assert_frame_equal(here, processes)
    pd.testing.assert_frame_equal(here, on_dask)


MODES = [
    ("pangaea", 2, {}, "forester,random"),
    ("pangaea", 3, {"family": True}, "forester,greedy,random"),
    ("pangaea", 2, {"mode": "coop"}, "forester"),
    ("pangaea", 1, {"mode": "coop", "difficulty": "cozy"}, "forester"),
    ("pangaea", 2, {"wild_woods": True}, "forester,random"),
    ("pangaea", 2, {"mode": "coop", "wild_woods": True}, "forester,random"),
    ("harmonies", 2, {}, "greedy,random"),
    ("harmonies", 1, {}, "greedy"),
    ("harmonies", 2, {"side": "B"}, "random"),
    ("forest_shuffle", 2, {}, "greedy,random"),
    ("inori", 3, {}, "greedy,random,random"),
]


@pytest.mark.parametrize("game,players,options,bots", MODES)
def test_a_row_replays_to_its_recorded_scores(game, players, options, bots):
    table = simulate(game, players=players, seeds=[3, 8], bots=bots, options=options,
                     progress=False)
    for row in table.to_dict("records"):
        final = replay(row)
        assert [s.total for s in final.scores()] == [row[f"p{s}_total"]
                                                     for s in range(players)]
        assert len(final.winners()) == row["winners"]


def test_a_row_opens_in_the_step_through_widget_at_its_end():
    row = simulate("inori", players=2, seeds=[11], bots="greedy,random",
                   progress=False).iloc[0]
    box = replay_widget(row)
    model = box.model
    assert model.is_over and [s.total for s in model.scores()] == [row.p0_total, row.p1_total]
    assert len(model.moves) == row.steps
    model.go_to(0)   # the history slider's first position: the game's start
    assert model.state is model.history[0]


def test_a_row_from_a_results_file_replays(tmp_path):
    from pangaea_lab.simulate import load
    simulate("harmonies", players=2, seeds=3, bots="greedy,random", out=tmp_path / "r",
             progress=False)
    games, _ = load(tmp_path / "r")
    assert replay(games.iloc[2]).scores()[0].total == games.iloc[2].p0_total


@pytest.mark.parametrize("change,words", [
    ({"game": "chess"}, "no game called"),
    ({"seed": -1}, "'seed' must be a whole number"),
    ({"seed": "3"}, "'seed' must be a whole number"),
    ({"players": 9}, "'players' must be a whole number"),
    ({"p1_bot": "os.system"}, "'p1_bot' is 'os.system'"),
    ({"options": "side=A; rm"}, "cannot start a game of Harmonies"),
    ({"options": "path=/etc/passwd"}, "'options' has 'path=/etc/passwd'"),
    ({"options": "side=A"}, "leave out options"),
    ({"options": "x" * 5000}, "'options' must be"),
    ({"p0_total": 0}, "the rules or a computer player changed"),
])
def test_a_tampered_row_is_refused_in_plain_words(change, words):
    row = simulate("harmonies", players=2, seeds=[1], bots="greedy,random",
                   progress=False).to_dict("records")[0]
    with pytest.raises(SimulationError, match=words):
        replay({**row, **change})
    with pytest.raises(SimulationError, match="no field 'seed'"):
        replay({k: v for k, v in row.items() if k != "seed"})


def test_ratings_put_the_strong_bot_above_the_random_one():
    table = simulate("inori", players=2, seeds=24, bots="random,greedy", progress=False)
    rated = ratings(table)
    assert list(rated.bot) == ["greedy", "random"]
    assert list(rated.games) == [24, 24]
    assert (rated.low < rated.rating).all() and (rated.rating < rated.high).all()
    gap, low, high = rating_gap(rated, "greedy", "random")
    assert low > 0 and low < gap < high
    pd.testing.assert_frame_equal(rated, ratings([table]))   # the same games, the same ratings
    # three seats, one bot in two of them: still rated, strong bot first
    three = simulate("inori", players=3, seeds=12, bots="greedy,random,random", progress=False)
    assert list(ratings(three).bot) == ["greedy", "random"]


def test_ratings_refuse_games_that_rate_nothing():
    alone = simulate("inori", players=2, seeds=2, bots="random", progress=False)
    with pytest.raises(SimulationError, match="two different computer players"):
        ratings(alone)
    coop = simulate("pangaea", players=2, seeds=1, bots="forester", options={"mode": "coop"},
                    progress=False)
    with pytest.raises(SimulationError, match="co-op games have no opponents"):
        ratings(coop)


def test_a_coop_summary_gives_the_team_win_rate():
    table = simulate("pangaea", players=2, seeds=8, bots="forester", options={"mode": "coop"},
                     progress=False)
    won = int((table.p0_won & table.p1_won).sum())
    assert table.cooperative.all() and 0 < won < 8   # seeds with wins and losses
    team = team_result(table)
    assert team["wins"] == won and team["win_rate"] == won / 8
    text = summary(table)
    assert f"won {won / 8:.1%} of the games" in text and "the team (forester)" in text
    assert "seat 1" not in text and "seat 2" not in text


def test_safety_net_share_is_reported():
    table = pd.DataFrame({"players": [2] * 4, "winners": [1] * 4, "seed": range(4),
                          "ended_by": ["rules", "round-limit", "round-limit", "rules"],
                          "p0_bot": ["greedy"] * 4, "p1_bot": ["greedy"] * 4,
                          "p0_won": [True] * 4, "p1_won": [False] * 4,
                          "p0_total": [5] * 4, "p1_total": [3] * 4})
    assert safety_net_share(table) == (2, 0.5)
    assert "2 of 4 games (50%) were ended by a safety net" in "\n".join(summary_lines(table))


def test_games_needed_follows_the_normal_approximation():
    # (1.96 * 0.5 + 0.8416 * sqrt(0.55 * 0.45)) / 0.05, squared: 782.4
    assert games_needed(0.05, 0.5) == 783
    assert games_needed(0.10, 0.5) < games_needed(0.05, 0.5)


def test_event_averages_resample_whole_games():
    # one game with three events: drawing games again always draws that game, so the
    # interval has no width (drawing the events again would give a wide one)
    one = pd.DataFrame({"seed": [1, 1, 1], "label": ["a"] * 3, "points": [0, 5, 10]})
    row = group_means(one, "label").iloc[0]
    assert (row["mean"], row.low, row.high) == (5.0, 5.0, 5.0)
    two = pd.DataFrame({"seed": [1, 1, 2, 2], "label": ["a"] * 4, "points": [0, 0, 9, 9]})
    row = group_means(two, "label").iloc[0]
    assert row.low == 0.0 and row.high == 9.0 and row["mean"] == 4.5


def test_the_largest_gap_is_judged_against_chances_largest():
    rng = np.random.default_rng(3)
    games, columns = 60, 40
    values = rng.normal(size=(2 * games, columns))
    game = np.repeat(np.arange(games), 2)
    winner = np.tile([True, False], games)
    gaps, p_noise = max_gap_test(values, winner, game)
    # with 40 columns of noise the largest gap alone looks like a finding ...
    best = int(np.argmax(gaps))
    a, b = values[winner, best], values[~winner, best]
    assert gaps[best] / np.sqrt(a.var() / games + b.var() / games) > 2
    # ... but chance's largest gap is as large often enough
    assert p_noise > 0.05
    values[winner, 7] += 1.5   # a real lead in one column
    _, p_real = max_gap_test(values, winner, game)
    assert p_real < 0.01


def test_winners_against_the_others_give_the_interval_of_the_difference():
    frame = pd.DataFrame({"seed": [0, 0, 1, 1, 2, 2, 3, 3],
                          "winner": [True, False] * 4,
                          "a": [5, 1, 6, 2, 7, 1, 5, 2], "b": [1, 1, 2, 2, 1, 1, 2, 2]})
    rows, p_value = winners_vs_others(frame, ["a", "b"])
    a = rows.set_index("name").loc["a"]
    assert a.gap == pytest.approx(5.75 - 1.5) and 0 < a.gap_low <= a.gap <= a.gap_high
    b = rows.set_index("name").loc["b"]
    assert b.gap == 0 and b.gap_low == 0 and b.gap_high == 0
    assert 0 < p_value <= 1


def test_the_notebooks_state_the_games_a_five_point_edge_needs():
    import json
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "notebooks"
    needed = round(games_needed(0.05, 0.5), -2)
    for path in ("pangaea/10_statistics.ipynb", "harmonies/06_statistics.ipynb",
                 "forest_shuffle/05_statistics.ipynb", "inori/05_statistics.ipynb"):
        text = "".join("".join(c["source"]) for c in json.loads((root / path).read_text())["cells"])
        assert f"about {needed:.0f} with two players" in text, path
        assert "Whole games are drawn" in text and "openskill" in text, path


def test_command_line_keeps_seats_fixed_when_asked(capsys):
    from pangaea_lab.simulate import main
    assert main(["inori", "--games", "3", "--bots", "greedy,random", "--fixed-seats",
                 "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "seat 1 (greedy)" in text and "seat 2 (random)" in text
    assert main(["inori", "--games", "3", "--bots", "greedy,random", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "greedy (seats rotate; 3 seat-games)" in text and "seat 1" not in text
