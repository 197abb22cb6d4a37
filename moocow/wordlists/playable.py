"""Which words a word game can use: lower-case a-z of a given length, and for Bulls and Cows no
letter twice (Wordle's words may repeat letters)."""

from __future__ import annotations

from collections.abc import Iterable


def is_spelled(word: str, length: int) -> bool:
    """True for ``length`` lower-case letters a-z."""
    return len(word) == length and word.isascii() and word.isalpha() and word.islower()


def is_playable(word: str, length: int) -> bool:
    """True for ``length`` distinct lower-case letters a-z (Bulls and Cows needs distinct letters)."""
    return is_spelled(word, length) and len(set(word)) == length


def spelled(words: Iterable[str], length: int) -> list[str]:
    """The words of ``length`` letters a-z, lower-cased first, in the given order (Wordle's)."""
    return [word for word in map(str.lower, words) if is_spelled(word, length)]


def playable(words: Iterable[str], length: int) -> list[str]:
    """The playable words, lower-cased first, in the given order, duplicates kept.

    Lists may capitalise (``Crane``) and guesses are read in any case, so case never excludes a
    word; the order is kept so a caller can still draw secrets in file order.
    """
    return [word for word in map(str.lower, words) if is_playable(word, length)]
