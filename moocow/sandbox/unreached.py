"""A player whose program the sandbox cannot reach, named so, with what to do.

Status 127 is a shell's "not found" and the launcher's "cannot run" (``launch.py``); 126, a shell's
"Permission denied". In the sandbox they mean a program the player runs is not there: at the
``namespaces`` level a player sees only the system's folders, this Python and the files its command
names; at the ``user`` level it runs as a user id that reaches only what every user can. pyenv's
``python3`` is a shim that runs ``~/.pyenv/libexec/pyenv``, which is neither, and said only
``exited with status 127: ... No such file or directory``: nothing of the sandbox, nor of a way out.
A program missing from this machine too is left as it was said.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

from moocow.sandbox.fouls import Failure, Foul
from moocow.sandbox.sandbox import Confinement

NOT_FOUND, NOT_ALLOWED = 127, 126
"""The exit statuses of a program not found, and of one found but refused (a shell's, the launcher's)."""
SHOWN = {
    Confinement.NAMESPACES: "which shows a player only the system's folders, this Python and the files "
    "its command names",
    Confinement.USER: "which runs a player as a user id of its own, reaching only what every user can",
}
"""What a player reaches at each level that confines it."""
PROGRAM_DIRS = ("/usr/bin", "/usr/local/bin", "/bin")
"""Where programs are in the system's folders (``sandbox.SYSTEM_DIRS``), which every level shows."""
_EXITED = re.compile(r"exited with status (\d+)(?::|$)")
_NAMED = re.compile(
    r"'?([^\s:']+)'?: (?:command )?(?:No such file or directory|not found|Permission denied)\s*$"
)
"""The program a shell (bash, dash, ``env``) or the launcher says it could not run, at the end of its line."""


def unreached(foul: Foul, command: Sequence[str], level: Confinement) -> Foul:
    """``foul`` said as a program the sandbox cannot reach, with what to do, where the player could
    not run a program in a sandbox that this machine has; else ``foul`` itself. The player's own
    line (``foul.said``) still ends the reason."""
    exited = _EXITED.match(foul.reason)
    if level not in SHOWN or foul.kind is not Failure.CRASH or exited is None:
        return foul
    status = int(exited.group(1))
    named = _NAMED.search(foul.said)
    if status not in (NOT_FOUND, NOT_ALLOWED) or (status == NOT_ALLOWED and named is None):
        return foul
    if named is not None and not _on_this_machine(named.group(1)):
        return foul  # missing here too: the sandbox is not why
    instead = reachable_twin(command[0]) if command else None
    such_as = f" (such as {instead!r})" if instead else ""
    described = f"exited with status {status}"
    reason = (
        f"{described}: a program it runs is not reachable by the sandbox, {SHOWN[level]}; name one "
        f"there by its path{such_as}, or give --no-sandbox for a player you trust"
    )
    told = foul.reason.removeprefix(described).removeprefix(": ")
    return Foul(foul.kind, f"{reason}: {told}" if told else reason, foul.said)


def _on_this_machine(program: str) -> bool:
    """Whether ``program`` (a path, or a name looked up on PATH) is on this machine, out of the sandbox."""
    return os.path.exists(program) if "/" in program else shutil.which(program) is not None


def reachable_twin(program: str) -> str | None:
    """A program of the same name in the system's folders, which every level shows, where PATH
    finds another (pyenv's shim for ``python3``: ``/usr/bin/python3``); else ``None``."""
    found = shutil.which(program)
    for folder in PROGRAM_DIRS:
        twin = Path(folder) / Path(program).name
        if found and twin.is_file() and os.access(twin, os.X_OK) and not os.path.samefile(twin, found):
            return str(twin)
    return None
