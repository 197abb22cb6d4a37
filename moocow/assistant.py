"""Help at the table: you make the guesses, it keeps track of what is still possible.

The assistant of the bottle-game notes, for any game: record each guess and the score it got,
see how many codes remain (listed when few), get a suggested next guess, take entries back.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.game import Game
from moocow.engine.position import Position
from moocow.engine.strategies import Strategy


class Assistant:
    """A stack of positions: recording pushes one, ``undo`` pops one, a refused entry changes nothing."""

    def __init__(self, game: Game, strategy: Strategy) -> None:
        self.game = game
        self.strategy = strategy
        self._positions = [Position.start(game)]

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def remaining(self) -> int:
        """How many codes are still possible."""
        return len(self.position.candidates)

    @property
    def solved(self) -> bool:
        """Whether the last entry was the winning feedback."""
        return self.position.solved

    def record(self, guess: str, feedback: str) -> Position:
        """Add a guess and its feedback; impossible or malformed input raises ``MoocowError``."""
        guess_index = self.game.guess_index(guess)
        value = self.game.parse_feedback(feedback)
        self._positions.append(self.position.after(guess_index, value))
        return self.position

    def undo(self) -> bool:
        """Take back the last entry; ``False`` when there is none."""
        if len(self._positions) == 1:
            return False
        self._positions.pop()
        return True

    def suggestion(self) -> str:
        """The strategy's next guess, as people write it."""
        return self.game.format_code(self.game.guesses[self.strategy.decide(self.position)])

    def suggestion_note(self) -> str | None:
        """Why the suggestion is a quick one (scored on fewer guesses to fit the budget), if it is."""
        self.strategy.decide(self.position)
        note = self.strategy.note(self.position)
        return None if note is None else str(note)

    def suggestion_is_possible(self) -> bool:
        """Whether the suggestion could be the secret: minimax may suggest one that cannot, to split more."""
        return bool((self.position.candidate_guesses == self.strategy.decide(self.position)).any())

    def earlier_entry(self) -> int | None:
        """The number of an earlier entry with the same guess as the last one, if any."""
        if not self.position.history:
            return None
        last = self.position.history[-1][0]
        return next(
            (number for number, (guess, _) in enumerate(self.position.history[:-1], 1) if guess == last), None
        )

    def possible_codes(self, limit: int) -> list[str]:
        """The first ``limit`` codes still possible, in the game's order."""
        shown = self.position.candidates[:limit]
        return [self.game.format_code(code) for code in self.game.secrets[shown]]

    def answers(self, guess: int) -> list[tuple[int, int]]:
        """Each feedback some remaining code would give to ``guess`` (a guess index), with how many
        codes it would leave, in feedback order: the scores a person can tap at the table."""
        given = self.position.feedback_to(guess)
        counts = np.bincount(given, minlength=self.game.feedback_count)
        counts[self.game.win] = int((self.position.candidate_guesses == guess).sum())
        return [(int(value), int(counts[value])) for value in np.flatnonzero(counts)]

    def history(self) -> list[tuple[str, str]]:
        """The entries so far, as people write them."""
        return [
            (self.game.format_code(self.game.guesses[guess]), self.game.format_feedback(feedback))
            for guess, feedback in self.position.history
        ]
