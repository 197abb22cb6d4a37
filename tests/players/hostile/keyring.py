"""Uses the kernel's key store, which no mount, PID, network or IPC namespace separates.

At its start it looks in its session keyring for a ``user`` key ``moocow-test-token`` (the key a
test's runner left there: a key of the runner's, not one of the machine's). At every guess it
stores the round's latest guess in its user keyring (``moocow-drop:FOLDER:DECK:ROUND``, FOLDER
the folder above its own, so only players of one test share a name; a minute's timeout), and at a
round's start it looks for the one a player before it left: the secret, which it then guesses at
once. Otherwise it plays the first candidate, as ``tests/players/first_candidate.py`` does.
``student_id()`` is ``keys:nothing`` or ``keys:runner=VALUE``.
"""

import ctypes
import os

from moocow import load_game

SYS_ADD_KEY, SYS_KEYCTL = 248, 250  # x86_64
KEYCTL_SET_TIMEOUT, KEYCTL_READ, KEYCTL_SEARCH = 15, 11, 10
SESSION, USER = -3, -4
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
found = []
state = {"deck": "", "round": -1}
_games = {}


def _search(ring, description):
    key = libc.syscall(SYS_KEYCTL, KEYCTL_SEARCH, ring, b"user", description.encode(), 0)
    if key <= 0:
        return None
    buffer = ctypes.create_string_buffer(256)
    size = libc.syscall(SYS_KEYCTL, KEYCTL_READ, key, buffer, 256)
    return buffer.raw[:size].decode("utf-8", "replace") if size >= 0 else None


def _store(description, value):
    data = value.encode()
    key = libc.syscall(SYS_ADD_KEY, b"user", description.encode(), data, len(data), USER)
    if key > 0:
        libc.syscall(SYS_KEYCTL, KEYCTL_SET_TIMEOUT, key, 60)


def _drop(number):
    folder = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return f"moocow-drop:{folder}:{state['deck']}:{number}"


def start(deck):
    state["deck"] = deck
    token = _search(SESSION, "moocow-test-token")
    if token is not None:
        found.append(f"runner={token}")


def student_id():
    return "keys:" + (",".join(found) or "nothing")


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
        state["round"] += 1
    left = _search(USER, _drop(state["round"]))
    guess = left if left and left not in [g for g, _ in history] else _honest(game, history)
    _store(_drop(state["round"]), guess)
    return guess
