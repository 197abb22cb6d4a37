"""The runner's files that hold a secret must be private where a player could read them.

At the ``user`` level a player is another user id on the runner's machine, with no view of its
own: the file's mode is all that keeps the seed (a seed file, a tournament file's ``seed``), the
signing key (a key file, named by a tournament file's ``key_file``) or finished rounds' secrets (a
results file being resumed) from it, and the runner's command line, which names them, is in
``/proc`` for every process to read. So such a file that other users can read is refused before
round one, naming the file and the fix. Where a player cannot read it anyway, nothing is asked: at
the ``namespaces`` level the runner's files are not in its view, with ``--no-sandbox`` the player
is the runner's own user, and engine strategies read no file (the repository's own
``tournament.toml`` has a public ``seed`` and plays them alone).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable
from pathlib import Path

from moocow.engine.errors import MoocowError
from moocow.runner.players import PlayerKind, PlayerSpec
from moocow.runner.sandbox import Confinement, SandboxPolicy, readable_by_others

Named = tuple[str | os.PathLike[str] | None, str]
"""A runner's file (``None``: not given) and what it is, for the message."""


def check_private(files: Iterable[Named], players: Iterable[PlayerSpec], sandbox: SandboxPolicy) -> None:
    """Refuse, in one line, a file of ``files`` that the players' user ids could read and reach."""
    if all(player.kind is PlayerKind.STRATEGY for player in players):
        return
    if sandbox.confinement() is not Confinement.USER:
        return
    for path, what in files:
        if path is not None and readable_by_others(Path(path), along=True):
            raise MoocowError(
                f"{what} {str(path)!r} holds a secret and other users can read it, so players can "
                f"(they run as other users here): chmod 600 {shlex.quote(str(path))}"
            )
