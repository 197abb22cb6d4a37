"""What every command shares: the two consoles, the rule that bad input is one line, exit 2, and bars."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from moocow.engine.errors import MoocowError
from moocow.engine.progress import reporting
from moocow.runner.display import printable

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
    some bar is shown, so prompts between tasks are never drawn over. Use ``progress_bars()``.
    """

    def __init__(self, console: Console, show_after: float = SHOW_AFTER) -> None:
        self._show_after = show_after
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[amount]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        self._tasks: dict[TaskID, tuple[float, float, str]] = {}
        """Each task shown or waiting: when it began, its total and its unit."""
        self._live = False

    def begin(self, what: str, total: float, unit: str) -> object:
        handle = self._progress.add_task(what, total=total, visible=False, amount="")
        self._tasks[handle] = (time.monotonic(), total, unit)
        return handle

    def update(self, handle: object, done: float) -> None:
        task_id = TaskID(handle)  # type: ignore[arg-type]
        began, total, unit = self._tasks[task_id]
        shown = time.monotonic() - began >= self._show_after
        amount = f"{compact(done)}/{compact(total)} {unit}".rstrip()
        self._progress.update(task_id, completed=done, amount=amount, visible=True if shown else None)
        if shown and not self._live:
            self._progress.start()
            self._live = True

    def end(self, handle: object) -> None:
        task_id = TaskID(handle)  # type: ignore[arg-type]
        self._progress.remove_task(task_id)
        del self._tasks[task_id]
        if not self._tasks and self._live:
            self._progress.stop()
            self._live = False


def compact(number: float) -> str:
    """A count in a few characters: 950, 12.3k, 4.5M, 131G."""
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if number >= limit:
            scaled = number / limit
            return f"{scaled:.1f}{suffix}" if scaled < 100 else f"{scaled:.0f}{suffix}"
    return f"{number:.0f}"


@contextlib.contextmanager
def progress_bars(console: Console | None = None) -> Iterator[None]:
    """Show the engine's long tasks as bars on ``console`` (stderr), if it is a terminal."""
    console = console or err
    if not console.is_terminal:
        yield
        return
    with reporting(ProgressBars(console)):
        yield
