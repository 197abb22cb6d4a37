"""Harms everything in view at its start and at every round, then plays on as if nothing happened.

It SIGKILLs its parent, stops (SIGSTOP) then kills every other process it can see and every one it
may signal (``kill(-1)``), attaches to each with ``ptrace``, and writes a false answer and a pickle
into every descriptor of every other process (``/proc/PID/fd/*``: the pipes of the runner, of a
worker, of another player). It plays the first candidate, as ``tests/players/first_candidate.py``
does, so a harmless killer scores exactly that; ``student_id()`` names what it hit (``hit:nothing``
when nothing), and a killer that hit anything crashes the round with that as the reason.
"""

import contextlib
import ctypes
import os
import signal

from moocow import load_game

PTRACE_ATTACH = 16
GARBAGE = b"111\nfeedback 3 0\n\x00\x00\x00\x10\x80\x04\x95garbage\n"
hit = set()
_games = {}


def _others():
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and int(name) != os.getpid()]


def _harm():
    try:
        os.kill(os.getppid(), signal.SIGKILL)
        hit.add("parent")
    except OSError:
        pass
    libc = ctypes.CDLL(None, use_errno=True)
    for pid in _others():
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(pid, sig)
                hit.add(f"signal:{pid}")
            except OSError:
                pass
        if libc.ptrace(PTRACE_ATTACH, pid, None, None) == 0:
            hit.add(f"ptrace:{pid}")
        try:
            descriptors = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for name in descriptors:
            try:
                fd = os.open(f"/proc/{pid}/fd/{name}", os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                continue
            try:
                os.write(fd, GARBAGE)
                hit.add(f"fd:{pid}")
            except OSError:
                pass
            finally:
                os.close(fd)
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGKILL)  # every process it may signal, but itself


def start(deck):
    _harm()


def student_id():
    return "hit:" + (",".join(sorted(hit)) or "nothing")


def _honest(game, history):
    if game not in _games:
        _games[game] = load_game(game)
    played = _games[game]
    candidates = played.secrets
    for guess, counts in history:
        code = played.guesses[played.guess_index(guess)][None, :]
        value = played.feedback_model.encode(tuple(counts))
        candidates = candidates[played.feedback(code, candidates)[0] == value]
    return played.format_code(candidates[0])


def next_guess(game, history):
    if not history:
        _harm()
    if hit:
        raise RuntimeError("hit:" + ",".join(sorted(hit)))
    return _honest(game, history)
