"""Games whose codes are rows of one-character symbols: the text forms and default feedback.

Mastermind, Bulls and Cows, the word game and the bottle game differ in their alphabets,
in whether a symbol may repeat and in their spaces; reading and writing codes, and Bulls and
Cows scoring, are the same for all of them, so they live here once.
"""

from __future__ import annotations

from abc import abstractmethod
from functools import cached_property
from typing import ClassVar

import numpy as np

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.feedback import Counts, FeedbackModel
from moocow.engine.game import Codes, FeedbackForm, Game
from moocow.plugins.scoring import bulls_and_cows, bulls_and_cows_counts


class SymbolGame(Game):
    """A game written with one character per symbol and scored as bulls and cows by default."""

    symbol_noun: ClassVar[str] = "symbol"
    """What one symbol is called in messages: colour, digit, letter, bottle."""
    distinct_symbols: ClassVar[bool] = False
    """Whether a code may hold each symbol at most once."""
    separated: ClassVar[bool] = True
    """Whether whitespace and commas may stand between symbols (``1 1 2 2``, ``1,1,2,2``)."""

    @property
    @abstractmethod
    def alphabet(self) -> str:
        """The character of each symbol, in symbol order and in the case codes are written."""

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        """Bulls (same symbol, same place) and cows (common symbols elsewhere), packed."""
        return bulls_and_cows(guesses, secrets, len(self.alphabet))

    def feedback_form(self) -> FeedbackForm | None:
        """Bulls and cows, unless a subclass scores its own way."""
        if self.feedback_defined_by is not SymbolGame:
            return None
        return FeedbackForm(positional=True, symbols=len(self.alphabet))

    @cached_property
    def feedback_model(self) -> FeedbackModel:
        """Bulls and cows that can occur (``scoring.bulls_and_cows_counts``), symmetric in guess and
        secret; a subclass that scores its own way declares its own values."""
        if self.feedback_defined_by is not SymbolGame:
            return super().feedback_model
        packing = Counts(self.feedback_fields, self.code_length)
        counts = bulls_and_cows_counts(self.code_length, len(self.alphabet), self.distinct_symbols)
        return Counts(packing.fields, packing.length, map(packing.encode, counts), symmetric=True)

    def parse_code(self, text: str) -> np.ndarray:
        """Read one character per symbol, any case; say which character or count is wrong."""
        written = text.strip()
        shown = quoted(written)
        characters = [c for c in written if not (self.separated and (c.isspace() or c == ","))]
        unknown = next((c for c in characters if c not in self._symbol_of), None)
        if unknown is not None:
            raise MoocowError(
                f"{shown}: {unknown!r} is not a {self.symbol_noun} of {self.spec} "
                f"({self.symbol_noun}s are {describe_alphabet(self.alphabet)})"
            )
        if len(characters) != self.code_length:
            raise MoocowError(
                f"{shown} has {_count(len(characters), self.symbol_noun)}; "
                f"a {self.spec} code has {self.code_length}"
            )
        symbols = [self._symbol_of[c] for c in characters]
        if self.distinct_symbols:
            repeated = next((c for i, c in enumerate(characters) if symbols[i] in symbols[:i]), None)
            if repeated is not None:
                raise MoocowError(f"{shown}: {self.symbol_noun}s must be distinct ({repeated!r} repeats)")
        return np.array(symbols, np.uint8)

    def format_code(self, code: np.ndarray) -> str:
        """One character per symbol, no separators: what ``parse_code`` reads back."""
        return "".join(self.alphabet[symbol] for symbol in np.asarray(code).tolist())

    @cached_property
    def _symbol_of(self) -> dict[str, int]:
        """Character (either case) to symbol."""
        lookup = {c.lower(): index for index, c in enumerate(self.alphabet)}
        lookup.update({c.upper(): index for index, c in enumerate(self.alphabet)})
        return lookup


def describe_alphabet(alphabet: str) -> str:
    """Runs of consecutive characters, for people: ``1-9, A-F``."""
    runs: list[str] = []
    start = 0
    for index in range(1, len(alphabet) + 1):
        if index == len(alphabet) or ord(alphabet[index]) != ord(alphabet[index - 1]) + 1:
            first, last = alphabet[start], alphabet[index - 1]
            runs.append(first if first == last else f"{first}-{last}")
            start = index
    return ", ".join(runs)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
