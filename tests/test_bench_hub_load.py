"""The classroom hub load bench's parts that decide what it reports and whether the goal was
met (bench/hub_load.py; its timings are never asserted, and the hub is not started here)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench_modules import bench_module

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture(scope="module")
def bench():
    with bench_module("hub_load") as module:
        yield module


def _class(bench, working_after):
    students = bench.class_of(len(working_after), 1, {
        f"s{i:02d}": "pw" for i in range(1, len(working_after) + 1)})
    for student, seconds in zip(students, working_after):
        if seconds is None:
            student.times = {"logged in": 1.0}
            student.error = "AssertionError: s's server did not become ready"
        else:
            student.times = {step: seconds * (k + 1) / len(bench.STEPS)
                             for k, step in enumerate(bench.STEPS)}
    return students


def _report(bench, students, capsys):
    met = bench.report(students, {"before the class": (150.0, 0.0),
                                  "at the peak": (170.0, 900.0)},
                       (9.0, 41.0), {"start": (12.4, 20.6, 29.9), "end": (26.8, 22.1, 28.6)},
                       60.0, browsers=1)
    return met, capsys.readouterr().out


def test_nearest_rank_percentile(bench):
    assert bench.percentile([3.0], 0.95) == 3.0
    assert bench.percentile([float(n) for n in range(1, 21)], 0.95) == 19.0
    assert bench.percentile([float(n) for n in range(1, 31)], 0.95) == 29.0
    assert bench.percentile([5.0, 1.0, 3.0], 0.5) == 3.0


def test_the_goal_is_met_only_when_everyone_works_in_time(bench, capsys):
    met, said = _report(bench, _class(bench, [20.0, 40.0, 59.0]), capsys)
    assert met and "goal (all 3 working within 60 s): met" in said
    assert "median" in said and "95th" in said and "load average start  12.40" in said

    met, said = _report(bench, _class(bench, [20.0, 40.0, 61.0]), capsys)
    assert not met and "missed by 1 of 3" in said and "s03: working after 61.0 s" in said

    met, said = _report(bench, _class(bench, [20.0, None, 30.0]), capsys)
    assert not met and "s02: AssertionError" in said
    # memory per student counts the students whose server started (2 here)
    assert "450 MB each" in said and "0 of 6 notebooks" in said


def test_the_class_spreads_browsers_and_games(bench):
    students = bench.class_of(8, 2, {f"s{i:02d}": "pw" for i in range(1, 9)})
    assert [s.name for s in students if s.browser] == ["s01", "s05"]
    assert {s.notebooks[0] for s in students} == {bench.START_NOTEBOOK}
    assert {s.notebooks[1] for s in students} == set(bench.GAME_NOTEBOOKS)
    for path in (bench.START_NOTEBOOK, *bench.GAME_NOTEBOOKS):
        assert (BENCH.parent / "notebooks" / path.removeprefix("course/")).is_file(), path


def test_the_first_code_cell_is_what_a_student_runs_first(bench):
    notebook = {"cells": [{"cell_type": "markdown", "source": ["# Title"]},
                          {"cell_type": "code", "source": ["from x import y\n", "y()"]},
                          {"cell_type": "code", "source": "later()"}]}
    assert bench.first_code_cell(notebook) == "from x import y\ny()"
    with pytest.raises(RuntimeError, match="no code cell"):
        bench.first_code_cell({"cells": [{"cell_type": "markdown", "source": "text"}]})


def test_memory_is_counted_for_the_hubs_own_processes(bench):
    hub_side, students = bench.memory_mb(os.getpid())
    assert hub_side > 0          # this test's own process stands in for the hub
    assert students == 0         # no process of another user under it
