"""Words for counts, for every layer that writes English: the engine's errors, the runner's
reports, the terminal and the web say "1 guess" and "2 guesses" the same way, from one place
below all of them."""

from __future__ import annotations


def plural(count: int, word: str) -> str:
    """``word`` as ``count`` of it reads: 1 guess, 2 guesses; 1 secret, 0 secrets."""
    if count == 1:
        return word
    return word + ("es" if word.endswith("s") else "s")
