"""The shared feedback kernels and code-space builders against plain Python."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moocow.plugins import scoring
from moocow.plugins.scoring import bulls_and_cows, common_symbols, positional_matches
from moocow.plugins.spaces import permutation_space, product_space


def plain_counts(guess: list[int], secret: list[int]) -> tuple[int, int]:
    """Positional matches and common symbols (with multiplicity), the slow obvious way."""
    matches = sum(a == b for a, b in zip(guess, secret, strict=True))
    return matches, sum((Counter(guess) & Counter(secret)).values())


@st.composite
def code_sets(draw: st.DrawFn) -> tuple[int, np.ndarray, np.ndarray]:
    """Random guesses and secrets over a random alphabet, repeats allowed."""
    symbols = draw(st.integers(1, 36))
    length = draw(st.integers(1, 15))
    code = st.lists(st.integers(0, symbols - 1), min_size=length, max_size=length)
    guesses = draw(st.lists(code, min_size=1, max_size=6))
    secrets = draw(st.lists(code, min_size=1, max_size=6))
    return symbols, np.array(guesses, np.uint8), np.array(secrets, np.uint8)


@settings(max_examples=200, deadline=None)
@given(code_sets())
def test_kernels_match_plain_python(case: tuple[int, np.ndarray, np.ndarray]) -> None:
    """Every kernel equals the plain count for each pair, for up to 36 symbols and 15 positions."""
    symbols, guesses, secrets = case
    length = guesses.shape[1]
    matches, common, packed = (
        positional_matches(guesses, secrets),
        common_symbols(guesses, secrets, symbols),
        bulls_and_cows(guesses, secrets, symbols),
    )
    for i, guess in enumerate(guesses.tolist()):
        for j, secret in enumerate(secrets.tolist()):
            hits, shared = plain_counts(guess, secret)
            assert (matches[i, j], common[i, j]) == (hits, shared)
            assert packed[i, j] == hits * (length + 1) + (shared - hits)
    assert matches.dtype == common.dtype == packed.dtype == np.uint8


@pytest.mark.parametrize("block_cells", [1, 7, 64])
def test_blocks_and_tiles_cover_the_whole_table(monkeypatch: pytest.MonkeyPatch, block_cells: int) -> None:
    """Tiny blocks (single cells, partial rows, several rows) give the same table as one block."""
    codes = product_space(3, 3)
    expected = bulls_and_cows(codes, codes, 3)
    monkeypatch.setattr(scoring, "BLOCK_CELLS", block_cells)
    assert np.array_equal(bulls_and_cows(codes, codes, 3), expected)
    assert np.array_equal(positional_matches(codes[:5], codes), expected[:5] // 4)


def test_distinct_codes_against_repeating_codes_use_a_common_width() -> None:
    """Masks of distinct-symbol secrets still line up with guesses that repeat a symbol."""
    guesses = np.array([[0, 0, 0], [0, 1, 2]], np.uint8)
    secrets = np.array([[2, 1, 0]], np.uint8)
    assert common_symbols(guesses, secrets, 3).tolist() == [[1], [3]]
    assert common_symbols(secrets, guesses, 3).tolist() == [[1, 3]]


def test_many_symbols_with_repeats_span_several_mask_words() -> None:
    """35 symbols with up to 3 copies need 105 mask bits; the count still takes every word into account."""
    guesses = np.array([[34, 34, 34, 0], [1, 2, 3, 4]], np.uint8)
    secrets = np.array([[34, 0, 34, 1]], np.uint8)
    assert common_symbols(guesses, secrets, 35).tolist() == [[3], [1]]


def test_empty_sides_give_empty_tables() -> None:
    """No guesses or no secrets is an empty table, not an error."""
    codes = product_space(2, 2)
    assert bulls_and_cows(codes[:0], codes, 2).shape == (0, 4)
    assert positional_matches(codes, codes[:0]).shape == (4, 0)


@pytest.mark.parametrize(("symbols", "length"), [(1, 1), (1, 3), (3, 1), (4, 3), (6, 4)])
def test_product_space_is_itertools_product_order(symbols: int, length: int) -> None:
    """The product space lists itertools.product order exactly."""
    expected = list(itertools.product(range(symbols), repeat=length))
    assert product_space(symbols, length).tolist() == [list(code) for code in expected]


@pytest.mark.parametrize(("symbols", "length"), [(1, 1), (2, 2), (5, 1), (5, 3), (6, 6), (7, 4)])
def test_permutation_space_is_itertools_permutations_order(symbols: int, length: int) -> None:
    """The permutation space lists itertools.permutations order exactly."""
    expected = list(itertools.permutations(range(symbols), length))
    assert permutation_space(symbols, length).tolist() == [list(code) for code in expected]


def test_spaces_are_contiguous_uint8() -> None:
    """Spaces come out as the engine stores them: C-contiguous uint8 rows."""
    for codes in (product_space(3, 4), permutation_space(8, 5)):
        assert codes.dtype == np.uint8 and codes.flags.c_contiguous
