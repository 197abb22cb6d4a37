"""How a guess splits a set of candidates at the Python levels of the exact search (``search``)."""

from __future__ import annotations

import numpy as np

from moocow.engine.partitions import count_by_value, split_by_answer
from moocow.optimal.bounds import INFEASIBLE


def split_parts(candidates: np.ndarray, answers: np.ndarray, win: int) -> list[np.ndarray]:
    """The non-winning parts of a split (``engine.partitions.split_by_answer``), each ascending,
    largest first; among equal sizes the smaller answer first, as the compiled search splits."""
    parts = [group for value, group in split_by_answer(candidates, answers) if value != win]
    parts.sort(key=len, reverse=True)
    return parts


def ordered_guesses(
    rows: np.ndarray,
    answers: np.ndarray,
    child_bounds: np.ndarray,
    beta: int,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The columns of ``rows`` worth trying to stay below ``beta``, best first, with the bound of
    each (its parts' ``child_bounds``); and the least bound of the columns left out, as the set's
    value is at least that or the value of a guess tried."""
    count = len(rows)
    sizes = part_sizes(rows, answers)
    guess_bounds = count + child_bounds[sizes].sum(axis=0)
    guess_bounds[sizes.max(axis=0) == count] = INFEASIBLE  # splits nothing: never useful
    keep = guess_bounds < beta
    floor = int(guess_bounds[~keep].min()) if not keep.all() else INFEASIBLE
    columns = np.flatnonzero(keep)
    if len(columns) > 1:
        columns = distinct_columns(rows, columns)
    winners = count - sizes[:, columns].sum(axis=0)
    spread = (sizes[:, columns].astype(np.int64) ** 2).sum(axis=0)
    order = columns[np.lexsort((columns, spread, -winners, guess_bounds[columns]))]
    return order, guess_bounds[order], floor


def distinct_columns(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """The first of each group of columns that split the candidates identically."""
    block = np.ascontiguousarray(rows[:, columns].T)
    keys = block.view(np.dtype((np.void, block.shape[1]))).ravel()
    _, first = np.unique(keys, return_index=True)
    return columns[np.sort(first)]


def part_sizes(rows: np.ndarray, answers: np.ndarray) -> np.ndarray:
    """``sizes[a, g]``: the candidates (``rows`` of the table) giving ``answers[a]`` to column ``g``,
    counted as the engine counts them (``engine.partitions.count_by_value``)."""
    sizes = np.zeros((len(answers), rows.shape[1]), dtype=np.int64)
    count_by_value(rows, answers, sizes)
    return sizes


PRESENCE_CELLS = 1 << 20
"""Table cells counted at a time by ``answers_present``."""


def answers_present(table: np.ndarray) -> np.ndarray:
    """Which of the 256 answers occur anywhere in ``table`` (uint8), a block of rows at a time:
    ``bincount`` copies its input to 8-byte integers, eight times the table for the whole of it
    (a noticeable part of the search's start on seven bottles, most of it the kernel clearing
    fresh pages)."""
    present = np.zeros(256, dtype=bool)
    step = max(1, PRESENCE_CELLS // max(1, table.shape[1]))
    for start in range(0, len(table), step):
        present |= np.bincount(table[start : start + step].ravel(), minlength=256) > 0
    return present
