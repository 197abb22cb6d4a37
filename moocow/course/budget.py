"""A submission's time budget: its rounds stop, and its results say why, before Gradescope's timeout.

Gradescope stops an autograder that outlives the assignment's timeout (10 minutes by default) and
then has no ``results.json`` at all: the submission shows "The autograder failed to execute
correctly" and no grade. Each guess has its limit, but a player that takes nearly all of it on
every guess (10 s, 20 guesses, 25 rounds) runs for an hour. So the whole grading runs under one
wall-clock budget: when it is spent, the round in play is stopped (its players are ended as on an
interrupt) and the results say so in a line, in time for Gradescope to read them.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType


class OutOfTime(BaseException):
    """The budget is spent. A ``BaseException``, as ``KeyboardInterrupt`` is, so that no handler of
    a player's failures takes it for one: it unwinds the round in play, ending its players."""


@contextlib.contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise ``OutOfTime`` in this thread once ``seconds`` of wall-clock time have passed (the main
    thread only, where signals are delivered; elsewhere no budget is kept)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def spent(number: int, frame: FrameType | None) -> None:
        raise OutOfTime

    before = signal.signal(signal.SIGALRM, spent)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
