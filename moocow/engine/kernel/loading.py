"""numba's cache for the compiled search: never stale, and loaded without numba's set-up.

Every function of the kernel is defined with ``njit`` from here: importing this module puts
numba's cache locators stamped by the package first, before any of them is defined.

Stamped by the package: numba checks a cached function against its own source file only, but
a compiled entry point carries the code of every function it calls, spread over this package's
modules; an edit to one would leave the others' cached entry points running the old code.
Functions defined here are therefore stamped with a hash of all the package's compiled
sources (``stamp``).

Loaded directly (``CachedCall``), where no module built ahead of time serves an entry point
(``entries``): before loading anything from its cache, numba refreshes its compiler's
registries, importing every implementation it has (as costly as ``import numba``, more than
Mastermind's whole search). Running code already compiled needs only numba's
runtime, so an entry point loads its cached code after starting the runtime alone, and falls
back to numba's own call (which refreshes, then compiles or loads) on any miss.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numba as nb
from numba import typeof
from numba.core import caching
from numba.core.compiler_lock import global_compiler_lock
from numba.core.runtime.nrt import rtsys
from numba.core.typing.typeof import Purpose

from moocow.engine.kernel.stamp import PACKAGES, package_stamp


def _stamped(base: type) -> type:
    """``base`` (a numba cache locator) for this package's functions, with the package's stamp."""

    class Stamped(base):  # type: ignore[valid-type,misc]
        def get_source_stamp(self) -> str:
            return package_stamp()

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if Path(py_file).resolve().parent not in PACKAGES:
                return None
            return super().from_function(py_func, py_file)

    Stamped.__name__ = Stamped.__qualname__ = f"Package{base.__name__}"
    return Stamped


LOCATORS = tuple(
    _stamped(base)
    for base in (caching.UserProvidedCacheLocator, caching.InTreeCacheLocator, caching.UserWideCacheLocator)
)
"""numba's three locators of a source file's cache, in numba's order, with the package's stamp."""


def install() -> None:
    """Put ``LOCATORS`` first among numba's (once): to run before this package's functions are defined."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.61
    present = impl._locator_classes
    if not any(locator in present for locator in LOCATORS):
        impl._locator_classes = [*LOCATORS, *present]


install()

njit = functools.partial(nb.njit, cache=True)
"""numba's ``njit``, cached under the package's stamp: how every function of the kernel is defined."""


class CachedCall:
    """A compiled function called from Python, its cached code loaded without numba's set-up."""

    def __init__(self, dispatcher: Any) -> None:
        self.dispatcher = dispatcher
        self._tried = False
        self.__doc__ = dispatcher.__doc__

    def __call__(self, *args: Any) -> Any:
        if not self._tried:
            self._tried = True
            self.load(args)
        return self.dispatcher(*args)

    def load(self, args: tuple) -> bool:
        """Load the cached code for these arguments' types, if there is any; whether it is loaded.

        Reaches into numba (the dispatcher's cache, its runtime): when those differ in another
        numba version, nothing is loaded here and numba's own call does it all.
        """
        dispatcher = self.dispatcher
        try:
            signature = tuple(typeof(value, Purpose.argument) for value in args)
            if signature in dispatcher.overloads:
                return True
            context = dispatcher.targetctx
            with global_compiler_lock:
                rtsys.initialize(context)
                compiled = dispatcher._cache._load_overload(signature, context)
                if compiled is None:
                    return False
                dispatcher.add_overload(compiled)
        except Exception:  # numba's internals changed: its own call path loads or compiles
            return False
        return True
