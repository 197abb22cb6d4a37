"""Strategies compared on the web: evaluations away from the server, progress, histograms as
SVG, and the cost model's refusal."""

from __future__ import annotations

import time

import pytest

from moocow import api
from moocow.web import jobs, workers
from tests.web_helpers import client

FIVE = {"game": "bottles:n=5", "s": ["minmax", "entropy"]}


def test_evaluations_run_away_from_the_request_and_end_as_the_librarys() -> None:
    """The first answer comes before the evaluations end, showing progress; polled, the page ends
    with each strategy's total, worst case and histogram, exactly the library's, drawn as SVG."""
    web = client()
    first = web.get("/evaluate", params=FIVE)
    assert first.status_code == 200 and "<progress" in first.text and 'hx-trigger="every' in first.text
    for _ in range(600):
        data = web.get("/evaluate.json", params=FIVE).json()
        if data["finished"]:
            break
        time.sleep(0.2)
    assert data["finished"] and data["poll"] is None
    for shown, spec in zip(data["strategies"], FIVE["s"], strict=True):
        expected = api.evaluate("bottles:n=5", spec).to_dict()
        assert shown["state"] == "done"
        for key in ("total", "worst", "histogram", "secrets"):
            assert shown["result"][key] == expected[key]
    bars = data["chart"]["bars"]
    assert len(bars) == sum(len(s["result"]["histogram"]) for s in data["strategies"])
    page = web.get("/evaluate", params=FIVE).text
    assert "<svg" in page and page.count("<rect") == len(bars)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"game": "bottles:n=8"}, "would take about"),
        ({"game": "mastermind", "s": ["minmax"] * 5}, "at most 4 strategies"),
        ({"game": "mastermind", "s": "tree:/etc/passwd"}, "reads a file"),
        ({"game": "mastermind", "s": "nosuch"}, "unknown strategy"),
        ({"game": "nosuch"}, "unknown game"),
    ],
)
def test_refusals_are_one_line_with_status_400(params: dict[str, object], message: str) -> None:
    """Past the cost model's limit (with its estimate), too many strategies, a file, a typo."""
    response = client().get("/evaluate.json", params=params)
    assert response.status_code == 400 and message in response.json()["error"]


def test_the_estimate_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal carries the model's reason, as the CLI's note does."""
    error = client().get("/evaluate.json", params={"game": "bottles:n=8"}).json()["error"]
    assert "40,320 secrets" in error and "moocow evaluate runs it" in error


def test_too_many_waiting_evaluations_are_refused() -> None:
    """The work queued by requests is bounded."""
    with pytest.raises(workers.Busy, match="the server is busy"):
        jobs.Jobs(workers.ProcessQueue(running=0, waiting=0)).get("mastermind", "minmax")


def test_the_estimate_reads_as_words_in_one_parenthesis() -> None:
    """It read "(1.6e+09 pairs a level, ... from a 1.6 GB table in memory))"."""
    error = client().get("/evaluate.json", params={"game": "bottles:n=8"}).json()["error"]
    assert "1.6 billion pairs a level" in error and "e+" not in error
    assert error.count("(") == error.count(")") == 1
