"""The classroom app's kernel manager (named in app/voila.py).

Voilà hands a student a kernel from its pre-heated pool; that kernel may have waited there for
longer than the idle timeout, since its notebook ran when the pool was filled.  Jupyter's idle
culler looks only at the time of the kernel's last activity, so it could shut such a kernel
down in the seconds between handing it out and the student's page connecting to it: the page
would open already "closed for being idle".  This manager counts the hand-out as activity.
"""

from __future__ import annotations

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager, with the idle clock of a pre-heated kernel starting again when
    it leaves the pool."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._waiting_in_pool: set[str] = set()

    async def start_kernel(self, *args, **kwargs):
        kernel_id = await super().start_kernel(*args, **kwargs)
        # Voilà starts the pool's kernels with VOILA_PREHEAT=True in their environment
        if (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True":
            self._waiting_in_pool.add(kernel_id)
        return kernel_id

    async def cull_kernel_if_idle(self, kernel_id):
        # Voilà's pool manager (a subclass of this one) never passes a kernel still waiting
        # in its pool on to here; so a pool kernel seen here for the first time has just been
        # handed to a student: its idle time starts now.
        if kernel_id in self._waiting_in_pool:
            self._waiting_in_pool.discard(kernel_id)
            kernel = self._kernels.get(kernel_id)
            if kernel is not None:
                kernel.last_activity = utcnow()
            return None
        return await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        self._waiting_in_pool.discard(kernel_id)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)
