"""One call: the strategy with the fewest guesses in total for a game, and the proof that it is.

The search starts from the tree of a heuristic (``STARTING_STRATEGIES``) as the strategy to beat, so an
interrupted search always has a complete strategy to hand back, and a search that cannot beat
the heuristic proves the heuristic optimal. Ctrl-C stops it cleanly: the result then holds the
best tree found and the lower bound proven so far.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from moocow.engine.errors import MoocowError
from moocow.engine.evaluation import evaluate_with_tree
from moocow.engine.game import Game
from moocow.engine.tree import Node
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.kernel.layout import INDEX_BITS
from moocow.optimal.search import PARALLEL_LEVEL, ProgressHook, Search, SearchStats
from moocow.plugins.strategy_registry import load_strategy

if TYPE_CHECKING:  # loaded only for a proof kept in a store
    from moocow.optimal.proof_store import ProofStore

STARTING_STRATEGIES = ("expected", "entropy", "minmax", "parts")
"""The heuristics whose best tree is the first strategy to beat: Irving's first (the best of the
four on most games, so it wins ties), the others only on large games (``EVERY_HEURISTIC_FROM``)."""
EVERY_HEURISTIC_FROM = 2000
"""Secrets from which every heuristic is tried: its evaluation is then nothing next to the search,
and a better start tightens every budget (seven bottles: entropy's 33,427 against Irving's 33,638)."""


@dataclass(frozen=True)
class OptimalResult:
    """The outcome of an exact search, complete or interrupted."""

    game: str
    """Spec of the game."""
    max_depth: int | None
    """The limit on any secret's guesses, if one was set."""
    candidates_only: bool
    """Whether only codes still possible were allowed as guesses."""
    total: int | None
    """Guesses over all secrets of the best strategy found (``None``: none within the limit)."""
    lower_bound: int | None
    """Proven: no strategy needs fewer guesses in total (``None``: no strategy meets the limit)."""
    root: Node | None
    """The best strategy's tree."""
    seconds: float
    """Wall-clock time of the search, the feedback table included."""
    interrupted: bool
    """Whether the search was stopped before it finished."""
    stats: SearchStats
    """What the search did."""
    seconds_in_all: float | None = None
    """With a store: the seconds of every run on it, this one included."""
    opening: str | None = None
    """The best strategy's first guess, as typed, where the proof was over every opening of a
    wide game (Wordle's): the answer people look for first."""

    @property
    def proven(self) -> bool:
        """Whether the total found is the optimum (or it is proven that no strategy meets the limit)."""
        return not self.interrupted and self.total == self.lower_bound


EXACT_VALUES = 256
"""Feedback values the exact search's byte tables hold (Wordle's 243 marks fit; six letters do not)."""


def prove_optimal(
    game: Game,
    max_depth: int | None = None,
    candidates_only: bool = False,
    progress: ProgressHook | None = None,
    workers: int = 1,
    store: Path | None = None,
    scheduler: str | None = None,
    shared_level: int = PARALLEL_LEVEL,
    first: str | None = None,
) -> OptimalResult:
    """The strategy with the fewest guesses in total over all secrets, each equally likely.

    ``max_depth`` limits the guesses any secret may take; ``candidates_only`` allows only codes
    still possible as guesses. ``progress`` is called with (fraction done, best, bound);
    ``workers`` processes search the parts of each first guess side by side. With ``store``
    (a path), the search resumes from what earlier runs kept there and keeps what it settles.
    With ``scheduler`` (a Dask scheduler's address), its workers search the second guesses.
    ``shared_level`` 2 shares out the third guesses instead (``Search.shared_level``).
    ``first`` (a code as typed) fixes the opening: the best strategy that starts with it.

    A game of many guesses and no relabelling (Wordle, ``wide_game``) is searched whole by
    the compiled ``wide`` search, one opening at a time (``openings``), or with ``scheduler``
    each opening a task on the cluster (``opening_tasks``).
    """
    if max_depth is not None and max_depth < 1:
        raise MoocowError(f"max depth must be at least 1, not {max_depth}")
    if max_depth is not None and max_depth >= len(game.secrets):
        # An optimal strategy never plays a guess that rules nothing out, so no secret takes more
        # guesses than there are secrets: such a limit is none, and the search's bounds per depth
        # would otherwise be built for every depth up to it.
        max_depth = None
    if game.feedback_model.size > EXACT_VALUES:
        raise MoocowError(
            f"{game.spec} has {game.feedback_model.size:,} feedback values: the exact search keeps "
            f"its tables in bytes, so it takes games of at most {EXACT_VALUES}"
        )
    first_guess = None if first is None else game.guess_index(first)
    wide = not candidates_only and wide_game(game)
    if wide and first is not None and scheduler is not None:
        raise MoocowError("--scheduler shares out the openings: give it without --first")
    if not wide and first is not None and store is not None:
        raise MoocowError("--store keeps a proof over every opening: give it without --first")
    if scheduler is not None:  # a wrong address is one line now, not once the search has run long
        from moocow.cluster.connection import check_scheduler

        check_scheduler(scheduler)
    if wide:
        from moocow.optimal.openings import prove_openings

        return prove_openings(game, max_depth, progress, store, first_guess, scheduler, workers)
    started = time.perf_counter()
    search = Search(game, max_depth, candidates_only, progress, workers, scheduler, shared_level, first_guess)
    kept = None if store is None else open_store(search, store)
    start_total, start_tree = _starting_strategy(game, max_depth, candidates_only, first)
    if kept is not None and kept.best is not None and kept.best.total <= start_total:
        start_total, start_tree = kept.best.total, kept.best.tree
        search.root.lower = kept.best.lower
    search.root.best, search.root.tree = start_total, start_tree
    interrupted = False
    try:
        search.run(start_total)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if kept is not None:
            if search.root.tree is not None:
                kept.put_best(search.root.best, search.root.tree, search.root.lower)
            kept.close()
    found = search.root.best < INFEASIBLE
    proven_lower = search.root.lower
    return OptimalResult(
        game=game.spec,
        max_depth=max_depth,
        candidates_only=candidates_only,
        total=search.root.best if found else None,
        lower_bound=None if proven_lower >= INFEASIBLE else proven_lower,
        root=search.root.tree,
        seconds=time.perf_counter() - started,
        interrupted=interrupted,
        stats=search.stats,
        seconds_in_all=None if kept is None else kept.seconds(),
    )


def wide_game(game: Game) -> bool:
    """Whether ``game`` is searched by ``wide.WideSearch`` (its own compiled search, loaded only
    then): a rule on guesses, or guesses that are not the secrets and no relabelling (Wordle)."""
    if game.guess_rule is not None:
        return True
    many = game.guesses is not game.secrets and len(game.guesses) < 1 << INDEX_BITS
    return many and not game.symmetries_in_force


def open_store(search: Search, path: Path) -> ProofStore:
    """The store at ``path`` (made if new), its results checked and handed to ``search``."""
    from moocow.optimal.proof_store import ProofStore, SearchIdentity, TreeChecker, table_digest

    table = search.rows
    identity = SearchIdentity(
        game=search.game.spec,
        max_depth=search.max_depth,
        candidates_only=search.candidates_only,
        table_digest=table_digest(table, search.guess_of, search.win),
    )
    checker = TreeChecker(table, search.win, search.bounds, search.max_depth)
    store = ProofStore.open(path, identity, checker)
    search.use_store(store)
    return store


def _starting_strategy(
    game: Game, max_depth: int | None, candidates_only: bool, first: str | None
) -> tuple[int, Node | None]:
    """The best heuristic's total and tree among those that meet the limit (opening with ``first``
    if given), else nothing to beat yet."""
    names = STARTING_STRATEGIES if len(game.secrets) >= EVERY_HEURISTIC_FROM else STARTING_STRATEGIES[:1]
    best: tuple[int, Node | None] = (INFEASIBLE, None)
    opening = {} if first is None else {"first": first}
    for name in names:
        strategy = load_strategy(name, candidates_only=candidates_only, **opening)
        evaluation, tree = evaluate_with_tree(game, strategy)
        if (max_depth is None or evaluation.worst <= max_depth) and evaluation.total < best[0]:
            best = (evaluation.total, tree)
    return best
