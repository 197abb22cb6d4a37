"""Every test starts from a fresh plugin manager that ignores plugins installed on the machine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from moocow.plugins import LOAD_PLUGINS_VARIABLE, reset_plugins


@pytest.fixture(autouse=True)
def only_builtin_plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Built-in games only, unless a test installs or loads a plugin itself."""
    monkeypatch.setenv(LOAD_PLUGINS_VARIABLE, "")
    reset_plugins()
    yield
    reset_plugins()


@pytest.fixture
def tmp_path(tmp_path: Path) -> Path:
    """A test's folder, open to other users: as root, the sandbox runs players under an unprivileged uid."""
    tmp_path.chmod(0o755)
    return tmp_path
