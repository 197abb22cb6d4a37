"""Wall-clock time and peak resident memory of one piece of work, in this process.

Peak memory is the kernel's high-water mark (``VmHWM``), reset before each measured run by
writing ``5`` to ``/proc/self/clear_refs`` (Linux 4.0+), so a run's peak is its own and not that
of an earlier run in the same process. Where the reset is refused the peak is the process's
peak so far (the JSON's ``machine.peak_rss_resettable`` says which).
"""

from __future__ import annotations

import gc
import os
import resource
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")

_CLEAR_REFS = Path("/proc/self/clear_refs")
_STATUS = Path("/proc/self/status")


@dataclass(frozen=True)
class Measured(Generic[T]):
    """What a measured call returned, how long it took and the most memory it held."""

    value: T
    """The call's return value."""
    seconds: float
    """Wall-clock time of the call."""
    peak_rss: int
    """Peak resident set size during the call, in bytes."""


def reset_peak() -> bool:
    """Reset the process's memory high-water mark to its current size; ``False`` if not allowed."""
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


def peak_rss() -> int:
    """The process's peak resident set size in bytes (since the last reset, where resets work)."""
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def measure(work: Callable[..., T], *arguments: Any) -> Measured[T]:
    """Run ``work(*arguments)`` once, timing it and recording its own peak memory.

    Garbage is collected first: a game and its feedback table refer to each other, so a dropped
    game's table (1.6 GB for 8 bottles) lives until the cyclic collector runs, and would count
    in the next run's peak (and its collection in the next run's time).
    """
    gc.collect()
    reset_peak()
    started = time.perf_counter()
    value = work(*arguments)
    seconds = time.perf_counter() - started
    return Measured(value, seconds, peak_rss())


def median(values: list[float]) -> float:
    """The median: one slow repeat (another process taking the core) does not move it."""
    return statistics.median(values)


@contextmanager
def one_core() -> Iterator[int]:
    """Pin this process, and the children it starts, to one CPU (the last it may use; -1: cannot)."""
    if not hasattr(os, "sched_setaffinity"):
        yield -1
        return
    allowed = os.sched_getaffinity(0)
    core = max(allowed)
    os.sched_setaffinity(0, {core})
    try:
        yield core
    finally:
        os.sched_setaffinity(0, allowed)
