"""How busy the exact search's workers are, with and without early starts (``parallel.Early``).

On a machine with fewer cores than workers the time does not show it (the cores are the limit),
so this reports what does: the tasks out on the workers, on average over the time the searching
process waits for them, alternately with early starts and without, in one process.
``python -m bench.early [GAME] [WORKERS]`` (default: digits on 8 workers).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from unittest import mock

from moocow.optimal import parallel, search
from moocow.optimal.prove import prove_optimal
from moocow.plugins import load_game


def busy_workers(game: str, workers: int, early: bool) -> tuple[int, float, float]:
    """The optimum, the seconds taken and the workers busy on average while the search waited."""
    waits: list[tuple[float, int]] = []
    next_outcome: Callable = parallel.GuessPool._next_outcome

    def watched(pool: parallel.GuessPool) -> object:
        started, out = time.perf_counter(), len(pool._out)
        outcome = next_outcome(pool)
        waits.append((time.perf_counter() - started, out))
        return outcome

    start_early = parallel.GuessPool._start_early if early else (lambda pool: None)
    with (
        mock.patch.object(parallel.GuessPool, "_next_outcome", watched),
        mock.patch.object(parallel.GuessPool, "_start_early", start_early),
        mock.patch.object(search, "PARALLEL_SECONDS", 0.0),
    ):
        started = time.perf_counter()
        result = prove_optimal(load_game(game), workers=workers)
        seconds = time.perf_counter() - started
    waited = sum(wait for wait, _ in waits)
    return result.total, seconds, sum(wait * out for wait, out in waits) / max(waited, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", nargs="?", default="digits")
    parser.add_argument("workers", nargs="?", type=int, default=8)
    args = parser.parse_args()
    prove_optimal(load_game("mastermind:pegs=3,colors=4"))  # load the compiled kernel untimed
    for early in (True, False):
        total, seconds, busy = busy_workers(args.game, args.workers, early)
        label = "with early starts" if early else "without"
        print(
            f"{args.game} on {args.workers} workers, {label}: total {total}, {seconds:.1f} s, "
            f"{busy:.2f} workers busy on average while the search waited"
        )


if __name__ == "__main__":
    main()
