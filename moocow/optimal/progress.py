"""A progress bar for long searches: how much of the root is settled, the best total, the bound."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn


class SearchProgress:
    """A ``ProgressHook`` drawing on stderr; use it as a context manager around the search."""

    def __init__(self, console: Console | None = None) -> None:
        console = console or Console(stderr=True)
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>5.1f}%"),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=not console.is_terminal,  # a log or a pipe gets no bar and no stray blank line
        )
        self._task = self._progress.add_task("searching", total=1.0)

    def __enter__(self) -> SearchProgress:
        self._progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._progress.stop()

    def __call__(self, done: float, best: int | None, lower: int) -> None:
        shown = "none yet" if best is None else str(best)
        self._progress.update(self._task, completed=done, description=f"best {shown}, bound {lower}")
