"""What the graders' commands (``gradescope``, ``prairielearn``, ``classroom``) share: a command
group made alike, and the options a course is built from, so every ``build`` reads a course the same
way (``gradescope.course.chosen_course``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from moocow.cli.group import MoocowGroup
from moocow.engine.wording import printable

CourseArg = Annotated[
    Path | None,
    typer.Argument(metavar="COURSE", help="The course file (its gradescope table); else the options below."),
]
WordsOpt = Annotated[
    str | None,
    typer.Option(
        "--words",
        metavar="FILE",
        help="The course's word file (default: its words_alpha.txt, shipped with moocow).",
    ),
]
GameOpt = Annotated[
    list[str] | None, typer.Option("--game", "-g", help="Grade on this game instead (repeatable).")
]
RoundsOpt = Annotated[int | None, typer.Option("--rounds", "-r", help="Graded rounds per deck (default 20).")]
MercyOpt = Annotated[int | None, typer.Option("--mercy", help="Most guesses per round (default 20).")]


def build_options(
    words: str | None, games: list[str] | None, rounds: int | None, mercy: int | None
) -> dict[str, object]:
    """The course options as ``chosen_course`` reads them (``games``: the repeatable ``--game``)."""
    return {"words": words, "games": games, "rounds": rounds, "mercy": mercy}


def command_group(name: str, about: str) -> typer.Typer:
    """A command's group of subcommands (``moocow NAME build|try|run``), with moocow's behaviour."""
    return typer.Typer(
        cls=MoocowGroup, name=name, help=about, no_args_is_help=True, add_completion=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )  # fmt: skip


def grader_error(output: str, fallback: str) -> str:
    """Why a dry run's grader failed, in one line safe to print: the last ``error:`` line it printed,
    else ``fallback``. ``try`` prints it first, before the results it wrote (``gradable: false``)."""
    said = [line for line in output.splitlines() if line.startswith("error:")]
    return printable(said[-1] if said else fallback)
