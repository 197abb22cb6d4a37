"""How often the referee may look at a player: each kind of look keeps to a share of the time.

A look's cost is chosen by the player (its processes, descriptors and files) or by whoever else
writes where it may (``/tmp``). After a look that cost ``t``, the next of its kind waits
``(1 / share - 1) t``, so that each kind takes at most ``share`` of the time whatever it finds; each
kind keeps its own account, so that an expensive kind never holds back a cheap one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class LookSchedule:
    """When each kind of look is due again."""

    def __init__(self, share: float, least: float = 0.0, cost: Callable[[], float] | None = None) -> None:
        self.share = share
        self.least = least
        """The shortest pause after any look, in seconds."""
        self.cost = cost
        """The clock a look's cost is read on (``time.monotonic`` unless given: a process's CPU time
        counts only what the look took, not its waits for a core)."""
        self._due: dict[str, float] = {}

    def wait(self, kind: str) -> float:
        """Seconds until a look of this kind is due (0 when it is)."""
        return max(0.0, self._due.get(kind, 0.0) - time.monotonic())

    def timed(self, kind: str, look: Callable[[], T]) -> T:
        """What ``look`` found; the next of its kind is due after its pause."""
        cost = self.cost or time.monotonic
        started = cost()
        found = look()
        spent = cost() - started
        due = time.monotonic() + max(self.least, spent * (1 / self.share - 1))
        self._due[kind] = max(due, self._due.get(kind, 0.0))  # a look out of turn shortens no pause
        return found
