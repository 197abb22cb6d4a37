"""The choice between serial and shared scoring follows measured speed, and never changes a result."""

from __future__ import annotations

import numpy as np

from moocow.engine import partitions
from moocow.engine.kernel import greedy
from moocow.engine.pace import EXPLORE, RECENT, Pace
from moocow.engine.switches import switched
from moocow.engine.table import FeedbackTable
from moocow.plugins import load_game


def test_the_faster_way_is_taken_and_the_other_tried_now_and_then() -> None:
    pace = Pace()
    assert [pace.choose(), pace.choose()] == [0, 0]  # 0 is untimed until it is recorded
    pace.record(0, 100, 1.0)
    assert pace.choose() == 1
    pace.record(1, 100, 0.5)
    ways = [pace.choose() for _ in range(4 * EXPLORE)]
    assert ways.count(0) == 4 and ways.count(1) == 4 * EXPLORE - 4


def test_one_slow_call_does_not_turn_the_choice() -> None:
    """A first call warming up, or a moment of load, is outvoted by the recent median."""
    pace = Pace()
    for _ in range(RECENT):
        pace.record(0, 1, 2.0)
        pace.record(1, 1, 1.0)
    pace.record(1, 1, 50.0)
    assert pace.seconds_per_unit(1) == 1.0
    assert pace.choose() == 1


def test_a_way_that_becomes_slow_loses_the_choice() -> None:
    """Load arrives: the shared way's recent calls turn slow and the serial way takes over."""
    pace = Pace()
    pace.record(0, 1, 2.0)
    for _ in range(RECENT):
        pace.record(1, 1, 1.0)
    assert pace.choose() == 1
    for _ in range(RECENT):
        pace.record(1, 1, 9.0)
    assert pace.choose() == 0


class Fixed(Pace):
    """A pace that always takes one way."""

    def __init__(self, way: int) -> None:
        super().__init__()
        self.way = way

    def choose(self) -> int:
        return self.way


def test_both_ways_compute_the_same_sizes_and_scores() -> None:
    """Mid-sized scorings go serial or shared as the ``Pace`` they are given chooses (the
    process's own by default): each way gives the sizes and the scores, and the way is timed."""
    game = load_game("mastermind:pegs=5,colors=8")
    table = FeedbackTable(game)
    candidates = np.arange(0, table.secret_count, 4)[:20]
    assert greedy.SHARED_CELLS <= len(candidates) * table.guess_count < greedy.PARALLEL_CELLS
    with switched(engine="numpy"):
        expected = partitions.partition_sizes(table, candidates)
    prepared = greedy.prepare(game, game.feedback_form())
    assert prepared is not None
    for way in (0, 1):
        pace = Fixed(way)
        sizes = greedy.partition_sizes(prepared, table.values, candidates, None, pace)
        assert np.array_equal(sizes, expected)
        worst = greedy.scores(prepared, candidates, None, 0, None, pace)
        assert np.array_equal(worst, expected.max(axis=0))
        assert pace.seconds_per_unit(way) < float("inf") and pace.seconds_per_unit(1 - way) == float("inf")
