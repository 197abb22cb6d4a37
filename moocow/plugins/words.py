"""Bulls and Cows with English words of distinct letters (Jotto-like), scored in bulls and cows."""

from __future__ import annotations

import string
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.game import Codes, Game
from moocow.engine.params import Param
from moocow.plugins.hookspecs import hookimpl
from moocow.plugins.spaces import word_space
from moocow.plugins.symbols import SymbolGame
from moocow.wordlists import alpha_words, english_words, game_file_words, playable, wordfreq_words
from moocow.wordlists.alpha import ALPHA_NAME


class Words(SymbolGame):
    """Guess a word of distinct letters; bulls = right letter in the right place, cows = elsewhere."""

    name = "words"
    code_noun = "word"
    summary = "Bulls and Cows with English words of distinct letters (bulls and cows)"
    params = (
        Param("length", int, 5, "letters in a word", minimum=1, maximum=15),
        Param(
            "list",
            str,
            "small",
            "wordfreq English list (dictionary words only), or alpha: the course's words_alpha.txt",
            choices=("small", "large", "alpha"),
        ),
        Param("zipf", float, 0.0, "keep wordfreq words at least this frequent (Zipf scale)", minimum=0.0),
        Param("file", str, None, "word file, one word per line, instead of the wordfreq list"),
    )
    feedback_fields = ("bulls", "cows")
    symbol_noun = "letter"
    distinct_symbols = True
    separated = False

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        if self.values["zipf"] > 0 and (self.values["file"] is not None or self.values["list"] == "alpha"):
            source = "a word file" if self.values["file"] is not None else "list=alpha"
            raise MoocowError(f"{self.spec}: zipf filters the wordfreq lists; it cannot apply to {source}")
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
        return word_space(self.words, self.code_length, self.spec)

    def _load_words(self) -> tuple[str, ...]:
        """Loaded when the game is made, so a bad file or an empty list is reported at once."""
        file = self.values["file"]
        if file is not None:
            words = game_file_words(file, self.code_length, distinct=True)
        elif self.values["list"] == "alpha":
            words = _sorted_playable(alpha_words(), self.code_length)
        else:
            words = _wordfreq_playable(self.values["list"], self.values["zipf"], self.code_length)
        if not words:
            length = self.code_length
            raise MoocowError(f"{self.spec}: {self._source} has no word of {length} distinct letters a-z")
        return words

    @property
    def _source(self) -> str:
        """Where the words come from, for people."""
        if self.values["file"] is not None:
            return f"word file {self.values['file']!r}"
        if self.values["list"] == "alpha":
            return f"the course's list ({ALPHA_NAME}, shipped with moocow)"
        floor = f" at Zipf {self.values['zipf']:g} or more" if self.values["zipf"] > 0 else ""
        return f"the English words of wordfreq's {self.values['list']} list{floor}"

    def not_a_guess(self, text: str) -> str:
        """A well-formed word that is not one of the game's words: say so, and which list it is."""
        return (
            f"{quoted(text)} is not in the game's word list "
            f"({len(self.words):,} words of {self.code_length} distinct letters from {self._source})"
        )


@lru_cache(maxsize=16)
def _wordfreq_playable(wordlist: str, zipf: float, length: int) -> tuple[str, ...]:
    """wordfreq's playable words that a dictionary knows (``wordlists.english``): no names."""
    return tuple(english_words(_sorted_playable(wordfreq_words(wordlist, zipf), length)))


@lru_cache(maxsize=16)
def _sorted_playable(source: tuple[str, ...], length: int) -> tuple[str, ...]:
    """Filtering the large list is slow, and games are rebuilt often enough to keep the result."""
    return tuple(sorted(set(playable(source, length))))


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    """Make the word game available to the engine."""
    register(Words)
