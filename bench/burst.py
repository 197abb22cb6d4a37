"""What the folder watch holds a burst to: 12 files of 15 MB written as fast as a writer can,
against ``disk_mb=64`` (the ``user`` level's disk bound, ``moocow/sandbox/watch.py``).

``stopped_at`` plays the player with a writer under no limit and the watch alone, as the runner
starts it; ``tests/test_runner_watch.py`` asserts the bound with it, and ``referee_bounds`` measures
it over many rounds at a load of 4 or more: in a home, in a folder anyone may write to crowded with
40,000 files of another user's, and in the deepest of 300 nested folders of a home.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from moocow.sandbox.disk import DiskScan
from moocow.sandbox.held import HeldFiles
from moocow.sandbox.watch import FolderWatch

MB = 1 << 20
LIMIT_MB = 64
OTHERS_FILES = 40_000
OTHER_UID = 65534
"""``nobody``: the owner of the crowded folder's files, someone other than the writer."""
BURST = """
import os, sys
block = b"\\1" * (15 << 20)
for number in range(12):
    with open(os.path.join(sys.argv[1], f"burst-{number}"), "wb") as file:
        file.write(block)
for number in range(12):
    os.unlink(os.path.join(sys.argv[1], f"burst-{number}"))
"""
NESTED = (
    """
import os, sys
for depth in range(300):
    sys.argv[1] = os.path.join(sys.argv[1], f"n{depth}")
    os.mkdir(sys.argv[1])
"""
    + BURST
)
"""The burst in the deepest of 300 folders it makes first."""


def crowd(folder: Path, count: int = OTHERS_FILES) -> Path:
    """``folder`` made one anyone may write to, with ``count`` empty files of another user's (root only)."""
    folder.chmod(0o1777)
    for number in range(count):
        path = folder / f"other-{number}"
        path.touch()
        os.chown(path, OTHER_UID, OTHER_UID)
    return folder


def stopped_at(home: Path, shared: Path, writer_script: str, write_into: Path) -> int | None:
    """What the watch held the writer to, in MB, once it stopped it (``None`` if it never did)."""
    scan = DiskScan(os.getuid(), [str(home)], [str(shared)])
    writer = subprocess.Popen([sys.executable, "-c", writer_script, str(write_into)])
    held_open = lambda: HeldFiles.of([writer.pid]).disk_bytes  # noqa: E731
    group = (lambda: writer.send_signal(signal.SIGSTOP), lambda: writer.send_signal(signal.SIGCONT))
    watch = FolderWatch(scan, held_open, LIMIT_MB * MB, group, 0.1)
    try:
        over = None
        while writer.poll() is None and over is None:
            time.sleep(0.01)
            over = watch.take_over()
        over = over or watch.take_over()
    finally:
        watch.close()
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    return None if over is None else over.bytes // MB


def past_the_limit(rounds: int) -> dict[str, list[float | str]]:
    """MB past ``disk_mb`` at each stop, over ``rounds`` rounds of each case (``not stopped`` where
    the watch never stopped the writer)."""
    crowded = crowd(Path(tempfile.mkdtemp(prefix="moocow-crowded-")))
    found: dict[str, list[float | str]] = {}
    cases = {
        "home": (BURST, False),
        "crowded shared folder": (BURST, True),
        "300 nested folders": (NESTED, False),
    }
    try:
        for case, (script, shared) in cases.items():
            for _ in range(rounds):
                home = Path(tempfile.mkdtemp(prefix="moocow-home-"))
                try:
                    held = stopped_at(home, crowded, script, crowded if shared else home)
                finally:
                    shutil.rmtree(home, ignore_errors=True)
                found.setdefault(case, []).append("not stopped" if held is None else float(held - LIMIT_MB))
    finally:
        shutil.rmtree(crowded, ignore_errors=True)
    return found
