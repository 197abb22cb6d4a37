"""How often a player is measured: what the kernel keeps, at every read; a scan, on a timer.

A read (``Meter.read``) is what the kernel keeps as one number (``usage.ProcessGroup.cpu_seconds``
and ``memory_bytes``): microseconds, whatever the player does. A scan looks at every process of the
player and, at the ``user`` level, at every file its user id may have made (``disk.DiskScan``), so
the player chooses its cost: 128 processes holding 1,024 descriptors each made one take half a
second, and the runner read them several times a guess. Scans run only when due: at least
``SCAN_SECONDS`` apart, and after each one for nine times what it cost, so the runner spends at most
a tenth of its time on them whatever the player holds. Between scans a read returns what the last
one found, so memory or disk held is caught at the next, however long the player holds it.

The walk of the folders anyone may write to keeps its own timer: its cost is chosen by whoever else
writes there (150,000 files of others' in ``/tmp`` made it take a second), and on one timer with
the player's processes it held back the next look at them by nine times its own cost.

At the ``user`` level, where a scan is all that holds ``disk_mb``, a ``watch.FolderWatch`` also
measures the player's files as soon as its folders change, so that a burst is caught while it is
written, not only if a scan lands in it. A watch that has gone (its report pipe at its end: the
player cannot signal it, a process of root's, but it may crash or be killed for memory) is replaced
at once by a new one, with the player stopped until the new one has walked everything of its: the
round goes on watched, and an honest player loses nothing for the runner's trouble.

Both count the player's files and folders, and past the ``files`` limit the round is lost as
``disk``: that bound keeps every look's cost, and so the pause after it, out of the player's hands.

The meter counts the time it takes (``seconds``): the referee's, which the player's clock does not
count.
"""

from __future__ import annotations

import contextlib
import time

from moocow.sandbox.disk import DiskScan
from moocow.sandbox.fouls import Failure, Foul
from moocow.sandbox.held import HeldFiles
from moocow.sandbox.pacing import LookSchedule
from moocow.sandbox.usage import ProcessGroup, Scan, Usage
from moocow.sandbox.watch import FolderWatch, Report

SCAN_SECONDS = 0.1
"""The shortest time between two scans."""
SCAN_SHARE = 0.1
"""The most of the runner's time scans may take: each one waits ``1 / SCAN_SHARE - 1`` times its cost."""


class Meter:
    """Reads what one player's processes use, scanning them when the timer says so."""

    def __init__(
        self, group: ProcessGroup, disk: DiskScan | None = None, disk_limit: int | None = None
    ) -> None:
        self.group = group
        self.disk = disk
        self.watch: FolderWatch | None = None
        """Where ``disk_limit`` (bytes) is given with ``disk``: the look at each change of its folders."""
        self._disk_limit = disk_limit
        if disk is not None and disk_limit is not None:
            self._start_watch(stopped=False)
        self.scans = 0
        """Scans made so far."""
        self.seconds = 0.0
        """Time spent measuring so far (reads and scans)."""
        self._pace = LookSchedule(SCAN_SHARE, least=SCAN_SECONDS)
        self._scanned = Scan(0, 0)
        self._files_bytes: int | None = None

    def read(self) -> Usage | None:
        """What the player uses now (``None`` where it cannot be read), scanning if one is due."""
        started = time.monotonic()
        try:
            over = self._watched()  # first: a gone watch is replaced before a scan's seconds
            if self._pace.wait("processes") == 0:
                self._pace.timed("processes", self._scan)
            if self.disk is not None and self._pace.wait("files") == 0:
                self._files_bytes = self._pace.timed("files", self._files)
            cpu = self.group.cpu_seconds()
            if cpu is None:
                return None
            memory = self.group.memory_bytes()
            if memory is None:
                memory = self._scanned.memory_bytes
            disk = None if self._files_bytes is None else self._files_bytes + self._scanned.disk_bytes
            if over is not None:
                disk = max(disk or 0, over.bytes)
            return Usage(cpu, memory, self._scanned.processes, disk, self._scanned.hiding)
        finally:
            self.seconds += time.monotonic() - started

    def _files(self) -> int:
        """What the player's files hold, by the timer's walk; a ``disk`` foul past ``files``."""
        assert self.disk is not None
        found = self.disk.held()
        self._check_entries(found.entries)
        return found.bytes

    def _watched(self) -> Report | None:
        """What the watch found over the limits since the last reading; a gone watch replaced."""
        if self.watch is None:
            return None
        over = self.watch.take_over()
        if over is not None:
            self._check_entries(over.entries)
            if over.unwatched:
                raise Foul(
                    Failure.DISK,
                    f"made {over.unwatched} folders past the inotify watches this machine allows",
                )
        elif self.watch.ended:
            self.group.stop()
            self.watch.close()
            self.group.closers.remove(self.watch.close)
            self._start_watch(stopped=True)
        return over

    def _check_entries(self, entries: int) -> None:
        assert self.disk is not None
        if self.disk.over(entries):
            raise Foul(
                Failure.DISK,
                f"its user id held more than {self.disk.most_entries} files and folders in its home "
                f"and the folders anyone may write to, the files limit",
            )

    def _start_watch(self, stopped: bool) -> None:
        """A watch of the player's folders; with the player ``stopped``, resumed after its first look."""
        assert self.disk is not None and self._disk_limit is not None
        self.watch = None
        with contextlib.suppress(OSError):  # no inotify: the timer alone
            group = (self.group.stop, self.group.resume)
            self.watch = FolderWatch(self.disk, self._held_open, self._disk_limit, group, SCAN_SHARE, stopped)
            self.group.closers.append(self.watch.close)
        if self.watch is None and stopped:
            self.group.resume()

    def _held_open(self) -> int:
        """What the player's deleted files kept open hold on disk now."""
        return HeldFiles.of(self.group.members()).disk_bytes

    def _scan(self) -> None:
        self._scanned = self.group.scan()
        self.scans += 1
