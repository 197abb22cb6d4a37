"""The kernels' entry points as Python calls them, without loading numba where it can.

Each entry point is served, for each kind of arguments it is called with (``describe``), by a
module built ahead of time for that kind (``ahead``): loading one is quick and needs only
numpy. Where none can be built, numba serves it from its own cache (``loading``), as
before; that costs importing numba and starting its runtime, more than Mastermind's whole search.

Code built ahead of time reads its arguments as the types it was built for, without checking
them: an array of another type would be misread. So every call is described (a small cost beside
the call it guards), and a kind is only ever given code built for that kind.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

Kind = Hashable
"""What compiled code must know of its arguments (``describe``): nested tuples of strings,
numbers, booleans and numpy dtypes."""


def describe(value: Any) -> Kind:
    """The kind of a value as compiled code types it: an array's dtype, dimensions, layout and
    flags; a tuple's items; a number's type. ``TypeError`` for anything else."""
    if isinstance(value, np.ndarray):
        flags = value.flags
        layout = "C" if flags.c_contiguous else "F" if flags.f_contiguous else "A"
        return ("array", value.dtype, value.ndim, layout, not flags.writeable, flags.aligned)
    if isinstance(value, tuple):
        return ("tuple", tuple(map(describe, value)))
    if isinstance(value, (bool, np.bool_)):
        return ("scalar", "bool")
    if isinstance(value, int) and -(1 << 63) <= value < 1 << 63:
        return ("scalar", "int64")
    if isinstance(value, np.integer):
        return ("scalar", value.dtype.name)
    if value is None:
        return ("none",)
    raise TypeError(f"no compiled kind for {type(value).__name__}")


def array_kind(dtype: type, ndim: int) -> Kind:
    """The kind of a writable, C-ordered array, as compiled code returns them."""
    return describe(np.zeros((0,) * ndim, dtype=dtype))


class Entry:
    """One function of a kernel called from Python: ``function`` of ``module`` (its full name),
    returning ``returns`` (a kind: code built ahead of time declares it); ``releases_gil`` for one
    that runs long in a thread of its own while Python waits beside it. With ``ahead_of_time``
    off, numba serves every kind (the tests of that path turn it off, ``reset``). With
    ``numba_once_loaded``, a process that has loaded numba already (the greedy engine's kernels
    are numba's) builds nothing ahead of time for it: numba compiles it in seconds, where a build
    ahead of time takes tens of seconds to save the very import that process has made."""

    def __init__(
        self,
        module: str,
        function: str,
        returns: Kind,
        ahead_of_time: bool = True,
        releases_gil: bool = False,
        numba_once_loaded: bool = False,
    ) -> None:
        self.module = module
        self.function = function
        self.returns = returns
        self.releases_gil = releases_gil
        self.ahead_of_time = ahead_of_time
        """Whether kinds are served by modules built ahead of time where they can be."""
        self.numba_once_loaded = numba_once_loaded
        """Whether a process that has loaded numba serves a kind not yet built by numba, building nothing."""
        self._served: dict[Kind | None, Callable[..., Any]] = {}
        self._numba: Callable[..., Any] | None = None

    def __call__(self, *arguments: Any) -> Any:
        try:
            kind: Kind | None = describe(arguments)
        except TypeError:
            kind = None  # numba types it, or refuses it, itself
        compiled = self._served.get(kind)
        if compiled is None:
            compiled = self._served[kind] = self._serve(kind)
        return compiled(*arguments)

    @property
    def kinds(self) -> list[Kind | None]:
        """The kinds of arguments served so far in this process (``None``: ones numba typed)."""
        return list(self._served)

    def reset(self, ahead_of_time: bool = True) -> None:
        """Forget the code served so far, and serve each kind anew: ahead of time where it can be,
        or (off) by numba alone."""
        self._served = {}
        self.ahead_of_time = ahead_of_time

    def _serve(self, kind: Kind | None) -> Callable[..., Any]:
        """The code for ``kind``: built ahead of time if it can be (and ``ahead_of_time``), else numba's."""
        if kind is not None and self.ahead_of_time:
            from moocow.engine.kernel import ahead

            built = ahead.load(self, kind, build=not (self.numba_once_loaded and "numba" in sys.modules))
            if built is not None:
                return built
        return self.numba()

    def numba(self) -> Callable[..., Any]:
        """The function as numba serves it, its cache loaded directly (``loading.CachedCall``)."""
        if self._numba is None:
            from moocow.engine.kernel.loading import CachedCall

            kernel = importlib.import_module(self.module)
            self._numba = CachedCall(getattr(kernel, self.function))
        return self._numba


INT64 = ("scalar", "int64")
RELABEL = "moocow.engine.kernel.relabel"
FIXING = Entry(RELABEL, "fixing", returns=("tuple", (array_kind(np.intp, 2),) * 3), numba_once_loaded=True)
JOIN_IMAGES = Entry(RELABEL, "join_images", returns=array_kind(np.intp, 1), numba_once_loaded=True)
LOWERED = Entry(RELABEL, "lowered", returns=array_kind(np.bool_, 1), numba_once_loaded=True)
ENGINE_ENTRIES = (FIXING, JOIN_IMAGES, LOWERED)
"""The engine's functions Python calls: the loops ``engine.symmetry.GuessClasses`` runs over every
guess (``relabel``). The exact search's are in ``optimal.kernel.entries``. A tournament's minmax
calls them beside the greedy engine's numba kernels, so there numba serves them: built ahead of
time, they cost the README's first tournament a minute's build, said as the exact search's."""
