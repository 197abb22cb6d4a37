"""Mastermind: pegs of coloured code, repeats allowed, scored in black and white pegs."""

from __future__ import annotations

from collections.abc import Callable

from moocow.engine.game import Codes, Game, check_space_size
from moocow.engine.params import Param
from moocow.plugins.hookspecs import hookimpl
from moocow.plugins.spaces import product_space
from moocow.plugins.symbols import SymbolGame

COLOURS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""How colours are written: Knuth's ``1122`` is colours 0, 0, 1, 1."""


class Mastermind(SymbolGame):
    """Guess a row of coloured pegs; black = right colour in the right place, white = elsewhere."""

    name = "mastermind"
    summary = "Mastermind: guess the colours of the pegs, repeats allowed (black and white pegs)"
    params = (
        Param("pegs", int, 4, "pegs in a code", minimum=1, maximum=15),
        Param(
            "colors",
            int,
            6,
            "colours a peg may take (one colour leaves nothing to find)",
            minimum=2,
            maximum=len(COLOURS),
        ),
    )
    feedback_fields = ("black", "white")
    symmetries = frozenset({"positions", "symbols"})
    symbol_noun = "colour"

    @property
    def code_length(self) -> int:
        return int(self.values["pegs"])

    @property
    def alphabet(self) -> str:
        return COLOURS[: self.values["colors"]]

    def build_secrets(self) -> Codes:
        """Every colouring in lexicographic order.

        The size is checked here, not in ``__init__``: a game too big to enumerate can still be
        refereed code by code.
        """
        check_space_size(self.values["colors"] ** self.code_length, self.spec)
        return product_space(self.values["colors"], self.code_length)


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    """Make Mastermind available to the engine."""
    register(Mastermind)
