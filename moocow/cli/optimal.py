"""``moocow optimal``: a thin command over ``prove_optimal``.

A plain typer-annotated function, registered on the main app with ``app.command()(optimal)``; it
turns ``MoocowError`` into one line on stderr and exit status 2 itself
(``terminal.one_line_errors``). The search (numba) is imported when the command runs.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from moocow.cli.terminal import err, one_line_errors
from moocow.cli.tree_output import DotOpt, SaveOpt, ShowOpt, check_outputs, emit, notes
from moocow.engine.wording import plural
from moocow.optimal.machine import usable_cores

if TYPE_CHECKING:
    from moocow.optimal.prove import OptimalResult

DEFAULT_WORKERS = usable_cores()
"""Processes ``moocow optimal`` searches with unless told: every core it may use."""

GameArg = Annotated[str, typer.Argument(help="A game spec, e.g. mastermind, bottles:n=5, digits.")]


def optimal(
    game: GameArg,
    max_depth: Annotated[
        int | None, typer.Option("--max-depth", help="Allow at most this many guesses for any secret.", min=1)
    ] = None,
    candidates_only: Annotated[
        bool, typer.Option("--candidates-only", help="Guess only codes that are still possible.")
    ] = False,
    workers: Annotated[
        int, typer.Option("--workers", help="Processes to search with (default: one per core).", min=1)
    ] = DEFAULT_WORKERS,
    store: Annotated[
        Path | None,
        typer.Option(
            "--store",
            help="Keep what the search settles in this file (SQLite), and resume from it: "
            "a search stopped, killed or crashed goes on where it was.",
        ),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="Search on a Dask cluster (the second guesses; Wordle's openings): its scheduler's "
            "address, tcp://HOST:8786.",
        ),
    ] = None,
    shared_guesses: Annotated[
        int,
        typer.Option(
            "--shared-guesses",
            help="Which guesses the workers share out: the 2nd (each a large task) or the 3rd "
            "(thousands of small ones, for many workers).",
            min=2,
            max=3,
        ),
    ] = 2,
    first: Annotated[
        str | None,
        typer.Option("--first", metavar="CODE", help="Fix the first guess: the best strategy after it."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the total, worst case and histogram as JSON.")
    ] = False,
    save: SaveOpt = None,
    show: ShowOpt = None,
    dot: DotOpt = None,
) -> None:
    """Find the strategy with the fewest guesses in total, and prove it (Ctrl-C keeps the best so far)."""
    from moocow.cli.search_progress import SearchProgress
    from moocow.optimal.prove import prove_optimal
    from moocow.optimal.stopping import stopped_by_signals
    from moocow.plugins import load_game

    with one_line_errors():
        check_outputs(show, dot, save)
        loaded = load_game(game)
        with SearchProgress(err) as progress, stopped_by_signals() as stop:
            result = prove_optimal(
                loaded,
                max_depth,
                candidates_only,
                progress,
                workers,
                store,
                scheduler,
                shared_guesses - 1,
                first,
            )
        if as_json:
            print(json.dumps(result_document(result, first), indent=2))
        else:
            notes(dot).line(describe(result, first))
        if result.root is not None:
            label = optimal_label(result)
            emit(loaded, result.root, label, save, show, dot)
    if result.interrupted:  # never the status of a proof: 130 after Ctrl-C, 143 after SIGTERM
        raise typer.Exit(128 + (stop.signal or signal.SIGINT))


def result_document(result: OptimalResult, first: str | None) -> dict[str, Any]:
    """The result as JSON: the total, whether proven, the worst case and how many secrets each
    number of guesses wins."""
    from moocow.trees.files import tree_stats

    document: dict[str, Any] = {
        "game": result.game,
        "max_depth": result.max_depth,
        "candidates_only": result.candidates_only,
        "first": first,
        "opening": result.opening,
        "total": result.total,
        "lower_bound": result.lower_bound,
        "proven": result.proven,
        "interrupted": result.interrupted,
        "seconds": round(result.seconds, 3),
    }
    if result.root is not None and result.total is not None:
        stats = tree_stats(result.root)
        document |= {
            "secrets": stats.secrets,
            "average": round(stats.total / stats.secrets, 4),
            "worst": stats.worst,
            "histogram": list(stats.histogram),
        }
    return document


def describe(result: OptimalResult, first: str | None = None) -> str:
    """One line for people: the total, whether it is proven, the time."""
    limits = [f"opening {first}"] if first is not None else []
    limits += [f"at most {result.max_depth} {plural(result.max_depth, 'guess')}"] if result.max_depth else []
    limits += ["candidates only"] if result.candidates_only else []
    where = f"{result.game} ({', '.join(limits)})" if limits else result.game
    seconds = f"{result.seconds:.1f} s"
    if result.seconds_in_all is not None and result.seconds_in_all > result.seconds + 0.05:
        seconds += f" ({result.seconds_in_all:.1f} s with the earlier runs on its store)"
    if result.total is None and result.proven:
        return f"{where}: no strategy meets the limit (proven in {seconds})"
    opening = "" if result.opening is None else f", best opening {result.opening}"
    if result.proven and result.total is not None:
        return (
            f"{where}: {result.total} {plural(result.total, 'guess')} in total{opening}, "
            f"proven optimal in {seconds}"
        )
    best = "no strategy yet" if result.total is None else f"best found {result.total}{opening}"
    return f"{where}: interrupted after {seconds}; {best}, proven lower bound {result.lower_bound}"


def optimal_label(result: OptimalResult) -> str:
    """What built an optimal tree, as recorded in its file."""
    options = [f"max_depth={result.max_depth}"] if result.max_depth else []
    options += ["candidates_only=true"] if result.candidates_only else []
    state = "" if result.proven else " (unproven)"
    return f"optimal{':' + ','.join(options) if options else ''}{state}"
