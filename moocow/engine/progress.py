"""Progress of long work, reported to whoever listens: the engine knows no terminal.

The engine opens a task (``with task("evaluating", total) as advance: advance(done)``) around
anything that may take seconds; a caller that wants bars installs a ``Reporter`` for the
duration of a call (``with reporting(bars): ...``). With no reporter installed a task costs one
context-variable lookup, so small games pay nothing for it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Protocol

Advance = Callable[[float], None]
"""Called with the work done so far, in the task's own units."""


class Reporter(Protocol):
    """Draws tasks: ``begin`` returns a handle that ``update`` and ``end`` take back."""

    def begin(self, what: str, total: float, unit: str) -> object: ...

    def update(self, handle: object, done: float) -> None: ...

    def end(self, handle: object) -> None: ...


_reporter: ContextVar[Reporter | None] = ContextVar("moocow_progress_reporter", default=None)


@contextlib.contextmanager
def reporting(reporter: Reporter | None) -> Iterator[None]:
    """Send the tasks opened inside the block to ``reporter`` (``None``: to nobody)."""
    token = _reporter.set(reporter)
    try:
        yield
    finally:
        _reporter.reset(token)


def _ignore(done: float) -> None:
    """What a task advances when nobody listens."""


@contextlib.contextmanager
def task(what: str, total: float, unit: str = "") -> Iterator[Advance]:
    """Long work: ``what`` it is, its ``total`` in ``unit``; yields the call that reports progress."""
    reporter = _reporter.get()
    if reporter is None:
        yield _ignore
        return
    handle = reporter.begin(what, total, unit)
    try:
        yield lambda done: reporter.update(handle, done)
    finally:
        reporter.end(handle)
