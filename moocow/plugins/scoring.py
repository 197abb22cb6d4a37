"""Vectorised feedback kernels shared by the built-in games.

Every count here is a ``(guesses, secrets)`` uint8 table, laid out secret by secret (see
``_secret_major``). The work is done in blocks of about a million cells with scratch buffers
reused from block to block: measured on digits' and 8 bottles' tables, blocks of that size
(temporaries of a few MB, cache-sized) ran faster than blocks of 64 MB, and whole-table
temporaries would need gigabytes for 8 bottles.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.game import Codes
from moocow.engine.kernel.masks import symbol_masks

BLOCK_CELLS = 1 << 20
"""Cells of the table computed at a time; scratch memory is at most 10 bytes per cell."""


def positional_matches(guesses: Codes, secrets: Codes) -> np.ndarray:
    """How many positions hold the same symbol (bulls, black pegs, bottles in place)."""
    return _secret_major(guesses, secrets, positional=True, symbols=None)


def common_symbols(guesses: Codes, secrets: Codes, symbols: int) -> np.ndarray:
    """How many symbols two codes share, counted with multiplicity (bulls plus cows)."""
    return _secret_major(guesses, secrets, positional=False, symbols=symbols)


def bulls_and_cows(guesses: Codes, secrets: Codes, symbols: int) -> np.ndarray:
    """Packed ``(bulls, cows)`` feedback in base ``length + 1`` (Mastermind's black and white too).

    With ``b`` bulls and ``c`` common symbols the packed value ``b * (L + 1) + (c - b)`` is
    ``b * L + c``: one multiply and one add per cell on top of the two counts.
    """
    return _secret_major(guesses, secrets, positional=True, symbols=symbols)


def bulls_and_cows_counts(length: int, symbols: int, distinct: bool) -> list[tuple[int, int]]:
    """Every ``(bulls, cows)`` two codes can score; fewer values are fewer counts per partition.

    Two codes share ``b + c`` symbols: at most ``length``, and with distinct symbols at least
    ``2 * length - symbols`` (digits:length=10 always shares all ten, so only the bulls vary). One cow
    alone beside ``length - 1`` bulls is never scored: the last position would have to hold the
    cow's symbol and the secret's, which differ. Every other pair occurs.
    """
    fewest_common = max(0, 2 * length - symbols) if distinct else 0
    return [
        (bulls, common - bulls)
        for bulls in range(length + 1)
        for common in range(max(bulls, fewest_common), length + 1)
        if (bulls, common - bulls) != (length - 1, 1)
    ]


def _secret_major(guesses: Codes, secrets: Codes, *, positional: bool, symbols: int | None) -> np.ndarray:
    """The ``(guesses, secrets)`` table as the transposed view of a ``(secrets, guesses)`` one.

    Every count here is symmetric in its two codes, so computing with the roles swapped gives the
    same values, laid out secret by secret: the layout of the engine's feedback table, whose rows
    are then plain copies. Transposing a guess-major result into it was most of the table's time
    (measured on 8 bottles and digits).
    """
    if len(guesses) == 1 and len(secrets) == 1:
        return _one_pair(guesses[0], secrets[0], positional=positional, symbols=symbols)
    return _table(secrets, guesses, positional=positional, symbols=symbols).T


def _one_pair(guess: np.ndarray, secret: np.ndarray, *, positional: bool, symbols: int | None) -> np.ndarray:
    """The ``(1, 1)`` table of one pair, counted in plain Python.

    The referee and ``solve`` score one guess at a time, where the blocked machinery (masks,
    buffers, a dozen numpy calls per position) cost far more a call than this.
    """
    first, second = np.asarray(guess, np.uint8).tolist(), np.asarray(secret, np.uint8).tolist()
    value = sum(a == b for a, b in zip(first, second, strict=True)) if positional else 0
    if symbols is not None:
        common = sum(min(first.count(symbol), second.count(symbol)) for symbol in set(first))
        value = value * len(first) + common
    return np.array([[value]], np.uint8)


def _table(guesses: Codes, secrets: Codes, *, positional: bool, symbols: int | None) -> np.ndarray:
    """Positional matches, common symbols, or ``matches * length + common`` when both are asked.

    Laid out ``[guess, secret]`` as named; every count is symmetric, so the sides may be swapped.
    """
    guesses, secrets = np.asarray(guesses, np.uint8), np.asarray(secrets, np.uint8)
    out = np.zeros((len(guesses), len(secrets)), np.uint8)
    height, width = _block_size(out.shape)
    cells = min(height, len(guesses)) * width
    flags = np.empty(cells, np.bool_)
    columns = np.ascontiguousarray(secrets.T)
    if symbols is not None:
        guess_masks, secret_masks = symbol_masks(guesses, secrets, symbols)
        anded = np.empty(cells, secret_masks.dtype)
        counts = np.empty(cells, np.uint8)
    for top in range(0, out.shape[0], height):
        for left in range(0, out.shape[1], width):
            rows, cols = slice(top, top + height), slice(left, left + width)
            block = out[rows, cols]
            if positional:
                _count_positional(guesses[rows], columns[:, cols], block, _shaped(flags, block.shape))
            if positional and symbols is not None:
                np.multiply(block, guesses.shape[1], out=block)
            if symbols is not None:
                anded_block, counts_block = _shaped(anded, block.shape), _shaped(counts, block.shape)
                _add_common(guess_masks[:, rows], secret_masks[:, cols], block, anded_block, counts_block)
    return out


def _count_positional(guesses: Codes, columns: np.ndarray, out: np.ndarray, flags: np.ndarray) -> None:
    """Write into ``out`` the positional matches of a guess block against secret columns."""
    np.equal(guesses[:, 0, None], columns[0], out=out.view(np.bool_))
    for position in range(1, guesses.shape[1]):
        np.equal(guesses[:, position, None], columns[position], out=flags)
        np.add(out, flags.view(np.uint8), out=out)


def _add_common(
    guess_masks: np.ndarray, secret_masks: np.ndarray, out: np.ndarray, anded: np.ndarray, counts: np.ndarray
) -> None:
    """Add into ``out`` the common-symbol counts of a guess block against secret mask columns."""
    for guess_word, secret_word in zip(guess_masks, secret_masks, strict=True):
        np.bitwise_and(guess_word[:, None], secret_word, out=anded)
        np.bitwise_count(anded, out=counts)
        np.add(out, counts, out=out)


def _block_size(shape: tuple[int, int]) -> tuple[int, int]:
    """Rows and columns of a block of about ``BLOCK_CELLS``: whole rows when they fit."""
    width = max(1, min(shape[1], BLOCK_CELLS))
    return max(1, BLOCK_CELLS // width), width


def _shaped(buffer: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A block-shaped view of a reused scratch buffer (fresh multi-MB buffers cost page faults)."""
    return buffer[: shape[0] * shape[1]].reshape(shape)
