"""Writes exactly one megabyte to stderr once, in its first guess, then plays as first_candidate.py
does: ``output_mb=1`` allows it, as it allows a file of that size."""

import sys

import first_candidate

written = False


def next_guess(game, history):
    global written
    if not written:
        sys.stderr.write("x" * ((1 << 20) - 1) + "\n")
        sys.stderr.flush()
        written = True
    return first_candidate.next_guess(game, history)
