"""A hash of the kernels' sources: what every compiled copy of them is checked against.

A compiled entry point carries the code of every function it calls, spread over the modules of
the kernel packages (the engine's, and the exact search's whose code calls the engine's), so an
edit to any of them makes every compiled copy stale: numba's cache (``loading``) and the
ahead-of-time modules (``ahead``) are both stamped with this hash. The modules that only call the
compiled code from Python are left out, so that an edit to them rebuilds nothing; any other
module of the packages counts, a new one included.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
"""The engine's kernel package: its cache of modules built ahead of time is here."""
PACKAGES = (PACKAGE, PACKAGE.parents[1] / "optimal" / "kernel", PACKAGE.parents[1] / "plugins" / "kernel")
"""Every folder of compiled code: the engine's kernels, the exact search's that inline them, and
the games' (Wordle's marks). Folders, not imports: the engine loads neither the search nor a game."""
CALLERS = frozenset({"__init__.py", "ahead.py", "entries.py", "masks.py", "set_store.py", "stamp.py"})
"""The package's modules that hold no compiled code and no number compiled into it."""


def compiled_sources() -> list[Path]:
    """The sources whose code or numbers are compiled: every module of the packages but ``CALLERS``."""
    return sorted(path for folder in PACKAGES for path in folder.glob("*.py") if path.name not in CALLERS)


def package_stamp() -> str:
    """A hash of the compiled sources, recomputed when any of them changes."""
    sources = compiled_sources()
    return _hash_sources(tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in sources))


@functools.cache
def _hash_sources(files: tuple[tuple[str, int, int], ...]) -> str:
    digest = hashlib.sha256()
    for path, _, _ in files:
        digest.update(Path(path).name.encode())
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()
