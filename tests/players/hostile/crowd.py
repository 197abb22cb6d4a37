"""Holds as many descriptors in as many processes as its limits allow, then answers at once: each
usage reading listed and read every descriptor of every process to count memory, so one reading
took half a second and a guess 2.2 s of the runner's time, which counted against the player's own
clock. It says in its handshake what it holds: ``moocow 1 crowd:PROCESSES:DESCRIPTORS``. With an
argument, it waits that many seconds before each answer (a player thinking)."""

import os
import sys
import time

pause = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0

held = []
while True:
    try:
        descriptor = os.open(os.devnull, os.O_RDONLY)
    except OSError:
        break
    os.set_inheritable(descriptor, True)  # kept by the children's sleep
    held.append(descriptor)
for descriptor in held[-4:]:  # room for sleep to load its libraries
    os.close(descriptor)
del held[-4:]
processes = 1
while True:
    try:
        child = os.fork()
    except OSError:
        break
    if child == 0:
        os.execvp("sleep", ["sleep", "300"])
    processes += 1
sys.stdin.readline()
print(f"moocow 1 crowd:{processes}:{len(held)}", flush=True)
length = 3
for line in sys.stdin:
    if line.startswith("quit"):
        break
    if line.startswith("game"):
        length = int(line.split()[1])
    time.sleep(pause)
    print("1" * length, flush=True)
