"""Guesses once, then exits with status 3."""

import sys


def next_guess(game, history):
    if history:
        sys.exit(3)
    return "111"
