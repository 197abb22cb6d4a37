"""Bulls and Cows with digits: codes of distinct symbols, scored in bulls and cows."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.game import Codes, Game, check_space_size
from moocow.engine.params import Param
from moocow.plugins.hookspecs import hookimpl
from moocow.plugins.spaces import permutation_space
from moocow.plugins.symbols import SymbolGame

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
"""How symbols are written: digits first, then letters for bases above ten."""


class Digits(SymbolGame):
    """Guess a number of distinct digits; bulls = right digit in the right place, cows = elsewhere."""

    name = "digits"
    code_noun = "number"
    summary = "Bulls and Cows: guess a number of distinct digits (bulls and cows)"
    params = (
        Param("length", int, 4, "digits in a code", minimum=1, maximum=10),
        Param(
            "symbols",
            int,
            10,
            "digits to choose from (above ten: a, b, c, ...; at least two)",
            minimum=2,
            maximum=36,
        ),
    )
    feedback_fields = ("bulls", "cows")
    symmetries = frozenset({"positions", "symbols"})
    symbol_noun = "digit"
    distinct_symbols = True

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        if self.values["length"] > self.values["symbols"]:
            raise MoocowError(
                f"{self.spec}: {self.values['length']} distinct digits need at least as many symbols, "
                f"not {self.values['symbols']}"
            )

    @property
    def code_length(self) -> int:
        return int(self.values["length"])

    @property
    def alphabet(self) -> str:
        return DIGITS[: self.values["symbols"]]

    def build_secrets(self) -> Codes:
        """Every arrangement of distinct digits, lexicographic."""
        check_space_size(math.perm(self.values["symbols"], self.code_length), self.spec)
        return permutation_space(self.values["symbols"], self.code_length)


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    """Make Bulls and Cows with digits available to the engine."""
    register(Digits)
