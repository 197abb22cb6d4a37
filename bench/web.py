"""The web page's two numbers: how soon ``moocow serve`` answers once started, and one step of
the assistant on each default game.

Start: the whole process, from spawning ``moocow serve --port 0`` to the first page answered,
against the floor of an interpreter importing what the server cannot do without (typer, numpy,
starlette, uvicorn, jinja2). A step: the assistant's JSON page for a position one entry in with a
guess tapped in (replay, count, list, suggestion and every score's count), through the app in
process, against the same work done by the library alone: the ratio is what the web layer costs.
"""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass

from bench.measure import median
from bench.process import moocow_command
from bench.rows import Row, ratio

FLOOR = ("typer", "numpy", "starlette.applications", "uvicorn", "jinja2")
"""What the server imports in any case."""
DEFAULT_GAMES = ("bottles", "bottles:n=7", "mastermind", "digits", "words")


def served_once() -> float:
    """Seconds from spawning ``moocow serve`` to its first page answered."""
    started = time.perf_counter()
    process = subprocess.Popen([*moocow_command(), "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        address = process.stdout.readline().split(" on ")[1].split()[0]
        with urllib.request.urlopen(address, timeout=60) as response:
            response.read()
        return time.perf_counter() - started
    finally:
        process.terminate()
        process.wait()


def floor_once() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import " + ", ".join(FLOOR)], check=True)
    return time.perf_counter() - started


@dataclass(frozen=True)
class ServeWorkload:
    """``moocow serve`` started and answering its first page, whole process."""

    repeats: int = 5
    quick: bool = True

    @property
    def name(self) -> str:
        return "web serve start"

    def run(self) -> list[Row]:
        served_once()  # caches warm
        runs, floors = [], []
        for _ in range(self.repeats):
            runs.append(served_once())
            floors.append(floor_once())
        seconds, floor = median(runs), median(floors)
        return [
            Row(
                workload=self.name,
                basis=f"spawn to first page answered; baseline: python -c 'import {', '.join(FLOOR)}'",
                moocow_seconds=seconds,
                baseline_seconds=floor,
                ratio=ratio(floor, seconds),
                peak_rss=None,
                result=f"first page in {seconds * 1000:.0f} ms",
                agree=None,
                details={"runs": runs, "floor_runs": floors},
            )
        ]


@dataclass(frozen=True)
class AssistStepWorkload:
    """One assistant step per default game through the app, against the library alone."""

    repeats: int = 20
    quick: bool = True

    @property
    def name(self) -> str:
        return "web assistant step"

    def run(self) -> list[Row]:
        from starlette.testclient import TestClient

        from moocow import api
        from moocow.web.app import create_app

        web = TestClient(create_app())
        rows = []
        for spec in DEFAULT_GAMES:
            assistant = api.assistant(spec)
            first = assistant.suggestion()
            value, _ = assistant.answers(assistant.game.guess_index(first))[0]
            entry = f"{first}:{assistant.game.format_feedback(value)}"
            assistant.record(first, assistant.game.format_feedback(value))
            typed = assistant.suggestion()
            params = {"game": spec, "m": entry, "g": typed}

            def page(params: dict[str, str] = params) -> None:
                response = web.get("/assist.json", params=params)
                assert response.status_code == 200, response.text

            def library(spec: str = spec, first: str = first, value: int = value, typed: str = typed) -> None:
                alone = api.assistant(spec)
                alone.record(first, alone.game.format_feedback(value))
                alone.possible_codes(20)
                alone.suggestion_note()
                alone.suggestion_is_possible()
                alone.answers(alone.game.guess_index(typed))

            page(), library()
            pages, alones = _timed(page, self.repeats), _timed(library, self.repeats)
            rows.append(
                Row(
                    workload=f"{self.name} {spec}",
                    basis=f"GET /assist.json one entry in, a guess tapped; baseline: the library alone, "
                    f"median of {self.repeats}",
                    moocow_seconds=pages,
                    baseline_seconds=alones,
                    ratio=ratio(alones, pages),
                    peak_rss=None,
                    result=f"{pages * 1000:.1f} ms a step (target: under 50 ms)",
                    agree=None,
                )
            )
        return rows


def _timed(work: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return median(times)
