"""Starts a background process, writes its pid next to this file, then hangs."""

import pathlib
import subprocess
import time


def next_guess(game, history):
    child = subprocess.Popen(["sleep", "300"])
    pathlib.Path(__file__).with_suffix(".pid").write_text(str(child.pid))
    time.sleep(3600)
