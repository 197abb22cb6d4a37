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

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, overload

import numba as nb
import numpy as np
from numba import typeof
from numba.core import caching
from numba.core.compiler_lock import global_compiler_lock
from numba.core.runtime.nrt import rtsys
from numba.core.typing.typeof import Purpose

from moocow.engine.kernel.stamp import PACKAGES, package_stamp


def _stamped(base: type) -> type:
    """``base`` (a numba cache locator) for this package's functions, with the package's stamp."""

    class Stamped(base):  # type: ignore[misc]  # numba's locator classes are untyped
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

F = TypeVar("F", bound=Callable[..., Any])
Index = int | np.int64
"""A whole number a kernel is given: Python's from a caller, numpy's inside compiled code (where
a recursive call must keep its entry's types)."""


@overload
def njit(function: F, /) -> F: ...
@overload
def njit(**options: Any) -> Callable[[F], F]: ...
def njit(function: F | None = None, /, **options: Any) -> F | Callable[[F], F]:
    """numba's ``njit``, cached under the package's stamp: how every function of the kernel is
    defined. Typed as the function it compiles, so a caller is checked against its Python
    signature (numba's own hints type the result as a wrapper no argument list fits)."""
    if function is None:
        decorate: Callable[[F], F] = nb.njit(cache=True, **options)
        return decorate
    compiled: F = nb.njit(function, cache=True)
    return compiled


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

    def load(self, args: tuple[Any, ...]) -> bool:
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
