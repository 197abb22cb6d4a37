"""The word files a deck or game spec names, wherever a spec travels with them.

``file=`` (the word game, the course's deck), ``answers=`` and ``guesses=`` (Wordle) each name a
file read where the spec is loaded. The runner shows a player a copy of each and names it
absolutely (a sandboxed player starts elsewhere), and a Gradescope zip carries each beside its
course: every such place renames the files of a spec the same way, here.
"""

from __future__ import annotations

from collections.abc import Callable

from moocow.engine.errors import MoocowError
from moocow.engine.params import parse_spec

FILE_KEYS = ("file", "answers", "guesses")
"""The parameters, in any game, whose value is a word file."""


def spec_files(spec: str) -> list[str]:
    """The files ``spec`` names, as it names them, in its order."""
    return [value for key, value in parse_spec(spec)[1].items() if key in FILE_KEYS]


def renamed_files(spec: str, rename: Callable[[str], str]) -> str:
    """``spec`` with each file it names renamed; a spec naming none is returned as it is."""
    name, arguments = parse_spec(spec)
    if not any(key in FILE_KEYS for key in arguments):
        return spec
    for key in FILE_KEYS:
        if key in arguments:
            arguments[key] = rename(arguments[key])
            if "," in arguments[key]:
                raise MoocowError(f"{spec}: a deck's file name may not contain a comma")
    return name + ":" + ",".join(f"{key}={value}" for key, value in arguments.items())
