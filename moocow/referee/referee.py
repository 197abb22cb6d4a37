"""One round: the referee holds the secret, asks the seat for guesses and scores it as in golf.

A round ends when the guess is the secret or after the mercy limit of guesses, as in the course
runner: the score is the number of guesses, the winning one included, and a round that is not won
(by the mercy limit or by a foul) scores the mercy limit. A guess of the game is answered with the
game's feedback (``Game.score``, looked up in its table) and wins by it (``position.wins``); a
course guess, any text (``rules.py``), with the course's bulls and cows, and it wins as in the
course, by being the secret's text. In a game whose rule narrows the guesses as it goes (Wordle's
hard mode) a guess that breaks it loses the round as invalid, unplayed: the referee follows the
rule's state, which no other game pays for.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from moocow.engine.position import wins
from moocow.engine.table import FeedbackTable
from moocow.referee.bacrunner import count_bulls_and_cows
from moocow.referee.decks import Deal
from moocow.referee.rules import Guess, RuleInForce
from moocow.referee.seats import Seat
from moocow.sandbox.fouls import Failure, Foul
from moocow.sandbox.stderr_tail import NOTHING_KEPT, RoundStderr


@dataclass(frozen=True)
class Outcome:
    """How one round went."""

    guesses: tuple[str, ...]
    """The guesses in the order played, as the game writes them or as sent in a course round."""
    solved: bool
    """Whether the last guess was the secret."""
    score: int
    """The number of guesses if solved, otherwise the mercy limit."""
    failure: Failure | None
    """Why the round was lost (``None`` when solved)."""
    reason: str | None
    """One line saying how (``None`` when solved)."""
    seconds: float
    """Time spent waiting for the player's guesses (setup excluded)."""
    stderr: RoundStderr = NOTHING_KEPT
    """The last lines the player wrote to stderr in the round, when asked for (``keep_stderr``)."""


def play_round(seat: Seat, deal: Deal, mercy: int, keep_stderr: bool = False) -> Outcome:
    """Play one round of ``deal`` with ``seat``; a foul loses the round, it never escapes. With
    ``keep_stderr`` the outcome holds the last lines the player wrote to stderr in the round."""
    game = deal.game
    secret, secret_text = deal.secret, deal.secret_text
    table = FeedbackTable.for_game(game)  # kept with the game: Game.score reads each guess from it
    rule = RuleInForce.of(game, table)
    guesses: list[str] = []
    seconds = 0.0
    try:
        seat.start_round(game)
        feedback: int | None = None
        while len(guesses) < mercy:
            started = time.perf_counter()
            try:
                guess = seat.guess(feedback)
            finally:
                seconds += time.perf_counter() - started
            if rule is not None:
                refused(seat, rule, guess)
            guesses.append(guess.text)
            if guess.index is not None:
                feedback = game.score(guess.index, secret)
                won = wins(game, feedback)
            else:  # the course's rule: its count gives 12345 four bulls against 1234, no win
                won = guess.text == secret_text
                feedback = game.feedback_model.encode(count_bulls_and_cows(guess.text, secret_text))
            if won:
                stderr = kept_stderr(seat, keep_stderr)
                return Outcome(tuple(guesses), True, len(guesses), None, None, seconds, stderr)
            if rule is not None:
                rule.answered(guess, feedback)
    except Foul as foul:
        stderr = kept_stderr(seat, keep_stderr, foul.said)
        return Outcome(tuple(guesses), False, mercy, foul.kind, foul.reason, seconds, stderr)
    lost = f"not solved in {mercy} guesses"
    return Outcome(tuple(guesses), False, mercy, Failure.MERCY, lost, seconds, kept_stderr(seat, keep_stderr))


def kept_stderr(seat: Seat, keep: bool, said: str = "") -> RoundStderr:
    """The round's stderr if it is kept, with the line a foul's reason ends with."""
    return replace(seat.round_stderr(), said=said) if keep else NOTHING_KEPT


def refused(seat: Seat, rule: RuleInForce, guess: Guess) -> None:
    """Raise the ``Foul`` of a guess the rule forbids, the seat told first (a program's process ends
    as with any foul)."""
    try:
        rule.check(guess)
    except Foul:
        seat.forfeit()
        raise
