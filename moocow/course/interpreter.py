"""A Python that players can reach, for ``gradescope try`` and ``prairielearn try``: this one, or a
venv built once for them.

As root, ``try`` runs players under user ids of their own, as Gradescope does, so they must reach
the interpreter and moocow. Where this Python lives where they cannot (pyenv's, in ``/root``), the
instructor once had to build a second venv by hand. Here ``try`` builds it, once, in a folder every
user can reach and only root can write (root runs it: a player that could write there would be
root): from a reachable Python 3.11 or newer. One of this Python's own version takes this Python's
packages through a ``.pth`` file (the runner, root, reads them; a player needs only the interpreter
and moocow's package), so it takes seconds and no network; another version gets moocow's wheel and
its dependencies from the package index, as ``setup.sh`` does. Moocow's package itself goes in the
venv when players cannot reach this one. Where the machine has no reachable Python 3.11 or newer,
the one line says what to install.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import site as _site
import stat
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from moocow.engine.errors import MoocowError
from moocow.sandbox.mounts import closed_folder, readable_by_others
from moocow.sandbox.sandbox import PACKAGE, PACKAGE_AS_IMPORTED

VENVS_VARIABLE = "MOOCOW_TRY_VENVS"
"""The folder where ``try`` keeps the venvs it builds (``/var/cache/moocow/try`` by default)."""
DEFAULT_VENVS = "/var/cache/moocow/try"
NAMES = ("python3.14", "python3.13", "python3.12", "python3.11", "python3")
"""The interpreters looked for, on ``PATH`` and in the system's folders."""
SYSTEM_BINS = ("/usr/local/bin", "/usr/bin", "/bin")
BUILT = "moocow-try.json"
"""Written last in a venv: it is whole, and how it was made."""
INSTALL = "apt-get install python3.11-venv, say"
"""What to install where no Python 3.11 or newer is open to other users."""


@dataclass(frozen=True)
class Interpreter:
    """The Python ``run_autograder`` runs, and what ``try`` did to have it."""

    python: str
    """The interpreter, as ``MOOCOW_PYTHON``."""
    note: str | None = None
    """One line for ``try`` to print, or ``None`` (this very interpreter)."""


def try_python(dropped: bool, grader: str) -> Interpreter:
    """What a dry run's ``grader`` (``run_autograder``, the entrypoint) runs: with CAP_SYS_ADMIN
    ``dropped``, players run as other users and need one they reach; else this very interpreter."""
    return players_python(grader) if dropped else Interpreter(sys.executable)


def players_python(grader: str = "run_autograder") -> Interpreter:
    """This interpreter if other users reach it and moocow; else a reachable venv, built once, which
    ``grader`` runs (its note names it)."""
    closed = unreachable(sys.executable)
    if closed is None:
        return Interpreter(sys.executable)
    base = reachable_base()
    if base is None:
        raise MoocowError(
            f"players run as other users here and cannot reach this Python ({closed}), and this "
            f"machine has no Python 3.11 or newer open to them: install one ({INSTALL}) and try again"
        )
    venvs = venv_root()
    venv = venvs / f"python{base.version}-{_tag(base)}"
    python = venv / "bin" / "python"
    why = f"players cannot reach this Python ({closed})"
    if (venv / BUILT).is_file():
        return Interpreter(str(python), f"{why}: {grader} runs {python}, built by an earlier try.")
    how = build_venv(base, venv, bridged=base.version == _version())
    return Interpreter(str(python), f"{why}: built {venv} for {grader}, {how}.")


def unreachable(python: str, with_moocow: bool = True) -> str | None:
    """Why other users cannot run ``python`` (``'/root' is closed to other users``), or ``None``: the
    interpreter by its name and where its links lead, and, ``with_moocow``, moocow's package."""
    package = [str(PACKAGE_AS_IMPORTED), str(PACKAGE)] if with_moocow else []
    return _closed_to_others([python, os.path.realpath(python), *package])


def unreachable_moocow() -> bool:
    """Whether other users cannot reach moocow's package as this Python imports it."""
    return _closed_to_others([str(PACKAGE_AS_IMPORTED), str(PACKAGE)]) is not None


def _closed_to_others(paths: list[str]) -> str | None:
    """Why other users cannot reach the first of ``paths`` they cannot, or ``None``."""
    for path in dict.fromkeys(paths):
        if not readable_by_others(Path(path), along=True):
            closed = closed_folder(Path(path))
            return f"{str(closed)!r} is closed to other users" if closed else f"{path!r} is not open to them"
    return None


@dataclass(frozen=True)
class Base:
    """A Python 3.11 or newer that other users can run."""

    path: str
    version: str
    """``3.11``."""


def reachable_base() -> Base | None:
    """A Python 3.11 or newer open to other users, of this one's version if there is one (its
    packages serve), else the newest; ``None`` if there is none."""
    folders = [*os.environ.get("PATH", "").split(os.pathsep), *SYSTEM_BINS]
    found: list[Base] = []
    for folder in dict.fromkeys(folder for folder in folders if folder):
        for name in NAMES:
            path = os.path.join(folder, name)
            if os.access(path, os.X_OK) and not any(os.path.samefile(path, one.path) for one in found):
                version = _version_of(path) if unreachable(path, with_moocow=False) is None else None
                if version is not None and tuple(map(int, version.split("."))) >= (3, 11):
                    found.append(Base(path, version))
    same = [one for one in found if one.version == _version()]
    newest = sorted(found, key=lambda one: tuple(map(int, one.version.split("."))), reverse=True)
    return (same or newest)[0] if found else None


def _version_of(python: str) -> str | None:
    asked = [python, "-I", "-c", "import sys, venv; print(*sys.version_info[:2], sep='.')"]
    try:
        done = subprocess.run(asked, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _version() -> str:
    return f"{sys.version_info[0]}.{sys.version_info[1]}"


def venv_root() -> Path:
    """``$MOOCOW_TRY_VENVS`` or ``/var/cache/moocow/try``, made if need be; refused in one line where
    another user could write on the way to it, since root runs what is there."""
    root = Path(os.environ.get(VENVS_VARIABLE) or DEFAULT_VENVS).absolute()
    for folder in [*reversed(root.parents), root]:
        if not folder.exists():
            folder.mkdir()
            folder.chmod(0o755)  # whatever the umask: players pass through it
    for folder in (root, *root.parents):
        found = folder.stat()
        shared = found.st_mode & 0o022 and not (folder != root and found.st_mode & stat.S_ISVTX)
        if shared or found.st_uid not in (0, os.geteuid()):
            raise MoocowError(
                f"{VENVS_VARIABLE}: {str(root)!r} is not safe for the venv try builds: other users can "
                f"write in {str(folder)!r}, and root runs that venv; name a folder only root can write"
            )
    if not readable_by_others(root, along=True):
        raise MoocowError(f"{VENVS_VARIABLE}: {str(root)!r} is not open to other users (chmod o+rx it)")
    return root


def _tag(base: Base) -> str:
    """What the venv is made of: the base, this Python's packages, moocow's place and version."""
    from importlib.metadata import version

    made_of = [
        os.path.realpath(base.path),
        sys.prefix,
        *_site.getsitepackages(),
        str(PACKAGE),
        version("moocow"),
    ]
    return hashlib.sha256("\0".join(made_of).encode()).hexdigest()[:12]


def build_venv(base: Base, venv: Path, bridged: bool) -> str:
    """Make the venv at ``venv`` (in a scratch folder beside it, renamed when whole); returns how."""
    scratch = Path(tempfile.mkdtemp(prefix=".building-", dir=venv.parent))
    try:
        made = scratch / "venv"
        plain = ["--without-pip"] if bridged else []
        _run([base.path, "-m", "venv", *plain, str(made)], f"{base.path} -m venv")
        site = _site_packages(made, base.version)
        if bridged:
            (site / "moocow-try-bridge.pth").write_text(
                "".join(f"import site; site.addsitedir({path!r})\n" for path in _site.getsitepackages())
            )
            if unreachable_moocow():
                _unpack_moocow(site, scratch)
            how = f"from {base.path} with this Python's packages (seconds, once)"
        else:
            wheel = _moocow_wheel(scratch)
            _run([str(made / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)], "pip install")
            how = f"from {base.path} with moocow and its dependencies from the package index (once)"
        _open_to_all(made)
        _run([str(made / "bin" / "python"), "-I", "-m", "moocow", "--version"], "the new venv's moocow")
        (made / BUILT).write_text(json.dumps({"base": base.path, "bridged": bridged}) + "\n")
        try:
            made.rename(venv)
        except OSError:
            if not (venv / BUILT).is_file():  # another try built it meanwhile: that one serves
                raise
    except OSError as error:
        raise MoocowError(f"cannot build the venv {str(venv)!r}: {error}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return how


def _site_packages(venv: Path, version: str) -> Path:
    return venv / "lib" / f"python{version}" / "site-packages"


def _moocow_wheel(scratch: Path) -> Path:
    from moocow.course.wheel import moocow_wheel

    (scratch / "wheel").mkdir()
    return moocow_wheel(scratch / "wheel")


def _unpack_moocow(site: Path, scratch: Path) -> None:
    """Moocow's own files in the venv, where players reach them (a pure wheel is its files)."""
    with zipfile.ZipFile(_moocow_wheel(scratch)) as wheel:
        wheel.extractall(site)


def _open_to_all(folder: Path) -> None:
    """Everything in the venv readable by all and written by root alone, folders passable (a venv is
    shallow: ``os.walk`` serves)."""
    for path, folders, files in os.walk(folder):
        for name in [*folders, *files, "."]:
            entry = Path(path) / name
            mode = entry.lstat().st_mode
            if not stat.S_ISLNK(mode):  # chmod a+rX,go-w
                runs = stat.S_ISDIR(mode) or mode & stat.S_IXUSR
                entry.chmod(stat.S_IMODE(mode) & ~0o022 | 0o444 | (0o111 if runs else 0))


def _run(command: list[str], what: str) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        raise MoocowError(f"{what} failed: {error}") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise MoocowError(f"{what} failed (status {done.returncode}): {said[-1] if said else 'no output'}")
