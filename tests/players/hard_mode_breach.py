"""A moocow-interface Wordle player that breaks hard mode: it opens with the first word of the game
and then always plays the last, whatever the marks revealed. The marks must come as text."""

from moocow import load_game


def next_guess(game, history):
    words = load_game(game).guesses
    if history and not isinstance(history[-1][1], str):
        raise TypeError(f"marks come as text, not {history[-1][1]!r}")
    return load_game(game).format_code(words[-1] if history else words[0])
