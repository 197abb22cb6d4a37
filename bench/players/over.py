"""``python over.py MODE``: a line-protocol player that goes over one limit as each round starts.

Standard library only, so that any ``python3`` other users can run may run it (the ``user`` level).
Modes: ``spin`` (CPU), ``hang`` (wall-clock time), ``flood`` (stderr, 64 KiB lines without end),
``grab`` (memory, fast: eight children each take 1 MB at a time, touched, until their address space
is spent, then wait), ``hog`` (the same in one process), ``bomb`` (forks until refused, every child
waiting; reports ``bomb: N processes`` at once, itself included, by crashing with it).
"""

import os
import sys
import time

MODE = sys.argv[1]
MB = 1 << 20


def take() -> None:
    """Memory 1 MB at a time, each page touched, until the address space is spent."""
    held = []
    try:
        while True:
            block = bytearray(MB)
            block[::4096] = b"\1" * len(block[::4096])
            held.append(block)
    except MemoryError:
        pass
    time.sleep(600)


def over() -> None:
    if MODE == "spin":
        while True:
            pass
    elif MODE == "flood":
        line = b"x" * (1 << 16) + b"\n"
        while True:
            os.write(2, line)
    elif MODE == "grab":
        for _ in range(8):
            if os.fork() == 0:
                take()
                os._exit(0)
    elif MODE == "hog":
        held = [bytearray(MB) for _ in range(1 << 14)]  # MemoryError, to stderr, long before the end
        held.clear()
    elif MODE == "bomb":
        made = 0
        try:
            while True:
                if os.fork() == 0:
                    os.closerange(0, 3)  # the pipes end with the parent, whose exit the runner sees
                    time.sleep(600)
                    os._exit(0)
                made += 1
        except OSError:
            sys.exit(f"bomb: {made + 1} processes")
    time.sleep(3600)


sys.stdin.readline()
print("moocow 1 over", flush=True)
for line in sys.stdin:
    if line.startswith("game"):
        over()
    elif line.startswith("quit"):
        break
    print("1" * 2, flush=True)
