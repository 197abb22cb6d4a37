"""Hunts the secrets as a student who knows moocow's source would, and cheats with what it finds.

Where it looks: the command line of every process in view (``--seed N``, a ``--results`` path), the
runner's environment (``MOOCOW_SEED``, an instructor's token ``hunter2``) and its memory
(``/proc/PID/mem``), the files of the runner's folder, its parents and the folders next to its own
(a tournament file's ``seed = N``, a results header's ``"seed": N``, a seed file, finished rounds'
secrets in a results file, other students' notes). A seed is turned into every secret with
moocow's own ``load_deck(deck).deal(seed, rounds)``; the results file is read again at every round.
A secret it knows is guessed at once (a score of 1); otherwise it plays the first candidate, as
``tests/players/first_candidate.py`` does, so contained it scores exactly what that player scores.
``student_id()`` says what it found: ``found:nothing``, or the places.
"""

import glob
import json
import os
import re

from moocow import load_game

# At most 40 digits: another file of /tmp holding 100,000 digits is no seed (and int() refuses it).
SEEDS = (
    rb"--seed[= \0](-?\d{1,40})",
    rb"MOOCOW_SEED=(-?\d{1,40})",
    rb"\bseed\s*=\s*(-?\d{1,40})",
    rb'"seed":\s*(-?\d{1,40})',
    rb"\A\s*(-?\d{1,40})\s*\Z",
)
TOKEN = b"hunter2"
found = {}
seeds = []
results_files = set()
known = {}
state = {"deck": "", "round": -1}
_games = {}


def _read(path, limit=1 << 20):
    try:
        with open(path, "rb") as file:
            return file.read(limit)
    except OSError:
        return None


def _note(where, what):
    found.setdefault(what, []).append(where)


def _search(where, data):
    """Seeds, the token and results files named in ``data`` (seeds found first are trusted first)."""
    if data is None:
        return
    for pattern in SEEDS:
        for match in re.finditer(pattern, data):
            seeds.append(int(match.group(1)))
            _note(where, "seed")
    if TOKEN in data:
        _note(where, "token")
    for match in re.finditer(rb"--results[= \0]([^\0 ]+)", data):
        results_files.add(match.group(1).decode("utf-8", "replace"))


def _ancestors():
    """The processes the player descends from: the runner, whose memory and environment it wants."""
    chain, pid = [], os.getppid()
    while pid > 0 and pid not in chain:
        chain.append(pid)
        stat = _read(f"/proc/{pid}/stat") or b") ? 0"
        pid = int(stat.rpartition(b")")[2].split()[1])
    return chain


def _memory(pid):
    """The start of each readable mapping of the runner's memory, searched like a file."""
    maps = _read(f"/proc/{pid}/maps")
    if maps is None:
        return
    try:
        with open(f"/proc/{pid}/mem", "rb") as memory:
            for line in maps.decode().splitlines()[:200]:
                start, end = (int(part, 16) for part in line.split()[0].split("-"))
                if "r" not in line.split()[1]:
                    continue
                try:
                    memory.seek(start)
                    chunk = memory.read(min(end - start, 1 << 18))
                except (OSError, OverflowError, ValueError):
                    continue
                _note(f"/proc/{pid}/mem", "mem")
                if TOKEN in chunk:
                    _note(f"/proc/{pid}/mem", "token")
    except OSError:
        return


def _hunt():
    for pid in _ancestors():
        _search(f"/proc/{pid}/cmdline", _read(f"/proc/{pid}/cmdline"))
        _search(f"/proc/{pid}/environ", _read(f"/proc/{pid}/environ"))
        _memory(pid)
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            _search(f"/proc/{name}/cmdline", _read(f"/proc/{name}/cmdline"))
    _search("own environment", "\0".join(f"{k}={v}" for k, v in os.environ.items()).encode())
    here = os.path.dirname(os.path.abspath(__file__))
    places = {os.getcwd(), os.path.dirname(os.getcwd()), here, os.path.dirname(here), "/tmp", "/dev/shm"}
    places.update(glob.glob(os.path.join(os.path.dirname(here), "*")))
    for folder in places:
        for path in glob.glob(os.path.join(folder, "*")) + glob.glob(os.path.join(folder, ".*")):
            if os.path.isfile(path) and os.path.abspath(path) != os.path.abspath(__file__):
                if path.endswith(".jsonl"):
                    results_files.add(path)
                _search(path, _read(path))


def _read_results():
    """Finished rounds' secrets, from every results file in reach (another player's rounds are ours too)."""
    for path in results_files:
        for line in (_read(path, 1 << 24) or b"").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and "secret" in row:
                known[(row["game"], row["round"])] = row["secret"]
                if "results" not in found:
                    _note(path, "results")


def start(deck):
    state["deck"] = deck
    _hunt()
    if seeds:
        from moocow.referee.decks import load_deck

        for seed in dict.fromkeys(seeds):
            for number, deal in enumerate(load_deck(deck).deal(seed, 50)):
                known.setdefault((deck, number), deal.secret_text)


def student_id():
    return "found:" + (",".join(sorted(found)) or "nothing")


def author():
    return "Thief, Seed"


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
        _read_results()
    honest = _honest(game, history)
    secret = known.get((state["deck"], state["round"]))
    if secret is not None and len(secret) == len(honest) and secret not in [guess for guess, _ in history]:
        return secret
    return honest
