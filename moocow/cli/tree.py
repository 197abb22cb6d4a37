"""``moocow tree``: the tree of a strategy, or of a player refereed against every secret.

A plain typer-annotated function, registered on the main app; it turns ``MoocowError`` into one
line on stderr and exit status 2 itself. The engine and the runner are imported when it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from moocow.cli.runner import NoSandboxOpt
from moocow.cli.terminal import err, note_long_evaluation, one_line_errors, progress_bars
from moocow.cli.tree_output import DotOpt, SaveOpt, ShowOpt, SvgOpt, check_outputs, emit, notes
from moocow.engine.errors import MoocowError
from moocow.engine.wording import plural
from moocow.sandbox.sandbox import SandboxPolicy

if TYPE_CHECKING:
    from moocow.engine.game import Game
    from moocow.engine.tree import Node
    from moocow.referee.players import PlayerSpec

DEFAULT_SHOW = 2
"""Levels ``moocow tree`` prints when asked for nothing else."""
DEFAULT_STRATEGY = "minmax"
"""The strategy ``moocow tree`` builds when given neither a strategy nor a player."""

GameArg = Annotated[str, typer.Argument(help="A game spec, e.g. mastermind, bottles:n=5, digits.")]


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
    first: Annotated[
        str | None, typer.Option("--first", metavar="CODE", help="A fixed first guess for the strategy.")
    ] = None,
    save: SaveOpt = None,
    show: ShowOpt = None,
    dot: DotOpt = None,
    svg: SvgOpt = None,
    no_sandbox: NoSandboxOpt = False,
) -> None:
    """Build the tree of a strategy or a player over every secret: save it, print it, or export it."""
    from moocow.engine.evaluation import estimate, evaluate_with_tree
    from moocow.plugins import load_game
    from moocow.plugins.strategy_registry import load_strategy
    from moocow.referee.players import PlayerKind, parse_player
    from moocow.trees.files import tree_stats

    with one_line_errors():
        if strategy is not None and player is not None:
            raise MoocowError("give --strategy or --player, not both")
        check_outputs(show, dot, save, svg)
        loaded = load_game(game)
        seated = None if player is None else parse_player(player)
        if seated is not None and seated.kind is not PlayerKind.STRATEGY:
            if first is not None:
                raise MoocowError("--first goes with a strategy, not with a player that decides itself")
            label, root = seated.name, _player_root(loaded, seated, SandboxPolicy(unconfined=no_sandbox))
        else:
            fixed = {} if first is None else {"first": first}
            chosen = load_strategy(player or strategy or DEFAULT_STRATEGY, **fixed)
            note_long_evaluation(estimate(loaded, chosen))
            with progress_bars():
                label, root = chosen.spec, evaluate_with_tree(loaded, chosen)[1]
        stats = tree_stats(root)
        total = f"{stats.total} {plural(stats.total, 'guess')} in total"
        notes(dot).line(f"{loaded.spec} with {label}: {total}, worst {stats.worst}")
        if save is None and dot is None and show is None and svg is None:
            show = DEFAULT_SHOW
        emit(loaded, root, label, save, show, dot, svg)


def _player_root(game: Game, player: PlayerSpec, sandbox: SandboxPolicy) -> Node:
    """A player's tree, with a bar of the rounds played on stderr."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from moocow.referee.playertree import player_tree

    columns = (TextColumn("rounds"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=err.console, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("rounds", total=len(game.secrets))
        return player_tree(
            game, player, progress=lambda done, _: bar.update(task, completed=done), sandbox=sandbox
        )
