"""Progress of long work, reported to whoever listens: the engine knows no terminal.

The engine opens a task (``with task("evaluating", total) as advance: advance(done)``) around
anything that may take seconds; a caller that wants bars installs a ``Reporter`` for the
duration of a call (``with reporting(bars): ...``). With no reporter installed a task costs one
context-variable lookup, so small games pay nothing for it. A one-off wait with no measurable
progress (compiling kernels) is a notice instead (``notify``): one line, said as it starts.
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
_listeners: list[Callable[[str], None]] = []


def listen(listener: Callable[[str], None] | None) -> None:
    """Send the engine's notices (``notify``) to ``listener`` from now on, in this process and
    every thread of it (``None``: to nobody). The command line sends them to stderr."""
    _listeners[:] = [] if listener is None else [listener]


def notify(text: str) -> None:
    """Say one line about something slow that is about to happen (a compile), to whoever listens."""
    for listener in _listeners:
        listener(text)


class Notice:
    """A notice said once per process (``say``), however often its occasion comes: what it warns
    of (a build of compiled code) is the process's, whichever call meets it first. ``reset`` lets
    it be said again (for tests)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.said = False
        """Whether this process has said it."""

    def say(self) -> None:
        """Say it, unless this process already has."""
        if not self.said:
            self.said = True
            notify(self.text)

    def reset(self) -> None:
        """Let it be said again."""
        self.said = False


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
