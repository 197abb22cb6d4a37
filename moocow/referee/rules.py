"""The one rule for what a player outside the engine may answer: a guess, written as the game writes it.

A line counts as a guess when, with surrounding whitespace removed (line ends, ``\\r`` from
Windows, stray spaces), it is exactly how the game writes one of its guesses (``format_code``):
``1122`` in Mastermind, ``blinkers`` in the word game. Near-misses are not guesses: other case
(``BLINKERS``), inner spaces or commas (``1 1 2 2``), a word outside the game's list. They lose
the round, and the reason names the spelling that would have counted.

The course exception: in a session of the course deck (``bacrunner:...``) a guess is any line of
printable text, because ``bacrunner.py`` takes any string its player returns and scores it. So
``eeeee``, a word of another length or not in the list, ``BLINKERS`` or ``blin kers`` is a guess,
recorded as sent and scored as the course scores it (``bacrunner.count_bulls_and_cows``: other case
never matches, ``zip`` cuts the longer of guess and secret short); only the secret itself wins.
Surrounding whitespace is removed as from any answer. A line with a character that is not
printable (a tab, an escape sequence, a line separator) is invalid: the course's log could not
show it on one line.

A game with a rule on guesses that narrows as the round goes (Wordle's hard mode,
``Game.guess_rule``) adds it: a guess the rule forbids after the answers so far is refused like
any invalid guess, with the reason the engine's ``Position.check_legal`` gives (``RuleInForce``).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.game import Game
from moocow.engine.position import Position
from moocow.engine.table import FeedbackTable
from moocow.sandbox.fouls import Failure, Foul


@dataclass(frozen=True)
class Guess:
    """One guess as played."""

    text: str
    """As the game writes it, or, in a course round, as the player sent it."""
    index: int | None = None
    """Its index in the game's guesses; ``None`` for a course guess, scored as the course scores text."""

    @classmethod
    def of(cls, game: Game, index: int) -> Guess:
        """The game's guess ``index``, written as the game writes it."""
        return cls(game.format_code(game.guesses[index]), index)


_KNOWN: weakref.WeakKeyDictionary[Game, dict[str, Guess]] = weakref.WeakKeyDictionary()
"""Each game's guesses met so far, by how the game writes them: the rule's one lookup per answer."""


def read_guess(game: Game, line: str) -> Guess:
    """The guess ``line`` names under the rule, or a ``Foul`` saying why it names none.

    A text met before is one dict lookup; the first time, the game reads it and writes it back."""
    text = line.strip()
    known = _KNOWN.get(game)
    if known is None:
        known = _KNOWN[game] = {}
    guess = known.get(text)
    if guess is None:
        guess = known[text] = _read_new_guess(game, text)
    return guess


def _read_new_guess(game: Game, text: str) -> Guess:
    """The guess ``text`` names (written as the game writes it), or a ``Foul``."""
    try:
        game.parse_code(text)
    except MoocowError:
        raise Foul(Failure.INVALID, f"{quoted(text)} is not a guess of {game.spec}") from None
    try:
        guess = Guess.of(game, game.guess_index(text))
    except MoocowError:
        # Well formed yet not a guess: a word outside the words game's list, say, which the game names.
        raise Foul(Failure.INVALID, game.not_a_guess(text)) from None
    if text != guess.text:
        written = f"is not written as {game.spec} writes it: {guess.text!r}"
        raise Foul(Failure.INVALID, f"{quoted(text)} {written}")
    return guess


def read_course_guess(line: str) -> Guess:
    """The guess ``line`` is in a course round: its printable text as sent, or a ``Foul``."""
    text = line.strip()
    if not text.isprintable():
        raise Foul(Failure.INVALID, f"{quoted(text)} is not a line of printable text")
    return Guess(text)


class RuleInForce:
    """A game's rule on guesses followed through one round, as the engine's position carries it.

    Only a game with a rule has one (``of``), so a round of any other game pays nothing for it."""

    def __init__(self, game: Game, table: FeedbackTable | None = None) -> None:
        self.position = Position.start(game, table)

    @classmethod
    def of(cls, game: Game, table: FeedbackTable | None = None) -> RuleInForce | None:
        """The rule of ``game`` at the start of a round, or ``None`` if it has none."""
        return None if game.guess_rule is None else cls(game, table)

    def check(self, guess: Guess) -> None:
        """A ``Foul`` (invalid) with the rule's one-line reason if ``guess`` breaks it here."""
        if guess.index is None:  # a course guess: the course's decks have no rule
            return
        try:
            self.position.check_legal(guess.index)
        except MoocowError as error:
            raise Foul(Failure.INVALID, str(error)) from None

    def answered(self, guess: Guess, feedback: int) -> None:
        """``guess`` got ``feedback``: the rule narrows for the next guess."""
        if guess.index is not None:
            self.position = self.position.after(guess.index, feedback)
