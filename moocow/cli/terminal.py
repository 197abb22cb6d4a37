"""What every command shares: the two consoles, the rule that bad input is one line, exit 2, and bars."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TextIO, cast

import typer

from moocow.engine.errors import MoocowError
from moocow.engine.progress import reporting
from moocow.engine.wording import printable

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.progress import Task, TaskID
    from rich.text import Text

    from moocow.engine.cost import EvaluationCost

TERMINAL_VARIABLES = frozenset({"FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"})
"""Variables by which rich may take a stream that is not a terminal for one."""


class Output:
    """stdout or stderr: plain lines as they are, anything richer (tables, bars) through a rich
    ``Console`` made on first use. Most commands print lines only, and importing rich is a
    noticeable share of a short command (``bench/process.py`` times whole commands)."""

    def __init__(self, stderr: bool = False, console: Console | None = None) -> None:
        self.stderr = stderr
        self._console = console

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self.stderr, highlight=False)
        return self._console

    def print(self, renderable: RenderableType) -> None:
        """A rich renderable (a table). Off a terminal it is drawn as wide as it needs, not cut
        at 80 columns: a file or a pipe has no width, and a name cut short is a name lost."""
        console = self.console
        if console.is_terminal:
            console.print(renderable)
            return
        from rich.console import Console
        from rich.measure import Measurement

        needed = Measurement.get(console, console.options.update_width(UNCUT), renderable).maximum
        width = max(console.width, min(needed, UNCUT))  # a console never prints wider than its own width
        Console(file=self._stream(), width=width, highlight=False).print(renderable)

    def line(self, text: str = "") -> None:
        """One line as it is: no markup, highlighting, emoji codes or wrapping. Through the
        console once there is one, so that it keeps its place above any bars drawn."""
        if self._console is None:
            self._stream().write(self.encodable(text) + "\n")
        else:
            self._console.print(text, markup=False, highlight=False, emoji=False, soft_wrap=True)

    def encodable(self, text: str) -> str:
        """``text`` with what the stream cannot encode escaped (``\\u2588``): a legacy locale or
        ``PYTHONIOENCODING=ascii`` made a line of ``evaluate`` a ``UnicodeEncodeError``."""
        encoding = getattr(self._stream(), "encoding", None) or "utf-8"
        try:
            text.encode(encoding)
        except UnicodeEncodeError:
            return text.encode(encoding, errors="backslashreplace").decode(encoding)
        except LookupError:
            pass
        return text

    def bar(self, length: int) -> str:
        """A bar of ``length`` blocks, ``#`` where the stream cannot show a block (as rich's tables
        fall back to ASCII borders)."""
        block = "\u2588"
        return (block if self.encodable(block) == block else "#") * length

    @property
    def colour(self) -> bool:
        """Whether coloured tiles can be shown: a terminal with colours, and no ``NO_COLOR``."""
        return self.is_terminal and self.console.color_system is not None and not self.console.no_color

    @property
    def is_terminal(self) -> bool:
        """Whether rich takes it for a terminal; asked only where it may (asking loads rich)."""
        if self._console is None and not self._stream().isatty() and not TERMINAL_VARIABLES & set(os.environ):
            return False
        return self.console.is_terminal

    def _stream(self) -> TextIO:
        return sys.stderr if self.stderr else sys.stdout  # looked up at each write: tests replace them


UNCUT = 10_000
"""Widest a table is drawn off a terminal."""

out = Output()
"""Results, on stdout."""
err = Output(stderr=True)
"""Errors, warnings and progress, on stderr."""


@contextlib.contextmanager
def one_line_errors() -> Iterator[None]:
    """``MoocowError`` (bad input from a person) becomes one line on stderr and exit status 2.

    The message may quote a file's or a player's text: control characters are escaped, so it stays one line.
    """
    try:
        yield
    except MoocowError as error:
        err.line(f"error: {printable(str(error))}")
        raise typer.Exit(2) from None


LONG_EVALUATION = 600.0
"""Modelled seconds from which ``evaluate`` and ``tree`` say up front how long they will take."""


def note_long_evaluation(cost: EvaluationCost) -> None:
    """Say on stderr, before it starts, that a strategy's play over every secret will run long,
    and why (``tree bottles:n=10`` once ran for minutes with nothing printed)."""
    if cost.seconds >= LONG_EVALUATION:
        from moocow.engine.cost import duration

        took = duration(cost.seconds)
        err.line(f"note: this evaluation will take about {took} on a 2-core machine: {cost.reason()}")


MARK_STYLES = ("bold white on bright_black", "bold black on yellow", "bold white on green")
"""Each mark's tile, by value (grey, yellow, green): the terminal's own three colours, which every
colour terminal has (the newspaper's shades, as hex, turned yellow and green to white on 16)."""


def tiles(guess: str, marks: Sequence[int], prefix: str = "") -> Text:
    """``guess`` as Wordle shows it: each letter, upper case, on its mark's colour."""
    from rich.text import Text

    line = Text(prefix)
    for place, (letter, mark) in enumerate(zip(guess, marks, strict=True)):
        line.append(f" {letter.upper()} ", style=MARK_STYLES[mark])
        if place < len(guess) - 1:
            line.append(" ")
    return line


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
            ProgressColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        class KnownTotalBar(ProgressColumn):
            """A bar for work of a known total only: a pinned line (the exact search's bounds)
            drew a full one from its start, which read as finished."""

            def __init__(self) -> None:
                super().__init__()
                self.bar = BarColumn()

            def render(self, task: Task) -> RenderableType:
                return "" if task.total is None else self.bar.render(task)

        self._show_after = show_after
        self._progress = Progress(
            TextColumn("{task.description}"),
            KnownTotalBar(),
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
def progress_bars(output: Output | None = None) -> Iterator[ProgressBars | None]:
    """Show the engine's long tasks as bars on ``output`` (stderr), if it is a terminal; yields the bars."""
    output = output or err
    if not output.is_terminal:
        with reporting(None):
            yield None
        return
    bars = ProgressBars(output.console)
    try:
        with reporting(bars):
            yield bars
    finally:
        bars.close()
