"""Settings of the classroom app (``make app``): Voilà serving ``notebooks/``.

``make app`` starts Voilà through app/classroom_app.py with ``--Voila.config_file_paths=app``
and ``JUPYTER_PATH`` set to the package's ``share/jupyter`` folder, so this file and the
package's page template ``pangaea-lab`` are used.  Three numbers can be changed without
editing the file (``make app CLASS=30 APP_IDLE=1200`` sets two of them):

PANGAEA_APP_IDLE   seconds a page may stay unused before its kernel is shut down (default 900).
                   The page then says that it was idle and was closed, and to reload it.
                   0 keeps idle pages forever (as Voilà does by default).
PANGAEA_APP_CLASS  students in the class (``make app CLASS=30``; default 0: not set).  The
                   pools of ready kernels are sized for it -- one per student for the start
                   page, a quarter of the class plus one for each game's first page -- and
                   follow the class from page to page (app/classroom_pools.py).  The number
                   of kernels and the memory they need are printed when the server starts.
PANGAEA_APP_POOL   without a class size: kernels kept ready, with their notebook already run,
                   for each of the most used pages (default 1).

A page served from a pool shows its widgets at once; a page without a ready kernel starts its
own (a few seconds on a quiet machine, far more with a class starting kernels together).  Any
other Voilà or Jupyter server setting can still be given on the command line, which wins over
this file.
"""

import os
import sys


def _whole_number(name: str, default: int) -> int:
    """A whole number >= 0 from the environment, or a clear error naming the variable."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit():
        raise ValueError(f"{name} must be a whole number of 0 or more, not {text!r}")
    return int(text)


IDLE_SECONDS = _whole_number("PANGAEA_APP_IDLE", 900)
POOL = _whole_number("PANGAEA_APP_POOL", 1)
CLASS = _whole_number("PANGAEA_APP_CLASS", 0)
#: the resident memory of a kernel in a pool, rounded up: 123 MB on average over the 62 pool
#: kernels of ``make app-load N=30`` (a kernel that has run one of these pages outside Voilà,
#: ``make app-pages``: 84-89 MB)
KERNEL_MB = 125

#: the pages most students open: the start page and each game's first playable page
MOST_USED = [
    "00_start_here.ipynb",
    "pangaea/02_turns.ipynb",
    "harmonies/01_setup_and_turns.ipynb",
    "forest_shuffle/01_setup_and_turns.ipynb",
    "inori/01_setup_and_turns.ipynb",
]

c = get_config()  # noqa: F821  (traitlets provides get_config in config files)

# app/classroom_kernels.py: Jupyter's kernel manager, except that a pre-heated kernel's idle
# time starts when a student gets it, not when its notebook ran in the pool
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
c.VoilaConfiguration.multi_kernel_manager_class = "classroom_kernels.ClassroomKernelManager"
# ... and starts kernels two at a time (students' before the pools' refills), so that filling
# the pools or a class arriving together does not overrun a small machine
c.ClassroomKernelManager.starting_at_once = 2
# ... and a pool kernel prepares its page at a lower CPU priority, so that students opening
# pages (and their clicks) go first when a class arrives while the pools follow it
c.ClassroomKernelManager.pool_niceness = 10
# Kernels talk to the server over Unix sockets beside their connection files (in the server's
# private folder), not over TCP ports: kernels starting together each chose a free port and two
# could pick the same one, and the kernel that lost died at its start, leaving a pool short
c.KernelManager.transport = "ipc"
# The server's log lines carry the time of day, so that a slow page or a refused request a
# teacher reports can be found in it
c.Application.log_format = "[%(name)s %(asctime)s.%(msecs)03d] %(levelname)s | %(message)s"
c.Application.log_datefmt = "%H:%M:%S"

# The page template: Voilà's "lab" template plus a watcher that tells the student, in plain
# words, when the page's kernel has been shut down (pangaea_lab/share/jupyter/voila/templates/
# pangaea-lab/, which also serves the drawings' font and leaves out the CDN links).
c.VoilaConfiguration.template = "pangaea-lab"

# Pre-heated kernels: Voilà starts them when the server starts, runs the notebook in each,
# and hands one to the next student who opens that page; it then starts a replacement.
# Only the most used pages get a pool (every other page starts its own kernel on demand), so
# the server does not hold a kernel for each of the 25 notebooks.
c.VoilaConfiguration.preheat_kernel = True


def pool_sizes(class_size: int, pool: int) -> dict[str, int]:
    """Ready kernels per most used page: for a class, one per student on the start page (the
    teacher's link) and a quarter of the class plus one on each game's first page; else
    ``pool`` each."""
    if class_size:
        return {page: class_size if page == MOST_USED[0] else class_size // 4 + 1
                for page in MOST_USED}
    return dict.fromkeys(MOST_USED, pool)


SIZES = pool_sizes(CLASS, POOL)
c.VoilaKernelManager.kernel_pools_config = {
    "default": {"pool_size": 0},
    **{page: {"pool_size": size} for page, size in SIZES.items()},
}
# with a class size, the pools follow the class: each student opening a page moves a ready
# kernel's place to the next page of the lesson; once no student has opened a page for the idle
# time (15 minutes when pages are never closed), they go back to the sizes above
# (app/classroom_pools.py)
c.ClassroomVoila.class_size = CLASS
c.ClassroomVoila.settle_after = float(IDLE_SECONDS or 900)
_kernels = sum(SIZES.values())
print(f"Pools of ready kernels: {_kernels} kernels "
      + (f"for a class of {CLASS} " if CLASS else "")
      + f"({', '.join(f'{size} for {page}' for page, size in SIZES.items())}); they need "
      f"about {_kernels * KERNEL_MB / 1024:.1f} GB of memory, plus about {KERNEL_MB} MB per "
      "student on a page", file=sys.stderr, flush=True)
# Refill a pool half a minute after a kernel is taken from it: when a class opens its pages
# together, the students' first clicks then do not compete with the refills for the CPU.
c.VoilaKernelManager.fill_delay = 30.0

# Each pool kernel runs its notebook as Voilà's executor; on a busy machine a cell's last
# outputs can take more than the executor's default 4 s to arrive after the cell finished, and
# would be dropped from the page.  Waiting longer costs nothing when they come at once.
c.VoilaExecutor.iopub_timeout = 30

# Idle pages: a kernel that has not run anything for IDLE_SECONDS is shut down, even with its
# page still open in a browser (cull_connected): a tab left open must not hold memory for the
# rest of the day.  A kernel busy running something is never cut off (cull_busy stays False).
# Kernels waiting in the pool are never culled (Voilà keeps them).  A page that is closed,
# reloaded or left for another page shuts its kernel down at once: as it unloads it posts
# Voilà's shutdown request with its XSRF cookie, which app/classroom_app.py's page handler sets
# (Voilà's own does not, and the server refused the request); tests/browser/
# test_browser_app_leave.py walks through ten pages and finds only the current page's kernel
# besides the pools.
c.MappingKernelManager.cull_idle_timeout = IDLE_SECONDS
c.MappingKernelManager.cull_interval = max(1, min(60, IDLE_SECONDS // 4))  # how often to look
c.MappingKernelManager.cull_connected = True
c.MappingKernelManager.cull_busy = False
