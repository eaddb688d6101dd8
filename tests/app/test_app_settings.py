"""The classroom app's settings (app/voila.py) and its kernel manager (app/classroom_kernels.py),
checked without starting a server; tests/browser/test_browser_app_idle.py checks them in a
browser."""

from __future__ import annotations

import asyncio
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

APP = Path(__file__).resolve().parents[2] / "app"
pytest.importorskip("jupyter_server")
pytest.importorskip("traitlets")


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str):
    from traitlets.config.loader import PyFileConfigLoader
    for name in ("PANGAEA_APP_IDLE", "PANGAEA_APP_POOL", "PANGAEA_APP_CLASS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "path", list(sys.path))   # the file adds app/ to the path
    return PyFileConfigLoader("voila.py", path=str(APP)).load_config()


def test_defaults_for_a_classroom(monkeypatch):
    config = load_settings(monkeypatch)
    assert config.VoilaConfiguration.preheat_kernel is True
    assert config.VoilaConfiguration.template == "pangaea-lab"
    from pangaea_lab.core.fonts import TEMPLATE_DIR
    assert "pl-idle-notice" in (TEMPLATE_DIR / "index.html.j2").read_text()
    kernels = config.MappingKernelManager
    assert kernels.cull_idle_timeout == 900 and kernels.cull_connected is True
    assert kernels.cull_busy is False and 1 <= kernels.cull_interval <= 60
    pools = config.VoilaKernelManager.kernel_pools_config
    assert pools["default"]["pool_size"] == 0          # the other pages: no kernel waiting
    assert pools["00_start_here.ipynb"]["pool_size"] == 1
    notebooks = APP.parent / "notebooks"
    for page in pools:
        assert page == "default" or (notebooks / page).is_file(), f"{page} is not a notebook"


def test_the_two_numbers_come_from_the_environment(monkeypatch):
    config = load_settings(monkeypatch, PANGAEA_APP_IDLE="30", PANGAEA_APP_POOL="8")
    assert config.MappingKernelManager.cull_idle_timeout == 30
    assert config.MappingKernelManager.cull_interval == 7
    pools = config.VoilaKernelManager.kernel_pools_config
    assert {page: pool["pool_size"] for page, pool in pools.items() if page != "default"} == \
        dict.fromkeys([p for p in pools if p != "default"], 8)


@pytest.mark.parametrize("value", ["-5", "ten", "1.5", "1e3"])
def test_a_bad_number_is_refused_by_name(monkeypatch, value):
    with pytest.raises(ValueError, match="PANGAEA_APP_IDLE must be a whole number"):
        load_settings(monkeypatch, PANGAEA_APP_IDLE=value)


def manager_with(monkeypatch, idle_for: float):
    """A ClassroomKernelManager holding one fake kernel idle for ``idle_for`` seconds, whose
    shutdowns are recorded instead of done."""
    monkeypatch.syspath_prepend(str(APP))
    from classroom_kernels import ClassroomKernelManager
    from jupyter_server._tz import utcnow

    manager = ClassroomKernelManager(cull_idle_timeout=60, cull_connected=True)
    kernel = SimpleNamespace(execution_state="idle", kernel_name="python3",
                             kernel_spec=SimpleNamespace(metadata={}),
                             last_activity=utcnow() - timedelta(seconds=idle_for))
    manager._kernels["k1"] = kernel
    manager._kernel_connections["k1"] = 1
    shut: list[str] = []

    async def record(self, kernel_id, *args, **kwargs):
        shut.append(kernel_id)
    monkeypatch.setattr(type(manager).__mro__[1], "shutdown_kernel", record)
    return manager, kernel, shut


def test_an_idle_kernel_with_its_page_open_is_culled(monkeypatch):
    manager, _, shut = manager_with(monkeypatch, idle_for=120)
    asyncio.run(manager.cull_kernel_if_idle("k1"))
    assert shut == ["k1"]


def test_a_kernel_in_use_is_kept(monkeypatch):
    manager, _, shut = manager_with(monkeypatch, idle_for=10)
    asyncio.run(manager.cull_kernel_if_idle("k1"))
    assert shut == []


def test_a_pool_kernel_handed_out_starts_its_idle_time_then(monkeypatch):
    """A kernel that waited in the pool longer than the idle time is not culled the moment a
    student gets it; it is once it has then been idle for the whole idle time."""
    manager, kernel, shut = manager_with(monkeypatch, idle_for=3600)
    manager._waiting_in_pool.add("k1")
    asyncio.run(manager.cull_kernel_if_idle("k1"))
    assert shut == [] and "k1" not in manager._waiting_in_pool
    from jupyter_server._tz import utcnow
    assert utcnow() - kernel.last_activity < timedelta(seconds=5)
    kernel.last_activity = utcnow() - timedelta(seconds=120)
    asyncio.run(manager.cull_kernel_if_idle("k1"))
    assert shut == ["k1"]


def test_kernels_start_a_few_at_a_time_students_first(monkeypatch):
    """Pool refills and students' kernels never start more than starting_at_once together,
    and a student's kernel goes before refills already waiting."""
    monkeypatch.syspath_prepend(str(APP))
    from classroom_kernels import ClassroomKernelManager

    base = ClassroomKernelManager.__mro__[1]
    running, most, order = [0], [0], []

    async def fake_start(self, *args, env=None, name="", **kwargs):
        running[0] += 1
        most[0] = max(most[0], running[0])
        await asyncio.sleep(0.01)
        running[0] -= 1
        order.append(name)
        return name
    monkeypatch.setattr(base, "start_kernel", fake_start)

    async def class_arrives():
        manager = ClassroomKernelManager(starting_at_once=2)
        pool = {"VOILA_PREHEAT": "True"}
        refills = [asyncio.ensure_future(manager.start_kernel(env=pool, name=f"pool{i}"))
                   for i in range(6)]
        await asyncio.sleep(0)                      # the refills are queued first
        student = asyncio.ensure_future(manager.start_kernel(env={}, name="student"))
        await asyncio.gather(*refills, student)
        return manager

    manager = asyncio.run(class_arrives())
    assert most[0] == 2
    assert order.index("student") <= 3          # behind at most the refills already starting
    assert manager._waiting_in_pool == {f"pool{i}" for i in range(6)}


def test_starting_at_once_must_be_positive(monkeypatch):
    monkeypatch.syspath_prepend(str(APP))
    from classroom_kernels import ClassroomKernelManager
    with pytest.raises(ValueError, match="starting_at_once must be at least 1"):
        ClassroomKernelManager(starting_at_once=0)


def test_a_pool_kernel_prepares_at_a_lower_priority_during_a_class(monkeypatch):
    import os
    import subprocess
    monkeypatch.syspath_prepend(str(APP))
    from classroom_kernels import ClassroomKernelManager

    manager = ClassroomKernelManager(pool_niceness=5)
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        manager._kernels["k1"] = SimpleNamespace(provisioner=SimpleNamespace(pid=process.pid))
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert manager._set_priority("k1", manager.pool_niceness) is True
        assert os.getpriority(os.PRIO_PROCESS, process.pid) == min(19, own + 5)
        manager.handed_out("k1")          # back to the server's priority where allowed
        if os.geteuid() == 0:
            assert os.getpriority(os.PRIO_PROCESS, process.pid) == own
        assert manager._set_priority("missing", 5) is False
    finally:
        process.kill()
        process.wait()


def test_a_kernel_no_page_connects_to_is_let_go(monkeypatch):
    """A page left before it armed its leave request holds no connection to its kernel: the
    kernel is shut down connect_within (and a short grace) after the page was served, whether
    the page never connected or connected and went; a kernel its page holds stays, also one
    whose page reconnects within the grace."""
    manager, _, shut = manager_with(monkeypatch, idle_for=0)
    manager.connect_within = 0.05
    manager.reconnect_grace = 0.05
    for kernel in ("k2", "k3", "k4"):
        manager._kernels[kernel] = manager._kernels["k1"]
        manager._kernel_connections[kernel] = 0

    async def four_pages():
        manager.notify_connect("k1")            # this page arrived and stays
        manager.notify_connect("k3")            # this one connected, then was left
        manager.notify_connect("k4")            # this one drops and reconnects
        for kernel in ("k1", "k2", "k3", "k4"):
            manager.page_served(kernel)
        manager.notify_disconnect("k3")
        await asyncio.sleep(0.03)
        manager.notify_disconnect("k4")
        await asyncio.sleep(0.04)               # past connect_within, within the grace
        manager.notify_connect("k4")
        await asyncio.sleep(0.2)
    asyncio.run(four_pages())
    assert sorted(shut) == ["k2", "k3"]


def test_a_kernel_ends_at_the_lowest_priority_during_a_class(monkeypatch):
    """When a class moves on, the kernels of the pages left end together: each ends at the
    lowest CPU priority, so that the students' new pages go first; before the class, as is."""
    import os
    import subprocess
    manager, _, shut = manager_with(monkeypatch, idle_for=0)
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        manager._kernels["k1"].provisioner = SimpleNamespace(pid=process.pid)
        own = os.getpriority(os.PRIO_PROCESS, process.pid)
        asyncio.run(manager.shutdown_kernel("k1"))
        assert os.getpriority(os.PRIO_PROCESS, process.pid) == own    # no class yet
        manager.class_on = True
        asyncio.run(manager.shutdown_kernel("k1"))
        assert os.getpriority(os.PRIO_PROCESS, process.pid) == 19
        assert shut == ["k1", "k1"]
    finally:
        process.kill()
        process.wait()


def test_a_kernel_still_starting_is_not_culled(monkeypatch):
    """The idle check may meet a kernel that has no activity time yet (it is starting): it
    leaves it alone instead of failing."""
    from traitlets import TraitError
    manager, _, shut = manager_with(monkeypatch, idle_for=0)

    class Starting:
        @property
        def last_activity(self):
            raise TraitError("expected a datetime, not the NoneType None")
    manager._kernels["k2"] = Starting()
    assert asyncio.run(manager.cull_kernel_if_idle("k2")) is None
    assert shut == []


def test_during_a_class_kernels_end_one_at_a_time(monkeypatch):
    """The kernels of the pages a class leaves end one at a time (ending_at_once); a kernel
    asked to end twice ends once; before the class they end as Jupyter ends them."""
    manager, _, _ = manager_with(monkeypatch, idle_for=0)
    ending, most, ended = [], [], []

    async def slow_end(self, kernel_id, *args, **kwargs):
        ending.append(kernel_id)
        most.append(len(ending))
        await asyncio.sleep(0.01)
        ending.remove(kernel_id)
        ended.append(kernel_id)
        del self._kernels[kernel_id]
    monkeypatch.setattr(type(manager).__mro__[1], "shutdown_kernel", slow_end)
    for kernel in ("k2", "k3", "k4", "k5"):
        manager._kernels[kernel] = manager._kernels["k1"]

    async def leaving() -> None:
        await manager.shutdown_kernel("k1")            # before the class: as it is
        manager.class_on = True
        await asyncio.gather(*(manager.shutdown_kernel(k) for k in ("k2", "k3", "k4", "k5", "k3")))
    asyncio.run(leaving())
    assert sorted(ended) == ["k1", "k2", "k3", "k4", "k5"]
    assert max(most) == 1


def test_ending_at_once_must_be_positive(monkeypatch):
    monkeypatch.syspath_prepend(str(APP))
    from classroom_kernels import ClassroomKernelManager
    with pytest.raises(ValueError, match="ending_at_once must be at least 1"):
        ClassroomKernelManager(ending_at_once=0)


def test_kernels_talk_over_unix_sockets_beside_their_connection_files(monkeypatch, tmp_path):
    """Kernels starting together cannot pick the same TCP port: they use Unix sockets named
    after their own connection file (in the server's private folder)."""
    from jupyter_client.manager import KernelManager
    config = load_settings(monkeypatch)
    assert config.KernelManager.transport == "ipc"
    one, two = (KernelManager(config=config, connection_file=str(tmp_path / f"kernel-{n}.json"))
                for n in ("a", "b"))
    assert one.ip == str(tmp_path / "kernel-a-ipc") and one.ip != two.ip


def test_the_servers_log_lines_carry_the_time_of_day(monkeypatch):
    """A teacher who reports "a page was slow at 10:42" finds the moment in the log."""
    import logging
    import re
    config = load_settings(monkeypatch)
    monkeypatch.syspath_prepend(str(APP))
    from classroom_app import ClassroomVoila
    app = ClassroomVoila(config=config)
    record = logging.LogRecord(app.log.name, logging.WARNING, __file__, 1,
                               "A ready kernel for %s failed to start.", ("a.ipynb",), None)
    lines = [handler.format(record) for handler in app.log.handlers]
    assert lines and all(re.fullmatch(r"\[ClassroomVoila \d\d:\d\d:\d\d\.\d{3}\] WARNING \| "
                                      r"A ready kernel for a\.ipynb failed to start\.", line)
                         for line in lines), lines
