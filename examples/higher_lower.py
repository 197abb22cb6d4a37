"""Higher or lower for moocow: a one-file plugin whose feedback is a kind of its own, neither
counts nor marks, and whose strict play is a rule on guesses (``moocow --plugin
examples/higher_lower.py evaluate higher_lower``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property

import numpy as np

from moocow import Codes, FeedbackModel, Game, GuessRule, MoocowError, Param, hookimpl, quoted

LOWER, HIGHER, EQUAL = 0, 1, 2
WORDS = ("lower", "higher", "equal")
SIGNS = ("<", ">", "=")


class Direction(FeedbackModel):
    """Where the secret lies from the guess: three values, and ``equal`` wins. Not symmetric (the
    secret is lower than the guess when the guess is higher than the secret), and no relabelling
    keeps it: renaming numbers changes their order."""

    kind = "direction"
    part_names = WORDS  # the page's legend and score buttons say these, not 0, 1, 2
    size = 3
    win = EQUAL
    symmetric = False
    invariant_under = frozenset()

    def values(self) -> tuple[int, ...]:
        return (LOWER, HIGHER, EQUAL)

    def format(self, value: int) -> str:
        return WORDS[value]

    def parse(self, text: str) -> int:
        typed = text.strip().lower()
        for value, (word, sign) in enumerate(zip(WORDS, SIGNS, strict=True)):
            if typed in (word, word[0], sign):
                return value
        raise MoocowError(f"feedback {quoted(text)} is not a direction ({self.describe()})")

    def parts(self, value: int) -> tuple[int, ...]:
        return (int(value),)

    def encode(self, parts: Sequence[int]) -> int:
        return int(parts[0])

    def describe(self) -> str:
        return "lower, higher or equal: where the secret is from the guess (also l h e, < > =)"


class HigherLower(Game):
    """Find a number from 1 to n; each guess is told whether the secret is lower or higher."""

    name = "higher_lower"
    summary = "Higher or lower: find a number from 1 to n, told which way it lies."
    params = (
        Param("n", int, 100, "the largest number", minimum=2, maximum=256),
        Param("strict", bool, False, "each guess must lie where the answers so far put the secret"),
    )
    code_noun = "number"
    code_length = 1
    feedback_model = Direction()

    def build_secrets(self) -> Codes:
        return np.arange(self.values["n"], dtype=np.uint8)[:, None]

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        guess, secret = guesses[:, None, 0], secrets[None, :, 0]
        return np.where(secret == guess, EQUAL, np.where(secret < guess, LOWER, HIGHER)).astype(np.uint8)

    def parse_code(self, text: str) -> np.ndarray:
        typed = text.strip()
        if not (typed.isascii() and typed.isdigit() and 1 <= int(typed) <= self.values["n"]):
            raise MoocowError(f"{quoted(text)} is not a number from 1 to {self.values['n']}")
        return np.array([int(typed) - 1], dtype=np.uint8)

    def format_code(self, code: np.ndarray) -> str:
        return str(int(code[0]) + 1)

    def pieces(self) -> Sequence[str]:
        """Every number a key on the phone page, past the 36 symbols a game gets by default."""
        return [str(number) for number in range(1, self.values["n"] + 1)]

    @cached_property
    def guess_rule(self) -> GuessRule | None:
        """Strict play's rule, with ``strict=true``."""
        return Inside(self) if self.values["strict"] else None


class Inside(GuessRule):
    """Strict play: each guess lies on the side of every earlier guess that its answer pointed to.
    The secret always does, so a player is never left without a guess."""

    name = "strict play"

    def __init__(self, game: HigherLower) -> None:
        self._numbers = game.guesses[:, 0]

    def after(self, code: np.ndarray, feedback: int) -> np.ndarray:
        if feedback == LOWER:
            return self._numbers < code[0]
        if feedback == HIGHER:
            return self._numbers > code[0]
        return self._numbers == code[0]

    def why_not(self, code: np.ndarray, feedback: int, guess: np.ndarray) -> str | None:
        if self.after(code, feedback)[guess[0]]:  # a number's guess index is its symbol
            return None
        return f"{code[0] + 1} was answered {WORDS[feedback]}"


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    register(HigherLower)
