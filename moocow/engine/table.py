"""The feedback of every guess against every secret, computed once per game.

Stored secrets x guesses, so the rows of a candidate set are one contiguous gather: that is the
access pattern of every heuristic. Within the memory budget the whole table is held; beyond it
the same rows are recomputed from the game's kernel in blocks, slower but with bounded memory.
The game keeps its table and the table refers to the game weakly, so a dropped game frees its
table (up to gigabytes) at once rather than at the next cyclic garbage collection.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterator

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game

DEFAULT_BUDGET = 2 * 2**30
"""Bytes a table may hold in memory unless ``MOOCOW_TABLE_BUDGET`` says otherwise; 8 bottles need 1.6 GB."""
BUDGET_VARIABLE = "MOOCOW_TABLE_BUDGET"
"""The environment variable that sets the budget, in bytes."""

BLOCK_BYTES = 32 * 2**20
"""Size of the temporaries one block of work may create."""


def table_budget() -> int:
    """The budget in bytes, read when a table is made so that a mistyped variable is one line, not a crash."""
    text = os.environ.get(BUDGET_VARIABLE)
    if text is None or not text.strip():
        return DEFAULT_BUDGET
    digits = text.strip().replace("_", "")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 30):
        raise MoocowError(f"{BUDGET_VARIABLE} must be a whole number of bytes, 0 or more, not {text!r}")
    return int(digits)


class FeedbackTable:
    """Feedback values ``[secret, guess]`` for one game, in memory or in blocks."""

    def __init__(self, game: Game, budget: int | None = None) -> None:
        budget = table_budget() if budget is None else budget
        self._game = weakref.ref(game)
        self.secret_count = len(game.secrets)
        self.guess_count = len(game.guesses)
        self.in_memory = self.secret_count * self.guess_count <= budget
        """Whether the whole table is held; otherwise rows are computed when asked for."""
        self._rows: np.ndarray | None = self._compute_all() if self.in_memory else None
        self.values = np.array(game.feedback_values(), dtype=np.uint8)
        """The feedback values the game can give, ascending: the values partitions are counted over."""

    @property
    def game(self) -> Game:
        """The game this is the table of (held weakly: the game holds its table, not the reverse)."""
        game = self._game()
        if game is None:
            raise ReferenceError("the game of this feedback table is gone: keep the game while using it")
        return game

    @classmethod
    def for_game(cls, game: Game) -> FeedbackTable:
        """The table of ``game``, computed on first use and kept with the game."""
        table = game.__dict__.get("_feedback_table")
        if table is None:
            table = game.__dict__["_feedback_table"] = cls(game)
        return table

    def rows_per_block(self) -> int:
        """How many secrets' rows fit in one block of temporaries."""
        return max(1, BLOCK_BYTES // max(1, self.guess_count))

    def blocks(self, secrets: np.ndarray) -> Iterator[np.ndarray]:
        """The rows of ``secrets`` in blocks of bounded size, each ``(k, guess_count)`` uint8."""
        step = self.rows_per_block()
        for start in range(0, len(secrets), step):
            yield self.rows(secrets[start : start + step])

    def rows(self, secrets: np.ndarray) -> np.ndarray:
        """Feedback of every guess against each of ``secrets``: ``(len(secrets), guess_count)``."""
        if self._rows is not None:
            return self._rows.take(secrets, axis=0)
        game = self.game
        return np.ascontiguousarray(game.feedback(game.guesses, game.secrets[secrets]).T)

    def column(self, guess: int, secrets: np.ndarray) -> np.ndarray:
        """Feedback of one guess against each of ``secrets``."""
        if self._rows is not None:
            return self._rows[secrets, guess]
        game = self.game
        return game.feedback(game.guesses[guess : guess + 1], game.secrets[secrets])[0]

    def _compute_all(self) -> np.ndarray:
        game = self.game
        table = np.empty((self.secret_count, self.guess_count), dtype=np.uint8)
        step = self.rows_per_block()
        for start in range(0, self.secret_count, step):
            stop = min(start + step, self.secret_count)
            table[start:stop] = game.feedback(game.guesses, game.secrets[start:stop]).T
        return table
