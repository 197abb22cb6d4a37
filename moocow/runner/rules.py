"""The one rule for what a player outside the engine may answer: a guess, written as the game writes it.

A line counts as a guess when, with surrounding whitespace removed (line ends, ``\\r`` from
Windows, stray spaces), it is exactly how the game writes one of its guesses (``format_code``):
``1122`` in Mastermind, ``blinkers`` in the word game. Near-misses are not guesses: other case
(``BLINKERS``), inner spaces or commas (``1 1 2 2``), a word outside the game's list. They lose
the round, and the reason names the spelling that would have counted. The course runner compares
strings exactly too, so a course player that never relied on stray spaces scores the same.
"""

from __future__ import annotations

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.runner.fouls import Failure, Foul

SHOWN = 40
"""Characters of an offending answer quoted in the reason."""


def read_guess(game: Game, line: str) -> int:
    """The guess index ``line`` names under the rule, or a ``Foul`` saying why it names none."""
    text = line.strip()
    shown = text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."
    try:
        index = game.guess_index(text)
    except MoocowError:
        raise Foul(Failure.INVALID, f"{shown!r} is not a guess of {game.spec}") from None
    written = game.format_code(game.guesses[index])
    if text != written:
        raise Foul(Failure.INVALID, f"{shown!r} is not written as {game.spec} writes it: {written!r}")
    return index
