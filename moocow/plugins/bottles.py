"""The bottle game: put n distinct bottles in order, told only how many stand right.

Rearranging a row of bottles by hand is done by swapping blocks of them, so the effort of going
from one guess to the next is the block-interchange distance between the two arrangements.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable

import numpy as np

from moocow.engine.game import Codes, FeedbackForm, Game, check_space_size
from moocow.engine.params import Param
from moocow.plugins.hookspecs import hookimpl
from moocow.plugins.scoring import positional_matches
from moocow.plugins.spaces import permutation_space
from moocow.plugins.symbols import SymbolGame


class Bottles(SymbolGame):
    """Guess the order of n distinct bottles; feedback = how many stand in the right place."""

    name = "bottles"
    code_noun = "arrangement"
    summary = "The bottle game: arrange n distinct bottles, told how many stand right"
    params = (
        Param("n", int, 6, "bottles in the row (one bottle leaves nothing to find)", minimum=2, maximum=10),
    )
    feedback_fields = ("correct",)
    feedback_symmetric = True
    symmetries = frozenset({"positions", "symbols"})
    symbol_noun = "bottle"
    distinct_symbols = True

    @property
    def code_length(self) -> int:
        return int(self.values["n"])

    @property
    def alphabet(self) -> str:
        return string.ascii_uppercase[: self.code_length]

    def build_secrets(self) -> Codes:
        """Every arrangement, lexicographic."""
        check_space_size(math.factorial(self.code_length), self.spec)
        return permutation_space(self.code_length, self.code_length)

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        """Bottles in the right place; there are no cows, every bottle is in every arrangement."""
        return positional_matches(guesses, secrets)

    def feedback_form(self) -> FeedbackForm | None:
        """Positional matches alone, unless a subclass scores its own way."""
        own = self.feedback_defined_by is Bottles
        return FeedbackForm(positional=True, symbols=None) if own else None

    def move_distance(self, previous: np.ndarray, guesses: Codes) -> np.ndarray:
        """Fewest block interchanges turning ``previous`` into each guess."""
        return block_interchange_distance(previous, guesses)


DISTANCE_BLOCK = 1 << 16
"""Guesses handled at a time, so temporaries stay a few MB whatever the number of guesses."""


def block_interchange_distance(previous: np.ndarray, guesses: Codes) -> np.ndarray:
    """Block-interchange distance from ``previous`` to each row of ``guesses`` (Christie 1996).

    A block interchange swaps two non-overlapping runs of consecutive positions. Relabelled so
    that ``previous`` is the identity, each guess is a permutation ``pi`` of ``1..n``, extended
    with ``pi_0 = 0`` and ``pi_{n+1} = n + 1``; the alternating cycles of its cycle graph are the
    cycles of ``v -> pi[pos(v + 1) - 1]`` on ``0..n``, and the distance is ``(n + 1 - cycles) / 2``.
    """
    previous = np.asarray(previous, np.intp)
    n = len(previous)
    guesses = np.asarray(guesses, np.uint8).reshape(-1, n)
    relabel = np.empty(n, np.uint8)
    relabel[previous] = np.arange(1, n + 1)
    distances = np.empty(len(guesses), np.intp)
    for start in range(0, len(guesses), DISTANCE_BLOCK):
        pi = np.ascontiguousarray(relabel[guesses[start : start + DISTANCE_BLOCK]].T)
        distances[start : start + DISTANCE_BLOCK] = (n + 1 - _cycle_count(_cycle_graph_successor(pi))) // 2
    return distances


def _cycle_graph_successor(pi: np.ndarray) -> np.ndarray:
    """``v -> pi[pos(v + 1) - 1]`` for ``v`` in ``0..n``, one column per guess.

    ``pi[pos(v + 1) - 1]`` is the left neighbour of ``v + 1`` in ``0, pi_1, ..., pi_n, n + 1``.
    ``pi`` is ``(n, guesses)``, values ``1..n``; neighbours are found by comparing columns, which
    with n <= 10 was measured faster than scattering through an inverse permutation.
    """
    n, count = pi.shape
    successor = np.zeros((n + 1, count), np.uint8)
    for position in range(1, n):
        for value in range(1, n + 1):
            np.copyto(successor[value - 1], pi[position - 1], where=pi[position] == value)
    successor[n] = pi[n - 1]
    return successor


def _cycle_count(mapping: np.ndarray) -> np.ndarray:
    """Cycles of each column's permutation of ``0..m-1``, found by walking all columns in step.

    Each step follows one arrow; when a cycle closes, the walk restarts from the lowest
    unvisited element (the lowest zero bit of the visited mask), so ``m`` steps visit everything.
    """
    size, count = mapping.shape
    flat = mapping.ravel()
    columns = np.arange(count, dtype=np.intp)
    visited = np.zeros(count, np.uint32)
    current = np.zeros(count, np.intp)
    start = np.zeros(count, np.intp)
    cycles = np.zeros(count, np.intp)
    one = np.uint32(1)
    for _ in range(size):
        visited |= np.left_shift(one, current.astype(np.uint32))
        following = flat[current * count + columns]
        closed = following == start
        cycles += closed
        lowest_unvisited = np.bitwise_count((~visited & (visited + one)) - one).astype(np.intp)
        current = np.where(closed, lowest_unvisited, following)
        start = np.where(closed, lowest_unvisited, start)
    return cycles


@hookimpl
def register_games(register: Callable[[type[Game]], None]) -> None:
    """Make the bottle game available to the engine."""
    register(Bottles)
