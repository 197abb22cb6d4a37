"""How a player is named: a built-in strategy, a Python module file, or any program's command line.

``minmax``, ``entropy:first=1122`` or ``tree:best.json`` is an engine strategy, read as the
strategy registry reads it (trusted, played in the runner's own process); ``bot.py`` is a Python
module with the course's or moocow's interface; anything else is a command line (``./bot``,
``"awk -W interactive -f bot.awk"``, ``"java Bot"``) run in its own process, speaking the line
protocol. Modules run through the adapter, so every untrusted player is isolated the same way.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.plugins.strategy_registry import load_strategy, parse_strategy_spec, strategy_classes
from moocow.sandbox.mounts import bindable, identity


class PlayerKind(StrEnum):
    """Where a player runs."""

    STRATEGY = "strategy"
    """An engine strategy, in the runner's process."""
    MODULE = "module"
    """A Python module, in its own process through the adapter."""
    PROGRAM = "program"
    """Any program, in its own process."""


@dataclass(frozen=True)
class PlayerSpec:
    """A player as a tournament names it."""

    name: str
    """The name on the leaderboard and in results (unique in a tournament)."""
    source: str
    """The strategy spec, module file or command line as given."""
    kind: PlayerKind
    """Where it runs."""
    command: tuple[str, ...] = ()
    """The command that starts it (modules and programs), with paths made absolute."""
    files: tuple[str, ...] = ()
    """What the sandbox shows it, read-only: its module's folder, the files and folders its command names."""

    def to_dict(self) -> dict[str, Any]:
        """What identifies the player in a results file's header (with ``runner.fingerprint``'s digest)."""
        return {"name": self.name, "player": self.source}


def parse_player(source: str, name: str | None = None) -> PlayerSpec:
    """Recognise a player, or say in one line why it cannot be one."""
    text = source.strip()
    if not text:
        raise MoocowError("empty player")
    label = name or text
    if text.endswith(".py") and not any(c.isspace() for c in text):
        path = Path(text).expanduser()
        if path.is_dir():
            raise MoocowError(f"player file {text!r} is a folder: name the player's .py file")
        if not path.is_file():
            raise MoocowError(f"player file {text!r} not found")
        adapter = (sys.executable, "-m", "moocow.referee.adapter", str(path.absolute()))
        return PlayerSpec(label, text, PlayerKind.MODULE, adapter, (own_files(path),))
    if not any(c.isspace() for c in text) and parse_strategy_spec(text)[0] in strategy_classes():
        load_strategy(text)  # parameter errors now, not in the middle of a tournament
        return PlayerSpec(label, text, PlayerKind.STRATEGY)
    command = program_command(text)
    return PlayerSpec(label, text, PlayerKind.PROGRAM, command, named_files(command))


def own_files(path: Path) -> str:
    """A player file's folder, where its helpers and data live; the file alone in the runner's folder.

    The runner's working directory holds its results, tournament file and word list, so a player
    kept there is shown only its own file.
    """
    shown = Path(os.path.abspath(path))  # ``..`` resolved: the sandbox binds it where the player looks
    here = Path.cwd()
    # Compared by what the folders are, not by name: ``link/bot.py`` may lead here, or a bind mount.
    if identity(shown.parent) in {identity(folder) for folder in (here, *here.parents)}:
        return str(shown)
    return str(shown.parent)


def named_files(command: tuple[str, ...]) -> tuple[str, ...]:
    """The files and folders a command line names (the program, a script, a class path), for the sandbox."""
    named = []
    for index, argument in enumerate(command):
        path = Path(argument).expanduser()
        if names_a_path(argument, index == 0):
            named.append(own_files(path) if path.is_file() else os.path.abspath(path))
    program = shutil.which(command[0])
    if program is not None and "/" not in command[0]:
        named.append(str(Path(program).resolve()))
    return tuple(path for path in dict.fromkeys(named) if bindable(path))


def names_a_path(argument: str, first: bool) -> bool:
    """Whether an argument of a command names a file or folder that exists: the program when it is
    written with a ``/`` (else it is looked up on PATH), any later argument that is one."""
    return ("/" in argument or not first) and Path(argument).expanduser().exists()


def program_command(text: str) -> tuple[str, ...]:
    """Split a command line; the program must exist. Every argument that names a file or folder is
    made absolute, so that it names the same one wherever the player starts (at the ``user`` level,
    in its private home, not in the runner's folder)."""
    try:
        argv = shlex.split(text)
    except ValueError as error:
        raise MoocowError(f"player command {text!r}: {error}") from None
    program = argv[0]
    if "/" in program:
        path = Path(program).expanduser()
        if not path.is_file():
            raise MoocowError(f"player program {program!r} not found")
    elif shutil.which(program) is None:
        known = ", ".join(strategy_classes())
        raise MoocowError(f"player {text!r} is not a strategy ({known}), a .py file or a program on PATH")
    # absolute(), not resolve(): a venv's python is a symlink that must stay one
    return tuple(
        str(Path(argument).expanduser().absolute()) if names_a_path(argument, index == 0) else argument
        for index, argument in enumerate(argv)
    )
