"""The compiled bit utilities that the greedy engine and the exact search both inline (numba).

One definition of each, so that the two kernels count bits the same way; symbol masks, which
plain numpy builds once per game, are in ``masks``.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.kernel.loading import njit


@njit(inline="always")
def popcount(bits: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """Set bits of a 64-bit word: the SWAR sum, no loop per bit, which LLVM turns into one
    instruction where the CPU has it."""
    bits = bits - ((bits >> np.uint64(1)) & np.uint64(0x5555555555555555))
    bits = (bits & np.uint64(0x3333333333333333)) + ((bits >> np.uint64(2)) & np.uint64(0x3333333333333333))
    bits = (bits + (bits >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (bits * np.uint64(0x0101010101010101)) >> np.uint64(56)
