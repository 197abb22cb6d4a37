"""Mastermind with a mark per peg, as Wordle marks letters: a plugin whose feedback is not counts.

Each peg of a guess is marked green (right colour, right place), yellow (a colour of the secret,
elsewhere) or grey (not in the secret, or already accounted for). The secret's colours are all
different; a guess may repeat them, so the guesses (every row of colours) are not the secrets.
A complete package to copy, like ``examples/jotto``: a ``Game`` subclass, a ``register_games`` hook
and (in ``pyproject.toml``) the ``moocow`` entry point naming this module.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cached_property
from typing import Any

import numpy as np

from moocow import Codes, Game, Marks, MoocowError, Param, hookimpl

COLOURS = "123456789"
GREY, YELLOW, GREEN = 0, 1, 2
"""The marks, as ``Marks`` numbers them."""


class MarksMastermind(Game):
    """A secret of different colours; each peg of a guess gets a mark of its own."""

    name = "marks_mastermind"
    summary = "Mastermind with a mark per peg (green, yellow, grey); the secret's colours differ."
    params = (
        Param("pegs", int, 4, "pegs in a code", minimum=1, maximum=6),
        Param("colors", int, 6, "colours a peg may take", minimum=2, maximum=len(COLOURS)),
    )
    symmetries = frozenset({"symbols"})

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        if self.values["pegs"] > self.values["colors"]:
            raise MoocowError(f"{self.spec}: a secret of different colours needs pegs <= colors")

    @property
    def code_length(self) -> int:
        return int(self.values["pegs"])

    @cached_property
    def feedback_model(self) -> Marks:
        """A mark per peg; ``Marks`` types, shows and packs them (``GYBB``)."""
        return Marks(self.code_length)

    def build_secrets(self) -> Codes:
        colours = range(self.values["colors"])
        return np.array(list(itertools.permutations(colours, self.code_length)), dtype=np.uint8)

    def build_guesses(self) -> Codes:
        colours = range(self.values["colors"])
        return np.array(list(itertools.product(colours, repeat=self.code_length)), dtype=np.uint8)

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        return pack(self.feedback_model, peg_marks(guesses, secrets, self.values["colors"]))

    def parse_code(self, text: str) -> np.ndarray:
        code = text.strip()
        colours = COLOURS[: self.values["colors"]]
        if len(code) != self.code_length or not set(code) <= set(colours):
            raise MoocowError(f"{code!r} is not {self.code_length} colours from {colours}")
        return np.array([COLOURS.index(colour) for colour in code], dtype=np.uint8)

    def format_code(self, code: np.ndarray) -> str:
        return "".join(COLOURS[colour] for colour in code)


def peg_marks(guesses: Codes, secrets: Codes, colours: int) -> np.ndarray:
    """The mark of each peg, shape ``(guesses, secrets, pegs)``. The secret holds a colour at most
    once, so Wordle's rule comes down to: green in place; else yellow on the guess's first peg of a
    colour the secret has, unless that colour is green elsewhere in the guess; else grey."""
    pegs = guesses.shape[1]
    place_in_secret = np.full((len(secrets), colours), -1)
    np.put_along_axis(place_in_secret, secrets.astype(np.intp), np.arange(pegs)[None, :], axis=1)
    where = place_in_secret[:, guesses].transpose(1, 0, 2)  # (guesses, secrets, pegs); -1: absent
    green = guesses[:, None, :] == secrets[None, :, :]
    guess_there = np.take_along_axis(
        np.broadcast_to(guesses[:, None, :], where.shape), np.maximum(where, 0), axis=2
    )
    green_elsewhere = guess_there == guesses[:, None, :]
    first = np.argmax(guesses[:, :, None] == guesses[:, None, :], axis=2) == np.arange(pegs)
    yellow = ~green & (where >= 0) & ~green_elsewhere & first[:, None, :]
    return np.where(green, GREEN, np.where(yellow, YELLOW, GREY))


def pack(model: Marks, marks: np.ndarray) -> np.ndarray:
    """Every row of marks as the model's value. The model owns the packing: its value of one mark
    per place gives that place's weight, so no base is written here."""
    pegs = marks.shape[-1]
    weights = np.array([model.encode(np.eye(pegs, dtype=int)[place]) for place in range(pegs)])
    return (marks @ weights).astype(model.dtype)


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    register(MarksMastermind)
