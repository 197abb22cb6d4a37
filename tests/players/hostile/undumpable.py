"""``python undumpable.py SIZE COUNT``: in every round, COUNT children that each make themselves not
dumpable (``prctl(PR_SET_DUMPABLE, 0)``), take SIZE MB and wait; then it answers ``1`` in every peg,
a second later. Standard library only.

A process that is not dumpable keeps its user ids (``/proc/PID/status`` says the player's), but the
kernel gives the files of its ``/proc`` entry to root (on old kernels, the entry itself): a runner
that went by their owner saw none of these children, nor the memory they hold. Each child says
whether its ``status`` did become root's; where it did not, the player exits saying so (a crash,
not the attack)."""

import ctypes
import os
import sys
import time

MB = 1 << 20
PR_SET_DUMPABLE = 4
size, count = int(sys.argv[1]), int(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)


def hide() -> None:
    """Children that are not dumpable, each holding ``size`` MB, until the runner ends them."""
    for _ in range(count):
        ready, told = os.pipe()
        if os.fork() == 0:
            os.close(ready)
            libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
            owner = os.stat(f"/proc/{os.getpid()}/status").st_uid
            held = bytearray(size * MB)
            held[::4096] = b"\1" * len(held[::4096])
            os.write(told, b"root" if owner == 0 and os.getuid() != 0 else b"mine")
            time.sleep(60)
            os._exit(0)
        os.close(told)
        said = os.read(ready, 4)
        os.close(ready)
        if said != b"root":
            sys.exit(f"a child not dumpable still owns its /proc files ({said!r})")
    time.sleep(1)  # the runner reads usage as it waits


sys.stdin.readline()
print("moocow 1 undumpable", flush=True)
guess = "11"
for line in sys.stdin:
    if line.startswith("game"):
        guess = "1" * int(line.split()[1])
        hide()
    elif line.startswith("quit"):
        break
    print(guess, flush=True)
