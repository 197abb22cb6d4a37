"""Burns CPU in its first guess and never answers."""


def next_guess(game, history):
    while True:
        pass
