"""``python hoarder.py MB``: at the start of every round, writes ``MB`` megabytes into its home and
one into the host's temp folder, then answers a second later and keeps answering. At the ``user``
level its home and ``/tmp`` are on the host's disk: a player wrote 180 MB into its home past
``disk_mb``, and nothing stopped it."""

import os
import sys
import tempfile
import time

MB = 1 << 20
size = int(sys.argv[1])
rounds = 0
sys.stdin.readline()
print("moocow 1 hoarder", flush=True)
for line in sys.stdin:
    if line.startswith("quit"):
        break
    if line.startswith("game"):
        rounds += 1
        with open(os.path.join(os.environ["HOME"], f"hoard-{rounds}"), "wb") as file:
            for _ in range(size):
                file.write(b"\1" * MB)
        shared = os.path.join(tempfile.gettempdir(), f"hoard-{os.getuid()}-{rounds}")
        with open(shared, "wb") as file:
            file.write(b"\1" * MB)
        time.sleep(1)  # the runner reads usage as it waits
    print("111", flush=True)
