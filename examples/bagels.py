"""Pico Fermi Bagels for moocow: a one-file plugin with a parameter, guesses that are not secrets,
symmetries and a noun of its own (``moocow --plugin examples/bagels.py evaluate bagels``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from moocow import Codes, Game, MoocowError, Param, hookimpl

DIGITS = "0123456789"


class Bagels(Game):
    """The secret has distinct digits; a guess may repeat them. Fermi: a digit in its place;
    pico: a digit of the secret in another place (each place of the guess counted once)."""

    name = "bagels"
    summary = "Pico Fermi Bagels: find a number of distinct digits; guesses may repeat digits."
    params = (Param("length", int, 3, "digits in the number", minimum=1, maximum=5),)
    feedback_fields = ("fermi", "pico")
    code_noun = "number"
    symmetries = frozenset({"positions", "symbols"})

    @property
    def code_length(self) -> int:
        return int(self.values["length"])

    def build_secrets(self) -> Codes:
        return np.array(list(itertools.permutations(range(10), self.code_length)), dtype=np.uint8)

    def build_guesses(self) -> Codes:
        return np.array(list(itertools.product(range(10), repeat=self.code_length)), dtype=np.uint8)

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        fermi = sum(guesses[:, [place]] == secrets[:, place] for place in range(self.code_length))
        in_secret = np.zeros((len(secrets), 10), dtype=np.int32)
        np.put_along_axis(in_secret, secrets.astype(np.intp), 1, axis=1)
        held = np.stack([np.bincount(guess, minlength=10) for guess in guesses]) @ in_secret.T
        return (fermi * (self.code_length + 1) + held - fermi).astype(np.uint8)

    def parse_code(self, text: str) -> np.ndarray:
        code = text.strip()
        if len(code) != self.code_length or not set(code) <= set(DIGITS):
            raise MoocowError(f"{code!r} is not a number of {self.code_length} digits")
        return np.array([DIGITS.index(digit) for digit in code], dtype=np.uint8)

    def format_code(self, code: np.ndarray) -> str:
        return "".join(DIGITS[digit] for digit in code)


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    register(Bagels)
