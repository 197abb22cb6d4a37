"""The guesses worth scoring: one per class of guesses alike up to the game's relabellings.

Before any guess every secret is possible, so a relabelling the game declares (``Game.symmetries_in_force``:
permuting the places, renaming the symbols) maps the candidate set onto itself: guesses it
exchanges split the secrets into parts of the same sizes and tie under every heuristic, and are
equally possible. Ties go to the lowest index, which in a game whose guesses are in
lexicographic order is the lexicographically least code of the class. So scoring only that
least code of each class chooses exactly the guess a scan of every guess would: every arrangement
of the bottle game is alike (one guess, nothing to score), Mastermind with 6 pegs has 11 classes
(``111111``, ``111112``, ... ``123456``), Bulls and Cows one.

Whether a code is the least of its class is read off the code itself, not found by trying every
relabelling: with both symmetries the least codes are those written ``0..0 1..1 2..2`` with the
counts decreasing (``1112``, not ``1222``), with places alone the sorted codes, with symbols alone
the codes whose symbols first appear in the order ``0, 1, 2``. That every class has its least code
among the guesses is checked by counting: the classes' sizes must add up to the guesses.
``moocow.engine.symmetry`` does the general case (after guesses: ``later_guesses``), out of reach
for 9 or 10 places. Symbols no candidate holds can also be renamed among themselves, whatever
the guesses played, and so can the symbols no guess played holds (``absent_symbol_guesses``).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from moocow.engine.game import Codes, Game
from moocow.engine.position import Position

if TYPE_CHECKING:
    from moocow.engine.symmetry import GuessClasses


def opening_guesses(game: Game) -> np.ndarray | None:
    """Indices of the least guess of each class, ascending; ``None`` when symmetry does not apply.

    It does not apply when the game declares no symmetry, when its guesses are not in
    lexicographic order, or when some class would have no representative among the guesses.
    Computed once per game.
    """
    caches = game.caches
    if not caches.opening_searched:
        caches.opening_guesses, caches.opening_searched = _opening_guesses(game), True
    return caches.opening_guesses


SYMMETRY_CELLS = 1 << 22
"""Scoring this many pairs or more, after some guesses, first drops the guesses alike by symmetry
(finding them takes milliseconds: whole evaluations of Mastermind 5x8 and 8 bottles were no
faster with a lower threshold, and slower with a higher one)."""


def later_guesses(game: Game, played: tuple[int, ...], cells: int) -> np.ndarray | None:
    """Indices of the least guess of each class alike under the relabellings fixing ``played``.

    Such a relabelling maps the candidates onto themselves, so the guesses of one class split
    them into parts of the same sizes, answer by answer, and are all candidates or none: every
    heuristic ties them, and the lowest index (in lexicographic order, the least code) is the
    one chosen. ``None`` when not worth it (under ``SYMMETRY_CELLS``) or when symmetry does not
    apply (as for ``opening_guesses``).
    """
    if cells < SYMMETRY_CELLS or opening_guesses(game) is None:
        return None
    least = _guess_classes(game).canonical(played)
    return None if least is None else np.flatnonzero(least)


def warm_up_relabellings(game: Game) -> None:
    """Build (or load) the compiled relabellings ``later_guesses`` takes on ``game`` now, before
    any clock runs: their first build on a machine is a compile, and a fresh install's first
    tournament charged it to minmax's ``ms/guess`` on Bulls and Cows."""
    if len(game.secrets) * len(game.guesses) >= SYMMETRY_CELLS and opening_guesses(game) is not None:
        _guess_classes(game).canonical((0,))


def _guess_classes(game: Game) -> GuessClasses:
    """The game's classes of guesses alike under relabelling, made once per game."""
    from moocow.engine.symmetry import GuessClasses

    classes = game.caches.guess_classes
    if classes is None:
        classes = game.caches.guess_classes = GuessClasses(game)
    return classes


RENAMING_CELLS = 1 << 20
"""Scoring this many pairs or more, first drop the guesses alike by renaming absent symbols
(cheap to find, but below this more than it saves)."""


def absent_symbol_guesses(position: Position, cells: int) -> np.ndarray | None:
    """Mask of the guesses least in their class alike by renaming the symbols no candidate holds,
    and least alike by renaming the symbols no guess played holds.

    Renaming symbols no candidate holds changes no candidate, so (where the game declares symbol
    renaming) guesses it exchanges give every candidate the same answer and are all not
    candidates: they tie under every heuristic, and in lexicographic order the least is the one
    using those symbols in order of first appearance, lowest first. Once a colour of Mastermind
    is ruled out, a guess with it and one with another ruled-out colour are alike: 5x8 keeps 15
    to 60 per cent of its guesses in most positions after the third guess.

    Renaming symbols no guess played holds is one of the relabellings of ``later_guesses``: every
    answer so far is unchanged, so the candidates map onto themselves. Alone it is found as
    cheaply as the first (a small share of what all the relabellings take), so it applies from
    ``RENAMING_CELLS``. A guess least in its class under a group of relabellings is
    least under each part of it, so the masks are combined (AND): the choice is unchanged.

    ``None`` where no two symbols are absent either way, under ``RENAMING_CELLS``, or where symmetry
    does not apply or the compiled engine is not engaged (it computes the masks).
    """
    game, table = position.game, position.table
    if cells < RENAMING_CELLS or "symbols" not in game.symmetries_in_force or opening_guesses(game) is None:
        return None
    prepared = table.compiled(0)
    if prepared is None:
        return None
    from moocow.engine.kernel.greedy import absent_in_order

    played = [guess for guess, _ in position.history]
    least: np.ndarray | None = None
    done: list[np.ndarray] = []
    for held in (game.secrets[position.candidates], game.guesses[played]):
        absent = _symbols_absent(held, game.symbol_count)
        if len(absent) < 2 or any(np.array_equal(absent, other) for other in done):
            continue
        done.append(absent)
        mask = absent_in_order(prepared, absent)
        least = mask if least is None else least & mask
    return least


def _symbols_absent(codes: Codes, symbol_count: int) -> np.ndarray:
    """The symbols none of ``codes`` holds, ascending."""
    present = np.zeros(symbol_count, dtype=bool)
    present[codes.ravel()] = True
    return np.flatnonzero(~present)


def _opening_guesses(game: Game) -> np.ndarray | None:
    codes = game.guesses
    places, symbols = "positions" in game.symmetries_in_force, "symbols" in game.symmetries_in_force
    if not (places or symbols) or not _lexicographic(codes):
        return None
    steps = np.diff(codes.astype(np.int16), axis=1)
    least = np.ones(len(codes), dtype=bool)
    if places:
        least &= (steps >= 0).all(axis=1)
    if symbols:
        least &= _first_appearance_in_order(codes)
    chosen = np.flatnonzero(least)
    alphabet = game.symbol_count
    sizes = []
    for index in chosen:
        counts = Counter(codes[index].tolist())
        if places and symbols and list(counts.values()) != sorted(counts.values(), reverse=True):
            continue
        sizes.append((int(index), _class_size(list(counts.values()), alphabet, places, symbols)))
    if sum(size for _, size in sizes) != len(codes):
        return None
    return np.array([index for index, _ in sizes], dtype=np.int64)


def _lexicographic(codes: Codes) -> bool:
    """Whether the codes are in strictly increasing lexicographic order."""
    if len(codes) < 2:
        return True
    differs = codes[1:] != codes[:-1]
    first = differs.argmax(axis=1)
    rows = np.arange(len(first))
    return bool(differs.any(axis=1).all() and (codes[1:][rows, first] > codes[:-1][rows, first]).all())


def _first_appearance_in_order(codes: Codes) -> np.ndarray:
    """Whether each code's symbols first appear in the order 0, 1, 2, ...: each place is at most
    one above every earlier place."""
    highest = np.full(len(codes), -1, np.int16)
    ok = np.ones(len(codes), dtype=bool)
    for place in range(codes.shape[1]):
        symbol = codes[:, place].astype(np.int16)
        ok &= symbol <= highest + 1
        highest = np.maximum(highest, symbol)
    return ok


def _class_size(counts: list[int], alphabet: int, places: bool, symbols: bool) -> int:
    """How many codes a relabelling maps a code with these symbol counts to."""
    arrangements = math.factorial(sum(counts)) // math.prod(math.factorial(count) for count in counts)
    namings = math.perm(alphabet, len(counts)) // math.prod(
        math.factorial(same) for same in Counter(counts).values()
    )
    if places and symbols:
        return arrangements * namings
    return arrangements if places else math.perm(alphabet, len(counts))
