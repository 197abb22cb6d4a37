"""The exact proof of a game searched by ``wide.WideSearch``: after one opening, or over every one.

With ``first``, the value of that opening: the total of the parts it leaves, searched with no
budget (Selby's ``-w``). Without it, every opening is a task: tried in order of their counting
bound (then their spread), each against the best total found so far, so that most are refuted
in a fraction of the time a proof takes; the search ends when the next opening's bound reaches
the best. The proven bound is the least of the best, the bounds of the openings refuted and the
bound of the next opening. With a store (``proof_store``), each opening settled is kept (its
exact total with its tree, or the bound that refuted it) with the best strategy, and a search
started on the same store goes on from there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from moocow.engine.game import Game
from moocow.engine.tree import Node
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.stats import ProgressHook
from moocow.optimal.stopping import stop_if_asked
from moocow.optimal.wide import WideSearch, part_bounds

if TYPE_CHECKING:
    from moocow.optimal.proof_store import ProofStore
    from moocow.optimal.prove import OptimalResult


@dataclass
class Sweep:
    """Where a proof over the openings stands."""

    best: int = INFEASIBLE
    tree: Node | None = None
    refuted: int = INFEASIBLE
    """The least bound of an opening refuted so far."""
    settled: int = 0
    """Openings settled in this run (their rate is shown)."""


def opening_order(search: WideSearch, depth: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Every guess as an opening, in the order they are tried (least counting bound, then the
    most even split), and each one's bound on the whole game's total."""
    by_guess = search.by_guess
    count = by_guess.shape[1]
    sizes = np.zeros((len(by_guess), 256), dtype=np.int64)
    for start in range(0, len(by_guess), 1024):
        block = by_guess[start : start + 1024].astype(np.int64)
        block += 256 * np.arange(len(block))[:, None]
        counted = np.bincount(block.ravel(), minlength=256 * len(block))
        sizes[start : start + len(block)] = counted.reshape(-1, 256)
    sizes[:, search.win] = 0
    child = part_bounds(count, search.patterns, depth)
    bounds = np.minimum(count + child[sizes].sum(axis=1), INFEASIBLE)  # an empty part's bound is 0
    bounds[sizes.max(axis=1) == count] = INFEASIBLE  # splits nothing
    spread = (sizes**2).sum(axis=1)
    order = np.lexsort((np.arange(len(by_guess)), spread, bounds))
    return order, bounds


def prove_openings(
    game: Game,
    max_depth: int | None,
    progress: ProgressHook | None,
    store_path: Path | None,
    first: int | None,
) -> OptimalResult:
    """``prove.prove_optimal`` for a game ``prove.wide_game`` takes."""
    from moocow.optimal.prove import OptimalResult

    started = time.perf_counter()
    search = WideSearch(game, max_depth)
    child_depth = None if max_depth is None else max_depth - 1
    everything = np.arange(len(search.table), dtype=np.int32)
    if first is None:
        order, bounds = opening_order(search, child_depth)
    else:
        order, bounds = np.array([first]), np.zeros(len(search.by_guess), dtype=np.int64)
    store = None if store_path is None else _open_store(search, store_path)
    sweep = Sweep()
    if store is not None and store.best is not None and first is None:
        sweep.best, sweep.tree = store.best.total, store.best.tree
    interrupted = False
    lower = 0
    try:
        for position, guess in enumerate(order.tolist()):
            stop_if_asked()
            if first is None and bounds[guess] >= sweep.best:
                break
            value, tree = _settle(search, store, sweep, everything, guess, child_depth)
            if tree is not None and value < sweep.best:
                sweep.best, sweep.tree = value, tree
                if store is not None and first is None:
                    store.put_best(value, tree, _lower(sweep, bounds, order, position + 1))
            elif tree is None:
                sweep.refuted = min(sweep.refuted, value)
            lower = _lower(sweep, bounds, order, position + 1)
            if progress is not None:
                _count(progress, sweep.settled, _left(bounds, order, position + 1, sweep.best))
                progress((position + 1) / len(order), _shown(sweep.best), lower)
        else:
            position = len(order)
        lower = _lower(sweep, bounds, order, position)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if store is not None:
            if sweep.tree is not None and first is None:
                store.put_best(sweep.best, sweep.tree, min(lower, sweep.best))
            store.close()
    found = sweep.best < INFEASIBLE
    return OptimalResult(
        game=game.spec,
        max_depth=max_depth,
        candidates_only=False,
        total=sweep.best if found else None,
        lower_bound=None if lower >= INFEASIBLE else min(lower, sweep.best),
        root=sweep.tree,
        seconds=time.perf_counter() - started,
        interrupted=interrupted,
        stats=search.stats(),
        seconds_in_all=None if store is None else store.seconds(),
    )


def _settle(
    search: WideSearch,
    store: ProofStore | None,
    sweep: Sweep,
    everything: np.ndarray,
    guess: int,
    depth: int | None,
) -> tuple[int, Node | None]:
    """An opening's total and tree if it beats the best, else a bound at least the best (no tree)."""
    count = len(everything)
    kept = None if store is None else store.guess_settled(everything, depth, guess)
    if kept is not None and (kept.exact or count + kept.value >= sweep.best):
        return count + kept.value, kept.tree
    total = count + search.guess_total(everything, search.every_guess, guess, depth, sweep.best - count)
    sweep.settled += 1
    tree = None
    if total < sweep.best:
        tree = Node(guess, count)
        search.graft(tree, everything, search.every_guess, depth)
    if store is not None:
        store.put_guess(everything, depth, guess, total - count, tree)
    return total, tree


def _lower(sweep: Sweep, bounds: np.ndarray, order: np.ndarray, following: int) -> int:
    """The proven bound: no strategy beats the best, the openings refuted, or the next's bound."""
    untried = int(bounds[order[following]]) if following < len(order) else INFEASIBLE
    return min(sweep.best, sweep.refuted, untried)


def _left(bounds: np.ndarray, order: np.ndarray, following: int, best: int) -> int:
    """The openings still to settle: those after ``following`` whose bound is below the best."""
    return int(np.count_nonzero(bounds[order[following:]] < best))


def _shown(best: int) -> int | None:
    return None if best >= INFEASIBLE else best


def _count(progress: ProgressHook, settled: int, left: int) -> None:
    """Tell a progress display that counts openings (``SearchProgress.openings``) how many are done."""
    openings = getattr(progress, "openings", None)
    if openings is not None:
        openings(settled, left)


def _open_store(search: WideSearch, path: Path) -> ProofStore:
    """The store at ``path``, made if new, checked against this search."""
    from moocow.optimal.proof_store import ProofStore, SearchIdentity, TreeChecker, table_digest

    identity = SearchIdentity(
        game=search.game.spec,
        max_depth=search.max_depth,
        candidates_only=False,
        table_digest=table_digest(search.table, search.guess_of, search.win),
    )

    def counting(depth: int | None) -> np.ndarray:
        return part_bounds(len(search.table), search.patterns, depth)

    checker = TreeChecker(search.table, search.win, counting, search.max_depth)
    return ProofStore.open(path, identity, checker)
