"""``moocow gradescope build|try|run``: options in, one library call, results out (docs/gradescope.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

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
from moocow.engine.errors import MoocowError
from moocow.engine.wording import printable

app = command_group(
    "gradescope",
    "Build a Gradescope autograder from a course file, try it here, or run it (in the container).",
)


@app.command(cls=MoocowCommand)
def build(
    course: CourseArg = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The zip to write.")] = Path(
        "autograder.zip"
    ),
    words: WordsOpt = None,
    game: GameOpt = None,
    rounds: RoundsOpt = None,
    mercy: MercyOpt = None,
) -> None:
    """Write one zip with everything Gradescope needs: upload it as the assignment's autograder."""
    from moocow.course.course_file import chosen_course
    from moocow.platforms.gradescope.build import build_zip

    with one_line_errors():
        built = build_zip(chosen_course(course, build_options(words, game, rounds, mercy)), output)
    out.line(f"wrote {built.path} (mode 600: it holds the secret seed): {', '.join(built.names)}")
    out.line(
        "Upload it on the assignment's Configure Autograder page; try it first with 'moocow gradescope try'."
    )


@app.command("try", cls=MoocowCommand)
def try_command(
    archive: Annotated[Path, typer.Argument(metavar="ZIP", help="The autograder zip.")],
    submission: Annotated[
        Path, typer.Argument(metavar="SUBMISSION", help="A submission: a file, or a folder of files.")
    ],
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", metavar="DIR", help="Lay out Gradescope's folders here and keep them."),
    ] = None,
    metadata: Annotated[
        Path | None,
        typer.Option("--metadata", help="A submission_metadata.json to use (earlier submissions)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Lay out again an --out folder an earlier try laid out.")
    ] = False,
) -> None:
    """Run the zip's run_autograder on a submission here, as Gradescope would, with this moocow."""
    from moocow.platforms.gradescope.tryout import student_view, try_zip
    from moocow.sandbox.cleanup import remove_tree

    with one_line_errors():
        tried = try_zip(archive, submission, out_dir, metadata, force)
    if tried.results is not None and tried.status != 0:  # first: why, as run_autograder said it
        err.line(grader_error(tried.output, f"error: run_autograder failed (status {tried.status})"))
    out.line("setup.sh is not run: run_autograder uses the moocow installed here.")
    if tried.note:
        out.line(printable(tried.note))
    if tried.dropped:
        out.line("run_autograder ran as root with CAP_SYS_ADMIN dropped (setpriv), as on Gradescope.")
    else:
        out.line("could not drop CAP_SYS_ADMIN here (setpriv needs root): ran at this machine's own level.")
    if out_dir is None:
        remove_tree(tried.root)  # rm -rf: a submission may be thousands of folders deep
        out.line(
            "Gradescope's folders were laid out in a scratch folder, now removed (--out DIR keeps them)."
        )
    else:
        out.line(f"Gradescope's folders: {tried.root}")
    if tried.results is None:
        kept = f"see {tried.root / 'results' / 'stdout'}" if out_dir else "--out DIR keeps its output"
        why = f"error: run_autograder wrote no results.json (status {tried.status}); {kept}"
        err.line(grader_error(tried.output, why))
        raise typer.Exit(2)
    out.line("")
    out.line("What the student sees:")
    for line in student_view(tried.results):
        out.line(printable(line))
    out.line("")
    out.line("results.json:")
    print(json.dumps(tried.results, indent=2, ensure_ascii=False))
    if tried.status != 0:  # said first
        raise typer.Exit(2)


@app.command(cls=MoocowCommand)
def run(
    root: Annotated[
        Path | None,
        typer.Argument(
            metavar="ROOT", help="The autograder's root (default $AUTOGRADER_ROOT, else /autograder)."
        ),
    ] = None,
) -> None:
    """Grade the submission under the root and write results/results.json (what run_autograder does)."""
    from moocow.platforms.gradescope.grading import autograder_root, run_autograder

    with one_line_errors():
        try:
            results = run_autograder(root or autograder_root())
        except MoocowError:
            raise
        except Exception as error:  # a bug: its traceback is in results.json, in a test for instructors
            raise MoocowError(
                f"the autograder failed: {type(error).__name__}: {error} (its traceback is in "
                "results.json, in a test only instructors see)"
            ) from None
    out.line(printable(str(results.get("output", ""))))
    referee = results.get("extra_data", {}).get("referee")
    if referee:
        from moocow.sandbox.report import referee_line

        out.line(referee_line(referee))
