"""Leaves a double-forked daemon in a session of its own that writes files and serves on loopback."""

import os
import socket
import time

PORT = 47913


def _daemon():
    if os.fork():
        os._exit(0)
    os.setsid()
    if os.fork():
        os._exit(0)
    server = socket.socket()
    try:
        server.bind(("127.0.0.1", PORT))
        server.listen()
    except OSError:
        pass
    time.sleep(2)
    for path in (os.path.join(os.getcwd(), "daemon-was-here"), "/tmp/daemon-was-here"):
        try:
            with open(path, "w") as file:
                file.write("late")
        except OSError:
            pass
    time.sleep(313.75)


def start(deck):
    if os.fork() == 0:
        _daemon()
        os._exit(0)
    os.wait()


def next_guess(game, history):
    return "1" * int(game.split("pegs=")[1].split(",")[0])
