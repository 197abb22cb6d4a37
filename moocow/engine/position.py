"""A position in a game: the guesses made, the feedback received, the secrets still possible."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.table import FeedbackTable


@dataclass(frozen=True, eq=False)
class Position:
    """What a codebreaker knows: immutable, so a search can branch from it freely."""

    game: Game
    """The game being played."""
    table: FeedbackTable
    """The game's feedback table."""
    candidates: np.ndarray
    """Indices of the secrets consistent with every feedback so far, ascending."""
    history: tuple[tuple[int, int], ...] = field(default=())
    """The ``(guess index, feedback)`` pairs so far."""

    @classmethod
    def start(cls, game: Game, table: FeedbackTable | None = None) -> Position:
        """The position before the first guess: every secret is possible."""
        table = table or FeedbackTable.for_game(game)
        return cls(game, table, np.arange(table.secret_count, dtype=np.int64))

    @property
    def solved(self) -> bool:
        """Whether the last guess was answered with the winning feedback."""
        return bool(self.history) and self.history[-1][1] == self.game.win

    @property
    def last_guess(self) -> int | None:
        """The guess index played last, if any."""
        return self.history[-1][0] if self.history else None

    @cached_property
    def candidate_guesses(self) -> np.ndarray:
        """The candidates as guess indices (ascending when the spaces share an order)."""
        return self.game.secret_guess_index[self.candidates]

    def feedback_to(self, guess: int) -> np.ndarray:
        """The feedback each candidate would give to ``guess``."""
        return self.table.column(guess, self.candidates)

    def after(self, guess: int, feedback: int) -> Position:
        """The position once ``guess`` got ``feedback``; feedback no candidate could give is refused."""
        remaining = self.candidates[self.feedback_to(guess) == feedback]
        if feedback == self.game.win:
            remaining = remaining[self.game.secret_guess_index[remaining] == guess]
        if len(remaining) == 0:
            shown = self.game.format_feedback(feedback)
            code = self.game.format_code(self.game.guesses[guess])
            raise MoocowError(
                f"feedback {shown} to {code} is impossible: no secret fits all the feedback so far"
            )
        return Position(self.game, self.table, remaining, (*self.history, (guess, feedback)))
