"""The engine's switches: which scoring path it takes, and how many bytes a feedback table may hold.

They are read from the environment once, on first use (``MOOCOW_ENGINE``, ``MOOCOW_TABLE_BUDGET``),
and kept for the process in ``SWITCHES``: reading them at every scoring cost a lookup each time, and a
program that meant to change one (the web's worker processes, bounding their tables) wrote
``os.environ`` to pass it on. A program or a test changes them with ``switched``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace

from moocow.engine.errors import MoocowError

ENGINE_VARIABLE = "MOOCOW_ENGINE"
"""``numpy`` or ``compiled`` forces either scoring path (tests and ``bench`` compare them)."""
ENGINES = ("numpy", "compiled")
"""The values ``MOOCOW_ENGINE`` may take; unset or empty chooses by the work."""
BUDGET_VARIABLE = "MOOCOW_TABLE_BUDGET"
"""The environment variable that sets a table's budget, in bytes."""
DEFAULT_BUDGET = 2 * 2**30
"""Bytes a table may hold in memory unless ``MOOCOW_TABLE_BUDGET`` says otherwise: 8 bottles' table fits."""


@dataclass(frozen=True)
class Switches:
    """What the environment (or a program) set."""

    engine: str | None = None
    """The scoring path forced (one of ``ENGINES``), or ``None``: chosen by the work."""
    table_budget: int = DEFAULT_BUDGET
    """Bytes a feedback table may hold in memory; a larger one is computed in blocks as needed."""

    def __post_init__(self) -> None:
        if self.engine is not None and self.engine not in ENGINES:
            raise MoocowError(f"the engine must be {' or '.join(ENGINES)} (or none), not {self.engine!r}")
        if self.table_budget < 0:
            raise MoocowError(f"a table's budget must be 0 bytes or more, not {self.table_budget}")

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Switches:
        """The switches the variables set; a value mistyped is one line naming the variable (``gpu``
        once looked as if it worked)."""
        engine = environ.get(ENGINE_VARIABLE, "").strip()
        if engine and engine not in ENGINES:
            raise MoocowError(f"{ENGINE_VARIABLE} must be {' or '.join(ENGINES)} (or unset), not {engine!r}")
        text = environ.get(BUDGET_VARIABLE, "")
        digits = text.strip().replace("_", "")
        if digits and not (digits.isascii() and digits.isdigit() and len(digits) <= 30):
            raise MoocowError(f"{BUDGET_VARIABLE} must be a whole number of bytes, 0 or more, not {text!r}")
        return cls(engine or None, int(digits) if digits else DEFAULT_BUDGET)


class ProcessSwitches:
    """The process's switches: read from the environment on first use, then kept until changed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current: Switches | None = None

    @property
    def current(self) -> Switches:
        """The switches in force (a mistyped variable is refused here, and again on the next look)."""
        current = self._current
        if current is None:
            with self._lock:
                current = self._current = self._current or Switches.from_environment()
        return current

    def set(self, switches: Switches | None) -> None:
        """Use ``switches`` from now on; ``None`` reads the environment again on next use."""
        with self._lock:
            self._current = switches

    def change(self, **changes: str | int | None) -> Switches:
        """Change some switches from now on (``change(engine="numpy")``, ``change(engine=None)``
        for the automatic choice); the switches now in force."""
        now = replace(self.current, **changes)  # type: ignore[arg-type]  # a field of another type is refused
        self.set(now)
        return now


SWITCHES = ProcessSwitches()
"""The switches of this process (``engine.table`` reads them)."""


@contextmanager
def switched(**changes: str | int | None) -> Iterator[Switches]:
    """The switches changed for a block and put back after it (``ProcessSwitches.change``)."""
    before = SWITCHES.current
    try:
        yield SWITCHES.change(**changes)
    finally:
        SWITCHES.set(before)
