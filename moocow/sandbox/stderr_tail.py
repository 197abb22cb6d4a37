"""What the runner keeps of a player's stderr: the pipe it drains, and the last lines of each round.

Students debug with ``print``, so what a player writes to stderr is worth showing, bounded: the
last ``ROUND_LINES`` lines of each round, with the count of the lines before them, each escaped and
cut to ``LINE_SHOWN`` characters (``RoundStderr``). The pipe is drained while the runner waits for
an answer (``ErrorOutput``); only the last lines are kept (``LineTail``), each at most
``LINE_BYTES``, so a flood costs the runner no memory. Whether a round's lines are shown is the
caller's choice: a graded round's never are (docs/grading.md, Where a student reads their prints).
"""

from __future__ import annotations

import os
import select
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from moocow.engine.wording import plural, printable

ROUND_LINES = 20
"""Lines kept of a round: its last ones."""
LINE_SHOWN = 200
"""Characters shown of a line; a longer one is cut, saying how long it was."""
LINE_BYTES = 4 * LINE_SHOWN
"""Bytes kept of a line: ``LINE_SHOWN`` characters of UTF-8 at most (escaping only lengthens them)."""


@dataclass(frozen=True)
class RoundStderr:
    """What the player wrote to stderr in one round, as kept: safe to print and to write anywhere."""

    lines: tuple[str, ...] = ()
    """The round's last lines (at most ``ROUND_LINES``), control characters escaped, each cut."""
    left_out: int = 0
    """Lines written in the round before those kept."""
    said: str = ""
    """The line that ends the round's reason (``Foul.said``), to leave out where the reason is shown
    and the player's words are not (a graded round's)."""

    def __bool__(self) -> bool:
        return bool(self.lines or self.left_out or self.said)

    def shown(self, prefix: str = "  stderr: ") -> list[str]:
        """The lines as a log shows them, each after ``prefix`` (so no line a player wrote starts a
        log's line: a GitHub Actions log runs ``::command::`` lines), the count left out first."""
        left_out = f"  ... {self.left_out:,} earlier {plural(self.left_out, 'line')} left out"
        earlier = [left_out] if self.left_out else []
        return [*earlier, *(f"{prefix}{line}" for line in self.lines)]

    def to_dict(self) -> dict[str, Any]:
        """As it crosses between processes."""
        return {"lines": list(self.lines), "left_out": self.left_out, "said": self.said}

    @classmethod
    def from_dict(cls, data: Any) -> RoundStderr:
        """What ``to_dict`` wrote (``TypeError`` if it is not that)."""
        lines, left_out, said = data["lines"], data["left_out"], data["said"]
        if not (isinstance(lines, list) and all(isinstance(line, str) for line in lines)):
            raise TypeError(f"a round's stderr is a list of lines, not {lines!r:.80}")
        if type(left_out) is not int or left_out < 0 or not isinstance(said, str):
            raise TypeError(f"a round's stderr counts whole lines and says a line, not {data!r:.80}")
        return cls(tuple(lines), left_out, said)


NOTHING_KEPT = RoundStderr()
"""A round's stderr when none is kept (the default: a tournament keeps none)."""


def shown_line(head: bytes, size: int) -> str:
    """A kept line as shown: decoded, escaped, cut to ``LINE_SHOWN`` characters; ``size`` is the
    line's whole length in bytes, of which ``head`` was kept."""
    text = printable(head.decode("utf-8", "replace").rstrip())
    if size > len(head):
        return f"{text[:LINE_SHOWN]}... (a line of {size:,} bytes)"
    if len(text) <= LINE_SHOWN:
        return text
    return f"{text[:LINE_SHOWN]}... ({len(text) - LINE_SHOWN:,} more characters)"


class LineTail:
    """The last lines written to a stream, fed as it is read: counted, the last ``most`` kept, each
    at most ``LINE_BYTES``. Work per chunk, not per line: a flood of empty lines costs no more."""

    def __init__(self, most: int = ROUND_LINES) -> None:
        self.count = 0
        """Complete lines so far (a mark for ``since``)."""
        self._kept: deque[tuple[bytes, int]] = deque(maxlen=most)
        """The last complete lines: the first bytes of each, and its length."""
        self._partial = b""
        self._partial_size = 0
        """The line being written, not ended yet: its first bytes and its length."""
        self._last_said = b""
        """The last complete line that is not blank (for ``last_line``)."""

    def feed(self, data: bytes) -> None:
        """Take in the next bytes written."""
        first, newline, rest = data.partition(b"\n")
        self._grow(first)
        if not newline:
            return
        self._end_partial()
        most = self._kept.maxlen or 0
        *complete, partial = rest.rsplit(b"\n", most + 1)
        self.count += rest.count(b"\n")
        beyond = complete[: max(0, len(complete) - most)]  # lines merged there are past the last ``most``
        for line in complete[len(beyond) :]:
            self._keep(line[:LINE_BYTES], len(line))
        if beyond and not any(line.strip() for line in complete[len(beyond) :]):
            said = beyond[0].rstrip()
            if said:
                self._last_said = said.rsplit(b"\n", 1)[-1][:LINE_BYTES]
        self._grow(partial)

    def since(self, mark: int) -> RoundStderr:
        """The lines ended after ``mark`` (a ``count`` taken before), and the one not ended yet."""
        partial = [shown_line(self._partial, self._partial_size)] if self._partial_size else []
        new = max(0, self.count - mark)
        kept = min(new, len(self._kept), (self._kept.maxlen or 0) - len(partial))
        lines = [shown_line(head, size) for head, size in list(self._kept)[len(self._kept) - kept :]]
        return RoundStderr(tuple(lines + partial), new - kept)

    def last_line(self) -> str:
        """The last line that is not blank, the one being written included, as written (decoded, its
        first ``LINE_BYTES`` bytes): a crash's reason ends with it."""
        said = self._partial if self._partial.strip() else self._last_said
        return said.decode("utf-8", "replace").strip()

    def _grow(self, data: bytes) -> None:
        if len(self._partial) < LINE_BYTES:
            self._partial += data[: LINE_BYTES - len(self._partial)]
        self._partial_size += len(data)

    def _end_partial(self) -> None:
        self._keep(self._partial, self._partial_size)
        self.count += 1
        self._partial, self._partial_size = b"", 0

    def _keep(self, head: bytes, size: int) -> None:
        self._kept.append((head, size))
        if head.strip():
            self._last_said = head


class ErrorOutput:
    """A player's stderr: a pipe the runner drains while it waits, keeping the byte count and the
    last lines (``LineTail``). Not a file: the player shares what it writes to, and a file on the
    host's disk can be grown past any limit (``fallocate`` keeps its size at 0) or made unreadable
    to the runner (``O_DIRECT``)."""

    def __init__(self, most: int = 0) -> None:
        self.reading, writing = os.pipe()
        self.writing: int | None = writing
        """The player's end, until it has started (``started``)."""
        os.set_blocking(self.reading, False)
        self.most = most
        """Bytes past which nothing more is read (0: no end): the player then waits on a full pipe.
        Read on, a player writing as fast as the runner read went 321 MB past ``output_mb=1``."""
        self.size = 0
        """Bytes written so far."""
        self.tail = LineTail()
        """The last lines written."""
        self._closed = False
        self._released = False

    def watched(self) -> list[int]:
        """The descriptor to wait on alongside the protocol's, until the player closes it."""
        return [] if self._closed else [self.reading]

    def drain(self) -> None:
        """Read what is there, without waiting, until past ``most``."""
        while not self._closed and not self.over():
            try:
                data = os.read(self.reading, 65536)
            except BlockingIOError:
                return
            if not data:
                self._closed = True
                return
            self.size += len(data)
            self.tail.feed(data)

    def over(self) -> bool:
        """Whether more than ``most`` bytes were read."""
        return bool(self.most) and self.size > self.most

    def drain_until_closed(self, wait: float) -> None:
        """Read until every writer has closed it (the player has ended), for at most ``wait`` seconds."""
        deadline = time.monotonic() + wait
        self.drain()
        while not self._closed and not self.over() and (left := deadline - time.monotonic()) > 0:
            select.select(self.watched(), [], [], left)
            self.drain()

    def last_line(self, limit: int = 200) -> str:
        """The last non-blank line written, shortened."""
        last = self.tail.last_line()
        return last if len(last) <= limit else last[: limit - 3] + "..."

    def started(self) -> None:
        """The player has its own copy of the writing end (or never will): close the runner's."""
        if self.writing is not None:
            writing, self.writing = self.writing, None
            os.close(writing)

    def close(self) -> None:
        """Close both ends that are still the runner's; a second call does nothing."""
        self.started()
        if not self._released:
            self._released = self._closed = True
            os.close(self.reading)
