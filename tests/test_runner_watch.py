"""The folder watch looks at what is the player's, whatever else the folders anyone may write to hold.

Its look at everything once walked ``/tmp``: with 150,000 files of others' there, the walk took the
thread away for a second, and a player's burst of 180 MB against ``disk_mb=64`` went unfouled in
most rounds. Here a writer under no limit plays the player: 12 files of 15 MB written as fast as it
can in a home, and in a folder anyone may write to that holds 40,000 files of others'; and 180 MB
written into one file of the home, deleted and kept open.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from moocow.runner.disk import DiskScan
from moocow.runner.held import MEMORY_FILE_SYSTEMS, HeldFiles, file_system_type
from moocow.runner.watch import FolderWatch

MB = 1 << 20
LIMIT_MB = 64
MOST_MB = 100
OTHERS_FILES = 40_000
BURST = """
import os, sys
block = b"\\1" * (15 << 20)
for number in range(12):
    with open(os.path.join(sys.argv[1], f"burst-{number}"), "wb") as file:
        file.write(block)
for number in range(12):
    os.unlink(os.path.join(sys.argv[1], f"burst-{number}"))
"""
DELETED = """
import os, sys
block = b"\\1" * (15 << 20)
with open(os.path.join(sys.argv[1], "kept"), "wb") as file:
    os.unlink(file.name)
    for _ in range(12):
        file.write(block)
"""


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder anyone may write to, crowded with empty files (others' in use; here this user's, so
    that the test needs no second user: they hold no blocks)."""
    folder = tmp_path_factory.mktemp("crowded")
    folder.chmod(0o1777)
    for number in range(OTHERS_FILES):
        (folder / f"other-{number}").touch()
    return folder


def stopped_at(home: Path, shared: Path, writer_script: str, write_into: Path) -> int | None:
    """What the watch held the writer to, in MB, once it stopped it (``None`` if it never did)."""
    scan = DiskScan(os.getuid(), [str(home)], [str(shared)])
    writer = subprocess.Popen([sys.executable, "-c", writer_script, str(write_into)])
    held_open = lambda: HeldFiles.of([writer.pid]).disk_bytes  # noqa: E731
    watch = FolderWatch(scan, held_open, LIMIT_MB * MB, lambda: writer.send_signal(signal.SIGSTOP), 0.1)
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
    return None if over is None else over // MB


@pytest.mark.parametrize("where", ["home", "shared"])
def test_a_burst_is_stopped_before_100_mb_whatever_the_shared_folders_hold(
    tmp_path: Path, crowded: Path, where: str
) -> None:
    """Written in the home, or in the crowded folder anyone may write to: stopped (``SIGSTOP``)
    over the limit and before 100 MB, its looks never walking the others' files."""
    home = tmp_path / "home"
    home.mkdir()
    held = stopped_at(home, crowded, BURST, home if where == "home" else crowded)
    assert held is not None and LIMIT_MB <= held < MOST_MB, held


@pytest.mark.skipif(
    file_system_type(tempfile.gettempdir()) in MEMORY_FILE_SYSTEMS,
    reason="a deleted file on a tmpfs is memory",
)
def test_a_burst_into_a_deleted_file_kept_open_is_stopped_before_100_mb(
    tmp_path: Path, crowded: Path
) -> None:
    """No folder holds the file: the writes to it wake the watch all the same, and its descriptors
    tell what it holds."""
    held = stopped_at(tmp_path, crowded, DELETED, tmp_path)
    assert held is not None and LIMIT_MB <= held < MOST_MB, held
