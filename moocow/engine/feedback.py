"""A game's feedback as one small object: how many values there are, which one wins, how each is
typed and shown, and how it is packed.

The engine, the strategies, the exact search and the runner see feedback only as integers below
``FeedbackModel.size``; what an integer means lives here, once per game (python-chess keeps its
``Move`` the same way: one class reads, writes and packs it). Two kinds are built in:

- ``Counts``: a tuple of counts, one per field (bulls and cows, black and white pegs, bottles in
  place), packed in base ``length + 1``, most significant field first. These are the integers
  moocow has always used, so saved trees, proof stores and results files stay valid.
- ``Marks``: a mark per position (Wordle's grey, yellow, green), packed in base 3, the first
  position most significant.

A plugin may declare any other kind by subclassing ``FeedbackModel``.
"""

from __future__ import annotations

import itertools
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import ClassVar

import numpy as np

from moocow.engine.counts_text import read_counts
from moocow.engine.errors import MoocowError, quoted
from moocow.engine.faults import guard_own_methods

RELABELLINGS = frozenset({"positions", "symbols"})
"""The relabellings a game may declare (``Game.symmetries``)."""
MODEL_METHODS = ("values", "format", "parse", "parts", "encode", "describe", "checked")
"""A model's methods, guarded in a plugin's own model (``engine.faults``)."""


class FeedbackModel(ABC):
    """The feedback values of one game: integers ``0 .. size - 1``, of which ``win`` ends a game."""

    kind: ClassVar[str]
    """``counts``, ``marks`` or a plugin's own word: how the runner's protocol and the web page
    present a value (``parts``)."""

    size: int
    """Exclusive bound of the values: tables and histograms are indexed by them."""
    win: int
    """The value of a guess equal to the secret."""
    symmetric: bool
    """Whether ``feedback(a, b) == feedback(b, a)`` for every pair: fast paths that swap the roles
    of guess and secret check this first."""
    invariant_under: frozenset[str]
    """The relabellings (applied to guess and secret alike) that leave every value unchanged:
    counts carry no places, so permuting the places can keep them; marks move with their places."""
    part_names: ClassVar[tuple[str, ...]] = ()
    """What each value of a part is called (a plugin's own kind: ``("lower", "higher", "equal")``),
    so that pages show a legend and label each score in the kind's own words; empty: a value is
    shown as ``format`` writes it, with ``describe`` for a legend."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A plugin's own model is someone else's code: whatever its methods raise is one line."""
        super().__init_subclass__(**kwargs)
        if not cls.__module__.startswith("moocow.engine."):
            guard_own_methods(cls, MODEL_METHODS, "feedback_model.")

    @cached_property
    def dtype(self) -> np.dtype:
        """The narrowest unsigned type holding every value: tables of 243 Wordle marks are bytes."""
        return np.dtype(np.uint8 if self.size <= 256 else np.uint16 if self.size <= 65536 else np.uint32)

    @abstractmethod
    def values(self) -> tuple[int, ...]:
        """Every value the game can give, ascending (the values partitions are counted over)."""

    @abstractmethod
    def format(self, value: int) -> str:
        """A value as people read it; ``parse`` reads it back."""

    @abstractmethod
    def parse(self, text: str) -> int:
        """A value as people type it, or ``MoocowError`` saying what is wrong or impossible."""

    @abstractmethod
    def parts(self, value: int) -> tuple[int, ...]:
        """The value's parts: one count per field, or one mark per position."""

    @abstractmethod
    def encode(self, parts: Sequence[int]) -> int:
        """The value of these parts (``parts``'s inverse)."""

    @abstractmethod
    def describe(self) -> str:
        """How a value is typed, for help and error messages."""

    @cached_property
    def possible(self) -> frozenset[int]:
        """``values()`` as a set, for checks."""
        return frozenset(self.values())

    def checked(self, value: int, text: str) -> int:
        """``value`` if some guess can get it, else the one-line reason (shared by every kind)."""
        if value not in self.possible:
            raise MoocowError(f"feedback {quoted(text)} is impossible: no guess gets it")
        return value


class Counts(FeedbackModel):
    """One count per field, each ``0 .. length``, packed in base ``length + 1``: ``2B1W`` is
    ``2 * 5 + 1`` in Mastermind 4x6."""

    kind = "counts"

    def __init__(
        self,
        fields: Sequence[str],
        length: int,
        possible: Iterable[int] | None = None,
        symmetric: bool = False,
    ) -> None:
        self.fields = tuple(fields)
        """Names of the counts, most significant first; the first is the win count."""
        self.length = int(length)
        """The code length: each count lies in ``0 .. length``."""
        self.base = self.length + 1
        """The radix of the packing."""
        self.size = self.base ** len(self.fields)
        self.win = self.encode((self.length,) + (0,) * (len(self.fields) - 1))
        self.symmetric = symmetric
        self.invariant_under = RELABELLINGS
        self._values = None if possible is None else tuple(sorted({int(value) for value in possible}))

    def encode(self, counts: Sequence[int]) -> int:
        """Pack per-field counts into one integer."""
        value = 0
        for count in counts:
            value = value * self.base + int(count)
        return value

    def parts(self, value: int) -> tuple[int, ...]:
        counts = []
        value = int(value)
        for _ in self.fields:
            value, count = divmod(value, self.base)
            counts.append(count)
        return tuple(reversed(counts))

    def values(self) -> tuple[int, ...]:
        """The values declared, or else every tuple of counts adding up to at most the length."""
        if self._values is None:
            self._values = tuple(
                sorted(
                    self.encode(counts)
                    for counts in itertools.product(range(self.base), repeat=len(self.fields))
                    if sum(counts) <= self.length
                )
            )
        return self._values

    def format(self, value: int) -> str:
        """``3`` for one field; ``1B2C`` (the fields' initials) for several."""
        counts = self.parts(value)
        if len(counts) == 1:
            return str(counts[0])
        initials = (field[0].upper() for field in self.fields)
        return "".join(f"{count}{initial}" for count, initial in zip(counts, initials, strict=True))

    def parse(self, text: str) -> int:
        """``2 1``, ``2,1``, ``21`` or labelled, ``2B1W`` (``engine.counts_text``)."""
        counts = read_counts(text, self.fields, single_digits=self.length < 10)
        if sum(counts) > self.length:
            raise MoocowError(
                f"feedback {quoted(text)} is impossible: the counts add up to more than {self.length}"
            )
        return self.checked(self.encode(counts), text)

    def describe(self) -> str:
        return f"{len(self.fields)} count{'s' if len(self.fields) > 1 else ''} ({', '.join(self.fields)})"


MARK_NAMES = ("grey", "yellow", "green")
"""The marks, by value: absent, present elsewhere, in place."""
MARK_LETTERS = "BYG"
"""How marks are written: B (grey, once 'black'), Y, G."""
_MARK_OF = {
    **{letter: mark for mark, letter in enumerate(MARK_LETTERS)},
    **{letter.lower(): mark for mark, letter in enumerate(MARK_LETTERS)},
    "-": 0, ".": 0, "x": 0, "X": 0, "0": 0, "1": 1, "2": 2,
    "\u2b1b": 0, "\u2b1c": 0, "\U0001f7e8": 1, "\U0001f7e9": 2,  # the tiles people share
}  # fmt: skip
"""Every character a mark may be typed as: ``GYB``, ``-``/``.`` for grey, ``2``/``1``/``0``, lower case,
and the coloured squares of a shared result. ``Marks.describe`` names them all from here."""
_SEPARATORS = re.compile(r"[\s,]+")
"""What may stand between marks, and is ignored: spaces and commas (``G,Y,B``, ``G Y B``)."""


class Marks(FeedbackModel):
    """A mark per position, packed in base 3 with the first position most significant:
    ``GYBBB`` is ``2 * 81 + 1 * 27``; the win, all green, is ``3 ** length - 1``."""

    kind = "marks"
    part_names = MARK_NAMES

    def __init__(self, length: int) -> None:
        self.length = int(length)
        """Positions, each marked."""
        self.size = 3**self.length
        self.win = self.size - 1
        self.symmetric = False
        self.invariant_under = frozenset({"symbols"})

    def encode(self, marks: Sequence[int]) -> int:
        """Pack marks (0 grey, 1 yellow, 2 green), first position first."""
        value = 0
        for mark in marks:
            value = value * 3 + int(mark)
        return value

    def parts(self, value: int) -> tuple[int, ...]:
        marks = []
        value = int(value)
        for _ in range(self.length):
            value, mark = divmod(value, 3)
            marks.append(mark)
        return tuple(reversed(marks))

    def values(self) -> tuple[int, ...]:
        """Every pattern but those with one yellow beside all the other places green: that letter's
        place would hold the guess's letter and the answer's, which differ."""
        return tuple(value for value in range(self.size) if not self._one_misplaced(self.parts(value)))

    def _one_misplaced(self, marks: tuple[int, ...]) -> bool:
        return marks.count(1) == 1 and marks.count(2) == self.length - 1

    def format(self, value: int) -> str:
        return "".join(MARK_LETTERS[mark] for mark in self.parts(value))

    def read(self, text: str) -> tuple[int, ...]:
        """The marks as typed, in any spelling ``describe`` names, whatever their pattern: the page
        reads a pattern being tapped with it (a lone yellow among greens passed through on the way),
        ``parse`` the one entered."""
        written = _SEPARATORS.sub("", text.strip())
        unknown = next((c for c in written if c not in _MARK_OF), None)
        if unknown is not None:
            raise MoocowError(f"feedback {quoted(text)}: {unknown!r} is not a mark ({self.describe()})")
        if len(written) != self.length:
            raise MoocowError(
                f"feedback {quoted(text)} has {len(written)} marks; "
                f"expected {self.length} ({self.describe()})"
            )
        return tuple(_MARK_OF[c] for c in written)

    def parse(self, text: str) -> int:
        marks = self.read(text)
        if self._one_misplaced(marks):
            raise MoocowError(
                f"feedback {quoted(text)} is impossible: a lone yellow beside {self.length - 1} greens"
            )
        return self.checked(self.encode(marks), text)

    def describe(self) -> str:
        """Every spelling ``parse`` takes, read from its own table (``_MARK_OF``), so none is left unsaid."""
        example = ("GYB" + "B" * self.length)[: self.length]
        others: dict[int, list[str]] = {}
        for typed, mark in _MARK_OF.items():
            if typed != MARK_LETTERS[mark]:
                others.setdefault(mark, []).append(typed)
        spelled = ", ".join(
            f"{MARK_LETTERS[mark]} {MARK_NAMES[mark]} (or {' '.join(others[mark])})"
            for mark in sorted(others, reverse=True)
        )
        ignored = "spaces or commas between marks are ignored"
        return f"one mark per place: {spelled}; {ignored}; e.g. {example}"
