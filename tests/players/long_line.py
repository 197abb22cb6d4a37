"""Answers with a line far longer than any guess."""


def next_guess(game, history):
    return "1" * 100_000
