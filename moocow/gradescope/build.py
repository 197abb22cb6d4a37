"""``gradescope build``: one zip holding everything Gradescope needs to grade a course.

The zip holds ``setup.sh`` and ``run_autograder`` (``scripts``), the course (``course.toml``), each
file a deck reads (under its own name), a wheel of this very moocow, and a seed drawn now with
``secrets`` and stored with mode 0600 (the zip itself is written 0600: it holds the seed). The
wheel is built from moocow's source with setuptools' own build backend (a declared dependency),
in a staging copy, so the checkout is left as it was and no network is needed.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import moocow
from moocow.engine.errors import MoocowError
from moocow.gradescope.course import Course
from moocow.gradescope.grading import COURSE_FILE, SEED_FILE, check_strategy
from moocow.gradescope.scripts import RUN_AUTOGRADER, SETUP
from moocow.runner.decks import load_deck
from moocow.runner.files import PRIVATE, check_output
from moocow.runner.seeds import FRESH_BELOW

SOURCES = ("pyproject.toml", "README.md")
"""The project's files a wheel is built from, besides the package itself."""


@dataclass(frozen=True)
class Built:
    """What went into the zip."""

    path: Path
    """The zip."""
    names: tuple[str, ...]
    """Its files, in order."""
    wheel: str
    """The wheel's file name."""


def build_zip(course: Course, output: str | os.PathLike[str]) -> Built:
    """Check the course (every deck loads, every mark is a strategy), then write the zip to ``output``."""
    target = check_output(output, "autograder zip")
    for deck in course.decks:
        load_deck(deck)
    check_strategy(course.points.full_at)
    check_strategy(course.points.zero_at)
    beside: dict[str, Path] = {}
    for path in map(Path, course.deck_files()):
        if beside.setdefault(path.name, path) != path:
            raise MoocowError(
                f"two deck files are named {path.name!r}: rename one (the zip keeps them side by side)"
            )
        if path.name in (COURSE_FILE, SEED_FILE, "setup.sh", "run_autograder"):
            raise MoocowError(f"deck file {str(path)!r}: {path.name!r} is a name the zip uses itself")
    zipped = course.with_files(lambda name: Path(name).name)
    with tempfile.TemporaryDirectory(prefix="moocow-wheel-") as scratch:
        wheel = build_wheel(Path(scratch))
        entries: list[tuple[str, bytes, int]] = [
            ("setup.sh", SETUP.encode(), 0o755),
            ("run_autograder", RUN_AUTOGRADER.encode(), 0o755),
            (COURSE_FILE, zipped.to_toml().encode("utf-8"), 0o644),
            *((name, path.read_bytes(), 0o644) for name, path in beside.items()),
            (wheel.name, wheel.read_bytes(), 0o644),
            (SEED_FILE, f"{secrets.randbelow(FRESH_BELOW)}\n".encode(), PRIVATE),
        ]
    write_zip(target, entries)
    return Built(target, tuple(name for name, _, _ in entries), wheel.name)


def write_zip(target: Path, entries: list[tuple[str, bytes, int]]) -> None:
    """The zip, each entry with its Unix mode, written private and whole (a temporary file renamed)."""
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as file, zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data, mode in entries:
                info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
                info.external_attr = (stat.S_IFREG | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, data)
        os.chmod(temporary, PRIVATE)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def project_root() -> Path:
    """moocow's source checkout (the folder with its ``pyproject.toml``), or a one-line error."""
    root = Path(moocow.__file__).resolve().parent.parent
    try:
        name = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        name = None
    if name != "moocow":
        raise MoocowError(
            f"building the zip needs moocow's source (a checkout installed with pip install -e), "
            f"not the installed package in {str(root)!r}"
        )
    return root


def build_wheel(into: Path) -> Path:
    """A wheel of this moocow, built by setuptools' backend from a staging copy of its source."""
    root = project_root()
    staging = into / "source"
    staging.mkdir()
    for name in SOURCES:
        shutil.copy2(root / name, staging / name)
    shutil.copytree(
        root / "moocow", staging / "moocow", ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )
    backend = "import sys, setuptools.build_meta as backend; backend.build_wheel(sys.argv[1])"
    done = subprocess.run(
        [sys.executable, "-c", backend, str(into)], cwd=staging, capture_output=True, text=True, check=False
    )
    wheels = sorted(into.glob("moocow-*.whl"))
    if done.returncode != 0 or not wheels:
        last = (done.stderr.strip().splitlines() or [f"status {done.returncode}"])[-1]
        raise MoocowError(f"cannot build moocow's wheel: {last}")
    return wheels[0]
