"""A flood of big requests against ``moocow serve``: the server's memory stays bounded and cheap
pages keep answering.

``REQUESTS`` visitors ask at once for the assistant on ``mastermind:pegs=7,colors=9`` (4.8 million
codes: unbounded, six at once took 18.9 s and 330 MB each in the server, 2 GB in all). Each is
refused with a one-line 503 or worked out in a worker process of the server's one queue
(``moocow.web.workers``: 2 at once, 8 waiting, 1.5 GiB of address space each). Throughout, a
cheap page (the assistant on Mastermind 4x6, one entry in) is asked for every 0.2 s. Measured:
the server process's peak resident memory, and that of the server with every process under it
(the fork server and the workers), against ``SERVER_BOUND`` and ``TREE_BOUND``; the cheap page's
median time during the flood against its time with the server idle (the ratio).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass

from bench.process import moocow_command
from bench.rows import Row, ratio

BIG = "/assist.json?game=mastermind:pegs=7,colors=9"
CHEAP = "/assist.json?game=mastermind&m=1122:1B1W&g=1344"
REQUESTS = 12
SERVER_BOUND = 300 << 20
"""Bytes the server process itself may reach: it never builds a big game."""
TREE_BOUND = SERVER_BOUND + (200 << 20) + 2 * (3 << 29)
"""Bytes for the server, the fork server and two workers at their limit."""


def fetched(address: str) -> tuple[int, float]:
    """The status of a GET and its seconds."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(address, timeout=600) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.perf_counter() - started


def resident(pid: int) -> int:
    """Resident bytes of one process (0 once gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        queue += children.get(current, [])
    return found


@dataclass(frozen=True)
class FloodWorkload:
    """Big requests at once against a real server, a cheap page asked throughout."""

    requests: int = REQUESTS
    quick: bool = False

    @property
    def name(self) -> str:
        return "flood of big requests to moocow serve"

    def run(self) -> list[Row]:
        process = subprocess.Popen(
            [*moocow_command(), "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
        )
        try:
            assert process.stdout is not None
            base = process.stdout.readline().split(" on ")[1].split()[0].rstrip("/")
            return [self._measured(base, process.pid)]
        finally:
            process.terminate()
            process.wait()

    def _measured(self, base: str, pid: int) -> Row:
        fetched(base + CHEAP)
        idle = statistics.median(fetched(base + CHEAP)[1] for _ in range(10))
        statuses: Counter[int] = Counter()
        cheap: list[tuple[int, float]] = []
        peaks = {"server": 0, "tree": 0}
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peaks["server"] = max(peaks["server"], resident(pid))
                peaks["tree"] = max(peaks["tree"], sum(resident(each) for each in descendants(pid)))
                time.sleep(0.05)

        def ask_cheap() -> None:
            while not done.is_set():
                cheap.append(fetched(base + CHEAP))
                time.sleep(0.2)

        def ask_big() -> None:
            statuses[fetched(base + BIG)[0]] += 1

        started = time.perf_counter()
        helpers = [threading.Thread(target=sample), threading.Thread(target=ask_cheap)]
        visitors = [threading.Thread(target=ask_big) for _ in range(self.requests)]
        for thread in [*helpers, *visitors]:
            thread.start()
        for thread in visitors:
            thread.join()
        done.set()
        for thread in helpers:
            thread.join()
        seconds = time.perf_counter() - started
        during = statistics.median(took for _, took in cheap)
        answered = all(status == 200 for status, _ in cheap)
        bounded = peaks["server"] <= SERVER_BOUND and peaks["tree"] <= TREE_BOUND
        shown = ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items()))
        return Row(
            workload=self.name,
            basis=f"{self.requests} x GET {BIG} at once, GET {CHEAP} every 0.2 s; "
            "baseline: the cheap page with the server idle (median of 10)",
            moocow_seconds=during,
            baseline_seconds=idle,
            ratio=ratio(idle, during),
            peak_rss=peaks["server"],
            result=(
                f"big: {shown} in {seconds:.0f} s; cheap: {len(cheap)} answered"
                f"{'' if answered else ' (NOT all 200)'}, median {during * 1000:.0f} ms, "
                f"worst {max(took for _, took in cheap) * 1000:.0f} ms; peak memory: server "
                f"{peaks['server'] >> 20} MB (bound {SERVER_BOUND >> 20}), with its workers "
                f"{peaks['tree'] >> 20} MB (bound {TREE_BOUND >> 20})"
            ),
            agree=answered and bounded,
            details={"statuses": dict(statuses), "cheap": cheap, "peaks": peaks},
        )
