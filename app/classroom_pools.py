"""Pools of ready kernels that follow the class from page to page (``make app CLASS=30``).

A kernel waiting in a pool has already run its page's notebook, so the student who gets it sees
the page at once; a page without one starts a kernel and runs the notebook first, which on a
small machine with a class arriving together takes far longer than the 10 s a student should
wait.  Ready kernels for every page and every student would need hundreds of kernels; but a
class moves through a lesson's pages in order.  So, with a class size set:

- at the start the pools hold about one ready kernel per student: the start page one per
  student (everyone opens the teacher's link), each game's first page a quarter of the class
  plus one (see app/voila.py);
- each student who opens a page moves one ready kernel's place from that page's pool (down to
  one kept) to the next page of the lesson (the next numbered notebook of the same game), so
  the kernels are ready where the class goes next; the pools never hold more kernels in all
  than at the start, so the memory printed at the start is the most they use;
- once no student has opened a page for ``settle_after`` seconds (the class is over, or
  working), every pool goes back to its starting size.

This module only keeps the numbers; app/classroom_app.py starts and stops the kernels.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

_NUMBERED = re.compile(r"^(\d+)_")


def lesson_order(pages: list[str]) -> dict[str, str]:
    """Each numbered page's next page: the next numbered notebook in the same folder."""
    folders: dict[str, list[tuple[int, str]]] = {}
    for page in pages:
        path = PurePosixPath(page)
        found = _NUMBERED.match(path.name)
        if found and path.suffix == ".ipynb":
            folders.setdefault(str(path.parent), []).append((int(found.group(1)), page))
    following = {}
    for numbered in folders.values():
        numbered.sort()
        for (_, page), (_, after) in zip(numbered, numbered[1:]):
            following[page] = after
    return following


class FollowingPools:
    """The size each page's pool should have, as the class moves through the lesson."""

    def __init__(self, base: dict[str, int], pages: list[str], settle_after: float) -> None:
        for page, size in base.items():
            if not isinstance(size, int) or size < 0:
                raise ValueError(f"pool size of {page}: a whole number of 0 or more, not {size!r}")
        if settle_after <= 0:
            raise ValueError(f"settle_after must be more than 0 seconds, not {settle_after!r}")
        self.base = dict(base)
        self.size = dict(base)
        self.next_page = lesson_order(pages)
        self.settle_after = settle_after
        self.last_arrival: float | None = None
        self.total = sum(base.values())      # never more ready kernels than at the start

    def arrived(self, page: str, now: float) -> dict[str, int]:
        """A student opens ``page``: the pools whose size changes, with their new size."""
        self.last_arrival = now
        changed = {}
        kept = min(1, self.base.get(page, 0))
        if self.size.get(page, 0) > kept:
            self.size[page] -= 1
            changed[page] = self.size[page]
        after = self.next_page.get(page)
        if after is not None and sum(self.size.values()) < self.total:
            self.size[after] = self.size.get(after, 0) + 1
            changed[after] = self.size[after]
        return changed

    def settle(self, now: float) -> dict[str, int]:
        """Once no student has arrived for ``settle_after`` s: every pool back to its starting
        size (the pools whose size changes, with their new size)."""
        if self.last_arrival is None or now - self.last_arrival < self.settle_after:
            return {}
        changed = {page: self.base.get(page, 0) for page, size in self.size.items()
                   if size != self.base.get(page, 0)}
        self.size = {page: self.base.get(page, 0) for page in self.size}
        self.last_arrival = None
        return changed
