"""A position in a game: the guesses made, the feedback received, the secrets still possible."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.table import FeedbackTable


def wins(game: Game, feedback: int) -> bool:
    """Whether ``feedback`` ends the game: it is the winning value of the game's feedback model.

    The one rule for a win (``Position.after`` and ``solved`` ask it, and so do the referee, the
    player tree and a game against the computer): never a comparison of texts or of indices, since
    the loaded games are checked to give the win to the secret itself only
    (``checks.check_winning_answer``)."""
    return feedback == game.feedback_model.win


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
    outside: tuple[tuple[bytes, int], ...] = field(default=())
    """Guesses played that are no guess of the game (a word outside its list, at a real table):
    each code's bytes and its feedback. The game's ``feedback`` scores them as any code, so they
    narrow the candidates; no guess index names them, so nothing that reasons about the guesses
    played (symmetries, a saved tree) may assume the history is all there was."""
    last_outside: bool = False
    """Whether the last entry was one of ``outside``."""
    allowed: np.ndarray | None = None
    """Mask of the guesses the game's rule still allows (``Game.guess_rule``; ``None``: every guess)."""

    @classmethod
    def start(cls, game: Game, table: FeedbackTable | None = None) -> Position:
        """The position before the first guess: every secret is possible."""
        table = table or FeedbackTable.for_game(game)
        return cls(game, table, np.arange(table.secret_count, dtype=np.int64))

    @property
    def solved(self) -> bool:
        """Whether the last guess was answered with the winning feedback."""
        return bool(self.history) and not self.last_outside and wins(self.game, self.history[-1][1])

    @property
    def is_start(self) -> bool:
        """Whether nothing has been played yet: every secret possible, by every symmetry alike."""
        return not self.history and not self.outside

    @property
    def last_guess(self) -> int | None:
        """The guess index played last, if any (``None`` after a guess outside the game's)."""
        return self.history[-1][0] if self.history and not self.last_outside else None

    @property
    def last_code(self) -> np.ndarray | None:
        """The code played last, in the game's guesses or not, if any."""
        if self.last_outside:
            return np.frombuffer(self.outside[-1][0], dtype=np.uint8)
        return None if not self.history else self.game.guesses[self.history[-1][0]]

    @cached_property
    def candidate_guesses(self) -> np.ndarray:
        """The candidates as guess indices (ascending when the spaces share an order)."""
        return self.game.secret_guess_index[self.candidates]

    def feedback_to(self, guess: int) -> np.ndarray:
        """The feedback each candidate would give to ``guess``."""
        return self.table.column(guess, self.candidates)

    @cached_property
    def legal_guesses(self) -> np.ndarray | None:
        """Indices of the guesses the rule allows, ascending (``None``: every guess)."""
        return None if self.allowed is None else np.flatnonzero(self.allowed)

    def rule_key(self) -> bytes:
        """The rule's state, for caches keyed by the candidates (empty without a rule)."""
        rule = self.game.guess_rule
        return b"" if rule is None else rule.state_key(self.allowed)

    def check_legal(self, guess: int) -> None:
        """Refuse, in one line, a guess the game's rule forbids here (Wordle's hard mode)."""
        if self.allowed is None or self.allowed[guess]:
            return
        rule = self.game.guess_rule
        assert rule is not None
        code = self.game.guesses[guess]
        played = [(self.game.guesses[index], value) for index, value in self.history]
        played += [(np.frombuffer(bytes_, dtype=np.uint8), value) for bytes_, value in self.outside]
        reason = next(
            (why for earlier, value in played if (why := rule.why_not(earlier, value, code)) is not None),
            "it breaks the rule",
        )
        raise MoocowError(f"{self.game.format_code(code)} is not allowed in {rule.name}: {reason}")

    def allowed_after(self, code: np.ndarray, feedback: int) -> np.ndarray | None:
        """The rule's mask once ``code`` got ``feedback`` here (``None``: the game has no rule)."""
        rule = self.game.guess_rule
        if rule is None:
            return None
        legal = rule.after(code, feedback)
        return legal if self.allowed is None else self.allowed & legal

    def after(self, guess: int, feedback: int) -> Position:
        """The position once ``guess`` got ``feedback``; feedback no candidate could give is refused.
        The winning feedback (``wins``) leaves the guess itself, solved."""
        remaining = self.candidates[self.feedback_to(guess) == feedback]
        if wins(self.game, feedback):
            remaining = remaining[self.game.secret_guess_index[remaining] == guess]
        if len(remaining) == 0:
            shown = self.game.format_feedback(feedback)
            code = self.game.format_code(self.game.guesses[guess])
            raise MoocowError(
                f"feedback {shown} to {code} is impossible: no secret fits all the feedback so far"
            )
        allowed = self.allowed_after(self.game.guesses[guess], feedback)
        history = (*self.history, (guess, feedback))
        return Position(self.game, self.table, remaining, history, self.outside, allowed=allowed)

    def after_outside(self, code: np.ndarray, feedback: int) -> Position:
        """The position once ``code``, a well-formed code that is no guess of the game, got
        ``feedback``: scored against each candidate by the game's own ``feedback``. Only the secret
        itself scores the win, and a code outside the guesses is no secret: the win is refused."""
        code = np.asarray(code, dtype=np.uint8)
        scores = self.game.feedback(code[None, :], self.game.secrets[self.candidates])[0]
        won = wins(self.game, feedback)
        remaining = self.candidates[scores == feedback] if not won else self.candidates[:0]
        if len(remaining) == 0:
            shown = self.game.format_feedback(feedback)
            why = (
                "it is not in the game's list, so it is not the secret"
                if won
                else ("no secret fits all the feedback so far")
            )
            raise MoocowError(f"feedback {shown} to {self.game.format_code(code)} is impossible: {why}")
        outside = (*self.outside, (code.tobytes(), feedback))
        allowed = self.allowed_after(code, feedback)
        return Position(
            self.game, self.table, remaining, self.history, outside, last_outside=True, allowed=allowed
        )
