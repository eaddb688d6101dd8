"""What each page of the classroom app costs to start: ``make app-pages`` (not in ``make test``).

For every notebook the app serves, one after the other, the script starts a fresh kernel (as
Voilà does for a page without a ready kernel), runs the notebook's code cells in order and
prints, per page: the kernel's start, the first code cell (the page's imports), the rest of the
notebook, the slowest cell, and the kernel's memory once the page has run.  A page whose first
code cell and whole run are cheap can be started on demand; the expensive ones are the pages
that want a pool of ready kernels (app/voila.py) or lazier work.

The machine's load average is printed with the figures: on a shared machine other work slows
every figure down, so compare pages within one run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run_page(path: Path, cell_limit: float) -> dict:
    """Seconds to start a kernel, to run the first code cell, to run the whole page; the
    slowest cell; the kernel's memory afterwards."""
    import nbformat
    from jupyter_client.manager import KernelManager

    notebook = nbformat.read(path, as_version=4)
    cells = [c.source for c in notebook.cells if c.cell_type == "code" and c.source.strip()]
    manager = KernelManager(kernel_name="python3")
    started = time.monotonic()
    manager.start_kernel(cwd=str(path.parent), env={**os.environ, "VOILA_PREHEAT": "False"},
                         stderr=subprocess.DEVNULL)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        kernel = time.monotonic() - started
        times, errors = [], []
        for source in cells:
            t0 = time.monotonic()
            reply = client.execute_interactive(source, timeout=cell_limit, store_history=False,
                                               output_hook=lambda message: None)
            times.append(time.monotonic() - t0)
            if reply["content"].get("status") != "ok":
                errors.append(reply["content"].get("ename", "error"))
        pid = manager.provisioner.pid if manager.provisioner else None
        memory = _rss_mb(pid) if pid else 0.0
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    return {"kernel": kernel, "first": times[0] if times else 0.0,
            "rest": sum(times[1:]), "slowest": max(times, default=0.0),
            "slowest_at": times.index(max(times)) + 1 if times else 0,
            "cells": len(times), "memory": memory, "errors": errors}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*",
                        help="notebooks under notebooks/ (default: every one the app serves)")
    parser.add_argument("--cell-limit", type=float, default=300.0,
                        help="give up on a cell after this many seconds (300)")
    args = parser.parse_args(argv)
    pages = args.pages or sorted(str(p.relative_to(NOTEBOOKS))
                                 for p in NOTEBOOKS.rglob("*.ipynb")
                                 if ".ipynb_checkpoints" not in p.parts)
    for page in pages:
        if not (NOTEBOOKS / page).is_file() or not page.endswith(".ipynb"):
            parser.error(f"pages: {page!r} is not a notebook under notebooks/")
    print(f"Page start-up costs, one page at a time; {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f} before starting (a shared machine: other work runs too)")
    print(f"{'page':44} {'kernel':>7} {'first cell':>10} {'rest':>7} {'slowest cell':>14} "
          f"{'memory':>7}")
    failed = 0
    for page in pages:
        row = run_page(NOTEBOOKS / page, args.cell_limit)
        failed += bool(row["errors"])
        print(f"{page:44} {row['kernel']:6.1f}s {row['first']:9.1f}s {row['rest']:6.1f}s "
              f"{row['slowest']:6.1f}s (#{row['slowest_at']:>2}) {row['memory']:5.0f}MB"
              + (f"  errors: {', '.join(row['errors'])}" if row["errors"] else ""), flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
