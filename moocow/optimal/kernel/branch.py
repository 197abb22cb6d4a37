"""The compiled branch and bound below the levels where the Python search runs (numba).

The Python search (``search.Search``) handles the first levels, where relabellings cut the
guesses to a few classes and each set is large. Below them every guess has to be scored on every
set, most sets are small, and the interpreter's overhead per set (measured with numpy)
dominated: Bulls and Cows 4 of 10 did not finish in the time it was given. This module runs the same
fail-soft search, set for set and bound for bound:

- a candidate guess that splits the set into parts of one or two is exact; when it also meets
  the set's counting bound it is optimal and the set is done after ``n * n`` table reads;
- otherwise every guess is scored (``scores``); a guess that meets the least value possible
  ends the set, the others are tried best first, one per class of relabellings (``relabel``);
- every set solved or refuted is kept (``store``).

Its entry points take ``args`` (the table, bounds and rules: ``kernel_search.KernelArgs``),
``work`` (the store, counters and scratch space) and the symmetry as tuples of arrays and numbers,
which numba's dispatcher types in C: a call from Python costs about a microsecond.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.kernel.loading import Index, njit
from moocow.engine.kernel.relabel import _is_canonical, _restrict
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.kernel.layout import BOUND, FULL, HITS, NODES, PROBES, VALUE
from moocow.optimal.kernel.scores import (
    _exact_scan,
    _guess_totals,
    _least_guess_bound,
    _least_total,
    _spread,
)
from moocow.optimal.kernel.store import decided, find, save, settle


@njit
def _split(table: np.ndarray, candidates: np.ndarray, guess: Index, win: int, answer_limit: int) -> tuple:
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


@njit
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


PROBE = 256
"""Guesses read one at a time for a split into singletons before every guess is scored."""


@njit
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


@njit
def set_bound(args: tuple, work: tuple, candidates: np.ndarray, depth: int) -> int:
    """A lower bound on a set's total one level deeper than counting: its best guess's bound.

    The least of ``n`` plus its parts' counting bounds over every guess (``_least_guess_bound``
    counts exactly only the guesses a quick bound leaves in the running); a cached value (exact
    or a bound) is taken as it is.
    """
    table, guess_of, all_guesses, candidates_only, bounds, unlimited, win, answer_limit = args[:8]
    store, stats, counts, is_candidate = work
    count = len(candidates)
    static = bounds[depth, count]
    if count <= 2 or static >= INFEASIBLE:
        return static
    position = find(store, candidates, depth)
    if position >= 0:
        return store[1][position, VALUE]
    stats[PROBES] += 1
    child_bounds = bounds[depth if unlimited else depth - 1]
    if static == 2 * count - 1:  # only a candidate splitting into singletons attains it
        own = guess_of[candidates]
        exact, _ = _exact_scan(table, candidates, own, child_bounds, static, win, answer_limit)
        if exact >= 0:
            save(store, candidates, depth, static, exact)
            return static
        save(store, candidates, depth, static + 1, -1)
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
    save(store, candidates, depth, least, -1)
    return least


@njit
def _parts_lower_bounds(
    args: tuple, work: tuple, grouped: np.ndarray, sizes: np.ndarray, depth: int, budget: int
) -> np.ndarray:
    """Lower bounds of a guess's parts (``grouped``, largest first): counting bounds, raised by
    ``set_bound`` (largest first, parts of one or two are exact already) until they reach ``budget``.

    Counting bounds are far below the truth for large sets (a part of 408 secrets: 1434 against
    1562), so refuting a guess on them alone meant solving most of its parts exactly.
    """
    child_bounds, deeper = args[4][depth], args[10]
    part_bounds = np.empty(len(sizes), dtype=np.int64)
    total = 0
    for index in range(len(sizes)):
        part_bounds[index] = child_bounds[sizes[index]]
        total += part_bounds[index]
    start = 0
    for index in range(len(sizes)):
        size = sizes[index]
        if size <= 2 or total >= budget or not deeper:
            break
        raised = set_bound(args, work, grouped[start : start + size], depth)
        total += raised - part_bounds[index]
        part_bounds[index] = raised
        start += size
    return part_bounds


@njit
def search(
    args: tuple,
    work: tuple,
    candidates: np.ndarray,
    symmetry: tuple,
    depth: int,
    beta: int,
    guess: Index,
) -> int:
    """The least total of ``candidates`` within ``depth`` if below ``beta``; else a bound ``>= beta``.
    With a ``guess`` (not -1): the total of the parts it leaves, on the same terms; with
    ``BOUND``, the set's bound one level deeper (``set_bound``).

    ``args`` is the table, bounds and rules (``kernel_search.KernelArgs``), ``work`` the store,
    counters and scratch space (``kernel_search.KernelSearch``), ``symmetry`` the stabiliser of
    the guesses played so far (``relabel._restrict``; empty when none is left) and ``depth`` the
    row of the counting bounds.
    One function for both jobs: numba's cache cannot load mutually recursive functions.
    """
    table, guess_of, all_guesses, candidates_only, bounds, unlimited, win, answer_limit = args[:8]
    branching, codes = args[8], args[9]
    store, stats, counts, is_candidate = work
    count = len(candidates)
    child_depth = depth if unlimited else depth - 1
    no_guess = np.int64(-1)  # typed, not a literal: every recursive call must have the entry's types
    if store[3][FULL]:
        return 0  # unwinding: the store is full, the value is thrown away (``store.SetStore.call``)
    if guess == BOUND:
        return set_bound(args, work, candidates, depth)
    if guess >= 0:
        grouped, sizes = _split(table, candidates, guess, win, answer_limit)
        if sizes[0] == count:
            return INFEASIBLE  # splits nothing: never part of a best strategy
        below = _restrict(codes, symmetry, guess) if len(symmetry[0]) else symmetry
        part_bounds = _parts_lower_bounds(args, work, grouped, sizes, child_depth, beta)
        remaining = part_bounds.sum()
        total = 0
        start = 0
        for index in range(len(sizes)):
            size = sizes[index]
            remaining -= part_bounds[index]
            part_budget = beta - total - remaining
            if size <= 2 or part_bounds[index] >= part_budget:
                total += part_bounds[index]  # what a search of the part would return, without it
            else:
                part = grouped[start : start + size]
                total += search(args, work, part, below, child_depth, part_budget, no_guess)
                if store[3][FULL]:
                    return 0
            start += size
            if total + remaining >= beta:
                return total + remaining
        return total
    static = bounds[depth, count]
    if count <= 2 or static >= beta:
        return static
    known = decided(store, candidates, depth, beta)
    if known >= 0:
        stats[HITS] += 1
        return known
    stats[NODES] += 1
    child_bounds = bounds[child_depth]
    exact, least = _exact_scan(
        table, candidates, guess_of[candidates], child_bounds, static, win, answer_limit
    )
    if exact >= 0:
        save(store, candidates, depth, static, exact)
        return static
    # A guess that is no candidate leaves parts of sizes s_i costing at least 2 s_i - 1 each,
    # in at most min(k, n) parts: at least 3n - min(k, n) in all.
    floor = least if candidates_only else min(least, 3 * count - min(branching, count))
    floor = max(floor, static)
    if floor >= beta:
        save(store, candidates, depth, floor, -1)
        return floor
    guesses = guess_of[candidates] if candidates_only else all_guesses
    if not candidates_only:
        exact, _ = _exact_scan(table, candidates, guesses[:PROBE], child_bounds, floor, win, answer_limit)
        if exact >= 0:
            save(store, candidates, depth, floor, exact)
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
        save(store, candidates, depth, target, guesses[exact])
        return target
    best, bound = floor, beta
    best_guess: Index = -1
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
            tried = np.int64(guesses[place])
            if not _is_canonical(codes, symmetry[0], symmetry[1], tried):
                continue  # its class's least guess, in the same tier, is tried instead
            value = count + search(args, work, candidates, symmetry, depth, bound - count, tried)
            if store[3][FULL]:
                return 0
            if value < bound:
                best, best_guess, bound = value, tried, value
            else:
                best = min(best, value)
    return settle(store, candidates, depth, best, best_guess, beta)
