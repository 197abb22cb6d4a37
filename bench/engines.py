"""The compiled greedy engine against the numpy path, alternately in one process (issue 13).

The engine's path is switched in the process (``engine.switches.switched``), so both paths run
the same evaluation from a fresh game in turn and meet the same load on a shared machine: the
ratio of the medians is what to read, and the results must agree. A third run in each turn sets
no path, as users run it. One small untimed evaluation first loads numba and the compiled kernels
from their cache.
``python -m bench.engines [GAME STRATEGY] [--repeats N]`` runs one workload alone.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from bench.fresh import fresh_game
from bench.measure import Measured, measure, median
from bench.report import megabytes
from bench.rows import Row, ratio
from moocow.engine.evaluation import Evaluation, evaluate
from moocow.engine.switches import ENGINE_VARIABLE, switched
from moocow.plugins.strategy_registry import load_strategy

WARM_UP = ("mastermind:pegs=3,colors=4", "minmax")
"""An evaluation small enough to cost nothing but the compiled engine's loading."""


AS_USERS_RUN = "default"
"""The path the engine picks itself, with no ``MOOCOW_ENGINE``: what users get. Timed too, since
forcing the compiled path hid that Mastermind 5x8 never left numpy by itself."""


def _evaluate(game: str, strategy: str, path: str) -> Measured[Evaluation]:
    with switched(engine=None if path == AS_USERS_RUN else path):
        return measure(evaluate, fresh_game(game), load_strategy(strategy))


@dataclass(frozen=True)
class EngineWorkload:
    """One evaluation on the compiled engine, the numpy path as its baseline."""

    strategy: str
    game: str
    repeats: int = 3
    quick: bool = False

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"engine {self.strategy} {self.game}"

    def run(self) -> list[Row]:
        """Alternate the two paths ``repeats`` times; medians, peaks and whether they agree."""
        _evaluate(*WARM_UP, "compiled")
        runs: dict[str, list[Measured[Evaluation]]] = {"numpy": [], "compiled": [], AS_USERS_RUN: []}
        for _ in range(self.repeats):
            for path, measured in runs.items():
                measured.append(_evaluate(self.game, self.strategy, path))
        seconds = {path: median([run.seconds for run in measured]) for path, measured in runs.items()}
        peaks = {path: max(run.peak_rss for run in measured) for path, measured in runs.items()}
        results = {(run.value.total, run.value.histogram) for measured in runs.values() for run in measured}
        first = runs["compiled"][0].value
        numpy_peak = megabytes(peaks["numpy"])
        return [
            Row(
                workload=self.name,
                basis=f"all {first.secrets:,} secrets; baseline: the numpy path, same process",
                moocow_seconds=seconds["compiled"],
                baseline_seconds=seconds["numpy"],
                ratio=ratio(seconds["numpy"], seconds["compiled"]),
                peak_rss=peaks["compiled"],
                result=(
                    f"total {first.total:,}, worst {first.worst}; numpy's peak RSS {numpy_peak}; "
                    f"as users run it (no {ENGINE_VARIABLE}) {seconds[AS_USERS_RUN]:.2f} s"
                ),
                agree=len(results) == 1,
                details={path: [run.seconds for run in measured] for path, measured in runs.items()},
            )
        ]


def main() -> None:
    """Run one engine workload and print its row."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", nargs="?", default="mastermind:pegs=5,colors=8")
    parser.add_argument("strategy", nargs="?", default="minmax:first=11223")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    (row,) = EngineWorkload(args.strategy, args.game, args.repeats).run()
    print(
        f"{row.workload}: compiled {row.moocow_seconds:.2f} s, numpy {row.baseline_seconds:.2f} s, "
        f"ratio {row.ratio:.2f}x; compiled peak RSS {(row.peak_rss or 0) / 2**20:,.0f} MB; "
        f"{row.result}; {'agree' if row.agree else 'DIFFER'}; runs {row.details}"
    )
    if not row.agree:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
