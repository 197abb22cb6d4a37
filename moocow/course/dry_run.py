"""What both ``try`` commands share: running a platform's grader here as its container would run it.

Gradescope's and PrairieLearn's graders run as root in a Docker container whose default profile
drops CAP_SYS_ADMIN from the bounding set, so bubblewrap has no namespaces there. ``try`` runs the
grader the same way where it can (``setpriv``), so moocow picks the level it picks there, with an
interpreter players reach (``interpreter``), and reports the run alike (``DryRun``).
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DROP = ("setpriv", "--bounding-set", "-sys_admin", "--")
"""How Docker's default leaves a container's root: no CAP_SYS_ADMIN, so no namespaces for bubblewrap."""


@dataclass(frozen=True)
class DryRun:
    """One dry run of a submission through a platform's grader (Gradescope's run_autograder,
    PrairieLearn's entrypoint): both ``try`` commands report it alike."""

    root: Path
    """The scratch root the grader ran in (kept with ``--out``)."""
    dropped: bool
    """Whether the grader ran with CAP_SYS_ADMIN dropped, as in the platform's container."""
    status: int
    """The grader's exit status."""
    output: str
    """What it printed (the platform keeps it for instructors: Gradescope in results/stdout)."""
    results: dict[str, Any] | None
    """The platform's ``results.json``, or ``None`` if it wrote none."""
    note: str | None = None
    """What was done to have an interpreter players reach (``interpreter``), or ``None``."""


def can_drop() -> bool:
    """Whether this machine lets ``setpriv`` drop CAP_SYS_ADMIN (root with setpriv installed)."""
    if shutil.which(DROP[0]) is None:
        return False
    probe = subprocess.run([*DROP, "true"], capture_output=True, check=False)
    return probe.returncode == 0
