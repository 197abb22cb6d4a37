"""Tries to hold as many descriptors as the machine allows: measuring a player's memory lists
every descriptor of every one of its processes, and 20,000 in each of a few children kept the
runner busy for minutes a round while the player answered at once. It says in its handshake what
it was allowed: ``moocow 1 files:SOFT:HARD raised:yes|no``."""

import resource
import sys

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
try:
    resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))
    raised = "yes"
except (ValueError, OSError):
    raised = "no"
sys.stdin.readline()
print(f"moocow 1 files:{soft}:{hard} raised:{raised}", flush=True)
for line in sys.stdin:
    if line.startswith("quit"):
        break
    print("111", flush=True)
