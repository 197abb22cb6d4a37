"""The greedy engine's scoring in compiled code (numba): feedback computed and counted in one pass.

Most of a large greedy evaluation went to computing feedback tiles that were then counted
(Mastermind 5x8's table is over the memory budget, so tiles are recomputed at every position),
and compiling the counting alone gained little. Here a game's ``FeedbackForm`` (data: which
counts, packed how) is computed on the fly from codes prepared once per game (symbols by place,
and one 64-bit mask per code whose AND with another's has as many bits set as the codes share
symbols), and counted at once, with no tile in memory (``bench/engines.py`` times it against the
numpy path). ``import numba`` takes longer than a small game's whole evaluation, so
``engine.partitions`` imports this module only for work large enough to pay for it; the numpy
path stays the reference it is tested against (``tests/test_compiled.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba as nb
import numpy as np

from moocow.engine.game import Codes, FeedbackForm, Game
from moocow.engine.kernel.bits import popcount
from moocow.engine.kernel.loading import Index, njit
from moocow.engine.kernel.masks import symbol_masks
from moocow.engine.pace import Pace

BLOCK = 128
"""Guesses counted together: their counts per answer (at most 256 x 128 x 4 bytes) stay in cache."""


@dataclass(frozen=True)
class Prepared:
    """A game's codes as the kernels read them: one row per place, one symbol mask per code."""

    guess_places: np.ndarray
    """``[place, guess]`` symbols (uint8)."""
    guess_masks: np.ndarray
    """``[guess]`` symbol masks (uint64; zero when common symbols are not counted)."""
    secret_places: np.ndarray
    """``[place, secret]`` symbols (uint8)."""
    secret_masks: np.ndarray
    """``[secret]`` symbol masks."""
    positional: bool
    """Whether positional matches are counted."""
    common: bool
    """Whether common symbols are counted."""
    answers: int
    """Exclusive bound of the packed feedback values."""
    multiplier: int
    """What one positional match adds: the code length when common symbols are counted too."""


def prepare(game: Game, form: FeedbackForm) -> Prepared | None:
    """The arrays the kernels read for ``game`` (``None`` when the symbol masks need over 64 bits,
    or when the game's feedback is not symmetric: ``_answers`` scores one code against many
    without telling guess from secret)."""
    if not game.feedback_model.symmetric:
        return None
    guesses, secrets = np.asarray(game.guesses, np.uint8), np.asarray(game.secrets, np.uint8)
    length = guesses.shape[1]
    if form.symbols is None:
        guess_masks, secret_masks = np.zeros(len(guesses), np.uint64), np.zeros(len(secrets), np.uint64)
    else:
        guess_words, secret_words = symbol_masks(guesses, secrets, form.symbols)
        if len(guess_words) > 1:
            return None
        guess_masks, secret_masks = guess_words[0].astype(np.uint64), secret_words[0].astype(np.uint64)
    return Prepared(
        guess_places=_places(guesses),
        guess_masks=guess_masks,
        secret_places=_places(secrets),
        secret_masks=secret_masks,
        positional=form.positional,
        common=form.symbols is not None,
        answers=game.feedback_bound,
        multiplier=length if form.symbols is not None else 1,
    )


def _places(codes: Codes) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(codes, np.uint8).T)


@njit(inline="always")
def _answers(
    places: np.ndarray,
    masks: np.ndarray,
    first: int,
    symbols: np.ndarray,
    mask: np.uint64,
    form: tuple[Any, ...],
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """The feedback of one code (``symbols``, ``mask``) against ``len(out)`` codes from ``first`` on
    (``places``, ``masks``) into ``out``.

    The loops run along the codes, so LLVM vectorises them; a symmetric feedback needs no roles.
    """
    positional, common, multiplier = form
    width = len(out)
    if common:
        chosen = masks[first : first + width]
        for i in range(width):
            out[i] = np.uint8(popcount(mask & chosen[i]))
    else:
        out[:] = 0
    if positional:
        step = np.uint8(multiplier)
        for place in range(places.shape[0]):
            symbol = symbols[place]
            row = places[place, first : first + width]
            for i in range(width):
                out[i] += step * np.uint8(row[i] == symbol)


@njit
def _gather(
    places: np.ndarray, masks: np.ndarray, codes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """The places and masks of ``codes`` (indices), contiguous."""
    gathered = np.empty((places.shape[0], len(codes)), np.uint8)
    chosen = np.empty(len(codes), np.uint64)
    for i in range(len(codes)):
        code = codes[i]
        chosen[i] = masks[code]
        for place in range(places.shape[0]):
            gathered[place, i] = places[place, code]
    return gathered, chosen


@njit(inline="always")
def _count_answers(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple[Any, ...],
    first: int,
    counts: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """``counts[answer, j]``: the candidates answering guess ``first + j`` so. Each candidate's
    feedback to every guess of the block at once (a vectorised loop), counted in a small,
    cache-resident array."""
    width = counts.shape[1]
    counts[:] = 0
    feedback = np.empty(width, np.uint8)
    symbols = np.empty(places.shape[0], np.uint8)
    for i in range(places.shape[1]):
        symbols[:] = places[:, i]
        _answers(guess_places, guess_masks, first, symbols, masks[i], form, feedback)
        for j in range(width):
            counts[feedback[j], j] += 1


SIZES = -1
"""The ``kind`` of block work that writes each guess's sizes by value, where 0, 1 and 2 are
scores (worst case, expected size, parts; ``_few_scores``)."""
NO_VALUES, NO_SIZES, NO_SCORES = np.zeros(0, np.int64), np.zeros((0, 0), np.int32), np.zeros(0, np.int64)
"""What block work takes for the arguments of the other kind, which it leaves alone."""


@njit(inline="always")
def _block(
    job: tuple[Any, ...], form: tuple[Any, ...], first: int, sizes: np.ndarray, scores: np.ndarray
) -> None:  # pragma: no cover - compiled
    """The block of guesses from ``first`` on (``_count_answers``): their ``sizes`` by value
    (``kind`` ``SIZES``), or their ``scores`` read off the counts while they are in cache, with
    no sizes written out for numpy to read again (faster on Mastermind 5x8's minmax).

    ``job`` is the codes as ``_codes`` gives them but their ``form`` (apart: numba's threads
    cannot take a tuple within a tuple), then the values, the answers' bound and the kind.
    """
    guess_places, guess_masks, places, masks, values, answers, kind = job
    width = len(scores) if kind != SIZES else sizes.shape[1]
    counts = np.empty((answers, width), np.int32)
    _count_answers(guess_places, guess_masks, places, masks, form, first, counts)
    if kind == SIZES:
        last = len(values) - 1
        for j in range(width):
            sizes[last, j] = places.shape[1]
        for v in range(last):
            row = counts[values[v]]
            for j in range(width):
                sizes[v, j] = row[j]
                sizes[last, j] -= row[j]
        return
    scores[:] = 0
    for answer in range(answers):
        row = counts[answer]
        if kind == 0:
            for j in range(width):
                scores[j] = max(scores[j], row[j])
        elif kind == 1:
            for j in range(width):
                scores[j] += row[j] * row[j]
        else:
            for j in range(width):
                scores[j] -= row[j] != 0


@njit
def _blocks_serial(
    job: tuple[Any, ...], form: tuple[Any, ...], sizes: np.ndarray, scores: np.ndarray, enough: int
) -> None:  # pragma: no cover - compiled
    """``_block`` over every guess in the calling thread (for small work, starting threads costs
    more); scoring stops after a block where a score reaches ``enough``, the guesses after it
    left at ``UNSCORED``."""
    count, kind = job[0].shape[1], job[6]
    for lo in range(0, count, BLOCK):
        hi = min(count, lo + BLOCK)
        _block(job, form, lo, sizes[:, lo:hi], scores[lo:hi])
        if kind != SIZES and scores[lo:hi].min() <= enough:
            scores[hi:] = UNSCORED
            return


@njit(parallel=True)
def _blocks_parallel(
    job: tuple[Any, ...], form: tuple[Any, ...], sizes: np.ndarray, scores: np.ndarray
) -> None:  # pragma: no cover - compiled
    """``_block`` over every guess, the blocks shared among numba's threads (no early stop)."""
    count = job[0].shape[1]
    for block in nb.prange((count + BLOCK - 1) // BLOCK):
        lo, hi = block * BLOCK, min(count, (block + 1) * BLOCK)
        _block(job, form, lo, sizes[:, lo:hi], scores[lo:hi])


@njit
def _column(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    secret_places: np.ndarray,
    secret_masks: np.ndarray,
    form: tuple[Any, ...],
    guess: Index,
    candidates: np.ndarray,
) -> np.ndarray:  # pragma: no cover - compiled
    """The feedback of one guess against candidates, gathered here: one call from Python, which
    evaluation makes at every split."""
    places, masks = _gather(secret_places, secret_masks, candidates)
    answers = np.empty(len(candidates), np.uint8)
    _answers(places, masks, 0, guess_places[:, guess].copy(), guess_masks[guess], form, answers)
    return answers


@njit
def _few_scores(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple[Any, ...],
    kind: int,
    enough: int,
) -> np.ndarray:  # pragma: no cover - compiled
    """Worst case (``kind`` 0), expected size (1) or parts (2) of each guess for a few candidates.

    Scoring stops after the block where a score reaches ``enough`` (one no guess can beat): the
    guesses after it are left at ``UNSCORED``.

    Each candidate's part is the candidates answering as it does: the largest is the worst
    case, their sum is the sum of the squared parts, and a candidate answering as none before it
    opens a part. Comparing answers pairwise (k^2 per guess, vectorised along the guesses) beats
    counting every answer the game can give when k is small.
    """
    count, guesses = places.shape[1], guess_places.shape[1]
    scores = np.zeros(guesses, np.int64)
    answers = np.empty((count, BLOCK), np.uint8)
    symbols = np.empty(places.shape[0], np.uint8)
    part = np.empty(BLOCK, np.uint8)
    for lo in range(0, guesses, BLOCK):
        width = min(guesses, lo + BLOCK) - lo
        for i in range(count):
            symbols[:] = places[:, i]
            _answers(guess_places, guess_masks, lo, symbols, masks[i], form, answers[i, :width])
        for i in range(count):
            part[:width] = 0
            for other in range(count if kind != 2 else i):
                for j in range(width):
                    part[j] += answers[other, j] == answers[i, j]
            if kind == 0:
                for j in range(width):
                    scores[lo + j] = max(scores[lo + j], part[j])
            elif kind == 1:
                for j in range(width):
                    scores[lo + j] += part[j]
            else:
                for j in range(width):
                    scores[lo + j] -= part[j] == 0
        if scores[lo : lo + width].min() <= enough:
            scores[lo + width :] = UNSCORED
            break
    return scores


@njit
def _absent_in_order(guess_places: np.ndarray, rank: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Whether each guess's symbols of ``rank`` 0, 1, 2, ... (the others rank -1) first appear in
    that order, from 0: the least guess of those alike by renaming these symbols."""
    length, count = guess_places.shape
    least = np.empty(count, np.bool_)
    for guess in range(count):
        highest, ordered = -1, True
        for place in range(length):
            found = rank[guess_places[place, guess]]
            if found > highest + 1:
                ordered = False
                break
            highest = max(highest, found)
        least[guess] = ordered
    return least


def absent_in_order(prepared: Prepared, symbols: np.ndarray) -> np.ndarray:
    """Mask of the guesses least among those alike by renaming ``symbols`` (ascending) among
    themselves: those using them in order of first appearance, lowest first."""
    rank = np.full(256, -1, np.int64)
    rank[symbols] = np.arange(len(symbols))
    return _absent_in_order(prepared.guess_places, rank)


UNSCORED = np.iinfo(np.int64).max
"""The score of a guess left unscored once one that cannot be beaten is found."""


FEW_CANDIDATES = 10
"""Up to this many candidates ``scores`` compares answers pairwise (faster than counting them,
measured on Mastermind 5x8; slower above)."""


def scores(
    prepared: Prepared,
    candidates: np.ndarray,
    guesses: np.ndarray | None,
    kind: int,
    enough: int | None,
    pace: Pace | None = None,
) -> np.ndarray:
    """Each guess's score of ``kind`` (0: worst case, 1: expected size, 2: parts) for
    ``candidates``, over ``guesses`` (all when ``None``), stopping where a score reaches ``enough``
    if it is given. A few candidates are compared pairwise (``_few_scores``); more are counted
    and scored block by block, shared among threads as ``partition_sizes`` is (``pace``: see
    ``_run_blocks``)."""
    least = np.iinfo(np.int64).min if enough is None else enough
    codes = _codes(prepared, candidates, guesses)
    if len(candidates) <= FEW_CANDIDATES:
        return _few_scores(*codes, kind, least)
    scored = np.empty(codes[0].shape[1], np.int64)
    _run_blocks(codes, NO_VALUES, prepared.answers, kind, NO_SIZES, scored, least, pace)
    return scored


def _run_blocks(
    codes: KernelCodes,
    values: np.ndarray,
    answers: int,
    kind: int,
    sizes: np.ndarray,
    scored: np.ndarray,
    enough: int,
    pace: Pace | None,
) -> None:
    """``_block`` over every guess, in this thread or shared among numba's threads: always from
    ``PARALLEL_CELLS`` pairs, never below ``SHARED_CELLS``, as ``pace`` (the process's ``PACE``
    unless one is given) has lately found faster between. Shared work scores every guess (no
    early stop): the caller takes the first least."""
    cells = codes[2].shape[1] * codes[0].shape[1]
    *places_and_masks, form = codes
    job = (*places_and_masks, values, answers, kind)
    if cells >= PARALLEL_CELLS:
        _blocks_parallel(job, form, sizes, scored)
    elif cells < SHARED_CELLS:
        _blocks_serial(job, form, sizes, scored, enough)
    else:
        (pace or PACE).run(
            (
                lambda: _blocks_serial(job, form, sizes, scored, enough),
                lambda: _blocks_parallel(job, form, sizes, scored),
            ),
            cells,
        )


PARALLEL_CELLS = 1 << 22
"""Work of this many pairs or more is always shared among numba's threads."""
SHARED_CELLS = 1 << 18
"""From this many pairs up to ``PARALLEL_CELLS``, work is shared or not as ``PACE`` has found
faster lately (``engine.pace``: on an idle machine sharing pays from about this many pairs; under
load the barrier at the end of every parallel call makes it much slower)."""
PACE = Pace()
"""How the mid-sized scorings of this process have gone, serial (0) and shared (1): what
``scores`` and ``partition_sizes`` learn from and choose by, unless they are given a ``Pace``."""


KernelCodes = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[bool, bool, int]]
"""The guesses' places and masks, the candidates', and the feedback's form: a kernel's first arguments."""


def _codes(prepared: Prepared, candidates: np.ndarray, guesses: np.ndarray | None = None) -> KernelCodes:
    """What every kernel reads first: the places and masks of the guesses (all of them when
    ``guesses`` is ``None`` or every index in order, read in place, else gathered) and of the
    candidates (gathered), and the feedback's form."""
    places, masks = _gather(prepared.secret_places, prepared.secret_masks, np.ascontiguousarray(candidates))
    guess_places, guess_masks = prepared.guess_places, prepared.guess_masks
    every = guesses is None or (
        len(guesses) == guess_places.shape[1] and (guesses == np.arange(len(guesses))).all()
    )
    if not every:
        guess_places, guess_masks = _gather(
            guess_places, guess_masks, np.ascontiguousarray(guesses, np.int64)
        )
    return guess_places, guess_masks, places, masks, _form(prepared)


def _form(prepared: Prepared) -> tuple[bool, bool, int]:
    return prepared.positional, prepared.common, prepared.multiplier


def partition_sizes(
    prepared: Prepared,
    values: np.ndarray,
    candidates: np.ndarray,
    guesses: np.ndarray | None,
    pace: Pace | None = None,
) -> np.ndarray:
    """``partitions.partition_sizes`` computed from the codes: the same ``(values, guesses)`` int32
    (every guess when ``guesses`` is ``None``; ``pace``: see ``_run_blocks``)."""
    codes = _codes(prepared, candidates, guesses)
    sizes = np.empty((len(values), codes[0].shape[1]), np.int32)
    values = np.ascontiguousarray(values, np.int64)
    _run_blocks(codes, values, prepared.answers, SIZES, sizes, NO_SCORES, 0, pace)
    return sizes


def column(prepared: Prepared, guess: Index, candidates: np.ndarray) -> np.ndarray:
    """``FeedbackTable.column`` computed from the codes: the feedback of one guess (uint8)."""
    return _column(
        prepared.guess_places,
        prepared.guess_masks,
        prepared.secret_places,
        prepared.secret_masks,
        _form(prepared),
        int(guess),
        np.ascontiguousarray(candidates),
    )


ENTRY_POINTS: tuple[Any, ...] = (
    _gather,
    _blocks_serial,
    _blocks_parallel,
    _column,
    _few_scores,
    _absent_in_order,
)
"""The kernels Python calls (the others are inlined into them): what ``engine.warmup`` compiles."""
