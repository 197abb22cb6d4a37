"""How often a player is measured: what the kernel keeps, at every read; a scan, on a timer.

A read (``Meter.read``) is what the kernel keeps as one number (``usage.ProcessGroup.cpu_seconds``
and ``memory_bytes``): microseconds, whatever the player does. A scan looks at every process of the
player and, at the ``user`` level, at every file its user id may have made (``disk.DiskScan``), so
the player chooses its cost: 128 processes holding 1,024 descriptors each made one take half a
second, and the runner read them several times a guess. Scans run only when due: at least
``SCAN_SECONDS`` apart, and after each one for nine times what it cost, so the runner spends at most
a tenth of its time on them whatever the player holds. Between scans a read returns what the last
one found, so memory or disk held is caught at the next, however long the player holds it.

The meter counts the time it takes (``seconds``): the referee's, which the player's clock does not
count.
"""

from __future__ import annotations

import time

from moocow.runner.disk import DiskScan
from moocow.runner.usage import ProcessGroup, Scan, Usage

SCAN_SECONDS = 0.1
"""The shortest time between two scans."""
SCAN_SHARE = 0.1
"""The most of the runner's time scans may take: each one waits ``1 / SCAN_SHARE - 1`` times its cost."""


class Meter:
    """Reads what one player's processes use, scanning them when the timer says so."""

    def __init__(self, group: ProcessGroup, disk: DiskScan | None = None) -> None:
        self.group = group
        self.disk = disk
        self.scans = 0
        """Scans made so far."""
        self.seconds = 0.0
        """Time spent measuring so far (reads and scans)."""
        self._due = 0.0
        self._scanned = Scan(0, 0)
        self._disk_bytes: int | None = None

    def read(self) -> Usage | None:
        """What the player uses now (``None`` where it cannot be read), scanning if one is due."""
        started = time.monotonic()
        try:
            if started >= self._due:
                self._scan()
            cpu = self.group.cpu_seconds()
            if cpu is None:
                return None
            memory = self.group.memory_bytes()
            if memory is None:
                memory = self._scanned.memory_bytes
            return Usage(cpu, memory, self._scanned.processes, self._disk_bytes)
        finally:
            self.seconds += time.monotonic() - started

    def _scan(self) -> None:
        started = time.monotonic()
        self._scanned = self.group.scan()
        if self.disk is not None:
            self._disk_bytes = self.disk.held_bytes()
        finished = time.monotonic()
        self.scans += 1
        self._due = finished + max(SCAN_SECONDS, (finished - started) * (1 / SCAN_SHARE - 1))
