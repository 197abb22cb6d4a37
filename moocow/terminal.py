"""What every command shares: the two consoles and the rule that bad input is one line, exit 2."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import typer
from rich.console import Console

from moocow.engine.errors import MoocowError
from moocow.runner.display import printable

out = Console(highlight=False)
"""Results, on stdout."""
err = Console(stderr=True, highlight=False)
"""Errors, warnings and progress, on stderr."""


@contextlib.contextmanager
def one_line_errors() -> Iterator[None]:
    """``MoocowError`` (bad input from a person) becomes one line on stderr and exit status 2.

    The message may quote a file's or a player's text: control characters are escaped, so it stays one line.
    """
    try:
        yield
    except MoocowError as error:
        err.print(f"error: {printable(str(error))}", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None


def plural(count: int, word: str) -> str:
    """``word`` as ``count`` of it reads: 1 guess, 2 guesses; 1 secret, 0 secrets."""
    if count == 1:
        return word
    return word + ("es" if word.endswith("s") else "s")
