"""Which of two ways of doing the same work is faster on this machine now, learned as it runs.

Sharing a mid-sized scoring among numba's threads pays on an idle machine and costs dearly under
load: every parallel call ends at a barrier, where one thread the machine descheduled keeps the
others waiting (a whole evaluation beside a busy core took several times as long shared). So
such calls go the way that has lately been faster per pair, and every ``EXPLORE``-th call goes the
other way, so that a change of load is noticed. Both ways compute the same result:
the choice changes the time, never a result.
"""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

EXPLORE = 16
"""One call in this many takes the way that looks slower, to keep its timing current."""
RECENT = 5
"""Timings kept per way; their median is what counts, so one slow outlier (a first call warming
up, a moment of load) does not decide alone."""


class Pace:
    """Chooses between two ways (``0`` and ``1``) by their recent seconds per unit of work."""

    def __init__(self) -> None:
        self._recent: tuple[deque[float], deque[float]] = (deque(maxlen=RECENT), deque(maxlen=RECENT))
        self._calls = 0

    def choose(self) -> int:
        """The way to take for the next call: an untimed way first, then the faster one, but the
        other on every ``EXPLORE``-th call."""
        self._calls += 1
        for way, recent in enumerate(self._recent):
            if not recent:
                return way
        faster = int(self.seconds_per_unit(1) < self.seconds_per_unit(0))
        return 1 - faster if self._calls % EXPLORE == 0 else faster

    def record(self, way: int, units: int, seconds: float) -> None:
        """What a call the chosen way took, for ``units`` of work."""
        self._recent[way].append(seconds / max(units, 1))

    def seconds_per_unit(self, way: int) -> float:
        """The median of the way's recent timings (infinite while it has none)."""
        recent = self._recent[way]
        return statistics.median(recent) if recent else float("inf")

    def run(self, ways: tuple[Callable[[], T], Callable[[], T]], units: int) -> T:
        """Run the chosen way, timing it."""
        way = self.choose()
        start = time.perf_counter()
        result = ways[way]()
        self.record(way, units, time.perf_counter() - start)
        return result
