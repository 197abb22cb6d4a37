"""Bounds on every guess at a set, one level deeper than counting: the compiled search's scoring.

A guess's bound is the set's size plus the counting bounds of the parts it leaves. Scoring every
guess reads the set's rows of the table secret by secret (a guess at a time read it column-wise,
and cache misses made that slower); while every part's bound is ``2s - 1`` only the
number of distinct answers matters, a bit per answer OR-ed over the rows.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.kernel.bits import popcount
from moocow.engine.kernel.loading import Index, njit
from moocow.optimal.bounds import INFEASIBLE

SMALL_SET = 20
"""Up to this size a set's guesses are scored by increments as parts grow (measured faster);
above it by counting first and reading each guess's answers after."""


@njit
def _parts_bounds(
    table: np.ndarray, candidates: np.ndarray, child_bounds: np.ndarray, counts: np.ndarray
) -> np.ndarray:
    """``sum of child_bounds[part size]`` over every part of every guess, the winning one included.

    ``counts`` is a zeroed ``[guess, answer]`` scratch array and is left zeroed.
    """
    guesses = table.shape[1]
    totals = np.zeros(guesses, dtype=np.int64)
    if len(candidates) <= SMALL_SET:
        growth = np.diff(child_bounds[: len(candidates) + 1])
        for secret in candidates:
            row = table[secret]
            for guess in range(guesses):
                size = counts[guess, row[guess]]
                counts[guess, row[guess]] = size + 1
                totals[guess] += growth[size]
        for secret in candidates:
            row = table[secret]
            for guess in range(guesses):
                counts[guess, row[guess]] = 0
        return totals
    for secret in candidates:
        row = table[secret]
        for guess in range(guesses):
            counts[guess, row[guess]] += 1
    for guess in range(guesses):
        for answer in range(counts.shape[1]):
            size = counts[guess, answer]
            if size:
                counts[guess, answer] = 0
                totals[guess] += child_bounds[size]
    return totals


@njit
def _answers_seen(table: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """A bit per answer each guess gets from the set, OR-ed over its rows four at a time.

    Shifts rather than a lookup table, and four rows a pass, let the compiler vectorise the
    loop: faster than one row a pass through a table of bits (measured).
    """
    guesses = table.shape[1]
    seen = np.zeros(guesses, dtype=np.uint32)
    one = np.uint32(1)
    place = 0
    while place + 4 <= len(candidates):
        first, second = table[candidates[place]], table[candidates[place + 1]]
        third, fourth = table[candidates[place + 2]], table[candidates[place + 3]]
        for guess in range(guesses):
            seen[guess] |= (
                (one << np.uint32(first[guess]))
                | (one << np.uint32(second[guess]))
                | (one << np.uint32(third[guess]))
                | (one << np.uint32(fourth[guess]))
            )
        place += 4
    for secret in candidates[place:]:
        row = table[secret]
        for guess in range(guesses):
            seen[guess] |= one << np.uint32(row[guess])
    return seen


@njit
def _small_parts_bounds(table: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """``_parts_bounds`` for a set whose parts all cost ``2s - 1`` (``n <= k + 1``): ``2n - parts``.

    Only the number of distinct answers matters then (``_answers_seen``), faster than
    counting part sizes.
    """
    seen = _answers_seen(table, candidates)
    totals = np.empty(len(seen), dtype=np.int64)
    for guess in range(len(seen)):
        totals[guess] = 2 * len(candidates) - np.int64(popcount(np.uint64(seen[guess])))
    return totals


@njit
def _column_bounds(
    table: np.ndarray,
    candidates: np.ndarray,
    guesses: np.ndarray,
    child_bounds: np.ndarray,
    counts: np.ndarray,
) -> np.ndarray:
    """``_parts_bounds`` of a few guesses, reading the table a guess (a column) at a time."""
    totals = np.zeros(len(guesses), dtype=np.int64)
    for place in range(len(guesses)):
        column = table[:, guesses[place]]
        for secret in candidates:
            counts[0, column[secret]] += 1
        for answer in range(counts.shape[1]):
            size = counts[0, answer]
            if size:
                counts[0, answer] = 0
                totals[place] += child_bounds[size]
    return totals


@njit
def _guess_totals(
    table: np.ndarray,
    candidates: np.ndarray,
    guesses: np.ndarray,
    child_bounds: np.ndarray,
    counts: np.ndarray,
    beta: int,
) -> np.ndarray:
    """Per guess (by index in the game): the bounds of its parts, the winning one's included.

    Every part of ``s`` secrets costs at least ``2s - 1``, so ``2n`` less the number of parts
    bounds every guess at once (``_small_parts_bounds``), exactly while ``n <= k + 1``. Above
    that, only the guesses this leaves below ``beta`` are counted exactly, when they are few:
    at a set being refuted most guesses drop out here. Guesses not in ``guesses`` may be left
    unset.
    """
    count = len(candidates)
    if len(guesses) * 8 < table.shape[1]:  # few guesses (candidates only): one at a time
        totals = np.zeros(table.shape[1], dtype=np.int64)
        totals[guesses] = _column_bounds(table, candidates, guesses, child_bounds, counts)
        return totals
    if counts.shape[1] > 32:
        return _parts_bounds(table, candidates, child_bounds, counts)
    totals = _small_parts_bounds(table, candidates)
    if child_bounds[count] == 2 * count - 1:
        return totals
    rising = np.empty(len(guesses), dtype=guesses.dtype)
    found = 0
    for guess in guesses:
        if count + totals[guess] - 1 < beta:  # the bound, should the guess be a candidate
            rising[found] = guess
            found += 1
    if found * 4 > len(guesses):
        return _parts_bounds(table, candidates, child_bounds, counts)
    rising = rising[:found]
    totals[rising] = _column_bounds(table, candidates, rising, child_bounds, counts)
    return totals


@njit
def _spread(table: np.ndarray, candidates: np.ndarray, guess: Index, answer_limit: int) -> int:
    """The sum of squared part sizes of a guess: smaller splits more evenly (Irving's measure)."""
    counts = np.zeros(answer_limit, dtype=np.int64)
    for secret in candidates:
        counts[table[secret, guess]] += 1
    return int((counts * counts).sum())


@njit
def _exact_scan(
    table: np.ndarray,
    candidates: np.ndarray,
    guesses: np.ndarray,
    child_bounds: np.ndarray,
    target: int,
    win: int,
    answer_limit: int,
) -> tuple[int, int]:
    """The first guess whose parts have one or two secrets and whose value is ``target``, or -1;
    and the least bound one level deeper among ``guesses``.

    A guess with parts of one or two has an exact value (``n`` plus 1 per single, 3 per pair),
    so when ``target`` is the least value any guess can have, it ends the set. Reading the table
    a guess at a time costs ``n`` reads per guess: cheap for the set's own candidates, or for a
    probe of the first guesses before scoring every guess.
    """
    count = len(candidates)
    counts = np.zeros(answer_limit, dtype=np.int64)
    least = INFEASIBLE
    for guess in guesses:
        for secret in candidates:
            counts[table[secret, guess]] += 1
        total, largest = count, 0
        for answer in range(answer_limit):
            size = counts[answer]
            if size:
                counts[answer] = 0
                if answer != win:
                    total += child_bounds[size]
                    largest = max(largest, size)
        if largest == count:
            continue  # splits nothing
        if largest <= 2 and total == target:
            return guess, total
        least = min(least, total)
    return -1, least


@njit
def _least_guess_bound(
    table: np.ndarray,
    candidates: np.ndarray,
    guesses: np.ndarray,
    child_bounds: np.ndarray,
    counts: np.ndarray,
    is_candidate: np.ndarray,
) -> int:
    """The least ``n`` plus non-winning parts' counting bounds over ``guesses`` (answers below 32).

    Every part of ``s`` costs at least ``2s - 1``, so ``_small_parts_bounds`` (less one for a
    candidate) bounds each guess from one pass; only the guesses whose quick bound is below the
    least exact bound found are then counted exactly, least quick bound first, a column at a
    time while they are few (``COLUMN_SHARE``), every guess at once after that.
    """
    count = len(candidates)
    small = _small_parts_bounds(table, candidates)
    quick = np.empty(len(guesses), dtype=np.int64)
    for place in range(len(guesses)):
        guess = guesses[place]
        quick[place] = count + small[guess] - np.int64(is_candidate[guess])
    best = INFEASIBLE
    one = np.empty(1, dtype=guesses.dtype)
    columns_left = len(guesses) // COLUMN_SHARE
    while True:
        tier = quick.min()
        if tier >= best:
            return best
        for place in range(len(guesses)):
            if quick[place] == tier:
                if columns_left == 0:
                    every = _least_counted(table, candidates, guesses, child_bounds, counts, is_candidate)
                    return min(best, every)
                columns_left -= 1
                quick[place] = INFEASIBLE
                one[0] = guesses[place]
                exact = count + _column_bounds(table, candidates, one, child_bounds, counts)[0]
                best = min(best, exact - np.int64(is_candidate[one[0]]))
                if best == tier:
                    return best


COLUMN_SHARE = 8
"""``_least_guess_bound`` reads at most this share of the guesses a column at a time; past it,
every guess is counted in one pass over the set's rows (column reads miss the cache: on bottles,
where the quick bound refutes almost nothing, they were most of the search's time)."""


@njit
def _least_counted(
    table: np.ndarray,
    candidates: np.ndarray,
    guesses: np.ndarray,
    child_bounds: np.ndarray,
    counts: np.ndarray,
    is_candidate: np.ndarray,
) -> int:
    """The least ``n`` plus non-winning parts' counting bounds over ``guesses``, every guess counted."""
    totals = _parts_bounds(table, candidates, child_bounds, counts)
    return _least_total(totals, guesses, len(candidates), is_candidate)


@njit
def _least_total(totals: np.ndarray, guesses: np.ndarray, count: int, is_candidate: np.ndarray) -> int:
    """The least bound ``n`` plus ``totals`` over ``guesses``, a winner's part (counted 1) taken off."""
    least = INFEASIBLE
    for guess in guesses:
        least = min(least, count + totals[guess] - np.int64(is_candidate[guess]))
    return least
