"""Spreads memory over four children, each holding 120 MB: under a per-process limit, not under a total."""

import os
import time

BLOCK = 120 << 20


def next_guess(game, history):
    for _ in range(4):
        if os.fork() == 0:
            held = b"\x01" * BLOCK  # noqa: F841 - resident while it sleeps
            time.sleep(60)
            os._exit(0)
    time.sleep(60)
