"""What a long exact search shows while it runs: the best total found and the lower bound proven.

No share of the search done: how much is done is not known until it ends (a share of the first
guesses settled runs far ahead: their easy parts settle at once, the hard ones take all the time).
What is known, and shown, is the interval the optimum lies in, ``[bound, best]``, and its gap, which
only ever narrows (also as a share of the best total: how far the best may be from optimal, not how
far the search has got). Work the engine reports with a measurable total (building the table,
evaluating the starting strategy) gets its own bar with an estimate, drawn by the same display. Off
a terminal (a batch job's log, a proof left running for days) the interval is a line with the time
searched: the first after ``FIRST_LOG_SECONDS`` (a batch log once stayed empty for minutes), then
whenever it changed, at most every ``LOG_SECONDS``, and at least every ``QUIET_LOG_SECONDS``; a
search of seconds adds nothing to piped output. A thread of its own writes them, so they come while
the search waits on its workers.
"""

from __future__ import annotations

import contextlib
import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING

from moocow.cli.terminal import Output, ProgressBars, err, progress_bars
from moocow.engine.cost import duration

if TYPE_CHECKING:
    from rich.progress import TaskID

FIRST_LOG_SECONDS = 10.0
"""Off a terminal, the first line of the interval comes this long after the start."""
LOG_SECONDS = 60.0
"""Least time between two lines of the interval off a terminal."""
QUIET_LOG_SECONDS = 600.0
"""Off a terminal, a line even when nothing changed after this long: the log shows it alive."""
TICK_SECONDS = 1.0
"""How often the logging thread looks whether a line is due."""


class SearchProgress:
    """A ``ProgressHook`` drawing on stderr (on a terminal) or logging lines (off one); a context
    manager around the search."""

    def __init__(self, output: Output = err) -> None:
        self._output = output
        self._stack = contextlib.ExitStack()
        self._bars: ProgressBars | None = None
        self._line: TaskID | None = None
        self.shown = "searching"
        """The last line shown (or that would be, off a terminal)."""
        self._logged: str | None = None
        self._started = self._logged_at = time.monotonic()
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._logger: threading.Thread | None = None

    def __enter__(self) -> SearchProgress:
        self._started = self._logged_at = time.monotonic()
        self._bars = self._stack.enter_context(progress_bars(self._output))
        if self._bars is not None:
            self._line = self._bars.pin(self.shown)
        else:
            self._stopped.clear()
            self._logger = threading.Thread(target=self._log_while_searching, daemon=True)
            self._logger.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._stopped.set()
        if self._logger is not None:
            self._logger.join()
            self._logger = None
        self._stack.close()

    def __call__(self, done: float, best: int | None, lower: int) -> None:
        """Show the best total and the bound; ``done`` (the share of first guesses settled) is not shown."""
        self.shown = describe_bounds(best, lower) + self._rate
        if self._bars is not None and self._line is not None:
            self._bars.describe(self._line, self.shown)
        else:
            self.log_if_due()

    _rate = ""

    def openings(self, settled: int, left: int) -> None:
        """A search that settles openings one at a time (``openings``) says how many, and at what
        rate: the proof over every opening of Wordle is days, and its rate is what projects it."""
        hours = (time.monotonic() - self._started) / 3600
        rate = f", {settled / hours:,.0f} an hour" if settled and hours > 0 else ""
        self._rate = f"; {settled:,} openings settled{rate}, at most {left:,} left"

    def log_if_due(self) -> None:
        """Off a terminal, write the interval as a line if one is due now."""
        with self._lock:
            now = time.monotonic()
            shown, since = self.shown, now - self._logged_at
            if self._logged is None:
                due = now - self._started >= FIRST_LOG_SECONDS
            else:
                due = (shown != self._logged and since >= LOG_SECONDS) or since >= QUIET_LOG_SECONDS
            if due:
                self._logged, self._logged_at = shown, now
                self._output.line(f"after {duration(now - self._started)}, {shown}")

    def _log_while_searching(self) -> None:
        while not self._stopped.wait(TICK_SECONDS):
            self.log_if_due()


def describe_bounds(best: int | None, lower: int) -> str:
    """``best 33,555, proven at least 31,466, gap 2,089 (6.2% of best)``: where the optimum lies."""
    if best is None:
        return f"searching: no strategy yet, proven at least {lower:,}"
    gap = best - lower
    share = f" ({100 * gap / best:.1f}% of best)" if best else ""
    return f"searching: best {best:,}, proven at least {lower:,}, gap {gap:,}{share}"
