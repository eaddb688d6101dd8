"""What each page of the classroom app costs to start: ``make app-pages`` (not in ``make test``).

For every notebook the app serves, one after the other, the script starts a fresh kernel (as
Voilà does for a page without a ready kernel), runs the notebook's code cells in order and
prints, per page: the kernel's start, the first code cell (the page's imports), the rest of the
notebook, the slowest cell, and the kernel's memory once the page has run.  A page whose first
code cell and whole run are cheap can be started on demand; the expensive ones are the pages
that want a pool of ready kernels (app/voila.py) or lazier work.

The machine's load average is printed with the figures: on a shared machine other work slows
every figure down, so compare pages within one run.  ``--against COMMIT`` does that for a
change: the package and notebooks of that commit (``git archive``, into a temporary folder)
and the working tree's are run page by page, one after the other, and the ratio of each page's
start (first cell, and kernel plus every cell) is printed: below 1, the working tree's page
starts faster.

    python bench/app_pages.py --against 3d2af99 pangaea/10_statistics.ipynb
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
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


def run_page(path: Path, cell_limit: float, package: Path | None = None) -> dict:
    """Seconds to start a kernel, to run the first code cell, to run the whole page; the
    slowest cell; the kernel's memory afterwards.  ``package``: a folder holding another
    ``pangaea_lab`` for the kernel to import instead of the installed one."""
    import nbformat
    from jupyter_client.manager import KernelManager

    notebook = nbformat.read(path, as_version=4)
    cells = [c.source for c in notebook.cells if c.cell_type == "code" and c.source.strip()]
    manager = KernelManager(kernel_name="python3")
    started = time.monotonic()
    env = {**os.environ, "VOILA_PREHEAT": "False"}
    if package is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(package),
                                                          env.get("PYTHONPATH")]))
    manager.start_kernel(cwd=str(path.parent), env=env, stderr=subprocess.DEVNULL)
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


def _row(page: str, row: dict) -> str:
    return (f"{page:44} {row['kernel']:6.1f}s {row['first']:9.1f}s {row['rest']:6.1f}s "
            f"{row['slowest']:6.1f}s (#{row['slowest_at']:>2}) {row['memory']:5.0f}MB"
            + (f"  errors: {', '.join(row['errors'])}" if row["errors"] else ""))


def _whole(row: dict) -> float:
    return row["kernel"] + row["first"] + row["rest"]


def compare(pages: list[str], commit: str, cell_limit: float) -> int:
    """Each page of the commit, then of the working tree; the ratio of their starts."""
    with tempfile.TemporaryDirectory(prefix="app-pages-") as folder:
        old = Path(folder)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "pangaea_lab",
                                  "notebooks"], capture_output=True, check=False)
        if archive.returncode:
            print(f"--against: git cannot read commit {commit!r}: "
                  f"{archive.stderr.decode(errors='replace').strip()}", file=sys.stderr)
            return 2
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        print(f"{'page':44} {'kernel':>7} {'first cell':>10} {'rest':>7} {'slowest cell':>14} "
              f"{'memory':>7}")
        failed, ratios = 0, []
        for page in pages:
            if not (old / "notebooks" / page).is_file():
                print(f"{page}: not in {commit}, left out")
                continue
            before = run_page(old / "notebooks" / page, cell_limit, package=old)
            after = run_page(NOTEBOOKS / page, cell_limit)
            failed += bool(before["errors"] or after["errors"])
            print(_row(f"{page} @{commit[:10]}", before))
            print(_row(f"{page} now", after))
            first = after["first"] / max(before["first"], 1e-3)
            whole = _whole(after) / max(_whole(before), 1e-3)
            ratios.append((first, whole))
            print(f"{'':44} now / before: first cell {first:.2f}, whole page {whole:.2f} "
                  f"({_whole(before):.1f} s -> {_whole(after):.1f} s)", flush=True)
    if ratios:
        print(f"all pages, now / before: first cell {sum(r[0] for r in ratios) / len(ratios):.2f}"
              f", whole page {sum(r[1] for r in ratios) / len(ratios):.2f} (mean of the ratios)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*",
                        help="notebooks under notebooks/ (default: every one the app serves)")
    parser.add_argument("--cell-limit", type=float, default=300.0,
                        help="give up on a cell after this many seconds (300)")
    parser.add_argument("--against", metavar="COMMIT",
                        help="also run each page as it was at this commit and print the ratio")
    args = parser.parse_args(argv)
    pages = args.pages or sorted(str(p.relative_to(NOTEBOOKS))
                                 for p in NOTEBOOKS.rglob("*.ipynb")
                                 if ".ipynb_checkpoints" not in p.parts)
    for page in pages:
        if not (NOTEBOOKS / page).is_file() or not page.endswith(".ipynb"):
            parser.error(f"pages: {page!r} is not a notebook under notebooks/")
    if args.against is not None and not re.fullmatch(r"[0-9A-Za-z._/~^-]{1,80}", args.against) \
            or (args.against or "").startswith("-"):
        parser.error(f"--against: {args.against!r} is not a commit name")
    print(f"Page start-up costs, one page at a time; {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f} before starting (a shared machine: other work runs too)")
    if args.against:
        return compare(pages, args.against, args.cell_limit)
    print(f"{'page':44} {'kernel':>7} {'first cell':>10} {'rest':>7} {'slowest cell':>14} "
          f"{'memory':>7}")
    failed = 0
    for page in pages:
        row = run_page(NOTEBOOKS / page, args.cell_limit)
        failed += bool(row["errors"])
        print(_row(page, row), flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
