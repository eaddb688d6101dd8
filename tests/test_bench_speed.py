"""The speed bench's parts that decide what it reports (its timings are never asserted)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _module(name: str):
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def _ratios(games, click=2.5, others=1.0):
    return {"games_time": games, "click_time": click, "score_time": others,
            "save_time": others, "load_time": others, "listing_time": others}


def test_targets_are_the_issues():
    bench = _module("bench_speed")
    assert bench._targets("harmonies-solo-A", _ratios(7.9)).startswith("games 8x NOT met")
    assert bench._targets("harmonies-solo-A", _ratios(8.0)).startswith("games 8x met")
    assert bench._targets("inori-4p", _ratios(3.0)).startswith("games 3x met")
    said = bench._targets("pangaea-4p", _ratios(2.9, click=1.9, others=0.8))
    assert said == ("games 3x NOT met; click 2x NOT met; slower: score, save, load, listing")
    assert bench._targets("forest_shuffle-4p", _ratios(4, others=0.95)).endswith("none slower")


def test_the_measured_seeds_are_cut_into_parts_kept_at_their_best():
    worker, bench = _module("speed_worker"), _module("bench_speed")
    for games in (1, 2, 9, 10, 11, 600):
        parts = worker.chunks(games)
        assert len(parts) == min(worker.CHUNKS, games)
        assert parts[0][0] == 0 and parts[-1][1] == games
        assert all(a < b for a, b in parts)
        assert all(parts[k][1] == parts[k + 1][0] for k in range(len(parts) - 1))
    assert bench.best_parts(None, [3.0, 1.0]) == [3.0, 1.0]
    assert bench.best_parts([3.0, 1.0], [2.0, 4.0]) == [2.0, 1.0]


def test_an_unknown_base_commit_is_refused():
    bench = _module("bench_speed")
    with pytest.raises(SystemExit, match="no commit"):
        bench.extract("no-such-commit-anywhere", Path("."))


def test_the_worker_plays_seeded_games_and_reports_their_scores():
    env = {**os.environ, "PYTHONPATH": str(BENCH.parent), "PYTHONHASHSEED": "0"}
    runs = [subprocess.run([sys.executable, str(BENCH / "speed_worker.py"), "harmonies-solo-A",
                            "2"], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    first, second = (json.loads(r.stdout.strip().splitlines()[-1]) for r in runs)
    assert first["mode"] == "harmonies-solo-A" and first["games"] == 2
    assert len(first["scores"]) == 2 and first["scores"] == second["scores"]
    assert all(first[k] > 0 for k in ("games_time", "first_time", "click_time", "save_time",
                                      "load_time"))


def test_the_instruction_bench_reads_cachegrinds_count():
    bench = _module("bench_instructions")
    text = ("==12== Cachegrind, a cache and branch-prediction profiler\n"
            "==12== I   refs:      1,234,567,890\n")
    assert bench.instructions(text) == 1_234_567_890
    with pytest.raises(SystemExit, match="no instruction count"):
        bench.instructions("==12== something went wrong\n")
    assert set(bench.GAMES) == set(_module("speed_worker").MODES)
    assert all(0 <= first < last for first, last in bench.GAMES.values())


def test_the_instruction_bench_plays_the_speed_benchs_games():
    """What each side runs under valgrind, run here without it: the same seeded games."""
    bench = _module("bench_instructions")
    code = bench.PLAY.format(bench=str(BENCH), mode="harmonies-solo-A", games=2)
    env = {**os.environ, "PYTHONPATH": str(BENCH.parent), "PYTHONHASHSEED": "0"}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
