"""Imports numpy, touches 40 MB, then forks six children that only wait: an honest player that forks.

Every page the children share with it copy-on-write is one page of memory, however many processes
map it; the sum of each process's resident set counts it seven times (about 500 MB).
"""

import os
import time

import numpy as np

HELD = np.ones(40 << 20, dtype=np.uint8)  # touched: resident before the children are made
_children: list[int] = []


def next_guess(game, history):
    if not _children:
        for _ in range(6):
            child = os.fork()
            if child == 0:
                time.sleep(60)
                os._exit(0)
            _children.append(child)
        time.sleep(1.5)  # the runner scans while it waits
    return "111"
