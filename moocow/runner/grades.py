"""A tournament's grades, one row a player: what an instructor joins with a roster.

The rows are the leaderboard over all games (``leaderboard.standings``, so the ranks are the
page's), each with who its player said it was (``student_id()`` and ``author()``, recorded in the
results file) and its lost rounds counted by kind. ``moocow export`` writes them as CSV or JSON,
and the results page links to the same CSV (``/results/N.csv``): one function makes both.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from moocow.referee.protocol import Identity
from moocow.runner.leaderboard import standings
from moocow.runner.results import RoundResult

FIELDS = (
    "rank", "name", "student_id", "author", "rounds", "total", "average", "worst", "failures",
    "failure_kinds",
)  # fmt: skip
"""The columns, in order: the CSV's header and each JSON row's keys."""
FORMATS = ("csv", "json")
"""What ``moocow export --format`` writes."""


def grade_rows(results: Iterable[RoundResult], identities: Mapping[str, Identity]) -> list[dict[str, Any]]:
    """One row a player, best first: rank, name, student id, author, rounds, total, average
    (to 3 places, as the page), worst, failures and their kinds (``crash: 3, timeout: 1``)."""
    played = list(results)
    kinds: dict[str, Counter[str]] = {}
    for result in played:
        if result.failure is not None:
            kinds.setdefault(result.player, Counter())[result.failure] += 1
    rows = []
    for rank, standing in enumerate(standings(played), 1):
        who = identities.get(standing.player, Identity())
        counted = kinds.get(standing.player, Counter())
        rows.append(
            {
                "rank": rank,
                "name": standing.player,
                "student_id": who.student_id,
                "author": who.author,
                "rounds": standing.rounds,
                "total": standing.total,
                "average": round(standing.average, 3),
                "worst": standing.worst,
                "failures": standing.failed,
                "failure_kinds": ", ".join(f"{kind}: {count}" for kind, count in sorted(counted.items())),
            }
        )
    return rows


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP's CSV injection)."""


def grades_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as CSV, a header first. A student's text that a spreadsheet would run as a formula
    (a name or an author starting ``=``) is written after a ``'``, as OWASP advises."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({name: _cell(value) for name, value in row.items()})
    return buffer.getvalue()


def _cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
