"""The limits a player process runs under, and the allowance it has for its next answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from moocow.engine.errors import MoocowError

MB = 1 << 20
LONGEST_SECONDS = 10_000_000.0
"""The largest time limit (about 116 days): larger ones overflow the kernel's timers and rlimits."""
LARGEST_WHOLE = (1 << 31) - 1
"""The largest whole-number limit (sizes in MB or bytes stay within the kernel's rlimits)."""
YES, NO = ("yes", "true", "on", "1"), ("no", "false", "off", "0")
"""How a switch's value (``forks``) may be written after ``--limit KEY=``."""
MOST_PROCESSES = 1 << 22
"""The kernel's most processes (``PID_MAX_LIMIT``): ``pids.max`` refuses more."""
BACKSTOP = 3
"""How many times its CPU limit a wall-clock limit is at least, where a table or options give the
CPU limit alone (and by default): a player using all its CPU time still meets the CPU limit first
on a machine loaded up to three runnable processes per core."""
PAIRS = (("guess_cpu", "guess_seconds"), ("round_cpu", "round_seconds"))
"""Each CPU limit and the wall-clock limit that backs it up."""


@dataclass(frozen=True)
class Limits:
    """Per-guess, per-round and per-process limits for players outside the engine.

    Wall-clock limits count only the time the runner waits for the player; CPU limits count the
    player process's own CPU time (Linux: read from ``/proc``, with the kernel's ``RLIMIT_CPU`` as
    a backstop). Zero for ``memory_mb`` or ``output_mb`` means no limit.

    A busy player meets its CPU limit, which a loaded machine does not move; the wall-clock limits
    are a backstop at least ``BACKSTOP`` times as long, for a player that waits (a hang, a sleep).
    Wall-clock time depends on load: with the two equal, a player near the limit lost its round on
    a loaded worker and kept it on an idle one.
    """

    guess_seconds: float = 30.0
    """Wall-clock time to answer one message (a backstop: see ``guess_cpu``)."""
    guess_cpu: float = 10.0
    """CPU seconds to answer one message: the limit a busy player meets."""
    round_seconds: float = 180.0
    """Wall-clock time over all the guesses of one round (a backstop: see ``round_cpu``)."""
    round_cpu: float = 60.0
    """CPU seconds over one round."""
    setup_seconds: float = 60.0
    """Wall-clock (and CPU) time to start and answer the handshake, initialisation included."""
    memory_mb: int = 2048
    """Address space of each player process (``RLIMIT_AS``; JVMs need more than they use), and
    resident memory of all its processes together."""
    output_mb: int = 16
    """Bytes the player may write to stderr and to files (``RLIMIT_FSIZE``)."""
    line_bytes: int = 65536
    """Longest line the player may send."""
    processes: int = 128
    """Processes and threads the player may run at once (``RLIMIT_NPROC`` of its user, ``pids.max``)."""
    disk_mb: int = 64
    """Size of the sandbox's private tmpfs, its home and temp (bubblewrap); at the ``user`` level,
    what the files of the player's user id may hold together (``disk.py``); not held unconfined."""
    files: int = 4096
    """At the ``user`` level, the files and folders the player's user id may hold in its home and
    where anyone may write, its home included: the bound on what each look at them costs
    (``watch.py``). At ``namespaces`` its tmpfs holds ``disk_mb`` alone."""
    forks: bool = False
    """Whether the player may start processes where no cgroup counts their CPU time (the ``user``
    level): a child the kernel reaps at once takes its time with it, so by default the seccomp
    filter refuses making one there (``new_processes.py``). Threads, and processes where a cgroup
    counts them, are always allowed."""

    def __post_init__(self) -> None:
        for field in fields(self):
            if isinstance(field.default, bool):
                if not isinstance(getattr(self, field.name), bool):
                    raise MoocowError(
                        f"limit {field.name} must be true or false, not {getattr(self, field.name)!r}"
                    )
                continue
            _check(field.name, getattr(self, field.name), whole=isinstance(field.default, int))
        times = (self.guess_seconds, self.guess_cpu, self.round_seconds, self.round_cpu, self.setup_seconds)
        if min(*times, self.line_bytes, self.processes, self.disk_mb, self.files) <= 0:
            raise MoocowError("time limits, line_bytes, processes, disk_mb and files must be positive")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Limits:
        """Limits from a TOML table or options, defaults for what is left out; unknown keys are errors.
        A CPU limit given without its wall-clock one has that at ``BACKSTOP`` times it, or the
        default if longer: giving ``guess_cpu`` never shortens ``guess_seconds``."""
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise MoocowError(f"unknown limit {unknown[0]!r} (known: {', '.join(sorted(known))})")
        given = dict(values)
        defaults = cls()
        for cpu, wall in PAIRS:
            value = given.get(cpu)
            if wall not in given and isinstance(value, int | float) and not isinstance(value, bool):
                given[wall] = max(getattr(defaults, wall), min(BACKSTOP * value, LONGEST_SECONDS))
        return cls(**given)

    @classmethod
    def from_options(cls, options: Sequence[str], base: Mapping[str, Any] | None = None) -> Limits:
        """Limits from ``KEY=VALUE`` options (``guess_seconds=2``) laid over ``base`` (a TOML table)."""
        kinds: dict[str, type] = {field.name: type(field.default) for field in fields(cls)}
        values = dict(base or {})
        for option in options:
            key, equals, text = option.partition("=")
            key = key.strip()
            if not equals or key not in kinds:
                raise MoocowError(f"--limit {option!r}: expected KEY=VALUE, KEY one of {', '.join(kinds)}")
            try:
                values[key] = _yes_or_no(text.strip()) if kinds[key] is bool else kinds[key](text.strip())
            except ValueError:
                if kinds[key] is bool:
                    raise MoocowError(f"--limit {option!r}: {text.strip()!r} is not yes or no") from None
                number = "a whole number" if kinds[key] is int else "a number"
                raise MoocowError(f"--limit {option!r}: {text.strip()!r} is not {number}") from None
        return cls.from_mapping(values)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for the results file's header)."""
        return asdict(self)


def shown_limit(value: float | bool) -> str:
    """A limit's value as ``--limit`` takes it: ``2``, ``0.5``, ``yes``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:g}"


def _yes_or_no(text: str) -> bool:
    """A switch's value as a person writes it: one of ``YES`` or ``NO``."""
    if text.lower() in YES:
        return True
    if text.lower() in NO:
        return False
    raise ValueError(text)


def _check(name: str, value: Any, whole: bool) -> None:
    """A limit is a finite number in range (a NaN once switched the timeouts off), whole where it
    counts bytes or processes."""
    kinds = int if whole else int | float
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise MoocowError(f"limit {name} must be a {'whole ' if whole else ''}number, not {value!r}")
    largest = (MOST_PROCESSES if name == "processes" else LARGEST_WHOLE) if whole else LONGEST_SECONDS
    if not 0 <= value <= largest:  # False for NaN
        raise MoocowError(f"limit {name} must be between 0 and {largest:,.0f}, not {value!r}")


@dataclass(frozen=True)
class Allowance:
    """How long a player may take for its next answer, and which limit says so."""

    seconds: float
    """Wall-clock seconds from now."""
    seconds_rule: str
    """The binding wall-clock limit, for the reason, e.g. ``30 s per guess``."""
    cpu: float | None = None
    """CPU seconds from now (``None``: not checked)."""
    cpu_rule: str = ""
    """The binding CPU limit, for the reason."""


def tighter(per_answer: float, answer_rule: str, left: float, left_rule: str) -> tuple[float, str]:
    """The smaller of a per-answer limit and what is left of a larger budget, with its rule."""
    return (per_answer, answer_rule) if per_answer <= left else (max(left, 0.0), left_rule)
