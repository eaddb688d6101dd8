"""The pools of ready kernels sized for a class and following it through a lesson
(app/classroom_pools.py, app/voila.py), checked without starting a server;
bench/app_load.py measures them with a class of simulated students."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"
NOTEBOOKS = APP.parent / "notebooks"
pytest.importorskip("traitlets")


@pytest.fixture
def pools_module(monkeypatch):
    monkeypatch.syspath_prepend(str(APP))
    import classroom_pools
    return classroom_pools


def pages() -> list[str]:
    return sorted(str(p.relative_to(NOTEBOOKS)) for p in NOTEBOOKS.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts)


def load_settings(monkeypatch, capsys=None, **env: str):
    from traitlets.config.loader import PyFileConfigLoader
    for name in ("PANGAEA_APP_IDLE", "PANGAEA_APP_POOL", "PANGAEA_APP_CLASS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "path", list(sys.path))
    return PyFileConfigLoader("voila.py", path=str(APP)).load_config()


def test_the_lesson_order_is_each_games_numbered_pages(pools_module):
    order = pools_module.lesson_order(pages())
    assert order["pangaea/01_setup.ipynb"] == "pangaea/02_turns.ipynb"
    assert order["pangaea/10_statistics.ipynb"] == "pangaea/11_review.ipynb"
    assert order["harmonies/01_setup_and_turns.ipynb"] == "harmonies/02_landscapes.ipynb"
    assert "pangaea/11_review.ipynb" not in order          # the last page of a game
    assert "teachers.ipynb" not in order and "00_start_here.ipynb" not in order
    assert all(page.split("/")[0] == after.split("/")[0] for page, after in order.items())


def test_a_class_size_sizes_the_pools_and_prints_their_memory(monkeypatch, capfd):
    config = load_settings(monkeypatch, PANGAEA_APP_CLASS="30")
    sizes = {page: pool["pool_size"]
             for page, pool in config.VoilaKernelManager.kernel_pools_config.items()}
    assert sizes.pop("default") == 0
    assert sizes.pop("00_start_here.ipynb") == 30          # the whole class at the teacher's link
    assert set(sizes.values()) == {8}                      # each game's first page: 30 // 4 + 1
    assert config.ClassroomVoila.class_size == 30
    printed = capfd.readouterr().err
    assert "62 kernels for a class of 30" in printed
    assert "about 7.6 GB of memory" in printed              # 62 kernels of 125 MB


def test_without_a_class_the_pool_number_is_used(monkeypatch, capfd):
    config = load_settings(monkeypatch, PANGAEA_APP_POOL="2")
    sizes = config.VoilaKernelManager.kernel_pools_config
    assert {pool["pool_size"] for page, pool in sizes.items() if page != "default"} == {2}
    assert config.ClassroomVoila.class_size == 0
    assert "10 kernels (" in capfd.readouterr().err


@pytest.mark.parametrize("value", ["-1", "thirty", "2.5"])
def test_a_bad_class_size_is_refused_by_name(monkeypatch, value):
    with pytest.raises(ValueError, match="PANGAEA_APP_CLASS must be a whole number"):
        load_settings(monkeypatch, PANGAEA_APP_CLASS=value)


def test_the_pools_follow_a_class_through_a_lesson(pools_module):
    base = {"00_start_here.ipynb": 4, "harmonies/01_setup_and_turns.ipynb": 3}
    pools = pools_module.FollowingPools(base, pages(), settle_after=60)
    start = "00_start_here.ipynb"
    first, second = "harmonies/01_setup_and_turns.ipynb", "harmonies/02_landscapes.ipynb"
    # three students open the start page: its pool shrinks (one kept)
    assert pools.arrived(start, now=0) == {start: 3}
    assert pools.arrived(start, now=0) == {start: 2}
    assert pools.arrived(start, now=0) == {start: 1}
    # ... then the game's first page: its pool shrinks (one kept), the next page's grows
    assert pools.arrived(first, now=1) == {first: 2, second: 1}
    assert pools.arrived(first, now=1) == {first: 1, second: 2}
    assert pools.arrived(first, now=2) == {second: 3}
    # the places freed on the start page are used: seven in all, never more
    assert pools.arrived(first, now=2) == {second: 4}
    assert pools.arrived(first, now=2) == {second: 5}
    assert pools.arrived(first, now=2) == {}
    # ... and move on: the ready kernels move with them
    assert pools.arrived(second, now=10) == {second: 4, "harmonies/03_habitats.ipynb": 1}
    assert sum(pools.size.values()) <= sum(base.values())
    # never more ready kernels in all than at the start
    for second_ in range(20):
        pools.arrived(first, now=11 + second_)
        assert sum(pools.size.values()) <= sum(base.values())
    # quiet for less than settle_after: nothing changes; then back to the starting sizes
    assert pools.settle(now=60) == {}
    back = pools.settle(now=31 + 60)
    assert pools.size == {**dict.fromkeys(back, 0), **base}
    assert back and all(size == base.get(page, 0) for page, size in back.items())
    assert pools.settle(now=1000) == {}


def test_a_page_outside_the_lesson_changes_nothing(pools_module):
    pools = pools_module.FollowingPools({"00_start_here.ipynb": 2}, pages(), settle_after=60)
    assert pools.arrived("../../etc/passwd", now=0) == {}
    assert pools.arrived("00_start_here.ipynb", now=0) == {"00_start_here.ipynb": 1}
    assert pools.arrived("00_start_here.ipynb", now=1) == {}      # one is always kept


@pytest.mark.parametrize("base, settle, field", [({"a.ipynb": -1}, 60, "pool size of a.ipynb"),
                                                 ({"a.ipynb": 1.5}, 60, "pool size of a.ipynb"),
                                                 ({}, 0, "settle_after")])
def test_bad_pool_numbers_are_refused(pools_module, base, settle, field):
    with pytest.raises(ValueError, match=field):
        pools_module.FollowingPools(base, [], settle_after=settle)


# ----- the server's side: app/classroom_app.py -----------------------------------------------


@pytest.fixture
def app_module(monkeypatch):
    pytest.importorskip("voila")
    monkeypatch.setattr(sys, "path", list(sys.path))     # the module rearranges the path
    monkeypatch.syspath_prepend(str(APP))
    import classroom_app
    return classroom_app


def kernel_task(loop, name: str, started: bool, rendered: bool = False):
    """A pool entry as Voilà keeps it: a task giving the kernel and its rendering task."""
    entry = loop.create_future()
    if started:
        rendering = loop.create_future()
        if rendered:
            rendering.set_result(None)
        entry.set_result({"kernel_id": name, "task": rendering})
    return entry


def test_a_page_is_served_from_its_pool_only_when_a_kernel_there_has_started(app_module):
    import asyncio
    loop = asyncio.new_event_loop()
    try:
        waiting = kernel_task(loop, "waiting", started=False)
        assert app_module._ready([waiting]) is False and app_module._ready([]) is False
        started = kernel_task(loop, "started", started=True)
        rendered = kernel_task(loop, "rendered", started=True, rendered=True)
        pool = [waiting, started, rendered]
        assert app_module._ready(pool) is True
        assert pool[0] is rendered                 # the one that has run its notebook first
        pool = [waiting, started]
        assert app_module._ready(pool) is True and pool[0] is started
    finally:
        loop.close()


class FakeManager:
    """Voilà's kernel manager as the pool keeper sees it."""

    def __init__(self, pools: dict[str, list]) -> None:
        self._pools = pools
        self.kernel_pools_config = {"default": {"pool_size": 0}}
        self.filled: list[tuple[str, float]] = []
        self.shut: list[str] = []

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs) -> None:
        self.filled.append((notebook_name, delay))

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs) -> None:
        self.shut.append(kernel_id)
        for pool in self._pools.values():     # as Voilà's does: out of its pool
            pool[:] = [task for task in pool if task.result()["kernel_id"] != kernel_id]


def test_the_keeper_fills_the_next_page_and_trims_pools_back(app_module, pools_module):
    import asyncio

    async def lesson() -> FakeManager:
        loop = asyncio.get_running_loop()
        start, first = "00_start_here.ipynb", "harmonies/01_setup_and_turns.ipynb"
        second = "harmonies/02_landscapes.ipynb"
        manager = FakeManager({start: [kernel_task(loop, f"s{i}", True, True) for i in range(2)],
                               first: [kernel_task(loop, "f0", True, True)]})
        pools = pools_module.FollowingPools({start: 2, first: 1}, pages(), settle_after=60)
        keeper = app_module.PoolKeeper(manager, pools, follow_delay=10.0)
        now = time.monotonic()
        keeper.arrived(start, now)            # the start page keeps one: nothing to fill
        manager._pools[start].pop(0)          # (Voilà hands the student the front kernel)
        keeper.arrived(first, now + 1)        # one ready kernel's place moves to the next page,
        manager._pools[first].pop(0)          # started once the class has settled there
        keeper.check(now + 6)
        assert manager.filled == []           # a classmate arrived 5 s ago: not yet
        keeper.check(now + 11)
        assert manager.filled == [(second, 0.0)]
        assert manager.kernel_pools_config[second]["pool_size"] == 1
        manager._pools[second] = [kernel_task(loop, "n0", True, True)]
        keeper.check()                        # sizes as wanted: nothing shut down
        await asyncio.sleep(0)
        assert manager.shut == []
        manager._pools[start] += [kernel_task(loop, f"s{i}", True, True) for i in (2, 3)]
        keeper.check()                        # too many, seen once: a student's page may be
        await asyncio.sleep(0)                # about to take one (its arrival came first)
        assert manager.shut == []
        manager._pools[start].pop(0)          # it did: one too many is left
        keeper.check()                        # a pool larger than its size at two checks in a
        await asyncio.sleep(0)                # row loses what it had too many both times,
        assert manager.shut == ["s3"]         # the newest first, never the front one
        manager._pools[start] += [kernel_task(loop, "s4", True, True)]
        keeper.check()                        # too many at the check before too: trimmed now
        await asyncio.sleep(0)
        keeper.check()
        await asyncio.sleep(0)
        assert manager.shut == ["s3", "s4"]
        pools.last_arrival = -1000.0          # the class has gone quiet: sizes back
        keeper.check()
        await asyncio.sleep(0)
        assert "n0" not in manager.shut       # (trimmed at the next check)
        keeper.check()
        await asyncio.sleep(0)
        assert "n0" in manager.shut           # the next page's pool is back to 0
        keeper.timer.stop()
        return manager

    manager = asyncio.run(lesson())
    assert manager.kernel_pools_config["harmonies/02_landscapes.ipynb"]["pool_size"] == 0


def voilas_own_manager(root: Path):
    """Voilà's own pre-heating kernel manager, on a folder without notebooks."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.app import Voila
    from voila.voila_kernel_manager import voila_kernel_manager_factory
    app = Voila()
    app.root_dir, app.notebook_path = str(root), None
    kind = voila_kernel_manager_factory(AsyncMappingKernelManager, True, 1)
    return kind(parent=app, root_dir=str(root))


def test_the_pools_are_read_in_one_place_that_checks_voila_at_start(app_module, tmp_path):
    """Voilà offers no public way to see a pool's kernels; the app reads its private pools in
    pools_of alone, and the check at start passes on the installed Voilà's own manager."""
    manager = voilas_own_manager(tmp_path)
    app_module.check_voila_pools(manager)
    assert app_module.pools_of(manager) == {} and app_module.pool_of(manager, "a.ipynb") == []
    source = (APP / "classroom_app.py").read_text()
    assert source.count("_pools\", None)") == 1 and "._pools" not in source


class ChangedManager(FakeManager):
    """A kernel manager of a Voilà that keeps its pools some other way."""

    def __init__(self, pools) -> None:
        super().__init__({})
        del self._pools
        if pools is not None:
            self._pools = pools

    def get_pool_size(self, notebook_name: str) -> int:
        return 0


@pytest.mark.parametrize("pools,words", [
    (None, "has no _pools dictionary"), ({"a.ipynb": ("task",)}, "something other than a list")])
def test_a_changed_voila_stops_the_app_at_start_with_a_sentence(app_module, pools, words):
    manager = ChangedManager(pools)
    with pytest.raises(RuntimeError, match=words) as refused:
        app_module.check_voila_pools(manager)
    assert "voila==0.5.13" in str(refused.value)
    missing = FakeManager({})                   # no get_pool_size
    with pytest.raises(RuntimeError, match="lacks get_pool_size"):
        app_module.check_voila_pools(missing)
    assert app_module.pool_of(object(), "a.ipynb") == []   # no pools kept: nothing read


# ----- a pool kernel that fails to start ---------------------------------------------------------

class Said:
    """A logger that keeps what it is told."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def warning(self, text: str, *args) -> None:
        self.lines.append(("warning", text % args))

    def error(self, text: str, *args) -> None:
        self.lines.append(("error", text % args))


def failed_task(loop, why: str = "out of memory"):
    entry = loop.create_future()
    entry.set_exception(RuntimeError(why))
    return entry


def test_a_pool_kernel_that_failed_to_start_is_replaced_and_said(app_module):
    import asyncio
    loop = asyncio.new_event_loop()
    try:
        page = "harmonies/01_setup_and_turns.ipynb"
        good = kernel_task(loop, "k0", True, True)
        manager, said = FakeManager({page: [failed_task(loop), good]}), Said()
        mender = app_module.PoolMender(manager, said)
        mender.check(now=0.0)
        assert manager._pools[page] == [good]                  # the failed one taken out
        assert manager.filled == [(page, 0)]                   # and another started at once
        assert said.lines == [
            ("warning", f"A ready kernel for {page} failed to start (RuntimeError('out of "
                        "memory'))."),
            ("warning", f"Starting another ready kernel for {page}.")]
        mender.check(now=5.0)                                  # nothing new has failed
        assert manager._pools[page] == [good]
        for now in (10.0, 20.0):                               # two more failures: the third
            manager._pools[page].append(failed_task(loop))     # within ten minutes
            mender.check(now=now)
        assert manager.filled == [(page, 0), (page, 0), (page, 0)]     # (at 5 s: the pool full
        assert said.lines[-1][0] == "error" and "3 times in 10 minutes" in said.lines[-1][1]
        assert "students' pages start their own kernels" in said.lines[-1][1]
        mender.check(now=30.0)                                 # given up on for now
        assert len(manager.filled) == 3
        mender.check(now=700.0)                                # ten minutes on: tried again
        assert manager.filled[-1] == (page, 0) and len(manager.filled) == 4
        mender.check(now=1300.0)                               # no failure left in the window:
        assert len(manager.filled) == 4 and mender.failed_at == {}   # nothing more to do
    finally:
        loop.close()


def test_a_failed_pool_kernel_stops_voilas_shutdowns_until_it_is_taken_out(app_module, tmp_path,
                                                                            monkeypatch):
    """Why the mender matters: Voilà's own shutdown looks through the pools and stops at a task
    that failed, so a page's leave request fails for every kernel while one is there."""
    import asyncio

    async def leave() -> tuple[str, str]:
        manager = voilas_own_manager(tmp_path)
        monkeypatch.setattr(manager, "fill_if_needed", lambda **kwargs: None)
        manager._pools["a.ipynb"] = [failed_task(asyncio.get_running_loop(), "no memory")]
        with pytest.raises(RuntimeError, match="no memory"):
            await manager.shutdown_kernel("0e5f6a4e-1111-4222-8333-944455556666")
        app_module.PoolMender(manager, Said()).check(now=0.0)
        assert manager._pools["a.ipynb"] == []
        with pytest.raises(Exception) as after:                 # now Voilà gets to the kernel
            await manager.shutdown_kernel("0e5f6a4e-1111-4222-8333-944455556666")
        return type(after.value).__name__, str(after.value)

    kind, text = asyncio.run(leave())
    assert "no memory" not in text and kind in ("KeyError", "HTTPError")   # no such kernel


def test_the_next_pages_kernels_wait_for_the_class_to_settle_at_most_a_minute(app_module,
                                                                               pools_module):
    """Preparing a page costs the server CPU; while classmates keep opening theirs, the next
    page's ready kernels wait (a minute at most)."""
    import asyncio

    async def steady_stream() -> list:
        loop = asyncio.get_running_loop()
        first, second = "inori/01_setup_and_turns.ipynb", "inori/02_great_tree_and_runes.ipynb"
        third = "inori/03_seasons_and_majorities.ipynb"
        manager = FakeManager({first: [kernel_task(loop, f"f{i}", True, True) for i in range(9)],
                               second: []})
        pools = pools_module.FollowingPools({first: 9, second: 0}, pages(), settle_after=600)
        keeper = app_module.PoolKeeper(manager, pools, follow_delay=10.0, follow_limit=60.0)
        for step in range(8):                 # a student every 8 s: never 10 s of quiet
            keeper.arrived(first, 8.0 * step)
            manager._pools[first].pop(0)
            keeper.check(8.0 * step + 5)
            assert manager.filled == [] or 8.0 * step + 5 >= 60, step
        assert manager.filled == [(second, 0.0)]          # at the minute, all at once
        assert manager.kernel_pools_config[second]["pool_size"] == 8
        keeper.arrived(second, 70.0)                      # a quick student goes on at once:
        assert manager.kernel_pools_config[second]["pool_size"] == 7    # sizes shrink at once
        keeper.check(75.0)
        assert manager.kernel_pools_config.get(third, {}).get("pool_size", 0) == 0
        keeper.check(80.0)                                # 10 s of quiet: the third page's
        assert manager.kernel_pools_config[third]["pool_size"] == 1     # kernel starts
        keeper.timer.stop()
        return manager.filled

    filled = asyncio.run(steady_stream())
    assert filled[-1] == ("inori/03_seasons_and_majorities.ipynb", 0.0)
