"""The greedy engine's scoring in compiled code (numba): feedback computed and counted in one pass.

Most of a large greedy evaluation went to computing feedback tiles that were then counted
(Mastermind 5x8's table, 32768 x 32768, is over the memory budget, so tiles are recomputed at
every position); counting alone compiled gained 1.4x. Here a game's ``FeedbackForm`` (data: which
counts, packed how) is computed on the fly from codes prepared once per game (symbols by place,
and one 64-bit mask per code whose AND with another's has as many bits set as the codes share
symbols), and counted at once, with no tile in memory. ``import numba`` costs about 0.3 s, so
``engine.partitions`` imports this module only for work large enough to pay for it; the numpy
path stays the reference it is tested against (``tests/test_compiled.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

from moocow.engine.game import Codes, FeedbackForm, Game
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
    """The arrays the kernels read for ``game`` (``None`` when the symbol masks need over 64 bits)."""
    guesses, secrets = game.guesses, game.secrets
    length = guesses.shape[1]
    if form.symbols is None:
        guess_masks, secret_masks = np.zeros(len(guesses), np.uint64), np.zeros(len(secrets), np.uint64)
    else:
        width = max(_most_copies(guesses), _most_copies(secrets))
        if form.symbols * width > 64:
            return None
        guess_masks, secret_masks = _masks(_places(guesses), width), _masks(_places(secrets), width)
    return Prepared(
        guess_places=_places(guesses),
        guess_masks=guess_masks,
        secret_places=_places(secrets),
        secret_masks=secret_masks,
        positional=form.positional,
        common=form.symbols is not None,
        answers=game.feedback_count,
        multiplier=length if form.symbols is not None else 1,
    )


def _places(codes: Codes) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(codes, np.uint8).T)


def _most_copies(codes: Codes) -> int:
    """The most copies of one symbol in any code (1 when every code's symbols are distinct)."""
    ordered = np.sort(np.asarray(codes, np.uint8), axis=1)
    runs = np.ones(len(ordered), np.int64)
    longest = np.ones(len(ordered), np.int64)
    for place in range(1, ordered.shape[1]):
        runs = np.where(ordered[:, place] == ordered[:, place - 1], runs + 1, 1)
        longest = np.maximum(longest, runs)
    return int(longest.max(initial=1))


@nb.njit(cache=True)
def _masks(places: np.ndarray, width: int) -> np.ndarray:  # pragma: no cover - compiled
    """Symbol ``k`` owns ``width`` bits; a code sets one of them per copy of ``k`` it holds."""
    length, count = places.shape
    masks = np.zeros(count, np.uint64)
    for code in range(count):
        mask = np.uint64(0)
        for place in range(length):
            symbol = places[place, code]
            copy = 0
            for earlier in range(place):
                copy += places[earlier, code] == symbol
            mask |= np.uint64(1) << np.uint64(symbol * width + copy)
        masks[code] = mask
    return masks


@nb.njit(cache=True, inline="always")
def _popcount(bits: np.uint64) -> np.uint8:  # pragma: no cover - compiled
    """Set bits of a word (the SWAR sum, which LLVM turns into one instruction)."""
    bits = bits - ((bits >> np.uint64(1)) & np.uint64(0x5555555555555555))
    bits = (bits & np.uint64(0x3333333333333333)) + ((bits >> np.uint64(2)) & np.uint64(0x3333333333333333))
    bits = (bits + (bits >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.uint8((bits * np.uint64(0x0101010101010101)) >> np.uint64(56))


@nb.njit(cache=True, inline="always")
def _answers(
    places: np.ndarray,
    masks: np.ndarray,
    first: int,
    symbols: np.ndarray,
    mask: np.uint64,
    form: tuple,
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
            out[i] = _popcount(mask & chosen[i])
    else:
        out[:] = 0
    if positional:
        step = np.uint8(multiplier)
        for place in range(places.shape[0]):
            symbol = symbols[place]
            row = places[place, first : first + width]
            for i in range(width):
                out[i] += step * np.uint8(row[i] == symbol)


@nb.njit(cache=True)
def _gather(places: np.ndarray, masks: np.ndarray, codes: np.ndarray) -> tuple:  # pragma: no cover - compiled
    """The places and masks of ``codes`` (indices), contiguous."""
    gathered = np.empty((places.shape[0], len(codes)), np.uint8)
    chosen = np.empty(len(codes), np.uint64)
    for i in range(len(codes)):
        code = codes[i]
        chosen[i] = masks[code]
        for place in range(places.shape[0]):
            gathered[place, i] = places[place, code]
    return gathered, chosen


@nb.njit(cache=True, inline="always")
def _count_answers(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple,
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


@nb.njit(cache=True, inline="always")
def _count_block(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple,
    first: int,
    values: np.ndarray,
    answers: int,
    sizes: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """``sizes`` of the block of guesses from ``first`` on (``_count_answers``), by value."""
    width = sizes.shape[1]
    counts = np.empty((answers, width), np.int32)
    _count_answers(guess_places, guess_masks, places, masks, form, first, counts)
    last = len(values) - 1
    for j in range(width):
        sizes[last, j] = places.shape[1]
    for v in range(last):
        row = counts[values[v]]
        for j in range(width):
            sizes[v, j] = row[j]
            sizes[last, j] -= row[j]


@nb.njit(cache=True, inline="always")
def _score_block(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple,
    first: int,
    answers: int,
    kind: int,
    scores: np.ndarray,
) -> None:  # pragma: no cover - compiled
    """The scores (``kind`` as in ``_few_scores``) of the block of guesses from ``first`` on,
    read off its counts while they are in cache: no sizes written out and read again."""
    width = len(scores)
    counts = np.empty((answers, width), np.int32)
    _count_answers(guess_places, guess_masks, places, masks, form, first, counts)
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


@nb.njit(cache=True)
def _scores_serial(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple,
    answers: int,
    kind: int,
    enough: int,
) -> np.ndarray:  # pragma: no cover - compiled
    """Each guess's score, block by block, stopping after a block where one reaches ``enough``
    (the guesses after it left at ``UNSCORED``)."""
    count = guess_places.shape[1]
    scores = np.empty(count, np.int64)
    for lo in range(0, count, BLOCK):
        hi = min(count, lo + BLOCK)
        _score_block(guess_places, guess_masks, places, masks, form, lo, answers, kind, scores[lo:hi])
        if scores[lo:hi].min() <= enough:
            scores[hi:] = UNSCORED
            break
    return scores


@nb.njit(cache=True, parallel=True)
def _scores_parallel(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple,
    answers: int,
    kind: int,
) -> np.ndarray:  # pragma: no cover - compiled
    """``_scores_serial`` shared among numba's threads, every guess scored."""
    count = guess_places.shape[1]
    scores = np.empty(count, np.int64)
    for block in nb.prange((count + BLOCK - 1) // BLOCK):
        lo, hi = block * BLOCK, min(count, (block + 1) * BLOCK)
        _score_block(guess_places, guess_masks, places, masks, form, lo, answers, kind, scores[lo:hi])
    return scores


@nb.njit(cache=True, parallel=True)
def _sizes_parallel(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple,
    values: np.ndarray,
    answers: int,
) -> np.ndarray:  # pragma: no cover - compiled
    """``sizes[v, g]``: the gathered candidates answering guess ``g`` with ``values[v]``."""
    count = guess_places.shape[1]
    sizes = np.empty((len(values), count), np.int32)
    for block in nb.prange((count + BLOCK - 1) // BLOCK):
        lo, hi = block * BLOCK, min(count, (block + 1) * BLOCK)
        _count_block(guess_places, guess_masks, places, masks, form, lo, values, answers, sizes[:, lo:hi])
    return sizes


@nb.njit(cache=True)
def _sizes_serial(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple,
    values: np.ndarray,
    answers: int,
) -> np.ndarray:  # pragma: no cover - compiled
    """``_sizes_parallel`` in the calling thread: for small work, starting workers costs more."""
    count = guess_places.shape[1]
    sizes = np.empty((len(values), count), np.int32)
    for lo in range(0, count, BLOCK):
        hi = min(count, lo + BLOCK)
        _count_block(guess_places, guess_masks, places, masks, form, lo, values, answers, sizes[:, lo:hi])
    return sizes


@nb.njit(cache=True)
def _column(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    secret_places: np.ndarray,
    secret_masks: np.ndarray,
    form: tuple,
    guess: int,
    candidates: np.ndarray,
) -> np.ndarray:  # pragma: no cover - compiled
    """The feedback of one guess against candidates, gathered here: one call from Python, which
    evaluation makes at every split."""
    places, masks = _gather(secret_places, secret_masks, candidates)
    answers = np.empty(len(candidates), np.uint8)
    _answers(places, masks, 0, guess_places[:, guess].copy(), guess_masks[guess], form, answers)
    return answers


@nb.njit(cache=True)
def _few_scores(
    guess_places: np.ndarray,
    guess_masks: np.ndarray,
    places: np.ndarray,
    masks: np.ndarray,
    form: tuple,
    kind: int,
    enough: int,
) -> np.ndarray:  # pragma: no cover - compiled
    """Worst case (``kind`` 0), expected size (1) or parts (2) of each guess for a few candidates.

    Scoring stops after the block where a score reaches ``enough`` (one no guess can beat): the
    guesses after it are left at ``UNSCORED``.

    Each candidate's part is the candidates answering as it does: the largest is the worst
    case, their sum is the sum of the squared parts, and a candidate answering as none before it
    opens a part. Comparing answers pairwise (k^2 per guess, vectorised along the guesses) beats
    counting every answer (36 on Mastermind 5x8) when k is small.
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


@nb.njit(cache=True)
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
"""Up to this many candidates ``scores`` compares answers pairwise (1.4 to 2 times faster than
counting them, measured on Mastermind 5x8; slower above)."""


def scores(
    prepared: Prepared, candidates: np.ndarray, guesses: np.ndarray | None, kind: int, enough: int | None
) -> np.ndarray:
    """Each guess's score of ``kind`` (0: worst case, 1: expected size, 2: parts) for
    ``candidates``, over ``guesses`` (all when ``None``), stopping where a score reaches ``enough``
    if it is given. A few candidates are compared pairwise (``_few_scores``); more are counted
    and scored block by block, shared among threads as ``partition_sizes`` is."""
    least = np.iinfo(np.int64).min if enough is None else enough
    codes = _codes(prepared, candidates, guesses)
    if len(candidates) <= FEW_CANDIDATES:
        return _few_scores(*codes, kind, least)
    cells = len(candidates) * codes[0].shape[1]
    shared = (*codes, prepared.answers, kind)
    if cells >= PARALLEL_CELLS:
        return _scores_parallel(*shared)  # every guess scored: the caller takes the first least
    if cells < SHARED_CELLS:
        return _scores_serial(*shared, least)
    return PACE.run((lambda: _scores_serial(*shared, least), lambda: _scores_parallel(*shared)), cells)


PARALLEL_CELLS = 1 << 22
"""Work of this many pairs or more is always shared among numba's threads."""
SHARED_CELLS = 1 << 18
"""From this many pairs up to ``PARALLEL_CELLS``, work is shared or not as ``PACE`` has found
faster lately (``engine.pace``: on an idle machine sharing pays from about 2^18 pairs; under load
the barrier at the end of every parallel call makes it much slower)."""
PACE = Pace()
"""How the mid-sized scorings of this process have gone, serial (0) and shared (1)."""


def _codes(prepared: Prepared, candidates: np.ndarray, guesses: np.ndarray | None = None) -> tuple:
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
    prepared: Prepared, values: np.ndarray, candidates: np.ndarray, guesses: np.ndarray | None
) -> np.ndarray:
    """``partitions.partition_sizes`` computed from the codes: the same ``(values, guesses)`` int32
    (every guess when ``guesses`` is ``None``)."""
    arguments = (
        *_codes(prepared, candidates, guesses),
        np.ascontiguousarray(values, np.int64),
        prepared.answers,
    )
    cells = len(candidates) * len(prepared.guess_masks if guesses is None else guesses)
    if cells >= PARALLEL_CELLS:
        return _sizes_parallel(*arguments)
    if cells < SHARED_CELLS:
        return _sizes_serial(*arguments)
    return PACE.run((lambda: _sizes_serial(*arguments), lambda: _sizes_parallel(*arguments)), cells)


def column(prepared: Prepared, guess: int, candidates: np.ndarray) -> np.ndarray:
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
