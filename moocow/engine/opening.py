"""The first guesses worth scoring: one per class of guesses alike up to the game's relabellings.

Before any guess every secret is possible, so a relabelling the game declares (``Game.symmetries``:
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
``moocow.optimal.symmetry`` does the general case (after guesses), out of reach for 9 or 10 places.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from moocow.engine.game import Codes, Game


def opening_guesses(game: Game) -> np.ndarray | None:
    """Indices of the least guess of each class, ascending; ``None`` when symmetry does not apply.

    It does not apply when the game declares no symmetry, when its guesses are not in
    lexicographic order, or when some class would have no representative among the guesses.
    Computed once per game.
    """
    if "_opening_guesses" not in game.__dict__:
        game.__dict__["_opening_guesses"] = _opening_guesses(game)
    found: np.ndarray | None = game.__dict__["_opening_guesses"]
    return found


SYMMETRY_CELLS = 1 << 24
"""Scoring this many pairs or more, after some guesses, first drops the guesses alike by symmetry."""


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
    from moocow.optimal.symmetry import GuessClasses

    classes = game.__dict__.get("_guess_classes")
    if classes is None:
        classes = game.__dict__["_guess_classes"] = GuessClasses(game)
    least = classes.canonical(played)
    return None if least is None else np.flatnonzero(least)


def _opening_guesses(game: Game) -> np.ndarray | None:
    codes = game.guesses
    places, symbols = "positions" in game.symmetries, "symbols" in game.symmetries
    if not (places or symbols) or not _lexicographic(codes):
        return None
    steps = np.diff(codes.astype(np.int16), axis=1)
    least = np.ones(len(codes), dtype=bool)
    if places:
        least &= (steps >= 0).all(axis=1)
    if symbols:
        least &= _first_appearance_in_order(codes)
    chosen = np.flatnonzero(least)
    alphabet = int(codes.max()) + 1
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
