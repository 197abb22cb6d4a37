"""The ``tournament`` and ``grade`` commands: options in, one library call, results out.

Plain functions with typer annotations, registered by the main CLI (``app.command()(tournament)``).
Each turns ``MoocowError`` into one line on stderr and exit status 2 itself, so it behaves the
same however it is registered. The runner's machinery (numpy, the engine, the games) is imported
inside the commands, so that ``moocow --help`` and the other light commands do not load it.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from moocow.cli.terminal import err, one_line_errors, out
from moocow.engine.errors import MoocowError
from moocow.engine.wording import plural, printable
from moocow.referee import bacrunner
from moocow.sandbox.limits import Limits, shown_limit
from moocow.sandbox.mounts import check_one_name
from moocow.sandbox.report import referee_line
from moocow.sandbox.sandbox import SandboxPolicy

if TYPE_CHECKING:
    from rich.table import Table

    from moocow.referee.protocol import Identity
    from moocow.runner.leaderboard import Standing
    from moocow.runner.results import RoundResult
    from moocow.runner.seeds import Seed
    from moocow.runner.tournament import TournamentResult


LimitOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--limit",
        metavar="KEY=VALUE",
        help="A limit for players outside the engine, KEY=VALUE (repeatable): "
        + ", ".join(f"{name}={shown_limit(value)}" for name, value in Limits().to_dict().items()),
    ),
]
SeedFileOpt = Annotated[
    Path | None,
    typer.Option("--seed-file", help="Read the seed from this file's first line (or set MOOCOW_SEED)."),
]
RoundsOpt = Annotated[
    int | None, typer.Option("--rounds", "-r", help="Rounds per player and game (default 10).")
]
NoSandboxOpt = Annotated[
    bool,
    typer.Option(
        "--no-sandbox",
        help="Run players outside the engine as your own user, unconfined: only for players you trust.",
    ),
]
KeyFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--key-file", help="Sign what is written with the key in this file (or MOOCOW_RESULTS_KEY)."
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Play on this Dask cluster, e.g. tcp://HOST:8786 (see docs/tournaments.md).",
    ),
]
MercyOpt = Annotated[
    int | None, typer.Option("--mercy", help="Most guesses per round; a lost round scores this (default 20).")
]


class ProgressBar:
    """A rich progress bar on stderr, told about each finished round; nothing off a terminal, where
    it would leave a stray line before an error (and errors are one line)."""

    def __init__(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("rounds"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        self.bar = Progress(*columns, console=err.console, transient=True, disable=not err.is_terminal)
        self.task = self.bar.add_task("rounds", total=None)

    saved = 0
    """Rounds finished (so written, with --results) in this run, for a message on Ctrl-C."""

    def begin(self, total: int, done: int) -> None:
        self.bar.update(self.task, total=total, completed=done)
        self.bar.start()

    def advance(self, result: RoundResult) -> None:
        self.saved += 1
        self.bar.advance(self.task)

    def stop(self) -> None:
        self.bar.stop()


def tournament(
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player", "-p", help="A player (repeatable): a strategy, a .py file or a command line."
        ),
    ] = None,
    game: Annotated[
        list[str] | None,
        typer.Option("--game", "-g", help="A game spec or bacrunner:file=WORDS (repeatable)."),
    ] = None,
    rounds: RoundsOpt = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="Seed of the secrets, visible to other processes (default: drawn at random)."
        ),
    ] = None,
    seed_file: SeedFileOpt = None,
    mercy: MercyOpt = None,
    config: Annotated[
        Path | None, typer.Option("--config", "-c", help="A TOML tournament file; options override it.")
    ] = None,
    results: Annotated[
        Path | None, typer.Option("--results", help="Append every finished round to this JSON-lines file.")
    ] = None,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Finish the tournament in --results without replaying its rounds."),
    ] = False,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", help="Worker processes (default 1); results do not depend on it."),
    ] = None,
    scheduler: SchedulerOpt = None,
    limit: LimitOpt = None,
    key_file: KeyFileOpt = None,
    no_sandbox: NoSandboxOpt = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the leaderboards as JSON.")] = False,
) -> None:
    """Play every player against the same seeded rounds of every game; print the leaderboard."""
    from moocow.referee.players import PlayerKind
    from moocow.runner import tournament as running
    from moocow.runner.secrecy import hide_command_line
    from moocow.runner.seeds import Source

    with one_line_errors():
        setup = running.tournament_from(
            config, limit or (), key_file, seed_file, results if resume else None, players=player, games=game,
            rounds=rounds, seed=seed, mercy=mercy, workers=workers, scheduler=scheduler,
            sandbox=False if no_sandbox else None,
        )  # fmt: skip
        chosen = setup.tournament
        hide_command_line(chosen.players, chosen.sandbox)
        bar = ProgressBar()
        try:
            outcome = running.run_tournament(
                chosen, results, resume, setup.workers, bar, setup.key, setup.scheduler, setup.key_file
            )
        except KeyboardInterrupt:
            bar.stop()
            report_interrupted(bar.saved, results)
            raise typer.Exit(130) from None
        finally:
            bar.stop()
    if as_json:
        print(json.dumps(outcome.to_dict(), indent=2, ensure_ascii=False))
    else:
        print_leaderboards(outcome)
    if setup.seed.source is Source.FRESH:  # on stderr under --json, whose stdout is one JSON object
        (err if as_json else out).line(f"seed {chosen.seed}, drawn at random.")
    report_fouls(outcome.results, results is not None)
    report_seed(setup.seed, any(player.kind is not PlayerKind.STRATEGY for player in chosen.players))
    report_referee(chosen.referee(), outcome.cluster)


def print_leaderboards(outcome: TournamentResult) -> None:
    """A leaderboard per game when there are several, then over all, then what they count; each
    player's student id and author beside it, where some player said who it is."""
    chosen = outcome.tournament
    games = chosen.games if len(chosen.games) > 1 else ()
    named = outcome.identities if outcome.identities else None
    for entry in games:
        out.print(leaderboard_table(outcome.standings(entry), entry, named))
    out.print(leaderboard_table(outcome.standings(), "all games" if games else chosen.games[0], named))
    out.line(outcome.summary())


def report_interrupted(saved: int, results: Path | None) -> None:
    """After Ctrl-C: on a fresh line, how many rounds are safe and the command that finishes the run."""
    if results is None:
        err.line("\ninterrupted: no round was saved (give --results FILE to keep them)")
        return
    command = shlex.join(["moocow", *sys.argv[1:], *([] if "--resume" in sys.argv else ["--resume"])])
    rounds = f"{saved} {plural(saved, 'round')}"
    err.line(f"\ninterrupted: {rounds} saved in {results}; finish with:")
    err.line(f"  {command}")


def report_referee(record: dict[str, Any], cluster: str | None = None) -> None:
    """Say on stderr where the run was played, if on a Dask cluster, and what protected it, where
    a player ran outside the engine: once it is over, so a run refused is still one line."""
    if cluster is not None:
        err.line(cluster)
    if "player_user" in record["sandbox"]:
        err.line(referee_line(record))


FOULS_SHOWN = 10
"""Lost rounds listed by reason after the leaderboard (the results file has them all)."""


def report_fouls(results: Sequence[RoundResult], in_a_file: bool = False) -> None:
    """Say why every lost round was lost, the mercy limit included, so no one has to dig.

    Names and reasons come from players: escaped, so they cannot rewrite the terminal.
    """
    fouls = [result for result in results if result.failure is not None]
    for result in fouls[:FOULS_SHOWN]:
        line = f"{result.player} lost {result.game} round {result.round}: {result.failure}: {result.reason}"
        err.line(printable(line))
    if len(fouls) > FOULS_SHOWN:
        more = f"... and {len(fouls) - FOULS_SHOWN} more lost rounds"
        err.line(more + (" (see --results)" if in_a_file else ""))


def report_seed(seed: Seed, outside_players: bool = True) -> None:
    """Warn, once the run is over, when the seed was not secret (after the results: errors stay one line)."""
    warning = seed.warning(outside_players)
    if warning is not None:
        err.line(warning)


def leaderboard_table(
    rows: list[Standing], title: str, identities: Mapping[str, Identity] | None = None
) -> Table:
    """The leaderboard as a rich table, best first, with each player's student id and author
    where ``identities`` are given; names are shown as ``Text`` (no markup), escaped."""
    from rich.table import Table
    from rich.text import Text

    who = ("student id", "author") if identities is not None else ()
    columns = ("#", "player", *who, "total", "average", "worst", "failed", "ms/guess")
    table = Table(*columns, title=Text(printable(title)))
    for rank, row in enumerate(rows, 1):
        said = identities.get(row.player) if identities is not None else None
        named = [Text(printable(text)) for text in (said.student_id, said.author)] if said else ["", ""]
        table.add_row(
            str(rank), Text(printable(row.player)), *named[: len(who)], f"{row.total:,}",
            f"{row.average:.3f}", str(row.worst), str(row.failed), f"{1000 * row.seconds_per_guess:.2f}",
        )  # fmt: skip
    return table


def grade(
    player: Annotated[str, typer.Argument(help="The player: a .py file, a command line or a strategy.")],
    words: Annotated[
        str | None,
        typer.Option(
            "--words",
            metavar="FILE",
            help="The course's word file, read as bacrunner.py reads it "
            "(default: its words_alpha.txt, shipped with moocow).",
        ),
    ] = None,
    min_length: Annotated[
        int | None, typer.Option("--min-length", help="Shortest secret word (default 5).")
    ] = None,
    max_length: Annotated[
        int | None, typer.Option("--max-length", help="Longest secret word (default 15).")
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="Grade on this game instead of the course's words.")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help=f"Seed of the secrets, visible to other processes (default {bacrunner.SEED})."
        ),
    ] = None,
    seed_file: SeedFileOpt = None,
    rounds: Annotated[int, typer.Option("--rounds", "-r", help="Rounds to play.")] = bacrunner.ROUNDS,
    mercy: Annotated[int, typer.Option("--mercy", help="Most guesses per round.")] = bacrunner.MERCY,
    gradescope: Annotated[
        Path | None, typer.Option("--gradescope", help="Also write Gradescope's results.json here.")
    ] = None,
    scheduler: SchedulerOpt = None,
    limit: LimitOpt = None,
    key_file: KeyFileOpt = None,
    no_sandbox: NoSandboxOpt = False,
    form: Annotated[
        str,
        typer.Option(
            "--format",
            help="text: the course log; codegrade, classroom (base64), classroom-json: only the line "
            "that platform reads on stdout, the log on stderr (docs/grading.md).",
        ),
    ] = "text",
) -> None:
    """Grade one player as the course runner does: its log on stdout; on stderr, lost rounds and
    the last lines the player wrote to stderr in each round."""
    from moocow.platforms.formats import check_format, report
    from moocow.referee.players import PlayerKind, parse_player
    from moocow.runner.files import check_output, write_atomically
    from moocow.runner.grading import grade as grade_player
    from moocow.runner.secrecy import check_private, hide_command_line
    from moocow.runner.seeds import Seed, Source, choose_seed
    from moocow.runner.signing import choose_key

    with one_line_errors():
        check_format(form, rounds)
        if game is not None and (min_length, max_length) != (None, None):
            raise MoocowError("--min-length and --max-length choose the course's words: not with --game")
        if key_file is not None and gradescope is None:
            raise MoocowError("--key-file signs Gradescope's results.json: give --gradescope PATH too")
        key = choose_key(key_file) if gradescope is not None else None
        written = None if gradescope is None else check_output(gradescope, "Gradescope results")
        chosen = choose_seed(seed, seed_file, fallback=Seed(bacrunner.SEED, Source.COURSE))
        check_one_name(key_file, seed_file)
        sandbox = SandboxPolicy(unconfined=no_sandbox).hiding(gradescope, written, key_file, seed_file)
        named = [parse_player(player)]
        check_private([(seed_file, "seed file"), (key_file, "key file")], named, sandbox)
        hide_command_line(named, sandbox)
        shortest, longest = 5 if min_length is None else min_length, 15 if max_length is None else max_length
        if game is None:
            bacrunner.check_lengths(shortest, longest, ("--min-length", "--max-length"))
        graded = grade_player(
            player, game, words, shortest, longest, chosen.value, rounds, mercy,
            Limits.from_options(limit or ()), sandbox, scheduler, chosen.secret,
        )  # fmt: skip
        platform_line = None if form == "text" else report(form, [graded])
    for logged in graded.log_lines():
        print(logged, file=sys.stdout if platform_line is None else sys.stderr)
    if platform_line is not None:
        print(platform_line)
    for line in graded.failures(stderr=True):
        err.line(line)
    if written is not None:
        with one_line_errors():
            write_atomically(written, json.dumps(graded.gradescope(key), indent=2) + "\n")
    report_seed(chosen, named[0].kind is not PlayerKind.STRATEGY)
    report_referee(graded.referee, graded.cluster)


ResultsArg = Annotated[Path, typer.Argument(help="A tournament's results file (its --results).")]


def verify(
    results: ResultsArg,
    key_file: Annotated[
        Path | None,
        typer.Option("--key-file", help="The key it was signed with (or MOOCOW_RESULTS_KEY)."),
    ] = None,
    seed_file: Annotated[
        Path | None,
        typer.Option(
            "--seed-file", help="A secret seed's file (or MOOCOW_SEED): check each secret is the seed's."
        ),
    ] = None,
) -> None:
    """Check a results file: every line's signature and place in its chain (with the key it was
    signed with), and every round, as --resume checks them. One line per problem, then what nothing
    covers; exit status 0 if sound, 1 if not, 2 on bad input."""
    from moocow.runner.seeds import given_seed
    from moocow.runner.signing import choose_key
    from moocow.runner.verify import verify_results

    with one_line_errors():
        key = choose_key(key_file)
        found = verify_results(results, key, key_file, given_seed(seed_file))
    for problem in found.problems:
        out.line(printable(f"{results}, {problem}"))
    for note in found.notes:
        out.line(printable(f"{results}: {note}"))
    out.line(printable(found.summary(results)))
    if not found.sound:
        raise typer.Exit(1)


def export(
    results: ResultsArg,
    form: Annotated[str, typer.Option("--format", help="csv, or json: the same rows.")] = "csv",
) -> None:
    """Print a tournament's grades, one row a player over all games: rank, name, student id,
    author, rounds, total, average, worst, failures and their kinds (docs/tournaments.md)."""
    from moocow.runner.grades import FORMATS, grade_rows, grades_csv
    from moocow.runner.shown_results import read_shown

    with one_line_errors():
        if form not in FORMATS:
            raise MoocowError(f"--format is one of {', '.join(FORMATS)}, not {form!r}")
        shown = read_shown(results)
    if not shown.finished:
        held = f"{len(shown.rounds):,} of {shown.expected:,} rounds"
        err.line(f"note: {results} holds {held}: these are their grades")
    rows = grade_rows(shown.rounds, shown.identities)
    if form == "json":
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(grades_csv(rows))
