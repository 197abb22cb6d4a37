"""One guess per class of guesses that a relabelling fixing the history makes equivalent.

A game declares the relabellings under which feedback is unchanged (``Game.symmetries_in_force``:
permuting positions, renaming symbols). A relabelling that maps every guess played so far to
itself maps the candidate set to itself, so two guesses it exchanges lead to mirror-image
searches of equal cost: only the lexicographically least of each class need be tried. This is
the incremental constraint-equivalence filter of the notes (Neuwirth, Koyama and Lai): for each
position permutation the guesses played force part of the symbol renaming; symbols not yet
played stay free and are renamed in order of first appearance.

The classes are the orbits of the guesses under those relabellings. Trying every relabelling on
every guess costs their product (8 bottles after one guess: 40,320 of each), so the orbits are
found from a few relabellings, the least guess of each is checked against every relabelling,
and any relabelling that maps one lower joins the few until none does (``_least_of_orbits``).
The loops over every guess are compiled, in ``kernel.relabel``, which the compiled search inlines too:
the classes of an evaluation are found several times faster than they were with numpy.
"""

from __future__ import annotations

import itertools

import numpy as np

from moocow.engine.game import Game
from moocow.engine.kernel.entries import FIXING, JOIN_IMAGES, LOWERED

SEED_RELABELLINGS = 8
"""Relabellings the orbits are first found from, spread over the stabiliser; a few random
elements of a group usually generate it, and the check adds whatever they miss."""


class GuessClasses:
    """Canonical guesses of a game after a set of played guesses, cached per set."""

    def __init__(self, game: Game) -> None:
        self.codes = game.guesses.astype(np.intp)
        length = self.codes.shape[1]
        in_force = game.symmetries_in_force
        self.symbols_free = "symbols" in in_force
        self.symbol_count = game.symbol_count
        orders = itertools.permutations(range(length)) if "positions" in in_force else [range(length)]
        self.position_perms = np.array(list(orders), dtype=np.intp)
        self.active = bool(in_force)
        """Whether the game declares any symmetry at all."""
        self._keys = _sorted_keys(self.codes, self.symbol_count)
        """The guesses packed into integers, if ascending (their order is lexicographic)."""
        self._buckets = None if self._keys is None else bucket_starts(self._keys)
        """Where to look each key up (``kernel.relabel.join_images``)."""
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
        least = self._least_of_orbits(perms, maps, free)
        if least is not None:
            return least
        smaller = np.zeros(len(self.codes), dtype=bool)  # not lexicographic: every relabelling on every guess
        everyone = np.arange(len(self.codes))
        for perm, forced in zip(perms, maps, strict=True):
            smaller |= self._lowered_by(everyone, perm, forced, free)
        return ~smaller

    def _least_of_orbits(self, perms: np.ndarray, maps: np.ndarray, free: np.ndarray) -> np.ndarray | None:
        """The least guess of each orbit, from a few relabellings and the check of every one on
        each least guess: a relabelling mapping one lower joins the few (``None`` when the guesses
        are not in lexicographic order, or a relabelling maps one outside them)."""
        if self._keys is None or self._buckets is None:  # both or neither
            return None
        count = len(self.codes)
        spread = np.random.default_rng(0).choice(
            len(perms), min(len(perms), SEED_RELABELLINGS), replace=False
        )
        used = set(spread.tolist())
        relabellings = self._free_renamings(free) + [self._completed(perms[i], maps[i], free) for i in spread]
        forest = np.arange(count)  # each tree's root its least guess (``kernel.relabel.join_images``)
        roots = forest
        while relabellings:
            perm_rows = np.array([perm for perm, _ in relabellings], dtype=np.intp)
            mapping_rows = np.array([mapping for _, mapping in relabellings], dtype=np.intp)
            roots = JOIN_IMAGES(
                self.codes, perm_rows, mapping_rows, self.symbol_count, self._keys, self._buckets, forest
            )
            if len(roots) < count:
                return None  # a relabelling maps some guess outside the guesses
            least = np.flatnonzero(roots == np.arange(count))
            joining = set(self._lowering(least, perms, maps, free).tolist()) - used  # one in use lowers none
            used |= joining
            relabellings = [self._completed(perms[i], maps[i], free) for i in sorted(joining)]
        return roots == np.arange(count)

    def _lowering(
        self, least: np.ndarray, perms: np.ndarray, maps: np.ndarray, free: np.ndarray
    ) -> np.ndarray:
        """The relabellings (indices into ``perms``) that map some of ``least`` lower, a few at most.

        Every pair is tried, a loop along the shorter of the two and arrays along the longer.
        """
        found: set[int] = set()
        if len(least) <= len(perms):
            for guess in least:
                lowers = self._lowers(np.full(len(perms), guess), perms, maps, free)
                found.update(np.flatnonzero(lowers)[:SEED_RELABELLINGS].tolist())
                if len(found) >= SEED_RELABELLINGS:
                    break
        else:
            for index, (perm, forced) in enumerate(zip(perms, maps, strict=True)):
                if self._lowered_by(least, perm, forced, free).any():
                    found.add(index)
                    if len(found) >= SEED_RELABELLINGS:
                        break
        return np.array(sorted(found), dtype=np.intp)

    def _lowered_by(
        self, guesses: np.ndarray, perm: np.ndarray, forced: np.ndarray, free: np.ndarray
    ) -> np.ndarray:
        """``_lowers`` with one relabelling for every guess."""
        return self._lowers(guesses, perm[None], forced[None], free)

    def _lowers(
        self, guesses: np.ndarray, perms: np.ndarray, maps: np.ndarray, free: np.ndarray
    ) -> np.ndarray:
        """Whether the least image of each guess under the relabelling of its row (one row: the
        same for every guess; free symbols renamed in order of first appearance) is below it."""
        return LOWERED(self.codes, guesses, perms, maps, free)

    def _completed(
        self, perm: np.ndarray, forced: np.ndarray, free: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """A relabelling with this position permutation: its forced renaming, free symbols kept."""
        mapping = forced.copy()
        mapping[free] = free
        return perm, mapping

    def _free_renamings(self, free: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Two renamings of the free symbols alone (a swap and a cycle), which generate them all."""
        if len(free) < 2:
            return []
        identity = np.arange(self.codes.shape[1])
        swapped, cycled = np.arange(self.symbol_count), np.arange(self.symbol_count)
        swapped[free[:2]] = free[1::-1]
        cycled[free] = np.roll(free, 1)
        return [(identity, swapped), (identity, cycled)]

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
            found = FIXING(self.codes, (perms, forward, backward), played[-1])
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


def _packed(codes: np.ndarray, base: int) -> np.ndarray:
    """Each code as one integer, its symbols read as digits: ordered as the codes are."""
    keys = np.zeros(len(codes), np.int64)
    for place in range(codes.shape[1]):
        keys = keys * base + codes[:, place]
    return keys


def _sorted_keys(codes: np.ndarray, base: int) -> np.ndarray | None:
    """The codes packed (``_packed``) if they fit 63 bits and ascend, else ``None``."""
    if base ** codes.shape[1] >= 1 << 62:
        return None
    keys = _packed(codes, base)
    return keys if (np.diff(keys) > 0).all() else None


def bucket_starts(keys: np.ndarray) -> tuple[np.ndarray, int]:
    """``buckets`` for ``join_images`` (ascending keys): the first key of each bucket, about one
    key a bucket, and the shift that takes a key to its bucket."""
    buckets = 1 << max(0, int(len(keys) - 1).bit_length())
    shift = max(0, int(keys[-1]).bit_length() - buckets.bit_length() + 1)
    return np.searchsorted(keys >> shift, np.arange(buckets + 1)).astype(np.intp), shift
