"""One guess per class of guesses that a relabelling fixing the history makes equivalent.

A game declares the relabellings under which feedback is unchanged (``Game.symmetries``:
permuting positions, renaming symbols). A relabelling that maps every guess played so far to
itself maps the candidate set to itself, so two guesses it exchanges lead to mirror-image
searches of equal cost: only the lexicographically least of each class need be tried. This is
the incremental constraint-equivalence filter of the notes (Neuwirth, Koyama and Lai): for each
position permutation the guesses played force part of the symbol renaming; symbols not yet
played stay free and are renamed in order of first appearance.
"""

from __future__ import annotations

import itertools

import numpy as np

from moocow.engine.game import Game


class GuessClasses:
    """Canonical guesses of a game after a set of played guesses, cached per set."""

    def __init__(self, game: Game) -> None:
        self.codes = game.guesses.astype(np.intp)
        length = self.codes.shape[1]
        self.symbols_free = "symbols" in game.symmetries
        self.symbol_count = int(self.codes.max()) + 1
        orders = itertools.permutations(range(length)) if "positions" in game.symmetries else [range(length)]
        self.position_perms = np.array(list(orders), dtype=np.intp)
        self.active = bool(game.symmetries)
        """Whether the game declares any symmetry at all."""
        self._cache: dict[tuple[int, ...], np.ndarray | None] = {}
        self._stabilisers: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def canonical(self, played: tuple[int, ...]) -> np.ndarray | None:
        """Boolean mask of the guesses least in their class, or ``None`` when every class is one guess."""
        if not self.active:
            return None
        key = tuple(sorted(set(played)))
        if key not in self._cache:
            self._cache[key] = self._canonical(key)
        return self._cache[key]

    def relabellings(self, played: tuple[int, ...]) -> int:
        """How many position permutations fix ``played`` (up to renaming): what ``canonical`` costs."""
        return len(self._stabiliser(tuple(sorted(set(played))))[0])

    def stabiliser(self, played: tuple[int, ...] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The relabellings fixing ``played`` as the compiled search takes them (``kernel._restrict``).

        Position permutations, forced symbol images and their inverses; empty when they prune
        nothing (``played`` is ``None`` or every class is a single guess).
        """
        if played is None or self.canonical(played) is None:
            perms, forward, backward = self._identity_stabiliser()
            return perms[:0], forward[:0], backward[:0]
        self._stabiliser(played)
        return self._stabilisers[played]

    def _canonical(self, played: tuple[int, ...]) -> np.ndarray | None:
        perms, maps = self._stabiliser(played)
        used = np.zeros(self.symbol_count, dtype=bool)
        used[self.codes[list(played)].ravel()] = True
        free = np.flatnonzero(~used) if self.symbols_free else np.empty(0, np.intp)
        if len(perms) == 1 and len(free) <= 1:
            return None
        smaller = np.zeros(len(self.codes), dtype=bool)
        for perm, mapping in zip(perms, maps, strict=True):
            smaller |= self._image_is_smaller(perm, mapping, free)
        return ~smaller

    def _stabiliser(self, played: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Position permutations compatible with the played guesses, each with its forced renaming.

        A renaming entry of -1 is a free (unplayed) symbol. Without symbol symmetry the renaming
        is the identity and a permutation must fix every played guess on its own. Built from the
        stabiliser of all but the last guess (cached), so each level filters only what is left.
        """
        found = self._stabilisers.get(played)
        if found is not None:
            return found[0], found[1]
        if played:
            self._stabiliser(played[:-1])
            perms, forward, backward = self._stabilisers[played[:-1]]
            found = self._restrict(perms, forward.copy(), backward.copy(), played[-1])
        else:
            found = self._identity_stabiliser()
        self._stabilisers[played] = found
        return found[0], found[1]

    def _identity_stabiliser(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Before any guess: every position permutation, no symbol forced (or all fixed)."""
        count = len(self.position_perms)
        if self.symbols_free:
            forward = np.full((count, self.symbol_count), -1, dtype=np.intp)
        else:
            forward = np.tile(np.arange(self.symbol_count), (count, 1))
        return self.position_perms, forward, forward.copy()

    def _restrict(
        self, perms: np.ndarray, forward: np.ndarray, backward: np.ndarray, guess: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Keep the permutations under which ``guess`` can be mapped to itself, forcing its symbols."""
        rows = np.arange(len(perms))
        ok = np.ones(len(perms), dtype=bool)
        code = self.codes[guess]
        moved = code[perms]
        for place, target in enumerate(code):
            source = moved[:, place]
            ok &= (forward[rows, source] < 0) | (forward[rows, source] == target)
            ok &= (backward[rows, target] < 0) | (backward[rows, target] == source)
            forward[rows, source] = target
            backward[rows, target] = source
        return perms[ok], forward[ok], backward[ok]

    def _image_is_smaller(self, perm: np.ndarray, mapping: np.ndarray, free: np.ndarray) -> np.ndarray:
        """Whether the least image of each guess under this permutation is below the guess itself."""
        guesses = len(self.codes)
        rows = np.arange(guesses)
        renaming = np.tile(mapping, (guesses, 1))
        next_free = np.zeros(guesses, dtype=np.intp)
        decided = np.zeros(guesses, dtype=bool)
        smaller = np.zeros(guesses, dtype=bool)
        for place, source_place in enumerate(perm):
            symbol = self.codes[:, source_place]
            image = renaming[rows, symbol]
            fresh = image < 0
            if fresh.any():
                image = np.where(fresh, free[np.minimum(next_free, len(free) - 1)], image)
                renaming[rows[fresh], symbol[fresh]] = image[fresh]
                next_free += fresh
            original = self.codes[:, place]
            smaller |= ~decided & (image < original)
            decided |= image != original
            if decided.all():
                break
        return smaller
