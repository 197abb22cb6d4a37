"""A seccomp filter that closes the channels between players that are not timing.

Players in separate bubblewrap sandboxes still share the kernel's state of the files both see
read-only (the system's Python library, say), and some of the kernel's own. Read-only is no
obstacle to locking or watching a file, so one player can signal another that runs at the same
time: ``flock`` or an ``fcntl`` record lock taken on one side and tried without blocking on the
other; a lease (``F_SETLEASE``) broken by the other's open; inotify, dnotify (``fcntl``
``F_NOTIFY``) or fanotify reporting the other's opens and reads. A keyring joined by name is
shared by every user and outlives the player (as do the counts of every user's keys in
``/proc/key-users``). A read that must not wait (``RWF_NOWAIT``, also through io_uring or Linux
AIO) tells whether a page of a shared file is cached: a bit a player leaves for the next, even
one that plays later.
System V IPC (shared memory, message queues, semaphores) is kernel memory no limit sees: a detached
segment is in no process's resident set or descriptors, and a player held 1.3 GB so against a
256 MB limit, pages a container's OOM killer cannot free by killing the player; its ids are small
numbers any user can try, a channel too.
A descriptor sent over a Unix socket (``SCM_RIGHTS``) and closed by the sender is *in flight*: in
no process's descriptors, memory maps or folders, so nothing the meter reads sees it; a player held
960 MB of ``memfd`` files so against a 256 MB limit, and 3.4 GB on disk in ``O_TMPFILE`` files, at
both levels (the kernel lets a user keep about 1,024 files in flight). Socket buffers are kernel
memory no count sees without a memory controller (socket pairs held 1 GB past 256 MB), and at the
``user`` level an abstract Unix socket or the machine's loopback is a channel between players. A
player talks to the runner over its standard input and output and needs no socket, so ``socket``
and ``socketpair`` are refused, whatever the family. (Python's ``asyncio`` makes a socket pair for
its event loop, so an ``asyncio`` player does not start.)
No player needs any of these, so the filter refuses them with ``EPERM`` (an error a program can
report, not a kill) and allows everything else. bubblewrap installs it with ``--seccomp FD``
(``filter_descriptor``) at the ``namespaces`` level; at the ``user`` level, where there is no
bubblewrap, the launcher reads it from the same kind of descriptor and installs it itself
(``launch.install_filter``), just before the player starts.

Where no cgroup counts a player's CPU time (the ``user`` level, Gradescope's), a child the kernel
reaps at once takes its time with it: a parent that sets ``SA_NOCLDWAIT`` (which no ``/proc`` file
shows) had 8.4 CPU-seconds burnt in its children in one guess against a limit of 1. The filter can
read neither the action passed to ``rt_sigaction`` nor count what exits, so there
(``new_processes=False``) it refuses making a process: ``fork``, ``vfork``, ``clone`` without
``CLONE_THREAD`` (``posix_spawn`` and ``clone(CLONE_VM)`` included) and ``clone3``, which gets
``ENOSYS`` so that the C library makes its threads with ``clone`` instead. Threads stay: a thread's
time stays in its process's count after it ends.

Calls made in another convention than the machine's own (32-bit ``int 0x80``, x32 on x86_64) have
other numbers, which the filter would not recognise, so they are all refused.

Left open, and said so in docs/runner.md: a futex on a file two players both map (the JVM maps its
modules so, which it cannot do without), and the machine's counters every process moves.

Side effects: sqlite3 cannot lock its database, and Java's JVM, whose ``flock`` of its
``hsperfdata`` file fails, warns on standard output unless run with ``-XX:-UsePerfData``.
"""

from __future__ import annotations

import errno
import os
import platform
import struct
from typing import NamedTuple

# Classic BPF opcodes (linux/bpf_common.h) and seccomp verdicts (linux/seccomp.h).
LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_IF_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JUMP_IF_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
JUMP_IF_ANY_BIT = 0x45  # BPF_JMP | BPF_JSET | BPF_K
RETURN = 0x06  # BPF_RET | BPF_K
ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
REFUSE = 0x00050000 | errno.EPERM  # SECCOMP_RET_ERRNO | EPERM
UNKNOWN = 0x00050000 | errno.ENOSYS  # as if the kernel had no such call: the C library falls back
INSTRUCTION = struct.Struct("=HBBI")
"""``struct sock_filter``: opcode, jump if true, jump if false, constant; native byte order."""

# Offsets in ``struct seccomp_data``: the call's number, the architecture, then six 64-bit
# arguments from 16, of which the filter reads the low halves (little-endian machines).
NR_OFFSET, ARCH_OFFSET = 0, 4
X32_SYSCALL_BIT = 0x40000000


def argument(index: int) -> int:
    """Offset of the low 32 bits of argument ``index``."""
    return 16 + 8 * index


FCNTL_COMMAND_OFFSET = argument(1)
CLONE_THREAD = 0x00010000
"""The ``clone`` flag (its first argument) of a thread: a new thread is allowed, a new process is not
where no cgroup counts CPU time."""
LOCK_AND_WATCH_COMMANDS = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
"""``fcntl`` commands refused: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW,
F_SETLEASE, F_GETLEASE, F_NOTIFY. Every other command (F_GETFL, F_SETFD, F_DUPFD...) is allowed."""
RWF_NOWAIT = 0x8
"""``preadv2``/``pwritev2`` flag (their sixth argument) that fails instead of waiting for the disk:
whether a page of a shared file is cached then answers at once, and a player that read a page
before leaves a bit there for the next one."""


class Arch(NamedTuple):
    """What the filter needs of one architecture: its AUDIT_ARCH value and its syscall numbers."""

    audit_arch: int
    fcntl: int
    nowait_io: tuple[int, ...]
    """``preadv2`` and ``pwritev2``, refused with ``RWF_NOWAIT``."""
    refused: tuple[int, ...]
    """Calls refused whatever their arguments."""
    refuse_x32: bool
    """Whether to refuse numbers with the x32 bit (x86_64's other 64-bit convention)."""
    forks: tuple[int, ...]
    """``fork`` and ``vfork`` (x86_64 alone has them), refused where children are not counted."""
    clone: int
    """``clone``, refused without ``CLONE_THREAD`` where children are not counted."""
    clone3: int
    """``clone3``, whose flags are in memory the filter cannot read: ``ENOSYS`` there."""


ARCHES = {
    # asm/unistd_64.h. Refused: flock, inotify_init, inotify_add_watch, inotify_init1, fanotify_init,
    # fanotify_mark; add_key, request_key, keyctl; io_uring_setup, io_uring_enter, io_uring_register;
    # io_setup, io_submit (Linux AIO, whose iocb can ask RWF_NOWAIT too); System V IPC: shmget, shmat,
    # shmctl, semget, semop, semctl, shmdt, msgget, msgsnd, msgrcv, msgctl, semtimedop; socket,
    # socketpair.
    "x86_64": Arch(
        0xC000003E, fcntl=72, nowait_io=(327, 328),
        refused=(73, 253, 254, 294, 300, 301, 248, 249, 250, 425, 426, 427, 206, 209,
                 29, 30, 31, 64, 65, 66, 67, 68, 69, 70, 71, 220, 41, 53),
        refuse_x32=True, forks=(57, 58), clone=56, clone3=435,
    ),
    # asm-generic/unistd.h (no inotify_init, fork or vfork): the same calls.
    "aarch64": Arch(
        0xC00000B7, fcntl=25, nowait_io=(286, 287),
        refused=(32, 26, 27, 262, 263, 217, 218, 219, 425, 426, 427, 0, 2, *range(186, 198), 198, 199),
        refuse_x32=False, forks=(), clone=220, clone3=435,
    ),
}  # fmt: skip
"""AUDIT_ARCH_X86_64 is EM_X86_64 (62) and AUDIT_ARCH_AARCH64 is EM_AARCH64 (183), each with the
64-bit and little-endian flags (linux/audit.h). Keys are refused for the named keyrings any user
may join (and ``/proc/key-users``, which shows every user's count of keys to all); io_uring for
the reads without waiting it does too."""

Jump = int | str
"""A relative jump, or a label (``"allow"``, ``"refuse"``, ``"unknown"``, a block's name) that
``assemble`` resolves."""
Instruction = tuple[int, Jump, Jump, int]
ProgramStep = Instruction | str
"""An instruction, or a label marking where the next instruction is."""


def load(offset: int) -> Instruction:
    """Load the 32-bit word at ``offset`` of ``seccomp_data`` into the accumulator."""
    return (LOAD_WORD, 0, 0, offset)


def refuse_if(value: int, jump: int = JUMP_IF_EQUAL) -> Instruction:
    """Refuse the call when the accumulator equals (or is at least) ``value``; else go on."""
    return (jump, "refuse", 0, value)


def assemble(body: list[ProgramStep]) -> bytes:
    """The body followed by the three verdicts, with labels turned into relative jumps."""
    verdicts: list[ProgramStep] = ["allow", (RETURN, 0, 0, ALLOW), "refuse", (RETURN, 0, 0, REFUSE)]
    steps = [*body, *verdicts, "unknown", (RETURN, 0, 0, UNKNOWN)]
    program: list[Instruction] = []
    labels: dict[str, int] = {}
    for step in steps:
        if isinstance(step, str):
            labels[step] = len(program)
        else:
            program.append(step)

    def offset(here: int, jump: Jump) -> int:
        return labels[jump] - here - 1 if isinstance(jump, str) else jump

    return b"".join(
        INSTRUCTION.pack(code, offset(i, jt), offset(i, jf), k) for i, (code, jt, jf, k) in enumerate(program)
    )


def denied_calls_filter(new_processes: bool = True) -> bytes | None:
    """The filter for this machine's architecture, or ``None`` where there is none (not x86_64/aarch64).
    Without ``new_processes`` it refuses making a process too (threads stay)."""
    arch = ARCHES.get(platform.machine())
    if arch is None:
        return None
    body: list[ProgramStep] = [load(ARCH_OFFSET), (JUMP_IF_EQUAL, 0, "refuse", arch.audit_arch)]
    body.append(load(NR_OFFSET))
    if arch.refuse_x32:
        body.append(refuse_if(X32_SYSCALL_BIT, JUMP_IF_AT_LEAST))
    body += [refuse_if(number) for number in arch.refused]
    if not new_processes:
        body += [refuse_if(number) for number in arch.forks]
        body += [(JUMP_IF_EQUAL, "unknown", 0, arch.clone3), (JUMP_IF_EQUAL, "clone", 0, arch.clone)]
    body.append((JUMP_IF_EQUAL, "fcntl", 0, arch.fcntl))
    body += [(JUMP_IF_EQUAL, "nowait", 0, number) for number in arch.nowait_io[:-1]]
    body.append((JUMP_IF_EQUAL, "nowait", "allow", arch.nowait_io[-1]))
    body += ["fcntl", load(FCNTL_COMMAND_OFFSET)]
    body += [refuse_if(command) for command in LOCK_AND_WATCH_COMMANDS]
    body.append((JUMP_IF_EQUAL, "allow", "allow", 0))
    body += ["nowait", load(argument(5)), (JUMP_IF_ANY_BIT, "refuse", "allow", RWF_NOWAIT)]
    if not new_processes:
        body += ["clone", load(argument(0)), (JUMP_IF_ANY_BIT, "allow", "refuse", CLONE_THREAD)]
    return assemble(body)


def filter_descriptor(new_processes: bool = True) -> int | None:
    """A fresh memfd holding the filter, read from its start, for bubblewrap's ``--seccomp FD``.

    bubblewrap reads the descriptor to its end, so each bubblewrap needs one of its own; pass it with
    ``pass_fds`` and close it once bubblewrap has started. ``None`` where there is no filter.
    """
    program = denied_calls_filter(new_processes)
    if program is None:
        return None
    fd = os.memfd_create("moocow-seccomp", os.MFD_CLOEXEC)
    os.write(fd, program)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
