"""Every test starts from a fresh plugin manager that ignores plugins installed on the machine; the
interpreter and folders the user level needs (players run there as other users)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from moocow.engine.switches import SWITCHES
from moocow.optimal.kernel import entries
from moocow.plugins import LOAD_PLUGINS_VARIABLE, reset_plugins
from moocow.sandbox import mounts, sandbox
from tests.gradescope_helpers import system_venv


@pytest.fixture(autouse=True)
def only_builtin_plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Built-in games only, unless a test installs or loads a plugin itself."""
    monkeypatch.setenv(LOAD_PLUGINS_VARIABLE, "")
    reset_plugins()
    yield
    reset_plugins()


@pytest.fixture(autouse=True)
def switches_put_back() -> Iterator[None]:
    """The engine's switches as they were before the test, whatever it changed (``SWITCHES.change``)."""
    before = SWITCHES.current
    yield
    SWITCHES.set(before)


@pytest.fixture(autouse=True, scope="session")
def private_state() -> Iterator[None]:
    """Chain records of results signed with a key from the environment or the API go to a folder
    of the test run's (``XDG_STATE_HOME``), not the user's own state folder."""
    folder = tempfile.mkdtemp(prefix="moocow-test-state-")
    before = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = folder
    yield
    if before is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = before
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def serve_anew() -> Iterator[Callable[[bool], None]]:
    """Called with ``ahead_of_time``: every entry point of the kernels forgets the code it was served
    and serves each kind anew, ahead of time or (off) by numba alone; after the test, ahead of time."""

    def serve(ahead_of_time: bool) -> None:
        for entry in entries.ALL_ENTRIES:
            entry.reset(ahead_of_time)

    yield serve
    serve(True)


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """A test's folder, open to other users: as root, the sandbox runs players under an unprivileged uid."""
    tmp_path.chmod(0o755)
    return tmp_path


@pytest.fixture(scope="session")
def readable_python() -> Iterator[str]:
    """This interpreter if other users can run it, else a venv of the system's Python of the same
    version that imports this moocow, in a folder every user can reach (as setup.sh's /opt/moocow)."""
    spellings = (Path(sys.executable), Path(os.path.realpath(sys.executable)))
    if not sandbox.running_as_root() or all(mounts.readable_by_others(path, True) for path in spellings):
        yield sys.executable
        return
    folder = Path(tempfile.mkdtemp(prefix="moocow-test-python-"))
    folder.chmod(0o755)
    try:
        yield str(system_venv(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def reachable() -> Iterator[Path]:
    """A folder every user can reach, as /autograder is (pytest's own folders are closed to others)."""
    folder = Path(tempfile.mkdtemp(prefix="moocow-test-gradescope-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium, launched once for a module's browser tests; they skip, saying why, where
    it or playwright is missing (``tests.browser``)."""
    from tests.browser import chromium, need_browser

    need_browser()
    with chromium() as launched:
        yield launched
