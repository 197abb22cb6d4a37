"""This very moocow as a wheel, for the autograder zip, and the zip files it is written in.

From a source checkout (an editable install), the wheel is built by setuptools' own build backend
(a declared dependency) in a staging copy, so the checkout is left as it was and no network is
needed. From an installed moocow (a wheel installed with pip, as setup.sh installs it), the
installed files are packed again with their metadata and a fresh RECORD. Either way Gradescope
grades with the version that was tried here.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import moocow
from moocow.engine.errors import MoocowError
from moocow.runner.files import PRIVATE

SOURCES = ("pyproject.toml", "README.md")
"""The project's files a wheel is built from, besides the package itself."""
METADATA = ("METADATA", "WHEEL", "entry_points.txt", "top_level.txt")
"""The files of an installed distribution's ``.dist-info`` that a wheel carries (RECORD is made anew)."""


def moocow_wheel(into: Path) -> Path:
    """A wheel of the moocow running now, written in ``into``: built from its source, or repacked."""
    root, into = Path(moocow.__file__).resolve().parent.parent, into.absolute()
    return build_wheel(root, into) if _is_checkout(root) else repack_installed(into)


def _is_checkout(root: Path) -> bool:
    try:
        return (
            tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
            == "moocow"
        )
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError):
        return False


def build_wheel(root: Path, into: Path) -> Path:
    """A wheel built by setuptools' backend from a staging copy of the checkout at ``root``."""
    staging = into / "source"
    staging.mkdir()
    for name in SOURCES:
        shutil.copy2(root / name, staging / name)
    ignored = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(root / "moocow", staging / "moocow", ignore=ignored)
    backend = "import sys, setuptools.build_meta as backend; backend.build_wheel(sys.argv[1])"
    done = subprocess.run(
        [sys.executable, "-c", backend, str(into)], cwd=staging, capture_output=True, text=True, check=False
    )
    wheels = sorted(into.glob("moocow-*.whl"))
    if done.returncode != 0 or not wheels:
        last = (done.stderr.strip().splitlines() or [f"status {done.returncode}"])[-1]
        raise MoocowError(f"cannot build moocow's wheel: {last}")
    return wheels[0]


def repack_installed(into: Path) -> Path:
    """The installed moocow packed again as a wheel: its package's files, its metadata, a new RECORD."""
    try:
        installed = metadata.distribution("moocow")
    except metadata.PackageNotFoundError:
        raise MoocowError("cannot find moocow's installed metadata to pack it for the autograder") from None
    package = Path(moocow.__file__).resolve().parent
    info = f"moocow-{installed.version}.dist-info"
    files = [
        (f"moocow/{path.relative_to(package).as_posix()}", path.read_bytes())
        for path in sorted(package.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    ]
    for name in METADATA:
        text = installed.read_text(name)
        if text is not None:
            files.append((f"{info}/{name}", text.encode("utf-8")))
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files] + [f"{info}/RECORD,,"]
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode("utf-8")))
    wheel = into / f"moocow-{installed.version}-py3-none-any.whl"
    write_zip(wheel, [(name, data, 0o644) for name, data in files])
    return wheel


def _digest(data: bytes) -> str:
    """A RECORD's hash: SHA-256, URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


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
