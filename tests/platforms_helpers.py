"""What the platforms' own readers do with moocow's output, written from their documentation and
sources: GitHub Classroom's grading reporter and PrairieLearn's results.json."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).parent / "platforms_golden"
REPORTER_TEST = {"name": str, "status": str, "score": int | float, "message": str}
"""A test as classroom-resources/autograding-grading-reporter reads it (src/console-results.js,
src/notify-classroom.js); its graders add test_code, filename, line_no, execution_time, which it ignores."""
PRAIRIELEARN_TOP = {
    "gradable": bool, "score": int | float, "format_errors": dict | list, "message": str, "output": str,
    "images": list, "tests": list, "succeeded": bool,
}  # fmt: skip
PRAIRIELEARN_TEST = {
    "name": str, "description": str, "points": int | float, "max_points": int | float,
    "message": str, "output": str,
}  # fmt: skip
"""PrairieLearn's docs/externalGrading.md: the fields of results.json and of each of its tests."""


def reporter_runners(environment: dict[str, str], runners: str) -> list[dict[str, Any]]:
    """The reporter's parseRunnerResults: for each runner id, base64 JSON in ``<ID>_RESULTS``."""
    found = []
    for runner in runners.split(","):
        encoded = environment[f"{runner.strip().upper()}_RESULTS"]
        found.append(json.loads(base64.b64decode(encoded, validate=True).decode("utf-8")))
    return found


def reporter_points(results: list[dict[str, Any]]) -> tuple[float, float]:
    """The reporter's NotifyClassroom: every test's score added up, against every max_score."""
    total = most = 0.0
    for one in results:
        if not one.get("max_score"):
            continue
        most += one["max_score"]
        total += sum(test["score"] for test in one["tests"])
    return total, most


def check_reporter_results(results: dict[str, Any], per_round: bool = True) -> None:
    """The shape the reporter reads: a status, a max_score, tests with name, status, score, message;
    ``per_round``: its summary table (tests passed, of max_score) agrees with the grade it sends."""
    assert results["status"] in ("pass", "fail", "error") and isinstance(results["max_score"], int | float)
    for test in results["tests"]:
        assert set(test) == set(REPORTER_TEST), test
        assert all(isinstance(test[key], kind) for key, kind in REPORTER_TEST.items())
        assert test["status"] in ("pass", "fail", "error")
    if not per_round:
        return
    passed = sum(test["status"] == "pass" for test in results["tests"])
    table = passed / len(results["tests"]) * results["max_score"]  # the reporter's summary table
    assert table == reporter_points([results])[0]


def check_prairielearn(results: dict[str, Any]) -> None:
    """Only PrairieLearn's fields, with their types; a score in [0, 1]; tests' points within their
    max; the fields of moocow's results those of the golden file, written from PrairieLearn's docs."""
    golden = json.loads((GOLDEN / "prairielearn.json").read_text())
    for key, value in results.items():
        assert key in PRAIRIELEARN_TOP and isinstance(value, PRAIRIELEARN_TOP[key]), key
        assert key in golden, key
    assert 0 <= results["score"] <= 1
    for test in results.get("tests", []):
        for key, value in test.items():
            assert key in PRAIRIELEARN_TEST and isinstance(value, PRAIRIELEARN_TEST[key]), key
            assert key in golden["tests"][0], key
        assert 0 <= test.get("points", 0) <= test.get("max_points", 0)
