"""Jotto for moocow: find the secret five-letter word; a guess scores the letters it shares with it.

A complete game plugin to copy: a ``Game`` subclass, a ``register_games`` hook, and (in
``pyproject.toml``) the ``moocow`` entry point naming this module.

Why no word has an anagram in the list: moocow takes the feedback ``game.win`` (all five letters
in common) to mean the guess is the secret. With both ``least`` and ``steal`` in the list, either
would score five against the other and the game could not tell the word from its anagram. Leaving
out every word that shares its letters with another keeps the feedback one plain count, and five
means the exact word.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

from moocow import Codes, Game, MoocowError, hookimpl

ALPHABET = "abcdefghijklmnopqrstuvwxyz"
WORDS = Path(__file__).with_name("words.txt")
"""Five-letter words, no letter twice; a file beside the module so ``--plugin`` finds it too."""


class Jotto(Game):
    """Five-letter words with five different letters; feedback: letters in common, in any place."""

    name = "jotto"
    summary = "Find the five-letter word; each guess scores the letters it shares with the secret."
    feedback_fields = ("common",)

    @property
    def code_length(self) -> int:
        return 5

    def build_secrets(self) -> Codes:
        words = without_anagrams(WORDS.read_text().split())
        return np.array([[ALPHABET.index(letter) for letter in word] for word in words], dtype=np.uint8)

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        return (letter_sets(guesses) @ letter_sets(secrets).T).astype(np.uint8)

    def parse_code(self, text: str) -> np.ndarray:
        word = text.strip().lower()
        if len(word) != 5 or len(set(word)) != 5 or not set(word) <= set(ALPHABET):
            raise MoocowError(f"{text.strip()!r} is not a word of five different letters")
        return np.array([ALPHABET.index(letter) for letter in word], dtype=np.uint8)

    def format_code(self, code: np.ndarray) -> str:
        return "".join(ALPHABET[letter] for letter in code)


def without_anagrams(words: list[str]) -> list[str]:
    """The words, sorted, less those sharing their letters with another: five in common is a win."""
    counts = Counter(frozenset(word) for word in words)
    return sorted(word for word in words if counts[frozenset(word)] == 1)


def letter_sets(codes: Codes) -> np.ndarray:
    """A 0/1 row of 26 per word, so one matrix product counts the letters in common."""
    sets = np.zeros((len(codes), len(ALPHABET)), dtype=np.int32)
    np.put_along_axis(sets, codes.astype(np.intp), 1, axis=1)
    return sets


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    register(Jotto)
