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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from moocow.engine.game import Game
from moocow.engine.tree import Node
from moocow.optimal import incumbent
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.stats import ProgressHook
from moocow.optimal.stopping import stop_if_asked
from moocow.optimal.wide import Steer, WideSearch, part_bounds

if TYPE_CHECKING:
    from moocow.optimal.proof_store import ProofStore
    from moocow.optimal.prove import OptimalResult


NO_POSITION = (1 << incumbent.POSITION_BITS) - 1
"""``Sweep.position`` before any opening is settled exactly: after every real one."""


@dataclass
class Sweep:
    """Where a proof over the openings stands."""

    best: int = INFEASIBLE
    tree: Node | None = None
    position: int = NO_POSITION
    """The best opening's place in the order: a tie goes to the earlier (``incumbent``)."""
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


def searched(
    search: WideSearch, guess: int, depth: int | None, budget: int, steer: Steer | None = None
) -> tuple[int, Node | None]:
    """An opening's total and tree if below ``budget`` more than the secrets (a budget ``steer``
    may lower meanwhile), else a bound at least that (no tree): what one process does for each
    opening, and a worker for each task."""
    count = len(search.rows)
    everything = np.arange(count, dtype=np.int32)
    total = count + search.guess_total(everything, search.every_guess, guess, depth, budget, steer)
    if steer is not None:  # the budget it ended with (``WideSearch._call`` lowers it as it goes)
        budget = min(budget, steer.budget())
    if total >= count + budget:
        return total, None
    tree = Node(guess, count)
    search.graft(tree, everything, search.every_guess, depth)
    return total, tree


@dataclass
class Proof:
    """A proof over the openings under way: what it searches and how it folds each one settled,
    the same in this process (``_one_by_one``) and on a cluster (``opening_tasks``)."""

    search: WideSearch
    store: ProofStore | None
    order: np.ndarray
    bounds: np.ndarray
    depth: int | None
    """The guesses left after the opening (``None``: no limit)."""
    progress: ProgressHook | None
    every: bool
    """Over every opening (not one fixed by ``--first``)."""
    sweep: Sweep = field(default_factory=Sweep)
    lower: int = 0
    """The proven bound after the openings folded so far."""

    @property
    def count(self) -> int:
        return len(self.search.rows)

    @property
    def everything(self) -> np.ndarray:
        return np.arange(self.count, dtype=np.int32)

    @property
    def packed_best(self) -> int:
        """The best so far as ``incumbent`` packs it."""
        return incumbent.pack(self.sweep.best, self.sweep.position)

    def beyond(self, position: int) -> bool:
        """Whether the openings from ``position`` on can matter no more (their bounds, in order,
        reach the best): a proof over every opening ends there."""
        guess = self.order[position]
        return self.every and self.bounds[guess] >= incumbent.threshold(self.packed_best, position)

    def position_of(self, guess: int) -> int:
        """Where an opening stands in the order."""
        return int(np.flatnonzero(self.order == guess)[0])

    def kept(self, position: int) -> tuple[int, Node | None] | None:
        """The opening's total (and tree), or a bound that settles it against the best, if the
        store holds one."""
        if self.store is None:
            return None
        kept = self.store.guess_settled(self.everything, self.depth, int(self.order[position]))
        limit = incumbent.threshold(self.packed_best, position)
        if kept is not None and (kept.exact or self.count + kept.value >= limit):
            return self.count + kept.value, kept.tree
        return None

    def record(self, guess: int, total: int, tree: Node | None) -> tuple[int, Node | None]:
        """Count an opening searched and keep it in the store."""
        self.sweep.settled += 1
        if self.store is not None:
            self.store.put_guess(self.everything, self.depth, guess, total - self.count, tree)
        return total, tree

    def fold(
        self,
        value: int,
        tree: Node | None,
        position: int,
        following: int,
        sent: int | None = None,
        flying: int = 0,
    ) -> bool:
        """Take the outcome of the opening at ``position``: a better best (kept in the store), or
        a refuted bound; then the proven bound, ``following`` being the first position not
        settled yet, and progress (with workers: ``sent`` openings so far, ``flying`` of them not
        back yet). Whether the best changed."""
        sweep = self.sweep
        exact_better = tree is not None and incumbent.pack(value, position) < self.packed_best
        better = tree if exact_better else None
        if better is not None:
            sweep.best, sweep.tree, sweep.position = value, better, position
        elif tree is None:
            sweep.refuted = min(sweep.refuted, value)
        self.lower = self.lower_from(following)
        if better is not None and self.store is not None and self.every:
            self.store.put_best(value, better, self.lower)
        if self.progress is not None:
            left = flying + _left(self.bounds, self.order, following if sent is None else sent, sweep.best)
            _count(self.progress, sweep.settled, left)
            self.progress(following / len(self.order), _shown(sweep.best), self.lower)
        return better is not None

    def lower_from(self, following: int) -> int:
        return _lower(self.sweep, self.bounds, self.order, following)


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
        table_digest=table_digest(search.rows, search.guess_of, search.win),
    )

    def counting(depth: int | None) -> np.ndarray:
        return part_bounds(len(search.rows), search.patterns, depth)

    checker = TreeChecker(search.rows, search.win, counting, search.max_depth)
    return ProofStore.open(path, identity, checker)
