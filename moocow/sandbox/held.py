"""What a player holds that no process's resident set shows: deleted files kept open, shared memory.

A file unlinked while open is in no folder, so no walk of the player's folders finds it, and its
pages are in no resident set: a player held over 1 GB so in ``/dev/shm`` against ``memory_mb=256``,
and 1.5 GB on the disk of its home against ``disk_mb=64``. It is still in the descriptors of the
processes that hold it (``/proc/PID/fd``, a link whose target ends in `` (deleted)``), and its
``st_blocks`` say what it holds. One on a tmpfs (``/dev/shm``, a sandbox's home, a ``memfd``) is
memory; one anywhere else is disk. A file held by several processes counts once.

System V shared memory is in no descriptor either: a detached segment is held by its owner's user
id alone (``/proc/sysvipc/shm``). The seccomp filter refuses System V IPC to players
(``seccomp.py``); where a player runs without it, its user id's segments are counted as memory.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

TMPFS_MAGIC = 0x01021994
HUGETLBFS_MAGIC = 0x958458F6
MEMORY_FILE_SYSTEMS = (TMPFS_MAGIC, HUGETLBFS_MAGIC)
"""``statfs``'s ``f_type`` for the file systems whose files are memory (``linux/magic.h``)."""
DELETED = " (deleted)"
"""How ``/proc/PID/fd`` shows the target of a descriptor whose file has no name left."""


@dataclass
class HeldFiles:
    """Deleted files held open by a group of processes, by device and inode, with their bytes."""

    memory: dict[tuple[int, int], int] = field(default_factory=dict)
    """On a tmpfs or a ``memfd``."""
    disk: dict[tuple[int, int], int] = field(default_factory=dict)
    """Anywhere else."""

    @classmethod
    def of(cls, pids: list[int]) -> HeldFiles:
        """The deleted files the processes ``pids`` hold open."""
        found = cls()
        for pid in pids:
            found.add_process(pid)
        return found

    def add_process(self, pid: int) -> None:
        """The deleted files process ``pid`` holds open (nothing if it is gone or out of reach).

        A descriptor costs one ``readlink``; only a deleted file's is followed further (a ``stat``,
        and a ``statfs`` to tell memory from disk)."""
        folder = f"/proc/{pid}/fd"
        try:
            names = os.listdir(folder)
        except OSError:
            return
        for name in names:
            path = f"{folder}/{name}"
            try:
                target = os.readlink(path)
                if not target.endswith(DELETED):
                    continue
                status = os.stat(path)
            except OSError:
                continue
            if not stat.S_ISREG(status.st_mode) or status.st_nlink:
                continue
            in_memory = target.startswith("/memfd:") or file_system_type(path) in MEMORY_FILE_SYSTEMS
            (self.memory if in_memory else self.disk)[(status.st_dev, status.st_ino)] = status.st_blocks * 512

    @property
    def memory_bytes(self) -> int:
        return sum(self.memory.values())

    @property
    def disk_bytes(self) -> int:
        return sum(self.disk.values())


class _StatFs(ctypes.Structure):
    """The start of ``struct statfs`` (its type), and room for the rest."""

    _fields_ = [("f_type", ctypes.c_long), ("rest", ctypes.c_byte * 256)]


_libc = ctypes.CDLL(None, use_errno=True)


def file_system_type(path: str) -> int | None:
    """``statfs``'s ``f_type`` for the file system of ``path`` (links followed), ``None`` if it fails."""
    found = _StatFs()
    if _libc.statfs(os.fsencode(path), ctypes.byref(found)) != 0:
        return None
    return found.f_type & 0xFFFFFFFF


def shared_memory_of(uid: int) -> int:
    """Bytes the System V shared memory segments of user ``uid`` hold (resident and swapped, where
    the kernel says; their size otherwise)."""
    try:
        header, *rows = Path("/proc/sysvipc/shm").read_text().splitlines()
    except (OSError, ValueError):
        return 0
    columns = header.split()
    total = 0
    for row in rows:
        cells = dict(zip(columns, row.split(), strict=False))
        with contextlib.suppress(KeyError, ValueError):
            if int(cells["uid"]) == uid:
                held = int(cells["rss"]) + int(cells["swap"]) if "rss" in cells else int(cells["size"])
                total += held
    return total
