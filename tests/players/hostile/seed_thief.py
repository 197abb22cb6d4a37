"""Hunts for the seed and the secrets as a course student would: every process's command line,
environment and memory, the tournament file and the results file in the runner's folder. Reports
what it found in its identity (``student_id``), then guesses the first word."""

import os
import re

_words = []
found = []


def _look(path, pattern):
    try:
        with open(path, "rb") as file:
            text = file.read(1 << 20).decode("utf-8", "replace")
    except OSError:
        return
    if re.search(pattern, text):
        found.append(path)


def initialize_wordlist(words):
    _words[:] = words
    for name in os.listdir("/proc"):
        if name.isdigit():
            _look(f"/proc/{name}/cmdline", r"--seed|tournament|grade")
            _look(f"/proc/{name}/environ", r"MOOCOW_TEST_TOKEN|MOOCOW_SEED")
            _look(f"/proc/{name}/mem", r".")
    for folder in (os.getcwd(), os.path.dirname(os.getcwd())):
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for entry in entries:
            _look(os.path.join(folder, entry), r"seed|secret|hunter2")


def student_id():
    return "found:" + ("|".join(found) or "nothing")


def author():
    return "Thief, Seed"


def guess(n, guesses_so_far):
    return next(word for word in _words if len(word) == n)
