"""The soak run's verdict: games that break and a worker that holds too much memory both
fail it (a few short games here; ``make soak`` plays thousands)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOAK = ROOT / "bench" / "soak.py"


def _soak(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(SOAK), "--games", "1", "--jobs", "1",
                           "--only", "Inori", *args], env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_short_soak_passes_and_reports_its_workers_memory():
    done = _soak()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "invariant breaks 0" in done.stdout and "no breaks" in done.stdout
    line = next(x for x in done.stdout.splitlines() if x.startswith("largest worker memory"))
    megabytes = float(line.split(":")[1].split("MB")[0])
    assert 10 < megabytes < 1000          # a Python process with the package loaded


def test_a_worker_over_the_memory_bound_fails_the_soak():
    done = _soak("--max-memory", "1")
    assert done.returncode == 1
    assert "A WORKER HELD TOO MUCH MEMORY" in done.stdout
