"""Help at the table: you make the guesses, it keeps track of what is still possible.

The assistant of the bottle-game notes, for any game: record each guess and the score it got,
see how many codes remain (listed when few), get a suggested next guess, take entries back.
A game with a rule on guesses (Wordle's hard mode) has each guess checked against it, as the
newspaper's page checks it, and suggestions are only legal guesses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.position import Position
from moocow.engine.strategies import Strategy
from moocow.play.openings import built_in, known_opening, opening_key, remember_opening
from moocow.play.table import OutsideGuess, earlier_number, read_entry, repeated
from moocow.plugins import load_game
from moocow.plugins.strategy_registry import load_strategy

__all__ = ["LIST_LIMIT", "Assistant", "OutsideGuess", "Suggestion", "marked"]

LIST_LIMIT = 20
"""The assistant lists the remaining codes when at most this many are left."""


@dataclass(frozen=True)
class Suggestion:
    """The strategy's next guess as the terminal and the page both say it."""

    prefix: str
    """What it is said after: ``Suggested first guess:``, ``Suggested next guess:``, ``It must be``."""
    text: str
    """The guess marked as ``marked`` marks it, or why there is none (``No suggestion: ...``)."""
    code: str | None = None
    """The guess as people write it; ``None`` when there is none."""
    possible: bool = False
    """Whether it could be the secret."""
    note: str | None = None
    """Why it is a quick one, if it is."""

    @property
    def line(self) -> str:
        """The whole line: the prefix and the marked guess, or why there is none."""
        return f"{self.prefix} {self.text}" if self.code is not None else self.text


class Assistant:
    """A stack of positions: recording pushes one, ``undo`` pops one, a refused entry changes nothing."""

    @classmethod
    def named(cls, game: str | Game, strategy: str | Strategy, budget: float | None) -> Assistant:
        """An assistant for ``game`` and ``strategy`` (specs or made), each suggestion within
        ``budget`` modelled seconds (``None``: exact)."""
        chosen = load_strategy(strategy)
        chosen.budget = budget
        return cls(load_game(game), chosen)

    def __init__(self, game: Game, strategy: Strategy) -> None:
        self.game = game
        self.strategy = strategy
        self._positions = [Position.start(game)]
        self._entries: list[tuple[str, int]] = []
        """Each entry's guess, as the game writes it, and its feedback, in the order recorded."""

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def entries(self) -> int:
        """How many entries are recorded."""
        return len(self._entries)

    @property
    def remaining(self) -> int:
        """How many codes are still possible."""
        return len(self.position.candidates)

    @property
    def solved(self) -> bool:
        """Whether the last entry was the winning feedback."""
        return self.position.solved

    def record(self, guess: str, feedback: str) -> Position:
        """Add a guess and its feedback as typed (``table.read_entry``); impossible or malformed
        input raises ``MoocowError``, and a well-formed code outside the game's guesses ``OutsideGuess``."""
        return self.enter(*read_entry(self.game, guess, feedback))

    def enter(self, guess: int, value: int) -> Position:
        """Add a guess (an index of the guesses) and its feedback value; one the position cannot
        take (a rule on guesses broken, a value no code left gives) raises ``MoocowError``."""
        self.position.check_legal(guess)  # hard mode: the guess must keep what was revealed
        return self._push(self.position.after(guess, value), self.game.guesses[guess], value)

    def record_outside(self, code: np.ndarray, feedback: str) -> Position:
        """Add a code that is no guess of the game, as played at the table, and its feedback."""
        value = self.game.parse_feedback(feedback)
        return self._push(self.position.after_outside(code, value), code, value)

    def _push(self, position: Position, code: np.ndarray, value: int) -> Position:
        self._positions.append(position)
        self._entries.append((self.game.format_code(code), value))
        return position

    def undo(self) -> bool:
        """Take back the last entry; ``False`` when there is none."""
        if len(self._positions) == 1:
            return False
        self._positions.pop()
        self._entries.pop()
        return True

    def decision(self) -> tuple[int, str | None]:
        """The strategy's next guess (an index) and why it is a quick one, if it is. The first is
        the same for every session of a game and strategy, so it is kept (``openings``)."""
        position = self.position
        key = opening_key(self.game, self.strategy) if position.is_start else None
        known = None if key is None else known_opening(key)
        if known is not None:
            return known
        began = time.perf_counter()
        guess = self.strategy.decide(position)
        note = self.strategy.note(position)
        decision = (int(guess), None if note is None else str(note))
        if key is not None:
            lasting = built_in(self.game, self.strategy)
            remember_opening(key, decision, time.perf_counter() - began, lasting)
        return decision

    def suggestion(self) -> str:
        """The strategy's next guess, as people write it."""
        return self.game.format_code(self.game.guesses[self.decision()[0]])

    def suggestion_note(self) -> str | None:
        """Why the suggestion is a quick one (scored on fewer guesses to fit the budget), if it is."""
        return self.decision()[1]

    def suggestion_is_possible(self) -> bool:
        """Whether the suggestion could be the secret: minimax may suggest one that cannot, to split more."""
        return bool((self.position.candidate_guesses == self.decision()[0]).any())

    def earlier_entry(self) -> int | None:
        """The number of an earlier entry with the same guess as the last one, if any."""
        return earlier_number([guess for guess, _ in self._entries])

    def repeat_warning(self) -> str | None:
        """The warning on the last entry's guess, when an earlier entry made it too."""
        earlier = self.earlier_entry()
        return None if earlier is None else repeated(earlier, self._entries[-1][0])

    def listed(self) -> list[str]:
        """The codes still possible, when few enough to list (``LIST_LIMIT``); none once solved."""
        return self.possible_codes(LIST_LIMIT) if self.remaining <= LIST_LIMIT and not self.solved else []

    def suggested(self, opening: bool = False) -> Suggestion:
        """The suggestion as both front ends show it; a strategy with none here (a tree left behind)
        says why. ``opening``: the first line of a session, ``Suggested first guess:``, where a
        strategy with none raises it instead (one unusable for the game ends the session)."""
        if opening:
            prefix = "Suggested first guess:"
        else:
            prefix = "It must be" if self.remaining == 1 else "Suggested next guess:"
        try:
            guess, note = self.decision()
        except MoocowError as error:
            if opening:
                raise
            return Suggestion(prefix, f"No suggestion: {error}.")
        code = self.game.format_code(self.game.guesses[guess])
        possible = bool((self.position.candidate_guesses == guess).any())
        return Suggestion(prefix, _marked(code, possible, note), code, possible, note)

    def possible_codes(self, limit: int) -> list[str]:
        """The first ``limit`` codes still possible, in the game's order."""
        shown = self.position.candidates[:limit]
        return [self.game.format_code(code) for code in self.game.secrets[shown]]

    def answers(self, guess: int) -> list[tuple[int, int]]:
        """Each feedback some remaining code would give to ``guess`` (a guess index), with how many
        codes it would leave, in feedback order: the scores a person can tap at the table."""
        given = self.position.feedback_to(guess)
        counts = np.bincount(given, minlength=self.game.feedback_bound)
        counts[self.game.win] = int((self.position.candidate_guesses == guess).sum())
        return [(int(value), int(counts[value])) for value in np.flatnonzero(counts)]

    def recorded(self) -> list[tuple[str, int]]:
        """The entries so far: each guess as people write it, and its feedback value."""
        return list(self._entries)

    def history(self) -> list[tuple[str, str]]:
        """The entries so far, as people write them."""
        return [(guess, self.game.format_feedback(feedback)) for guess, feedback in self._entries]


def marked(assistant: Assistant) -> str:
    """The suggestion, marked as ``solve`` marks a guess that cannot be the secret, or a quick one."""
    return _marked(assistant.suggestion(), assistant.suggestion_is_possible(), assistant.suggestion_note())


def _marked(code: str, possible: bool, note: str | None) -> str:
    return code + ("" if possible else " (not possible)") + (f" ({note})" if note else "")
