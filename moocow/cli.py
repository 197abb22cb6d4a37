"""The ``moocow`` command line: options in, one library call, results out.

Every command turns ``MoocowError`` (bad input from a person) into one line on stderr and exit
status 2; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.table import Table

from moocow import api
from moocow.engine.table import table_budget
from moocow.interactive import assist as run_assistant
from moocow.interactive import play as run_play
from moocow.optimal.cli import optimal, tree
from moocow.runner.cli import grade, tournament
from moocow.terminal import err, one_line_errors, out

app = typer.Typer(
    help="Play, solve and referee code-breaking games: Mastermind, Bulls and Cows, the bottle game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])

GameArg = Annotated[str, typer.Argument(help="A game spec, e.g. mastermind, bottles:n=7, words:length=5.")]
StrategyOpt = Annotated[
    str, typer.Option("--strategy", "-s", help="A strategy spec, e.g. minmax, entropy, random:seed=3.")
]
FirstOpt = Annotated[str | None, typer.Option("--first", help="A fixed first guess, e.g. 1122.")]


def reports_errors(function: F) -> F:
    """Turn ``MoocowError`` into one line on stderr and exit status 2."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with one_line_errors():
            return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def command(function: F) -> F:
    """Register a command of the app, with one-line errors."""
    app.command()(reports_errors(function))
    return function


@app.callback()
@reports_errors
def main_options(
    plugin: Annotated[
        list[Path] | None,
        typer.Option("--plugin", help="Load a game plugin from a Python file (repeatable)."),
    ] = None,
) -> None:
    """Load local plugins before any command, and report plugins that failed to load."""
    table_budget()  # a mistyped MOOCOW_TABLE_BUDGET is refused before any work starts
    for path in plugin or []:
        api.load_plugin_file(path)
    for problem in api.plugin_errors():
        err.print(f"warning: {problem}", markup=False, soft_wrap=True)


@command
def games() -> None:
    """List the games, their parameters and the size of their code spaces."""
    table = Table("game", "parameters (default)", "secrets", "guesses", "about")
    for info in api.describe_games():
        parameters = ", ".join(f"{name}={value}" for name, value in info.defaults.items())
        table.add_row(info.name, parameters, f"{info.secrets:,}", f"{info.guesses:,}", info.summary)
    out.print(table)


@command
def strategies() -> None:
    """List the strategies and their parameters."""
    table = Table("strategy", "parameters", "about")
    for name, parameters, summary in api.describe_strategies():
        table.add_row(name, ", ".join(parameters), summary)
    out.print(table)


@command
def solve(
    game: GameArg,
    secret: Annotated[str, typer.Option("--secret", help="The secret to find, e.g. 4321.")],
    strategy: StrategyOpt = "minmax",
    first: FirstOpt = None,
) -> None:
    """Watch a strategy find a secret: each guess, its feedback, how many codes remain."""
    playout = api.solve(game, secret, strategy, first=first)
    table = Table("#", "guess", "", "feedback", "remaining")
    for number, step in enumerate(playout.steps, 1):
        marker = "" if step.was_candidate else "(not possible)"
        table.add_row(str(number), step.guess, marker, step.feedback, f"{step.remaining:,}")
    out.print(table)
    out.print(f"Found {secret} in {len(playout.steps)} guesses with {playout.strategy}.")


@command
def evaluate(
    game: GameArg,
    strategy: StrategyOpt = "minmax",
    first: FirstOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Play a strategy against every secret: total, average, worst case and histogram."""
    result = api.evaluate(game, strategy, first=first)
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
        return
    out.print(f"{result.game} with {result.strategy}: {result.secrets:,} secrets")
    out.print(
        f"total {result.total:,} guesses, average {result.average:.4f}, worst case {result.worst}, "
        f"{result.seconds:.2f} s"
    )
    widest = max(result.histogram)
    for guesses, count in enumerate(result.histogram, 1):
        bar = "█" * max(1 if count else 0, round(40 * count / widest))
        out.print(f"{guesses:>3} guesses {count:>8,} {bar}")


@command
def assist(game: GameArg, strategy: StrategyOpt = "minmax") -> None:
    """Help at the table: type each guess and its score; see what remains and what to try next."""
    run_assistant(api.assistant(game, strategy), _ask, _say)


@command
def play(
    game: GameArg,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the secret (random if left out).")
    ] = None,
) -> None:
    """Guess the computer's secret."""
    run_play(api.load_game(game), seed, _ask, _say)


app.command()(tournament)
app.command()(grade)
app.command()(optimal)
app.command()(tree)


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        print()
        return None


def _say(line: str) -> None:
    out.print(line, markup=False, soft_wrap=True)


def main() -> None:
    """The console script's entry point."""
    app()
