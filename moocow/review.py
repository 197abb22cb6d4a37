"""A game looked back on: each guess beside the engine's choice in the same position, and the codes
it left. ``moocow play`` prints it when a game ends; the web page shows it after a game against
the computer and for a tournament's round replayed."""

from __future__ import annotations

from dataclasses import dataclass

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game

REVIEWER = "minmax"
"""The strategy whose choices a review shows."""
BUDGET = 1.0
"""Modelled seconds each of the reviewer's choices may take: a fifth of the assistant's, since a
review makes one per guess at once (at the assistant's, two guesses of ``bottles:n=10`` took 31 s
of CPU to review; Wordle's first choice, 0.8 s modelled, still fits whole)."""


@dataclass(frozen=True)
class Step:
    """One guess of a game looked back on."""

    guess: str
    """The guess, as people write it."""
    feedback: int
    """The answer it got."""
    possible: bool
    """Whether it could have been the secret when it was played."""
    engine: str
    """What the reviewer would have played there, marked as the assistant marks a suggestion."""
    left: int
    """The codes still possible after it."""


def review(game: Game, played: list[tuple[int, int]]) -> list[Step]:
    """Each guess (an index and its feedback) beside the engine's choice, and what it left."""
    from moocow import api
    from moocow.interactive import marked

    assistant = api.assistant(game, REVIEWER, BUDGET)
    steps = []
    for guess, value in played:
        try:
            engine = marked(assistant)
        except MoocowError as error:
            engine = f"no suggestion: {error}"
        possible = bool((assistant.position.candidate_guesses == guess).any())
        shown = game.format_code(game.guesses[guess])
        assistant.record(shown, game.format_feedback(value))
        steps.append(Step(shown, value, possible, engine, assistant.remaining))
    return steps
