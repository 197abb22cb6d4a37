"""Tries to change the world outside its sandbox at its start and again at every round, then plays on.

Targets: a file in the runner's working directory and next to it, the host's ``/tmp`` (its own
``/tmp`` is a private tmpfs: the test looks on the host), its own folder and the folder above,
the deck's word file (rewritten between rounds, so later secrets would change), moocow's own
source (``moocow.__file__``), rows appended to any results file in view, a kernel setting (the
value it has, written back: the machine is the same even if it works), directly and from a user
namespace of its own, and its home, renamed away and replaced by a symlink to ``/``.

Every write that works is named in ``student_id()`` (``wrote:nothing`` when none did); a write that
works after the handshake crashes the round with ``wrote:...`` as its reason. It plays the first
candidate, as ``tests/players/first_candidate.py`` does, so contained it scores exactly that.
"""

import glob
import json
import os
import subprocess

import moocow
from moocow import load_game

MARK = "vandal-was-here"
SYSCTL = "/proc/sys/kernel/printk_ratelimit"
wrote = []
state = {"deck": ""}
_games = {}


def _try(name, action):
    try:
        action()
    except (OSError, subprocess.SubprocessError, ValueError):
        return
    wrote.append(name)


def _create(path):
    with open(path, "x") as file:
        file.write("x\n")


def _append(path, text):
    with open(path, "a") as file:
        file.write(text)


def _write_back(path):
    with open(path) as file:
        value = file.read()
    with open(path, "w") as file:
        file.write(value)


def _from_a_user_namespace():
    """Root in a user namespace of its own, then the kernel setting again."""
    script = f"cat {SYSCTL} > /tmp/value && cat /tmp/value > {SYSCTL}"
    subprocess.run(["unshare", "-Ur", "sh", "-c", script], check=True, capture_output=True, timeout=5)


def _swap_home():
    home = os.environ["HOME"]
    os.rename(home, home + ".away")
    os.symlink("/", home)


def _vandalise():
    here = os.path.dirname(os.path.abspath(__file__))
    for folder in (os.getcwd(), os.path.dirname(os.getcwd()), here, os.path.dirname(here)):
        _try(f"create:{folder}", lambda folder=folder: _create(os.path.join(folder, MARK)))
    _try("create:/tmp/..", lambda: _create(os.path.join("/tmp/..", MARK)))
    _create_in_tmp = os.path.join("/tmp", MARK)  # its own tmpfs: allowed, and the host's /tmp is untouched
    if not os.path.exists(_create_in_tmp):
        _create(_create_in_tmp)
    source = os.path.join(os.path.dirname(moocow.__file__), "referee", "referee.py")
    _try("moocow-source", lambda: _append(source, "# rigged\n"))
    _try("moocow-source-mode", lambda: os.chmod(source, 0o777))
    if "file=" in state["deck"]:
        words = state["deck"].split("file=")[1].split(",")[0]
        _try("word-file", lambda: _append(words, "zzzzz\n"))
        _try("word-file-replaced", lambda: os.rename(words, words + ".old"))
    forged = json.dumps({"player": "vandal", "round": 0, "secret": "1111", "solved": True, "score": 1})
    for results in glob.glob(os.path.join(os.getcwd(), "*.jsonl")) + glob.glob("/tmp/../*.jsonl"):
        _try(f"results:{results}", lambda results=results: _append(results, forged + "\n"))
    _try("sysctl", lambda: _write_back(SYSCTL))
    _try("sysctl-in-userns", _from_a_user_namespace)
    _try("own-file", lambda: _append(os.path.abspath(__file__), "# rigged\n"))


def start(deck):
    state["deck"] = deck
    _vandalise()
    _try("home-swapped", _swap_home)


def student_id():
    return "wrote:" + (",".join(wrote) or "nothing")


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
        _vandalise()
        if wrote:
            raise RuntimeError("wrote:" + ",".join(wrote))
    return _honest(game, history)
