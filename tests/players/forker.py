"""Starts a background process (``sleep 313.25``, easy to find), then hangs."""

import subprocess
import time


def next_guess(game, history):
    subprocess.Popen(["sleep", "313.25"], start_new_session=True)
    time.sleep(3600)
