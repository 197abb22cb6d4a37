"""Canonical code spaces built with numpy: Python loops over millions of tuples take seconds."""

from __future__ import annotations

import numpy as np

from moocow.engine.game import Codes, check_space_size


def product_space(symbols: int, length: int) -> Codes:
    """Every code with repeats allowed, in ``itertools.product(range(symbols), repeat=length)`` order."""
    grid = np.indices((symbols,) * length, dtype=np.uint8)
    return np.ascontiguousarray(grid.reshape(length, -1).T)


def permutation_space(symbols: int, length: int) -> Codes:
    """Every code of distinct symbols, in ``itertools.permutations(range(symbols), length)`` order.

    Built from the tail up: the codes over ``s`` symbols are, for each first symbol ``f`` in
    increasing order, ``f`` followed by the codes over ``s - 1`` symbols renumbered to skip ``f``
    (``tail + (tail >= f)`` keeps their order). Measured on 10 symbols, many times faster than a
    nonzero-based prefix expansion or ``np.fromiter`` over itertools.
    """
    tails = np.zeros((1, 0), np.uint8)
    for count in range(symbols - length + 1, symbols + 1):
        codes = np.empty((count * len(tails), tails.shape[1] + 1), np.uint8)
        for first, block in enumerate(np.split(codes, count)):
            block[:, 0] = first
            np.add(tails, tails >= first, out=block[:, 1:], casting="unsafe")
        tails = codes
    return tails


def word_space(words: tuple[str, ...], length: int, spec: str) -> Codes:
    """Words of ``length`` letters a-z as codes (``a`` is 0), in the order given: sorted words give
    sorted codes."""
    check_space_size(len(words), spec)
    letters = np.frombuffer("".join(words).encode("ascii"), np.uint8)
    return (letters - ord("a")).reshape(len(words), length)
