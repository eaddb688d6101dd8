"""The simulation lab: the same seeds give the same tables on every backend, an interrupted run
resumes without playing a seed twice, a results file of other settings is refused, and bad
arguments get plain-words errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import pangaea_lab
from pangaea_lab.core.players import RandomPlayer
from pangaea_lab.sim import run as sim_run
from pangaea_lab.sim import store as sim_store
from pangaea_lab.sim.games import READERS
from pangaea_lab.simulate import SimulationError, load, main, simulate

ROOT = Path(__file__).resolve().parents[2]


class CountingPlayer(RandomPlayer):
    """A random player that notes each game it starts (its seed names the game) and, when
    asked, stops the whole run after ``stop_after`` games, as a Ctrl-C would."""

    name = "counting"
    games: list[int] = []
    stop_after: int | None = None

    def __init__(self, seed):
        super().__init__(seed)
        game, seat = (int(x) for x in str(seed).split("-")[1:])
        if seat == 0:
            CountingPlayer.games.append(game)
            if self.stop_after is not None and len(CountingPlayer.games) > self.stop_after:
                raise KeyboardInterrupt("stopped by the test")


class NeedsMore(RandomPlayer):
    """A computer player that needs more than a seed to be made."""

    def __init__(self, seed, depth):
        super().__init__(seed)


@pytest.fixture
def counting():
    CountingPlayer.games = []
    CountingPlayer.stop_after = None
    yield CountingPlayer
    CountingPlayer.stop_after = None


@pytest.mark.parametrize("game", sorted(READERS))
def test_same_seeds_give_the_same_tables(game):
    players = 2
    a = simulate(game, players=players, seeds=[5, 3, 8], events=True, progress=False)
    b = simulate(game, players=players, seeds=[3, 5, 8], events=True, progress=False)
    pd.testing.assert_frame_equal(a[0], b[0])
    pd.testing.assert_frame_equal(a[1], b[1])
    assert list(a[0].seed) == [3, 5, 8]
    not_points = {"p0_bot", "p0_won", "p0_total", "p0_cubes_placed", "p0_tree_cards"}
    for row in a[0].itertuples():
        parts = [c for c in a[0].columns if c.startswith("p0_") and c not in not_points]
        assert row.p0_total == sum(getattr(row, c) for c in parts)   # categories add up
        assert row.steps >= row.turns >= 1


def test_pangaea_event_table_lists_every_land_ritual():
    games, events = simulate("pangaea", players=2, seeds=4, bots="forester", events=True,
                             progress=False)
    lands = events[events.kind == "Land Ritual"]
    assert len(lands) > 0
    assert (lands.path_length >= 2).all()
    # the Land Rituals and Creature Rituals of a seat add up to its Ritual points
    for seed, seat in [(s, p) for s in games.seed for p in range(2)]:
        mine = events[(events.seed == seed) & (events.seat == seat)]
        row = games[games.seed == seed].iloc[0]
        assert mine.points.sum() == row[f"p{seat}_creature_rituals"] + row[f"p{seat}_land_rituals"]


def test_three_backends_give_identical_tables():
    from distributed import Client, LocalCluster
    kw = dict(players=2, seeds=range(10, 22), bots="greedy,random", events=True,
              progress=False)
    here = simulate("inori", **kw)
    processes = simulate("inori", workers=2, **kw)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        on_dask = simulate("inori", client=client, **kw)
        by_address = simulate("inori", client=cluster.scheduler_address, **kw)
    for other in (processes, on_dask, by_address):
        pd.testing.assert_frame_equal(here[0], other[0])
        pd.testing.assert_frame_equal(here[1], other[1])


def test_results_file_round_trips_and_is_the_returned_table(tmp_path):
    out = tmp_path / "run.parquet"
    games, events = simulate("harmonies", players=2, seeds=4, out=out, events=True,
                             progress=False)
    plain = simulate("harmonies", players=2, seeds=4, events=True, progress=False)
    pd.testing.assert_frame_equal(games, plain[0])
    pd.testing.assert_frame_equal(events, plain[1])
    again = load(out)
    pd.testing.assert_frame_equal(again[0], games)
    assert pd.read_parquet(out / "games").shape == games.shape
    meta = json.loads((out / "_run.json").read_text())
    assert meta["version"] == pangaea_lab.__version__ and meta["options"]["side"] == "A"


def test_interrupted_run_resumes_without_playing_a_seed_twice(tmp_path, counting):
    out = tmp_path / "run.parquet"
    counting.stop_after = 5
    with pytest.raises(KeyboardInterrupt):
        simulate("inori", players=2, seeds=12, bots=counting, out=out, progress=False)
    kept = sorted(load(out)[0].seed)
    assert kept == list(range(5))            # every finished game was written
    counting.stop_after = None
    counting.games = []
    final = simulate("inori", players=2, seeds=12, bots=counting, out=out, resume=True,
                     progress=False)
    assert sorted(counting.games) == list(range(5, 12))   # only the missing seeds were played
    reference = simulate("inori", players=2, seeds=12, bots=counting, progress=False)
    pd.testing.assert_frame_equal(final, reference)


def test_killed_command_line_run_resumes_to_the_same_table(tmp_path):
    out = tmp_path / "killed.parquet"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "pangaea_lab.simulate", "pangaea", "--players", "2",
            "--games", "60", "--out", str(out), "--quiet"]
    # written after every game, so the kill falls mid-run however fast the games are
    first = argv + ["--save-every", "0"]
    proc = subprocess.Popen(first, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not list((out / "games").glob("part-*.parquet")) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.01)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stderr.close()
    partial = load(out)[0]
    assert 0 < len(partial) < 60
    done = subprocess.run(argv + ["--resume"], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    final = load(out)[0]
    assert sorted(final.seed) == list(range(60))          # each seed exactly once
    pd.testing.assert_frame_equal(final.head(len(partial)).reset_index(drop=True),
                                  partial.sort_values("seed").reset_index(drop=True))
    sample = simulate("pangaea", players=2, seeds=[0, 59], progress=False)
    pd.testing.assert_frame_equal(final[final.seed.isin([0, 59])].reset_index(drop=True),
                                  sample)


def test_results_file_of_other_settings_is_refused(tmp_path):
    out = tmp_path / "h.parquet"
    simulate("harmonies", players=2, seeds=2, out=out, progress=False)
    with pytest.raises(SimulationError, match="other settings.*side"):
        simulate("harmonies", players=2, seeds=2, out=out, options={"side": "B"},
                 resume=True, progress=False)
    with pytest.raises(SimulationError, match="other settings.*bots"):
        simulate("harmonies", players=2, seeds=2, out=out, bots="greedy", resume=True,
                 progress=False)
    with pytest.raises(SimulationError, match="already holds results.*resume"):
        simulate("harmonies", players=2, seeds=2, out=out, progress=False)
    meta = json.loads((out / "_run.json").read_text())
    meta["version"] = "0.0.1"
    (out / "_run.json").write_text(json.dumps(meta))
    with pytest.raises(SimulationError, match="version: '0.0.1' in the file"):
        simulate("harmonies", players=2, seeds=2, out=out, resume=True, progress=False)
    (tmp_path / "notes.parquet").write_text("hello")
    with pytest.raises(SimulationError, match="not a results folder"):
        simulate("harmonies", players=2, seeds=2, out=tmp_path / "notes.parquet",
                 progress=False)


@pytest.mark.parametrize("kwargs, words", [
    (dict(game="chess"), "no game called 'chess'; the games are pangaea"),
    (dict(game="inori", bots="clever"), "no computer player called 'clever'.*random, greedy"),
    (dict(game="inori", bots="random,random,random"), "2 players need 2 bots"),
    (dict(game="inori", options={"colour": "red"}), "Inori has no option 'colour'"),
    (dict(game="harmonies", options={"side": "C"}), "cannot start a game of Harmonies"),
    (dict(game="inori", seeds=0), "number of games must be at least 1"),
    (dict(game="inori", seeds=[]), "no games to play"),
    (dict(game="inori", seeds=[1, 1]), "appears twice"),
    (dict(game="inori", seeds=[-3]), "whole number from 0 to 2..63 - 1"),
    (dict(game="inori", players=7), "Inori is played by 2 to 4 players, not 7"),
    (dict(game="inori", workers=0), "workers must be"),
    (dict(game="inori", resume=True), "resume needs a results folder"),
    (dict(game="inori", client=42), "client must be a dask.distributed.Client"),
    (dict(game="inori", seeds="12"), "number of games, a range or a list of seeds"),
    (dict(game="inori", seeds=10**12), "at most 10,000,000 games"),
    (dict(game="inori", bots=[NeedsMore]), "cannot be made from a seed alone"),
    (dict(game="inori", bots=[int]), "must be a computer player"),
])
def test_bad_arguments_are_refused_in_plain_words(kwargs, words):
    kwargs = {"players": 2, "progress": False, **kwargs}
    with pytest.raises(SimulationError, match=words):
        simulate(**kwargs)


def test_command_line(tmp_path, capsys):
    out = tmp_path / "cli.parquet"
    assert main(["harmonies", "--players", "3", "--games", "3", "--bots", "greedy,random,random",
                 "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "3 games" in text and "greedy (seats rotate" in text and "95% interval" in text
    assert len(load(out)[0]) == 3
    assert main(["harmonies", "--games", "0", "--quiet"]) == 2
    assert "at least 1" in capsys.readouterr().err
    assert main(["monopoly", "--quiet"]) == 2
    assert "no game called 'monopoly'" in capsys.readouterr().err
    assert main(["harmonies", "--option", "side", "--quiet"]) == 2
    assert "NAME=VALUE" in capsys.readouterr().err
    assert main(["harmonies", "--option", "side=B", "--games", "2", "--quiet"]) == 0


def test_package_attribute_is_callable():
    table = pangaea_lab.simulate("inori", seeds=[2], progress=False)
    assert list(table.seed) == [2]


def test_flush_writes_parts_as_games_arrive(tmp_path, monkeypatch):
    monkeypatch.setattr(sim_run, "FLUSH_GAMES", 2)
    monkeypatch.setattr(sim_store, "COMPACT_ROWS", 1)     # parts left as they were written
    out = tmp_path / "parts.parquet"
    simulate("inori", players=2, seeds=5, out=out, progress=False)
    assert len(list((out / "games").glob("part-*.parquet"))) == 3


def test_save_every_zero_writes_each_game_as_it_finishes(tmp_path, monkeypatch):
    monkeypatch.setattr(sim_store, "COMPACT_ROWS", 1)     # parts left as they were written
    out = tmp_path / "each.parquet"
    simulate("inori", players=2, seeds=4, out=out, progress=False, save_every=0)
    assert len(list((out / "games").glob("part-*.parquet"))) == 4
    assert sorted(load(out)[0].seed) == [0, 1, 2, 3]


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), 3601, "2", True])
def test_save_every_must_be_a_sensible_number_of_seconds(tmp_path, bad):
    with pytest.raises(SimulationError, match="save_every must be a number of seconds"):
        simulate("inori", players=2, seeds=1, out=tmp_path / "x.parquet", progress=False,
                 save_every=bad)
    assert not (tmp_path / "x.parquet").exists()      # refused before anything is written


def test_command_line_refuses_a_bad_save_every(capsys, tmp_path):
    assert main(["inori", "--games", "1", "--save-every", "-2", "--quiet",
                 "--out", str(tmp_path / "r")]) == 2
    assert "save_every must be a number of seconds" in capsys.readouterr().err


def test_bots_given_as_classes_or_instances_are_seeded_per_game_and_seat():
    by_name = simulate("inori", players=2, seeds=3, bots="random,greedy", progress=False)
    from pangaea_lab.core.players import GreedyPlayer
    by_object = simulate("inori", players=2, seeds=3, bots=[RandomPlayer(99), GreedyPlayer],
                         progress=False)
    pd.testing.assert_frame_equal(by_name, by_object)
    assert list(by_object.p1_bot) == ["greedy", "random", "greedy"]   # seats rotate


def test_progress_bar_counts_games_in_a_terminal(capsys):
    simulate("inori", players=2, seeds=3)
    err = capsys.readouterr().err
    assert "Inori games" in err and "3 of 3 games" in err


@pytest.mark.parametrize("game, kind, columns", [
    ("harmonies", "Animal card", {"cubes", "cubes_needed", "completed", "points"}),
    ("forest_shuffle", "Species", {"label", "points"}),
    ("inori", "Season card", {"season", "card", "points"}),
])
def test_event_tables_of_the_other_games(game, kind, columns):
    games, events = simulate(game, players=2, seeds=3, bots="greedy", events=True,
                             progress=False)
    assert kind in set(events.kind) and columns <= set(events.columns)
    assert set(events.seed) <= set(games.seed) and (events.seat < 2).all()
    parts = {"forest_shuffle": ("species",), "harmonies": ("animal_cards",),  # spirits count there
             "inori": ("season_cards",)}[game]
    for row in games.itertuples():   # the events add up to the matching score categories
        for seat in range(2):
            mine = events[(events.seed == row.seed) & (events.seat == seat)]
            assert mine.points.sum() == sum(getattr(row, f"p{seat}_{p}") for p in parts)
