"""What is typed and said at the table, once for the terminal and the page: the one reader of a
typed entry, and the lines both show about a game (a count, a repeated guess, a win).

An entry is read once, into a guess index and a feedback value (``read_entry``); the assistant
(``play.assistant``) and a game against the computer (``play.opponent``) take entries as those
two integers, and the front ends write them back as the game does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.wording import plural


class OutsideGuess(MoocowError):
    """A well-formed code that is no guess of the game (a word outside its list): it may still be
    recorded, with ``Assistant.record_outside``, since it was played at the table."""

    def __init__(self, message: str, code: np.ndarray) -> None:
        super().__init__(message)
        self.code = code
        """The code as the game reads it."""


def split_entry(line: str) -> tuple[str, str]:
    """``GUESS SCORE`` typed in one line, split at the first run of whitespace (spaces or a tab,
    as people paste from a sheet); the score is empty when only a guess was typed."""
    parts = line.split(None, 1)
    return (parts[0], parts[1].strip()) if len(parts) == 2 else (line.strip(), "")


def read_entry(game: Game, guess: str, feedback: str) -> tuple[int, int]:
    """A typed guess and its feedback as a guess index and a feedback value; malformed input raises
    ``MoocowError`` saying why, and a well-formed code outside the game's guesses, with well-formed
    feedback, ``OutsideGuess`` (which the terminal offers to record all the same)."""
    try:
        index = game.guess_index(guess)
    except MoocowError as error:
        code = game.parse_code(guess)  # malformed: this says why
        game.parse_feedback(feedback)  # and so does malformed feedback, before any offer
        raise OutsideGuess(str(error), code) from None
    return index, game.parse_feedback(feedback)


def entry_example(game: Game) -> str:
    """A guess and a score as they are typed in this game (``ABCDEF 0``)."""
    return f"{guess_example(game)} {feedback_example(game)}"


def guess_example(game: Game) -> str:
    """The game's first guess, as people write it."""
    return game.format_code(game.guesses[0])


def feedback_example(game: Game) -> str:
    """A score of the game, as people write it: the first guess against the last secret."""
    return game.format_feedback(game.score(0, len(game.secrets) - 1))


def no_score(game: Game) -> str:
    """The refusal of a guess typed without its score where both are asked for."""
    return f"expected a guess and its score, e.g. '{entry_example(game)}'"


def earlier_number(made: Sequence[object]) -> int | None:
    """The number (from 1) of an earlier guess equal to the last of ``made``, if any."""
    if not made:
        return None
    return next((number for number, guess in enumerate(made[:-1], 1) if guess == made[-1]), None)


def repeated(earlier: int, code: str) -> str:
    """The warning on a guess played before: it tells nothing new."""
    return f"guess {earlier} was {code} too; the same guess again tells nothing new"


def counted(number: int, noun: str) -> str:
    """A number of codes (``1,296 codes``)."""
    return f"{number:,} {plural(number, noun)}"


def solved_in(guesses: int) -> str:
    """The line that ends a game won."""
    return f"Solved in {guesses} {plural(guesses, 'guess')}."
