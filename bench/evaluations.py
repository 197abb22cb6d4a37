"""Evaluation over every secret: moocow's tree evaluation against the notes' player, secret by secret.

Per repeat, side by side in one process: moocow evaluates every secret (a fresh game, so the
feedback table is paid for), then, for sampled workloads, plays the sampled secrets cold with
``solve`` (fresh game, table and strategy), then the baseline plays its share of the secrets.
moocow's times are medians over the repeats; the baseline's secrets are spread over the repeats
so that both sides meet the same load on a shared machine.

Where the baseline would take more than a minute it plays a seeded sample of the secrets, and
two rows are reported: the sample itself (both sides on the same secrets, guess counts
compared one by one) and the whole evaluation, with the baseline's time extrapolated from the
sample (it plays each secret from scratch, so its time is a sum over secrets and the sample
mean estimates it without bias).
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from dataclasses import dataclass

from bench.baseline import NotesPlayer
from bench.fresh import fresh_game
from bench.measure import Measured, measure, median
from bench.rows import Row, ratio
from moocow.engine.evaluation import Evaluation, evaluate_with_tree
from moocow.engine.solve import solve
from moocow.plugins import load_game
from moocow.plugins.strategy_registry import load_strategy

SAMPLE_SEED = 0
"""Seed of ``random.Random(SAMPLE_SEED).sample``, which draws the sampled secrets."""


@dataclass(frozen=True)
class FullRun:
    """moocow's evaluation of every secret, and the opening it played."""

    evaluation: Evaluation
    opening: int


@dataclass(frozen=True)
class BaselineRun:
    """The baseline's one-off setup (its code lists) and, per secret played, guesses and seconds."""

    setup_seconds: float
    played: dict[int, tuple[int, float]]

    @property
    def seconds(self) -> float:
        """Setup plus every secret played."""
        return self.setup_seconds + sum(seconds for _, seconds in self.played.values())

    def extrapolated(self, count: int) -> float:
        """The time ``count`` secrets would take: setup plus the mean time per secret played."""
        playing = self.seconds - self.setup_seconds
        return self.setup_seconds + playing / len(self.played) * count


@dataclass(frozen=True)
class EvaluationWorkload:
    """A strategy evaluated over every secret of a game, by moocow and by the baseline."""

    strategy: str
    """A built-in strategy name without parameters (the baseline plays the defaults)."""
    game: str
    """The game's spec."""
    sample: int | None = None
    """Secrets the baseline plays (a seeded sample); ``None``: all of them."""
    repeats: int = 3
    """moocow runs per measurement; the median is reported."""
    quick: bool = False
    """Whether ``--quick`` runs it."""

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"evaluate {self.strategy} {self.game}"

    def run(self) -> list[Row]:
        """Measure both sides and return the table's rows (whole evaluation, then the sample)."""
        count = len(load_game(self.game).secrets)
        secrets = self._secrets(count)
        setup = measure(NotesPlayer.for_game, fresh_game(self.game), self.strategy)
        full: list[Measured[FullRun]] = []
        cold: list[Measured[list[int]]] = []
        played: dict[int, tuple[int, float]] = {}
        for repeat in range(self.repeats):
            full.append(measure(self._evaluate))
            if self.sample is not None:
                cold.append(measure(self._solve, secrets))
            for secret in secrets[repeat :: self.repeats]:
                started = time.perf_counter()
                guesses = setup.value.play(secret, full[0].value.opening)
                played[secret] = (guesses, time.perf_counter() - started)
                _progress(f"{self.name}: baseline secret {len(played)}/{len(secrets)}", played[secret][1])
        baseline = BaselineRun(setup.seconds, played)
        rows = [self._full_row(full, baseline, count)]
        if self.sample is not None:
            rows.append(self._sample_row(cold, baseline, count, secrets))
        return rows

    def _secrets(self, count: int) -> list[int]:
        if self.sample is None or self.sample >= count:
            return list(range(count))
        return random.Random(SAMPLE_SEED).sample(range(count), self.sample)

    def _evaluate(self) -> FullRun:
        evaluation, root = evaluate_with_tree(fresh_game(self.game), load_strategy(self.strategy))
        return FullRun(evaluation, root.guess)

    def _solve(self, secrets: list[int]) -> list[int]:
        game, strategy = fresh_game(self.game), load_strategy(self.strategy)
        return [len(solve(game, strategy, secret)) for secret in secrets]

    def _full_row(self, full: list[Measured[FullRun]], baseline: BaselineRun, count: int) -> Row:
        evaluation = full[0].value.evaluation
        moocow_seconds = median([run.seconds for run in full])
        sampled = len(baseline.played) < count
        if sampled:
            agree = None  # compared secret by secret in the sample's row
            baseline_seconds = baseline.extrapolated(count)
            basis = f"all {count:,} secrets; baseline extrapolated from {_secrets_text(len(baseline.played))}"
        else:
            histogram = Counter(guesses for guesses, _ in baseline.played.values())
            agree = tuple(histogram[k] for k in range(1, max(histogram) + 1)) == evaluation.histogram
            baseline_seconds = baseline.seconds
            basis = f"all {count:,} secrets"
        return Row(
            workload=self.name,
            basis=basis,
            moocow_seconds=moocow_seconds,
            baseline_seconds=baseline_seconds,
            ratio=ratio(baseline_seconds, moocow_seconds),
            peak_rss=max(run.peak_rss for run in full),
            result=f"total {evaluation.total:,}, worst {evaluation.worst}, average {evaluation.average:.4f}",
            agree=agree,
            baseline_estimated=sampled,
            details={
                "moocow_runs": [run.seconds for run in full],
                "histogram": list(evaluation.histogram),
                "opening": full[0].value.opening,
                "baseline_opening": "moocow's opening, given (the notes fix the first guess too)",
                "baseline_mode": "every secret from scratch, no cache of decided positions",
            },
        )

    def _sample_row(
        self, cold: list[Measured[list[int]]], baseline: BaselineRun, count: int, secrets: list[int]
    ) -> Row:
        moocow_counts = cold[0].value
        baseline_counts = [baseline.played[secret][0] for secret in secrets]
        matching = sum(m == b for m, b in zip(moocow_counts, baseline_counts, strict=True))
        moocow_seconds = median([run.seconds for run in cold])
        return Row(
            workload=self.name,
            basis=f"{_secrets_text(len(secrets))} of {count:,} sampled, moocow cold",
            moocow_seconds=moocow_seconds,
            baseline_seconds=baseline.seconds,
            ratio=ratio(baseline.seconds, moocow_seconds),
            peak_rss=max(run.peak_rss for run in cold),
            result=f"{sum(moocow_counts):,} guesses; {matching}/{len(secrets)} secrets agree",
            agree=matching == len(secrets),
            details={
                "moocow_runs": [run.seconds for run in cold],
                "moocow_mode": "fresh game, feedback table and strategy; solve() on each sampled secret",
                "secrets": secrets,
                "sample_seed": SAMPLE_SEED,
                "moocow_guesses": moocow_counts,
                "baseline_guesses": baseline_counts,
                "baseline_seconds_per_secret": [baseline.played[secret][1] for secret in secrets],
            },
        )


def _secrets_text(count: int) -> str:
    """``1 secret``, ``20 secrets``."""
    return f"{count:,} secret" if count == 1 else f"{count:,} secrets"


def _progress(what: str, seconds: float) -> None:
    """Long baselines say where they are (on stderr; the table goes to stdout)."""
    if seconds >= 5:
        print(f"  {what}: {seconds:.1f} s", file=sys.stderr, flush=True)
