"""Leaves a double-forked daemon in a session of its own: it serves a friend and rewrites files late.

The daemon listens on loopback TCP (``PORT``) and on an abstract unix socket, leaves a note in
``/dev/shm`` and ``/tmp``, starts ``sleep 313.5 0.N`` (N from its folder's path: one command line
per test, for the test to look for), then, two seconds later, appends forged rows to any results
file in view and rewrites the word file, its own folder and the runner's folder. ``student_id()``
says which channels it serves (``serving:...``); one that cannot serve them all crashes its first
guess saying so, so the test knows a friend had something to find. A socket the seccomp filter
refuses (``EPERM``) is a channel closed, not one missed: it is named ``tcp-refused`` or
``abstract-refused``. Each guess takes a while, so
a friend played beside it (two workers) overlaps it.
"""

import glob
import json
import os
import socket
import subprocess
import threading
import time
import zlib

PORT = 47913
ABSTRACT = b"\0moocow-hostile-drop"
NOTE = "moocow-hostile-drop"
state = {"deck": "", "serving": []}


def marker():
    """``sleep 313.5 0.N``: the command line of its sleeper, the same for the test that looks for it."""
    folder = os.path.dirname(os.path.abspath(__file__))
    return ["sleep", "313.5", f"0.{zlib.crc32(folder.encode())}"]


def _serve(server):
    while True:
        try:
            connection, _ = server.accept()
            connection.sendall(b"the secret is 1234\n")
            connection.close()
        except OSError:
            return


def _late_writes(deck):
    row = json.dumps({"player": "daemon", "round": 0, "secret": "111", "solved": True, "score": 1})
    targets = [os.path.join(os.getcwd(), "results.jsonl"), *glob.glob(os.path.join(os.getcwd(), "*.jsonl"))]
    if "file=" in deck:
        targets.append(deck.split("file=")[1].split(",")[0])
    targets += [os.path.join(os.getcwd(), "daemon-was-here"), os.path.abspath(__file__)]
    for target in targets:
        try:
            with open(target, "a") as file:
                file.write(row + "\n")
        except OSError:
            pass


def _daemon(deck, report):
    if os.fork():
        os._exit(0)
    os.setsid()
    if os.fork():
        os._exit(0)
    serving = []
    try:
        tcp = socket.socket()
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        tcp.bind(("127.0.0.1", PORT))
        tcp.listen()
        threading.Thread(target=_serve, args=(tcp,), daemon=True).start()
        serving.append("tcp")
    except PermissionError:
        serving.append("tcp-refused")
    except OSError:
        pass
    try:
        unix = socket.socket(socket.AF_UNIX)
        unix.bind(ABSTRACT)
        unix.listen()
        threading.Thread(target=_serve, args=(unix,), daemon=True).start()
        serving.append("abstract")
    except PermissionError:
        serving.append("abstract-refused")
    except OSError:
        pass
    for folder in ("/dev/shm", "/tmp"):
        try:
            with open(os.path.join(folder, NOTE), "w") as file:
                file.write("the secret is 1234\n")
            serving.append(folder)
        except OSError:
            pass
    try:
        subprocess.Popen(marker(), start_new_session=True, stdin=subprocess.DEVNULL)
        serving.append("sleeper")
    except OSError:
        pass
    os.write(report, (",".join(serving) + "\n").encode())
    os.close(report)
    time.sleep(2)
    _late_writes(deck)
    time.sleep(313.5)


def start(deck):
    state["deck"] = deck
    read, write = os.pipe()
    if os.fork() == 0:
        os.close(read)
        _daemon(deck, write)
        os._exit(0)
    os.close(write)
    os.wait()
    with os.fdopen(read) as report:
        state["serving"] = [channel for channel in report.read().strip().split(",") if channel]


def student_id():
    return "serving:" + (",".join(state["serving"]) or "nothing")


def next_guess(game, history):
    sockets = [channel.removesuffix("-refused") for channel in state["serving"][:2]]
    if sockets != ["tcp", "abstract"] or state["serving"][2:] != ["/dev/shm", "/tmp", "sleeper"]:
        raise RuntimeError("serving only " + ",".join(state["serving"]))
    time.sleep(0.3)
    return "1" * int(game.split("pegs=")[1].split(",")[0])
