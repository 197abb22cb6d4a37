"""How well a strategy plays: every secret, the guesses each one takes, summed up."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from moocow.engine.cost import EvaluationCost, evaluation_cost
from moocow.engine.game import Game
from moocow.engine.opening import opening_guesses
from moocow.engine.position import Position
from moocow.engine.strategies import HeuristicStrategy, Strategy, check_opening
from moocow.engine.table import FeedbackTable
from moocow.engine.tree import Node, build_tree


@dataclass(frozen=True)
class Evaluation:
    """A strategy played against every secret of a game, each equally likely."""

    game: str
    """Spec of the game."""
    strategy: str
    """Spec of the strategy (its fixed first guess included)."""
    secrets: int
    """How many secrets were played."""
    total: int
    """Guesses over all secrets, the winning ones included (the golf score)."""
    worst: int
    """The most guesses any secret took."""
    histogram: tuple[int, ...]
    """``histogram[k - 1]``: how many secrets took ``k`` guesses."""
    seconds: float
    """Wall-clock time of the evaluation, feedback table included."""

    @property
    def average(self) -> float:
        """Guesses per secret."""
        return self.total / self.secrets

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict, the average included."""
        return {**asdict(self), "histogram": list(self.histogram), "average": self.average}


def evaluate(game: Game, strategy: Strategy) -> Evaluation:
    """Play ``strategy`` against every secret of ``game`` (positions reached twice decided once)."""
    evaluation, _ = evaluate_with_tree(game, strategy)
    return evaluation


def evaluate_with_tree(game: Game, strategy: Strategy) -> tuple[Evaluation, Node]:
    """``evaluate``, also returning the strategy's tree."""
    started = time.perf_counter()
    check_opening(strategy, game)
    root, guesses_taken = build_tree(strategy, Position.start(game))
    histogram = np.bincount(guesses_taken)[1:]
    evaluation = Evaluation(
        game=game.spec,
        strategy=strategy.spec,
        secrets=len(guesses_taken),
        total=int(guesses_taken.sum()),
        worst=len(histogram),
        histogram=tuple(int(count) for count in histogram),
        seconds=time.perf_counter() - started,
    )
    return evaluation, root


def estimate(game: Game, strategy: Strategy) -> EvaluationCost:
    """What ``evaluate`` will cost, by the model of ``engine.cost``: from the sizes alone, nothing run."""
    check_opening(strategy, game)
    table = FeedbackTable.for_game(game)
    scores = isinstance(strategy, HeuristicStrategy)
    candidates_only = scores and bool(strategy.values["candidates_only"])
    alike = opening_guesses(game) if scores else None
    opening = table.guess_count if alike is None else len(alike)
    if strategy.values.get("first") is not None:
        opening = 0
    elif candidates_only:
        opening = min(opening, table.secret_count)
    return evaluation_cost(table, scores, candidates_only, opening)
