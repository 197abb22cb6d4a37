"""What a game's own code hands the engine, checked where it is handed over.

A game plugin is someone else's code. Its codes and its feedback are checked as they come, so
that a mistake is one line naming the game, not a traceback far away (a list where an array
belongs), and never a silent misreading (a code of 256 wrapped to 0, a NaN cast to a feedback, a
repeated code counted as two secrets).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from moocow.engine.errors import MoocowError, one_line

if TYPE_CHECKING:
    from moocow.engine.game import Codes, Game

MAX_CODES = 5_000_000
"""Largest code space the engine will build; beyond it every decision would take hours."""
LARGEST_SYMBOL = 255
"""Codes are kept as ``uint8``."""

FeedbackFunction = Callable[["Game", "Codes", "Codes"], np.ndarray]


def built(game: Game, what: str, build: Callable[[], Any]) -> Any:
    """What ``build`` (a game's own method) returns; whatever it raises is one line naming it."""
    try:
        return build()
    except MoocowError:
        raise
    except Exception as error:
        raise MoocowError(f"{game.spec}: its {what} failed: {one_line(error)}") from None


def checked_codes(codes: Any, length: int, what: str) -> Codes:
    """A code space as the engine keeps it: a 2-D array of small whole numbers, no code twice,
    checked before it is converted (so nothing is changed on the way)."""
    try:  # rows of unequal lengths are a ValueError
        array = np.asarray(codes) if isinstance(codes, np.ndarray | list | tuple) else None
    except ValueError:
        array = None
    if array is None or array.ndim != 2 or array.shape[1] != length or len(array) == 0:
        raise MoocowError(f"{what}: expected a non-empty array of codes of length {length}")
    if len(array) > MAX_CODES:
        raise MoocowError(f"{what}: {len(array):,} codes is more than the engine handles ({MAX_CODES:,})")
    if array.dtype.kind not in "iu" or array.min() < 0 or array.max() > LARGEST_SYMBOL:
        raise MoocowError(
            f"{what}: codes must be whole numbers from 0 to {LARGEST_SYMBOL} ({array.dtype} given)"
        )
    array = np.ascontiguousarray(array, dtype=np.uint8)
    if len(np.unique(array.view(np.dtype((np.void, length))).ravel())) != len(array):
        raise MoocowError(f"{what}: a code is there twice")
    return array


def checked_feedback(feedback: FeedbackFunction) -> FeedbackFunction:
    """A game's ``feedback``, its answers checked: a ``(guesses, secrets)`` array of whole numbers
    that pack the game's feedback fields."""

    @functools.wraps(feedback)
    def checked(game: Game, guesses: Codes, secrets: Codes) -> np.ndarray:
        answers = built(game, "feedback", lambda: feedback(game, guesses, secrets))
        shape = (len(guesses), len(secrets))
        if not isinstance(answers, np.ndarray) or answers.shape != shape or answers.dtype.kind not in "iub":
            given = (
                f"an array of {answers.dtype} of shape {answers.shape}"
                if isinstance(answers, np.ndarray)
                else f"a {type(answers).__name__}"
            )
            raise MoocowError(
                f"{game.spec}: feedback must be an array of whole numbers of shape {shape}; it gave {given}"
            )
        largest = min((game.code_length + 1) ** len(game.feedback_fields) - 1, LARGEST_SYMBOL)
        if answers.size and (answers.min() < 0 or answers.max() > largest):
            raise MoocowError(
                f"{game.spec}: feedback must pack its fields {game.feedback_fields} (0 to {largest}), "
                f"not {answers.min() if answers.min() < 0 else answers.max()}"
            )
        return answers

    checked.is_checked = True  # type: ignore[attr-defined]
    return checked
