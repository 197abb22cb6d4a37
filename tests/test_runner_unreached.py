"""A command-line player whose program the sandbox cannot reach is told so, with what to do.

``moocow tournament -g mastermind -p 'python3 -c pass'`` with pyenv's ``python3`` (a shim that runs
``~/.pyenv/libexec/pyenv``) said only ``exited with status 127: ... No such file or directory``. Here a
shim of the same shape, in an open folder, runs a program in a folder closed to other users, which
the sandbox does not show at the namespaces level and a player's user id cannot enter at the user
level.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from moocow.runner.grading import grade
from moocow.sandbox import sandbox
from moocow.sandbox.fouls import Failure, Foul
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import Confinement, SandboxPolicy
from moocow.sandbox.unreached import reachable_twin, unreached

GAME = "mastermind:pegs=3,colors=3"
FAST = Limits(guess_seconds=2, setup_seconds=10, round_seconds=10)
LEVEL, WHY = sandbox.strongest()
LEVELS = [
    pytest.param(
        Confinement.USER, marks=pytest.mark.skipif(not sandbox.running_as_root(), reason="not root")
    ),
    pytest.param(
        Confinement.NAMESPACES,
        marks=pytest.mark.skipif(LEVEL is not Confinement.NAMESPACES, reason=f"no namespaces: {WHY}"),
    ),
]
"""The levels that confine a player and that this machine gives."""


@pytest.fixture
def shim() -> Iterator[Path]:
    """``shim.sh`` in an open folder, running ``real.sh`` in a folder of mode 0700 (pyenv's in /root)."""
    shown, closed = (Path(tempfile.mkdtemp(prefix=f"moocow-test-{name}-")) for name in ("shim", "home"))
    shown.chmod(0o755)
    (closed / "real.sh").write_text("#!/bin/sh\nexec cat\n")
    (closed / "real.sh").chmod(0o755)
    (shown / "shim.sh").write_text(f'#!/bin/sh\nexec {closed / "real.sh"} "$@"\n')
    (shown / "shim.sh").chmod(0o755)
    yield shown / "shim.sh"
    for folder in (shown, closed):
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("level", LEVELS)
def test_a_program_the_sandbox_cannot_reach_is_named_so_with_what_to_do(
    shim: Path, level: Confinement
) -> None:
    """The round's reason names the sandbox, what it shows, and the way out, in one line; the
    player's own line still ends it."""
    policy = SandboxPolicy(level=level)
    (played,) = grade(str(shim), game=GAME, rounds=1, limits=FAST, sandbox=policy).rounds
    reason = played.reason or ""
    assert played.failure == Failure.DISQUALIFIED and "\n" not in reason
    assert "a program it runs is not reachable by the sandbox, which " in reason
    assert "name one there by its path" in reason and "--no-sandbox for a player you trust" in reason
    assert reason.endswith(("real.sh: not found", "real.sh: Permission denied"))


def test_a_program_missing_from_this_machine_too_is_left_as_it_was_said() -> None:
    """The sandbox is not why, so it is not blamed; nor is a player's own exit with another status."""
    missing = Foul(Failure.CRASH, "exited with status 127: sh: 1: /no/such/program: not found",
                   "sh: 1: /no/such/program: not found")  # fmt: skip
    assert unreached(missing, ("sh",), Confinement.NAMESPACES) is missing
    own = Foul(Failure.CRASH, "exited with status 3: oops", "oops")
    assert unreached(own, ("sh",), Confinement.NAMESPACES) is own
    unconfined = Foul(Failure.CRASH, "exited with status 127: /bin/sh: 1: cat: not found", "")
    assert unreached(unconfined, ("sh",), Confinement.NONE) is unconfined


def test_a_program_of_the_same_name_in_the_systems_folders_is_suggested(tmp_path: Path) -> None:
    """pyenv's shim for ``python3`` has ``/usr/bin/python3``; a program found there itself has none."""
    (tmp_path / "sh").write_text("#!/bin/sh\n")
    (tmp_path / "sh").chmod(0o755)
    assert reachable_twin(str(tmp_path / "sh")) in {"/usr/bin/sh", "/bin/sh"}
    assert reachable_twin("/bin/sh") is None
