"""Asks for a gigabyte in its first guess."""


def next_guess(game, history):
    hoard = bytearray(1 << 30)
    return "111" if hoard else "222"
