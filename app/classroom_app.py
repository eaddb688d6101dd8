"""The classroom app's server: Voilà, with pages that let their kernels go and pools that
follow the class.

``make app`` runs this file instead of the ``voila`` command (same arguments, same settings from
app/voila.py).  Three things differ from Voilà itself.

A Voilà page shuts its kernel down when the student leaves it (another page, a reload, a
closed tab): as it unloads, it posts ``/voila/api/shutdown/<kernel id>`` with the value of its
``_xsrf`` cookie, and the server accepts the post only when that value matches the cookie
(Jupyter's protection against requests forged by other sites).  But Voilà's page handler never
sets that cookie, so the post went out without it and the server refused it ("'_xsrf' argument
missing from POST", Voilà issue 1458): every page left behind kept its kernel until the idle
time ran out.  Here the page handler sets the cookie with every page it serves (Tornado's own
token, as every Jupyter page that posts has), so the shutdown is accepted and the kernel stops
at once.  A kernel handed out from a pool is shut down the same way (the page's HTML was
rendered before the student asked, but the cookie comes with the response).  A page left before
it has armed that request (before it connected to its kernel, or just after): its kernel is
shut down when no page holds a connection to it two minutes after it was served
(app/classroom_kernels.py).

A page is served from its pool only when the pool's next kernel is ready.  Voilà hands out the
pool's next kernel even while it is still waiting to be started (a refill starts half a minute
after a kernel is taken, app/voila.py), so the second student on a page waited for that delay
and the kernel's start; here that student's page starts its own kernel at once, ahead of the
refills.

With a class size set (``make app CLASS=30``), the pools follow the class from page to page
(app/classroom_pools.py): :class:`PoolKeeper` starts and stops the kernels for the sizes that
module keeps.

A pool kernel that fails to start (the machine out of memory for a moment, say) stays in
Voilà's pool as a failed task: Voilà never replaces it, so the pool stays short for the rest of
the lesson, and while it is there Voilà's own shutdown of *any* kernel stops at it with its
error (the leave requests of every page fail).  :class:`PoolMender` takes such tasks out every
few seconds, says so in the log and starts a replacement; after three failures of a page's
pool within ten minutes it leaves that pool short until then (its students' pages start their
own kernels, as on a page without a pool) and says so.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path

# run as a script, this folder comes first on the path, and its voila.py (the settings) would
# hide the voila package
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != _HERE]

from voila.app import Voila  # noqa: E402
from voila.tornado.handler import TornadoVoilaHandler  # noqa: E402
from tornado import web  # noqa: E402
from tornado.ioloop import PeriodicCallback  # noqa: E402
from traitlets import Float, Int  # noqa: E402

sys.path.append(_HERE)
from classroom_pools import FollowingPools  # noqa: E402


def _started(task) -> bool:
    return task.done() and not task.cancelled() and task.exception() is None


def _ready(pool: list) -> bool:
    """Whether the pool holds a kernel that has started (a refill may still be waiting to
    start); the best one is moved to the front, where Voilà takes it from: one that has run
    its whole notebook, else the first started."""
    started = [place for place, task in enumerate(pool) if _started(task)]
    if not started:
        return False
    rendered = [place for place in started if pool[place].result()["task"].done()]
    pool.insert(0, pool.pop((rendered or started)[0]))
    return True


#: what the app needs of Voilà's kernel manager besides the pools themselves (public: the
#: documented pool settings and the methods Voilà's own handler calls)
_POOL_INTERFACE = ("kernel_pools_config", "fill_if_needed", "get_pool_size", "shutdown_kernel")


def pools_of(manager) -> dict[str, list]:
    """Voilà's pools of ready kernels: each page's list of tasks that give a started kernel.

    Voilà 0.5.13 offers no public way to read them: its pool settings
    (``VoilaKernelManager.kernel_pools_config``, ``preheat_kernel``, ``fill_delay``) set the
    sizes, and ``get_pool_size`` gives a count, but whether a pool's kernel has started (to
    serve a page only from a ready kernel), and which one to shut down when a pool shrinks,
    is only in the kernel manager's private ``_pools``.  This is the one place that reads it;
    :func:`check_voila_pools` stops the app at start with a sentence if Voilà changes it."""
    pools = getattr(manager, "_pools", None)
    if not isinstance(pools, dict):
        raise RuntimeError(
            "This Voilà keeps its ready kernels differently from Voilà 0.5.13 (its kernel "
            "manager has no _pools dictionary), so the classroom app cannot serve pages from "
            "its pools: install voila==0.5.13 or adapt pools_of in app/classroom_app.py.")
    return pools


def pool_of(manager, page) -> list:
    """One page's pool (empty when the manager keeps no pools, Voilà's pre-heating off)."""
    if not hasattr(manager, "kernel_pools_config"):
        return []
    return pools_of(manager).get(page, [])


def check_voila_pools(manager) -> None:
    """At start: the kernel manager has what the app uses of it, else a clear sentence."""
    if not hasattr(manager, "kernel_pools_config"):
        return                                    # no pools: nothing of them is used
    missing = [name for name in _POOL_INTERFACE if not hasattr(manager, name)]
    if missing:
        raise RuntimeError(
            f"This Voilà's kernel manager lacks {', '.join(missing)}, which the classroom "
            "app's pools use (written for Voilà 0.5.13): install voila==0.5.13 or adapt "
            "app/classroom_app.py.")
    pools = pools_of(manager)
    if any(not isinstance(pool, list) for pool in pools.values()):
        raise RuntimeError(
            "This Voilà keeps each page's ready kernels in something other than a list "
            "(Voilà 0.5.13 keeps a list of tasks), so the classroom app cannot read its "
            "pools: install voila==0.5.13 or adapt pools_of in app/classroom_app.py.")


class PoolKeeper:
    """Starts and stops pool kernels in Voilà's kernel manager for the sizes that
    :class:`FollowingPools` keeps.

    The ready kernels for the lesson's next pages start once the class has settled on its
    page: when no student has opened a page for ``follow_delay`` seconds (at the latest
    ``follow_limit`` seconds after the first student who asked for them).  Preparing a page
    costs the server itself CPU (Voilà turns each of its cells into HTML), and thirty of them
    prepared while classmates were still opening theirs made some of those wait 20 s."""

    CHECK_EVERY_MS = 5000

    def __init__(self, manager, pools: FollowingPools, follow_delay: float,
                 follow_limit: float = 60.0) -> None:
        self.manager, self.pools = manager, pools
        self.follow_delay, self.follow_limit = follow_delay, follow_limit
        self.timer: PeriodicCallback | None = None
        self._over: dict[str, int] = {}   # each pool's extra kernels at the last check
        self._following: set[str] = set()        # next pages grown, their kernels not started
        self._following_since: float | None = None

    def arrived(self, page: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.manager.class_on = True      # pool kernels now prepare at a lower priority
        changed = self.pools.arrived(page, now)
        self.resize({name: size for name, size in changed.items() if name == page})
        following = set(changed) - {page}
        if following:
            self._following |= following
            if self._following_since is None:
                self._following_since = now
        if self.timer is None:            # the server's loop runs by now
            self.timer = PeriodicCallback(self.check, self.CHECK_EVERY_MS)
            self.timer.start()

    def follow(self, now: float) -> None:
        """Start the next pages' ready kernels once the class has settled (see the class's
        text)."""
        if not self._following or self._following_since is None:
            return
        last = self.pools.last_arrival
        settled = last is None or now - last >= self.follow_delay
        if settled or now - self._following_since >= self.follow_limit:
            pages, self._following, self._following_since = self._following, set(), None
            self.resize({name: self.pools.size[name] for name in pages})    # sizes as they are now

    def resize(self, sizes: dict[str, int], delay: float = 0.0) -> None:
        config = self.manager.kernel_pools_config
        for page, size in sizes.items():
            config[page] = {**config.get(page, config.get("default", {})), "pool_size": size}
            if size > len(pool_of(self.manager, page)):
                self.manager.fill_if_needed(delay=delay, notebook_name=page)

    def check(self, now: float | None = None) -> None:
        """The next pages' kernels started once the class has settled; pools back to their
        starting sizes once the class is quiet; pools larger than their size lose their newest
        ready kernels (never the next one to be handed out, unless the pool's size is 0).  A
        pool is trimmed only by what it held too many at the check before as well: a student's
        arrival lowers the size a moment before the student's page takes its kernel, and a trim
        in between would stop a ready kernel a classmate then lacks."""
        now = time.monotonic() if now is None else now
        self.follow(now)
        settled = self.pools.settle(now)
        if settled:
            self._following, self._following_since = set(), None
        self.resize(settled)
        over = {}
        for page, size in self.pools.size.items():
            pool = pool_of(self.manager, page)
            over[page] = max(0, len(pool) - size)
            extra = [task for task in pool[(1 if size else 0):][::-1] if _started(task)]
            for task in extra[:min(over[page], self._over.get(page, 0))]:
                asyncio.ensure_future(self.manager.shutdown_kernel(task.result()["kernel_id"]))
        self._over = over


class PoolMender:
    """Takes kernels that failed to start out of Voilà's pools and starts replacements (see
    the module's text)."""

    CHECK_EVERY_MS = 5000
    GIVE_UP_AFTER = 3                 # failures of one page's pool ...
    WITHIN = 600.0                    # ... within this many seconds: no replacement until then

    def __init__(self, manager, log) -> None:
        self.manager, self.log = manager, log
        self.failed_at: dict[str, list[float]] = {}
        self.timer: PeriodicCallback | None = None

    def start(self) -> None:
        self.timer = PeriodicCallback(self.check, self.CHECK_EVERY_MS)
        self.timer.start()

    def check(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        for page, pool in list(pools_of(self.manager).items()):
            failed = [task for task in pool if task.done() and not _started(task)]
            for task in failed:
                pool.remove(task)
                reason = "cancelled" if task.cancelled() else repr(task.exception())
                self.log.warning("A ready kernel for %s failed to start (%s).", page, reason)
            times = [t for t in self.failed_at.get(page, []) if now - t < self.WITHIN]
            times += [now] * len(failed)
            if not times:
                if self.failed_at.pop(page, None) is not None:    # the ten minutes are over
                    self.manager.fill_if_needed(delay=0, notebook_name=page)
                continue
            self.failed_at[page] = times
            if len(times) < self.GIVE_UP_AFTER:
                if failed:
                    self.log.warning("Starting another ready kernel for %s.", page)
                self.manager.fill_if_needed(delay=0, notebook_name=page)  # nothing when full
            elif failed:
                self.log.error("The ready kernels for %s failed to start %d times in %.0f "
                               "minutes: none is started for its pool until then (its "
                               "students' pages start their own kernels).", page, len(times),
                               self.WITHIN / 60)


_KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


class PageHandler(TornadoVoilaHandler):
    """Voilà's page handler, giving the browser the XSRF cookie its leave request needs, serving
    a page from its pool only when a ready kernel waits there, telling the pools that follow
    the class where a student goes, and telling the kernel manager which kernel a page was
    given (a page left before it has arrived never connects to it)."""

    _kernel_id: str | None = None

    @web.authenticated
    async def get(self, path=None):
        try:
            async for html in self.get_generator(path=path):
                if self._kernel_id is None:
                    found = _KERNEL_ID.search(html)
                    self._kernel_id = found.group(1) if found else None
                self.write(html)
                self.flush()
        finally:
            # the kernel manager shuts the kernel down unless the page connects to it soon
            page_served = getattr(self.kernel_manager, "page_served", None)
            if page_served is not None and self._kernel_id is not None:
                page_served(self._kernel_id)

    async def prepare(self):
        await super().prepare()
        # reading the token sets the _xsrf cookie on this response when the browser has none
        self.xsrf_token  # noqa: B018
        self._page = self.path_args[0] if self.path_args else None
        keeper = self.settings.get("classroom_pool_keeper")
        if keeper is not None and self._page and self.request.method == "GET":
            keeper.arrived(self._page)

    def should_use_rendered_notebook(self, notebook_data, pool_size, *args):
        pool = pool_of(self.kernel_manager, getattr(self, "_page", None))
        if not _ready(pool) or \
                not super().should_use_rendered_notebook(notebook_data, pool_size, *args):
            return False
        handed_out = getattr(self.kernel_manager, "handed_out", None)
        if handed_out is not None:      # the student's kernel leaves the pool's lower priority
            handed_out(pool[0].result()["kernel_id"])
        return True


class ClassroomVoila(Voila):
    """Voilà serving its notebook pages through :class:`PageHandler`."""

    class_size = Int(0, config=True, help="Students in the class; with more than 0, the pools "
                     "follow the class from page to page (app/classroom_pools.py).")
    settle_after = Float(120.0, config=True, help="Seconds without a student opening a page "
                         "after which the pools go back to their starting sizes.")
    follow_delay = Float(10.0, config=True, help="Seconds without a student opening a page "
                         "after which the ready kernels for the lesson's next pages start.")
    follow_limit = Float(60.0, config=True, help="Seconds after a student opens a page by "
                         "which the ready kernel for the lesson's next page starts, even while "
                         "classmates keep arriving.")

    def init_settings(self) -> dict:
        settings = super().init_settings()
        manager = self.kernel_manager
        check_voila_pools(manager)       # fails at start, with a sentence, if Voilà changed
        if hasattr(manager, "kernel_pools_config"):
            PoolMender(manager, self.log).start()
        if self.class_size > 0 and hasattr(manager, "kernel_pools_config"):
            base = {page: config.get("pool_size", 0)
                    for page, config in manager.kernel_pools_config.items() if page != "default"}
            root = Path(self.root_dir)
            pages = [str(path.relative_to(root)) for path in root.rglob("*.ipynb")
                     if ".ipynb_checkpoints" not in path.parts]
            settings["classroom_pool_keeper"] = PoolKeeper(
                manager, FollowingPools(base, pages, self.settle_after), self.follow_delay,
                self.follow_limit)
        return settings

    def init_handlers(self) -> list:
        return [(rule[0], PageHandler, *rule[2:]) if rule[1] is TornadoVoilaHandler else rule
                for rule in super().init_handlers()]


main = ClassroomVoila.launch_instance

if __name__ == "__main__":
    sys.exit(main())
