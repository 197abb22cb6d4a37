"""Counting candidates by feedback value: the one routine against each algorithm it chose among.

The engine's numpy path and the exact search's Python levels count through one routine
(``partitions.count_by_value``). Before, the engine compared every value with every cell
(``_count_compared``) and the search took one ``bincount`` of answer-and-column indices over the
whole set (``whole_bincount``, kept here as it was). Both baselines count the same sets of a
game's table, alternately with the routine in one process: sets of 2, 4, 8, ... candidates up to
every secret, a few of each size, every guess a column. The counts must agree.
``python -m bench.counting [GAME ...] [--repeats N]`` prints each size's ratios as well.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bench.measure import median, peak_rss, reset_peak
from bench.rows import Row, ratio
from moocow.engine import partitions
from moocow.engine.table import FeedbackTable
from moocow.plugins import load_game

Counter = Callable[[np.ndarray, np.ndarray, np.ndarray], None]
SETS_PER_SIZE = 3
"""Sets drawn of each size (seeded)."""


def whole_bincount(rows: np.ndarray, values: np.ndarray, sizes: np.ndarray) -> None:
    """The exact search's counting before it shared the engine's: one ``bincount`` over every cell
    of the set, with ``int32`` indices."""
    width = rows.shape[1]
    limit = int(max(values.max(), rows.max())) + 1
    index = rows.astype(np.int32)
    index *= width
    index += np.arange(width, dtype=np.int32)
    counts = np.bincount(index.ravel(), minlength=limit * width)
    sizes += counts[: limit * width].reshape(limit, width)[values]


WAYS: dict[str, Counter] = {
    "shared": partitions.count_by_value,
    "compared": partitions._count_compared,
    "bincount": whole_bincount,
}
"""The routine, then its baselines: the engine's way before, the search's way before."""


def set_sizes(secrets: int) -> list[int]:
    """2, 4, 8, ... below ``secrets``, then ``secrets``."""
    sizes, size = [], 2
    while size < secrets:
        sizes.append(size)
        size *= 2
    return [*sizes, secrets]


@dataclass(frozen=True)
class CountingWorkload:
    """Counting sets of one game's table by every way, alternately in one process."""

    game: str
    repeats: int = 5
    """Alternations of the three ways at each size; the median of each way counts."""
    quick: bool = False

    def timings(self) -> tuple[dict[int, dict[str, float]], bool, int]:
        """Median seconds per size and way, whether every way counted alike, and the values."""
        table = FeedbackTable(load_game(self.game))
        values = np.asarray(table.values, dtype=np.int64)
        rng = np.random.default_rng(0)
        found: dict[int, dict[str, float]] = {}
        agree = True
        for size in set_sizes(table.secret_count):
            sets = [
                np.sort(rng.choice(table.secret_count, size, replace=False)) for _ in range(SETS_PER_SIZE)
            ]
            rows = [table.rows(chosen) for chosen in sets]
            runs: dict[str, list[float]] = {way: [] for way in WAYS}
            for _ in range(self.repeats):
                counted = []
                for way, count in WAYS.items():
                    sizes = [np.zeros((len(values), table.guess_count), dtype=np.int32) for _ in rows]
                    start = time.perf_counter()
                    for block, out in zip(rows, sizes, strict=True):
                        count(block, values, out)
                    runs[way].append(time.perf_counter() - start)
                    counted.append(sizes)
                agree &= all(
                    np.array_equal(a, b)
                    for other in counted[1:]
                    for a, b in zip(counted[0], other, strict=True)
                )
            found[size] = {way: median(seconds) for way, seconds in runs.items()}
        return found, agree, len(values)

    def run(self) -> list[Row]:
        """One row per baseline: the routine's time over every size against that way's."""
        reset_peak()
        found, agree, values = self.timings()
        peak = peak_rss()
        total = {way: sum(by_way[way] for by_way in found.values()) for way in WAYS}
        basis = f"{SETS_PER_SIZE} sets of each size 2 to {max(found):,}, every guess; {values} values"
        return [
            Row(
                workload=f"{self.name} against {way}",
                basis=basis,
                moocow_seconds=total["shared"],
                baseline_seconds=total[way],
                ratio=ratio(total[way], total["shared"]),
                peak_rss=peak,
                result=f"worst size's ratio {min(by[way] / by['shared'] for by in found.values()):.2f}",
                agree=agree,
                details={str(size): by_way for size, by_way in found.items()},
            )
            for way in ("compared", "bincount")
        ]

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"counting {self.game}"


GAMES = ("mastermind", "digits", "bottles:n=6", "bottles:n=7", "mastermind:pegs=3,colors=5")


def main() -> None:
    """Print each size's times and ratios, then the rows."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    for game in args.games:
        workload = CountingWorkload(game, args.repeats)
        found, agree, values = workload.timings()
        print(f"{game} ({values} values){'' if agree else ': WAYS DIFFER'}")
        for size, by_way in found.items():
            shared = by_way["shared"]
            print(
                f"  {size:6,} candidates: shared {shared * 1e3:9.3f} ms, "
                + ", ".join(f"{way} {by_way[way] / shared:5.2f}x" for way in ("compared", "bincount"))
            )
        total = {way: sum(by[way] for by in found.values()) for way in WAYS}
        print(
            "  all sizes: shared {:.3f} s; compared/shared {:.2f}x, bincount/shared {:.2f}x".format(
                total["shared"], total["compared"] / total["shared"], total["bincount"] / total["shared"]
            )
        )
        if not agree:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
