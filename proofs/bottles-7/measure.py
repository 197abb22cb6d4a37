"""What the seven-bottle proof has left, and what one step of it costs (the projection in README.md).

Every opening of seven bottles is alike, and the parts it leaves with 2 to 5 bottles in place are
proven. Left are the parts of 1,854 and 1,855 secrets. Each has 14 classes of second guesses. Each
second guess leaves two or three parts of 200 or more secrets (the largest 670 to 1,280). The search
must try nearly every guess of those parts: their bounds one level deeper stay below the budget.

- ``census``: for each second guess, its large parts with the number of guesses whose bound is below
  the most the part can be given (the best strategy's total for the open part, less the bounds of
  the other parts). With ``--store``, also how many of those guesses the store has settled.
- ``time PART SECOND INDEX``: the CPU seconds of each guess of one large part, in the search's
  order and with the budgets the search would give them: the first with the most the part can be
  given, each after it against the best so far. ``--cpu`` stops after that many seconds.

Run from the repository's root, with moocow installed:
``python proofs/bottles-7/measure.py census --store proofs/bottles-7/store.db`` and, for example,
``python proofs/bottles-7/measure.py time 1854 849 0 --cpu 1800``.
"""

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from pack import consistent_copy  # beside this script

from moocow.optimal.prove import open_store
from moocow.optimal.search import Search
from moocow.plugins import load_game

OPENING = 0
"""The first guess: every opening is alike, and the search plays the least."""
BEST_PART_TOTALS = {1854: 10_748, 1855: 10_935}
"""The best strategy's totals for the open parts (``best-tree.json``, the opening counted)."""
LARGE = 200
"""The search's ``CHECKPOINT_SIZE``: parts this large are kept in the store as they are settled."""


def open_parts(search: Search) -> dict[int, np.ndarray]:
    everything = np.arange(len(search.rows), dtype=np.int32)
    parts = {len(part): part for part in search.parts(everything, OPENING) if len(part) in BEST_PART_TOTALS}
    return dict(sorted(parts.items()))  # in the order the search takes them


def large_parts(search: Search, part: np.ndarray, second: int) -> list[tuple[int, np.ndarray, int]]:
    """``(index, set, most budget)`` of each large part ``second`` leaves of an open ``part``."""
    parts = search.parts(part, second)
    bounds = [search.kernel.set_bound(each, None, search.stats) for each in parts]
    slack = BEST_PART_TOTALS[len(part)] - len(part) - sum(bounds)
    return [
        (index, each, bound + slack)
        for index, (each, bound) in enumerate(zip(parts, bounds, strict=True))
        if len(each) >= LARGE
    ]


def census(search: Search) -> None:
    grand = settled_in_all = 0
    for size, part in open_parts(search).items():
        seconds, _, _, _ = search.plan(part, None, BEST_PART_TOTALS[size], (OPENING,))
        print(f"part of {size}: {len(seconds)} classes of second guesses")
        for second in seconds:
            cells = []
            for _, each, budget in large_parts(search, part, second):
                guesses, _, _, _ = search.plan(each, None, budget, (OPENING, second))
                settled = sum(1 for guess in guesses if _settled(search, each, guess))
                cells.append(
                    f"{len(each)}: {len(guesses)}" + (f" ({settled} settled)" if search.store else "")
                )
                grand += len(guesses)
                settled_in_all += settled
            print(f"  second guess {second}: " + ", ".join(cells))
    print(
        f"guesses of large parts to search: {grand:,}"
        + (f", {settled_in_all:,} settled" if search.store else "")
    )


def _settled(search: Search, candidates: np.ndarray, guess: int) -> bool:
    return search.store is not None and search.store.guess_settled(candidates, None, guess) is not None


def time_guesses(search: Search, size: int, second: int, index: int, cpu_limit: float) -> None:
    part = open_parts(search)[size]
    chosen = {position: (each, budget) for position, each, budget in large_parts(search, part, second)}
    if index not in chosen:
        raise SystemExit(f"second guess {second} leaves no large part {index} of the part of {size}")
    candidates, bound = chosen[index]
    guesses, bounds, _, played = search.plan(candidates, None, bound, (OPENING, second))
    print(
        f"part {index} of second guess {second}: {len(candidates)} secrets,"
        f" at most {bound}, {len(guesses)} guesses"
    )
    started = time.process_time()
    tried = 0
    for position, (guess, guess_bound) in enumerate(zip(guesses, bounds, strict=True)):
        if guess_bound >= bound:
            break
        before = time.process_time()
        value = len(candidates) + search.guess_value(
            candidates, guess, None, bound - len(candidates), played, 2
        )
        outcome = "exact" if value < bound else "refuted"
        bound = min(bound, value)
        print(
            f"{position} guess {guess}: {value} {outcome}, {time.process_time() - before:.1f} s", flush=True
        )
        tried += 1
        if time.process_time() - started >= cpu_limit:
            break
    print(f"{tried} guesses in {time.process_time() - started:.0f} s of CPU")


def read_store(search: Search, path: Path) -> None:
    """Hand ``search`` what the store at ``path`` settled, read from a copy: opening the store
    itself would add the census's seconds to the time searched, and a search may be writing it."""
    if not path.is_file():
        raise SystemExit(f"no proof store at {path}")
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "store.db"
        consistent_copy(path, copy)
        open_store(search, copy).close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    counting = commands.add_parser("census", help="the guesses of large parts left to search")
    counting.add_argument("--store", type=Path, help="the proof's store, to count what it settled")
    timing = commands.add_parser("time", help="CPU seconds per guess of one large part")
    timing.add_argument("part", type=int, choices=sorted(BEST_PART_TOTALS))
    timing.add_argument("second", type=int, help="a second guess (census lists them)")
    timing.add_argument("index", type=int, help="its part, largest first from 0")
    timing.add_argument("--cpu", type=float, default=600.0, help="stop after this many CPU seconds")
    arguments = parser.parse_args()
    search = Search(load_game("bottles:n=7"))
    if arguments.command == "census":
        if arguments.store is not None:
            read_store(search, arguments.store)
        census(search)
    else:
        time_guesses(search, arguments.part, arguments.second, arguments.index, arguments.cpu)


if __name__ == "__main__":
    main()
