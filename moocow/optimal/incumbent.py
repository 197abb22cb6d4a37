"""The best opening found so far, as every worker of a proof over the openings reads it.

A proof over Wordle's openings settles each against the best total found before it: a better
total found by one worker must reach the others while they search, or they go on proving what no
longer matters. The best is one 64-bit number, the total and the opening's place in the order
(``pack``), so one aligned write publishes it whole and a reader never sees half of it; a smaller
number is a better best. Ties go to the opening earlier in the order, as in one process, which
settles them in order: an opening before the best's may tie it and win, so its budget is one
more (``budget``). That is what makes the total *and the tree* the same on any number of workers.

How the number travels is the pool's: forked workers read it from shared memory
(``SharedIncumbent``), Dask workers from the copy pushed to their process (``pushed``).
"""

from __future__ import annotations

import mmap

import numpy as np

from moocow.optimal.bounds import INFEASIBLE

POSITION_BITS = 24
"""Low bits of a packed best that hold the opening's place in the order (Wordle has 12,972)."""
TOTAL_CAP = (1 << (63 - POSITION_BITS)) - 1
"""A total this large or larger packs as 'none found yet' (real totals are far below it)."""
NO_BEST = (TOTAL_CAP << POSITION_BITS) | ((1 << POSITION_BITS) - 1)
"""The packed best before any opening is settled exactly."""


def pack(total: int, position: int) -> int:
    """A best total and the place of its opening, as one number that orders as the search does."""
    return (min(total, TOTAL_CAP) << POSITION_BITS) | position


def unpack(packed: int) -> tuple[int, int]:
    """``(total, position)`` of a packed best (``INFEASIBLE`` for none found yet)."""
    total, position = packed >> POSITION_BITS, packed & ((1 << POSITION_BITS) - 1)
    return (INFEASIBLE if total >= TOTAL_CAP else total), position


def threshold(packed: int, position: int) -> int:
    """The total the opening at ``position`` must stay under to matter: below the best, or equal
    to it when the best's opening comes later in the order (the earlier one wins the tie)."""
    total, at = unpack(packed)
    if total >= INFEASIBLE:
        return INFEASIBLE
    return total + (1 if at > position else 0)


def budget(packed: int, position: int, secrets: int) -> int:
    """The budget of the parts the opening at ``position`` leaves: its threshold less the
    secrets' first guesses (``opening_proof.searched``)."""
    limit = threshold(packed, position)
    return limit if limit >= INFEASIBLE else limit - secrets


class SharedIncumbent:
    """The packed best in memory shared with forked workers: the searching process writes it (the
    only writer), the workers read it while they search."""

    def __init__(self) -> None:
        self._memory = mmap.mmap(-1, 8)  # anonymous and shared: a forked child sees every write
        self._value = np.frombuffer(self._memory, dtype=np.int64)
        self._value[0] = NO_BEST

    def read(self) -> int:
        return int(self._value[0])

    def lower(self, packed: int) -> None:
        """Publish ``packed`` if it is better than what is there."""
        if packed < self._value[0]:
            self._value[0] = packed


pushed: dict[str, int] = {}
"""On a Dask worker's process: the best pushed for each proof under way (by the proof's token),
the least seen kept (``push``); a task reads it while it searches."""


def push(token: str, packed: int) -> None:
    """On a Dask worker (``Client.run``) or in a task: take a better best for proof ``token``."""
    pushed[token] = min(pushed.get(token, NO_BEST), packed)


async def push_to_worker(token: str, packed: int) -> None:
    """``push`` as ``Client.run`` sends it without waiting for an answer (it takes only a coroutine)."""
    push(token, packed)
