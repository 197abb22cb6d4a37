"""A course player that tries the tricks an in-process runner allows, then reports what it found.

It searches every frame of its process for a variable named ``secret`` and patches the random
module so that a runner drawing secrets in this process would draw its own first word. Run by
moocow it finds nothing (the secret is not in this process) and says so by crashing.
"""

import random
import sys

_words = []


def initialize_wordlist(words):
    _words[:] = words
    random.Random.choice = lambda self, seq: seq[0]
    random.seed(0)


def guess(n, guesses_so_far):
    for frame in sys._current_frames().values():
        while frame is not None:
            if "secret" in frame.f_locals:
                return frame.f_locals["secret"]
            frame = frame.f_back
    raise RuntimeError("no secret in reach")


def student_id():
    return "0"


def author():
    return "Tamper, Test"
