"""The kernel's entry points built ahead of time: extension modules that need no numba.

numba's own cache still needs numba: importing it and starting its runtime cost more than
Mastermind's whole search. numba also compiles ahead of time (``numba.pycc``) into an
ordinary extension module that needs only numpy. Each entry point (``entries``) is built so
once for each kind of arguments it is called with, on the machine that calls it and for its
CPU, into a cache beside numba's; a later process loads it at once, with numpy alone.

A build runs in a child process (``python -m moocow.engine.kernel.ahead``): a numba that has
already loaded a function just in time cannot lower calls to it ahead of time. A module is named
by a hash of the package's compiled sources (``stamp``), the entry point, the kind and the CPU,
so an edit, or another machine sharing the cache, builds afresh. Where a build fails (no C compiler or
Python headers, a numba without ``pycc``), its reason is kept in place of the module, and numba
serves that entry point from then on: slower to start, the same results.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from moocow.engine.kernel.stamp import PACKAGE, package_stamp
from moocow.engine.progress import Notice

if TYPE_CHECKING:
    from moocow.engine.kernel.entries import Entry, Kind

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
CPU_LINES = ("model name", "flags", "Features", "CPU part")
"""The lines of ``/proc/cpuinfo`` that name a CPU and its instructions (x86, then ARM)."""
IN_TREE = PACKAGE / "__pycache__" / "ahead"
"""The package's own cache of modules, beside numba's."""
STAMP = 12
"""Characters of the sources' stamp in a module's name, by which stale ones are pruned."""
SOURCE_ROOT = PACKAGE.parents[2]
"""The folder holding the ``moocow`` package: on the child's path, however this one found it."""


def cache_places() -> tuple[Path, Path]:
    """Where modules may be: the package's own cache, then the user's."""
    user_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return IN_TREE, user_cache / "moocow" / "ahead"


def cache_directory() -> Path | None:
    """Where the modules go: beside numba's cache of the kernel, or in the user's cache where the
    package's folder is read-only (an installed package); ``None`` if neither can be written."""
    for directory in cache_places():
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(directory, os.W_OK):
            return directory
    return None


@functools.cache
def host_cpu() -> str:
    """The CPU the modules are built for (they use all of its instructions): a module built on
    one machine could fault on another that shares the cache, as a home directory over NFS."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:  # not Linux: no CPU to name, so one module per machine
        import platform

        return f"{platform.machine()}|{platform.node()}"
    wanted = [next((line for line in lines if line.startswith(key)), "") for key in CPU_LINES]
    return "|".join([os.uname().machine, *wanted])


def module_name(entry: Entry, kind: Kind) -> str:
    """The module built for ``entry`` called with arguments of ``kind``, on this CPU, from these sources."""
    stamp = package_stamp()
    parts = [stamp, entry.module, entry.function, entry.returns, kind, host_cpu()]
    key = json.dumps(parts + (["releases the GIL"] if entry.releases_gil else []), default=str)
    return f"{entry.function.lstrip('_')}_{stamp[:STAMP]}_{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def prune(directory: Path) -> None:
    """Remove the modules built from other sources than these, in the package's own cache only
    (a user's cache may serve several copies of moocow)."""
    if directory != IN_TREE:
        return
    current = package_stamp()[:STAMP]
    for path in directory.iterdir():
        parts = path.name.split(".")[0].rsplit("_", 2)
        if len(parts) == 3 and parts[1] != current and not path.is_dir():  # a build under way: tmpab_c_d
            path.unlink(missing_ok=True)


def load(entry: Entry, kind: Kind, build: bool = True) -> Callable[..., Any] | None:
    """``entry``'s code for ``kind``, built now if it never was (unless not to ``build``); ``None``
    where it cannot be, or is not built."""
    name = module_name(entry, kind)
    found = _built_before(name, entry)  # in any place: the package's, which a sandboxed player reads
    directory = cache_directory() if build and found is None else None
    if directory is None:  # built before, or nowhere to build (a sandboxed player whose home is read-only)
        return found
    path, failure = directory / f"{name}{SUFFIX}", directory / f"{name}.failed"
    if not path.exists() and not failure.exists():
        prune(directory)
        BUILDING.say()
        _build(entry, kind, directory, name)
    if not path.exists():
        return None
    try:
        return _imported(path, name, entry)
    except (ImportError, OSError, AttributeError) as error:  # a damaged module: numba serves, from now on
        failure.write_text(f"{path.name} does not load: {error}\n")
        path.unlink(missing_ok=True)
        return None


def _built_before(name: str, entry: Entry) -> Callable[..., Any] | None:
    """The module ``name`` where one was built and can be read, if any (nothing is written)."""
    for place in cache_places():
        path = place / f"{name}{SUFFIX}"
        if path.is_file():
            try:
                return _imported(path, name, entry)
            except (ImportError, OSError, AttributeError):
                continue
    return None


def _imported(path: Path, name: str, entry: Entry) -> Callable[..., Any]:
    """The entry point of the module at ``path``."""
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    function: Callable[..., Any] = getattr(module, entry.function)
    return function


BUILD_NOTICE = (
    "building the exact search's compiled code for this machine and this kind of game once "
    "(about a minute; later runs load it at once)..."
)
BUILDING = Notice(BUILD_NOTICE)
"""Said as builds begin, once per process: the first proof of a game took far longer than later
ones, with nothing said on a terminal or off it."""


def build_command(request: str) -> list[str]:
    """The child process that builds one module (``build``), given its request in JSON."""
    return [sys.executable, "-m", __name__, request]


def _build(entry: Entry, kind: Kind, directory: Path, name: str) -> None:
    """Build the module in a child process; if that fails, write why in its place."""
    request: dict[str, Any] = {
        "module": entry.module,
        "function": entry.function,
        "returns": entry.returns,
        "kind": kind,
        "releases_gil": entry.releases_gil,
        "directory": str(directory),
        "name": name,
    }
    path = os.pathsep.join(filter(None, [str(SOURCE_ROOT), os.environ.get("PYTHONPATH")]))
    try:
        done = subprocess.run(
            build_command(json.dumps(request, default=str)),
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": path},
            check=False,
        )
    except OSError as error:
        reason = f"the build did not start: {error}"
    else:
        last_line = (done.stderr.strip().splitlines() or ["no message"])[-1]
        reason = "" if done.returncode == 0 else f"the build exited with {done.returncode}: {last_line}"
    if reason:  # the reason, then what was built, for a report
        (directory / f"{name}.failed").write_text(f"{reason}\n{request['function']} for {request['kind']}\n")


def build(request: dict[str, Any]) -> None:
    """Compile one entry point for one kind of arguments into ``directory/name`` (the child's job)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc is pending deprecation: a build that fails falls back
        from numba.pycc import CC

    if request.get("releases_gil"):
        _releasing_the_gil()
    kernel = importlib.import_module(request["module"])
    arguments = [numba_type(item) for item in request["kind"][1]]
    signature = numba_type(request["returns"])(*arguments)
    directory, name = Path(request["directory"]), request["name"]
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        tempfile.tempdir = scratch  # numba leaves its compiler check's and build's folders: 900 in /tmp
        compiler = CC(name)
        compiler.output_dir = scratch
        compiler.target_cpu = "host"
        target = getattr(kernel, request["function"])
        compiler.export(request["function"], signature)(_forwarding(target, len(arguments)))
        compiler.compile()
        (built,) = Path(scratch).glob(f"{name}.*")
        os.replace(built, directory / f"{name}{SUFFIX}")  # whole or not at all, for a process loading it


def _releasing_the_gil() -> None:
    """Make pycc's wrappers release the GIL, as ``njit(nogil=True)`` does: its compiler takes no
    such option, so its flags are given it here, in the build's own child process."""
    from numba.pycc import compiler

    class Flags(compiler.Flags):  # type: ignore[misc]  # numba's flags class is read as untyped
        def __init__(self, *arguments: Any, **options: Any) -> None:
            super().__init__(*arguments, **options)
            self.release_gil = True

    compiler.Flags = Flags


def numba_type(kind: Any) -> Any:
    """The numba type of a kind (``entries.describe``; lists where JSON turned tuples into them)."""
    from numba.core import types as numba_types
    from numba.np.numpy_support import from_dtype

    types: Any = numba_types  # numba is read as untyped, its submodules as bare modules

    tag = kind[0]
    if tag == "array":
        _, dtype, ndim, layout, readonly, aligned = kind
        return types.Array(from_dtype(np.dtype(dtype)), ndim, layout, readonly=readonly, aligned=aligned)
    if tag == "tuple":
        return types.BaseTuple.from_types([numba_type(item) for item in kind[1]])
    if tag == "none":
        return types.none
    return from_dtype(np.dtype(kind[1]))


def _forwarding(target: Any, count: int) -> Callable[..., Any]:
    """A function of ``count`` arguments that calls ``target``: pycc cannot export a recursive
    function itself, but compiles one called from another."""
    names = ", ".join(f"a{index}" for index in range(count))
    namespace = {"target": target}
    exec(f"def forward({names}):\n    return target({names})\n", namespace)
    forward: Callable[..., Any] = namespace["forward"]
    return forward


if __name__ == "__main__":
    build(json.loads(sys.argv[1]))
