"""How far past each limit a player gets before the runner fouls it, at a load of 4 or more.

``python -m bench.referee_bounds [--rounds N] [--markdown FILE]``: four busy loops
(``python -c 'while 1: pass'``) load the machine; then, at each level it gives (``user`` as
Gradescope's containers have it: ``unshare -m``, a tmpfs over ``/sys/fs/cgroup``, ``setpriv
--bounding-set -sys_admin``; ``namespaces`` with a cgroup and without one), a player
(``players/over.py``) goes over one limit at the start of every round, N rounds each, and the row
gives what the runner recorded past the limit: worst and median over the rounds. Each level runs in
a child process of its own (``--inner LEVEL``), which plays the rounds with ``run_tournament`` and
notes, at each foul, the runner's own count (its stderr bytes, the seconds of the answer).

A wall-clock measure on purpose: the bound is what the runner lets through on a loaded machine,
not a speed. Disk at the ``user`` level is the folder watch's (``burst.py``): a burst of 12 files of
15 MB in a home, in a crowded folder anyone may write to, and behind 300 nested folders.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from bench import burst
from bench.isolate import ROOT
from moocow.runner.tournament import build_tournament, run_tournament
from moocow.sandbox import process, usage
from moocow.sandbox.fouls import Foul
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import Confinement, SandboxPolicy
from moocow.sandbox.usage import CgroupGroup

OVER = ROOT / "bench" / "players" / "over.py"
GAME = "mastermind:pegs=2,colors=2"
BUSY = 4
"""Busy loops beside the runner: a load of 4 or more on the 2-core machine."""
WIDE = {"guess_seconds": 60, "setup_seconds": 60, "forks": True}
"""Every limit but the one tried is wide: a CPU-second may take several on a loaded machine."""
DROPPED = ["setpriv", "--bounding-set", "-sys_admin"]
"""Root without ``CAP_SYS_ADMIN``, as Docker's default profile leaves it (the ``user`` level)."""
LEVELS = ("user", "namespaces, cgroup", "namespaces, no cgroup")


@dataclass(frozen=True)
class Resource:
    """One limit, the player that goes over it, and how far past it a foul's record says it got."""

    name: str
    mode: str
    limit: dict[str, Any]
    unit: str
    past: Callable[[str | None, str, dict[str, float]], float | str]
    """From a round's failure, reason and what the runner counted at the foul: how far past the limit
    (in ``unit``), or what stopped it instead (a word)."""


def _number(pattern: str, reason: str) -> float:
    found = re.search(pattern, reason)
    if found is None:
        raise ValueError(f"no {pattern!r} in {reason!r}")
    return float(found.group(1))


def _memory_past(failure: str | None, reason: str, counted: dict[str, float]) -> float | str:
    if "MemoryError" in reason:
        return "RLIMIT_AS"
    return _number(r"held (\d+) MB", reason) - 64


RESOURCES = (
    Resource("CPU", "spin", {"guess_cpu": 1}, "CPU s", lambda f, r, c: _number(r"used ([\d.]+) s", r) - 1),
    Resource("memory, 8 processes", "grab", {"memory_mb": 64}, "MB", _memory_past),
    Resource("memory, 1 process", "hog", {"memory_mb": 64}, "MB", _memory_past),
    Resource("output (stderr)", "flood", {"output_mb": 1}, "KiB", lambda f, r, c: c["stderr"] / 1024 - 1024),
    Resource("wall time", "hang", {"guess_seconds": 1}, "s", lambda f, r, c: c["seconds"] - 1),
    Resource("processes", "bomb", {"processes": 16}, "", lambda f, r, c: _number(r"bomb: (\d+)", r) - 16),
)  # fmt: skip


def counted_at_fouls() -> tuple[contextlib.AbstractContextManager[Any], list[dict[str, float]]]:
    """A patch of ``PlayerProcess.receive`` that notes, at each foul, the seconds the answer took
    and the stderr bytes the runner had counted; and the list it fills."""
    noted: list[dict[str, float]] = []
    receive = process.PlayerProcess.receive

    def watched(player: process.PlayerProcess, allowance: Any) -> str:
        started = time.monotonic()
        try:
            return receive(player, allowance)
        except Foul:
            noted.append({"seconds": time.monotonic() - started, "stderr": player._stderr.size})
            raise

    return mock.patch.object(process.PlayerProcess, "receive", watched), noted


def play(level: str, resource: Resource, rounds: int, python: str) -> list[float | str]:
    """``rounds`` rounds of the resource's player at ``level`` (in this process): how far past each got."""
    settings = {
        "players": [f"{python} {OVER} {resource.mode}"], "games": [GAME], "rounds": rounds, "seed": 1,
        "limits": Limits(**{**WIDE, **resource.limit}),
        "sandbox": SandboxPolicy(level=Confinement.USER if level == "user" else Confinement.NAMESPACES),
    }  # fmt: skip
    patch, noted = counted_at_fouls()
    with contextlib.ExitStack() as stack:
        stack.enter_context(patch)
        if level == "namespaces, no cgroup":
            stack.enter_context(mock.patch.object(CgroupGroup, "make", classmethod(lambda cls, *_: None)))
        results = run_tournament(build_tournament(settings)).results
    found: list[float | str] = []
    if len(noted) != len(results):  # a foul outside an answer: no count to pair with its round
        noted = [{} for _ in results]
    for result, counted in zip(results, noted, strict=True):
        try:
            found.append(resource.past(result.failure, result.reason or "", counted))
        except (KeyError, ValueError):
            found.append(f"{result.failure}: {result.reason}")
    return found


def inner(level: str, rounds: int, python: str) -> None:
    """Every resource at ``level``, printed as JSON: ``{resource: [past, ...]}``."""
    found = {resource.name: play(level, resource, rounds, python) for resource in RESOURCES}
    print(json.dumps(found))


def open_python() -> str:
    """A ``python3`` other users can run (the player's, at the ``user`` level too)."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.access(candidate, os.X_OK):
            return candidate
    return sys.executable


def at_level(level: str, rounds: int) -> dict[str, list[float | str]] | str:
    """The rounds of every resource at ``level``, in a child process: what each got past, or why not."""
    command = [sys.executable, "-m", "bench.referee_bounds", "--inner", level, "--rounds", str(rounds)]
    if level == "user":
        if shutil.which("unshare") is None or shutil.which("setpriv") is None or os.geteuid() != 0:
            return "needs root, unshare and setpriv"
        mounted = f"mount -t tmpfs none /sys/fs/cgroup && exec {shlex.join([*DROPPED, *command])}"
        command = ["unshare", "-m", "sh", "-c", mounted]
    folder = tempfile.mkdtemp(prefix="moocow-bounds-")
    os.chmod(folder, 0o755)
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run(
            command, cwd=folder, env=environment, capture_output=True, text=True, check=False
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if done.returncode != 0:
        return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
    return json.loads(done.stdout.strip().splitlines()[-1])


@contextlib.contextmanager
def busy_loops(count: int, seconds: float | None = None) -> Iterator[None]:
    """``count`` processes spinning, stopped at the end whatever happens (and each after ``seconds``
    of its own if given, should the stop never come: a test killed midway)."""
    spin = (
        "while 1: pass"
        if seconds is None
        else f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass"
    )
    loops = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def loaded(least: float, wait: float = 120.0) -> None:
    """Wait until the one-minute load average is ``least`` (it follows the busy loops a minute late),
    for at most ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while os.getloadavg()[0] < least and time.monotonic() < deadline:
        time.sleep(1)


def summary(values: list[float | str], unit: str) -> str:
    """Worst and median of the numbers, and how many rounds ended otherwise (what stopped them)."""
    numbers = [value for value in values if isinstance(value, float | int)]
    others = sorted({str(value) for value in values if not isinstance(value, float | int)})
    parts = []
    if numbers:
        parts.append(f"worst {max(numbers):+.2f} {unit}, median {statistics.median(numbers):+.2f} {unit}")
    if others:
        parts.append(f"{len(values) - len(numbers)} of {len(values)}: {'; '.join(others)[:200]}")
    return " (".join(parts) + (")" if len(parts) > 1 else "")


def table(
    found: dict[str, dict[str, list[float | str]] | str],
    rounds: int,
    load: list[float],
    disk: dict[str, list[float | str]],
) -> str:
    """A Markdown table: a row per resource, a column per level; the disk's cases (``user`` alone:
    at ``namespaces`` the tmpfs's size holds it exactly) a row each."""
    lines = [
        f"Past each limit over {rounds} rounds, load average {min(load):.1f} to {max(load):.1f} "
        f"({os.cpu_count()} cores, {BUSY} busy loops beside), {time.strftime('%d %B %Y')}:",
        "",
        "| resource | limit | " + " | ".join(found) + " |",
        "| --- | --- | " + " | ".join("---" for _ in found) + " |",
    ]
    for resource in RESOURCES:
        limit = ", ".join(f"{key}={value}" for key, value in resource.limit.items())
        cells = [
            summary(result[resource.name], resource.unit)
            if isinstance(result, dict)
            else f"not measured: {result}"
            for result in found.values()
        ]
        lines.append(f"| {resource.name} | {limit} | " + " | ".join(cells) + " |")
    for case, held in disk.items():
        cells = [summary(held, "MB") if level == "user" else "exact: the tmpfs's size" for level in found]
        lines.append(f"| disk, a burst: {case} | disk_mb=64 | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def resident_set(pid: int, fields: list[bytes]) -> int:
    """A process's resident set alone, as the census counted before proportional set sizes."""
    return int(fields[21]) * usage.PAGE_BYTES


def scan_cost(processes: int = 128, repeats: int = 9) -> str:
    """A census of ``processes`` children (each 4 MB of its own, and the pages it shares with this
    process) with proportional set sizes, against the same census with resident sets alone (as
    before), alternated in this process: medians and their ratio."""
    children = []
    for _ in range(processes):
        child = os.fork()
        if child == 0:
            held = bytearray(4 << 20)
            held[::4096] = b"\1" * len(held[::4096])
            time.sleep(600)
            os._exit(0)
        children.append(child)
    time.sleep(1)
    timed: dict[str, list[float]] = {"pss": [], "rss": []}
    try:
        for _ in range(repeats):
            for way in timed:
                with (
                    mock.patch.object(usage, "resident_bytes", resident_set)
                    if way == "rss"
                    else contextlib.nullcontext()
                ):
                    started = time.perf_counter()
                    usage.census(children)
                    timed[way].append(time.perf_counter() - started)
    finally:
        for child in children:
            os.kill(child, 9)
            os.waitpid(child, 0)
    pss, rss = statistics.median(timed["pss"]), statistics.median(timed["rss"])
    return (
        f"census of {processes} processes: {pss * 1e3:.1f} ms with Pss, "
        f"{rss * 1e3:.1f} ms with RSS alone (ratio {rss / pss:.2f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds per resource and level")
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    parser.add_argument("--scan", action="store_true", help="time a census of 128 processes instead")
    parser.add_argument("--inner", choices=LEVELS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.scan:
        print(scan_cost())
        return
    if args.inner:
        inner(args.inner, args.rounds, open_python())
        return
    load: list[float] = []
    found: dict[str, dict[str, list[float | str]] | str] = {}
    with busy_loops(BUSY):
        loaded(BUSY)
        for level in LEVELS:
            load.append(os.getloadavg()[0])
            print(f"{level}...", file=sys.stderr)
            found[level] = at_level(level, args.rounds)
            load.append(os.getloadavg()[0])
        print("disk...", file=sys.stderr)
        disk = burst.past_the_limit(args.rounds)
        load.append(os.getloadavg()[0])
    text = table(found, args.rounds, load, disk)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")


if __name__ == "__main__":
    main()
