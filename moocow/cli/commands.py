"""The ``moocow`` command line: options in, one library call, results out.

Every command turns ``MoocowError`` (bad input from a person) into one line on stderr and exit
status 2, and so does the group for usage errors (``moocow.cli.group``); anything else is a bug
and keeps its traceback. Each command imports what it uses when it runs: ``moocow --help`` loads
typer and rich, not numpy, numba, the games or the runner (``tests/test_startup.py`` holds it to
that).
"""

from __future__ import annotations

import functools
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar, cast

import typer

from moocow.cli.group import INTERRUPTED, MoocowCommand, MoocowGroup
from moocow.cli.terminal import err, note_long_evaluation, one_line_errors, out, progress_bars
from moocow.engine.wording import plural, printable

if TYPE_CHECKING:
    from rich.console import RenderableType


class Moocow(MoocowGroup):
    """The app's group. The runner's and the exact search's commands are made only when used
    (or listed by help): Knuth's evaluation does not load their modules."""

    lazy_commands: ClassVar[dict[str, str]] = {
        "tournament": "moocow.cli.runner:tournament",
        "grade": "moocow.cli.runner:grade",
        "verify": "moocow.cli.runner:verify",
        "export": "moocow.cli.runner:export",
        "optimal": "moocow.cli.optimal:optimal",
        "tree": "moocow.cli.tree:tree",
        "gradescope": "moocow.cli.gradescope:app",
        "serve": "moocow.cli.serve:serve",
        "prairielearn": "moocow.cli.platforms:prairielearn",
        "classroom": "moocow.cli.platforms:classroom",
    }


app = typer.Typer(
    cls=Moocow,
    name="moocow",
    help=(  # written out, as help loads no game (tests/test_startup.py); tests/test_cli_help.py checks it
        "Play, solve and referee code-breaking games: Mastermind (mastermind), Bulls and Cows with digits "
        "(digits) or English words (words), the bottle game (bottles) and Wordle (wordle)."
    ),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

F = TypeVar("F", bound=Callable[..., Any])

GameArg = Annotated[
    str, typer.Argument(metavar="GAME", help="A game spec, e.g. mastermind, bottles:n=7, words:length=5.")
]
StrategyOpt = Annotated[
    str,
    typer.Option(
        "--strategy", "-s", metavar="SPEC", help="A strategy spec, e.g. minmax, entropy, random:seed=3."
    ),
]
FirstOpt = Annotated[
    str | None, typer.Option("--first", metavar="CODE", help="A fixed first guess, e.g. 1122.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


def reports_errors(function: F) -> F:
    """Turn ``MoocowError`` into one line on stderr and exit status 2; long work draws bars on a terminal."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with one_line_errors(), progress_bars():
            return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]  # functools.wraps types it as a wrapper, not an F


def command(function: F) -> F:
    """Register a command of the app, with one-line errors."""
    app.command(cls=MoocowCommand)(reports_errors(function))
    return function


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        out.line(f"moocow {version('moocow')}")
        raise typer.Exit()


@app.callback()
@reports_errors
def main_options(
    plugin: Annotated[
        list[Path] | None,
        typer.Option("--plugin", metavar="FILE", help="Load a game plugin from a Python file (repeatable)."),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print moocow's version and exit.", is_eager=True, callback=_print_version
        ),
    ] = False,
) -> None:
    """Load local plugins before any command, and report plugins that failed to load."""
    from moocow import api
    from moocow.engine.switches import SWITCHES, Switches

    # read as the command starts: a mistyped MOOCOW_TABLE_BUDGET or MOOCOW_ENGINE is refused before
    # any work, and a command run in a process that ran another reads its own environment
    SWITCHES.set(Switches.from_environment())
    for path in plugin or []:
        api.load_plugin_file(path, strict=True)
    for problem in api.plugin_errors():
        err.line(f"warning: {problem}")


@command
def games(as_json: JsonOpt = False) -> None:
    """List the games, their parameters and the size of their code spaces."""
    from rich.table import Table

    from moocow import api
    from moocow.engine.params import format_defaults

    infos = api.describe_games()
    if as_json:
        print(json.dumps([info.to_dict() for info in infos], indent=2))
    else:
        table = Table("game", "parameters (default)", "secrets", "guesses", "about")
        for info in infos:
            sizes = ("-", "-") if info.secrets is None else (f"{info.secrets:,}", f"{info.guesses:,}")
            parameters = printable(format_defaults(info.defaults))
            table.add_row(printable(info.name), parameters, *sizes, printable(info.summary))
        out.print(table)
    for info in infos:
        if info.problem is not None:
            err.line(f"warning: game {printable(info.name)!r} cannot be built: {printable(info.problem)}")


@command
def strategies(as_json: JsonOpt = False) -> None:
    """List the strategies and their parameters."""
    from rich.table import Table

    from moocow import api
    from moocow.engine.params import format_defaults

    infos = api.describe_strategies()
    if as_json:
        print(json.dumps([info.to_dict() for info in infos], indent=2))
        return
    table = Table("strategy", "parameters (default)", "about")
    for info in infos:
        table.add_row(info.name, format_defaults(info.defaults), info.summary)
    out.print(table)


@command
def solve(
    game: GameArg,
    secret: Annotated[str, typer.Option("--secret", metavar="CODE", help="The secret to find, e.g. 4321.")],
    strategy: StrategyOpt = "minmax",
    first: FirstOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Watch a strategy find a secret: each guess, its feedback, how many codes remain."""
    from rich.table import Table

    from moocow import api

    playout = api.solve(game, secret, strategy, first=first)
    if as_json:
        print(json.dumps(playout.to_dict(), indent=2))
        return
    table = Table("#", "guess", "feedback", "remaining")
    for number, step in enumerate(playout.steps, 1):
        guess = step.guess + ("" if step.was_candidate else " (not possible)") + (" *" if step.note else "")
        table.add_row(str(number), guess, step.feedback, f"{step.remaining:,}")
    out.print(table)
    count = len(playout.steps)
    out.line(f"Found {playout.secret} in {count} {plural(count, 'guess')} with {playout.strategy}.")
    for number, step in enumerate(playout.steps, 1):
        if step.note:
            out.line(f"* guess {number}: {step.note}")


@command
def evaluate(
    game: GameArg,
    strategy: StrategyOpt = "minmax",
    first: FirstOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play a strategy against every secret: total, average, worst case and histogram."""
    from moocow import api

    note_long_evaluation(api.evaluation_cost(game, strategy, first=first))
    result = api.evaluate(game, strategy, first=first)
    if as_json:
        print(json.dumps(result.to_dict(), indent=2))
        return
    out.line(f"{result.game} with {result.strategy}: {result.secrets:,} {plural(result.secrets, 'secret')}")
    out.line(
        f"total {result.total:,} {plural(result.total, 'guess')}, average {result.average:.4f}, "
        f"worst case {result.worst}, {result.seconds:.2f} s"
    )
    widest = max(result.histogram)
    for guesses, count in enumerate(result.histogram, 1):
        bar = out.bar(max(1 if count else 0, round(40 * count / widest)))
        out.line(f"{guesses:>3} {plural(guesses, 'guess'):<7} {count:>8,} {bar}")


@command
def assist(game: GameArg, strategy: StrategyOpt = "minmax") -> None:
    """Help at the table: type each guess and its score; see what remains and what to try next."""
    from moocow import api
    from moocow.cli.interactive import assist as run_assistant

    _tolerant_stdin()
    ask = Prompt()
    run_assistant(api.assistant(game, strategy), ask, _say, colour=out.colour)
    ask.exit_if_interrupted()


@command
def play(
    game: GameArg,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the secret (random if left out).")
    ] = None,
) -> None:
    """Guess the computer's secret."""
    from moocow import api
    from moocow.cli.interactive import play as run_play

    _tolerant_stdin()
    ask = Prompt()
    run_play(api.load_game(game), seed, ask, _say, colour=out.colour)
    ask.exit_if_interrupted()


class Prompt:
    """Lines typed at the prompts. Ctrl-C ends the conversation as the end of input does (``play``
    still shows the secret), and then the command exits 130, as Ctrl-C does everywhere: a script
    tells a session a person broke off from one that ended."""

    def __init__(self) -> None:
        self.interrupted = False

    def __call__(self, prompt: str) -> str | None:
        """A line typed at the prompt; ``None`` at the end of input or Ctrl-C, after a fresh line."""
        try:
            return input(prompt)
        except EOFError:
            print()
        except KeyboardInterrupt:
            print()
            self.interrupted = True
        return None

    def exit_if_interrupted(self) -> None:
        if self.interrupted:
            raise typer.Exit(INTERRUPTED)


def _say(line: object) -> None:
    """A line of a conversation: text as it is, or coloured tiles (rich ``Text``) on a terminal."""
    if isinstance(line, str):
        out.line(printable(line))
    else:  # play at the table gives rich's Text, never importing rich itself
        out.print(cast("RenderableType", line))


def _tolerant_stdin() -> None:
    """Typed bytes that are not UTF-8 become escapes the games refuse in one line, not a crash."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="surrogateescape")


def main() -> None:
    """The console script's entry point: the engine's notices (a first compile) go to stderr."""
    from moocow.engine.progress import listen

    listen(err.line)
    app(prog_name="moocow")
