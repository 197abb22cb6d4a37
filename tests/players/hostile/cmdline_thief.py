"""Hunts the seed as a student would where players run at the ``user`` level, with no view of their own.

Standard library only, so that it runs on any ``python3`` other users can read (the runner's own
may be under ``/root``): a program speaking the line protocol, for Mastermind decks.

Where it looks: the folder it starts in (the runner's, before players started in their homes),
then the command line of each process it descends from (``/proc/PID/cmdline``: the runner's, which
any user can read at this level; other processes of a shared machine hold other runs'): each argument that
names a file, taken as it is and relative to every folder above its own file (the runner's folder
is usually one of them), is read for a seed (a tournament file's ``seed = N``, a seed file's
number, a results header's ``"seed": N``, ``--seed N`` itself) and for finished rounds' secrets (a
results file's rows). A seed is dealt as moocow deals a game's secrets (an HMAC-SHA256 keyed with
the seed, per entry); a secret it knows is guessed at once, else it plays the first consistent code,
as the engine's ``first`` does, so contained it scores exactly what ``first`` scores. Its handshake
says what it found (``found:nothing``, or the kinds) and how many entries its starting folder has.
"""

import hashlib
import hmac
import itertools
import json
import os
import re
import sys

COLOURS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SEEDS = (
    rb"--seed[= \0](\d{1,40})",
    rb"\bseed\s*=\s*(\d{1,40})",
    rb'"seed":\s*(\d{1,40})',
    rb"\A\s*(\d{1,40})\s*\Z",
)
found = set()
seeds = []
secrets_seen = {}


def read(path, limit=1 << 20):
    try:
        with open(path, "rb") as file:
            return file.read(limit)
    except OSError:
        return None


def search(data):
    """Seeds and finished rounds in what a file or command line holds."""
    if not data:
        return
    for pattern in SEEDS:
        for match in re.finditer(pattern, data):
            seeds.append(int(match.group(1)))
            found.add("seed")
    for line in data.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and "secret" in row and "round" in row:
            secrets_seen[(row.get("game"), row["round"])] = row["secret"]
            found.add("results")


def ancestors():
    """The processes it descends from, the runner among them (``/proc/PID/stat`` is anyone's to read)."""
    chain, pid = [], os.getppid()
    while pid > 1 and pid not in chain:
        chain.append(pid)
        stat = read(f"/proc/{pid}/stat") or b") ? 0"
        pid = int(stat.rpartition(b")")[2].split()[1])
    return chain


def hunt():
    """What the command lines of every process name, and the folder it started in."""
    here = os.path.dirname(os.path.abspath(sys.argv[0]))
    folders = [here]
    while os.path.dirname(folders[-1]) != folders[-1]:
        folders.append(os.path.dirname(folders[-1]))
    listed = os.listdir(".")
    for name in listed:
        search(read(name))
    for pid in ancestors():
        line = read(f"/proc/{pid}/cmdline") or b""
        search(line.replace(b"\0", b" "))
        for argument in line.split(b"\0"):
            text = argument.decode("utf-8", "replace")
            if not text or (text.startswith("-") and "=" not in text):
                continue
            text = text.split("=", 1)[1] if text.startswith("-") else text
            for place in [text] if text.startswith("/") else [os.path.join(f, text) for f in folders]:
                if os.path.isfile(place) and os.path.abspath(place) != os.path.abspath(sys.argv[0]):
                    search(read(place))
    return len(listed)


def secrets_of(spec):
    """A Mastermind game's secrets in its canonical order: every code, lexicographic."""
    values = dict(item.split("=") for item in spec.partition(":")[2].split(",") if item)
    pegs, colours = int(values.get("pegs", 4)), int(values.get("colors", 6))
    return ["".join(code) for code in itertools.product(COLOURS[:colours], repeat=pegs)]


def dealt(seed, spec, number, codes):
    """Round ``number``'s secret, as moocow deals an entry's secrets from its seed."""
    message = b"moocow deal v1\0" + spec.encode() + b"\0" + str(number).encode()
    return codes[
        int.from_bytes(hmac.new(str(seed).encode(), message, hashlib.sha256).digest(), "big") % len(codes)
    ]


def score(guess, secret):
    black = sum(a == b for a, b in zip(guess, secret, strict=True))
    return black, sum(min(guess.count(c), secret.count(c)) for c in set(guess)) - black


def main():
    sys.stdin.readline()
    entries = hunt()
    print(f"moocow 1 found:{','.join(sorted(found)) or 'nothing'} cwd:{entries}", flush=True)
    number, spec, codes, candidates, last = -1, "", [], [], ""
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            return
        if words[0] == "game":
            number, spec = number + 1, words[2]
            codes = secrets_of(spec)
            candidates = list(codes)
            known = [dealt(seed, spec, number, codes) for seed in dict.fromkeys(seeds)]
            known += [secrets_seen[key] for key in [(spec, number)] if key in secrets_seen]
        else:
            counts = (int(words[1]), int(words[2]))
            candidates = [code for code in candidates if score(last, code) == counts]
            known = []
        last = known[0] if known and known[0] in candidates else candidates[0]
        print(last, flush=True)


main()
