"""How each guess would split a candidate set, and the heuristics that score those splits.

This is the hot path of every strategy. Candidates are counted per feedback value by one routine
(``count_by_value``), which the exact search's Python levels share; the last value's count is
derived. A ``bincount`` of value-and-column indices was measured fastest for most sets, and a
comparison per value, vectorised end to end, for the smallest sets and for bottles' large ones
(``count_by_value``; ``bench/counting.py``). Counting with a lookup of 64-bit packed counts was
measured slower.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from moocow.engine.progress import task
from moocow.engine.table import FeedbackTable

if TYPE_CHECKING:
    from moocow.engine.kernel.greedy import Prepared

CHUNK_ROWS = 255
"""Candidates counted at a time: a ``uint8`` count of one chunk cannot overflow."""
CHUNK_CELLS = 1 << 23
"""Cap on a chunk's flags (values x rows x guesses, a byte each): fewer rows for wide guess spaces."""
NARROW = 32
"""Tiles this narrow (a few opening guesses against a million secrets) are counted per guess with
``bincount``: chunks of ``CHUNK_ROWS`` rows by a few columns spent their time in numpy calls, much
slower per cell."""
FEW_VALUES = 32
"""Up to this many feedback values (the bulls and cows of every built-in game) numpy counts them;
beyond it, compiled code counts each cell once (``_count_many``)."""
COMPARED_VALUES = 10
"""Up to this many values over ``COMPARED_CELLS`` or more cells, each value is compared with every
cell (bottles, in their large sets); otherwise they are counted by index (``_count_indexed``)."""
COMPARED_CELLS = 1 << 22
"""See ``COMPARED_VALUES``."""
FEW_COMPARISONS = 32
"""Up to this many comparisons per column (values x rows: two or three candidates), each value is
compared with every cell too: less work than clearing and reading a count per value and column."""
FEW_COMPARED_CELLS = 1 << 12
"""Up to this many comparisons in all (a few candidates by a few classes of guesses, most of an
evaluation's calls), each value is compared with every cell too: fewer numpy calls."""
INDEX_CELLS = 1 << 21
"""Cells counted by index at a time: their indices (8 bytes each) stay a bounded scratch."""
REPORT_CELLS = 1 << 28
"""Scoring this many pairs or more (a second or more) is reported as a task."""


def partition_sizes(
    table: FeedbackTable, candidates: np.ndarray, guesses: np.ndarray | None = None
) -> np.ndarray:
    """``sizes[v, g]``: how many candidates answer guess ``g`` with ``table.values[v]``.

    ``guesses`` restricts the columns (e.g. to candidates only); by default every guess. Work of
    more than ``REPORT_CELLS`` is reported as a task (``engine.progress``).
    """
    width = table.guess_count if guesses is None else len(guesses)
    cells = len(candidates) * width
    prepared = table.compiled(cells)
    if prepared is not None:
        return _compiled_sizes(prepared, table, candidates, guesses)
    counted = table.values[:-1]
    sizes = np.zeros((len(table.values), width), dtype=np.int32)
    with task("scoring guesses", cells, "pairs") if cells >= REPORT_CELLS else _quiet() as advance:
        done = 0
        for columns, rows in table.tiles(candidates, guesses):
            count_by_value(rows, counted, sizes[:-1, columns])
            done += rows.size
            advance(done)
    sizes[-1] = len(candidates) - sizes[:-1].sum(axis=0)
    return sizes


def _compiled_sizes(
    prepared: Prepared, table: FeedbackTable, candidates: np.ndarray, guesses: np.ndarray | None
) -> np.ndarray:
    """``partition_sizes`` by the compiled engine, in slices of guesses so that progress shows."""
    from moocow.engine.kernel import greedy

    cells = len(candidates) * (table.guess_count if guesses is None else len(guesses))
    if cells < REPORT_CELLS:
        return greedy.partition_sizes(prepared, table.values, candidates, guesses)
    guesses = np.arange(table.guess_count) if guesses is None else guesses
    step = max(1, REPORT_CELLS // 16 // max(1, len(candidates)))
    parts = []
    with task("scoring guesses", cells, "pairs") as advance:
        for start in range(0, len(guesses), step):
            chosen = guesses[start : start + step]
            parts.append(greedy.partition_sizes(prepared, table.values, candidates, chosen))
            advance(len(candidates) * (start + len(chosen)))
    return np.concatenate(parts, axis=1)


def compiled_scores(
    table: FeedbackTable,
    candidates: np.ndarray,
    guesses: np.ndarray | None,
    score: Callable[[np.ndarray], np.ndarray],
    first_perfect: bool = False,
) -> np.ndarray | None:
    """``score(partition_sizes(table, candidates, guesses))`` without the sizes, on the compiled
    engine (``greedy.scores``: Mastermind 5x8's minmax faster than sizes, then scores); ``None``
    where that does not apply: the numpy path, a score it does not know, or work large enough to
    show its progress (``REPORT_CELLS``).

    ``first_perfect``: stop at the first guess (``guesses`` ascending) that tells every candidate
    apart, the best score there is; the guesses after it score ``greedy.UNSCORED``.
    """
    kind = COMPILED_KINDS.get(score)
    width = table.guess_count if guesses is None else len(guesses)
    if kind is None or len(candidates) * width >= REPORT_CELLS:
        return None
    prepared = table.compiled(0)  # only if the game's work has taken the engine: counted there
    if prepared is None:
        return None
    from moocow.engine.kernel import greedy

    perfect = (1, len(candidates), -len(candidates))[kind]
    ascending = guesses is None or bool((np.diff(guesses) > 0).all())
    enough = perfect if first_perfect and ascending else None
    return greedy.scores(prepared, candidates, guesses, kind, enough)


def count_by_value(rows: np.ndarray, values: np.ndarray, sizes: np.ndarray) -> None:
    """Add to ``sizes[v, g]`` how many of ``rows`` hold ``values[v]`` in column ``g``.

    The one counting routine of the engine's numpy path (``partition_sizes``) and the exact
    search's Python levels (``optimal.partition``), each way taken where it was measured fastest
    on the games' own tables (``python -m bench.counting``): one ``bincount`` of value-and-column
    indices for most sets (faster than comparing on Mastermind and digits); a
    comparison per value for the smallest sets, and for few values over many cells (bottles' large
    sets, where the scattered increments of ``bincount`` miss the cache); per column for a few
    columns of many rows; in compiled code for many values (``_count_many``).
    """
    width = rows.shape[1]
    if len(values) > FEW_VALUES:
        _count_many(rows, values, sizes)
    elif width <= NARROW and len(rows) > CHUNK_ROWS * NARROW:
        bound = int(values.max()) + 1
        for column in range(width):
            sizes[:, column] += np.bincount(rows[:, column], minlength=bound)[values]
    elif (
        len(values) * len(rows) <= FEW_COMPARISONS
        or len(values) * rows.size <= FEW_COMPARED_CELLS
        or (len(values) <= COMPARED_VALUES and rows.size >= COMPARED_CELLS)
    ):
        _count_compared(rows, values, sizes)
    else:
        _count_indexed(rows, values, sizes)


def _count_indexed(rows: np.ndarray, values: np.ndarray, sizes: np.ndarray) -> None:
    """``count_by_value`` by one ``bincount`` of ``value * width + column`` per chunk of rows
    (at most ``INDEX_CELLS`` cells: the indices take 8 bytes each)."""
    width = rows.shape[1]
    bound = int(values.max()) + 1
    step = max(1, INDEX_CELLS // max(1, width))
    columns = np.arange(width, dtype=np.intp)
    for start in range(0, len(rows), step):
        index = rows[start : start + step].astype(np.intp)
        index *= width
        index += columns
        counts = np.bincount(index.ravel(), minlength=bound * width)
        sizes += counts[: bound * width].reshape(bound, width)[values]


def _count_compared(rows: np.ndarray, values: np.ndarray, sizes: np.ndarray) -> None:
    """``count_by_value`` by comparing every value with every cell, in chunks of at most 255 rows:
    every value is compared at once into one reused ``(values, chunk, guesses)`` flag buffer,
    whose ``uint8`` sum along the chunk cannot overflow."""
    width = rows.shape[1]
    counted = values[:, None, None]
    step = max(1, min(CHUNK_ROWS, CHUNK_CELLS // max(1, width * len(values)), len(rows)))
    flags = np.empty((len(values), step, width), dtype=np.bool_)
    counts = np.empty((len(values), width), dtype=np.uint8)
    for start in range(0, len(rows), step):
        chunk = rows[start : start + step]
        chunk_flags = flags[:, : len(chunk)]
        np.equal(chunk, counted, out=chunk_flags)
        np.add.reduce(chunk_flags.view(np.uint8), axis=1, out=counts)
        sizes += counts


def _count_many(rows: np.ndarray, values: np.ndarray, sizes: np.ndarray) -> None:
    """``count_by_value`` for games of many values (Wordle's 238 marks): each cell counted once,
    in compiled code (``engine.counting``), where comparing every value with every cell would do
    the work once per value and a ``bincount`` would clear guesses x values counts for every
    set, most of which hold a handful of candidates."""
    from moocow.engine.counting import add_sizes

    bound = max(int(values.max()), int(rows.max(initial=0))) + 1
    add_sizes(rows, values.astype(np.int64), bound, sizes)


@contextlib.contextmanager
def _quiet() -> Iterator[Callable[[float], None]]:
    yield lambda done: None


def worst_case(sizes: np.ndarray) -> np.ndarray:
    """Knuth's minimax: the size of the largest part."""
    return sizes.max(axis=0)


def expected_size(sizes: np.ndarray) -> np.ndarray:
    """Irving: the expected size of the remaining set, times the constant n."""
    wide = sizes.astype(np.int64)
    return (wide * wide).sum(axis=0)


@cache
def _n_log_n(limit: int) -> np.ndarray:
    """``n * log2(n)`` for ``n`` in ``0..limit``, from ``math.log2`` so every machine agrees."""
    return np.array([0.0] + [n * math.log2(n) for n in range(1, limit + 1)])


def entropy_cost(sizes: np.ndarray) -> np.ndarray:
    """Neuwirth: ``sum n log n`` (less is more information); sorted first so equal splits tie exactly."""
    ordered = np.sort(sizes, axis=0)
    largest = int(ordered[-1].max())
    return _n_log_n(1 << largest.bit_length())[ordered].sum(axis=0)


TIE_TOLERANCE = 1e-9
"""Relative gap within which entropy costs are compared exactly: their float sums are exact to
about 1e-15 each, so any two further apart are ordered right by the floats."""


def entropy_ties(sizes: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The columns whose ``entropy_cost`` is the least, compared exactly, not to the last bit.

    ``sum n log n`` is least where ``prod n ** n`` is, an integer: {4,1,1,1,1} and {2,2,2,2} both
    give 256, which the float sums, added in different orders, may tell apart in the last bit.
    The floats pick the few columns near the least; their products settle it.
    """
    least = scores.min()
    near = np.flatnonzero(scores <= least + abs(least) * TIE_TOLERANCE)
    if len(near) == 1:
        return near
    products = [_power_product(sizes[:, column]) for column in near]
    smallest = min(products)
    return near[[product == smallest for product in products]]


def _power_product(parts: np.ndarray) -> int:
    """``prod n ** n`` over the parts, as an exact integer."""
    product = 1
    for size in parts[parts > 1].tolist():
        product *= size**size
    return product


def parts_cost(sizes: np.ndarray) -> np.ndarray:
    """Kooi: the number of distinct answers, negated so that less is better."""
    return -np.count_nonzero(sizes, axis=0)


COMPILED_KINDS: dict[Callable[[np.ndarray], np.ndarray], int] = {
    worst_case: 0,
    expected_size: 1,
    parts_cost: 2,
}
"""The scores ``greedy.scores`` computes, by its number for them."""


def split_by_answer(candidates: np.ndarray, answers: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The candidates grouped by the answer each gives: ``(answer, group)`` by answer ascending,
    each group in the candidates' order. The one split of the engine's trees and the exact
    search's Python levels; the compiled search splits the same way (``kernel.branch._split``).

    Sliced by hand from one stable sort and one count per answer: ``np.split`` cost much of the
    exact search's time on bottles n=6.
    """
    grouped = candidates[np.argsort(answers, kind="stable")]
    groups: list[tuple[int, np.ndarray]] = []
    start = 0
    for answer, count in enumerate(np.bincount(answers).tolist()):
        if count:
            groups.append((answer, grouped[start : start + count]))
            start += count
    return groups
