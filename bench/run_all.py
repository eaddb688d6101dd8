"""Run every benchmark script in this folder, one after another (``make bench``)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

here = Path(__file__).parent
for script in sorted(here.glob("bench_*.py")):
    print(f"== {script.stem}", flush=True)
    sys.argv = [str(script)]
    runpy.run_path(str(script), run_name="__main__")
    print()
