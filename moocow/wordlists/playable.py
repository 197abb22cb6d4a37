"""Which words the word game can use: lower-case a-z, no letter twice, a given length."""

from __future__ import annotations

from collections.abc import Iterable


def is_playable(word: str, length: int) -> bool:
    """True for ``length`` distinct lower-case letters a-z (Bulls and Cows needs distinct letters)."""
    return (
        len(word) == length
        and word.isascii()
        and word.isalpha()
        and word.islower()
        and len(set(word)) == length
    )


def playable(words: Iterable[str], length: int) -> list[str]:
    """The playable words, lower-cased first, in the given order, duplicates kept.

    Lists may capitalise (``Crane``) and guesses are read in any case, so case never excludes a
    word; the order is kept so a caller can still draw secrets in file order.
    """
    return [word for word in map(str.lower, words) if is_playable(word, length)]
