"""Fuzzing the loaders of the four games with mutated real saves (issue 15).

Each mutant (a real mid-game save changed in one place: a field dropped, swapped, duplicated,
retyped, enlarged, nested deeply, a number made huge) must either load into a state that plays
to the end with random legal moves, or be refused with InvalidData -- nothing else, within a
time bound.  The examples are derandomized, so the run is the same every time; a small run is
repeated in a subprocess under ``python -O`` with a memory limit."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import fuzz_support

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", sorted(fuzz_support.SETUPS))
@FUZZ
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_mutated_save_loads_and_plays_or_is_refused(game, seed):
    assert fuzz_support.one(game, seed) in ("refused", "played")


def test_mutants_cover_both_outcomes():
    """The mutations are neither all refused nor all accepted (the fuzz tests something)."""
    tally = fuzz_support.run("harmonies", 40, first=10_000)
    assert tally["refused"] > 0 and tally["played"] > 0


def test_the_fuzz_passes_under_python_O_within_a_memory_bound():
    """Under -O every check still holds: ``assert`` statements would vanish there."""
    code = (
        "import resource, sys\n"
        "hard = resource.getrlimit(resource.RLIMIT_AS)[1]\n"
        "soft = 3 * 1024**3 if hard == resource.RLIM_INFINITY else min(3 * 1024**3, hard)\n"
        "resource.setrlimit(resource.RLIMIT_AS, (soft, hard))\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "assert False, 'asserts are active'\n"   # skipped under -O, so the run goes on
        "import fuzz_support\n"
        "for game in sorted(fuzz_support.SETUPS):\n"
        "    print(game, fuzz_support.run(game, 25, first=50_000))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-O", "-c", code, str(HERE)], capture_output=True,
                         text=True, timeout=240, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.count("refused") == len(fuzz_support.SETUPS), out.stdout
