"""A look at a player's files as soon as its folders change, not only on the meter's timer.

At the ``user`` level nothing but the meter's scan holds ``disk_mb`` (``disk.py``), and the timer
lets scans land at least 0.1 s apart: a player that wrote 12 files of 15 MB at import, 180 MB
against ``disk_mb=64``, and removed them, was caught only when a scan happened to land during the
burst (once in two runs). Here a process of the runner's waits on inotify watches of the player's
home (and the folders it makes there) and of the folders anyone may write to: every write, made
file or folder wakes it. A process, not a thread: a thread waited for the runner's interpreter lock
while the runner scanned, and a burst ran on to 105 MB. When what the player holds is over the
limit, it stops every process of the player (``SIGSTOP``: nothing more is written, its pipes stay
open) and reports the reading through a pipe, whose next read by the meter fouls the player.

It looks only at what is the player's: its home, and the entries its user id made in the folders
anyone may write to, which the events name (one ``lstat`` each). It never walks those folders,
which may hold thousands of others' files: with 150,000 of them in ``/tmp`` such a walk took the
watch away for the whole burst, and 180 MB went unfouled. That walk is the timer's. A write to a
file no folder holds any more is to a deleted file kept open: only then does it read the
descriptors of the player's processes, which lists every one of them.

Its looks keep to the meter's share (``pacing.Pace``): after a look that took ``t`` of its CPU
time the next of its kind waits ``9 t``, so that each kind takes at most a tenth of a core whatever
the player holds. CPU time, not the clock: on a loaded machine a look of microseconds may wait
milliseconds for a core, and a pause of nine times that let a burst through. The bound: a player
holds at most ``disk_mb`` plus what it writes while the watch wakes and looks, and during the
pause after a look; a few files take microseconds (``docs/runner.md``). Where the runner may, the
watch runs ahead of the player (``ahead_of_the_player``), so that it wakes before the next write.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import select
import signal
import struct
import time
from collections.abc import Callable

from moocow.runner.disk import DiskScan
from moocow.runner.launch import die_with_parent, libc
from moocow.runner.pacing import Pace

IN_MODIFY = 0x002
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_Q_OVERFLOW = 0x4000
IN_ONLYDIR = 0x01000000
IN_ISDIR = 0x40000000
WATCHED = IN_MODIFY | IN_MOVED_TO | IN_CREATE | IN_MOVED_FROM | IN_DELETE
GONE = IN_MOVED_FROM | IN_DELETE
WATCH_NICENESS = -10
"""The watch's niceness where it may lower it but not take a real-time policy."""
EVENTS, FILES, HELD_OPEN = "events", "files", "held open"
"""What the watch does, each paced on its own: drain the events, look at the files, look at the
descriptors."""
READING = struct.Struct("q")
"""A reading over the limit, in bytes, as the watching process reports it."""
EVENT = struct.Struct("iIII")
"""``struct inotify_event`` before its name: watch, mask, cookie, name length."""
MOST_WATCHES = 256
"""Folders watched for one player at most (inotify watches are the runner's, counted per user);
past that, the player's deeper folders are caught by the meter's timer alone."""
MOST_ENTRIES = 65536
"""The player's entries in the folders anyone may write to that the watch keeps at once (a few MB
of the runner's memory); past that, new ones are the timer's."""


class FolderWatch:
    """A process of the runner's measuring a player's files whenever its folders change."""

    def __init__(
        self,
        disk: DiskScan,
        held_open: Callable[[], int],
        limit: int,
        stop: Callable[[], None],
        share: float,
    ) -> None:
        self.disk = disk
        self.held_open = held_open
        """What the player's deleted files kept open hold, in bytes (read from its descriptors)."""
        self.limit = limit
        self.stop = stop
        """Stops every process of the player (``SIGSTOP``), once it is over the limit."""
        self._pace = Pace(share, cost=time.process_time)
        """Each kind of look keeps to ``share`` of a core (the meter's ``SCAN_SHARE``)."""
        self._files_held = 0
        """What the last look at the files found."""
        self._held_open = 0
        """What the last look at the descriptors found."""
        self._entries: dict[str, None] = {}
        """The player's entries in the folders anyone may write to, as the events named them (and
        not yet removed)."""
        self._folders: dict[int, tuple[str, bool]] = {}
        """Each watch's folder, and whether it is the player's (every folder in it is too)."""
        self._fd = libc().inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self._fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        for home in disk.homes:
            self._watch(home, True)
        for folder in disk.shared:
            self._watch(folder, False)
        self._readings, report = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        parent = os.getpid()
        _ = libc().prctl  # looked up before the fork: a lookup takes a lock another thread may hold
        try:
            self._child = os.fork()
        except OSError:  # out of processes: the meter's timer alone
            for fd in (self._fd, self._readings, report):
                os.close(fd)
            raise
        if self._child == 0:
            try:
                os.set_blocking(report, True)
                self._watching(parent, report)
            finally:
                os._exit(0)
        for fd in (self._fd, report):
            os.close(fd)

    def take_over(self) -> int | None:
        """The first reading over the limit since the last take, once (``None`` if there was none)."""
        try:
            found = os.read(self._readings, 4096)
        except (BlockingIOError, OSError):
            return None
        return READING.unpack_from(found)[0] if len(found) >= READING.size else None

    def close(self) -> None:
        """End the watching process."""
        with contextlib.suppress(OSError):
            os.kill(self._child, signal.SIGKILL)
            os.waitpid(self._child, 0)
        with contextlib.suppress(OSError):
            os.close(self._readings)

    def _watching(self, parent: int, report: int) -> None:
        """The watching process's life: only its own descriptors kept, gone with the runner."""
        die_with_parent(parent)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a ^C is the runner's to handle; it ends this one
        ahead_of_the_player()
        nothing = os.open(os.devnull, os.O_RDWR)  # the runner's standard streams may be a caller's pipes
        for fd in (0, 1, 2):
            os.dup2(nothing, fd)
        keep = sorted({2, self._fd, report})
        for low, high in itertools.pairwise([*keep, os.sysconf("SC_OPEN_MAX")]):
            os.closerange(low + 1, high)
        self._report = report
        self._run()

    def _watch(self, folder: str, own: bool) -> None:
        if len(self._folders) >= MOST_WATCHES:
            return
        number = libc().inotify_add_watch(self._fd, os.fsencode(folder), WATCHED | IN_ONLYDIR)
        if number >= 0:
            self._folders[number] = (folder, own)

    def _run(self) -> None:
        """Drain the events and look when a look is due; draining keeps to the share as looks do
        (a player writing a byte at a time would otherwise have the watch woken by every write)."""
        pending: set[str] = set()
        while True:
            time.sleep(self._pace.wait(EVENTS))
            wait = min(self._pace.wait(kind) for kind in pending) if pending else None
            if select.select([self._fd], [], [], wait)[0]:
                pending |= self._pace.timed(EVENTS, self._read_events)
            due = {kind for kind in pending if self._pace.wait(kind) == 0}
            if due:
                pending -= due
                with contextlib.suppress(OSError):  # /proc unreadable for a moment: the timer still looks
                    self._look(due)

    def _look(self, kinds: set[str]) -> None:
        """The player's files, and its deleted files kept open: the kinds of look that are due."""
        if FILES in kinds:
            self._files_held = self._pace.timed(FILES, self._files)
        if HELD_OPEN in kinds:
            self._held_open = self._pace.timed(HELD_OPEN, self.held_open)
        held = self._files_held + self._held_open
        if held > self.limit:
            self.stop()
            os.write(self._report, READING.pack(held))

    def _files(self) -> int:
        """What the player's home and its entries in the folders anyone may write to hold."""
        return self.disk.bytes_within([*self.disk.homes, *self._entries])

    def _read_events(self) -> set[str]:
        """Drain the events; the kinds of look they call for."""
        kinds: set[str] = set()
        with contextlib.suppress(BlockingIOError, OSError):
            while data := os.read(self._fd, 65536):
                offset = 0
                while offset < len(data):
                    watch, mask, _, length = EVENT.unpack_from(data, offset)
                    name = data[offset + EVENT.size : offset + EVENT.size + length].rstrip(b"\0")
                    offset += EVENT.size + length
                    if mask & IN_Q_OVERFLOW:
                        kinds |= {FILES, HELD_OPEN}  # events were lost: look at everything
                    elif watch in self._folders:
                        kinds |= self._note(watch, mask, os.fsdecode(name))
        return kinds

    def _note(self, watch: int, mask: int, name: str) -> set[str]:
        """One event in a watched folder: the kinds of look it calls for. Each folder made in the
        player's folders is watched; each entry named in the folders anyone may write to is the
        player's if its user id owns it (a folder of its is then watched as the player's). A write
        to a file no folder holds any more is to a deleted file kept open: only its descriptors
        tell, a look that lists every process of the player's, so taken only then."""
        folder, own = self._folders[watch]
        path = os.path.join(folder, name)
        if mask & GONE:  # holding less is never over
            self._entries.pop(path, None)
            return set()
        try:
            status = os.lstat(path)
        except OSError:
            return {HELD_OPEN} if mask & IN_MODIFY else set()
        made_folder = bool(mask & IN_ISDIR and mask & (IN_CREATE | IN_MOVED_TO))
        if not own and status.st_uid != self.disk.uid:
            return set()
        if not own and path not in self._entries and len(self._entries) < MOST_ENTRIES:
            self._entries[path] = None
        if made_folder:
            self._watch(path, True)
        return {FILES}


def ahead_of_the_player() -> None:
    """Have this process run before the player, where the runner may (``CAP_SYS_NICE``): woken by
    a write, it looks before the player writes the next. At the same priority, on a loaded machine,
    it waited 28 ms while a player wrote 30 MB. A real-time policy at its lowest priority first (its
    work is paced to a tenth of a core, so it cannot hold one), else a lower niceness."""
    try:
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(1))
    except OSError:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, WATCH_NICENESS)
