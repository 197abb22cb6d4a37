"""Guesses once, then divides by zero: a crash with a traceback."""


def next_guess(game, history):
    if history:
        return str(1 / 0)
    return "111"
