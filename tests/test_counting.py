"""The routines the engine and the exact search share count and split as plainly as can be.

The engine's numpy path and the exact search's Python levels both count through one routine
(``partitions.count_by_value``); each of its ways (by index, by comparison, per column, compiled
for many values) must give the plain count. The compiled search's split must be the Python one's.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from moocow.engine import partitions
from moocow.optimal.partition import part_sizes


def plain(rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``sizes[v, g]``, one comparison of every value with every cell."""
    return (rows[None, :, :] == values[:, None, None]).sum(axis=1)


WAYS = {
    "chosen": partitions.count_by_value,
    "indexed": partitions._count_indexed,
    "compared": partitions._count_compared,
    "many": partitions._count_many,
}


@st.composite
def tables(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """Rows of a table (uint8, or uint16 as for games of over 256 values) and values to count:
    some of those present, perhaps some absent, ascending."""
    bound = draw(st.sampled_from([2, 9, 14, 40, 300]))
    dtype = np.uint16 if bound > 256 else np.uint8
    shape = (draw(st.integers(1, 600)), draw(st.integers(1, 70)))
    seed = draw(st.integers(0, 2**32 - 1))
    rows = np.random.default_rng(seed).integers(0, bound, shape).astype(dtype)
    chosen = draw(st.sets(st.integers(0, bound + 3), min_size=1, max_size=min(bound + 4, 40)))
    return rows, np.array(sorted(chosen), dtype=np.int64)


@settings(max_examples=60, deadline=None)
@given(table=tables(), way=st.sampled_from(sorted(WAYS)), start=st.integers(0, 5))
def test_every_way_of_counting_gives_the_plain_count(
    table: tuple[np.ndarray, np.ndarray], way: str, start: int
) -> None:
    """Added to what ``sizes`` holds, as the engine adds tile after tile."""
    rows, values = table
    sizes = np.full((len(values), rows.shape[1]), start, dtype=np.int32)
    WAYS[way](rows, values, sizes)
    assert np.array_equal(sizes, plain(rows, values) + start)


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1), width=st.integers(1, partitions.NARROW), bound=st.sampled_from([3, 14])
)
def test_few_columns_of_many_rows_count_plainly(seed: int, width: int, bound: int) -> None:
    """A few opening guesses against many secrets: counted per column."""
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, bound, (partitions.CHUNK_ROWS * partitions.NARROW + 1, width)).astype(np.uint8)
    values = np.arange(bound - 1)
    sizes = np.zeros((len(values), width), dtype=np.int32)
    partitions.count_by_value(rows, values, sizes)
    assert np.array_equal(sizes, plain(rows, values))


def test_the_search_counts_as_the_engine() -> None:
    """``optimal.partition.part_sizes`` is the engine's count, every answer's."""
    rows = np.random.default_rng(3).integers(0, 14, (50, 30)).astype(np.uint8)
    answers = np.arange(14)
    assert np.array_equal(part_sizes(rows, answers), plain(rows, answers))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 60), bound=st.sampled_from([3, 9, 20]))
def test_the_compiled_search_splits_as_the_python_levels(seed: int, count: int, bound: int) -> None:
    """The compiled search keeps its own split (numba cannot call the engine's Python one, and the
    engine does not load numba for it), so the two must give the same parts in the same order."""
    from moocow.optimal.kernel.branch import _split
    from moocow.optimal.partition import split_parts

    rng = np.random.default_rng(seed)
    table = rng.integers(0, bound, (80, 5)).astype(np.uint8)
    candidates = np.sort(rng.choice(80, count, replace=False)).astype(np.int32)
    guess, win = int(rng.integers(0, 5)), int(rng.integers(0, bound))
    grouped, sizes = _split(table, candidates, guess, win, bound)
    parts = split_parts(candidates, table[candidates, guess], win)
    assert [len(part) for part in parts] == sizes.tolist()
    assert np.array_equal(grouped, np.concatenate([*parts, np.zeros(0, np.int32)]))
