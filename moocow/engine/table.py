"""The feedback of every guess against every secret, computed once per game.

Stored secrets x guesses, so the rows of a candidate set are one contiguous gather: that is the
access pattern of every heuristic. Within the memory budget the whole table is held, built on the
first call that needs rows (a column alone is computed directly, so a session that only filters
candidates, or an opening decided by symmetry, never waits for seconds of table); beyond the
budget the same rows are recomputed from the game's kernel in blocks, slower but with bounded memory.
The game keeps its table and the table refers to the game weakly, so a dropped game frees its
table (up to gigabytes) at once rather than at the next cyclic garbage collection.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING, Literal

import numpy as np

from moocow.engine.game import Game
from moocow.engine.progress import task
from moocow.engine.switches import SWITCHES

if TYPE_CHECKING:
    from moocow.engine.kernel.greedy import Prepared

BLOCK_BYTES = 32 * 2**20
"""Size of the temporaries one block of work may create."""
TILE_CELLS = 1 << 22
"""Cells of one tile computed directly from the kernel (a few MB of temporaries)."""
TILE_ROWS = 256
"""Fewest secrets in a tile (when there are as many): a tile of one secret by millions of guesses
recomputed the guesses' symbol masks for every secret, much slower per cell."""
BUILD_AT_ONCE = 1 << 24
"""A held table this small (quick to build) is built on first use, whatever the request."""
BUILD_SHARE = 4
"""A larger held table is built for a request of at least 1/``BUILD_SHARE`` of its cells; a smaller
request (the few opening guesses left by symmetry) is computed directly instead."""


COMPILED_CELLS = 1 << 24
"""Once a game's work adds up to this many pairs, it takes the compiled engine (``engine.kernel.greedy``):
importing numba costs more than a whole Mastermind 4x6 evaluation, and far less than Mastermind
5x8's (none of its positions after 11223 reaches that many alone: counted per call, it never left
numpy, several times slower; ``bench/engines.py`` times both paths on it)."""


def table_budget() -> int:
    """Bytes a table may hold in memory (``engine.switches``: ``MOOCOW_TABLE_BUDGET``, read once)."""
    return SWITCHES.current.table_budget


def forced_engine() -> str | None:
    """The scoring path forced, if any (``engine.switches``: ``MOOCOW_ENGINE``, read once)."""
    return SWITCHES.current.engine


class FeedbackTable:
    """Feedback values ``[secret, guess]`` for one game, in memory or in blocks."""

    def __init__(self, game: Game, budget: int | None = None) -> None:
        budget = table_budget() if budget is None else budget
        self.budget = budget
        """The bytes it was allowed: whether it is held was decided by them."""
        self._game = weakref.ref(game)
        self.secret_count = len(game.secrets)
        self.guess_count = len(game.guesses)
        self.dtype = game.feedback_model.dtype
        """The type of one value: a byte up to 256 values (every built-in game but long Wordles)."""
        self.in_memory = self.secret_count * self.guess_count * self.dtype.itemsize <= budget
        """Whether the whole table is held (once first needed); otherwise rows are computed when asked for."""
        self._rows: np.ndarray | None = None
        self._asked = 0
        """Cells asked of the table in tiles so far: once they add up to the table, it is built."""
        self.values = np.array(game.feedback_model.values(), dtype=game.feedback_model.dtype)
        """The feedback values the game can give, ascending: the values partitions are counted over."""
        self._prepared: Prepared | Literal[False] | None = False
        """The compiled engine's arrays: ``False`` until first asked for, ``None`` if it cannot apply."""
        self._work = COMPILED_CELLS if self.secret_count * self.guess_count >= COMPILED_CELLS else 0
        """Pairs of this game scored so far, until they reach ``COMPILED_CELLS``; a game whose every
        guess against every secret is that many pairs starts there (Mastermind 5x8 otherwise spent
        its first positions on numpy before its work added up)."""

    @property
    def game(self) -> Game:
        """The game this is the table of (held weakly: the game holds its table, not the reverse)."""
        game = self._game()
        if game is None:
            raise ReferenceError("the game of this feedback table is gone: keep the game while using it")
        return game

    @classmethod
    def for_game(cls, game: Game) -> FeedbackTable:
        """The table of ``game``, computed on first use and kept with the game.

        Made again if the table's budget (``engine.switches``) has changed since: a game lives as long as its
        process, and a table once refused memory must not stay refused under a larger budget.
        """
        budget = table_budget()
        table = game.caches.feedback_table
        if table is None or table.budget != budget:
            table = game.caches.feedback_table = cls(game, budget)
        return table

    def rows_per_block(self) -> int:
        """How many secrets' rows fit in one block of temporaries."""
        return max(1, BLOCK_BYTES // max(1, self.guess_count * self.dtype.itemsize))

    def blocks(self, secrets: np.ndarray) -> Iterator[np.ndarray]:
        """The rows of ``secrets`` in blocks of bounded size, each ``(k, guess_count)``."""
        step = self.rows_per_block()
        for start in range(0, len(secrets), step):
            yield self.rows(secrets[start : start + step])

    def rows(self, secrets: np.ndarray) -> np.ndarray:
        """Feedback of every guess against each of ``secrets``: ``(len(secrets), guess_count)``."""
        if self.in_memory:
            return self._held().take(secrets, axis=0)
        game = self.game
        return np.ascontiguousarray(game.feedback(game.guesses, game.secrets[secrets]).T, dtype=self.dtype)

    def tiles(self, secrets: np.ndarray, guesses: np.ndarray | None) -> Iterator[tuple[slice, np.ndarray]]:
        """The feedback of ``guesses`` (all if ``None``) against ``secrets``, tile by tile.

        Each tile is ``(columns, rows)``: rows ``(k, len(columns))`` for the next ``k`` secrets
        and the columns of ``guesses`` named by the slice. From the held table when it is worth
        holding; otherwise computed directly in tiles of bounded size, as wide as the guesses
        allow: a block of few secrets by every one of millions of guesses ran much slower per
        cell than tiles of a few thousand guesses.
        """
        every = slice(None)
        width = self.guess_count if guesses is None else len(guesses)
        self._asked += len(secrets) * width
        if self._use_held(len(secrets) * width):
            for rows in self.blocks(secrets):
                yield every, rows if guesses is None else rows[:, guesses]
            return
        game = self.game
        height, across = self._tile_shape(len(secrets), width)
        for start in range(0, len(secrets), height):
            codes = game.secrets[secrets[start : start + height]]
            for left in range(0, width, across):
                columns = slice(left, min(width, left + across))
                chosen = game.guesses[columns] if guesses is None else game.guesses[guesses[columns]]
                yield columns, np.ascontiguousarray(game.feedback(chosen, codes).T, dtype=self.dtype)

    def _tile_shape(self, secrets: int, width: int) -> tuple[int, int]:
        """Secrets and guesses of a computed tile; enough secrets that the kernel's per-call work
        on the guesses is spread thin."""
        height = max(1, min(secrets, max(TILE_ROWS, TILE_CELLS // max(1, width))))
        return height, max(1, TILE_CELLS // height)

    def tile_count(self, secrets: int, width: int) -> int:
        """How many row bands of tiles computing ``secrets`` x ``width`` takes (0 when held)."""
        if self._use_held(secrets * width):
            return 0
        return -(-secrets // self._tile_shape(secrets, width)[0])

    def _use_held(self, cells: int) -> bool:
        """Whether to answer from the held table: once built, or when building it costs less than
        what is asked, or than what has been asked so far (Wordle's evaluation after a fixed
        opening asks small positions only, and computed many times longer in tiles than the table
        takes to build)."""
        total = self.secret_count * self.guess_count
        wanted = total <= BUILD_AT_ONCE or max(cells, self._asked // BUILD_SHARE) * BUILD_SHARE >= total
        return self.in_memory and (self.built or wanted)

    def compiled(self, cells: int) -> Prepared | None:
        """The game's codes prepared for the compiled engine, if it should do work of ``cells`` pairs.

        Only for a game that describes its feedback as data (``Game.feedback_form``), once the
        game's work adds up to ``COMPILED_CELLS`` pairs, or from the start in a game of that many
        pairs; from then on for all of its work (a call costs microseconds where a numpy kernel's
        set-up costs a hundred). ``MOOCOW_ENGINE`` forces either path.
        """
        forced = forced_engine()
        if forced == "numpy" or self._prepared is None:
            return None
        if forced != "compiled" and self._work < COMPILED_CELLS:
            self._work += cells
            if self._work < COMPILED_CELLS:
                return None
        if self._prepared is False:
            form = self.game.feedback_form()
            if form is None:
                self._prepared = None
                return None
            from moocow.engine.kernel.greedy import prepare
            from moocow.engine.warmup import compile_if_cold

            compile_if_cold()  # a first compile is said, and done at once; cached kernels load as used
            self._prepared = prepare(self.game, form)
        return self._prepared or None

    def column(self, guess: int, secrets: np.ndarray) -> np.ndarray:
        """Feedback of one guess against each of ``secrets``: on the compiled engine once prepared
        (evaluation asks this at every split, most of them of two secrets: the variable is not read
        again; either path gives the same feedback)."""
        prepared = None if self.built else self._prepared or self.compiled(len(secrets))
        if prepared is not None:
            from moocow.engine.kernel.greedy import column

            return column(prepared, guess, secrets)
        if self._use_held(len(secrets)):
            return self._held()[secrets, guess]
        game = self.game
        return game.feedback(game.guesses[guess : guess + 1], game.secrets[secrets])[0]

    def held_value(self, guess: int, secret: int) -> int | None:
        """Feedback of one guess against one secret from the held table, built first if it is
        small enough to build at once (the referee asks at every guess, through ``Game.score``);
        ``None`` where the table is not held, and the game scores the one pair itself."""
        rows = self._rows
        if rows is None:
            if not self._use_held(1):
                return None
            rows = self._held()
        return rows.item(secret, guess)  # a Python int, without the numpy scalar int() takes

    @property
    def built(self) -> bool:
        """Whether the whole table is held in memory now."""
        return self._rows is not None

    def _held(self) -> np.ndarray:
        if self._rows is None:
            self._rows = self._compute_all()
        return self._rows

    def _compute_all(self) -> np.ndarray:
        game = self.game
        table = np.empty((self.secret_count, self.guess_count), dtype=self.dtype)
        step = self.rows_per_block()
        with task("building the feedback table", self.secret_count, "rows") as advance:
            for start in range(0, self.secret_count, step):
                stop = min(start + step, self.secret_count)
                table[start:stop] = game.feedback(game.guesses, game.secrets[start:stop]).T
                advance(stop)
        return table
