"""The summary counted game by game while a run plays (``Tally``) gives the figures the whole
table gives, for every game and mode, with seats rotating, whatever order the games arrive in;
``simulate(..., table=False)`` returns it with the folder instead of the table, and the
command line prints it without reading the table back."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pandas as pd
import pytest

from pangaea_lab.sim.run import Run
from pangaea_lab.sim.stats import summary_figures, summary_lines
from pangaea_lab.sim.tally import Tally
from pangaea_lab.simulate import SimulationError, load, simulate

from test_sim_fair import MODES


def same_figures(counted, read):
    """The two summaries' figures agree: the same kind, records in the same order, counts
    equal and rates equal up to the rounding of a sum."""
    assert counted["games"] == read["games"] and counted["kind"] == read["kind"]
    assert counted["ended_by"] == read["ended_by"]
    assert len(counted["records"]) == len(read["records"])
    for mine, theirs in zip(counted["records"], read["records"]):
        assert set(mine) == set(theirs)
        for key, value in theirs.items():
            if isinstance(value, float):
                assert math.isclose(mine[key], value, rel_tol=1e-12, abs_tol=1e-12), key
            else:
                assert mine[key] == value, key


def tally_of(table, order_seed=0):
    rows = table.to_dict("records")
    random.Random(order_seed).shuffle(rows)   # games arrive in any order
    tally = Tally()
    for start in range(0, len(rows), 3):
        tally.add(rows[start:start + 3])
    return tally


@pytest.mark.parametrize("game,players,options,bots", MODES)
def test_counted_summary_equals_the_tables_in_every_mode(game, players, options, bots):
    table = simulate(game, players=players, seeds=6, bots=bots, options=options,
                     rotate_seats=True, progress=False)
    tally = tally_of(table)
    same_figures(tally.figures(), summary_figures(table))
    assert tally.lines() == summary_lines(table)


def test_counted_summary_with_shared_wins_safety_nets_and_fixed_seats():
    """Hand-made rows: wins shared by two and three players, games ended by a safety net,
    each kind of summary (seats kept, seats rotating, a co-op team)."""
    rows = []
    for seed in range(30):
        winners = [1, 2, 3, 0][seed % 4]
        rows.append({"seed": seed, "players": 3, "winners": winners, "cooperative": False,
                     "ended_by": "rules" if seed % 5 else "round-limit",
                     **{f"p{s}_bot": ["greedy", "random", "forester"][(s + seed) % 3]
                        for s in range(3)},
                     **{f"p{s}_won": s < winners for s in range(3)},
                     **{f"p{s}_total": (seed * 7 + s * 3) % 40 for s in range(3)}})
    rotating = pd.DataFrame(rows)
    fixed = rotating.assign(p0_bot="greedy", p1_bot="random", p2_bot="random")
    team = rotating.assign(cooperative=True)
    for table, kind in ((rotating, "bots"), (fixed, "seats"), (team, "team")):
        for order in range(3):
            tally = tally_of(table, order)
            assert tally.figures()["kind"] == kind
            same_figures(tally.figures(), summary_figures(table))
            assert tally.lines() == summary_lines(table)
    assert summary_figures(rotating)["ended_by"] == {"round-limit": 6, "rules": 24}


def test_an_empty_tally_says_no_games():
    assert Tally().lines() == ["0 games"]


def test_table_false_returns_the_folder_and_the_summary(tmp_path):
    out = tmp_path / "r.parquet"
    kw = dict(players=3, bots="greedy,random,random", progress=False)
    run = simulate("inori", seeds=7, out=out, table=False, events=True, **kw)
    assert isinstance(run, Run) and run.games == 7 and run.folder == out
    games, events = load(out)
    same_figures(run.figures(), summary_figures(games))
    assert run.summary().splitlines() == summary_lines(games)
    pd.testing.assert_frame_equal(run.table(), games)
    both = run.load()
    pd.testing.assert_frame_equal(both[1], events)
    assert "Run of 7 games" in repr(run)
    # a resume counts the games already in the folder as well as the new ones
    more = simulate("inori", seeds=12, out=out, table=False, resume=True, events=True, **kw)
    games = load(out)[0]
    assert more.games == 12 == len(games)
    same_figures(more.figures(), summary_figures(games))
    # the small-run behaviour is unchanged: the table itself
    again, _ = simulate("inori", seeds=12, out=out, resume=True, events=True, **kw)
    pd.testing.assert_frame_equal(again, games)


def test_table_false_needs_a_results_folder_and_a_flag():
    with pytest.raises(SimulationError, match="table=False .* give out="):
        simulate("inori", seeds=2, table=False, progress=False)
    with pytest.raises(SimulationError, match="table"):
        simulate("inori", seeds=2, table="no", progress=False)


def test_command_line_summary_is_the_tables(tmp_path):
    out = tmp_path / "cli"
    argv = [sys.executable, "-m", "pangaea_lab.simulate", "harmonies", "--games", "9",
            "--bots", "greedy,random", "--out", str(out), "--quiet", "--save-every", "0"]
    printed = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    games = load(out)[0]
    assert printed.splitlines()[:-1] == summary_lines(games)
    # without a results folder nothing is kept, and the summary is the same
    alone = subprocess.run(argv[:-5] + ["--quiet"],
                           capture_output=True, text=True, check=True).stdout
    assert alone.splitlines() == summary_lines(games)


def test_compaction_streams_in_bounded_row_groups(tmp_path, monkeypatch):
    """The parts of a run are merged batch by batch into row groups of at most ROW_GROUP rows
    (a few rows here, so that many batches and groups are crossed); the merged tables are the
    run's own, and a run that returns no table never reads the folder back."""
    import pyarrow.parquet as pq
    from pangaea_lab.sim import store
    monkeypatch.setattr(store, "ROW_GROUP", 7)
    monkeypatch.setattr(store, "BATCH_ROWS", 16)   # a batch larger than a row group too
    reads = []
    real_read = store.ResultsFolder.read
    monkeypatch.setattr(store.ResultsFolder, "read",
                        lambda self, *a, **k: reads.append(1) or real_read(self, *a, **k))
    out = tmp_path / "r"
    kw = dict(players=2, events=True, progress=False)
    run = simulate("inori", seeds=30, out=out, table=False, save_every=0, **kw)
    assert reads == [] and run.games == 30
    for table in ("games", "events"):
        [part] = (out / table).iterdir()
        meta = pq.ParquetFile(part).metadata
        sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
        assert max(sizes) == 7 and all(n == 7 for n in sizes[:-1]) and len(sizes) > 3
    games, events = run.load()
    here, here_events = simulate("inori", seeds=30, **kw)
    pd.testing.assert_frame_equal(games, here)
    pd.testing.assert_frame_equal(events, here_events)
