"""The greedy engine's compiled kernels, compiled once per machine: said when it happens, and done
up front where a clock is running; loaded only as used once they are cached.

numba compiles the kernels of ``engine.kernel.greedy`` on their first call and keeps them in its
cache; later processes load them quickly. That first compile takes seconds to tens of seconds
on a 2-core machine, and it happened silently inside whatever needed it first: a fresh install's
first tournament took many times as long as later ones, and the compile was charged to the first
strategy's ``ms/guess``. So where the cache is cold, the first use of the compiled engine
compiles every kernel at once, on a game of a few codes, after a notice (``engine.progress.notify``), and a
tournament does it before its first round and its workers (``runner.tournament``), so no player's
clock runs during it (``compile_if_cold``). Where the cache is warm, nothing is done up front:
numba loads each kernel at its first call, so a process loads only what it uses (loading them
all up front cost every process time before any work, some of it, as on Mastermind 5x8's minmax,
for code it never calls: ``bench/warm.py`` times both ways). A session of the engine's strategy
still loads them all before its rounds (``warm_up``): loading is no guess's time either.
"""

from __future__ import annotations

import pickle
import threading
from typing import ClassVar

import numpy as np

from moocow.engine.game import Codes, FeedbackForm, Game

WARM_UP_SECONDS = 15
"""About how long the compile takes on a 2-core machine (less idle, more under load), for the notice."""
NOTICE = "compiling the engine's kernels once for this machine (about {seconds} s; later runs load them)..."


def kernels_cached() -> bool:
    """Whether numba's cache holds every kernel Python calls, compiled from their present source
    by this numba (numba compiles a stale one again, as it does a missing one). Reads numba's cache
    indexes (an internal): where they cannot be read, the kernels are taken as cached and nothing
    is said; an unreadable index is compiled again."""
    from moocow.engine.kernel import greedy as compiled

    try:
        return all(kernel._cache._cache_file._load_index() for kernel in compiled.ENTRY_POINTS)
    except AttributeError:  # another numba: nothing to say, numba compiles as it needs
        return True
    except (OSError, EOFError, ValueError, pickle.UnpicklingError):  # damaged: numba writes it anew
        return False


class ProcessKernels:
    """What this process has done with the compiled engine's kernels: process-wide, as numba's
    kernels are, compiled or loaded once whatever game or thread calls them first. Safe from
    several threads (one lock); ``reset`` makes the process cold again, for tests."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.warm = False
        """Whether every kernel is compiled or loaded in this process."""
        self.checked = False
        """Whether this process has found numba's cache warm, or filled it."""

    def compile_if_cold(self) -> bool:
        """Compile every kernel now, saying so first, if numba's cache lacks one; whether it did. A
        warm cache is left alone: each kernel is loaded at its first call. Once per process."""
        with self._lock:
            if self.checked or self.warm:
                return False
            self.checked = True
            if kernels_cached():
                return False
            self._load_all(say=True)
            return True

    def warm_up(self) -> bool:
        """Compile (or load) every kernel of the compiled engine now, saying so first when a compile
        is due; whether one was. For a clock about to run: whatever a strategy calls is then ready.
        Once per process."""
        with self._lock:
            if self.warm:
                return False
            compiling = not self.checked and not kernels_cached()
            self.checked = True
            self._load_all(say=compiling)
            return compiling

    def reset(self) -> None:
        """Take the kernels as neither checked nor loaded, as in a fresh process."""
        with self._lock:
            self.warm = self.checked = False

    def _load_all(self, say: bool) -> None:
        """Compile or load every kernel, after the notice if ``say`` (the caller holds the lock)."""
        if say:
            from moocow.engine.progress import notify

            notify(NOTICE.format(seconds=WARM_UP_SECONDS))
        _exercise()
        self.warm = True


KERNELS = ProcessKernels()
"""This process's kernels. ``compile_if_cold`` and ``warm_up`` are its methods, as ``random``'s
functions are its one ``Random``'s."""
compile_if_cold = KERNELS.compile_if_cold
warm_up = KERNELS.warm_up


class WarmUpGame(Game):
    """The game the kernels are warmed up on, the engine's own (the engine knows no game of the
    plugins'): Mastermind with 2 pegs and 4 colours, written ``0`` to ``3``. Positional and common
    symbols both count, as in every kernel the engine calls."""

    name = "warm-up"
    feedback_fields = ("black", "white")
    feedback_symmetric: ClassVar[bool] = True
    SYMBOLS: ClassVar[int] = 4

    @property
    def code_length(self) -> int:
        return 2

    def build_secrets(self) -> Codes:
        return np.array([(a, b) for a in range(self.SYMBOLS) for b in range(self.SYMBOLS)], np.uint8)

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        """Black pegs times the length plus common symbols: ``black * (length + 1) + white``."""
        guess, secret = guesses[:, None, :], secrets[None, :, :]
        common = sum(np.minimum((guess == s).sum(-1), (secret == s).sum(-1)) for s in range(self.SYMBOLS))
        return (guess == secret).sum(-1) * self.code_length + common

    def feedback_form(self) -> FeedbackForm | None:
        return FeedbackForm(positional=True, symbols=self.SYMBOLS)

    def parse_code(self, text: str) -> np.ndarray:
        return np.array([int(c) for c in text], np.uint8)

    def format_code(self, code: np.ndarray) -> str:
        return "".join(map(str, code))


def _exercise() -> None:
    """Call every kernel Python calls, with the argument types the engine gives them, on
    ``WarmUpGame``: its 16 codes are scored both pairwise (a few candidates) and in blocks (more)."""
    from moocow.engine.kernel import greedy as compiled

    game = WarmUpGame()
    form = game.feedback_form()
    assert form is not None
    prepared = compiled.prepare(game, form)
    assert prepared is not None
    values = np.arange(game.feedback_bound, dtype=np.int64)
    for candidates in (np.arange(len(game.secrets)), np.arange(len(game.secrets), dtype=np.int32)):
        for guesses in (None, candidates[::2]):
            for kind in (0, 1, 2):
                compiled.scores(prepared, candidates, guesses, kind, None)
                compiled.scores(prepared, candidates[:3], guesses, kind, 1)
            compiled.partition_sizes(prepared, values, candidates, guesses)
            codes = compiled._codes(prepared, candidates, guesses)
            *places_and_masks, shape = codes
            for sizes, scored, kind in (
                (np.empty((len(values), codes[0].shape[1]), np.int32), compiled.NO_SCORES, compiled.SIZES),
                (compiled.NO_SIZES, np.empty(codes[0].shape[1], np.int64), 0),
            ):
                counted = values if kind == compiled.SIZES else compiled.NO_VALUES
                job = (*places_and_masks, counted, prepared.answers, kind)
                compiled._blocks_parallel(job, shape, sizes, scored)
        compiled.column(prepared, 0, candidates)
    compiled.absent_in_order(prepared, np.array([1, 2]))
