"""One game played out by a strategy against a known secret, step by step."""

from __future__ import annotations

from dataclasses import dataclass

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.position import Position
from moocow.engine.strategies import QuickChoice, Strategy, check_opening


@dataclass(frozen=True)
class Turn:
    """One guess of a played-out game."""

    guess: int
    """Index of the guess in the game's guess space."""
    feedback: int
    """The feedback it received."""
    candidates_before: int
    """How many secrets were still possible when it was made."""
    remaining: int
    """How many secrets are still possible after its feedback."""
    was_candidate: bool
    """Whether the guess itself could have been the secret."""
    note: QuickChoice | None = None
    """How the strategy cut the decision short to fit its budget, if it did."""


def solve(game: Game, strategy: Strategy, secret: int) -> list[Turn]:
    """The guesses ``strategy`` makes against the secret with index ``secret``, until it wins."""
    check_opening(strategy, game)
    position = Position.start(game)
    steps: list[Turn] = []
    while not position.solved:
        if len(steps) > position.table.guess_count:
            raise MoocowError(f"strategy {strategy.spec} makes no progress in {game.spec}")
        guess = strategy.decide(position)
        note = strategy.note(position)
        feedback = game.score(guess, secret)
        was_candidate = bool((position.candidate_guesses == guess).any())
        before = len(position.candidates)
        position = position.after(guess, feedback)
        steps.append(Turn(guess, feedback, before, len(position.candidates), was_candidate, note))
    return steps


def secret_index(game: Game, text: str) -> int:
    """The index of a typed secret, or a one-line reason it cannot be a secret of ``game``."""
    guess = game.guess_index(text)
    matches = (game.secret_guess_index == guess).nonzero()[0]
    if len(matches) == 0:
        raise MoocowError(f"{text.strip()!r} is a guess but not a possible secret in {game.spec}")
    return int(matches[0])
