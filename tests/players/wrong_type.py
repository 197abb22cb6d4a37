"""Returns a number, not a guess string."""


def next_guess(game, history):
    return 111
