"""How much judging one person may ask of the class record's service.

Judging an attempt regenerates its exercise with the engine, and a few kinds take a few tenths
of a second of CPU to build, so a batch of a hundred new positions could keep the server busy
for half a minute.  Each person has a budget of new positions (a bucket that holds
:data:`CAPACITY` and refills at :data:`RATE` a second): a batch that costs more than is left is
refused with "try again in N seconds" (HTTP 429 and ``Retry-After``), and the notebook keeps
its attempts and sends them again then; nothing is lost.  A full batch always fits in a full
bucket, and a position judged a moment ago (a resend) costs nothing.

>>> budget = Budget(capacity=10, rate=1.0)
>>> budget.charge("ana", 8, now=0.0)           # taken: 2 left
0.0
>>> budget.charge("ana", 5, now=1.0)           # 3 left after a second: wait 2 more
2.0
>>> budget.charge("ben", 5, now=1.0)           # everyone has their own budget
0.0
>>> budget.charge("ana", 5, now=3.0)
0.0
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Hashable, Iterable

#: new positions one person may have judged at once (a full batch of attempts fits)
CAPACITY = 100.0
#: new positions a second added back to each person's budget (30 a minute)
RATE = 0.5
#: people whose budget is remembered (the full ones are forgotten first)
MAX_PEOPLE = 10_000


class Budget:
    """Each person's budget of new positions to judge (see the module's description)."""

    def __init__(self, capacity: float = CAPACITY, rate: float = RATE) -> None:
        self.capacity = float(capacity)
        self.rate = float(rate)
        self._left: dict[str, tuple[float, float]] = {}     # person -> (left, when)

    def left(self, who: str, now: float) -> float:
        """What ``who`` has left at time ``now`` (seconds, any steady clock)."""
        left, when = self._left.get(who, (self.capacity, now))
        return min(self.capacity, left + max(0.0, now - when) * self.rate)

    def charge(self, who: str, cost: float, now: float) -> float:
        """Take ``cost`` from ``who``'s budget and return 0.0; or, when not enough is left,
        take nothing and return the seconds until it is."""
        left = self.left(who, now)
        cost = min(float(cost), self.capacity)
        if cost > left:
            return (cost - left) / self.rate
        self._left[who] = (left - cost, now)
        if len(self._left) > MAX_PEOPLE:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        for who in [w for w in self._left if self.left(w, now) >= self.capacity]:
            del self._left[who]


class Recent:
    """The positions judged lately (as many as the judge keeps built), oldest first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._seen: OrderedDict[Hashable, None] = OrderedDict()

    def new(self, positions: Iterable[Hashable]) -> set:
        """The positions among ``positions`` not judged lately."""
        return {p for p in positions if p not in self._seen}

    def add(self, positions: Iterable[Hashable]) -> None:
        for position in positions:
            self._seen[position] = None
            self._seen.move_to_end(position)
        while len(self._seen) > self.size:
            self._seen.popitem(last=False)
