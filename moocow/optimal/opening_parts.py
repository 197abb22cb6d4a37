"""Every core for one fixed opening (``--first``): the parts it leaves, each solved on a worker.

An opening's value is the secrets plus the least total of each part it leaves, and the parts are
independent: no set of one part is a set of another, so a worker's memo loses nothing by not
seeing the others'. Each part is solved exactly (there is no budget: the opening is the answer
asked for), largest first so that the last to finish is a small one, and its tree read back on
the worker. The tree is the one a single process grafts: each part's is the first best guess in
the search's order, whoever searches it.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.tree import Node
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.forked import Crew
from moocow.optimal.opening_proof import Proof
from moocow.optimal.wide import WideSearch

PartTask = tuple[int, np.ndarray, np.ndarray]
"""A part: the answer that leaves it, its secrets, the guesses still legal."""


def part_total(search: WideSearch, depth: int | None, task: PartTask) -> tuple[int, int, Node | None]:
    """On a worker: a part's least total and its tree (none if no strategy meets the limit)."""
    answer, part, legal = task
    value = search.least_total(part, legal, depth, INFEASIBLE)
    return answer, value, None if value >= INFEASIBLE else search.subtree(part, legal, depth)


def opening_parts(search: WideSearch, guess: int) -> list[PartTask]:
    """The parts ``guess`` leaves of every secret, largest first."""
    everything = np.arange(len(search.rows), dtype=np.int32)
    answers = search.rows[:, guess]
    tasks = [
        (answer, everything[answers == answer], search.legal_after(search.every_guess, guess, answer))
        for answer in np.unique(answers).tolist()
        if answer != search.win
    ]
    return sorted(tasks, key=lambda task: -len(task[1]))


def on_forked_parts(proof: Proof, workers: int) -> int:
    """Settle ``proof``'s one opening with its parts shared out to ``workers`` forked processes;
    the position after it."""
    kept = proof.kept(0)
    if kept is None:
        kept = proof.record(int(proof.order[0]), *_solved(proof, workers))
    proof.fold(*kept, position=0, following=1)
    return 1


def _solved(proof: Proof, workers: int) -> tuple[int, Node | None]:
    search, depth, guess = proof.search, proof.depth, int(proof.order[0])
    tasks = opening_parts(search, guess)
    crew = Crew(min(workers, len(tasks)) or 1, lambda task: part_total(search, depth, task))
    total, children = proof.count, {}
    try:
        waiting = list(tasks)
        while waiting and crew.idle:
            crew.submit(waiting.pop(0), None)
        for _ in tasks:
            _, outcome = crew.next()
            if isinstance(outcome, BaseException):
                raise outcome
            assert isinstance(outcome, tuple)
            answer, value, tree = outcome
            total = min(total + value, INFEASIBLE)
            if tree is not None:
                children[answer] = tree
            if waiting:
                crew.submit(waiting.pop(0), None)
    finally:
        crew.close()
    if total >= INFEASIBLE:
        return INFEASIBLE, None
    root = Node(guess, proof.count)
    root.children = {answer: children[answer] for answer in sorted(children)}
    return total, root
