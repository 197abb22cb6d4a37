"""``python limits.py MODE MARK``: a line-protocol player that tries to beat one limit at each round's start.

Every process it starts keeps this command line (``fork`` without ``exec``), so ``MARK`` finds them
all; ``sleep`` children are ``sleep 313.5 0.MARK``. What it manages is reported by crashing with it
as the reason (``bomb: 31 processes``), unless a limit ends it first. Modes:

- ``memory``: four children each hold 100 MB, touched; the parent waits.
- ``memfd``: memory kept in ``memfd_create`` files (written, never mapped: not resident in any
  process, not in its address space), three times the memory limit, in pieces no bigger than a
  file may be; then it answers, and keeps answering.
- ``cpu``: four children spin; the parent waits, idle.
- ``bomb``: forks until it cannot, every child waiting; reports how many it had at once.
- ``disk``: fills its ``/tmp`` and ``/dev/shm`` (files no bigger than a file may be) and tries the
  runner's folder; reports how many MB it wrote.
- ``outlive``: double-forked, session-leading ``sleep`` children that ignore hang-ups, then it
  answers, and keeps answering: they must die with the session.
- ``hang``: the same children, then it never answers: they must die with a runner that is killed.
"""

import os
import resource
import signal
import sys
import time

MODE, MARK = sys.argv[1], sys.argv[2]
MB = 1 << 20


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def crash(reason):
    sys.stderr.write(reason + "\n")
    sys.stderr.flush()
    os._exit(1)


def piece_bytes():
    """The largest file it may write (``RLIMIT_FSIZE``), at most 16 MB."""
    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    return 16 * MB if soft == resource.RLIM_INFINITY else min(16 * MB, soft)


def sleeper():
    """A child that sleeps in a session of its own, ignoring hang-ups: ``sleep 313.5 0.MARK``."""
    if os.fork() == 0:
        os.setsid()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        if os.fork() == 0:
            os.execvp("sleep", ["sleep", "313.5", f"0.{MARK}"])
        os._exit(0)


def memory():
    for _ in range(4):
        if os.fork() == 0:
            held = bytearray(100 * MB)
            for index in range(0, len(held), 4096):
                held[index] = 1
            time.sleep(60)
            os._exit(0)
    time.sleep(10)
    crash("memory: four children held 100 MB each, unnoticed")


def memfd(limit_mb):
    held, piece, pieces = 0, piece_bytes(), []
    block = b"\1" * piece
    while held < 3 * limit_mb * MB:
        descriptor = os.memfd_create("hoard")
        os.write(descriptor, block)
        pieces.append(descriptor)
        held += piece
    time.sleep(1)  # the runner polls usage while it waits for the answer
    return pieces


def cpu():
    for _ in range(4):
        if os.fork() == 0:
            while True:
                pass
    time.sleep(10)
    crash("cpu: four children spun, unnoticed")


def bomb():
    count = 0
    while True:
        try:
            child = os.fork()
        except OSError:
            break
        if child == 0:
            time.sleep(60)
            os._exit(0)
        count += 1
    crash(f"bomb: {count + 1} processes")


def disk():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    piece, written = piece_bytes(), {}
    for folder in ("/tmp", "/dev/shm", os.getcwd()):
        written[folder] = 0
        for number in range(100_000):
            try:
                with open(os.path.join(folder, f"fill-{number}"), "wb") as file:
                    for _ in range(piece // MB):
                        file.write(b"\0" * MB)
                        file.flush()
                        written[folder] += MB
            except OSError:
                break
    crash("disk: " + " ".join(f"{folder}={amount // MB}MB" for folder, amount in written.items()))


def outlive():
    for _ in range(3):
        sleeper()


def hang():
    outlive()
    time.sleep(3600)


ACTIONS = {"memory": memory, "cpu": cpu, "bomb": bomb, "disk": disk, "outlive": outlive, "hang": hang}


def main():
    sys.stdin.readline()  # moocow 1 DECK
    limit_mb = resource.getrlimit(resource.RLIMIT_AS)[0] // MB
    say("moocow 1 " + MODE)
    kept = []
    for line in sys.stdin:
        words = line.split()
        if words[0] == "quit":
            return
        if words[0] == "game":
            action = ACTIONS.get(MODE)
            if MODE == "memfd":
                kept += memfd(limit_mb)
            elif action is not None:
                action()
            length = int(words[1])
        say("1" * length)


if __name__ == "__main__":
    main()
