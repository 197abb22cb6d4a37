"""One line of the benchmark table: a workload, moocow against its baseline, and what both computed."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Row:
    """moocow and the baseline on the same work, measured in the same process."""

    workload: str
    """What was run, e.g. ``evaluate minmax bottles:n=7``."""
    basis: str
    """What both sides did: ``all 5,040 secrets``, ``8 sampled secrets``, ``200 rounds``."""
    moocow_seconds: float | None
    """moocow's time (median of the repeats); ``None``: the workload failed."""
    baseline_seconds: float | None
    """The baseline's time on the same basis; ``None``: there is no baseline."""
    ratio: float | None
    """``baseline_seconds / moocow_seconds``: how many times faster moocow is."""
    peak_rss: int | None
    """The most memory moocow held during its runs, in bytes (the whole process, interpreter included)."""
    result: str
    """What was computed, for people; the baseline computed the same where ``agree`` is true."""
    agree: bool | None
    """Whether the baseline's results equal moocow's (``None``: nothing to compare)."""
    baseline_estimated: bool = False
    """Whether ``baseline_seconds`` is extrapolated from a sample (stated in ``basis``)."""
    details: dict[str, Any] = field(default_factory=dict)
    """Everything else worth keeping: repeats, per-secret times, sample, counters."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Row:
        """Read back what ``to_dict`` wrote."""
        return cls(**data)


def ratio(baseline: float | None, moocow: float) -> float | None:
    """How many times faster moocow is, when there is a baseline."""
    if baseline is None or moocow <= 0:
        return None
    return baseline / moocow
