"""Local worker processes and Dask behave in a plain script: no main guard needed, one line on
Ctrl-C with what was done kept, and no worker outlives its parent (even after kill -9)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

from pangaea_lab.core.players import RandomPlayer
from pangaea_lab.simulate import SimulationError, load, simulate

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads the process table in /proc")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def script(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "plain_script.py"
    path.write_text(textwrap.dedent(text))
    return path


def run_script(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True,
                          timeout=180, cwd=path.parent)


def test_local_processes_work_from_a_script_without_a_main_guard(tmp_path):
    done = run_script(script(tmp_path, """
        from pangaea_lab import simulate
        table = simulate("inori", seeds=6, workers=2, progress=False)
        print(list(table.seed))
    """))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[0, 1, 2, 3, 4, 5]" and done.stderr == ""


def test_dask_works_from_a_script_without_a_main_guard(tmp_path):
    from distributed import LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://",
                      host="127.0.0.1", dashboard_address=":0") as cluster:
        done = run_script(script(tmp_path, """
            import sys
            from pangaea_lab import simulate
            table = simulate("inori", seeds=4, client=sys.argv[1], progress=False)
            print(list(table.seed))
        """), cluster.scheduler_address)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[0, 1, 2, 3]"


def test_a_bot_written_in_the_script_is_refused_for_workers_in_one_sentence(tmp_path):
    done = run_script(script(tmp_path, """
        from pangaea_lab import simulate
        from pangaea_lab.core.players import RandomPlayer
        from pangaea_lab.simulate import SimulationError

        class Mine(RandomPlayer):
            pass

        try:
            simulate("inori", seeds=2, bots=[Mine], workers=2, progress=False)
        except SimulationError as exc:
            print(exc)
        print(len(simulate("inori", seeds=2, bots=[Mine], progress=False)))
    """))
    first, second = done.stdout.strip().splitlines()
    assert first.startswith("the computer player Mine is defined in the script itself")
    assert "put it in a module of its own" in first and second == "2"


def test_simulate_inside_a_process_rereading_its_script_is_refused_at_once(tmp_path):
    done = run_script(script(tmp_path, """
        import multiprocessing
        from pangaea_lab import simulate
        from pangaea_lab.simulate import SimulationError
        try:
            print(len(simulate("inori", seeds=1, progress=False)))
        except SimulationError as exc:
            print("refused:", exc)
        if multiprocessing.parent_process() is None:
            child = multiprocessing.get_context("spawn").Process(target=print)
            child.start()
            child.join()
    """))
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "1"
    assert lines[1].startswith("refused: simulate() was called again while a new process was "
                               "reading the script") and "__main__" in lines[1]


def cli(out: Path, games: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pangaea_lab.simulate", "inori", "--games", str(games),
            "--out", str(out), "--quiet", *extra]


def test_ctrl_c_while_workers_start_prints_one_line(tmp_path):
    out = tmp_path / "r"
    proc = subprocess.Popen(cli(out, 400, "--workers", "2"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    # as soon as the first worker exists, Ctrl-C: the terminal signals the whole group
    assert wait_for(lambda: children(proc.pid) or proc.poll() is not None)
    workers = children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert len(stderr.strip().splitlines()) == 1
    assert stderr.strip().startswith("stopped")
    assert wait_for(lambda: not any(alive(w) for w in workers), 10)
    if out.exists():   # the folder was made: what was done is kept
        assert load(out)[0].seed.is_unique


def test_ctrl_c_during_a_run_keeps_what_was_done(tmp_path):
    out = tmp_path / "r"
    proc = subprocess.Popen(cli(out, 3000, "--workers", "2", "--save-every", "0"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    assert wait_for(lambda: list((out / "games").glob("part-*")) or proc.poll() is not None)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert stderr.strip().splitlines() == [f"stopped; what finished is in {out} (add --resume "
                                           "to continue)"]
    kept = load(out)[0]
    assert 0 < len(kept) < 3000
    assert kept.seed.is_unique
    pd.testing.assert_frame_equal(kept.head(3).reset_index(drop=True),
                                  simulate("inori", seeds=list(kept.seed[:3]),
                                           progress=False))


def test_workers_never_outlive_a_parent_killed_with_sigkill(tmp_path):
    path = script(tmp_path, """
        from pangaea_lab import simulate
        simulate("inori", seeds=5000, workers=2, progress=False)
    """)
    parent = subprocess.Popen([sys.executable, str(path)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: len(children(parent.pid)) == 2)
        workers = children(parent.pid)
        time.sleep(0.5)   # the workers busy with games
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    assert wait_for(lambda: not any(alive(w) for w in workers), 10)


class DiesAtSeven(RandomPlayer):
    """A random player whose worker process dies when it is made for game 7 (only in a
    worker process: in this process it plays)."""

    def __init__(self, seed):
        super().__init__(seed)
        if seed == "sim-7-0" and os.environ.get("PANGAEA_LAB_PARENT"):
            os._exit(3)


def test_a_worker_that_dies_is_reported_and_what_finished_is_kept(tmp_path):
    out = tmp_path / "r"
    with pytest.raises(SimulationError, match=r"a worker process ended unexpectedly \(exit "
                                              r"code 3\); the games finished before it are kept"):
        simulate("inori", seeds=12, bots=[DiesAtSeven], out=out, workers=2, chunk=1,
                 save_every=0, progress=False)
    kept = set(load(out)[0].seed)
    assert 7 not in kept
    table = simulate("inori", seeds=12, bots=[DiesAtSeven], out=out, resume=True,
                     progress=False)
    assert list(table.seed) == list(range(12))
    again = simulate("inori", seeds=3, workers=2, progress=False)   # a fresh pool
    assert list(again.seed) == [0, 1, 2]
