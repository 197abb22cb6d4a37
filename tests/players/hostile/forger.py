"""Tries to rewrite what the runner prints: a carriage return and a clear-screen in its name, then a
crash whose message moves the cursor home and paints a perfect total over the real one."""

FAKE = "\r\x1b[2J\x1b[H1 found:everything Perfect, Student\x1b[8m"


def student_id():
    return "forger\x1b[2K"


def author():
    return "Forger" + FAKE


def next_guess(game, history):
    raise RuntimeError("\x1b[31mboom" + FAKE + "\r\x1b[1A\x1b[2K")
