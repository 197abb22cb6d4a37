"""Makes its stderr unreadable to the runner, then crashes: it sets ``O_DIRECT`` on the descriptor it
shares with the runner (on a file, the runner's next read failed with EINVAL: a traceback that
ended the whole tournament and lost every other player's rounds)."""

import contextlib
import fcntl
import os


def next_guess(game, history):
    os.write(2, b"about to crash\n")
    flags = fcntl.fcntl(2, fcntl.F_GETFL)
    with contextlib.suppress(OSError):  # refused where O_DIRECT means nothing
        fcntl.fcntl(2, fcntl.F_SETFL, flags | os.O_DIRECT)
    os._exit(1)
