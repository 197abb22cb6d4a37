"""The compiled branch and bound below the levels where symmetry still prunes (numba).

The Python search (``search.Search``) handles the first levels, where relabellings cut the
guesses to a few classes and each set is large. Below them every guess has to be scored on every
set, most sets are small, and the interpreter's overhead per set (150 to 300 µs measured with
numpy) dominated: Bulls and Cows 4 of 10 did not finish in 25 minutes. This module runs the same
fail-soft search, set for set and bound for bound, compiled with numba:

- a candidate guess that splits the set into parts of one or two is exact; when it also meets
  the set's counting bound it is optimal and the set is done after ``n * n`` table reads;
- otherwise every guess is scored in passes over the set's rows of the table, secret by secret
  (a guess at a time read the table column-wise, and cache misses made that 3 to 5 times
  slower); a guess that meets the least value possible ends the set, the others are tried
  best first;
- a cache of every set solved or refuted, keyed by two 64-bit hashes of the set and checked
  against the stored set on every hit, so a hash collision can never give a wrong value.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import types
from numba.typed import Dict, List

from moocow.optimal.bounds import INFEASIBLE

SET_TYPE = types.int32[::1]
KEY_TYPE = types.UniTuple(types.uint64, 2)

NODES, HITS, PROBES = 0, 1, 2
"""Indices of the counters in the ``stats`` array."""


class KernelCache:
    """The compiled search's cache: sets (with their depth) to exact values or refutations."""

    def __init__(self) -> None:
        self.index = Dict.empty(KEY_TYPE, types.int64)
        """Hashes of (set, depth) to the entry's position in the lists below."""
        self.sets = List.empty_list(SET_TYPE)
        self.depths = List.empty_list(types.int64)
        self.values = List.empty_list(types.int64)
        self.guesses = List.empty_list(types.int64)
        """The best guess of an exactly solved set, or -1 when the value is only a lower bound."""

    def __len__(self) -> int:
        return len(self.sets)

    def parts(self) -> tuple:
        """The cache as the tuple the compiled functions take."""
        return (self.index, self.sets, self.depths, self.values, self.guesses)


@nb.njit(cache=True)
def _hashes(candidates: np.ndarray, depth: int) -> tuple[np.uint64, np.uint64]:
    """Two independent 64-bit hashes of a set and its depth (FNV-1a and a multiplicative mix)."""
    first = np.uint64(14695981039346656037)
    second = np.uint64(depth + 1) * np.uint64(0x9E3779B97F4A7C15)
    for secret in candidates:
        value = np.uint64(secret)
        first = (first ^ value) * np.uint64(1099511628211)
        second = (second + value + np.uint64(1)) * np.uint64(0xC2B2AE3D27D4EB4F)
        second ^= second >> np.uint64(29)
    return first, second


@nb.njit(cache=True)
def _find(cache: tuple, candidates: np.ndarray, depth: int) -> int:
    """The cache entry of this set at this depth, or -1."""
    index, sets, depths, _, _ = cache
    key = _hashes(candidates, depth)
    if key not in index:
        return -1
    position = index[key]
    if depths[position] != depth:
        return -1
    stored = sets[position]
    if len(stored) != len(candidates):
        return -1
    for place in range(len(stored)):
        if stored[place] != candidates[place]:
            return -1
    return position


@nb.njit(cache=True)
def _store(cache: tuple, candidates: np.ndarray, depth: int, value: int, guess: int) -> None:
    """Record a set's value (and best guess, or -1 for a lower bound); overwrite its old entry."""
    index, sets, depths, values, guesses = cache
    key = _hashes(candidates, depth)
    if key in index:
        position = _find(cache, candidates, depth)
        if position < 0:
            return  # a different set with the same two hashes: keep the first, never confuse them
        values[position] = value
        guesses[position] = guess
        return
    index[key] = len(sets)
    sets.append(candidates.copy())
    depths.append(depth)
    values.append(value)
    guesses.append(guess)


@nb.njit(cache=True)
def lookup(cache: tuple, candidates: np.ndarray, depth: int) -> tuple[int, int]:
    """``(value, guess)`` cached for a set, or ``(-1, -1)``."""
    position = _find(cache, candidates, depth)
    if position < 0:
        return -1, -1
    _, _, _, values, guesses = cache
    return values[position], guesses[position]


@nb.njit(cache=True)
def _split(table: np.ndarray, candidates: np.ndarray, guess: int, win: int, answer_limit: int) -> tuple:
    """The non-winning parts of a guess's split, concatenated largest first, and their sizes.

    Parts keep the set's ascending order; among equal sizes the smaller answer comes first, as
    in the Python search, so both visit sets in the same order.
    """
    counts = np.zeros(answer_limit, dtype=np.int64)
    for secret in candidates:
        counts[table[secret, guess]] += 1
    counts[win] = 0
    order = np.argsort(-counts, kind="mergesort")
    part_count = 0
    while part_count < answer_limit and counts[order[part_count]] > 0:
        part_count += 1
    order = order[:part_count]
    filled = np.zeros(answer_limit, dtype=np.int64)
    offset = 0
    for answer in order:
        filled[answer] = offset
        offset += counts[answer]
    grouped = np.empty(offset, dtype=np.int32)
    for secret in candidates:
        answer = table[secret, guess]
        if answer != win:
            grouped[filled[answer]] = secret
            filled[answer] += 1
    return grouped, counts[order]


SMALL_SET = 20
"""Up to this size a set's guesses are scored by increments as parts grow (measured faster);
above it by counting first and reading each guess's answers after."""


@nb.njit(cache=True)
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


@nb.njit(cache=True)
def _popcount(bits: np.uint64) -> np.uint64:
    """Set bits of a 64-bit word (the SWAR sum: no loop per bit)."""
    bits = bits - ((bits >> np.uint64(1)) & np.uint64(0x5555555555555555))
    bits = (bits & np.uint64(0x3333333333333333)) + ((bits >> np.uint64(2)) & np.uint64(0x3333333333333333))
    bits = (bits + (bits >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (bits * np.uint64(0x0101010101010101)) >> np.uint64(56)


@nb.njit(cache=True)
def _answers_seen(table: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """A bit per answer each guess gets from the set, OR-ed over its rows four at a time.

    Shifts rather than a lookup table, and four rows a pass, let the compiler vectorise the
    loop: 4 times faster than one row a pass through a table of bits (measured).
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


@nb.njit(cache=True)
def _small_parts_bounds(table: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """``_parts_bounds`` for a set whose parts all cost ``2s - 1`` (``n <= k + 1``): ``2n - parts``.

    Only the number of distinct answers matters then (``_answers_seen``), about 10 times
    faster than counting part sizes.
    """
    seen = _answers_seen(table, candidates)
    totals = np.empty(len(seen), dtype=np.int64)
    for guess in range(len(seen)):
        totals[guess] = 2 * len(candidates) - np.int64(_popcount(np.uint64(seen[guess])))
    return totals


@nb.njit(cache=True)
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


@nb.njit(cache=True)
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


@nb.njit(cache=True)
def _rank(
    guesses: np.ndarray, totals: np.ndarray, is_candidate: np.ndarray, count: int, beta: int, target: int
) -> tuple:
    """One pass over the guesses: those whose bound is below ``beta`` (positions, bounds, whether
    candidates), the least bound of the others, and the first guess whose bound is ``target``.

    A guess's bound is ``n`` plus its non-winning parts' bounds (a winner's part counted 1 in
    ``totals``). Fused into one loop: passes over every guess cost more than scoring at most sets.
    """
    kept = np.empty(len(guesses), dtype=np.int64)
    kept_bounds = np.empty(len(guesses), dtype=np.int64)
    kept_winners = np.empty(len(guesses), dtype=np.int64)
    found, floor = 0, INFEASIBLE
    for place in range(len(guesses)):
        winner = np.int64(is_candidate[guesses[place]])
        bound = min(count + totals[guesses[place]] - winner, INFEASIBLE)
        if bound == target:
            return kept[:0], kept_bounds[:0], kept_winners[:0], floor, place
        if bound < beta:
            kept[found], kept_bounds[found], kept_winners[found] = place, bound, winner
            found += 1
        else:
            floor = min(floor, bound)
    return kept[:found], kept_bounds[:found], kept_winners[:found], floor, -1


@nb.njit(cache=True)
def _spread(table: np.ndarray, candidates: np.ndarray, guess: int, answer_limit: int) -> int:
    """The sum of squared part sizes of a guess: smaller splits more evenly (Irving's measure)."""
    counts = np.zeros(answer_limit, dtype=np.int64)
    for secret in candidates:
        counts[table[secret, guess]] += 1
    return int((counts * counts).sum())


@nb.njit(cache=True)
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


PROBE = 256
"""Guesses read one at a time for a split into singletons before every guess is scored."""


@nb.njit(cache=True)
def _best_first(
    table: np.ndarray,
    candidates: np.ndarray,
    guesses: np.ndarray,
    kept: np.ndarray,
    kept_bounds: np.ndarray,
    kept_winners: np.ndarray,
    least: int,
    answer_limit: int,
) -> np.ndarray:
    """The kept guesses (positions) whose bound is ``least``, best first.

    Ordered by candidates first, then smaller spread, then position. One bound at a time: most
    sets are settled by their first few guesses, and sorting every guess cost more than that.
    """
    tier = np.flatnonzero(kept_bounds == least)
    keys = np.empty(len(tier), dtype=np.int64)
    for index in range(len(tier)):
        spread = _spread(table, candidates, guesses[kept[tier[index]]], answer_limit)
        keys[index] = (1 - kept_winners[tier[index]]) * (np.int64(1) << 50) + spread
    return kept[tier[np.argsort(keys, kind="mergesort")]]


# ---------------------------------------------------------------- symmetry below the Python levels
# The kernel carries the stabiliser of the guesses played so far (position permutations, each
# with the symbol renaming the played guesses force) down its recursion, restricting it by each
# guess it plays, and keeps one guess per class at every set while any relabelling is left (as
# ``symmetry.GuessClasses`` does for the Python levels). Measured on Bulls and Cows: symmetry
# below the third guess still cuts the sets searched 2 to 3 times. These functions live in this
# module because numba's cache of a function is invalidated only by changes to its own file.


@nb.njit(cache=True)
def _restrict(codes: np.ndarray, symmetry: tuple, guess: int) -> tuple:
    """The stabiliser's elements that map ``guess`` to itself, with its symbols' images forced.

    ``symmetry`` is ``(perms, forward, backward)``: ``forward[e, s]`` is the image of symbol
    ``s`` under element ``e`` (-1: not yet forced), ``backward`` its inverse. Once only the
    identity is left and at most one symbol is free, no relabelling prunes anything: the result
    is then empty.
    """
    perms, forward, backward = symmetry
    count, length = perms.shape
    keep = np.ones(count, dtype=np.bool_)
    forward = forward.copy()
    backward = backward.copy()
    code = codes[guess]
    for element in range(count):
        for place in range(length):
            source = code[perms[element, place]]
            target = code[place]
            image, preimage = forward[element, source], backward[element, target]
            if (image >= 0 and image != target) or (preimage >= 0 and preimage != source):
                keep[element] = False
                break
            forward[element, source] = target
            backward[element, target] = source
    perms, forward, backward = perms[keep], forward[keep], backward[keep]
    if len(perms) == 1 and (forward[0] < 0).sum() <= 1:
        perms, forward, backward = perms[:0], forward[:0], backward[:0]
    return perms, forward, backward


@nb.njit(cache=True)
def _is_canonical(codes: np.ndarray, perms: np.ndarray, forward: np.ndarray, guess: int) -> bool:
    """Whether no element of the stabiliser maps ``guess`` below itself (true if it is empty).

    Symbols no played guess forces are renamed to the free ones in order of first appearance,
    the least image an element can make. Asked only of the guesses a set actually tries: a
    mask over every guess, made for each history, took a third of the search (measured), and
    histories rarely repeat.
    """
    if len(perms) == 0:
        return True
    length = codes.shape[1]
    free = np.flatnonzero(forward[0] < 0)
    renaming = np.empty(forward.shape[1], dtype=forward.dtype)
    for element in range(len(perms)):
        renaming[:] = forward[element]
        fresh = 0
        for place in range(length):
            symbol = codes[guess, perms[element, place]]
            image = renaming[symbol]
            if image < 0:
                image = free[min(fresh, len(free) - 1)]
                renaming[symbol] = image
                fresh += 1
            original = codes[guess, place]
            if image != original:
                if image < original:
                    return False
                break
    return True


@nb.njit(cache=True)
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


@nb.njit(cache=True)
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


@nb.njit(cache=True)
def _least_total(totals: np.ndarray, guesses: np.ndarray, count: int, is_candidate: np.ndarray) -> int:
    """The least bound ``n`` plus ``totals`` over ``guesses``, a winner's part (counted 1) taken off."""
    least = INFEASIBLE
    for guess in guesses:
        least = min(least, count + totals[guess] - np.int64(is_candidate[guess]))
    return least


@nb.njit(cache=True)
def set_bound(game: tuple, work: tuple, candidates: np.ndarray, depth: int) -> int:
    """A lower bound on a set's total one level deeper than counting: its best guess's bound.

    The least of ``n`` plus its parts' counting bounds over every guess (``_least_guess_bound``
    counts exactly only the guesses a quick bound leaves in the running); a cached value (exact
    or a bound) is taken as it is.
    """
    table, guess_of, all_guesses, candidates_only, bounds, unlimited, win, answer_limit, _, _ = game
    cache, stats, counts, is_candidate = work
    count = len(candidates)
    static = bounds[depth, count]
    if count <= 2 or static >= INFEASIBLE:
        return static
    position = _find(cache, candidates, depth)
    if position >= 0:
        return cache[3][position]
    stats[PROBES] += 1
    child_bounds = bounds[depth if unlimited else depth - 1]
    if static == 2 * count - 1:  # only a candidate splitting into singletons attains it
        own = guess_of[candidates]
        exact, _ = _exact_scan(table, candidates, own, child_bounds, static, win, answer_limit)
        if exact >= 0:
            _store(cache, candidates, depth, static, exact)
            return static
        _store(cache, candidates, depth, static + 1, -1)
        return static + 1
    guesses = guess_of[candidates] if candidates_only else all_guesses
    for candidate in candidates:
        is_candidate[guess_of[candidate]] = 1
    if len(guesses) * 8 < table.shape[1] or answer_limit > 32:
        totals = _guess_totals(table, candidates, guesses, child_bounds, counts, INFEASIBLE)
        least = _least_total(totals, guesses, count, is_candidate)
    else:
        least = _least_guess_bound(table, candidates, guesses, child_bounds, counts, is_candidate)
    for candidate in candidates:
        is_candidate[guess_of[candidate]] = 0
    least = max(static, min(least, INFEASIBLE))
    _store(cache, candidates, depth, least, -1)
    return least


@nb.njit(cache=True)
def _parts_lower_bounds(
    game: tuple, work: tuple, grouped: np.ndarray, sizes: np.ndarray, depth: int, budget: int
) -> np.ndarray:
    """Lower bounds of a guess's parts (``grouped``, largest first): counting bounds, raised by
    ``set_bound`` (largest first, parts of one or two are exact already) until they reach ``budget``.

    Counting bounds are far below the truth for large sets (a part of 408 secrets: 1434 against
    1562), so refuting a guess on them alone meant solving most of its parts exactly.
    """
    child_bounds = game[4][depth]
    part_bounds = np.empty(len(sizes), dtype=np.int64)
    total = 0
    for index in range(len(sizes)):
        part_bounds[index] = child_bounds[sizes[index]]
        total += part_bounds[index]
    start = 0
    for index in range(len(sizes)):
        size = sizes[index]
        if size <= 2 or total >= budget:
            break
        raised = set_bound(game, work, grouped[start : start + size], depth)
        total += raised - part_bounds[index]
        part_bounds[index] = raised
        start += size
    return part_bounds


@nb.njit(cache=True)
def solve(game: tuple, work: tuple, candidates: np.ndarray, symmetry: tuple, depth: int, beta: int) -> int:
    """The least total of ``candidates`` within ``depth`` if below ``beta``; else a bound ``>= beta``.

    ``game`` is ``Kernel.game`` (the table, bounds and rules), ``work`` is ``Kernel.work`` (the
    cache, counters and scratch space), ``symmetry`` the stabiliser of the guesses played so far
    (``_restrict``; empty when none is left) and ``depth`` the row of the counting bounds.
    """
    table, guess_of, all_guesses, candidates_only, bounds, unlimited, win, answer_limit, branching, codes = (
        game
    )
    cache, stats, counts, is_candidate = work
    count = len(candidates)
    static = bounds[depth, count]
    if count <= 2 or static >= beta:
        return static
    position = _find(cache, candidates, depth)
    if position >= 0:
        value = cache[3][position]
        if cache[4][position] >= 0 or value >= beta:
            stats[HITS] += 1
            return value
    stats[NODES] += 1
    child_depth = depth if unlimited else depth - 1
    child_bounds = bounds[child_depth]
    exact, least = _exact_scan(
        table, candidates, guess_of[candidates], child_bounds, static, win, answer_limit
    )
    if exact >= 0:
        _store(cache, candidates, depth, static, exact)
        return static
    # A guess that is no candidate leaves parts of sizes s_i costing at least 2 s_i - 1 each,
    # in at most min(k, n) parts: at least 3n - min(k, n) in all.
    floor = least if candidates_only else min(least, 3 * count - min(branching, count))
    floor = max(floor, static)
    if floor >= beta:
        _store(cache, candidates, depth, floor, -1)
        return floor
    guesses = guess_of[candidates] if candidates_only else all_guesses
    if not candidates_only:
        exact, _ = _exact_scan(table, candidates, guesses[:PROBE], child_bounds, floor, win, answer_limit)
        if exact >= 0:
            _store(cache, candidates, depth, floor, exact)
            return floor
    totals = _guess_totals(table, candidates, guesses, child_bounds, counts, beta)
    for candidate in candidates:
        is_candidate[guess_of[candidate]] = 1
    # Only a candidate splitting into singletons totals 2n - 1, and none does; a guess bounded by
    # 2n is then the best there is, and its bound exact (singletons, or one pair and the winner).
    target = static + 1 if static == 2 * count - 1 else -1
    kept, kept_bounds, kept_winners, floor, exact = _rank(guesses, totals, is_candidate, count, beta, target)
    for candidate in candidates:
        is_candidate[guess_of[candidate]] = 0
    if exact >= 0:
        _store(cache, candidates, depth, target, guesses[exact])
        return target
    best, best_guess, bound = floor, -1, beta
    while len(kept):
        least = kept_bounds.min()
        if least >= bound:
            best = min(best, least)
            break
        tier = _best_first(table, candidates, guesses, kept, kept_bounds, kept_winners, least, answer_limit)
        higher = kept_bounds > least
        kept, kept_bounds, kept_winners = kept[higher], kept_bounds[higher], kept_winners[higher]
        for place in tier:
            if least >= bound:
                best = min(best, least)
                break
            guess = guesses[place]
            if not _is_canonical(codes, symmetry[0], symmetry[1], guess):
                continue  # its class's least guess, in the same tier, is tried instead
            grouped, sizes = _split(table, candidates, guess, win, answer_limit)
            if sizes[0] == count:
                continue  # splits nothing: never part of a best strategy
            below = _restrict(codes, symmetry, guess) if len(symmetry[0]) else symmetry
            budget = bound - count
            part_bounds = _parts_lower_bounds(game, work, grouped, sizes, child_depth, budget)
            remaining = part_bounds.sum()
            total = 0
            start = 0
            for index in range(len(sizes)):
                size = sizes[index]
                remaining -= part_bounds[index]
                part_budget = budget - total - remaining
                if size <= 2 or part_bounds[index] >= part_budget:
                    total += part_bounds[index]  # what ``solve`` would return, without the call
                else:
                    part = grouped[start : start + size]
                    total += solve(game, work, part, below, child_depth, part_budget)
                start += size
                if total + remaining >= budget:
                    total += remaining
                    break
            value = count + total
            if value < bound:
                best, best_guess, bound = value, guess, value
            else:
                best = min(best, value)
    if best_guess >= 0:
        _store(cache, candidates, depth, best, best_guess)
        return best
    best = max(best, beta)
    _store(cache, candidates, depth, best, -1)
    return best
