"""``python unseen.py MODE SIZE COUNT``: uses memory, disk or CPU where no per-process count sees it,
then answers ``1`` in every peg every time. Standard library only. Its handshake says what it found
(``moocow 1 unseen REPORT``). Modes:

- ``sysv``: at its start, COUNT System V shared memory segments of SIZE MB, each written through a
  short attach and detached (in no process's memory); refused, it says so on stderr and exits.
- ``shm`` / ``home``: at the start of its first round, COUNT files of SIZE MB in ``/dev/shm`` or its
  home, each unlinked and kept open (in no folder), then a pause while the runner looks.
- ``burst`` / ``sharedburst``: at the start of every round, COUNT files of SIZE MB in its home or in
  ``/var/tmp`` (anyone may write there; not ``/tmp``, which other tests watch for players' files),
  written as fast as it can, then removed: past the limit only while they are written.
- ``memfd`` / ``tmpfile``: at its start, COUNT ``memfd`` files (or ``O_TMPFILE`` files in its
  home) of SIZE MB, each sent over a Unix socket pair it keeps (``SCM_RIGHTS``) and closed: in
  flight, in no process's descriptors; refused, it says so on stderr and exits.
- ``children``: from its first round, ignores ``SIGCHLD`` (the kernel then reaps its children
  unseen) and in every round runs COUNT children one after another that each burn SIZE ms of CPU
  time and exit.
- ``threads``: in every round, COUNT threads one after another that each burn SIZE ms of CPU time
  and end (an ended thread's time stays in its process's).
- ``nocldwait``: the same with ``SIGCHLD`` at its default action but ``SA_NOCLDWAIT`` set, which no
  ``/proc`` file shows; a refused fork is said on stderr, and it exits.
- ``orphans``: in every round, COUNT children that each start a grandchild and exit at once; each
  grandchild, orphaned, burns SIZE ms of CPU time and exits (reaped by whoever adopts it).
- ``exhaust``: in its first round, COUNT children that each take SIZE MB and wait; the report
  says its ``oom_score_adj``, and where that is not 1000 (not the first to die) it exits at once.
"""

import ctypes
import os
import signal
import sys
import time

MB = 1 << 20
mode, size, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
kept = []


def system_v() -> str:
    made = 0
    for _ in range(count):
        segment = libc.shmget(0, size * MB, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
        if segment < 0:
            return f"sysv:refused:{os.strerror(ctypes.get_errno())}"
        address = libc.shmat(segment, None, 0)
        ctypes.memset(address, 1, size * MB)
        libc.shmdt(ctypes.c_void_p(address))
        made += 1
    return f"sysv:made:{made}"


def in_flight(kind: str) -> str:
    """Files held only by a socket's queue: sent with ``SCM_RIGHTS``, then closed by the sender."""
    import socket

    try:
        keep, _ = pair = socket.socketpair()
    except OSError as error:
        return f"{kind}:refused:{error.strerror}"
    kept.append(pair)
    block = b"\1" * (size * MB)
    for number in range(count):
        if kind == "memfd":
            fd = os.memfd_create(f"unseen-{number}")
        else:
            fd = os.open(os.environ["HOME"], os.O_TMPFILE | os.O_RDWR, 0o600)
        os.write(fd, block)
        socket.send_fds(keep, [b"f"], [fd])
        os.close(fd)
    return f"{kind}:sent:{count}"


def no_child_wait() -> None:
    """``SIGCHLD`` left at its default action, with ``SA_NOCLDWAIT``: no ``SigIgn`` bit shows it."""
    action = (ctypes.c_ulong * 19)()  # glibc's struct sigaction: handler, mask (16 words), flags, restorer
    action[17] = 0x2  # SA_NOCLDWAIT; the handler stays SIG_DFL (0)
    if libc.sigaction(signal.SIGCHLD, ctypes.byref(action), None) != 0:
        sys.exit(f"nocldwait:sigaction:{os.strerror(ctypes.get_errno())}")


def deleted_files(folder: str, remove_at_once: bool) -> None:
    block = b"\1" * (size * MB)
    names = []
    for number in range(count):
        name = os.path.join(folder, f"unseen-{os.getpid()}-{number}")
        file = open(name, "wb")  # noqa: SIM115 - kept open on purpose
        if remove_at_once:
            os.unlink(name)
            kept.append(file)
        else:
            names.append(name)
        file.write(block)  # one call: as fast as it can
        file.flush()
        if not remove_at_once:
            file.close()
    for name in names:
        os.unlink(name)


def burn() -> None:
    end = time.process_time() + size / 1000
    while time.process_time() < end:
        pass
    os._exit(0)


def burn_in_children(orphaned: bool) -> None:
    """One after another (the one before has ended), so that few processes hold memory at once."""
    for _ in range(count):
        done, burning = os.pipe()  # closed by the burner's end
        try:
            child = os.fork()
        except OSError as error:
            sys.exit(f"fork:refused:{error.strerror}")
        if child == 0 and orphaned and os.fork():
            os._exit(0)  # the grandchild burns, orphaned
        if child == 0:
            os.close(done)
            burn()
        os.close(burning)
        if orphaned:
            os.waitpid(child, 0)
        os.read(done, 1)
        os.close(done)


def burn_in_threads() -> None:
    import threading

    def spin() -> None:
        end = time.thread_time() + size / 1000
        while time.thread_time() < end:
            pass

    for _ in range(count):
        burner = threading.Thread(target=spin)
        burner.start()
        burner.join()


def exhaust() -> None:
    for _ in range(count):
        if os.fork() == 0:
            held = bytearray(size * MB)
            held[::4096] = b"\1" * len(held[::4096])
            time.sleep(30)
            os._exit(0)
    time.sleep(3)


def attack(rounds: int) -> None:
    """What it does at the start of round ``rounds`` (from 1)."""
    if mode in ("shm", "home") and rounds == 1:
        deleted_files("/dev/shm" if mode == "shm" else os.environ["HOME"], remove_at_once=True)
        time.sleep(1)  # the runner reads usage as it waits
    elif mode in ("burst", "sharedburst"):
        deleted_files(os.environ["HOME"] if mode == "burst" else "/var/tmp", remove_at_once=False)
    elif mode == "children":
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)
        burn_in_children(orphaned=False)
    elif mode == "threads":
        burn_in_threads()
    elif mode == "nocldwait":
        no_child_wait()
        burn_in_children(orphaned=False)
    elif mode == "orphans":
        burn_in_children(orphaned=True)
    elif mode == "exhaust" and rounds == 1:
        if report != "oom:1000":
            sys.exit(f"not the first to die: {report}")
        exhaust()
    elif mode in ("sysv", "memfd", "tmpfile") and ":refused:" in report:
        sys.exit(report)
    elif mode in ("memfd", "tmpfile"):
        time.sleep(1)  # the runner reads usage as it waits
    elif mode == "sysv":
        time.sleep(1)


report = "ready"
if mode == "sysv":
    report = system_v()
elif mode in ("memfd", "tmpfile"):
    report = in_flight(mode)
elif mode == "exhaust":
    with open("/proc/self/oom_score_adj") as score:
        report = f"oom:{score.read().strip()}"
sys.stdin.readline()
print(f"moocow 1 unseen {report}", flush=True)
started, guess = 0, "11"
for line in sys.stdin:
    if line.startswith("game"):
        started += 1
        guess = "1" * int(line.split()[1])
        attack(started)
    elif line.startswith("quit"):
        break
    print(guess, flush=True)
