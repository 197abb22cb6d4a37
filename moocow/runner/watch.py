"""A look at a player's files as soon as its folders change, not only on the meter's timer.

At the ``user`` level nothing but the meter's scan holds ``disk_mb`` (``disk.py``), and the timer
lets scans land at least 0.1 s apart: a player that wrote 12 files of 15 MB at import, 180 MB
against ``disk_mb=64``, and removed them, was caught only when a scan happened to land during the
burst (once in two runs). Here a thread waits on inotify watches of the player's home (and the
folders it makes there) and of the folders anyone may write to (and the folders its user id makes
there): every write, made file or folder wakes it, and it measures at once, its home first (a few
files, where the folders anyone may write to may hold thousands of others'). A deleted file kept
open still wakes the watch of the folder it was in. When what the player holds is over the
limit, it stops every process of the player (``SIGSTOP``: nothing more is written, its pipes stay
open) and keeps the reading for the meter, whose next read fouls the player.

Its looks obey the meter's share: after a look at the home that took ``t`` the next waits ``9 t``,
and so does a look at everything, each kind on its own, so that each takes at most a tenth of a
core whatever the player holds. The bound: a player holds at most ``disk_mb`` plus what it writes
during a look at its home and the wait after it; a few files take microseconds (``docs/runner.md``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import struct
import threading
import time
from collections.abc import Callable, Iterable

IN_MODIFY = 0x002
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_ONLYDIR = 0x01000000
IN_ISDIR = 0x40000000
WATCHED = IN_MODIFY | IN_MOVED_TO | IN_CREATE
EVENT = struct.Struct("iIII")
"""``struct inotify_event`` before its name: watch, mask, cookie, name length."""
MOST_WATCHES = 256
"""Folders watched for one player at most (inotify watches are the runner's, counted per user);
past that, the player's deeper folders are caught by the meter's timer alone."""

_libc = ctypes.CDLL(None, use_errno=True)


class FolderWatch:
    """A thread measuring a player's files whenever its folders change."""

    def __init__(
        self,
        homes: Iterable[str],
        shared: Iterable[str],
        uid: int,
        glance: Callable[[], int],
        measure: Callable[[], int],
        limit: int,
        members: Callable[[], list[int]],
        share: float,
    ) -> None:
        self.uid = uid
        self.glance = glance
        """A part of what the player's files hold, cheap to find (its home): looked at first."""
        self.measure = measure
        """What the player's files hold now, in bytes."""
        self.limit = limit
        self.members = members
        """The player's processes, to stop once it is over the limit."""
        self.share = share
        """The most of its time measuring may take (the meter's ``SCAN_SHARE``)."""
        self.over: int | None = None
        """The first reading over the limit, until the meter takes it."""
        self._lock = threading.Lock()
        self._due = {"glance": 0.0, "measure": 0.0}
        """When each kind of look may run again (each keeps to the share on its own)."""
        self._fd = _libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self._fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self._folders: dict[int, tuple[str, bool]] = {}
        """Each watch's folder, and whether it is the player's (every folder in it is too)."""
        self._wake_read, self._wake_write = os.pipe()
        for home in homes:
            self._watch(home, True)
        for folder in shared:
            self._watch(folder, False)
        self._thread = threading.Thread(target=self._run, name="moocow-folder-watch", daemon=True)
        self._thread.start()

    def take_over(self) -> int | None:
        """The reading over the limit, once (``None`` if there was none since the last take)."""
        with self._lock:
            found, self.over = self.over, None
        return found

    def close(self) -> None:
        """Stop the thread and release the watches."""
        with contextlib.suppress(OSError):
            os.write(self._wake_write, b"x")
        self._thread.join()
        for fd in (self._fd, self._wake_read, self._wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _watch(self, folder: str, own: bool) -> None:
        if len(self._folders) >= MOST_WATCHES:
            return
        number = _libc.inotify_add_watch(self._fd, os.fsencode(folder), WATCHED | IN_ONLYDIR)
        if number >= 0:
            self._folders[number] = (folder, own)

    def _run(self) -> None:
        pending = False
        while True:
            wait = max(0.0, self._due["glance"] - time.monotonic()) if pending else None
            ready = select.select([self._fd, self._wake_read], [], [], wait)[0]
            if self._wake_read in ready:
                return
            if self._fd in ready:
                self._read_events()
                pending = True
            if pending and time.monotonic() >= self._due["glance"]:
                pending = False
                with contextlib.suppress(OSError):  # /proc unreadable for a moment: the timer still looks
                    self._look()

    def _look(self) -> None:
        """The home first; all the player's files if that is not over already, and a look is due."""
        held = self._timed("glance", self.glance)
        if held <= self.limit and time.monotonic() >= self._due["measure"]:
            held = self._timed("measure", self.measure)
        if held > self.limit:
            self._stop_player()
            with self._lock:
                self.over = max(held, self.over or 0)

    def _timed(self, kind: str, look: Callable[[], int]) -> int:
        """What ``look`` found; the next of its kind is due after ``1 / share - 1`` times its cost."""
        started = time.monotonic()
        held = look()
        finished = time.monotonic()
        self._due[kind] = finished + (finished - started) * (1 / self.share - 1)
        return held

    def _read_events(self) -> None:
        """Drain the events; watch each folder made in the player's folders, or by its user id."""
        with contextlib.suppress(BlockingIOError, OSError):
            while data := os.read(self._fd, 65536):
                offset = 0
                while offset < len(data):
                    watch, mask, _, length = EVENT.unpack_from(data, offset)
                    name = data[offset + EVENT.size : offset + EVENT.size + length].rstrip(b"\0")
                    offset += EVENT.size + length
                    if mask & IN_ISDIR and mask & (IN_CREATE | IN_MOVED_TO) and watch in self._folders:
                        self._watch_made(watch, os.fsdecode(name))

    def _watch_made(self, watch: int, name: str) -> None:
        folder, own = self._folders[watch]
        path = os.path.join(folder, name)
        with contextlib.suppress(OSError):
            if own or os.lstat(path).st_uid == self.uid:
                self._watch(path, True)

    def _stop_player(self) -> None:
        for pid in self.members():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
