"""The compiled search for games of many guesses and no symmetry (Wordle): every level in numba.

The search of ``branch`` is built for games whose relabellings leave a few classes of guesses at
the top and whose feedback has few values. Wordle has neither: 12,972 guesses against 2,315
answers, 238 answers to a guess, no relabelling, and in hard mode a rule on guesses that depends
on the history. This module searches such a game whole, set by set, fail-soft
(``least_total(S, beta)`` is the least total below ``beta``, else a bound at least ``beta``), with the
cuts that make Alex Selby's solver fast, written anew:

- **Per-guess counting bound** in one pass over the set per guess: a part of ``s`` secrets costs
  at least ``2s - 1`` after the guess (its own guesses), so a guess costs at least
  ``n + sum(2s - 1)`` less one for its win. A guess whose parts all have one or two secrets costs
  exactly that, and if it is also the least bound over every guess, the set is done.
- **Endgames settled at once**: a candidate that splits the set into singletons (``2n - 1``), a
  candidate leaving one pair (``2n``, with three guesses left), any guess splitting into
  singletons (``2n``); with two guesses left nothing else will do.
- **Per-part bound before any part is searched** (``bounds``): a part needs at least
  ``2s - 1 + max(0, s - patterns)`` more guesses, where ``patterns`` is the most answers any one
  guess gets over the secrets (Selby's ``3s - 1 + max(0, s - patterns)`` counts the guess that
  made the part too): the next guess can win one and must split the rest into at most
  ``patterns - 1`` parts, each of ``x`` costing ``2x - 1``. Then a quick pass settles the parts
  with a perfect candidate and raises the others to ``2s`` (``2s - 1`` needs one) or to what the
  memo holds, and only then are parts searched, smallest first, each with what the budget leaves.
- **The memo** of every set solved (its value and guess) or refuted (a lower bound), keyed by the
  set, the guesses left and, under a rule on guesses, the legal guesses (``store``).
- Guesses are tried best first by ``2 * sum(s^2) + n * bound``: even splits, low bounds.

``hard.still_legal`` gives the legal guesses of each part under hard mode; a candidate is always
legal there, so the endgame checks hold as they are.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.kernel.loading import Index, njit
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.kernel.hard import still_legal
from moocow.optimal.kernel.layout import FULL, GUESS, HALT, HITS, INDEX_BITS, NODES, VALUE
from moocow.optimal.kernel.store import decided, find, save, settle

SPREAD_WEIGHT = 2
"""The weight of ``sum(s^2)`` against ``n * bound`` in the order guesses are tried."""


@njit
def _key(candidates: np.ndarray, legal: np.ndarray, ruled: bool) -> np.ndarray:
    """What the memo keys a set by: the set, and under a rule on guesses the legal ones after -1."""
    if not ruled:
        return candidates
    key = np.empty(len(candidates) + 1 + len(legal), dtype=np.int32)
    key[: len(candidates)] = candidates
    key[len(candidates)] = -1
    key[len(candidates) + 1 :] = legal
    return key


@njit
def _split(column: np.ndarray, candidates: np.ndarray, win: int, answer_limit: int) -> tuple:
    """The non-winning parts of a guess (``column``: its answer per secret), grouped by answer in
    ascending order: the secrets, each part's size and its answer."""
    counts = np.zeros(answer_limit, dtype=np.int64)
    for secret in candidates:
        counts[column[secret]] += 1
    counts[win] = 0
    parts = 0
    for answer in range(answer_limit):
        parts += counts[answer] > 0
    sizes = np.empty(parts, dtype=np.int64)
    answers = np.empty(parts, dtype=np.int64)
    starts = np.zeros(answer_limit, dtype=np.int64)
    index, offset = 0, 0
    for answer in range(answer_limit):
        if counts[answer]:
            sizes[index], answers[index] = counts[answer], answer
            starts[answer] = offset
            offset += counts[answer]
            index += 1
    grouped = np.empty(offset, dtype=np.int32)
    for secret in candidates:
        answer = column[secret]
        if answer != win:
            grouped[starts[answer]] = secret
            starts[answer] += 1
    return grouped, sizes, answers


@njit
def _candidate_scan(by_guess: np.ndarray, guess_of: np.ndarray, candidates: np.ndarray) -> tuple:
    """A candidate splitting the set into singletons, else -1; and one leaving a single pair, else -1."""
    counts = np.zeros(256, dtype=np.int64)
    near = -1
    for candidate in candidates:
        row = by_guess[guess_of[candidate]]
        doubled = 0
        for secret in candidates:
            answer = row[secret]
            counts[answer] += 1
            doubled += counts[answer] >= 2
        for secret in candidates:
            counts[row[secret]] = 0
        if doubled == 0:
            return guess_of[candidate], near
        if doubled == 1 and near < 0:
            near = guess_of[candidate]
    return -1, near


@njit
def _scan(by_secret: np.ndarray, legal: np.ndarray, candidates: np.ndarray, win: int) -> tuple:
    """Every legal guess's counting bound on the set (``INFEASIBLE`` for one that splits nothing),
    whether its parts all have at most two secrets, its order key; and a guess that is no
    candidate and splits the set into singletons (-1 if none)."""
    count = len(candidates)
    counts = np.zeros(256, dtype=np.int64)
    bounds = np.empty(len(legal), dtype=np.int64)
    small = np.empty(len(legal), dtype=np.bool_)
    keys = np.empty(len(legal), dtype=np.int64)
    for index in range(len(legal)):
        guess = legal[index]
        bound, spread, largest = count, 0, 0
        for secret in candidates:
            answer = by_secret[secret, guess]
            size = counts[answer] + 1
            counts[answer] = size
            bound += 1 if size == 1 else 2
            spread += 2 * size - 1
            largest = max(largest, size)
        wins = counts[win]
        for secret in candidates:
            counts[by_secret[secret, guess]] = 0
        if largest == 1 and wins == 0:
            return bounds, small, keys, legal[index]
        bound -= wins
        if largest == count:
            bound = INFEASIBLE
        bounds[index], small[index] = bound, largest <= 2
        keys[index] = ((SPREAD_WEIGHT * spread + count * min(bound, 1 << 24)) << INDEX_BITS) | index
    return bounds, small, keys, -1


@njit(nogil=True)
def least_total(
    game: tuple,
    work: tuple,
    candidates: np.ndarray,
    legal: np.ndarray,
    depth: int,
    beta: int,
    guess: Index,
) -> int:
    """The least total of ``candidates`` (ascending) with ``depth`` guesses left and ``legal``
    guesses allowed, if below ``beta``; else a bound ``>= beta``. With a ``guess`` (not -1): the
    total of the non-winning parts it leaves, on the same terms.

    ``game`` is the table guess-major, the rules and bounds (``optimal.wide.WideSearch``), ``work`` the
    memo and counters. One function for both jobs: numba's cache cannot load mutually recursive
    functions.
    """
    by_guess, by_secret, guess_of, codes, bounds, unlimited, win, _, ruled = game
    store, stats = work
    no_guess = np.int64(-1)  # typed, not a literal: every recursive call must have the entry's types
    if stats[HALT]:
        return 0  # stopped: unwinding, the value is thrown away (``WideSearch._call``)
    if guess >= 0:  # the parts of one guess: bounded, then searched smallest first
        grouped, sizes, answers, starts, part_bounds, exact, total = _part_bounds(
            game, store, candidates, legal, depth, beta, guess
        )
        if total >= beta:
            return total
        for index in np.argsort(sizes, kind="mergesort"):
            if exact[index]:
                continue
            part = grouped[starts[index] : starts[index] + sizes[index]]
            below = still_legal(codes, legal, guess, answers[index]) if ruled else legal
            total -= part_bounds[index]
            value = least_total(game, work, part, below, depth, beta - total, no_guess)
            total = min(total + value, INFEASIBLE)
            if store[3][FULL] or stats[HALT]:
                return 0
            if total >= beta:
                return total
        return total
    count = len(candidates)
    if count == 0:
        return 0
    if depth <= 0:
        return INFEASIBLE
    static = bounds[depth, count]
    if count <= 2 or static >= beta:
        return static
    key = _key(candidates, legal, ruled)
    known = decided(store, key, depth, beta)
    if known >= 0:
        stats[HITS] += 1
        return known
    stats[NODES] += 1
    perfect, near = _candidate_scan(by_guess, guess_of, candidates)
    if perfect >= 0:
        save(store, key, depth, 2 * count - 1, perfect)
        return 2 * count - 1
    if near >= 0 and (unlimited or depth >= 3):
        save(store, key, depth, 2 * count, near)
        return 2 * count
    guess_bounds, small, keys, singles = _scan(by_secret, legal, candidates, win)
    if singles >= 0:
        save(store, key, depth, 2 * count, singles)
        return 2 * count
    if not unlimited and depth <= 2:  # nothing splits into singletons: a secret needs a third guess
        save(store, key, depth, INFEASIBLE, -1)
        return INFEASIBLE
    least = guess_bounds.min()
    for index in range(len(legal)):
        if small[index] and guess_bounds[index] == least:  # parts of one or two: exactly its bound
            save(store, key, depth, least, legal[index])
            return least
    least = max(least, static)
    if least >= beta:
        save(store, key, depth, least, -1)
        return least
    child = depth if unlimited else depth - 1
    best, best_guess, bound, floor = INFEASIBLE, -1, beta, INFEASIBLE
    worth = np.empty(len(legal), dtype=np.int64)  # only these are sorted: at a set refuted, few
    found = 0
    for index in range(len(legal)):
        if guess_bounds[index] < beta:
            worth[found] = keys[index]
            found += 1
        else:
            floor = min(floor, guess_bounds[index])
    for packed in np.sort(worth[:found]):
        index = packed & ((1 << INDEX_BITS) - 1)
        if guess_bounds[index] >= bound:
            floor = min(floor, guess_bounds[index])
            continue
        tried = legal[index]
        value = count + least_total(game, work, candidates, legal, child, bound - count, np.int64(tried))
        if store[3][FULL] or stats[HALT]:
            return 0
        if value < bound:
            best, best_guess, bound = value, tried, value
            if value <= least:
                break
        else:
            floor = min(floor, value)
    return settle(store, key, depth, best if best_guess >= 0 else floor, best_guess, beta)


@njit
def _part_bounds(
    game: tuple,
    store: tuple,
    candidates: np.ndarray,
    legal: np.ndarray,
    depth: int,
    budget: int,
    guess: Index,
) -> tuple:
    """Lower bounds of the non-winning parts ``guess`` leaves, raised until they reach ``budget``:
    counting bounds first (most guesses end there), then settled endgames and the memo's bounds.

    Returns the parts (secrets grouped, sizes, answers, starts), their bounds, which are exact,
    and the bounds' total (at least ``budget`` when a search of the parts is not worth making).
    """
    by_guess, _, guess_of, codes, bounds, unlimited, win, answer_limit, ruled = game
    grouped, sizes, answers = _split(by_guess[guess], candidates, win, answer_limit)
    parts = len(sizes)
    starts = np.zeros(parts, dtype=np.int64)
    for index in range(1, parts):
        starts[index] = starts[index - 1] + sizes[index - 1]
    part_bounds = np.empty(parts, dtype=np.int64)
    exact = sizes <= 2
    total = 0
    if parts and sizes.max() == len(candidates):
        total = INFEASIBLE  # splits nothing: never part of a best strategy
    for index in range(parts):
        part_bounds[index] = bounds[depth, sizes[index]]
        total = min(total + part_bounds[index], INFEASIBLE)
    for index in range(parts):
        size = sizes[index]
        if total >= budget:
            break
        if exact[index]:
            continue
        part = grouped[starts[index] : starts[index] + size]
        perfect, near = _candidate_scan(by_guess, guess_of, part)
        raised = part_bounds[index]
        if perfect >= 0:
            exact[index] = True
        elif near >= 0 and (unlimited or depth >= 3):
            raised, exact[index] = 2 * size, True
        else:
            raised = max(raised, 2 * size)
            below = still_legal(codes, legal, guess, answers[index]) if ruled else legal
            position = find(store, _key(part, below, ruled), depth)
            if position >= 0:
                raised = max(raised, store[1][position, VALUE])
                exact[index] = store[1][position, GUESS] >= 0
        total = min(total + raised - part_bounds[index], INFEASIBLE)
        part_bounds[index] = raised
    return grouped, sizes, answers, starts, part_bounds, exact, total
