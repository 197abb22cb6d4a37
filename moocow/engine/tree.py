"""The tree of a strategy over every secret: what it guesses after every possible history.

Built by splitting candidate sets, so each position of the strategy is decided exactly once
however many secrets pass through it; evaluation reads its statistics off the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.partitions import split_by_answer
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

    Children go in ascending order of their answers. Parts of one or two candidates are settled
    without a position where the strategy says what it guesses there (``_settled_here``).
    """
    game = stack[0][0].game
    limit = stack[0][0].table.guess_count + 1
    guess_of = game.secret_guess_index.tolist()  # read per part below: Python ints are faster
    settles = strategy.defined_by["decide"] is Strategy  # else it may guess anything anywhere
    settled = 0
    while stack:
        position, depth, node = stack.pop()
        guess = node.guess = strategy.decide(position)
        answers = position.feedback_to(guess)
        won = (answers == game.win) & (position.candidate_guesses == guess)
        guesses_taken[position.candidates[won]] = depth
        settled += int(won.sum())
        parts = split_by_answer(position.candidates[~won], answers[~won])
        if (len(parts) == 1 and len(parts[0][1]) == len(position.candidates)) or depth >= limit:
            raise MoocowError(f"strategy {strategy.spec} makes no progress in {game.spec}")
        for value, part in parts:
            node.children[value] = Node(NOT_DECIDED, len(part))
        for value, part in reversed(parts):  # popped in ascending order of answers
            child = node.children[value]
            if (
                settles
                and depth + 2 < limit
                and _settled_here(strategy, position, part, child, depth + 1, guesses_taken, guess_of)
            ):
                settled += len(part)
                continue
            history = (*position.history, (guess, value))
            allowed = position.allowed_after(game.guesses[guess], value)
            stack.append((Position(game, position.table, part, history, allowed=allowed), depth + 1, child))
        advance(settled)


def _settled_here(
    strategy: Strategy,
    position: Position,
    part: np.ndarray,
    node: Node,
    depth: int,
    guesses_taken: np.ndarray,
    guess_of: list[int],
) -> bool:
    """Settle a part of one or two candidates at ``node`` (its guess made at ``depth``), if the
    strategy says what it guesses there without a position (``Strategy.choose_from_pair``).

    Most positions of a large game are such: of Mastermind 5x8's 34,720 from 11223, 24,112 hold
    one candidate and 4,850 two. Two are settled only if each, guessed, tells the other apart.
    ``guess_of`` is the game's ``secret_guess_index`` as a list: this runs once per part, and
    Python ints cost less here than numpy's calls.
    """
    if len(part) > 2:
        return False
    secrets = part.tolist()
    guesses = [guess_of[secret] for secret in secrets]
    if min(guesses) < 0:
        return False
    if len(secrets) == 1:  # ``Strategy.decide`` guesses a lone candidate
        node.guess = guesses[0]
        guesses_taken[secrets[0]] = depth
        return True
    table = position.table
    answers = [table.column(guess, part).tolist() for guess in guesses]  # [guess][secret]
    if answers[0][0] == answers[0][1] or answers[1][0] == answers[1][1]:
        return False
    guess = strategy.choose_from_pair(np.array(guesses))
    if guess is None:
        return False
    first = guesses.index(guess)
    other = 1 - first
    node.guess = guess
    node.children[answers[first][other]] = Node(guesses[other], 1)
    guesses_taken[secrets[first]] = depth
    guesses_taken[secrets[other]] = depth + 1
    return True
