"""The tree of a strategy over every secret: what it guesses after every possible history.

Built by splitting candidate sets, so each position of the strategy is decided exactly once
however many secrets pass through it; evaluation reads its statistics off the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.position import Position
from moocow.engine.progress import task
from moocow.engine.strategies import Strategy


@dataclass(eq=False, slots=True)
class Node:
    """A decision: the guess played here and the subtree after each non-winning answer."""

    guess: int
    """Index of the guess in the game's guess space."""
    size: int
    """How many secrets reach this node."""
    children: dict[int, Node] = field(default_factory=dict)
    """Feedback value to the node that follows it; the winning answer ends the game."""


def build_tree(strategy: Strategy, start: Position) -> tuple[Node, np.ndarray]:
    """Play ``strategy`` from ``start`` against every candidate at once.

    Returns the tree and, for each secret (indexed like the game's secrets), the number of
    guesses it took counted from ``start`` (0 for secrets that are not candidates there).
    """
    guesses_taken = np.zeros(start.table.secret_count, dtype=np.int64)
    root = Node(NOT_DECIDED, len(start.candidates))
    with task("evaluating", len(start.candidates), "secrets") as advance:
        _grow(strategy, [(start, 1, root)], guesses_taken, advance)
    return root, guesses_taken


NOT_DECIDED = -1
"""The guess of a node whose position is not decided yet."""


def _grow(
    strategy: Strategy,
    stack: list[tuple[Position, int, Node]],
    guesses_taken: np.ndarray,
    advance: Callable[[float], None],
) -> None:
    """Decide every position on ``stack`` and below, filling in its node and ``guesses_taken``.

    A lone candidate is settled without a position when the strategy decides as
    ``Strategy.decide`` does, by guessing it: most positions of a large game are such (24,112 of
    Mastermind 5x8's 34,720). Children go in ascending order of their answers.
    """
    game = stack[0][0].game
    limit = stack[0][0].table.guess_count + 1
    lone_guesses = game.secret_guess_index if type(strategy).decide is Strategy.decide else None
    settled = 0
    while stack:
        position, depth, node = stack.pop()
        guess = node.guess = strategy.decide(position)
        answers = position.feedback_to(guess)
        won = (answers == game.win) & (position.candidate_guesses == guess)
        guesses_taken[position.candidates[won]] = depth
        settled += int(won.sum())
        parts = _split(answers[~won], position.candidates[~won])
        if (len(parts) == 1 and len(parts[0][1]) == len(position.candidates)) or depth >= limit:
            raise MoocowError(f"strategy {strategy.spec} makes no progress in {game.spec}")
        for value, part in parts:
            node.children[value] = Node(NOT_DECIDED, len(part))
        for value, part in reversed(parts):  # popped in ascending order of answers
            child = node.children[value]
            if (
                lone_guesses is not None
                and len(part) == 1
                and lone_guesses[part[0]] >= 0
                and depth + 1 < limit
            ):
                child.guess = int(lone_guesses[part[0]])
                guesses_taken[part[0]] = depth + 1
                settled += 1
                continue
            stack.append(
                (Position(game, position.table, part, (*position.history, (guess, value))), depth + 1, child)
            )
        advance(settled)


def _split(answers: np.ndarray, candidates: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Group candidates by answer; groups ascending inside, by answer ascending."""
    if len(answers) == 0:
        return []
    order = np.argsort(answers, kind="stable")
    ordered = answers[order]
    bounds = np.flatnonzero(np.diff(ordered)) + 1
    groups = np.split(candidates[order], bounds)
    values = ordered[np.concatenate(([0], bounds))]
    return [(int(value), group) for value, group in zip(values, groups, strict=True)]
