"""The table people read (Markdown, so it pastes into the README as is) and the JSON machines read."""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench.measure import reset_peak
from bench.rows import Row

HEADER = ("workload", "basis", "moocow", "baseline", "ratio", "peak RSS", "result")


def table(rows: list[Row]) -> str:
    """A Markdown table: one line per row, columns as in ``HEADER``."""
    lines = [_line(HEADER), _line(tuple("---" for _ in HEADER))]
    lines += [_line(_cells(row)) for row in rows]
    return "\n".join(lines)


def to_json(rows: list[Row], argv: list[str]) -> dict[str, Any]:
    """The rows with what was run where: enough to compare two runs."""
    return {
        "command": ["python", "-m", "bench", *argv],
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "executable": sys.executable,
            "peak_rss_resettable": reset_peak(),
            "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        },
        "rows": [row.to_dict() for row in rows],
    }


def write_json(path: Path, rows: list[Row], argv: list[str]) -> None:
    """Write ``to_json`` to ``path``."""
    path.write_text(json.dumps(to_json(rows, argv), indent=2) + "\n")


def seconds(value: float | None, estimated: bool = False) -> str:
    """``0.071 s``, ``3.2 s``, ``512 s``, ``2.4 h``; ``~`` marks an extrapolation, ``-`` nothing."""
    if value is None:
        return "-"
    if value >= 100 * 3600:
        text = f"{value / 3600:,.0f} h"
    elif value >= 3 * 3600:
        text = f"{value / 3600:.1f} h"
    elif value >= 100:
        text = f"{value:,.0f} s"
    elif value >= 1:
        text = f"{value:.2f} s"
    else:
        text = f"{value:.3f} s"
    return "~" + text if estimated else text


def times(value: float | None) -> str:
    """A ratio: ``87x``, ``1,234x``, ``0.4x``; ``-`` when there is no baseline."""
    if value is None:
        return "-"
    return f"{value:,.0f}x" if value >= 10 else f"{value:.2g}x"


def megabytes(value: int | None) -> str:
    """Bytes as whole megabytes (2^20)."""
    return "-" if value is None else f"{value / 2**20:,.0f} MB"


def _cells(row: Row) -> tuple[str, ...]:
    mark = {True: "", False: " **DISAGREE**", None: ""}[row.agree]
    return (
        row.workload,
        row.basis,
        seconds(row.moocow_seconds),
        seconds(row.baseline_seconds, row.baseline_estimated),
        times(row.ratio),
        megabytes(row.peak_rss),
        row.result + mark,
    )


def _line(cells: tuple[str, ...]) -> str:
    return "| " + " | ".join(cells) + " |"
