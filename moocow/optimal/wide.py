"""The exact search for games of many guesses, no symmetry and perhaps a rule on guesses (Wordle).

``search.Search`` walks its first levels in numpy so that relabellings can cut the guesses to a
few classes; a game without relabellings gains nothing there and pays numpy's cost per set, on
thousands of guesses and hundreds of answers. ``WideSearch`` runs the whole search in the compiled kernel
(``kernel.wide``) instead, and holds what it reads: the table guess-major (a guess's answers to
every secret, one contiguous row), the counting bounds with the most answers any guess gets, and
the rule on guesses, checked against the game's own. ``prove.prove_optimal`` takes it for such
games (``prove.wide_game``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.table import FeedbackTable
from moocow.engine.tree import Node
from moocow.optimal.bounds import INFEASIBLE, level_bounds
from moocow.optimal.kernel.entries import FIND, MOST_ANSWERS, STILL_LEGAL, WIDE_KEY, WIDE_LEAST_TOTAL
from moocow.optimal.kernel.layout import GUESS, HALT, HITS, NODES, VALUE
from moocow.optimal.kernel.set_store import SetStore
from moocow.optimal.kernel_search import as_kernel_set
from moocow.optimal.stats import SearchStats
from moocow.optimal.stopping import stop_if_asked

UNLIMITED_ROW = 3
"""The depth the kernel is given when no limit is set: any depth past the endgame checks (which
need two or three guesses left); its bounds row is the unlimited one and it never decreases."""
STOP_POLL_SECONDS = 0.1
"""How often the thread waiting for the kernel looks whether a stop was asked for."""
STOPPED, REBUDGET = 1, 2
"""What the kernel's ``HALT`` flag holds when raised: a stop (the search is over), or a lower
budget (``WideSearch._call`` searches again with it)."""
RULE_SAMPLES = 64
"""(guess, answer) pairs on which the kernel's hard mode is checked against the game's rule."""


def answers_per_guess(by_guess: np.ndarray, answer_limit: int) -> int:
    """The most distinct answers any one guess gets over every secret (compiled: a numpy pass over
    Wordle's 30 million pairs took a tenth of a second, a tenth of the proof after SALET)."""
    return int(MOST_ANSWERS(np.ascontiguousarray(by_guess), int(answer_limit)))


def part_bounds(secrets: int, patterns: int, depth: int | None) -> np.ndarray:
    """``bound[n]``: the least total of ``n`` secrets with ``depth`` guesses left, from counting.

    The tree's levels fill at most ``patterns`` times faster each (``bounds.level_bounds``), and
    the first guess wins at most one secret and splits the rest into at most ``patterns - 1``
    parts of ``x`` secrets, each costing ``2x - 1`` more: ``2n - 1 + max(0, n - patterns)``.
    """
    level = level_bounds(secrets, patterns, depth)
    sizes = np.arange(secrets + 1, dtype=np.int64)
    split = np.maximum(2 * sizes - 1 + np.maximum(0, sizes - patterns), 0)
    return np.where(level >= INFEASIBLE, INFEASIBLE, np.maximum(level, split))


class Cancelled(Exception):
    """A search whose ``Steer`` says it is no longer wanted (its Dask task was cancelled)."""


class Steer(Protocol):
    """What may change a search while it runs: the other workers of a proof over the openings."""

    def budget(self) -> int:
        """The budget now: it only ever falls, as better openings are found elsewhere."""
        ...

    def cancelled(self) -> bool:
        """Whether the search is no longer wanted."""
        ...


class HardRule:
    """The game's rule on guesses as the kernel applies it (``kernel.hard``), checked against the
    game's own ``guess_rule.after`` on a sample of pairs before any search relies on it."""

    def __init__(self, game: Game, table: np.ndarray) -> None:
        rule = game.guess_rule
        assert rule is not None
        codes = np.ascontiguousarray(game.guesses)
        everyone = np.arange(len(codes), dtype=np.int32)
        generator = np.random.default_rng(0)
        for guess in generator.choice(len(codes), min(RULE_SAMPLES, len(codes)), replace=False):
            for answer in np.unique(table[:, guess])[:4]:
                mine = STILL_LEGAL(codes, everyone, int(guess), int(answer))
                theirs = np.flatnonzero(np.asarray(rule.after(codes[guess], int(answer)), dtype=bool))
                if not np.array_equal(mine, theirs):
                    raise MoocowError(
                        f"{game.spec}: its rule on guesses is not Wordle's hard mode, the only one "
                        "the exact search knows"
                    )
        self.codes = codes


class WideSearch:
    """One exact search over one game of many guesses, its memo kept from call to call."""

    def __init__(self, game: Game, max_depth: int | None = None) -> None:
        table = FeedbackTable.for_game(game)
        if not table.in_memory:
            raise MoocowError(f"{game.spec} is too large for the exact search (its table does not fit)")
        rows = table.rows(np.arange(table.secret_count, dtype=np.int32))
        self.game = game
        self.max_depth = max_depth
        self.rows = rows
        """The whole feedback table, ``[secret, guess]``."""
        self.by_guess = np.ascontiguousarray(rows.T)
        self.guess_of = game.secret_guess_index.astype(np.int32)
        self.win = int(game.win)
        answer_limit = int(rows.max()) + 1
        self.patterns = answers_per_guess(self.by_guess, answer_limit)
        ruled = game.guess_rule is not None
        codes = HardRule(game, rows).codes if ruled else np.zeros((1, 1), dtype=np.uint8)
        self.ruled = ruled
        depths = [UNLIMITED_ROW] if max_depth is None else list(range(max_depth + 1))
        bounds = np.zeros((max(depths) + 1, len(rows) + 1), dtype=np.int64)
        for depth in depths:
            bounds[depth] = part_bounds(len(rows), self.patterns, None if max_depth is None else depth)
        self.bounds = bounds
        self.kernel_game = (
            self.by_guess,
            rows,
            self.guess_of,
            codes,
            bounds,
            max_depth is None,
            self.win,
            answer_limit,
            ruled,
        )
        self.codes = codes
        self.every_guess = np.arange(len(self.by_guess), dtype=np.int32)
        self.store = SetStore()
        self.counters = np.zeros(HALT + 1, dtype=np.int64)
        """The kernel's counters (``layout.NODES``, ``HITS``) and its stop flag (``HALT``)."""

    def depth_row(self, depth: int | None) -> int:
        """The kernel's depth for ``depth`` guesses left (``None``: no limit)."""
        return UNLIMITED_ROW if depth is None or self.max_depth is None else depth

    def child_depth(self, depth: int | None) -> int | None:
        return None if depth is None else depth - 1

    def legal_after(self, legal: np.ndarray, guess: int, answer: int) -> np.ndarray:
        """The legal guesses once ``guess`` got ``answer`` (all of them, without a rule)."""
        return STILL_LEGAL(self.codes, legal, guess, answer) if self.ruled else legal

    def _call(
        self,
        candidates: np.ndarray,
        legal: np.ndarray,
        depth: int | None,
        beta: int,
        guess: int,
        steer: Steer | None = None,
    ) -> int:
        """One search by the kernel, made again with the lower budget whenever ``steer`` lowers
        it while the kernel runs: a better best found by another worker. The memo keeps every set
        settled before the kernel was halted, so the search goes on from there."""
        candidates = as_kernel_set(candidates)
        row = self.depth_row(depth)

        def kernel(budget: int) -> int:
            return self.store.call(
                lambda store: WIDE_LEAST_TOTAL(
                    self.kernel_game, (store, self.counters), candidates, legal, row, budget, guess
                )
            )

        while True:
            if steer is not None:
                beta = min(beta, steer.budget())
            value = self._run(kernel, beta, steer)
            if value is not None:
                return value

    def _run(self, kernel: Callable[[int], int], beta: int, steer: Steer | None) -> int | None:
        """``kernel(beta)`` in a thread of its own (it runs without the GIL) while this one
        waits for it and for a stop: a signal's handler runs only in this thread, between two
        bytecodes, and an opening of Wordle can take minutes. A stop raises the kernel's ``HALT``
        flag; the kernel unwinds at once, storing nothing of the sets it was in, and the search is
        over. A lower budget from ``steer`` halts it the same way (``REBUDGET``): ``None``."""
        if self.counters[HALT]:
            raise KeyboardInterrupt
        outcome: list[Any] = []

        def search() -> None:
            try:
                outcome.append(kernel(beta))
            except BaseException as error:  # handed to the waiting thread, which raises it
                outcome.append(error)

        worker = threading.Thread(target=search, daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(STOP_POLL_SECONDS)
                stop_if_asked()
                if steer is not None and steer.cancelled():
                    raise Cancelled
                if steer is not None and steer.budget() < beta:
                    self.counters[HALT] = REBUDGET
        except KeyboardInterrupt:
            self.counters[HALT] = STOPPED
            worker.join()
            raise
        except Cancelled:  # the memo holds only what was settled: the next task may use it
            self.counters[HALT] = STOPPED
            worker.join()
            self.counters[HALT] = 0
            raise
        if self.counters[HALT] == REBUDGET:
            self.counters[HALT] = 0
            return None
        if isinstance(outcome[0], BaseException):
            raise outcome[0]
        return int(outcome[0])

    def least_total(self, candidates: np.ndarray, legal: np.ndarray, depth: int | None, beta: int) -> int:
        """The least total of ``candidates`` if below ``beta``, else a bound at least ``beta``."""
        return self._call(candidates, legal, depth, beta, -1)

    def guess_total(
        self,
        candidates: np.ndarray,
        legal: np.ndarray,
        guess: int,
        depth: int | None,
        budget: int,
        steer: Steer | None = None,
    ) -> int:
        """The total of the parts ``guess`` leaves (each with ``depth`` guesses left) if below
        ``budget`` (lowered by ``steer`` meanwhile), else a bound at least that budget."""
        return self._call(candidates, legal, depth, budget, guess, steer)

    def stats(self) -> SearchStats:
        nodes, hits = int(self.counters[NODES]), int(self.counters[HITS])
        return SearchStats(nodes=nodes, cache_hits=hits, cached=len(self.store))

    # ------------------------------------------------------------------ reading the tree back
    def subtree(self, candidates: np.ndarray, legal: np.ndarray, depth: int | None) -> Node:
        """The best tree of a set the search solved exactly (searched again if the memo forgot it)."""
        candidates = as_kernel_set(candidates)
        guess = self._best_guess(candidates, legal, depth)
        node = Node(guess, len(candidates))
        self.graft(node, candidates, legal, self.child_depth(depth))
        return node

    def graft(self, node: Node, candidates: np.ndarray, legal: np.ndarray, depth: int | None) -> None:
        """Fill in ``node``'s children: the best tree of each part its guess leaves."""
        answers = self.rows[candidates, node.guess]
        for answer in np.unique(answers).tolist():
            if answer != self.win:
                part = candidates[answers == answer]
                node.children[answer] = self.subtree(part, self.legal_after(legal, node.guess, answer), depth)

    def _best_guess(self, candidates: np.ndarray, legal: np.ndarray, depth: int | None) -> int:
        if len(candidates) <= 2:
            return int(self.guess_of[candidates[0]])
        row = self.depth_row(depth)
        for attempt in range(2):
            slot = FIND(self.store.parts(), WIDE_KEY(candidates, legal, self.ruled), row)
            if slot >= 0 and self.store.meta[slot, GUESS] >= 0:
                return int(self.store.meta[slot, GUESS])
            if attempt == 0:
                self.least_total(candidates, legal, depth, INFEASIBLE)
        raise AssertionError("the tree is read only along sets solved exactly")

    def known(self, candidates: np.ndarray, legal: np.ndarray, depth: int | None) -> tuple[int, int] | None:
        """``(value, guess)`` the memo holds for a set (guess -1: a bound), if any."""
        slot = FIND(self.store.parts(), WIDE_KEY(candidates, legal, self.ruled), self.depth_row(depth))
        if slot < 0:
            return None
        return int(self.store.meta[slot, VALUE]), int(self.store.meta[slot, GUESS])
