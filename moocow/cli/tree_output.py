"""Where a tree goes when a command has built one: a file (JSON or Selby's text), the terminal,
a Graphviz file or an SVG drawing.

Shared by ``moocow tree`` and ``moocow optimal``. The outputs are checked before any work, so a
long search is not lost to a typo in a file name.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from moocow.cli.terminal import Output, err, out
from moocow.engine.errors import MoocowError
from moocow.runner.files import check_output

if TYPE_CHECKING:
    from moocow.engine.game import Game
    from moocow.engine.tree import Node

SaveOpt = Annotated[
    Path | None,
    typer.Option(
        "--save", help="Write the tree to this file: Selby's text format if it ends in .tree, else JSON."
    ),
]
ShowOpt = Annotated[
    int | None, typer.Option("--show", help="Print the tree down to this many guesses.", min=1)
]
DotOpt = Annotated[Path | None, typer.Option("--dot", help="Write the tree for Graphviz (- for stdout).")]
SvgOpt = Annotated[
    Path | None, typer.Option("--svg", help="Draw the tree in this SVG file (no Graphviz needed).")
]


def _dot_to_stdout(dot: Path | None) -> bool:
    return dot is not None and str(dot) == "-"


def notes(dot: Path | None) -> Output:
    """Where summaries go: stdout, unless it carries the DOT text (``--dot -``), which must stand alone."""
    return err if _dot_to_stdout(dot) else out


def check_outputs(show: int | None, dot: Path | None, save: Path | None, svg: Path | None = None) -> None:
    """Refuse outputs that cannot be written before any work, so a long search is not lost to a typo."""
    if show is not None and _dot_to_stdout(dot):
        raise MoocowError("give --show or --dot -, not both: both would print on stdout")
    files = {"--save": save, "--dot": None if _dot_to_stdout(dot) else dot, "--svg": svg}
    targets = {option: check_output(path, option) for option, path in files.items() if path is not None}
    seen: dict[str, str] = {}
    for option, target in targets.items():
        real = os.path.realpath(target)
        if real in seen:
            raise MoocowError(f"{seen[real]} and {option} both name {target}: one would replace the other")
        seen[real] = option


def emit(
    game: Game,
    root: Node,
    label: str,
    save: Path | None,
    show: int | None,
    dot: Path | None,
    svg: Path | None = None,
) -> None:
    """Save, print and export a tree as asked."""
    from moocow.trees.files import format_tree, save_tree, tree_to_dot

    if save is not None:
        save_tree(save, game, root, label)
        notes(dot).line(f"saved to {save}")
    if show is not None:
        out.line(format_tree(game, root, show))
    if dot is not None:
        text = tree_to_dot(game, root)
        if _dot_to_stdout(dot):
            sys.stdout.write(text)
        else:
            _write(dot, text)
            out.line(f"Graphviz file written to {dot}")
    if svg is not None:
        from moocow.trees.svg import tree_to_svg

        _write(svg, tree_to_svg(game, root, title=f"{game.spec} with {label}"))
        notes(dot).line(f"SVG drawing written to {svg}")


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise MoocowError(f"cannot write {path}: {error.strerror or error}") from None
