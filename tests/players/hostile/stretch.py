"""``python stretch.py MODE SIZE COUNT``: tries to stretch the disk bound at the ``user`` level, where
the runner's inotify watch and timed scan hold ``disk_mb``, then answers ``1`` in every peg every
time. At the start of every round it writes a burst of COUNT files of SIZE MB as fast as it can and
removes them, after it has made the watch's work hard. Standard library only. Modes:

- ``nested``: the burst in the deepest of 300 nested folders of its home (once, past the watch's
  256 folders).
- ``siblings``: the burst in the last of 300 folders side by side in its home.
- ``crowd``: 70,000 empty files in ``/var/tmp`` (once, past the watch's 65,536 entries), then the
  burst there.
- ``overflow``: 30,000 one-byte writes over 200 files of its home, making a folder in ``/tmp`` in
  their middle (its "created" event lost with the overflowed queue), then the burst in that folder.
- ``hidden``: 300 nested folders with 150,000 empty files in the deepest (each timer scan lists
  them all, and the next waits nine times as long), then three bursts there, each held 0.5 s.
- ``killed``: leaves ``ready`` in its home and waits for ``go`` there (the test kills the runner's
  watch in between), then the burst in its home, held 0.5 s (so that the timer alone sees it too).
"""

import os
import sys
import time

MB = 1 << 20
mode, size, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
home = os.environ["HOME"]
made: dict[str, str] = {}


def nested(depth: int) -> str:
    folder = home
    for number in range(depth):
        folder = os.path.join(folder, f"n{number}")
        os.mkdir(folder)
    return folder


def siblings(number: int) -> str:
    for sibling in range(number):
        os.mkdir(os.path.join(home, f"s{sibling}"))
    return os.path.join(home, f"s{number - 1}")


def empty_files(folder: str, number: int) -> None:
    for each in range(number):
        os.close(os.open(os.path.join(folder, f"e{os.getpid()}-{each}"), os.O_CREAT | os.O_WRONLY, 0o600))


def overflowing() -> str:
    """The folder in ``/tmp``, made in the middle of writes that overflow the event queue."""
    files = [
        os.open(os.path.join(home, f"w{number}"), os.O_CREAT | os.O_WRONLY, 0o600) for number in range(200)
    ]
    folder = os.path.join("/tmp", f"stretch-{os.getpid()}")
    for write in range(30_000):
        os.write(files[write % len(files)], b"x")
        if write == 15_000:
            os.mkdir(folder)
    for file in files:
        os.close(file)
    return folder


def prepared() -> str:
    """The folder the bursts go to, made once a session."""
    if "burst" not in made:
        if mode == "nested":
            made["burst"] = nested(300)
        elif mode == "siblings":
            made["burst"] = siblings(300)
        elif mode == "crowd":
            empty_files("/var/tmp", 70_000)
            made["burst"] = "/var/tmp"
        elif mode == "overflow":
            made["burst"] = overflowing()
        elif mode == "hidden":
            made["burst"] = nested(300)
            empty_files(made["burst"], 150_000)
    return made["burst"]


def signalled() -> None:
    """``ready`` left in its home, then ``go`` waited for (a minute at most)."""
    with open(os.path.join(home, "ready"), "w"):
        pass
    for _ in range(6000):
        if os.path.exists(os.path.join(home, "go")):
            return
        time.sleep(0.01)


def burst(folder: str, held: float) -> None:
    block = b"\1" * (size * MB)
    names = [os.path.join(folder, f"burst-{os.getpid()}-{number}") for number in range(count)]
    for name in names:
        with open(name, "wb") as file:
            file.write(block)  # one call: as fast as it can
    time.sleep(held)
    for name in names:
        os.unlink(name)


def attack() -> None:
    if mode == "killed":
        signalled()
        burst(home, 0.5)
        return
    folder = prepared()
    for _ in range(3 if mode == "hidden" else 1):
        burst(folder, 0.5 if mode == "hidden" else 0.0)


sys.stdin.readline()
print("moocow 1 stretch ready", flush=True)
guess = "11"
for line in sys.stdin:
    if line.startswith("game"):
        guess = "1" * int(line.split()[1])
        attack()
    elif line.startswith("quit"):
        break
    print(guess, flush=True)
