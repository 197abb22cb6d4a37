"""Symbol masks: one bit per (symbol, copy), so that ``popcount(a & b)`` of two codes' masks is
the number of symbols they share, counted with multiplicity.

Plain numpy, no numba: the numpy feedback tables (``plugins.scoring``) build them, and so does
the compiled greedy engine before it calls its kernels (``greedy.prepare``).
"""

from __future__ import annotations

import numpy as np

from moocow.engine.game import Codes


def symbol_masks(guesses: Codes, secrets: Codes, symbols: int) -> tuple[np.ndarray, np.ndarray]:
    """Masks of both sides, each ``(words, codes)``, with a width that fits both (``code_masks``)."""
    guess_columns, secret_columns = np.ascontiguousarray(guesses.T), np.ascontiguousarray(secrets.T)
    guess_copies, secret_copies = _earlier_copies(guess_columns), _earlier_copies(secret_columns)
    width = 1 + int(max(guess_copies.max(initial=0), secret_copies.max(initial=0)))
    return (
        code_masks(guess_columns, guess_copies, symbols, width),
        code_masks(secret_columns, secret_copies, symbols, width),
    )


def code_masks(columns: np.ndarray, earlier_copies: np.ndarray, symbols: int, width: int) -> np.ndarray:
    """One bit per (symbol, copy): ``popcount(a & b)`` of two masks is their common symbols.

    Symbol ``k`` owns ``width`` bits and a code sets as many of them as it holds copies of ``k``,
    so the AND keeps the smaller count per symbol: the histogram-minimum sum, measured 1.3 to 5
    times faster than summing minima over histograms. Codes with distinct symbols get
    ``width == 1``: a plain set bitmask. Takes and returns one column per code; the words are in
    the smallest unsigned type that holds the bits (smaller types measured faster), or uint64
    words beyond 64 bits.
    """
    bits = symbols * width
    kinds = (np.uint8, np.uint16, np.uint32, np.uint64)
    dtype = np.dtype(next((kind for kind in kinds if bits <= np.iinfo(kind).bits), np.uint64))
    word_bits = dtype.itemsize * 8
    masks = np.zeros((-(-bits // word_bits), columns.shape[1]), dtype)
    for symbol, copy in zip(columns, earlier_copies, strict=True):
        word, offset = np.divmod(symbol.astype(np.uint16) * width + copy, word_bits)
        flag = np.left_shift(dtype.type(1), offset.astype(dtype))
        for index, mask in enumerate(masks):
            mask |= flag if len(masks) == 1 else np.where(word == index, flag, dtype.type(0))
    return masks


def _earlier_copies(columns: np.ndarray) -> np.ndarray:
    """For each position, how many earlier positions of the code hold the same symbol."""
    copies = np.zeros(columns.shape, np.uint8)
    for position in range(1, len(columns)):
        for earlier in range(position):
            copies[position] += columns[earlier] == columns[position]
    return copies
