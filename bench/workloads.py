"""Every workload of the suite, in table order, with the sample sizes that keep each baseline short.

Measured baseline times per secret (from scratch): about 0.6 s on Mastermind 4x6, 2 s on words,
10 s on digits and on 7 bottles, 12 minutes on 8 bottles. The samples keep each workload under
a minute, except 8 bottles, where one secret is the least there is.
"""

from __future__ import annotations

from typing import Protocol

from bench.bounds import BoundsWorkload
from bench.counting import CountingWorkload
from bench.engines import EngineWorkload
from bench.evaluations import EvaluationWorkload
from bench.flood import FloodWorkload
from bench.optimal import OptimalWorkload
from bench.process import ProcessWorkload
from bench.referee import CrowdWorkload, RefereeWorkload
from bench.rounds import RunnerWorkload
from bench.rows import Row
from bench.sandbox import SandboxWorkload
from bench.scaling import ScalingWorkload
from bench.scaling_model import ScalingModel
from bench.selby import SelbyWorkload, WholeGameRate
from bench.tournament import TournamentWorkload
from bench.warm import WarmStartWorkload
from bench.web import AssistStepWorkload, ServeWorkload


class Workload(Protocol):
    """Something the suite measures: a name to select it by and rows to show."""

    @property
    def name(self) -> str:
        """Unique; ``--only`` matches a substring of it."""

    @property
    def quick(self) -> bool:
        """Whether ``--quick`` runs it."""

    def run(self) -> list[Row]:
        """Measure moocow and the baseline; the rows of the table."""


WORKLOADS: tuple[Workload, ...] = (
    EvaluationWorkload("minmax", "mastermind", sample=20),
    EvaluationWorkload("minmax", "digits", sample=4),
    EvaluationWorkload("minmax", "words", sample=10),
    EvaluationWorkload("minmax", "bottles:n=6", sample=60),
    EvaluationWorkload("minmax", "bottles:n=7", sample=6),
    EvaluationWorkload("minmax", "bottles:n=8", sample=1, repeats=1),
    EvaluationWorkload("expected", "mastermind", sample=20),
    EvaluationWorkload("entropy", "mastermind", sample=20),
    EvaluationWorkload("parts", "mastermind", sample=20),
    EvaluationWorkload("first", "mastermind"),
    EvaluationWorkload("random", "mastermind"),
    EvaluationWorkload("minmax", "bottles:n=5", quick=True),
    EvaluationWorkload("entropy", "mastermind:pegs=3,colors=4", sample=12, quick=True),
    EngineWorkload("minmax:first=11223", "mastermind:pegs=5,colors=8"),
    EngineWorkload("minmax", "bottles:n=8", repeats=1),
    CountingWorkload("mastermind"),
    CountingWorkload("digits"),
    CountingWorkload("bottles:n=7"),
    CountingWorkload("mastermind:pegs=3,colors=4", quick=True),
    RunnerWorkload("strategy"),
    RunnerWorkload("module"),
    RunnerWorkload("program"),
    RunnerWorkload("strategy", "mastermind:pegs=3,colors=4", rounds=20, quick=True),
    SandboxWorkload("module"),
    SandboxWorkload("program"),
    SandboxWorkload("module", "mastermind:pegs=3,colors=4", rounds=10, repeats=1, quick=True),
    RefereeWorkload(),
    RefereeWorkload("mastermind:pegs=2,colors=3", rounds=100, repeats=1, quick=True),
    CrowdWorkload(),
    TournamentWorkload(),
    TournamentWorkload("mastermind:pegs=2,colors=3", rounds=100, repeats=1, quick=True),
    OptimalWorkload("bottles:n=4"),
    OptimalWorkload("mastermind:pegs=3,colors=3", quick=True),
    OptimalWorkload("bottles:n=5", baseline="numpy"),
    OptimalWorkload("mastermind", baseline="numpy", repeats=1),
    OptimalWorkload("bottles:n=6", baseline="numpy", repeats=1),
    OptimalWorkload("digits", baseline="none", repeats=1, workers=2),
    SelbyWorkload("salet"),
    SelbyWorkload("salet", hard=True),
    SelbyWorkload("crate", repeats=1),
    SelbyWorkload("crate", hard=True, repeats=1),
    SelbyWorkload("tarse", lists="LATEST", repeats=1),
    SelbyWorkload("tarse", hard=True, lists="LATEST", repeats=1),
    SelbyWorkload("aahed", hard=True, lists="LATEST"),
    WholeGameRate(),
    ScalingWorkload(),
    ScalingModel(),
    ScalingWorkload(answers=200, guesses=600, repeats=1, dask=False, quick=True),
    BoundsWorkload(right=3),
    BoundsWorkload(right=2, budget=4550),
    BoundsWorkload(right=4, repeats=1, quick=True),
    ProcessWorkload(("--help",), ("typer", "rich"), repeats=3, quick=True),
    ProcessWorkload(("evaluate", "mastermind", "-s", "minmax:first=1122"), ("typer", "numpy")),
    ProcessWorkload(("optimal", "mastermind"), ("typer", "numpy")),
    WarmStartWorkload(("evaluate", "mastermind:pegs=5,colors=8", "-s", "minmax", "--first", "11223")),
    WarmStartWorkload(("evaluate", "mastermind", "-s", "minmax"), engine="compiled", repeats=7),
    ServeWorkload(),
    AssistStepWorkload(),
    FloodWorkload(),
)
"""The suite; ``--quick`` runs the ones marked quick (a few seconds in all)."""


def select(only: str | None, quick: bool) -> list[Workload]:
    """The workloads whose name contains ``only`` (all without it), the quick ones with ``quick``."""
    return [w for w in WORKLOADS if (only is None or only in w.name) and (w.quick or not quick)]


def find(name: str) -> Workload:
    """The workload called exactly ``name``."""
    for workload in WORKLOADS:
        if workload.name == name:
            return workload
    raise KeyError(name)
