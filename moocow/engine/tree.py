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
    stack: list[tuple[Position, int, Node | None, int]] = [(start, 1, None, 0)]
    with task("evaluating", len(start.candidates), "secrets") as advance:
        root = _grow(strategy, stack, guesses_taken, advance)
    return root, guesses_taken


def _grow(
    strategy: Strategy,
    stack: list[tuple[Position, int, Node | None, int]],
    guesses_taken: np.ndarray,
    advance: Callable[[float], None],
) -> Node:
    """Decide every position on ``stack`` and below, filling ``guesses_taken``; the root node."""
    game = stack[0][0].game
    limit = stack[0][0].table.guess_count + 1
    root: Node | None = None
    settled = 0
    while stack:
        position, depth, parent, answer = stack.pop()
        guess = strategy.decide(position)
        node = Node(guess, len(position.candidates))
        if parent is None:
            root = node
        else:
            parent.children[answer] = node
        answers = position.feedback_to(guess)
        won = (answers == game.win) & (position.candidate_guesses == guess)
        guesses_taken[position.candidates[won]] = depth
        settled += int(won.sum())
        advance(settled)
        parts = _split(answers[~won], position.candidates[~won])
        if (len(parts) == 1 and len(parts[0][1]) == len(position.candidates)) or depth >= limit:
            raise MoocowError(f"strategy {strategy.spec} makes no progress in {game.spec}")
        for value, part in parts:
            child = Position(game, position.table, part, (*position.history, (guess, value)))
            stack.append((child, depth + 1, node, value))
    assert root is not None
    return root


def _split(answers: np.ndarray, candidates: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Group candidates by answer; groups ascending inside, by answer descending (popped ascending)."""
    if len(answers) == 0:
        return []
    order = np.argsort(answers, kind="stable")
    ordered = answers[order]
    bounds = np.flatnonzero(np.diff(ordered)) + 1
    groups = np.split(candidates[order], bounds)
    values = ordered[np.concatenate(([0], bounds))]
    return [(int(value), group) for value, group in zip(values, groups, strict=True)][::-1]
