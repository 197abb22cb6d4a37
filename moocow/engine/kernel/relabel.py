"""Symmetry below the Python levels: the relabellings that fix the guesses played so far.

The compiled search carries the stabiliser of the guesses played (position permutations, each
with the symbol renaming the played guesses force) down its recursion, restricting it by each
guess it plays, and keeps one guess per class at every set while any relabelling is left (as
``symmetry.GuessClasses`` does for the Python levels). Measured on Bulls and Cows: symmetry
below the third guess still cuts the sets searched 2 to 3 times.

The loops over every guess that ``GuessClasses`` runs are here too (``fixing``, ``lowered``,
``join_images``, called through ``entries``), so both levels share one test of a guess.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moocow.engine.kernel.loading import Index, njit


@njit
def _restrict(codes: np.ndarray, symmetry: tuple[Any, ...], guess: Index) -> tuple[Any, ...]:
    """``fixing``, and empty once only the identity is left with at most one symbol free: no
    relabelling prunes anything then."""
    perms, forward, backward = fixing(codes, symmetry, guess)
    if len(perms) == 1 and (forward[0] < 0).sum() <= 1:
        perms, forward, backward = perms[:0], forward[:0], backward[:0]
    return perms, forward, backward


@njit(inline="always")
def fixing(codes: np.ndarray, symmetry: tuple[Any, ...], guess: Index) -> tuple[Any, ...]:
    """The stabiliser's elements that map ``guess`` to itself, with its symbols' images forced.

    ``symmetry`` is ``(perms, forward, backward)``: ``forward[e, s]`` is the image of symbol
    ``s`` under element ``e`` (-1: not yet forced), ``backward`` its inverse.
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
    return perms[keep], forward[keep], backward[keep]


@njit
def _is_canonical(codes: np.ndarray, perms: np.ndarray, forward: np.ndarray, guess: Index) -> bool:
    """Whether no element of the stabiliser maps ``guess`` below itself (true if it is empty).

    Symbols no played guess forces are renamed to the free ones in order of first appearance,
    the least image an element can make. Asked only of the guesses a set actually tries: a
    mask over every guess, made for each history, took much of the search (measured), and
    histories rarely repeat.
    """
    if len(perms) == 0:
        return True
    free = np.flatnonzero(forward[0] < 0)
    renaming = np.empty(forward.shape[1], dtype=forward.dtype)
    for element in range(len(perms)):
        if _maps_below(codes, guess, perms, forward, element, free, renaming):
            return False
    return True


@njit
def lowered(
    codes: np.ndarray, guesses: np.ndarray, perms: np.ndarray, forward: np.ndarray, free: np.ndarray
) -> np.ndarray:
    """Whether each of ``guesses`` is mapped below itself by the element of the same row
    (``perms`` and ``forward`` of one row: that element for every guess), ``free`` symbols renamed
    as ``_is_canonical`` renames them (``symmetry.GuessClasses`` at the Python levels)."""
    out = np.empty(len(guesses), dtype=np.bool_)
    renaming = np.empty(forward.shape[1], dtype=forward.dtype)
    for index in range(len(guesses)):
        row = 0 if len(perms) == 1 else index
        out[index] = _maps_below(codes, guesses[index], perms, forward, row, free, renaming)
    return out


@njit(inline="always")
def _maps_below(
    codes: np.ndarray,
    guess: Index,
    perms: np.ndarray,
    forward: np.ndarray,
    element: int,
    free: np.ndarray,
    renaming: np.ndarray,
) -> bool:
    """Whether ``element`` (a row of ``perms`` and ``forward``) maps ``guess`` lexicographically
    below itself. Indexed in place, not sliced: a slice per guess made ``lowered`` slower."""
    for symbol in range(len(renaming)):
        renaming[symbol] = forward[element, symbol]
    fresh = 0
    for place in range(codes.shape[1]):
        symbol = codes[guess, perms[element, place]]
        image = renaming[symbol]
        if image < 0:
            image = free[min(fresh, len(free) - 1)]
            renaming[symbol] = image
            fresh += 1
        original = codes[guess, place]
        if image != original:
            return image < original
    return False


@njit
def join_images(
    codes: np.ndarray,
    perms: np.ndarray,
    mappings: np.ndarray,
    base: int,
    keys: np.ndarray,
    buckets: tuple[Any, ...],
    forest: np.ndarray,
) -> np.ndarray:
    """Join each code's tree in ``forest`` (parent indices) with its image's under every
    relabelling (a row of ``perms`` and of ``mappings``), and give each code's root: the least
    code joined with it so far, its orbit's least once the relabellings joined generate the
    group. Empty if some image is not a code.

    Images are looked up by key (``keys``: the codes packed as base-``base`` numbers, ascending;
    ``buckets``: ``bucket_starts``), a key or two read per code where a binary search takes the
    logarithm of the keys' count in steps. Joining trees replaced passing labels along every map
    and its inverse until none changed, which found 8 bottles' classes far more slowly.
    """
    for element in range(len(perms)):
        images = _images(codes, perms[element], mappings[element], base, keys, buckets[0], buckets[1])
        if len(images) == 0:
            return images
        for code in range(len(codes)):
            first, second = _root(forest, code), _root(forest, images[code])
            if first < second:
                forest[second] = first
            elif second < first:
                forest[first] = second
    roots = np.empty(len(forest), dtype=forest.dtype)
    for code in range(len(forest)):
        roots[code] = _root(forest, code)
    return roots


@njit
def _images(
    codes: np.ndarray,
    perm: np.ndarray,
    mapping: np.ndarray,
    base: int,
    keys: np.ndarray,
    starts: np.ndarray,
    shift: int,
) -> np.ndarray:
    """The index of each code's image under (``perm``, ``mapping``) among ``keys``; empty if some
    image is not a code. One loop with the lookup written in it: a helper per code ran
    slower."""
    out = np.empty(len(codes), dtype=np.intp)
    for code in range(len(codes)):
        key = np.int64(0)
        for place in range(len(perm)):
            symbol = mapping[codes[code, perm[place]]]
            if symbol < 0:
                return out[:0]
            key = key * base + symbol
        bucket = key >> shift
        if bucket >= len(starts) - 1:
            return out[:0]
        found = starts[bucket]
        while found < starts[bucket + 1] and keys[found] < key:
            found += 1
        if found == starts[bucket + 1] or keys[found] != key:
            return out[:0]
        out[code] = found
    return out


@njit(inline="always")
def _root(forest: np.ndarray, code: int) -> int:
    """The root of ``code``'s tree, halving the path to it on the way."""
    while forest[code] != code:
        forest[code] = forest[forest[code]]
        code = forest[code]
    return code
