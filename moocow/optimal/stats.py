"""What an exact search reports as it goes: its counters, its progress hook, what its root has
established.

Apart from ``search`` so that the worker pool (``parallel``), which ``search`` imports, can use
them without importing ``search`` back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from moocow.optimal.bounds import INFEASIBLE

if TYPE_CHECKING:
    from moocow.engine.tree import Node

ProgressHook = Callable[[float, int | None, int], None]
"""Called during the search with (fraction of the root done, best total so far, lower bound)."""


@dataclass
class SearchStats:
    """Counters of one search, for people and benchmarks."""

    nodes: int = 0
    """Candidate sets expanded (their guesses scored)."""
    cache_hits: int = 0
    """Sets answered from the cache."""
    bounded: int = 0
    """Sets bounded one level deeper before (or instead of) being searched (``kernel.set_bound``)."""
    cached: int = 0
    """Sets in the searching process's cache at the end (workers keep their own)."""

    def add(self, nodes: int, cache_hits: int, bounded: int) -> None:
        """Count work done elsewhere (the compiled kernel, a worker process)."""
        self.nodes += nodes
        self.cache_hits += cache_hits
        self.bounded += bounded

    def counters(self) -> tuple[int, int, int]:
        """The counters ``add`` takes, for passing between processes."""
        return self.nodes, self.cache_hits, self.bounded


@dataclass
class RootState:
    """What the root has established so far: enough to answer when the search is interrupted."""

    best: int = INFEASIBLE
    """The least total of a complete strategy found so far."""
    tree: Node | None = None
    """That strategy's tree."""
    lower: int = 0
    """A proven lower bound on every strategy's total."""
    done: float = 0.0
    """Rough fraction of the search settled (by root guesses, their parts and the parts' guesses)."""
