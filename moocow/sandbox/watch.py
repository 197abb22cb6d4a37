"""A look at a player's files as soon as its folders change, not only on the meter's timer.

At the ``user`` level nothing but the meter's scan holds ``disk_mb`` (``disk.py``), and the timer
lets scans land at least 0.1 s apart: a player that wrote 12 files of 15 MB at import, 180 MB
against ``disk_mb=64``, and removed them, was caught only when a scan happened to land during the
burst (once in two runs). Here a process of the runner's waits on inotify watches of every folder
of the player's (its home and the folders it makes anywhere) and of the folders anyone may write
to: every write, made file or folder wakes it. A process, not a thread: a thread waited for the
runner's interpreter lock while the runner scanned, and a burst ran on to 105 MB. When what the
player holds is over the limit, it stops every process of the player (``SIGSTOP``: nothing more is
written, its pipes stay open) and reports the reading through a pipe, whose next read by the meter
fouls the player.

Every folder is watched before it is listed: what was made in it before is in the listing, what
after is an event. A look walks the player's home and its entries in the folders anyone may write
to, watching each folder it meets; the walk counts entries and stops past the ``files`` limit, so
its cost is the player's to keep small but never more than that limit's. The folders anyone may
write to themselves, which may hold thousands of others' files, are walked only when events were
lost (``IN_Q_OVERFLOW``) or the watch is new: then the player is stopped until the walk is done.

Its looks keep to the meter's share (``pacing.LookSchedule``): after a look that took ``t`` of its CPU
time the next of its kind waits ``9 t``, so that each kind takes at most a tenth of a core whatever
the player holds. CPU time, not the clock: on a loaded machine a look of microseconds may wait
milliseconds for a core. A pause longer than ``STOP_AFTER`` is not the player's to write in: the
first event that arrives during it stops the player until the look is made (and resumes it if it
is within its limits). The bound: a player holds at most ``disk_mb`` plus what it writes while the
watch wakes and looks, and ``STOP_AFTER`` of writing (``docs/runner.md``). Where the runner may,
the watch runs ahead of the player (``ahead_of_the_player``), so that it wakes before the next write.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import itertools
import os
import select
import signal
import stat
import struct
import time
from collections.abc import Callable
from typing import NamedTuple

from moocow.sandbox.disk import DiskScan, Held
from moocow.sandbox.launch import die_with_parent, libc
from moocow.sandbox.pacing import LookSchedule

IN_MODIFY = 0x002
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ONLYDIR = 0x01000000
IN_ISDIR = 0x40000000
WATCHED = IN_MODIFY | IN_MOVED_TO | IN_CREATE | IN_MOVED_FROM | IN_DELETE
GONE = IN_MOVED_FROM | IN_DELETE
MADE = IN_CREATE | IN_MOVED_TO
WATCH_NICENESS = -10
"""The watch's niceness where it may lower it but not take a real-time policy."""
EVENTS, FILES, HELD_OPEN, EVERYTHING = "events", "files", "held open", "everything"
"""What the watch does, each paced on its own: drain the events, look at the player's files, look
at the descriptors, walk the folders anyone may write to for the player's entries."""
WRITTEN = "written"
"""Not a look: that the events looked for include a write, which has the player stopped until the
look (made files and folders hold no blocks, so those alone only wait for it)."""
STOP_AFTER = 0.005
"""The longest pause after a look during which the player may go on writing unstopped: a burst
writes a few MB in it. Looks of a home of a few dozen files (well under half a millisecond) never
pause that long, so an honest player is not stopped."""
MOST_GROWN = 4096
"""Files whose growth the watch follows by their own ``lstat`` at most (past it, a write is looked at
by a walk, as any other)."""
REPORT = struct.Struct("qqq")
"""A reading over the limits, as the watching process reports it."""
EVENT = struct.Struct("iIII")
"""``struct inotify_event`` before its name: watch, mask, cookie, name length."""


class Report(NamedTuple):
    """What the watch found over the player's limits."""

    bytes: int
    """What its files held, in its home and the folders anyone may write to."""
    entries: int
    """Its files and folders there (the walk stops one past the bound)."""
    unwatched: int
    """Its folders the kernel would not watch (``max_user_watches`` reached): 0 when all are."""


class FolderWatch:
    """A process of the runner's measuring a player's files whenever its folders change."""

    def __init__(
        self,
        disk: DiskScan,
        held_open: Callable[[], int],
        limit: int,
        group: tuple[Callable[[], None], Callable[[], None]],
        share: float,
        stopped: bool = False,
    ) -> None:
        self.disk = disk
        self.held_open = held_open
        """What the player's deleted files kept open hold, in bytes (read from its descriptors)."""
        self.limit = limit
        self.stop, self.resume = group
        """Stop every process of the player (``SIGSTOP``), and let them run again (``SIGCONT``)."""
        self.ended = False
        """Whether the watching process has gone (its report pipe reached its end)."""
        self._pace = LookSchedule(share, cost=time.process_time)
        """Each kind of look keeps to ``share`` of a core (the meter's ``SCAN_SHARE``)."""
        self._held = stopped
        """Whether the player is stopped by the watch (or was, by the meter, for its first look)."""
        self._over = False
        self._files = Held(0, 0)
        """What the last look at the files found."""
        self._held_open = 0
        """What the last look at the descriptors found."""
        self._unwatched = 0
        self._grown: dict[str, tuple[int, int, int]] = {}
        """Files of the player's it has written to: device, inode and blocks (bytes) just before the
        last walk. A write to one is read from its own ``lstat``, not from a walk."""
        self._growth = 0
        """What those files grew by since the last walk (their blocks now less their blocks then)."""
        self._entries: dict[str, None] = {}
        """The player's entries in the folders anyone may write to, as the events and walks named
        them (and not yet removed)."""
        self._folders: dict[int, tuple[str, bool]] = {}
        """Each watch's folder, and whether it is the player's (every folder in it is too)."""
        self._inodes: dict[tuple[int, int], int] = {}
        """The watch of each folder watched, by its device and inode."""
        self._inode_of: dict[int, tuple[int, int]] = {}
        """Each watch's folder's device and inode."""
        self._fd = libc().inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self._fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self._readings, report = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        parent = os.getpid()
        _ = libc().prctl  # looked up before the fork: a lookup takes a lock another thread may hold
        _ = libc().inotify_add_watch
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

    def take_over(self) -> Report | None:
        """The first reading over the limits since the last take, once (``None`` if there was none;
        then ``ended`` says whether the watching process is gone)."""
        try:
            found = os.read(self._readings, 4096)
        except (BlockingIOError, OSError):
            return None
        if not found:
            self.ended = True
        return Report(*REPORT.unpack_from(found)) if len(found) >= REPORT.size else None

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
        for home in self.disk.homes:
            self._watch(home, True)
        for folder in self.disk.shared:
            self._watch(folder, False)
        self._run()

    def _watch(self, folder: str, own: bool) -> None:
        """Watch a folder (again: the kernel keeps one watch per folder, and its path is renewed)."""
        number = libc().inotify_add_watch(self._fd, os.fsencode(folder), WATCHED | IN_ONLYDIR)
        if number >= 0:
            self._folders[number] = (folder, own)
            with contextlib.suppress(OSError):
                status = os.lstat(folder)
                self._inodes[status.st_dev, status.st_ino] = number
                self._inode_of[number] = (status.st_dev, status.st_ino)
        elif ctypes.get_errno() in (errno.ENOSPC, errno.ENOMEM):
            self._unwatched += 1

    def _watch_own(self, folder: str) -> None:
        self._watch(folder, True)

    def _watch_shared(self, folder: str) -> None:
        self._watch(folder, False)

    def _run(self) -> None:
        """Drain the events and look when a look is due; draining keeps to the share as looks do
        (a player writing a byte at a time would otherwise have the watch woken by every write).
        The first look is at the home, the player barely started (a walk of the folders anyone may
        write to, thousands of others' files, would let the first writes run on unseen); for a
        watch that replaces one gone, with the player stopped, it walks everything."""
        pending: set[str] = {EVERYTHING} if self._held else {FILES}
        while True:
            if WRITTEN in pending and max(self._pace.wait(kind) for kind in pending) > STOP_AFTER:
                self._hold()
            wait = min((self._pace.wait(kind) for kind in pending - {WRITTEN}), default=None)
            if select.select([self._fd], [], [], wait)[0]:
                if self._pace.wait(EVENTS) > STOP_AFTER:
                    self._hold()
                time.sleep(self._pace.wait(EVENTS))
                pending |= self._pace.timed(EVENTS, self._read_events)
            due = {kind for kind in pending - {WRITTEN} if self._pace.wait(kind) == 0}
            if due:
                pending -= due
                with contextlib.suppress(OSError):  # /proc unreadable for a moment: the timer still looks
                    self._look(due)
            pending -= {WRITTEN} if pending == {WRITTEN} else set()
            if not pending and self._held and not self._over:
                self._pace.timed(FILES, self.resume)  # its cost is the watch's, paced as a look
                self._held = False

    def _hold(self) -> None:
        """Stop the player until the watch has looked, once."""
        if not self._held:
            self._pace.timed(FILES, self.stop)
            self._held = True

    def _look(self, kinds: set[str]) -> None:
        """The kinds of look that are due. A walk of the folders anyone may write to is made with
        the player stopped, and is followed by a look at everything of the player's."""
        if EVERYTHING in kinds:
            self._hold()
            entries = self._pace.timed(EVERYTHING, lambda: self.disk.shared_entries(self._watch_shared))
            self._entries = dict.fromkeys(entries)
            kinds = kinds | {FILES, HELD_OPEN}
        if FILES in kinds:
            self._files = self._pace.timed(FILES, self._walk)
        if HELD_OPEN in kinds:
            self._held_open = self._pace.timed(HELD_OPEN, self.held_open)
        found = Report(self._files.bytes + self._held_open, self._files.entries, self._unwatched)
        if found.bytes > self.limit or self.disk.over(found.entries) or found.unwatched:
            self._hold()
            self._over = True
            os.write(self._report, REPORT.pack(*found))

    def _walk(self) -> Held:
        """What the player's home and its entries in the folders anyone may write to hold, each
        folder met watched (renewing the path of one moved). The files written to are measured
        first: their growth from then on counts what the walk has counted too, never less."""
        for path in list(self._grown):
            try:
                self._grown[path] = _measure(os.lstat(path))
            except OSError:
                del self._grown[path]
        self._growth = 0
        return self.disk.within([*self.disk.homes, *self._entries], self._watch_own)

    def _written(self, path: str, status: os.stat_result) -> set[str]:
        """A write to a file of the player's: the kinds of look it calls for. The file is read from
        its ``lstat`` (the event's, already made): what it grew by since it was measured before the
        last walk, or all its blocks for a file new to the watch (counted twice if the walk met it,
        never less). While the last walk and what the files written to grew by since are within
        the limit, nothing more is needed, and the player is not stopped however long the next walk
        must wait: a burst of new files, each read so, is caught at the write that passes the limit,
        not after a walk of every folder (300 nested ones let a burst reach 133 MB). Else (another
        file by that name, more files than are followed, or past the limit), a walk, with the player
        stopped if it must wait (``WRITTEN``)."""
        if not stat.S_ISREG(status.st_mode):
            return {FILES}
        now, before = _measure(status), self._grown.get(path)
        if before is None and len(self._grown) < MOST_GROWN:
            before = (*now[:2], 0)
        if before is None or before[:2] != now[:2]:
            if before is not None:
                self._grown[path] = now  # measured again before the walk this write calls for
            return {FILES, WRITTEN}
        self._grown[path] = now
        self._growth += now[2] - before[2]
        if self._files.bytes + self._held_open + self._growth > self.limit:
            return {FILES, WRITTEN}
        return set()

    def _made_folder(self, path: str) -> set[str]:
        """A folder the player made, in its folders or in one anyone may write to: watched at once,
        with the folders made in it meanwhile (a chain of 300 nested folders waited for a walk to be
        watched, and a burst in the deepest reached 133 MB first). Folders watched already are not
        entered again: each sends its own events, so a chain costs its length, not its square. What
        is found is growth until the next walk (counted twice if the walk meets it, never less); the
        work is paced as events are."""
        made = self.disk.within([path], self._watch_new)
        self._growth += made.bytes
        if self.disk.over(made.entries) or self._files.bytes + self._held_open + self._growth > self.limit:
            return {FILES, WRITTEN}
        return {FILES}

    def _watch_new(self, folder: str) -> bool:
        """Watch a folder of the player's not watched yet, to be listed; one watched already is
        passed over."""
        if self._watching_now(folder):
            return False
        self._watch(folder, True)
        return True

    def _forget(self, watch: int) -> None:
        """A watch the kernel has dropped (its folder is gone)."""
        self._folders.pop(watch, None)
        key = self._inode_of.pop(watch, None)
        if key is not None and self._inodes.get(key) == watch:
            del self._inodes[key]

    def _watching_now(self, folder: str) -> bool:
        """Whether the folder at this path is one the watch holds (by device and inode: a path may
        name another folder since)."""
        try:
            status = os.lstat(folder)
        except OSError:
            return True  # gone: nothing to watch
        return (status.st_dev, status.st_ino) in self._inodes

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
                        kinds.add(EVERYTHING)  # events were lost: walk everything, the player stopped
                        self._hold()
                    elif mask & IN_IGNORED:
                        self._forget(watch)  # the folder is gone
                    elif watch in self._folders:
                        kinds |= self._note(watch, mask, os.fsdecode(name))
        return kinds

    def _note(self, watch: int, mask: int, name: str) -> set[str]:
        """One event in a watched folder: the kinds of look it calls for. Any change in the
        player's folders calls for a look at its files (whose walk watches the folders made);
        in the folders anyone may write to, only an entry its user id owns (kept, to be walked
        with the home), or a folder anyone may write to (watched and listed at once). A write to
        a file no folder holds any more is to a deleted file kept open: only its descriptors
        tell, a look that lists every process of the player's, so taken only then."""
        folder, own = self._folders[watch]
        path = os.path.join(folder, name)
        if mask & GONE:  # holding less is never over
            self._entries.pop(path, None)
            self._grown.pop(path, None)
            return {FILES} if own and mask & IN_ISDIR else set()
        try:
            status = os.lstat(path)
        except OSError:
            return {HELD_OPEN, FILES, WRITTEN} if mask & IN_MODIFY else set()
        if status.st_uid == self.disk.uid and not own and not self.disk.over(len(self._entries)):
            self._entries[path] = None
        mine = own or path in self._entries
        if mine and mask & IN_CREATE and stat.S_ISDIR(status.st_mode):
            return self._made_folder(path)  # in its home or where anyone may write: watched at once
        if mine:
            return self._written(path, status) if mask & IN_MODIFY else {FILES}
        if status.st_uid == self.disk.uid:  # past the files limit: the walk says so
            return {FILES, WRITTEN} if mask & IN_MODIFY else {FILES}
        if mask & MADE and stat.S_ISDIR(status.st_mode) and status.st_mode & stat.S_IWOTH:
            found = self.disk.shared_entries(self._watch_shared, roots=[path])
            self._entries.update(dict.fromkeys(found))
            return {FILES} if found else set()
        return set()


def _measure(status: os.stat_result) -> tuple[int, int, int]:
    """A file's device, inode and blocks (bytes)."""
    return status.st_dev, status.st_ino, status.st_blocks * 512


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
