"""What the Gradescope tests check in every results.json: Gradescope's specification, plain text, and
what a student sees before the due date."""

from __future__ import annotations

import atexit
import functools
import json
import os
import re
import shutil
import site
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from moocow.course.interpreter import VENVS_VARIABLE
from moocow.referee.protocol import Identity
from moocow.runner.grading import Grade
from moocow.runner.results import RoundResult

PLAYERS = Path(__file__).parent / "players"
SHARED = [folder / "shared" / "data" / "words_alpha.txt" for folder in Path(__file__).resolve().parents[1:4]]
WORDS_ALPHA = next((found for found in SHARED if found.is_file()), SHARED[0])
needs_words_alpha = pytest.mark.skipif(not WORDS_ALPHA.is_file(), reason="no ../shared/data/words_alpha.txt")
VISIBILITIES = {"visible", "after_due_date", "after_published", "hidden"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}


# --- Gradescope's specification (gradescope-autograders.readthedocs.io, "Autograder Specifications") ---

TOP = {
    "score": (int, float), "execution_time": (int, float), "output": str, "output_format": str,
    "test_output_format": str, "test_name_format": str, "visibility": str, "stdout_visibility": str,
    "extra_data": dict, "tests": list, "leaderboard": list,
}  # fmt: skip
TEST = {
    "score": (int, float), "max_score": (int, float), "status": str, "name": str, "name_format": str,
    "number": str, "output": str, "output_format": str, "tags": list, "visibility": str, "extra_data": dict,
}  # fmt: skip


def check_specification(results: dict[str, Any]) -> None:
    """Only the fields Gradescope defines, with their types and values; a score somewhere."""
    for key, value in results.items():
        assert key in TOP and isinstance(value, TOP[key]) and not isinstance(value, bool), key
    assert "score" in results or all("score" in test for test in results["tests"])
    for key in ("visibility", "stdout_visibility"):
        assert results.get(key, "visible") in VISIBILITIES
    for key in ("output_format", "test_output_format", "test_name_format"):
        assert results.get(key, "text") in FORMATS
    for test in results.get("tests", []):
        for key, value in test.items():
            assert key in TEST and isinstance(value, TEST[key]) and not isinstance(value, bool), key
        assert test.get("visibility", "visible") in VISIBILITIES
        assert test.get("status", "passed") in {"passed", "failed"}
    for column in results.get("leaderboard", []):
        assert set(column) <= {"name", "value", "order"} and isinstance(column["name"], str)
        assert isinstance(column["value"], int | float | str) and column.get("order", "desc") in {
            "asc",
            "desc",
        }


def plain_text_everywhere(results: dict[str, Any]) -> None:
    """Nothing a player sent can be rendered as HTML or Markdown: every output and name is plain text."""
    assert results["output_format"] == results["test_output_format"] == results["test_name_format"] == "text"
    assert all(test["output_format"] == test["name_format"] == "text" for test in results["tests"])


def visible_text(results: dict[str, Any]) -> str:
    """Everything a student may see before the due date: output, every test's name, visible tests'
    outputs, the leaderboard."""
    parts = [results.get("output", "")]
    for test in results["tests"]:
        parts.append(test["name"])
        if test.get("visibility", results.get("visibility", "visible")) == "visible":
            parts.append(test.get("output", ""))
    parts += [f"{column['name']} {column['value']}" for column in results.get("leaderboard", [])]
    return "\n".join(parts)


def rounds_in(text: str) -> tuple[set[str], set[str]]:
    """The secrets and the guesses of the ``[secret]: guess guess ...`` lines of a log."""
    secrets, guesses = set(), set()
    for secret, played in re.findall(r"^\[([^\]\n]*)\]: ?(.*)$", text, re.MULTILINE):
        secrets.add(secret)
        guesses.update(played.split())
    return secrets, guesses


def assert_graded_deck_unseen(results: dict[str, Any], seed: str) -> set[str]:
    """No graded secret, graded guess or the seed in what a student sees; returns the graded secrets."""
    details = [test for test in results["tests"] if test["name"].startswith("Graded rounds in detail")]
    practice = [test for test in results["tests"] if test["name"].startswith("Practice")]
    assert details and all(test["visibility"] in ("after_due_date", "hidden") for test in details)
    graded_secrets, graded_guesses = rounds_in("\n".join(test["output"] for test in details))
    shown_secrets, shown_guesses = rounds_in("\n".join(test["output"] for test in practice))
    secret_tokens = (graded_secrets | graded_guesses) - shown_secrets - shown_guesses
    visible = visible_text(results)
    assert graded_secrets and seed.strip() not in json.dumps(results)
    assert not secret_tokens & set(re.split(r"[\s,.:()]+", visible))
    assert not any(secret in visible for secret in graded_secrets - shown_secrets - shown_guesses)
    return graded_secrets


@functools.cache
def try_venvs() -> Path:
    """Where ``gradescope try`` builds, once for the tests, the venv players reach when this Python
    is closed to them (not the machine's /var/cache/moocow/try): open to all, written by root."""
    folder = Path(tempfile.mkdtemp(prefix="moocow-test-venvs-"))
    folder.chmod(0o755)
    atexit.register(shutil.rmtree, folder, True)
    return folder


def moocow(python: str, *arguments: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, VENVS_VARIABLE: str(try_venvs())}
    return subprocess.run(
        [python, "-m", "moocow", *arguments], capture_output=True, text=True, cwd=cwd, env=environment,
        check=False,
    )  # fmt: skip


def graded_rounds(secrets: list[str], guesses: list[str], seed: int, solved: bool = True) -> Grade:
    rounds = tuple(
        RoundResult(
            "bot",
            "words:length=5",
            number,
            secret,
            (*guesses, secret) if solved else tuple(guesses),
            solved,
            len(guesses) + 1 if solved else 20,
            None if solved else "invalid",
            None if solved else f"{guesses[0]!r} is not a guess",
            0.01,
        )
        for number, secret in enumerate(secrets)
    )
    return Grade("bot.py", "words:length=5", seed, Identity("42", "Ada <b>L</b>"), rounds)


def system_venv(folder: Path) -> Path:
    """A venv of the system's Python in ``folder``, importing this moocow and its dependencies (a
    ``.pth`` names this interpreter's site-packages); the test is skipped where the system's Python is
    not this one's version, whose packages it could not import."""
    system = Path("/usr/bin/python3")
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    asked = [system, "-c", "import sys; print(*sys.version_info[:2], sep='.')"]
    same = (
        subprocess.run(asked, capture_output=True, text=True, check=False).stdout if system.exists() else ""
    )
    if same.strip() != version:
        pytest.skip(f"{system} is not Python {version}, so it cannot import this moocow's packages")
    subprocess.run([system, "-m", "venv", "--without-pip", folder / "venv"], check=True)
    bridge = folder / "venv" / "lib" / f"python{version}" / "site-packages" / "moocow-bridge.pth"
    bridge.write_text("".join(f"import site; site.addsitedir({path!r})\n" for path in site.getsitepackages()))
    return folder / "venv" / "bin" / "python"
