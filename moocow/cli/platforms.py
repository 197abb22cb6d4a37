"""``moocow prairielearn build|try|run`` and ``moocow classroom build|grade``: options in, one library
call, results out (docs/grading.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from moocow.cli.course_options import (
    CourseArg,
    GameOpt,
    MercyOpt,
    RoundsOpt,
    WordsOpt,
    build_options,
    command_group,
    grader_error,
)
from moocow.cli.group import MoocowCommand
from moocow.cli.terminal import err, one_line_errors, out
from moocow.engine.wording import printable

if TYPE_CHECKING:
    from moocow.course.course_file import Course

DeckOpt = Annotated[
    str, typer.Option("--deck", help="fixed: a seed drawn now, in the workflow; commit: each commit's hash.")
]
OutputOpt = Annotated[Path, typer.Option("--output", "-o", help="The folder to write (new or empty).")]


def _build(
    course: Path | None, options: dict[str, Any], output: Path, build: Callable[[Course], list[Path]]
) -> None:
    """The course (its file, or the options), built by ``build``; the files written, in a line."""
    from moocow.course.course_file import chosen_course

    with one_line_errors():
        written = build(chosen_course(course, options))
    out.line(f"wrote {output}: {', '.join(str(path.relative_to(output)) for path in written)}")


prairielearn = command_group(
    "prairielearn",
    "Build a PrairieLearn externally graded question from a course file, try it here, or run it.",
)


@prairielearn.command("build", cls=MoocowCommand)
def prairielearn_build(
    course: CourseArg = None,
    output: OutputOpt = Path("prairielearn"),
    words: WordsOpt = None,
    game: GameOpt = None,
    rounds: RoundsOpt = None,
    mercy: MercyOpt = None,
    image: Annotated[
        str, typer.Option("--image", help="The grader image's name, as PrairieLearn pulls it.")
    ] = "moocow-grader",
) -> None:
    """Write a question, its server files (the course and the secret seed) and its grader image's files."""
    from moocow.platforms.prairielearn.question import build_question

    options = build_options(words, game, rounds, mercy)
    _build(course, options, output, lambda chosen: build_question(chosen, output, image))
    out.line(
        "Copy questions/moocow and serverFilesCourse/moocow into your course (serverFilesCourse/moocow/seed "
        f"is the graded deck's secret); build and push graders/moocow as {image}; "
        "try it first with 'moocow prairielearn try'."
    )


@prairielearn.command("try", cls=MoocowCommand)
def prairielearn_try(
    built: Annotated[Path, typer.Argument(metavar="DIR", help="What 'prairielearn build' wrote.")],
    submission: Annotated[Path, typer.Argument(metavar="SUBMISSION", help="A file, or a folder of files.")],
    out_dir: Annotated[
        Path | None, typer.Option("--out", metavar="OUT", help="Lay out /grade here and keep it.")
    ] = None,
) -> None:
    """Run the grader's entrypoint on a submission here, as PrairieLearn would, with this moocow."""
    from moocow.platforms.prairielearn.tryout import student_view, try_question
    from moocow.sandbox.cleanup import remove_tree

    with one_line_errors():
        tried = try_question(built, submission, out_dir)
    failed = tried.results is None or tried.status != 0
    if failed:  # first, in one line: why the attempt is "Not gradable", before all it wrote
        wrote = "wrote no results.json" if tried.results is None else "failed"
        err.line(grader_error(tried.output, f"error: the grader {wrote} (status {tried.status})"))
    elif tried.results is not None and not tried.results.get("gradable", True):  # a file missing
        out.line(printable(" ".join(str(tried.results.get("message", "")).split())))
    if tried.note:
        out.line(printable(tried.note))
    out.line(
        "The entrypoint ran as root with CAP_SYS_ADMIN dropped (setpriv), as in a Docker container."
        if tried.dropped
        else "Could not drop CAP_SYS_ADMIN here (setpriv needs root): ran at this machine's level."
    )
    if out_dir is None:
        remove_tree(tried.root)  # rm -rf: a submission may be thousands of folders deep
    out.line(f"/grade: {tried.root}" if out_dir else "/grade was laid out in a scratch folder, now removed.")
    if tried.results is not None:
        for line in ["", "What the student sees:", *student_view(tried.results), "", "results.json:"]:
            out.line(printable(line))
        print(json.dumps(tried.results, indent=2, ensure_ascii=False))
    if failed:
        raise typer.Exit(2)


@prairielearn.command("run", cls=MoocowCommand)
def prairielearn_run(
    root: Annotated[Path, typer.Argument(metavar="ROOT", help="PrairieLearn's /grade.")] = Path("/grade"),
) -> None:
    """Grade /grade/student and write /grade/results/results.json (what the entrypoint runs)."""
    from moocow.platforms.prairielearn.grader import main

    raise typer.Exit(main(root))


classroom = command_group(
    "classroom", "Build a GitHub Classroom template whose workflow grades each push, or grade."
)


@classroom.command("build", cls=MoocowCommand)
def classroom_build(
    course: CourseArg = None,
    output: OutputOpt = Path("classroom"),
    words: WordsOpt = None,
    game: GameOpt = None,
    rounds: RoundsOpt = None,
    mercy: MercyOpt = None,
    deck: DeckOpt = "fixed",
) -> None:
    """Write .github/workflows/classroom.yml and .moocow/ (the course and this moocow's wheel)."""
    from moocow.platforms.classroom.template import build_template

    options = build_options(words, game, rounds, mercy)
    _build(course, options, output, lambda chosen: build_template(chosen, output, deck))
    out.line("Make it the assignment's template repository. Everything in it is public, the deck included.")


@classroom.command("grade", cls=MoocowCommand)
def classroom_grade(
    course: Annotated[Path, typer.Argument(metavar="COURSE", help="The course file (.moocow/course.toml).")],
    seed: Annotated[int | None, typer.Option("--seed", help="The graded deck's seed (public).")] = None,
    commit: Annotated[
        str | None, typer.Option("--commit", metavar="SHA", help="Draw the deck from this commit's hash.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON, not its base64.")] = False,
) -> None:
    """Play the course's graded rounds with the player here; print the grading reporter's results."""
    from moocow.engine.errors import MoocowError
    from moocow.platforms.classroom.grade import grade_course
    from moocow.platforms.classroom.reporter import encoded
    from moocow.platforms.classroom.template import commit_seed

    with one_line_errors():
        if (seed is None) == (commit is None):
            raise MoocowError("give --seed N or --commit SHA (the deck is public either way)")
        chosen = commit_seed(commit) if commit is not None else int(seed or 0)
        results = grade_course(course, chosen, lambda line: err.line(printable(line)))
    print(json.dumps(results, ensure_ascii=False) if as_json else encoded(results))
