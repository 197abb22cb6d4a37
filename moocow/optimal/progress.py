"""What a long exact search shows while it runs: the best total found and the lower bound proven.

No percentage: how much of the search is done is not known until it ends (a share of the first
guesses settled read 50% after 24 s of a search that takes a day). What is known, and shown, is
the interval the optimum lies in, ``[bound, best]``, and its gap, which only ever narrows. Work
the engine reports with a measurable total (building the table, evaluating the starting strategy)
gets its own bar with an estimate, drawn by the same display. Off a terminal (a batch job's log,
a proof left running for days) the interval is a line with the time searched, when it has
changed, at most every ``LOG_SECONDS``: a search of seconds adds nothing to piped output.
"""

from __future__ import annotations

import contextlib
import time
from types import TracebackType

from moocow.engine.cost import duration
from moocow.terminal import Output, ProgressBars, err, progress_bars

LOG_SECONDS = 60.0
"""Least time between two lines of the interval off a terminal (and before the first)."""


class SearchProgress:
    """A ``ProgressHook`` drawing on stderr (on a terminal); a context manager around the search."""

    def __init__(self, output: Output = err) -> None:
        self._output = output
        self._stack = contextlib.ExitStack()
        self._bars: ProgressBars | None = None
        self._line: object = None
        self.shown = "searching"
        """The last line shown (or that would be, off a terminal)."""
        self._logged = ""
        self._started = self._logged_at = time.monotonic()

    def __enter__(self) -> SearchProgress:
        self._started = self._logged_at = time.monotonic()
        self._bars = self._stack.enter_context(progress_bars(self._output))
        if self._bars is not None:
            self._line = self._bars.pin(self.shown)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._stack.close()

    def __call__(self, done: float, best: int | None, lower: int) -> None:
        """Show the best total and the bound; ``done`` (the share of first guesses settled) is not shown."""
        self.shown = describe_bounds(best, lower)
        if self._bars is not None:
            self._bars.describe(self._line, self.shown)  # type: ignore[arg-type]
        elif self.shown != self._logged and time.monotonic() - self._logged_at >= LOG_SECONDS:
            self._logged, self._logged_at = self.shown, time.monotonic()
            seconds = self._logged_at - self._started
            self._output.line(f"after {duration(seconds)}, {self.shown}")


def describe_bounds(best: int | None, lower: int) -> str:
    """``best 33,555, proven at least 31,466, gap 2,089 (6.2%)``: where the optimum lies."""
    if best is None:
        return f"searching: no strategy yet, proven at least {lower:,}"
    gap = best - lower
    share = f" ({100 * gap / best:.1f}%)" if best else ""
    return f"searching: best {best:,}, proven at least {lower:,}, gap {gap:,}{share}"
