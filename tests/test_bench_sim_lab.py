"""The simulation lab's bench (bench/bench_sim_lab.py): both goals in one report, with the
load average; the parts that decide what it prints (its timings and memory are never
asserted)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _bench():
    sys.path.insert(0, str(BENCH))
    try:
        import bench_sim_lab
        return bench_sim_lab
    finally:
        sys.path.remove(str(BENCH))


def test_one_run_reports_overhead_and_memory_side_by_side(monkeypatch, capsys):
    bench = _bench()
    seen = []

    def measure(game, players, bot, games, rounds, scale):
        seen.append((game, bot, rounds, scale))
        return {"bare": 1.0, "lab": 1.05 if game != "inori" else 1.12, "events": 1.2,
                "games": games}

    peaks = iter([150.0, 160.0, 190.0])
    monkeypatch.setattr(bench.sim_overhead, "measure", measure)
    monkeypatch.setattr(bench.sim_memory, "peak_of_run",
                        lambda game, games, workers, folder: (next(peaks), 1.0))
    bench.main(["--sizes", "1000,10000,100000"])
    out = capsys.readouterr().out
    assert [s[0] for s in seen] == ["pangaea", "harmonies", "forest_shuffle", "inori"]
    assert {s[1] for s in seen} == {"random"} and seen[0][2] == bench.FULL_ROUNDS
    assert "load average" in out.splitlines()[0] and "load average" in out.splitlines()[-1]
    assert "+12.0%" in out and "1.07x" in out and "1.27x" in out
    assert out.splitlines()[-1].startswith("largest overhead +12.0% (misses +10%); largest "
                                           "memory ratio 1.27x (misses 1.2x)")
    # --quick: fewer rounds and games, smaller sizes
    seen.clear()
    peaks = iter([150.0, 150.0, 151.0])
    bench.main(["--quick"])
    out = capsys.readouterr().out
    assert seen[0][2:] == (2, 0.25) and "    2,000 games" in out


def test_the_memory_part_runs_the_command_line(tmp_path):
    peak, seconds = _bench().sim_memory.peak_of_run("inori", 3, 1, tmp_path)
    assert peak > 10 and seconds > 0 and (tmp_path / "inori-3" / "_run.json").is_file()
