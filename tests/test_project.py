"""The project's own promises: ruff-clean code, and a README whose test command is the one CI runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_check_and_format_are_clean() -> None:
    """`ruff check` and `ruff format --check` pass on the whole tree."""
    for args in (("check", "."), ("format", "--check", ".")):
        result = _ruff(*args)
        assert result.returncode == 0, result.stdout + result.stderr


def test_readme_test_command_is_what_ci_runs() -> None:
    """The README's test command appears, word for word, as the command .ci/run executes."""
    readme = (ROOT / "README.md").read_text()
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    command = next(line for line in ci_lines if "pytest" in line)
    assert command in readme


def test_package_exports_the_api() -> None:
    """The lazy names of ``moocow`` are exactly ``moocow.api.__all__`` (kept apart: players import light)."""
    import moocow
    import moocow.api

    assert set(moocow.api.__all__) == moocow._API
