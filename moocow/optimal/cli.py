"""``moocow optimal`` and ``moocow tree``: thin commands over ``prove_optimal`` and the tree files.

Plain typer-annotated functions, registered on the main app with ``app.command()(optimal)``;
each turns ``MoocowError`` into one line on stderr and exit status 2 itself
(``terminal.one_line_errors``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from moocow.engine.errors import MoocowError
from moocow.engine.evaluation import evaluate_with_tree
from moocow.engine.game import Game
from moocow.engine.registry import load_strategy
from moocow.engine.tree import Node
from moocow.engine.treefile import format_tree, save_tree, tree_stats, tree_to_dot
from moocow.optimal.progress import SearchProgress
from moocow.optimal.prove import OptimalResult, prove_optimal
from moocow.plugins import load_game
from moocow.runner.cli import NoSandboxOpt
from moocow.runner.players import PlayerKind, PlayerSpec, parse_player
from moocow.runner.playertree import player_tree
from moocow.runner.sandbox import SandboxPolicy
from moocow.terminal import err, one_line_errors, out, plural, progress_bars

DEFAULT_WORKERS = os.cpu_count() or 1
"""Processes ``moocow optimal`` searches with unless told: every core."""
DEFAULT_SHOW = 2
"""Levels ``moocow tree`` prints when asked for nothing else."""
DEFAULT_STRATEGY = "minmax"
"""The strategy ``moocow tree`` builds when given neither a strategy nor a player."""

GameArg = Annotated[str, typer.Argument(help="A game spec, e.g. mastermind, bottles:n=5, digits.")]
SaveOpt = Annotated[Path | None, typer.Option("--save", help="Write the tree to this JSON file.")]
ShowOpt = Annotated[
    int | None, typer.Option("--show", help="Print the tree down to this many guesses.", min=1)
]
DotOpt = Annotated[Path | None, typer.Option("--dot", help="Write the tree for Graphviz (- for stdout).")]


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
    save: SaveOpt = None,
    show: ShowOpt = None,
    dot: DotOpt = None,
) -> None:
    """Find the strategy with the fewest guesses in total, and prove it (Ctrl-C keeps the best so far)."""
    with one_line_errors():
        _check_outputs(show, dot, save)
        loaded = load_game(game)
        with SearchProgress(err) as progress:
            result = prove_optimal(loaded, max_depth, candidates_only, progress, workers)
        _notes(dot).print(describe(result), soft_wrap=True)
        if result.root is not None:
            label = optimal_label(result)
            _emit(loaded, result.root, label, save, show, dot)


def describe(result: OptimalResult) -> str:
    """One line for people: the total, whether it is proven, the time."""
    limits = [f"at most {result.max_depth} {plural(result.max_depth, 'guess')}"] if result.max_depth else []
    limits += ["candidates only"] if result.candidates_only else []
    where = f"{result.game} ({', '.join(limits)})" if limits else result.game
    seconds = f"{result.seconds:.1f} s"
    if result.total is None and result.proven:
        return f"{where}: no strategy meets the limit (proven in {seconds})"
    if result.proven:
        return (
            f"{where}: {result.total} {plural(result.total, 'guess')} in total, proven optimal in {seconds}"
        )
    best = "no strategy yet" if result.total is None else f"best found {result.total}"
    return f"{where}: interrupted after {seconds}; {best}, proven lower bound {result.lower_bound}"


def optimal_label(result: OptimalResult) -> str:
    """What built an optimal tree, as recorded in its file."""
    options = [f"max_depth={result.max_depth}"] if result.max_depth else []
    options += ["candidates_only=true"] if result.candidates_only else []
    state = "" if result.proven else " (unproven)"
    return f"optimal{':' + ','.join(options) if options else ''}{state}"


def tree(
    game: GameArg,
    strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy", "-s", help="A strategy spec, e.g. minmax, entropy, tree:PATH (default minmax)."
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            "-p",
            help="Instead, a player as tournaments name it (a .py module or a program), "
            "refereed against every secret; it must decide by the history alone.",
        ),
    ] = None,
    save: SaveOpt = None,
    show: ShowOpt = None,
    dot: DotOpt = None,
    no_sandbox: NoSandboxOpt = False,
) -> None:
    """Build the tree of a strategy or a player over every secret: save it, print it, or export it."""
    with one_line_errors():
        if strategy is not None and player is not None:
            raise MoocowError("give --strategy or --player, not both")
        _check_outputs(show, dot, save)
        loaded = load_game(game)
        seated = None if player is None else parse_player(player)
        if seated is not None and seated.kind is not PlayerKind.STRATEGY:
            label, root = seated.name, _player_root(loaded, seated, SandboxPolicy(unconfined=no_sandbox))
        else:
            chosen = load_strategy(player or strategy or DEFAULT_STRATEGY)
            with progress_bars():
                label, root = chosen.spec, evaluate_with_tree(loaded, chosen)[1]
        stats = tree_stats(root)
        total = f"{stats.total} {plural(stats.total, 'guess')} in total"
        _notes(dot).print(
            f"{loaded.spec} with {label}: {total}, worst {stats.worst}", soft_wrap=True, markup=False
        )
        if save is None and dot is None and show is None:
            show = DEFAULT_SHOW
        _emit(loaded, root, label, save, show, dot)


def _player_root(game: Game, player: PlayerSpec, sandbox: SandboxPolicy) -> Node:
    """A player's tree, with a bar of the rounds played on stderr."""
    columns = (TextColumn("rounds"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("rounds", total=len(game.secrets))
        return player_tree(
            game, player, progress=lambda done, _: bar.update(task, completed=done), sandbox=sandbox
        )


def _dot_to_stdout(dot: Path | None) -> bool:
    return dot is not None and str(dot) == "-"


def _notes(dot: Path | None) -> Console:
    """Where summaries go: stdout, unless it carries the DOT text (``--dot -``), which must stand alone."""
    return err if _dot_to_stdout(dot) else out


def _check_outputs(show: int | None, dot: Path | None, save: Path | None) -> None:
    """Refuse outputs that cannot be written before any work, so a long search is not lost to a typo."""
    if show is not None and _dot_to_stdout(dot):
        raise MoocowError("give --show or --dot -, not both: both would print on stdout")
    files = [path for path in (save, None if _dot_to_stdout(dot) else dot) if path is not None]
    if len(files) == 2 and files[0].absolute() == files[1].absolute():
        raise MoocowError(f"--save and --dot both name {save}: the DOT text would replace the tree")
    for path in files:
        if path.is_dir():
            raise MoocowError(f"cannot write {path}: it is a folder")
        if not path.absolute().parent.is_dir():
            raise MoocowError(f"cannot write {path}: there is no folder {path.absolute().parent}")


def _emit(game: Game, root: Node, label: str, save: Path | None, show: int | None, dot: Path | None) -> None:
    """Save, print and export a tree as asked."""
    if save is not None:
        save_tree(save, game, root, label)
        _notes(dot).print(f"saved to {save}", markup=False)
    if show is not None:
        out.print(format_tree(game, root, show), markup=False, highlight=False)
    if dot is not None:
        text = tree_to_dot(game, root)
        if _dot_to_stdout(dot):
            sys.stdout.write(text)
        else:
            try:
                dot.write_text(text, encoding="utf-8")
            except OSError as error:
                raise MoocowError(f"cannot write {dot}: {error.strerror or error}") from None
            out.print(f"Graphviz file written to {dot}", markup=False)
