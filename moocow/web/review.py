"""A game looked back on: each guess beside the engine's choice in the same position, and the codes
it left. Shown after a game against the computer and for a tournament's round replayed."""

from __future__ import annotations

from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.interactive import marked
from moocow.web.specs import web_assistant

REVIEWER = "minmax"
"""The strategy whose choices a review shows."""


def review(game: Game, played: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Each guess beside the engine's choice in the same position, and the codes left after it."""
    assistant = web_assistant(game, REVIEWER)
    steps = []
    for guess, value in played:
        try:
            engine = marked(assistant)
        except MoocowError as error:
            engine = f"no suggestion: {error}"
        possible = bool((assistant.position.candidate_guesses == guess).any())
        assistant.record(game.format_code(game.guesses[guess]), game.format_feedback(value))
        steps.append(
            {
                "guess": game.format_code(game.guesses[guess]),
                "feedback": game.format_feedback(value),
                "possible": possible,
                "engine": engine,
                "left": assistant.remaining,
            }
        )
    return steps
