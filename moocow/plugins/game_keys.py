"""The keys a process keeps its games by: a spec's text, with each file it names made absolute.

A game reads its word files when it is made, so ``words:file=w.txt`` from another folder is
another game, and so is the same file rewritten: a file's value in a key is its resolved path and
its version (modification time and size, as ``wordlists.files`` keeps its reads). A parameter of
free text that names no file only costs a second key from another folder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from moocow.engine.game import Game
from moocow.engine.params import Param, format_spec


def spec_key(name: str, arguments: Mapping[str, str], params: Sequence[Param]) -> str:
    """The key of a spec as written (``parse_spec``'s arguments, in key order): one game per key."""
    located = _located(arguments, params)
    return f"{name}:" + ",".join(f"{key}={located[key]}" for key in sorted(located))


def game_key(game: Game) -> str:
    """The key of a made game: its canonical spec, files located. Specs that mean the same game
    (``bottles``, ``bottles:n=6``) have the same one."""
    return format_spec(game.name, _located(game.values, game.params), game.params)


def _located(values: Mapping[str, Any], params: Sequence[Param]) -> dict[str, Any]:
    files = {param.name for param in params if param.free_text}
    return {
        key: _file(value) if key in files and value is not None else value for key, value in values.items()
    }


def _file(value: object) -> str:
    """A file's resolved path and version, or (no such file) the path made absolute: making the
    game then says what is wrong, and nothing is kept."""
    try:
        path = Path(str(value)).expanduser().resolve()
        status = path.stat()
    except (OSError, ValueError, RuntimeError):  # no file, a NUL byte, a loop of links
        return str(Path.cwd() / str(value))
    return f"{path}@{status.st_mtime_ns}:{status.st_size}"
