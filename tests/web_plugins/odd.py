"""Two games whose pieces the web pages cannot take for letters or digits, for tests/test_web_plugins.py:
``fruit``, tapped from an alphabet of emoji and HTML's own characters, and ``paint``, marked like
Wordle but written as colour words, so a code's text is not one character per place."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cached_property

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.feedback import Marks
from moocow.engine.game import Codes, Game
from moocow.plugins.hookspecs import hookimpl
from moocow.plugins.symbols import SymbolGame

PAINTS = ("red", "blue", "green")


class Fruit(SymbolGame):
    """Two pieces from six that HTML or a palette could trip on."""

    name = "fruit"
    summary = "Two fruits <b>or</b> signs; bulls and cows."
    symbol_noun = "fruit"
    code_length = 2

    @property
    def alphabet(self) -> str:
        return "🍎🍌<&'\""

    def build_secrets(self) -> Codes:
        return np.array(list(itertools.product(range(6), repeat=2)), dtype=np.uint8)


class Paint(Game):
    """Two different paints; each place marked green, yellow or grey."""

    name = "paint"
    summary = "Two paints, each place marked as Wordle marks a letter."
    code_length = 2

    @cached_property
    def feedback_model(self) -> Marks:
        return Marks(2)

    def build_secrets(self) -> Codes:
        return np.array(list(itertools.permutations(range(3), 2)), dtype=np.uint8)

    def build_guesses(self) -> Codes:
        return np.array(list(itertools.product(range(3), repeat=2)), dtype=np.uint8)

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        model = self.feedback_model
        values = np.zeros((len(guesses), len(secrets)), dtype=model.dtype)
        for row, guess in enumerate(guesses):
            for column, secret in enumerate(secrets):
                marks = [
                    2 if g == s else 1 if g in secret and g not in guess[:place] else 0
                    for place, (g, s) in enumerate(zip(guess, secret, strict=True))
                ]
                values[row, column] = model.encode(marks)
        return values

    def parse_code(self, text: str) -> np.ndarray:
        words = text.replace("-", " ").split()
        if len(words) != 2 or not set(words) <= set(PAINTS):
            raise MoocowError(f"{text.strip()!r} is not two paints of {', '.join(PAINTS)}")
        return np.array([PAINTS.index(word) for word in words], dtype=np.uint8)

    def format_code(self, code: np.ndarray) -> str:
        return "-".join(PAINTS[paint] for paint in code)


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    register(Fruit)
    register(Paint)
