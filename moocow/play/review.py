"""A game looked back on, as NYT's WordleBot does: each guess beside the engine's choice in the
same position, the codes each left against the secret, and the guesses the engine expects to need
from the position the guess left. ``moocow play`` prints it when a game ends; the web page shows it
after a game against the computer and for a tournament's round replayed."""

from __future__ import annotations

import math
from dataclasses import dataclass

from moocow.engine.cost import LEVELS_FACTOR, scoring_seconds
from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.position import Position
from moocow.play.assistant import Assistant, marked
from moocow.play.opponent import scored

REVIEWER = "minmax"
"""The strategy whose choices a review shows."""
BUDGET = 1.0
"""Modelled seconds each of the reviewer's choices may take: a fifth of the assistant's, since a
review makes one per guess at once (at the assistant's, a review of a big game's few guesses
took many times a suggestion's wait; Wordle's first choice still fits whole)."""
EXPECTED_BUDGET = 0.5
"""Modelled seconds the expected guesses from one position may take (the reviewer played against
every code left there); past it the review leaves the number out rather than keep a player waiting."""


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
    engine_left: int | None = None
    """The codes the reviewer's choice would have left against the same secret (``None``: the
    secret is not known, or the reviewer had no choice)."""
    expected: float | None = None
    """The guesses the reviewer needs on average to finish from the position this guess left,
    playing against each code still possible (0 once solved; ``None``: too costly to work out)."""


def review(game: Game, played: list[tuple[int, int]], secret: int | None = None) -> list[Step]:
    """Each guess (an index and its feedback) beside the engine's choice, what each left against
    ``secret`` (an index of the secrets, when known), and the guesses expected from there."""
    assistant = Assistant.named(game, REVIEWER, BUDGET)
    steps = []
    for guess, value in played:
        try:
            engine = marked(assistant)
            engine_left = _left_by(assistant, assistant.suggestion(), secret)
        except MoocowError as error:
            engine, engine_left = f"no suggestion: {error}", None
        possible = bool((assistant.position.candidate_guesses == guess).any())
        shown = game.format_code(game.guesses[guess])
        assistant.record(shown, game.format_feedback(value))
        left = assistant.remaining
        expected = 0.0 if assistant.solved else expected_guesses(assistant)
        steps.append(Step(shown, value, possible, engine, left, engine_left, expected))
    return steps


def _left_by(assistant: Assistant, choice: str, secret: int | None) -> int | None:
    """The codes ``choice`` would leave in the assistant's position when the secret is ``secret``."""
    if secret is None:
        return None

    game, position = assistant.game, assistant.position
    guess = game.guess_index(choice)
    value, _ = scored(game, secret, guess)
    return len(position.after(guess, value).candidates)


def expected_guesses(assistant: Assistant) -> float | None:
    """The reviewer's average number of guesses to find each code still possible, from the
    assistant's position; ``None`` past ``EXPECTED_BUDGET``."""
    from moocow.engine.progress import reporting
    from moocow.engine.tree import build_tree

    position: Position = assistant.position
    candidates = len(position.candidates)
    table = position.table
    levels = max(
        1, math.ceil(LEVELS_FACTOR * math.log(max(candidates, 2)) / math.log(max(2, len(table.values))))
    )
    if scoring_seconds(table, candidates, table.guess_count) * levels > EXPECTED_BUDGET:
        return None
    with reporting(None):
        _, taken = build_tree(assistant.strategy, position)
    return float(taken.sum()) / candidates
