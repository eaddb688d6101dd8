"""The results folder keeps every game: no part is written over after a part was deleted, a
second writer is refused, a damaged part or a foreign file is reported by name (never a
traceback), small parts are merged safely when a run ends, Parquet readers read each table
directly, and a resume after the rules changed is refused."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

from pangaea_lab.sim import record as sim_record
from pangaea_lab.sim import store as sim_store
from pangaea_lab.sim.run import make_plan, run_record
from pangaea_lab.sim.store import ResultsFolder, SimulationWarning
from pangaea_lab.simulate import SimulationError, load, main, simulate

ROOT = Path(__file__).resolve().parents[2]
RUN = dict(players=2, progress=False, save_every=0)


def parts(out: Path, table: str = "games") -> list[Path]:
    return sorted((out / table).glob("part-*.parquet"))


@pytest.fixture
def unmerged(monkeypatch):
    """Parts left as written (one per game with save_every=0), as after an interrupted run."""
    monkeypatch.setattr(sim_store, "COMPACT_ROWS", 1)


def test_deleting_a_part_then_resuming_keeps_every_seed(tmp_path, unmerged):
    out = tmp_path / "r"
    simulate("inori", seeds=12, out=out, events=True, **RUN)
    assert len(parts(out)) == 12
    for victim in (7, 3):   # each resume once wrote over the last part and lost a seed
        parts(out)[victim].unlink()
        games, events = simulate("inori", seeds=12, out=out, resume=True, events=True, **RUN)
        assert sorted(games.seed) == list(range(12))
        assert sorted(load(out)[0].seed) == list(range(12))
        assert set(events.seed) == set(range(12))
        assert len(parts(out)) == 12 and len(parts(out, "events")) == 12
    plain = simulate("inori", seeds=12, players=2, progress=False)
    pd.testing.assert_frame_equal(load(out)[0], plain)


def test_a_second_writer_is_refused_while_the_first_holds_the_folder(tmp_path):
    out = tmp_path / "r"
    simulate("inori", seeds=2, out=out, **RUN)
    plan = make_plan("inori", 2, 2, None, None, None, out, True, None, False, False, None,
                     None, True)
    first = ResultsFolder.for_writing(out, run_record(plan.spec), resume=True)
    try:
        with pytest.raises(SimulationError, match="being written by another run .process "
                                                  r"\d+ since .*wait for that run to end"):
            simulate("inori", seeds=4, out=out, resume=True, **RUN)
        assert main(["inori", "--games", "4", "--out", str(out), "--resume", "--quiet"]) == 2
    finally:
        first.release()
    assert sorted(simulate("inori", seeds=4, out=out, resume=True, **RUN).seed) == [0, 1, 2, 3]


def test_the_lock_goes_with_a_killed_writer(tmp_path):
    """The system drops a dead process's lock: a run killed with SIGKILL never blocks the
    folder."""
    out = tmp_path / "r"
    simulate("inori", seeds=2, out=out, **RUN)
    holder = ("import sys, time\nfrom pangaea_lab.sim.store import ResultsFolder\n"
              "from pangaea_lab.sim.run import make_plan, run_record\n"
              f"plan = make_plan('inori', 2, 2, None, None, None, {str(out)!r}, True, None, "
              "False, False, None, None, True)\n"
              f"f = ResultsFolder.for_writing({str(out)!r}, run_record(plan.spec), True)\n"
              "print('held', flush=True)\ntime.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        with pytest.raises(SimulationError, match="being written by another run"):
            simulate("inori", seeds=3, out=out, resume=True, **RUN)
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    assert len(simulate("inori", seeds=3, out=out, resume=True, **RUN)) == 3


def test_a_truncated_part_is_named_with_what_to_do(tmp_path, unmerged, capsys):
    out = tmp_path / "r"
    simulate("inori", seeds=4, out=out, **RUN)
    damaged = parts(out)[2]
    damaged.write_bytes(damaged.read_bytes()[:200])
    words = f"{damaged} cannot be read as a results part .*delete it and resume the run"
    with pytest.raises(SimulationError, match=words):
        load(out)
    with pytest.raises(SimulationError, match=words):
        simulate("inori", seeds=4, out=out, resume=True, **RUN)
    assert main(["inori", "--games", "4", "--out", str(out), "--resume", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err and len(err.splitlines()) == 1
    damaged.unlink()                       # what the message says to do
    assert sorted(simulate("inori", seeds=4, out=out, resume=True, **RUN).seed) == [0, 1, 2, 3]


def test_a_stray_file_is_reported_and_never_read(tmp_path, capsys):
    out = tmp_path / "r"
    other = tmp_path / "other"
    simulate("inori", seeds=3, out=out, **RUN)
    simulate("inori", seeds=[50], out=other, **RUN)
    (out / "games" / "notes.txt").write_text("my notes")
    shutil.copy(parts(other)[0], out / "games")      # a part of another run
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        games, _ = load(out)
    assert sorted(games.seed) == [0, 1, 2]
    said = sorted(str(w.message) for w in caught if w.category is SimulationWarning)
    assert len(said) == 2 and len(caught) == 2
    assert said[0].startswith("games/notes.txt is not a part of this run and was not read; "
                              "move it out of the folder")
    assert said[1].startswith(f"games/{parts(other)[0].name} is not a part of this run")
    assert main(["inori", "--games", "3", "--out", str(out), "--resume", "--quiet"]) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if line.startswith("note:")]
    assert len(notes) == 2 and any("notes.txt" in n for n in notes)


def test_parquet_readers_read_each_table_directly(tmp_path):
    out = tmp_path / "r"
    games, events = simulate("inori", seeds=5, out=out, events=True, **RUN)
    with warnings.catch_warnings():
        warnings.simplefilter("error")        # the folder holds nothing foreign
        load(out)
    by_pandas = pd.read_parquet(out / "games").sort_values("seed").reset_index(drop=True)
    pd.testing.assert_frame_equal(by_pandas, games)
    assert len(pd.read_parquet(out / "events")) == len(events)
    import dask.dataframe as dd
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # Dask's own notices about the pandas it calls
        by_dask = dd.read_parquet(str(out / "games")).compute()
    assert sorted(by_dask.seed) == [0, 1, 2, 3, 4]


def test_small_parts_are_merged_when_a_run_ends(tmp_path, monkeypatch):
    out = tmp_path / "r"
    monkeypatch.setattr(sim_store, "COMPACT_ROWS", 4)
    games, events = simulate("inori", seeds=10, out=out, events=True, **RUN)
    assert [len(pd.read_parquet(p)) for p in parts(out)] == [4, 4, 2]
    assert [p.name for p in parts(out, "events")] == [p.name for p in parts(out)]
    pd.testing.assert_frame_equal(load(out)[0], games)
    pd.testing.assert_frame_equal(load(out)[1], events)


def test_a_merge_cut_short_never_doubles_or_loses_a_game(tmp_path, monkeypatch):
    monkeypatch.setattr(sim_store, "COMPACT_ROWS", 1)
    out = tmp_path / "r"
    games = simulate("inori", seeds=4, out=out, **RUN)
    old = [p.name for p in parts(out)]
    kept = {name: (out / "games" / name).read_bytes() for name in old}
    folder = ResultsFolder.for_reading(out)
    folder.compact(max_rows=100)          # merged into one part
    new = parts(out)[0].name
    for name, data in kept.items():       # as if killed after the merged part was written
        (out / "games" / name).write_bytes(data)
    (out / "_compacting.json").write_text(json.dumps({"new": new, "old": old}))
    pd.testing.assert_frame_equal(load(out)[0], games)
    (out / "games" / new).unlink()        # as if killed before it was written
    pd.testing.assert_frame_equal(load(out)[0], games)
    monkeypatch.setattr(sim_store, "COMPACT_ROWS", 100)
    again = simulate("inori", seeds=4, out=out, resume=True, **RUN)   # tidies, then merges
    pd.testing.assert_frame_equal(again, games)
    assert len(parts(out)) == 1 and not (out / "_compacting.json").exists()


def test_a_journal_naming_other_files_touches_nothing(tmp_path):
    out = tmp_path / "r"
    games = simulate("inori", seeds=3, out=out, **RUN)
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me")
    mine = parts(out)[0].name
    for journal in ({"new": mine, "old": ["../../precious.txt"]},
                    {"new": "../../precious.txt", "old": [mine]}):
        (out / "_compacting.json").write_text(json.dumps(journal))
        pd.testing.assert_frame_equal(load(out)[0], games)
        simulate("inori", seeds=3, out=out, resume=True, **RUN)
        assert outside.read_text() == "keep me" and parts(out) == [out / "games" / mine]
    assert not (out / "_compacting.json").exists()


def test_a_resume_after_the_rules_changed_is_refused(tmp_path):
    out = tmp_path / "r"
    simulate("inori", seeds=2, out=out, **RUN)
    record = json.loads((out / "_run.json").read_text())
    assert record["engine"] == sim_record.engine_fingerprint("inori")
    assert record["version"] and record["run_id"] and record["rotate_seats"] is True
    record["engine"] = "0123456789abcdef"
    (out / "_run.json").write_text(json.dumps(record))
    with pytest.raises(SimulationError, match="played by other rules or another version.*"
                                              "engine: '0123456789abcdef' in the file"):
        simulate("inori", seeds=2, out=out, resume=True, **RUN)
    assert sorted(load(out)[0].seed) == [0, 1]       # still read


def test_the_fingerprint_follows_the_rules_not_the_drawings(tmp_path):
    package = ROOT / "pangaea_lab"
    copy = tmp_path / "pangaea_lab"
    for part in ("inori", "core", "sim"):
        shutil.copytree(package / part, copy / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    before = sim_record.engine_fingerprint("inori", copy)
    assert before == sim_record.engine_fingerprint("inori", package)
    with open(copy / "inori" / "widgets.py", "a") as f:
        f.write("\n# a drawing change\n")
    assert sim_record.engine_fingerprint.__wrapped__("inori", copy) == before
    with open(copy / "inori" / "rules.py", "a") as f:
        f.write("\n# a rules change\n")
    assert sim_record.engine_fingerprint.__wrapped__("inori", copy) != before


def test_an_old_format_folder_is_refused_in_words(tmp_path):
    out = tmp_path / "r"
    simulate("inori", seeds=2, out=out, **RUN)
    record = json.loads((out / "_run.json").read_text())
    record["format"] = 1
    (out / "_run.json").write_text(json.dumps(record))
    with pytest.raises(SimulationError, match="not a run record of this version.*format 1"):
        simulate("inori", seeds=2, out=out, resume=True, **RUN)
