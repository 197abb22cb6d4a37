"""Writes megabytes to stderr in its first guess."""

import sys


def next_guess(game, history):
    for _ in range(64):
        sys.stderr.write("x" * (1 << 16) + "\n")
    return "111"
