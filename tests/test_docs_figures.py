"""The figures the pages show that come from the code are checked against what moocow prints.

A table preceded by ``<!-- docs-test: figures: KIND -->`` is a claim about moocow's results, and
this module checks every cell of it, so a change of the engine that moves a figure fails here
instead of leaving the page wrong (the README once showed 1/3/12/38/56/10 for five bottles, where
the optimal tree wins 1/4/12/35/58/10):

- ``evaluate``: a row per game, a column per strategy, each cell ``TOTAL / WORST`` as
  ``moocow evaluate GAME --strategy S --json`` prints them;
- ``optimal``: a row per game (its spec, then options such as ``--max-depth 5``), with the
  secrets, total, average, worst case and histogram ``moocow optimal GAME --json`` prints, and
  ``moocow evaluate GAME --strategy expected``'s total. A row whose proof takes minutes (over
  ``PROOF_BUDGET_SECRETS`` secrets) is checked for what is cheap: its histogram adds up to its
  secrets, total, average and worst case, and its heuristic's total is evaluated; its optimum is
  ``tests/test_optimal.py``'s (Bulls and Cows: ``test_bulls_and_cows_tanaka``).
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from tests.test_docs import MarkedTable, marked_tables

MARKER = re.compile(r"<!-- docs-test: figures: (?P<kind>\w+) -->")
PROOF_BUDGET_SECRETS = 1_296
"""Rows up to Mastermind 4x6 are proven here (a second or two each); 4x7 and Bulls and Cows take
from seconds to minutes, and tests/test_optimal.py proves them."""


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


TABLES = marked_tables(MARKER)


def number(text: str) -> float:
    """A figure as the page writes it (``**5,801**``, ``4.3403``)."""
    return float(text.replace("*", "").replace(",", ""))


def code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def run_json(*arguments: str) -> dict:
    result = CliRunner().invoke(app, [*arguments, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_pages_announce_their_figures() -> None:
    """The tables are found (a parser that found none would pass), with rows to check."""
    kinds = sorted(table.marker["kind"] for table in TABLES)
    assert kinds == ["evaluate", "optimal"]
    assert all(table.rows for table in TABLES)


def _rows(kind: str) -> list[tuple[MarkedTable, list[str]]]:
    return [(table, cells(row)) for table in TABLES if table.marker["kind"] == kind for row in table.rows]


EVALUATE = _rows("evaluate")
OPTIMAL = _rows("optimal")


@pytest.mark.parametrize(("table", "row"), EVALUATE, ids=[f"{t.name}:{r[0]}" for t, r in EVALUATE])
def test_evaluation_totals_are_what_moocow_prints(table: MarkedTable, row: list[str]) -> None:
    """Each cell ``TOTAL / WORST`` of a strategy on a game is what ``evaluate`` prints."""
    game = row[0].split()[0]
    for strategy, cell in zip(cells(table.header)[1:], row[1:], strict=True):
        total, worst = (int(number(part)) for part in cell.split("/"))
        printed = run_json("evaluate", game, "--strategy", strategy)
        assert (printed["total"], printed["worst"]) == (total, worst), f"{table.name}: {game} {strategy}"


@pytest.mark.parametrize(("table", "row"), OPTIMAL, ids=[f"{t.name}:{r[0]}" for t, r in OPTIMAL])
def test_proven_optima_are_what_moocow_prints(table: MarkedTable, row: list[str]) -> None:
    """Each row's optimum, average, worst case and histogram are those ``optimal`` prints."""
    column = dict(zip(cells(table.header), row, strict=True))
    spec, *options = code_spans(column["game"])
    secrets, total = int(number(column["secrets"])), int(number(column["optimal total"]))
    histogram = [int(count) for count in column["secrets won at guess 1, 2, 3, ..."].split("/")]
    shown = {
        "secrets": secrets,
        "total": total,
        "average": number(column["average"]),
        "worst": int(number(column["worst"])),
        "histogram": histogram,
    }
    if secrets <= PROOF_BUDGET_SECRETS:
        printed = run_json("optimal", spec, *(word for option in options for word in option.split()))
        assert printed["proven"], f"{table.name}: {spec} was not proven"
        assert {key: printed[key] for key in shown} == shown, f"{table.name}: {spec}"
    else:
        assert sum(histogram) == secrets and len(histogram) == shown["worst"]
        assert sum(guesses * count for guesses, count in enumerate(histogram, 1)) == total
        assert round(total / secrets, 4) == shown["average"]
    irving = run_json("evaluate", spec, "--strategy", "expected")
    assert irving["total"] == int(number(column["Irving"])), f"{table.name}: {spec} expected"
