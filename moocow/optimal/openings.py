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
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from moocow.engine.game import Game
from moocow.engine.tree import Node
from moocow.optimal import incumbent
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.opening_proof import Proof, searched
from moocow.optimal.stats import ProgressHook
from moocow.optimal.stopping import stop_if_asked
from moocow.optimal.wide import WideSearch, part_bounds

if TYPE_CHECKING:
    from moocow.optimal.proof_store import ProofStore
    from moocow.optimal.prove import OptimalResult


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
    scheduler: str | None = None,
    workers: int = 1,
) -> OptimalResult:
    """``prove.prove_optimal`` for a game ``prove.wide_game`` takes. The openings are settled in
    this process, or by ``workers`` forked processes (``opening_workers``), or as a Dask
    cluster's tasks (``opening_tasks``, with ``scheduler``), folded here as they come back; one
    fixed opening's parts are shared out to the workers (``opening_parts``). The same total and
    tree in every case."""
    from moocow.optimal.prove import OptimalResult

    started = time.perf_counter()
    search = WideSearch(game, max_depth)
    child_depth = None if max_depth is None else max_depth - 1
    if first is None:
        order, bounds = opening_order(search, child_depth)
    else:
        order, bounds = np.array([first]), np.zeros(len(search.by_guess), dtype=np.int64)
    store = None if store_path is None else _open_store(search, store_path)
    proof = Proof(search, store, order, bounds, child_depth, progress, first is None)
    sweep = proof.sweep
    if store is not None and store.best is not None and first is None:
        sweep.best, sweep.tree = store.best.total, store.best.tree
        sweep.position = proof.position_of(store.best.tree.guess)
    interrupted = False
    try:
        if scheduler is not None:
            from moocow.optimal.opening_tasks import on_cluster

            position = on_cluster(proof, scheduler)
        elif workers > 1 and first is not None:
            from moocow.optimal.opening_parts import on_forked_parts

            position = on_forked_parts(proof, workers)
        elif workers > 1:
            from moocow.optimal.opening_workers import on_forked_workers

            position = on_forked_workers(proof, workers)
        else:
            position = _one_by_one(proof)
        proof.lower = proof.lower_from(position)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if store is not None:
            if sweep.tree is not None and first is None:
                store.put_best(sweep.best, sweep.tree, min(proof.lower, sweep.best))
            store.close()
    found = sweep.best < INFEASIBLE
    lower = proof.lower
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
        opening=_named_opening(game, sweep.tree) if first is None else None,
    )


def _named_opening(game: Game, tree: Node | None) -> str | None:
    """The best strategy's first guess as typed (none before one is found)."""
    return None if tree is None else game.format_code(game.guesses[tree.guess])


def _one_by_one(proof: Proof) -> int:
    """Settle the openings in turn in this process; the position of the first left untried."""
    for position, guess in enumerate(proof.order.tolist()):
        stop_if_asked()
        if proof.beyond(position):
            return position
        settled = proof.kept(position)
        if settled is None:
            budget = incumbent.budget(proof.packed_best, position, proof.count)
            settled = proof.record(guess, *searched(proof.search, guess, proof.depth, budget))
        proof.fold(*settled, position=position, following=position + 1)
    return len(proof.order)


def _open_store(search: WideSearch, path: Path) -> ProofStore:
    """The store at ``path``, made if new, checked against this search."""
    from moocow.optimal.proof_store import ProofStore, SearchIdentity, TreeChecker, table_digest

    identity = SearchIdentity(
        game=search.game.spec,
        max_depth=search.max_depth,
        candidates_only=False,
        table_digest=table_digest(search.rows, search.guess_of, search.win),
    )

    def counting(depth: int | None) -> np.ndarray:
        return part_bounds(len(search.rows), search.patterns, depth)

    checker = TreeChecker(search.rows, search.win, counting, search.max_depth)
    return ProofStore.open(path, identity, checker)
