"""The package's hints checked by mypy, as pyproject.toml sets it: strictly where a plugin author
meets moocow (the engine, the games, play at the table, the top's exports), mypy's default
elsewhere. A hint that lies is a failure here, not a surprise in an author's editor."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_passes_on_the_package(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    command = [sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / ".mypy_cache")]
    checked = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("Success: no issues found"), checked.stdout


def test_a_plugin_written_against_the_exports_is_checked_strictly(tmp_path: Path) -> None:
    """A plugin importing only ``moocow`` is held to its exports' hints: a strategy whose ``choose``
    returns text where a guess index is asked is a type error, found before any game is played."""
    pytest.importorskip("mypy")
    plugin = tmp_path / "wrong_plugin.py"
    plugin.write_text(
        "from moocow import Position, Strategy, hookimpl\n\n\n"
        "class Wrong(Strategy):\n"
        '    name = "wrong"\n'
        '    summary = "returns text"\n\n'
        "    def choose(self, position: Position) -> str:\n"
        '        return "1122"\n\n\n'
        "@hookimpl\n"
        "def register_strategies(register: object) -> None:\n"
        "    pass\n"
    )
    cache = str(ROOT / ".mypy_cache")
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", cache, str(plugin)]
    found = {**os.environ, "MYPYPATH": str(ROOT)}  # an editable install hides the package from mypy
    checked = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=found)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    wrong = 'Return type "str" of "choose" incompatible with return type "int"'
    assert wrong in checked.stdout, checked.stdout
