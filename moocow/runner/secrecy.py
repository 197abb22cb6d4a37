"""What of the runner a player at the ``user`` level could read: its files and its command line.

At the ``user`` level a player is another user id on the runner's machine, with no view of its
own. The file's mode is all that keeps the seed (a seed file, a tournament file's ``seed``), the
signing key (a key file, named by a tournament file's ``key_file``) or finished rounds' secrets (a
results file being resumed) from it, and the runner's command line, which names them, is in
``/proc`` for every process to read. So such a file that other users can read is refused before
round one, naming the file and the fix; and the runner blanks its own command line before its
first player starts (``/proc`` cannot be remounted with ``hidepid`` without ``CAP_SYS_ADMIN``).
Where a player cannot read them anyway, nothing is done: at the ``namespaces`` level the runner's
files and processes are not in its view, with ``--no-sandbox`` the player is the runner's own user,
and engine strategies read nothing (the repository's own ``tournament.toml`` has a public ``seed``
and plays them alone).
"""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Iterable
from pathlib import Path

from moocow.engine.errors import MoocowError
from moocow.referee.players import PlayerKind, PlayerSpec
from moocow.sandbox.mounts import readable_by_others
from moocow.sandbox.sandbox import Confinement, SandboxPolicy

Named = tuple[str | os.PathLike[str] | None, str]
"""A runner's file (``None``: not given) and what it is, for the message."""
SHOWN_NAME = b"moocow"
"""What ``/proc/PID/cmdline`` shows of a runner whose command line is blanked."""


def players_read_as_others(players: Iterable[PlayerSpec], sandbox: SandboxPolicy) -> bool:
    """Whether players outside the engine play, at the ``user`` level: other users of this machine."""
    outside = any(player.kind is not PlayerKind.STRATEGY for player in players)
    return outside and sandbox.confinement() is Confinement.USER


def check_private(files: Iterable[Named], players: Iterable[PlayerSpec], sandbox: SandboxPolicy) -> None:
    """Refuse, in one line, a file of ``files`` that the players' user ids could read and reach."""
    if players_read_as_others(players, sandbox):
        refuse_readable(files)


def refuse_readable(files: Iterable[Named]) -> None:
    """Refuse, in one line, a file of ``files`` that other users could read and reach."""
    for path, what in files:
        if path is not None and readable_by_others(Path(path), along=True):
            raise MoocowError(
                f"{what} {str(path)!r} holds a secret and other users can read it, so players can "
                f"(they run as other users here): chmod 600 {shlex.quote(str(path))}"
            )


def blank_command_line() -> bool:
    """Overwrite this process's arguments where the kernel reads them for ``/proc/PID/cmdline``
    (its own memory, through ``/proc/self/mem``), so that they show ``moocow`` alone; whether it
    could. Python keeps its own copy (``sys.argv``). Not a wall: a process that read the line
    before (in the interpreter's first tenth of a second) has it, and the processes that started
    this one (a shell script) keep theirs; so a command line must hold no secret anyway."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        fields = Path("/proc/self/stat").read_bytes().rpartition(b")")[2].split()
        start, end = int(fields[45]), int(fields[46])  # arg_start, arg_end: fields 48 and 49 of stat
        with open("/proc/self/mem", "r+b", buffering=0) as memory:
            memory.seek(start)
            memory.write(SHOWN_NAME.ljust(end - start, b"\0")[: end - start])
        return True
    return False


def hide_command_line(players: Iterable[PlayerSpec], sandbox: SandboxPolicy) -> None:
    """Before the first player starts: blank the runner's command line where players could read it."""
    if players_read_as_others(players, sandbox):
        blank_command_line()
