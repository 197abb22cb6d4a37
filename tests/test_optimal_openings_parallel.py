"""A proof over Wordle's openings on every core (``optimal.opening_workers``): the same total, bound
and tree as one process, the exhaustive search's total; the best shared while workers search
(``incumbent``, ``wide.Steer``)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from moocow.optimal import flight, incumbent
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.prove import prove_optimal
from moocow.optimal.wide import Cancelled, WideSearch
from moocow.trees.files import tree_to_dict
from tests.test_optimal_wide import exhaustive, needs_lists, official, small_game


@needs_lists
@pytest.mark.parametrize(
    ("hard", "seed", "max_depth"), [(False, 1, None), (True, 2, 4), (False, 3, 5), (True, 5, 5)]
)
def test_every_core_proves_what_one_process_proves_with_the_same_tree(
    hard: bool, seed: int, max_depth: int | None, tmp_path: Path
) -> None:
    game = small_game(hard, seed, tmp_path, answers=40, guesses=120)
    one = prove_optimal(game, max_depth=max_depth, workers=1)
    expected = exhaustive(game, max_depth) if len(game.guesses) <= 60 else one.total
    for workers in (2, 3):
        many = prove_optimal(game, max_depth=max_depth, workers=workers)
        assert many.proven and many.total == one.total == expected
        assert many.lower_bound == one.lower_bound
        if one.root is None:  # no strategy within the limit
            assert many.root is None and one.total is None
            continue
        assert many.root is not None
        assert tree_to_dict(game, many.root, "optimal") == tree_to_dict(game, one.root, "optimal")


@needs_lists
@pytest.mark.parametrize(("hard", "max_depth"), [(False, None), (True, 5), (False, 3)])
def test_one_opening_on_every_core_is_what_one_process_proves(
    hard: bool, max_depth: int | None, tmp_path: Path
) -> None:
    """``--first`` shares the opening's parts out (``opening_parts``): the same total and tree,
    the exhaustive search's total; none when no strategy after it meets the limit."""
    game = small_game(hard, 3, tmp_path, answers=40, guesses=60)
    for guess in (0, 17):
        opening = game.format_code(game.guesses[guess])
        one = prove_optimal(game, max_depth=max_depth, first=opening, workers=1)
        many = prove_optimal(game, max_depth=max_depth, first=opening, workers=2)
        assert many.proven and many.total == one.total
        assert (many.total or float("inf")) == exhaustive(game, max_depth, guess)
        if one.root is None:
            assert many.root is None
            continue
        assert many.root is not None
        assert tree_to_dict(game, many.root, "optimal") == tree_to_dict(game, one.root, "optimal")


@needs_lists
@pytest.mark.parametrize(("hard", "max_depth"), [(False, None), (True, 5), (False, 4), (True, 4)])
def test_small_games_agree_with_the_exhaustive_search_on_two_workers(
    hard: bool, max_depth: int | None, tmp_path: Path
) -> None:
    game = small_game(hard, 1, tmp_path)
    result = prove_optimal(game, max_depth=max_depth, workers=2)
    assert result.proven and (result.total or float("inf")) == exhaustive(game, max_depth)


def test_a_packed_best_orders_as_the_search_does() -> None:
    """Lower totals first, then the earlier opening; an opening before the best's may tie it."""
    assert incumbent.pack(100, 7) < incumbent.pack(100, 8) < incumbent.pack(101, 0) < incumbent.NO_BEST
    assert incumbent.unpack(incumbent.pack(7920, 12)) == (7920, 12)
    assert incumbent.unpack(incumbent.NO_BEST)[0] == INFEASIBLE
    best = incumbent.pack(7920, 12)
    assert incumbent.threshold(best, 11) == 7921 and incumbent.threshold(best, 13) == 7920
    assert incumbent.budget(best, 13, 2315) == 7920 - 2315
    assert incumbent.budget(incumbent.NO_BEST, 0, 2315) == INFEASIBLE
    shared = incumbent.SharedIncumbent()
    shared.lower(best)
    shared.lower(incumbent.pack(7921, 0))
    assert shared.read() == best


class Falling:
    """A steer whose budget falls to ``low`` after ``seconds``."""

    def __init__(self, high: int, low: int, seconds: float, cancel: bool = False) -> None:
        self.high, self.low, self.cancel = high, low, cancel
        self.at = time.monotonic() + seconds

    def budget(self) -> int:
        return self.low if time.monotonic() >= self.at and not self.cancel else self.high

    def cancelled(self) -> bool:
        return self.cancel and time.monotonic() >= self.at


@needs_lists
def test_a_budget_lowered_mid_search_gives_what_the_lower_budget_gives() -> None:
    """SALET's parts searched with no budget; a second in, another worker's best lowers it below
    SALET's total: the search halts, goes on with the lower budget from its memo, and refutes."""
    game = official(False)
    search = WideSearch(game, 6)
    salet = game.guess_index("salet")
    everything = np.arange(len(game.secrets), dtype=np.int32)
    steer = Falling(INFEASIBLE, 7900 - 2315, 1.0)
    refuted = search.guess_total(everything, search.every_guess, salet, 5, INFEASIBLE, steer)
    assert 7900 - 2315 <= refuted < INFEASIBLE
    exact = search.guess_total(everything, search.every_guess, salet, 5, INFEASIBLE)
    assert exact == 7920 - 2315


@needs_lists
def test_a_cancelled_search_stops_within_a_second_and_its_memo_still_serves() -> None:
    game = official(False)
    search = WideSearch(game, 6)
    crate = game.guess_index("crate")
    everything = np.arange(len(game.secrets), dtype=np.int32)
    started = time.monotonic()
    with pytest.raises(Cancelled):
        search.guess_total(
            everything, search.every_guess, crate, 5, INFEASIBLE, Falling(INFEASIBLE, 0, 0.5, True)
        )
    assert time.monotonic() - started < 1.5
    salet = game.guess_index("salet")
    assert search.guess_total(everything, search.every_guess, salet, 5, INFEASIBLE) == 7920 - 2315


@needs_lists
def test_a_batch_takes_the_best_it_finds_for_its_later_openings(tmp_path: Path) -> None:
    """A batch's second opening is settled against the first's total, not the budget it left with."""
    game = small_game(False, 3, tmp_path)
    search = WideSearch(game, 5)
    first, second = 0, 1
    batch = flight.Batch((0, 1), (first, second), incumbent.NO_BEST)
    outcomes = flight.settle_batch(search, 4, batch, lambda: incumbent.NO_BEST)
    (_, total_first, tree_first, _, _), (_, total_second, tree_second, _, _) = outcomes
    assert tree_first is not None
    if tree_second is not None:  # exact only below the first's total
        assert total_second < total_first
    else:
        assert total_second >= total_first


def test_the_shared_best_is_seen_by_a_forked_child() -> None:
    import multiprocessing

    shared = incumbent.SharedIncumbent()
    seen = multiprocessing.get_context("fork").Queue()

    def child() -> None:
        deadline = time.monotonic() + 10
        while shared.read() == incumbent.NO_BEST and time.monotonic() < deadline:
            time.sleep(0.01)
        seen.put(shared.read())

    process = multiprocessing.get_context("fork").Process(target=child)
    process.start()
    threading.Timer(0.2, lambda: shared.lower(incumbent.pack(5, 3))).start()
    assert seen.get(timeout=10) == incumbent.pack(5, 3)
    process.join()


@needs_lists
def test_the_search_lets_python_run_beside_it() -> None:
    """The search runs in a thread while this one waits for a stop or a lower budget: its
    compiled code, built ahead of time, must release the GIL, or nothing is seen until it ends."""
    search = WideSearch(official(False), 6)
    salet = search.game.guess_index("salet")
    everything = np.arange(len(search.rows), dtype=np.int32)
    thread = threading.Thread(
        target=search.guess_total, args=(everything, search.every_guess, salet, 5, INFEASIBLE)
    )
    beats = 0
    started = time.monotonic()
    thread.start()
    while thread.is_alive():
        time.sleep(0.001)
        beats += 1
    elapsed = time.monotonic() - started
    assert elapsed < 0.05 or beats >= 10 * elapsed  # a beat at most every tenth of a second
