"""What all of a player's processes use together: CPU time, memory and their number.

A per-process limit is beaten by spreading the work over children (3.9 GB against a 2 GB limit, 15
CPU-seconds against 2, both seen), so the runner counts over every process of the sandbox:

- ``CgroupGroup``: where the machine lets the runner make a cgroup v2 (root, or a delegated
  subtree), the sandbox's first process is put in one of its own, and every process it starts is
  in it too: CPU time is the cgroup's (exited processes included), the processes are its members,
  and ``pids.max``/``memory.max`` hold where those controllers are enabled. The cgroup is killed
  and removed with the sandbox.
- ``ScannedGroup``: elsewhere, a scan of ``/proc`` finds the processes of the player's user id
  (the runner is root) or the descendants of the sandbox's first process (orphans stay its
  descendants: inside the sandbox they go to its own init).

Reading is split by cost, because the player chooses what a look at all its processes costs (a
look reads every descriptor each process holds, and a player may hold thousands). What the kernel keeps as one
number is read at every message, from files kept open and read with ``pread`` (no path to look up,
nothing to open): the cgroup's CPU time and, where its memory controller is on, its memory; without
a cgroup, the first process's own CPU time. What needs a look at every process is a ``scan``: the
members' resident memory and the ``memfd`` files they hold (where no memory controller counts them),
and without a cgroup which processes are the player's and their CPU time. ``meter.Meter`` runs
scans on a timer.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import select
import signal
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from moocow.sandbox.held import HeldFiles, shared_memory_of

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
CGROUP_ROOTS = (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified"))
"""Where a cgroup v2 hierarchy is mounted: alone, or beside v1 controllers (hybrid)."""
_serial = itertools.count()
CLOSE_SECONDS = 2.0
"""How long a cgroup's removal waits for its killed processes to be gone."""


@dataclass(frozen=True)
class Usage:
    """What a group of processes has used so far."""

    cpu_seconds: float
    """CPU time of all of them, those that have exited included."""
    memory_bytes: int
    """Resident memory of those running now (as of the last scan, where no cgroup counts it)."""
    processes: int
    """How many are running (as of the last scan)."""
    disk_bytes: int | None = None
    """What the files of the player's user id hold on disk, as of the last scan (``None``: not
    measured, the sandbox's own tmpfs holds it to its size)."""
    hiding: int | None = None
    """A process of the player that ignores ``SIGCHLD``, so that its children's CPU time is
    counted nowhere (found by a scan where no cgroup counts CPU time), or ``None``."""


@dataclass(frozen=True)
class Scan:
    """What a look at every process of a group found."""

    memory_bytes: int
    """Resident memory, and deleted files held open on tmpfs (``memfd`` too), over all of them."""
    processes: int
    """How many are alive."""
    disk_bytes: int = 0
    """Deleted files held open elsewhere (``held.py``)."""
    hiding: int | None = None
    """A process whose children's CPU time no count can see (it ignores ``SIGCHLD``), or ``None``."""


class KernelFile:
    """A file the kernel writes afresh at every read (``cpu.stat``, ``/proc/PID/stat``), kept open
    and read from its start with ``pread``: a read costs one system call, not an open, a path lookup
    and a close."""

    CHUNK = 65536

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor

    @classmethod
    def opened(cls, path: str | os.PathLike[str]) -> KernelFile | None:
        """The file open for reading, or ``None`` where it is not there."""
        try:
            return cls(os.open(path, os.O_RDONLY | os.O_CLOEXEC))
        except OSError:
            return None

    def read(self) -> bytes:
        """Its whole content now (an ``OSError`` once what it describes is gone)."""
        data = os.pread(self.descriptor, self.CHUNK, 0)
        if len(data) < self.CHUNK:
            return data
        chunks = [data]
        while len(chunks[-1]) == self.CHUNK:
            chunks.append(os.pread(self.descriptor, self.CHUNK, self.CHUNK * len(chunks)))
        return b"".join(chunks)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.descriptor)


def process_stat(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first), or ``None`` if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rpartition(b")")[2].split()
    except OSError:
        return None


def stat_ticks(fields: list[bytes]) -> int:
    """CPU clock ticks of a process and of its reaped children, from its ``stat`` fields."""
    return int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])


SIGCHLD_BIT = 1 << (signal.SIGCHLD - 1)
"""``SIGCHLD`` in the ``SigIgn`` mask of ``/proc/PID/status``."""


@dataclass
class Census:
    """What a look at each process of a group found."""

    ticks: dict[int, int] = field(default_factory=dict)
    """CPU clock ticks of each process found, zombies included (their own and their reaped children's)."""
    memory_bytes: int = 0
    """Memory of the living (``resident_bytes``), and the deleted files on tmpfs (``memfd`` too)
    they hold open."""
    disk_bytes: int = 0
    """The deleted files elsewhere they hold open."""
    alive: int = 0
    """How many are alive."""
    hiding: int | None = None
    """A process that ignores ``SIGCHLD`` (looked for only when asked), or ``None``."""


def census(pids: list[int], ask_hiding: bool = False, weightless: Collection[int] = ()) -> Census:
    """CPU clock ticks of each of ``pids`` (their own and their reaped children's), memory and disk
    held, and the number alive; ``weightless`` ones hold nothing of the player's (the launcher and
    bubblewrap's init, which reap for it).

    Memory is what is resident in them plus what the deleted files they hold
    open on tmpfs hold (``held.py``): written and never mapped, those pages are in no process's
    resident set nor its address space (a player held three times its limit so). A file both mapped
    and open is counted twice, which errs on the safe side. A zombie's CPU time counts until its
    parent reaps it, and then in its parent's. With ``ask_hiding``, a process that ignores
    ``SIGCHLD`` is named: the kernel reaps its children unseen, and their CPU time is in no total
    (``ScannedGroup``). What is resident in one process is its resident set; in several, each one's
    share (``resident_bytes``), which costs ten times as much to read, so only where pages can be
    shared.
    """
    found = Census()
    resident: dict[int, list[bytes]] = {}
    files = HeldFiles()
    for pid in pids:
        fields = process_stat(pid)
        if fields is None:
            continue
        found.ticks[pid] = stat_ticks(fields)
        if fields[0] == b"Z":
            continue
        found.alive += 1
        if ask_hiding and found.hiding is None and ignores_children(pid):
            found.hiding = pid
        if pid not in weightless:
            resident[pid] = fields
            files.add_process(pid)
    shares = len(resident) > 1  # only then can its pages be shared copy-on-write
    found.memory_bytes = sum(resident_bytes(pid, fields, shares) for pid, fields in resident.items())
    found.memory_bytes += files.memory_bytes
    found.disk_bytes = files.disk_bytes
    return found


def resident_bytes(pid: int, fields: list[bytes], share: bool = True) -> int:
    """A process's share of the memory resident in it: its proportional set size (``Pss:`` in
    ``/proc/PID/smaps_rollup``) where asked and where that can be read, else its resident set
    (``stat`` field 24), ten times cheaper to read.

    A page a forked child shares with its parent copy-on-write is resident in both: the sum of
    resident sets counted it once per child (an honest player holding 40 MB after numpy and six
    waiting children: 400 MB), the proportional sizes once in all. Where ``smaps_rollup`` is closed
    to the runner (a process made not dumpable, where the runner lacks ``CAP_SYS_PTRACE``), the
    resident set counts more, never less: hiding it gains a player nothing."""
    rollup = KernelFile.opened(f"/proc/{pid}/smaps_rollup") if share else None
    if rollup is not None:
        try:
            text = rollup.read()
        except OSError:
            text = b""
        finally:
            rollup.close()
        start = text.find(b"\nPss:")
        if start >= 0:
            return int(text[start + 5 :].split(maxsplit=1)[0]) * 1024  # in kB
    return int(fields[21]) * PAGE_BYTES


def status_fields(pid: int, key: bytes) -> list[bytes]:
    """The fields of the line ``key`` (``b"Uid:"``) of ``/proc/PID/status`` after its name; none if
    the process is gone or has no such line. One read of the whole file (the kernel writes all of it
    anyway): a scan reads it for every process on the machine (``runs_as``)."""
    kept = KernelFile.opened(f"/proc/{pid}/status")
    if kept is None:
        return []
    try:
        text = kept.read()
    except OSError:
        return []
    finally:
        kept.close()
    start = 0 if text.startswith(key) else text.find(b"\n" + key) + 1
    if start == 0 and not text.startswith(key):
        return []  # no such line
    return text[start:].partition(b"\n")[0].split()[1:]


def user_ids(pid: int) -> list[int]:
    """The real, effective, saved and file-system user ids of a process (none if it is gone)."""
    return [int(field) for field in status_fields(pid, b"Uid:")]


def runs_as(pid: int, uid: int) -> bool:
    """Whether a process is the user's: one of its user ids (``/proc/PID/status``) is ``uid``.

    The one rule the runner has for whose a process is: its scans, the uid leases and the orphans'
    sweep all ask it. Real, effective and saved ids: a setuid program a player ran (where no
    ``no_new_privs`` stops it) runs as root with the player's real id, started by the
    player and counted in its ``RLIMIT_NPROC``. Not the owner of ``/proc/PID``, which is the
    effective id alone; nor the owner of the files in it, which the kernel makes root's for a
    process that is not dumpable (``tests/test_runner_undumpable.py``)."""
    return uid in user_ids(pid)


def ignores_children(pid: int) -> bool:
    """Whether a process ignores ``SIGCHLD`` (``SigIgn`` in ``/proc/PID/status``)."""
    try:
        return bool(int(status_fields(pid, b"SigIgn:")[0], 16) & SIGCHLD_BIT)
    except (ValueError, IndexError):
        return False


def children_of(parent: int) -> set[int]:
    """The processes whose parent is ``parent`` now (an empty set off Linux)."""
    found = set()
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            fields = process_stat(int(name)) if name.isdigit() else None
            if fields is not None and int(fields[1]) == parent:
                found.add(int(name))
    return found


class ProcessGroup(ABC):
    """All the processes of one sandbox: what they use, and how to end them all."""

    def __init__(self) -> None:
        self.closers: list[Callable[[], None]] = []
        """What else to stop when the group is closed (a ``watch.FolderWatch``), first of all."""

    @abstractmethod
    def members(self) -> list[int]:
        """The processes of the group now."""

    @abstractmethod
    def cpu_seconds(self) -> float | None:
        """CPU time of all of them, from what the kernel keeps (plus what the last scan found
        beyond it); ``None`` where it cannot be read."""

    def memory_bytes(self) -> int | None:
        """Memory of all of them where the kernel keeps the sum (a cgroup's memory controller);
        ``None``: only a scan can tell."""
        return None

    @abstractmethod
    def scan(self) -> Scan:
        """Look at every process: the memory they hold, how many are alive."""

    @abstractmethod
    def kill(self) -> None:
        """Kill every one of them (the sandbox's first process is killed by its own handle)."""

    def stop(self) -> None:
        """Stop every one of them (``SIGSTOP``): nothing more is done, pipes stay open."""
        self._signal_members(signal.SIGSTOP)

    def resume(self) -> None:
        """Let every one of them run again (``SIGCONT``) after ``stop``."""
        self._signal_members(signal.SIGCONT)

    def _signal_members(self, number: int) -> None:
        """Send ``number`` to every member (those gone or out of reach meanwhile are passed over)."""
        for pid in self.members():
            with contextlib.suppress(OSError):
                os.kill(pid, number)

    def close(self) -> None:
        """Release what the group holds, once its processes are dead."""
        while self.closers:
            self.closers.pop()()


class ScannedGroup(ProcessGroup):
    """Found by a scan of ``/proc``: a user id's processes, or the descendants of one process.

    By user id, the processes between the player's and the first are members too (bubblewrap's
    init, the launcher that stays the player's parent at the ``user`` level): they reap what the
    player orphans, so its CPU time is in theirs; their memory is not the player's. The first
    process's CPU time is read at every message, and the player's own where it is the first's child
    (the ``user`` level); the others' is what the last scan found (a child that exited since and was
    reaped by a member is counted in both until the next scan, which errs on the safe side)."""

    def __init__(self, root: int, uid: int | None) -> None:
        super().__init__()
        self.root = root
        self.uid = uid
        self._stat = KernelFile.opened(f"/proc/{root}/stat")
        self._read_each_time = [] if self._stat is None else [self._stat]
        """The ``stat`` files read at every message: the first process's, then the player's."""
        self._player: tuple[int, KernelFile] | None = None
        """The player's process, where it is the first's child, and its ``stat`` kept open."""
        self._others = 0.0
        """CPU seconds of the members other than those read at every message, at the last scan."""
        self._own = [0.0, 0.0]
        """The CPU seconds of the first process and of the player at the last reading (kept once gone)."""
        self._keepers: set[int] = set()
        """The members not of the player's user id, at the last look."""
        self._root_keeper: bool | None = None
        """Whether the first process is not the player's user id's, once asked."""

    def members(self) -> list[int]:
        """The processes of the group now."""
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
        if self.uid is not None:
            owned = [pid for pid in pids if runs_as(pid, self.uid) and pid != self.root]
            self._keepers = self._between(owned) | {self.root}
            return owned + sorted(self._keepers)
        parents: dict[int, list[int]] = {}
        for pid in pids:
            fields = process_stat(pid)
            if fields is not None:
                parents.setdefault(int(fields[1]), []).append(pid)
        found, index = [self.root], 0
        while index < len(found):
            found += parents.get(found[index], [])
            index += 1
        return found

    def _between(self, owned: list[int]) -> set[int]:
        """The processes on the way from each of ``owned`` up to the first, not of the user id; and
        the player, where the first (not of the user id: the launcher) is its parent."""
        mine, between = set(owned), set[int]()
        for pid in owned:
            chain: list[int] = []
            parent = _parent(pid)
            while parent is not None and parent != self.root and parent not in mine | between:
                chain.append(parent)
                parent = _parent(parent) if len(chain) < 8 else None
            if parent == self.root or parent in between:
                between.update(chain)
            if parent == self.root and not chain and self._player is None and self._root_keeps():
                self._watch_player(pid)
        return between

    def _root_keeps(self) -> bool:
        """Whether the first process is not the player's user id's (a launcher that stays its parent)."""
        if self._root_keeper is None:
            ids = user_ids(self.root)
            if not ids:
                return False  # gone
            self._root_keeper = self.uid not in ids  # runs_as, read once
        return self._root_keeper

    def _watch_player(self, pid: int) -> None:
        kept = KernelFile.opened(f"/proc/{pid}/stat")
        if kept is not None:
            self._player = (pid, kept)
            self._read_each_time.append(kept)

    def cpu_seconds(self) -> float | None:
        if self._stat is None:
            return None
        for index, kept in enumerate(self._read_each_time):
            with contextlib.suppress(OSError, IndexError, ValueError):
                self._own[index] = stat_ticks(kept.read().rpartition(b")")[2].split()) / CLOCK_TICKS
        return sum(self._own) + self._others

    def scan(self) -> Scan:
        members = self.members()
        found = census(members, ask_hiding=True, weightless=self._keepers if self.uid is not None else ())
        read_apart = {self.root, self._player[0] if self._player else self.root}
        self._others = sum(count for pid, count in found.ticks.items() if pid not in read_apart) / CLOCK_TICKS
        memory = found.memory_bytes + (shared_memory_of(self.uid) if self.uid is not None else 0)
        return Scan(memory, found.alive, found.disk_bytes, found.hiding)

    def kill(self) -> None:
        self._signal_members(signal.SIGKILL)

    def stop(self) -> None:
        """The first process's session at once, where it leads one (one call: listing the members
        reads every process's status, milliseconds in which a player writes tens of MB); then
        every member, those that left the session too."""
        with contextlib.suppress(OSError):
            if os.getpgid(self.root) == self.root:
                os.killpg(self.root, signal.SIGSTOP)
        super().stop()

    def resume(self) -> None:
        """The first process's session, then every member: the processes ``stop`` stopped."""
        with contextlib.suppress(OSError):
            if os.getpgid(self.root) == self.root:
                os.killpg(self.root, signal.SIGCONT)
        super().resume()

    def close(self) -> None:
        super().close()
        for kept in self._read_each_time:
            kept.close()


def _parent(pid: int) -> int | None:
    fields = process_stat(pid)
    return None if fields is None else int(fields[1])


class CgroupGroup(ProcessGroup):
    """A cgroup v2 of its own, made beside the runner's cgroup's children and removed afterwards."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self._files: dict[str, KernelFile | None] = {}

    @classmethod
    def make(cls, memory_bytes: int, processes: int) -> CgroupGroup | None:
        """A fresh cgroup with the limits its controllers allow, or ``None`` where none can be made."""
        for root in CGROUP_ROOTS:
            if not (root / "cgroup.procs").exists() or not (root / "cgroup.controllers").exists():
                continue
            sweep_stale(root / own_cgroup(root))
            path = root / own_cgroup(root) / f"moocow-{os.getpid()}-{next(_serial)}"
            try:
                path.mkdir()
            except OSError:
                continue
            group = cls(path)
            group._limit("pids.max", processes)
            group._limit("memory.max", memory_bytes)
            group._limit("memory.swap.max", 0 if memory_bytes else None)
            return group
        return None

    def _limit(self, name: str, value: int | None) -> None:
        if value is not None and (self.path / name).exists():
            with contextlib.suppress(OSError):
                (self.path / name).write_text(str(value or "max"))

    def adopt(self, pid: int) -> bool:
        """Put ``pid`` in the group (before it starts the player: its children follow it)."""
        try:
            (self.path / "cgroup.procs").write_text(str(pid))
        except OSError:
            return False
        return True

    def _read(self, name: str) -> bytes | None:
        """One of the cgroup's files, opened once (``None`` where it is not there)."""
        if name not in self._files:
            self._files[name] = KernelFile.opened(self.path / name)
        kept = self._files[name]
        if kept is None:
            return None
        try:
            return kept.read()
        except OSError:
            return None

    def members(self) -> list[int]:
        """The processes of the group now."""
        return [int(pid) for pid in (self._read("cgroup.procs") or b"").split()]

    def cpu_seconds(self) -> float | None:
        stat = self._read("cpu.stat")  # "usage_usec N" comes first
        if stat is None or not stat.startswith(b"usage_usec "):
            return None
        return int(stat[11 : stat.index(b"\n")]) / 1e6

    def memory_bytes(self) -> int | None:
        current = self._read("memory.current")  # memfd files included, where the controller is on
        return None if current is None else int(current)

    def scan(self) -> Scan:
        members = self.members()
        memory = self.memory_bytes()
        if memory is None:
            found = census(members)
            return Scan(found.memory_bytes, len(members), found.disk_bytes)
        return Scan(memory, len(members), HeldFiles.of(members).disk_bytes)

    def kill(self) -> None:
        kill_switch = self.path / "cgroup.kill"
        if kill_switch.exists():
            with contextlib.suppress(OSError):
                kill_switch.write_text("1")
        self._signal_members(signal.SIGKILL)

    def close(self) -> None:
        """Remove the cgroup; it can only go once its killed processes are gone: kill again, retry a while."""
        super().close()
        try:
            self._remove()
        finally:
            for kept in self._files.values():
                if kept is not None:
                    kept.close()
            self._files.clear()

    def _remove(self) -> None:
        deadline = time.monotonic() + CLOSE_SECONDS
        while True:
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                left = deadline - time.monotonic()
                if left <= 0:
                    return  # left for remove_cgroups_of, or for the machine's own clean-up
                self.kill()
                self._wait_emptied(min(left, 0.1))

    def _wait_emptied(self, wait: float) -> None:
        """Wait until no process is left in the cgroup (``cgroup.events`` says ``populated 0``, and
        the kernel wakes whoever watches it), for at most ``wait`` seconds."""
        events = self._read("cgroup.events")
        kept = self._files.get("cgroup.events")
        if events is None or kept is None:
            time.sleep(0.002)
        elif b"populated 0" not in events:
            select.select([], [], [kept.descriptor], wait)


@functools.cache
def sweep_stale(parent: Path) -> None:
    """Once per process: remove the cgroups of runners killed before they could (their pid is gone)."""
    for path in parent.glob("moocow-*-*"):
        owner = path.name.split("-")[1]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            CgroupGroup(path).close()


def remove_cgroups_of(pid: int) -> None:
    """Kill and remove the cgroups a process made for its players (it was killed before it could)."""
    for root in CGROUP_ROOTS:
        with contextlib.suppress(OSError):
            for path in (root / own_cgroup(root)).glob(f"moocow-{pid}-*"):
                CgroupGroup(path).close()


def own_cgroup(root: Path) -> str:
    """This process's cgroup in the v2 hierarchy at ``root``, relative to it (``""`` for the root)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            if line.startswith("0::"):
                return line[3:].strip().lstrip("/")
    return ""
