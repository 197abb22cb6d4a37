"""What every command shares: the two consoles, the rule that bad input is one line, exit 2, and bars."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

import typer
from rich.console import Console

from moocow.engine.errors import MoocowError
from moocow.engine.progress import reporting
from moocow.runner.display import printable

if TYPE_CHECKING:
    from rich.progress import TaskID

out = Console(highlight=False)
"""Results, on stdout."""
err = Console(stderr=True, highlight=False)
"""Errors, warnings and progress, on stderr."""


@contextlib.contextmanager
def one_line_errors() -> Iterator[None]:
    """``MoocowError`` (bad input from a person) becomes one line on stderr and exit status 2.

    The message may quote a file's or a player's text: control characters are escaped, so it stays one line.
    """
    try:
        yield
    except MoocowError as error:
        err.print(f"error: {printable(str(error))}", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None


def plural(count: int, word: str) -> str:
    """``word`` as ``count`` of it reads: 1 guess, 2 guesses; 1 secret, 0 secrets."""
    if count == 1:
        return word
    return word + ("es" if word.endswith("s") else "s")


SHOW_AFTER = 1.0
"""Seconds a task runs before its bar appears: work that ends sooner draws nothing."""


class ProgressBars:
    """Bars on stderr for the engine's tasks (``engine.progress.Reporter``), each with an estimate.

    A task's bar appears once it has run ``SHOW_AFTER`` seconds, and the display runs only while
    something is shown, so prompts between tasks are never drawn over. A caller may also pin a
    line of its own (``pin``, ``describe``, ``unpin``): the exact search shows its bounds so.
    Use ``progress_bars()``.
    """

    def __init__(self, console: Console, show_after: float = SHOW_AFTER) -> None:
        from rich.progress import (  # only on a terminal: ``moocow --help`` need not load it
            BarColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._show_after = show_after
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[amount]}"),
            TimeElapsedColumn(),
            TextColumn("{task.fields[left]}"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        self._tasks: dict[TaskID, tuple[float, float, str]] = {}
        """Each task shown or waiting: when it began, its total and its unit."""
        self._pinned: set[TaskID] = set()

    def begin(self, what: str, total: float, unit: str) -> object:
        handle = self._progress.add_task(what, total=total, visible=False, amount="", left="left")
        self._tasks[handle] = (time.monotonic(), total, unit)
        return handle

    def update(self, handle: object, done: float) -> None:
        task_id = cast("TaskID", handle)
        began, total, unit = self._tasks[task_id]
        shown = time.monotonic() - began >= self._show_after
        amount = f"{compact(done)}/{compact(total)} {unit}".rstrip()
        self._progress.update(task_id, completed=done, amount=amount, visible=True if shown else None)
        if shown:
            self._progress.start()

    def end(self, handle: object) -> None:
        task_id = cast("TaskID", handle)
        self._progress.remove_task(task_id)
        del self._tasks[task_id]
        self._stop_if_idle()

    def pin(self, description: str) -> TaskID:
        """A line of the caller's own, shown at once and kept until ``unpin``."""
        task_id = self._progress.add_task(description, total=None, amount="", left="")
        self._pinned.add(task_id)
        self._progress.start()
        return task_id

    def describe(self, task_id: TaskID, description: str) -> None:
        """Change a pinned line."""
        self._progress.update(task_id, description=description)

    def unpin(self, task_id: TaskID) -> None:
        """Take a pinned line away."""
        self._progress.remove_task(task_id)
        self._pinned.discard(task_id)
        self._stop_if_idle()

    def close(self) -> None:
        """Stop drawing, whatever is left."""
        self._progress.stop()

    def _stop_if_idle(self) -> None:
        if not self._tasks and not self._pinned:
            self._progress.stop()


def compact(number: float) -> str:
    """A count in a few characters: 950, 12.3k, 4.5M, 131G."""
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if number >= limit:
            scaled = number / limit
            return f"{scaled:.1f}{suffix}" if scaled < 100 else f"{scaled:.0f}{suffix}"
    return f"{number:.0f}"


@contextlib.contextmanager
def progress_bars(console: Console | None = None) -> Iterator[ProgressBars | None]:
    """Show the engine's long tasks as bars on ``console`` (stderr), if it is a terminal; yields the bars."""
    console = console or err
    if not console.is_terminal:
        with reporting(None):
            yield None
        return
    bars = ProgressBars(console)
    try:
        with reporting(bars):
            yield bars
    finally:
        bars.close()
