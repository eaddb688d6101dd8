"""The classroom app's kernel manager (named in app/voila.py).

Five changes to Jupyter's own.

Kernels start a few at a time.  When the server starts, Voilà fills its pools of pre-heated
kernels all at once, and when a class opens its pages together it refills them all at once; on
a small machine forty kernels starting together each take so long that some miss Jupyter's
60-second start limit, or collide on a network port.  Here at most ``starting_at_once`` kernels
start together, and a kernel a student is waiting for goes before the pools' refills.

Voilà hands a student a kernel from its pre-heated pool; that kernel may have waited there for
longer than the idle timeout, since its notebook ran when the pool was filled.  Jupyter's idle
culler looks only at the time of the kernel's last activity, so it could shut such a kernel
down in the seconds between handing it out and the student's page connecting to it: the page
would open already "closed for being idle".  This manager counts the hand-out as activity.

During a class (once a student has opened a page, app/classroom_app.py), a kernel started for a
pool prepares its page at a lower CPU priority (``pool_niceness``), so that students opening
pages and clicking go first; it gets the server's priority back when a student gets it (where
the system lets a process raise a priority again).

A kernel whose page was sent but holds no connection to it ``connect_within`` seconds after it
was served (nor a few seconds later, in case the page was just reconnecting) is shut down then,
instead of waiting for the idle time: the student went elsewhere before the page had armed its
leave request, either before the page connected at all or in the moment between its connecting
and its arming the request.  A page that is open keeps its connection.

During a class, kernels end ``ending_at_once`` at a time and at the lowest CPU priority: when a
class moves on, the pages it leaves let their kernels go together, and thirty kernels ending at
once took the CPU the students' new pages needed.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float, Int, TraitError


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager, starting kernels a few at a time (students first), and with
    the idle clock of a pre-heated kernel starting again when it leaves the pool."""

    starting_at_once = Int(2, config=True,
                           help="How many kernels may start at the same time (at least 1).")
    ending_at_once = Int(1, config=True,
                         help="During a class, how many kernels may be shutting down at the "
                              "same time (at least 1); the others wait their turn.")
    reconnect_grace = Float(10.0, config=True,
                            help="Seconds a page's kernel without a connection gets to be "
                                 "reconnected before it is shut down (see connect_within).")
    connect_within = Float(120.0, config=True,
                           help="Seconds after a page was served by which it must hold a "
                                "connection to its kernel; a kernel with none then (nor "
                                "reconnect_grace later) is shut down (0: never).")
    pool_niceness = Int(0, config=True,
                        help="How much lower the CPU priority of a kernel is while it prepares "
                             "its page in a pool during a class (0 to 19): students' pages go "
                             "first.  Kernels filling the pools before the class do not wait.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        if self.ending_at_once < 1:
            raise ValueError("ClassroomKernelManager.ending_at_once must be at least 1, "
                             f"not {self.ending_at_once}")
        if self.starting_at_once < 1:
            raise ValueError("ClassroomKernelManager.starting_at_once must be at least 1, "
                             f"not {self.starting_at_once}")
        self._waiting_in_pool: set[str] = set()
        self._ending: asyncio.Semaphore | None = None
        self._turns = asyncio.Condition()
        self._starting = 0
        self._students_waiting = 0
        self.class_on = False         # set when the first student opens a page

    async def _take_turn(self, for_pool: bool) -> None:
        async with self._turns:
            if not for_pool:
                self._students_waiting += 1
            try:
                await self._turns.wait_for(
                    lambda: self._starting < self.starting_at_once
                    and (not for_pool or self._students_waiting == 0))
            finally:
                if not for_pool:
                    self._students_waiting -= 1
            self._starting += 1

    async def _end_turn(self) -> None:
        async with self._turns:
            self._starting -= 1
            self._turns.notify_all()

    async def start_kernel(self, *args, **kwargs):
        # Voilà starts the pool's kernels with VOILA_PREHEAT=True in their environment
        for_pool = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        await self._take_turn(for_pool)
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            await self._end_turn()
        if for_pool:
            self._waiting_in_pool.add(kernel_id)
            if self.class_on:
                self._set_priority(kernel_id, self.pool_niceness)
        return kernel_id

    def _set_priority(self, kernel_id: str, niceness: int) -> bool:
        """Every thread of the kernel's process ``niceness`` steps below this server's CPU
        priority; False when the system refuses (raising a priority needs the right to)."""
        kernel = self._kernels.get(kernel_id)
        pid = getattr(getattr(kernel, "provisioner", None), "pid", None)
        if not isinstance(pid, int) or niceness < 0:
            return False
        wanted = min(19, os.getpriority(os.PRIO_PROCESS, 0) + niceness)
        try:
            threads = [int(t.name) for t in Path(f"/proc/{pid}/task").iterdir()]
        except OSError:
            threads = [pid]
        try:
            for thread in threads:
                os.setpriority(os.PRIO_PROCESS, thread, wanted)
        except OSError:
            return False
        return True

    def handed_out(self, kernel_id: str) -> None:
        """A pool kernel goes to a student: back to the server's CPU priority (where the system
        lets a process raise a priority again; else it keeps the lower one)."""
        if self.pool_niceness:
            self._set_priority(kernel_id, 0)

    async def cull_kernel_if_idle(self, kernel_id):
        # Voilà's pool manager (a subclass of this one) never passes a kernel still waiting
        # in its pool on to here; so a pool kernel seen here for the first time has just been
        # handed to a student: its idle time starts now.
        kernel = self._kernels.get(kernel_id)
        try:
            getattr(kernel, "last_activity", None)
        except TraitError:          # still starting: no activity yet, nothing to cull
            return None
        if kernel_id in self._waiting_in_pool:
            self._waiting_in_pool.discard(kernel_id)
            if kernel is not None:
                kernel.last_activity = utcnow()
            return None
        return await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        self._waiting_in_pool.discard(kernel_id)
        if not self.class_on:
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)
        # when a class moves on, the kernels of the pages it leaves are let go together: they
        # end a few at a time and at the lowest CPU priority, so the students' new pages go
        # first (the student has left: nobody waits for the end)
        if self._ending is None:
            self._ending = asyncio.Semaphore(self.ending_at_once)
        async with self._ending:
            if kernel_id not in self._kernels:        # let go meanwhile (twice asked)
                return None
            self._set_priority(kernel_id, 19)
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)

    def page_served(self, kernel_id: str) -> None:
        """A page has been sent with this kernel: unless the page holds a connection to it
        ``connect_within`` seconds later, nobody uses it (the student left before the page had
        armed its leave request), and it is shut down."""
        if self.connect_within > 0 and kernel_id:
            asyncio.ensure_future(self._let_go_unless_connected(kernel_id))

    def _unconnected(self, kernel_id: str) -> bool:
        return kernel_id in self._kernels and not self._kernel_connections.get(kernel_id, 0)

    async def _let_go_unless_connected(self, kernel_id: str) -> None:
        await asyncio.sleep(self.connect_within)
        if not self._unconnected(kernel_id):
            return
        # a page whose connection just dropped reconnects within a few seconds
        await asyncio.sleep(min(self.reconnect_grace, self.connect_within))
        if self._unconnected(kernel_id):
            self.log.info("No page holds a connection to kernel %s %.0f s after it was served: "
                          "shutting it down", kernel_id, self.connect_within)
            await self.shutdown_kernel(kernel_id)
