"""Bulls and Cows with English words of distinct letters (Jotto-like), scored in bulls and cows."""

from __future__ import annotations

import string
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Codes, Game, check_space_size
from moocow.engine.params import Param
from moocow.plugins.hookspecs import hookimpl
from moocow.plugins.symbols import SymbolGame
from moocow.wordlists import file_words, playable, wordfreq_words


class Words(SymbolGame):
    """Guess a word of distinct letters; bulls = right letter in the right place, cows = elsewhere."""

    name = "words"
    code_noun = "word"
    summary = "Bulls and Cows with English words of distinct letters (bulls and cows)"
    params = (
        Param("length", int, 5, "letters in a word", minimum=1, maximum=15),
        Param("list", str, "small", "wordfreq English list", choices=("small", "large")),
        Param("zipf", float, 0.0, "keep wordfreq words at least this frequent (Zipf scale)", minimum=0.0),
        Param("file", str, None, "word file, one word per line, instead of the wordfreq list"),
    )
    feedback_fields = ("bulls", "cows")
    symbol_noun = "letter"
    distinct_symbols = True
    separated = False

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        if self.values["file"] is not None and self.values["zipf"] > 0:
            raise MoocowError(f"{self.spec}: zipf filters the wordfreq lists; it cannot apply to a word file")
        self.words: tuple[str, ...] = self._load_words()
        """The playable words, sorted and distinct: the secrets, as text."""

    @property
    def code_length(self) -> int:
        return int(self.values["length"])

    @property
    def alphabet(self) -> str:
        return string.ascii_lowercase

    def build_secrets(self) -> Codes:
        """The playable words as letter codes; alphabetical, so the codes are sorted too."""
        check_space_size(len(self.words), self.spec)
        letters = np.frombuffer("".join(self.words).encode("ascii"), np.uint8)
        return (letters - ord("a")).reshape(len(self.words), self.code_length)

    def _load_words(self) -> tuple[str, ...]:
        """Loaded when the game is made, so a bad file or an empty list is reported at once."""
        file = self.values["file"]
        if file is not None:
            source = file_words(file)
        else:
            source = wordfreq_words(self.values["list"], self.values["zipf"])
        words = _sorted_playable(source, self.code_length)
        if not words:
            where = f"word file {file!r}" if file is not None else f"the wordfreq {self.values['list']} list"
            raise MoocowError(f"{self.spec}: {where} has no word of {self.code_length} distinct letters a-z")
        return words


@lru_cache(maxsize=16)
def _sorted_playable(source: tuple[str, ...], length: int) -> tuple[str, ...]:
    """Filtering the large list takes ~50 ms; games are rebuilt often enough to keep the result."""
    return tuple(sorted(set(playable(source, length))))


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    """Make the word game available to the engine."""
    register(Words)
