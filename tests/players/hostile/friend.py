"""Asks a friend's daemon for help for up to three seconds: loopback TCP, an abstract unix socket,
notes in ``/dev/shm`` and ``/tmp``, and the folders of other students next to its own.
``student_id()`` is ``alone``, or ``reached:`` and what answered; a friend that reached anything
crashes its first guess with that as the reason, so a tournament's results show it too.
"""

import glob
import os
import socket
import time

PORT = 47913
ABSTRACT = b"\0moocow-hostile-drop"
NOTE = "moocow-hostile-drop"
reached = []


def _tcp():
    socket.create_connection(("127.0.0.1", PORT), timeout=0.2).close()


def _abstract():
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(0.2)
    client.connect(ABSTRACT)
    client.close()


def _note(folder):
    with open(os.path.join(folder, NOTE)) as file:
        file.read()


def _neighbours():
    here = os.path.dirname(os.path.abspath(__file__))
    for path in glob.glob(os.path.join(os.path.dirname(here), "*", "*")):
        if not path.startswith(here + os.sep) and os.path.isfile(path):
            with open(path, "rb") as file:
                file.read(1)
            return
    raise OSError("no neighbour")


CHANNELS = {
    "tcp": _tcp,
    "abstract": _abstract,
    "/dev/shm": lambda: _note("/dev/shm"),
    "/tmp": lambda: _note("/tmp"),
    "neighbours": _neighbours,
}


def start(deck):
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and not reached:
        for name, channel in CHANNELS.items():
            try:
                channel()
            except OSError:
                continue
            reached.append(name)
        time.sleep(0.1)


def student_id():
    return "reached:" + ",".join(reached) if reached else "alone"


def next_guess(game, history):
    if reached:
        raise RuntimeError("reached:" + ",".join(reached))
    return "1" * int(game.split("pegs=")[1].split(",")[0])
