"""Pages a forked child shares copy-on-write are counted once, at every level no memory controller counts.

``tests/players/numpy_forker.py`` is an honest player that forks: numpy and 40 MB, then six
children that only wait. Summed process by process, their resident sets came to about 400 MB, and
the player lost its round as ``memory`` against ``memory_mb=256`` while it held about 60 MB. The
scan counts each process's proportional set size instead (``usage.resident_bytes``). Played at the
``namespaces`` level with and without a cgroup (this machine's has no memory controller, so both
are scans), and at Gradescope's ``user`` level, also without ``CAP_SYS_PTRACE`` as in Docker.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from moocow.runner.grading import grade
from moocow.sandbox import sandbox, usage
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import Confinement
from tests.test_runner_resources import gradescope_level
from tests.test_runner_user_level import DROPPED, WHY_NOT

PLAYERS = Path(__file__).parent / "players"
FORKER = PLAYERS / "numpy_forker.py"
GAME = "mastermind:pegs=3,colors=3"
LIMITS = {"guess_seconds": 30, "setup_seconds": 60, "memory_mb": 256, "forks": True}
"""Within what numpy's address space needs (about 180 MB with the 40), below the resident sum."""


@pytest.mark.parametrize("counting", ["scan", "cgroup"])
def test_an_honest_forker_is_not_fouled_at_the_namespaces_level(
    counting: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if sandbox.strongest()[0] is not Confinement.NAMESPACES:
        pytest.skip(f"needs bubblewrap's namespaces: {sandbox.strongest()[1]}")
    if counting == "scan":
        monkeypatch.setattr(usage.CgroupGroup, "make", classmethod(lambda cls, *_: None))
    result = grade(str(FORKER), game=GAME, rounds=1, limits=Limits(**LIMITS)).rounds[0]
    assert result.failure != "memory", result.reason


@pytest.mark.parametrize("dropped", [[], ["-sys_ptrace"]], ids=["gradescope", "without_sys_ptrace"])
def test_an_honest_forker_is_not_fouled_at_gradescopes_level(
    readable_python: str, dropped: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if WHY_NOT is not None or shutil.which("unshare") is None:
        pytest.skip(f"needs the user level and unshare: {WHY_NOT or 'no unshare'}")
    monkeypatch.setattr(
        "tests.test_runner_resources.DROPPED", [*DROPPED[:-1], ",".join([DROPPED[-1], *dropped])]
    )
    folder = Path(tempfile.mkdtemp(prefix="moocow-shared-pages-"))
    folder.chmod(0o755)
    try:
        limits = [arg for key, value in LIMITS.items() for arg in ("--limit", f"{key}={value}")]
        args = ["tournament", "-p", str(FORKER), "-g", GAME, "-r", "1", *limits, "--results", "r.jsonl"]
        done = gradescope_level(readable_python, args, folder)
        assert done.returncode == 0, done.stderr
        assert "players sandboxed: user" in done.stderr
        row = json.loads((folder / "r.jsonl").read_text().splitlines()[1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert row["failure"] != "memory", row["reason"]


def test_memory_a_child_holds_alone_counts_whole() -> None:
    """A child's own pages are its own: its share is what it holds (a player holding memory through
    many processes is still fouled, ``test_runner_sandbox.py``)."""
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:
        held = bytearray(64 << 20)
        held[::4096] = b"\1" * len(held[::4096])
        os.write(writing, b"x")
        time.sleep(30)
        os._exit(0)
    try:
        os.read(reading, 1)
        fields = usage.process_stat(child)
        assert fields is not None
        assert usage.resident_bytes(child, fields) > 64 << 20
    finally:
        os.kill(child, 9)
        os.waitpid(child, 0)
        os.close(reading)
        os.close(writing)


def test_the_resident_set_is_counted_where_smaps_rollup_cannot_be_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Closed to the runner (not dumpable, no ``CAP_SYS_PTRACE``), a process counts its whole resident
    set: more than its share, never less."""
    fields = usage.process_stat(os.getpid())
    assert fields is not None
    shared = usage.resident_bytes(os.getpid(), fields)
    opened = usage.KernelFile.opened
    monkeypatch.setattr(
        usage.KernelFile,
        "opened",
        classmethod(lambda cls, path: None if "smaps" in str(path) else opened(path)),
    )
    whole = usage.resident_bytes(os.getpid(), fields)
    assert whole == int(fields[21]) * usage.PAGE_BYTES
    assert whole > shared
