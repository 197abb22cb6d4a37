"""A game looked back on, as the web page shows it (``moocow.play.review``): after a game against the
computer and for a tournament's round replayed."""

from __future__ import annotations

from typing import Any

from moocow.engine.game import Game
from moocow.play.review import REVIEWER
from moocow.play.review import review as reviewed
from moocow.web.marks import feedback_data

__all__ = ["REVIEWER", "review"]


def review(game: Game, played: list[tuple[int, int]], secret: int | None = None) -> list[dict[str, Any]]:
    """Each guess beside the engine's choice in the same position, the codes each left against
    ``secret``, and the guesses the engine expects to need from there."""
    return [
        {
            "guess": step.guess,
            **feedback_data(game, step.feedback),
            "possible": step.possible,
            "engine": step.engine,
            "left": step.left,
            "engine_left": step.engine_left,
            "expected": None if step.expected is None else round(step.expected, 2),
        }
        for step in reviewed(game, played, secret)
    ]
