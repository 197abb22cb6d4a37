"""Wordle's exact search side by side with Alex Selby's C++ solver (``wordle.cpp``, alex1770/wordle).

Each side proves the best total after one opening within six guesses, as a whole process on the
official lists: ``moocow optimal wordle:list=official --first OPENING --max-depth 6 --workers 1 --json``
against ``wordle -a ALL -h HIDDEN -w OPENING`` (``-H`` for hard mode), alternated, after one
untimed run of each (numba's cache, the disk's). Times are CPU seconds (user and system, from
``os.wait4``): on this shared machine another job inflates wall-clock time, much less CPU time.
The ratio is his time over moocow's: the target is at least 0.5 (moocow within twice his time).

The rows named ``LATEST`` read his repository's own lists instead (his solver's defaults: the
2023 answers, 3,158, and the 2022 guesses, 14,855), from the folder of his executable, which is
where his repository builds it; among them an opening after which no strategy meets six guesses in
hard mode (AAHED), a proof that most of its time must show nothing fits.

His solver is not part of moocow: build it yourself from his repository
(``g++ -std=c++17 -O3 -march=native -DCOMMITDESC='"..."' -o wordle wordle.cpp``) outside this
checkout and name the executable in ``MOOCOW_SELBY_WORDLE``. Without it, or without the official
lists (the ``wordle`` extra), the row says so and times moocow alone, or nothing. The word lists
he reads are written from the lists moocow reads, to a temporary folder, never kept.

``WholeGameRate`` measures the proof over every opening instead: it runs for a while on a fresh
store, is stopped as Ctrl-C stops it, and reports openings settled an hour and how many have a
bound below the best found (those a proof must settle).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.measure import median
from bench.process import Timed, moocow_command, run_process
from bench.rows import Row, ratio
from moocow.engine.errors import MoocowError
from moocow.plugins import load_game

SOLVER_VARIABLE = "MOOCOW_SELBY_WORDLE"
"""The path of Selby's built ``wordle`` executable."""
GAME = "wordle:list=official"
LISTS = {"LATEST": ("wordlist_nyt20230701_hidden", "wordlist_nyt20220830_all")}
"""His repository's lists by name: the answers' file, then every guess's (his solver's defaults)."""
NONE_MEETS = 1_000_000_000
"""What his solver prints for an opening after which no strategy meets the limit."""


def solver() -> tuple[Path | None, str]:
    """Selby's executable, or why there is none."""
    named = os.environ.get(SOLVER_VARIABLE, "").strip()
    if not named:
        return None, f"Selby's solver skipped: {SOLVER_VARIABLE} does not name his built wordle"
    path = Path(named)
    if not (path.is_file() and os.access(path, os.X_OK)):
        return None, f"Selby's solver skipped: {named} is not an executable file"
    return path, ""


def write_lists(folder: Path) -> tuple[Path, Path]:
    """The official answers and every guess, one word a line, as his solver reads them."""
    game = load_game(GAME)
    hidden, every = folder / "hidden", folder / "all"
    hidden.write_text("".join(game.format_code(code) + "\n" for code in game.secrets))
    every.write_text("".join(game.format_code(code) + "\n" for code in game.guesses))
    return hidden, every


def his_total(output: str) -> int:
    """The total his solver proved ("Best first guess score = 7920")."""
    for line in output.splitlines():
        if line.startswith("Best first guess score"):
            return int(line.rsplit("=", 1)[1])
    raise RuntimeError(f"no score in Selby's output: {output[-200:]!r}")


@dataclass(frozen=True)
class SelbyWorkload:
    """One opening, normal or hard mode: moocow's proof against Selby's, whole processes."""

    opening: str
    hard: bool = False
    repeats: int = 3
    quick: bool = False
    lists: str | None = None
    """His repository's lists instead of the official ones: ``LATEST`` names his defaults, the
    2023 answers (3,158) and the 2022 guesses (14,855), read from the folder of his executable."""

    @property
    def name(self) -> str:
        lists = f" {self.lists}" if self.lists else ""
        return f"optimal wordle {self.opening}{' hard' if self.hard else ''}{lists} against selby"

    def run(self) -> list[Row]:
        basis = f"proof after {self.opening.upper()}, at most 6 guesses, whole process, CPU seconds"
        path, reason = solver()
        if self.lists is not None:
            if path is None:
                return [Row(self.name, basis, None, None, None, None, f"skipped: {reason}", None)]
            hidden_file, every_file = (path.parent / name for name in LISTS[self.lists])
            basis = f"{basis}; his lists {hidden_file.name} and {every_file.name}"
            spec = f"wordle:answers={hidden_file},guesses={every_file}"
        else:
            spec = GAME
        spec += ",hard=true" if self.hard else ""
        one_core = ("--workers", "1")  # his solver runs on one core: CPU seconds against CPU seconds
        command = (
            *moocow_command(),
            "optimal",
            spec,
            "--first",
            self.opening,
            "--max-depth",
            "6",
            *one_core,
            "--json",
        )
        try:
            load_game(spec)
        except MoocowError as error:
            return [Row(self.name, basis, None, None, None, None, f"skipped: {error}", None)]
        with tempfile.TemporaryDirectory() as scratch:
            his: tuple[str, ...] = ()
            if path is not None:
                hidden, every = (
                    write_lists(Path(scratch)) if self.lists is None else (hidden_file, every_file)
                )
                his = (str(path), "-a", str(every), "-h", str(hidden), "-w", self.opening)
                his += ("-H",) if self.hard else ()
            ours, theirs = self._alternate(command, his)
        total = json.loads(ours[0].output)["total"] or NONE_MEETS
        mine = median([run.cpu for run in ours])
        baseline = median([run.cpu for run in theirs]) if theirs else None
        shown = "no strategy within 6" if total == NONE_MEETS else f"total {total:,}"
        result = shown + (f"; {reason}" if reason else "")
        return [
            Row(
                workload=self.name,
                basis=basis,
                moocow_seconds=mine,
                baseline_seconds=baseline,
                ratio=ratio(baseline, mine),
                peak_rss=max(run.peak_rss for run in ours),
                result=result,
                agree=his_total(theirs[0].output) == total if theirs else None,
                details={
                    "moocow_cpu": [run.cpu for run in ours],
                    "moocow_wall": [run.seconds for run in ours],
                    "selby_cpu": [run.cpu for run in theirs],
                    "selby_wall": [run.seconds for run in theirs],
                    "load_average": os.getloadavg(),
                },
            )
        ]

    def _alternate(self, ours: tuple[str, ...], his: tuple[str, ...]) -> tuple[list[Timed], list[Timed]]:
        """One untimed run of each, then the repeats, alternated."""
        run_process(ours)
        if his:
            run_process(his)
        mine: list[Timed] = []
        theirs: list[Timed] = []
        for _ in range(self.repeats):
            mine.append(run_process(ours))
            if his:
                theirs.append(run_process(his))
        return mine, theirs


@dataclass(frozen=True)
class WholeGameRate:
    """The proof over every opening for ``seconds``, stopped as Ctrl-C stops it: its rate."""

    seconds: float = 300.0
    max_depth: int = 6
    quick: bool = False

    @property
    def name(self) -> str:
        return "optimal wordle every opening rate"

    def run(self) -> list[Row]:
        limit = f"at most {self.max_depth} guesses"
        basis = f"proof over every opening, {limit}, stopped after {self.seconds:.0f} s"
        try:
            load_game(GAME)
        except MoocowError as error:
            return [Row(self.name, basis, None, None, None, None, f"skipped: {error}", None)]
        with tempfile.TemporaryDirectory() as scratch:
            store = Path(scratch) / "proof.db"
            depth = ("--max-depth", str(self.max_depth))
            command = (*moocow_command(), "optimal", GAME, *depth, "--store", str(store))
            started = time.perf_counter()
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(self.seconds)
            process.send_signal(signal.SIGINT)
            out, err = process.communicate()
            seconds = time.perf_counter() - started
            settled, best, lower, left = read_store(store, self.max_depth)
        rate = settled / (seconds / 3600)
        hours = left / rate if rate else float("inf")
        return [
            Row(
                workload=self.name,
                basis=basis,
                moocow_seconds=seconds,
                baseline_seconds=None,
                ratio=None,
                peak_rss=None,
                result=(
                    f"{settled:,} openings settled, {rate:,.0f} an hour; best {best:,}, proven at least "
                    f"{lower:,}; {left:,} openings left below the best (about {hours:,.0f} hours at "
                    "this rate)"
                ),
                agree=None,
                details={"stdout": out.strip(), "stderr": err.strip()[-2000:], "load": os.getloadavg()},
            )
        ]


def read_store(store: Path, max_depth: int) -> tuple[int, int, int, int]:
    """Openings settled, the best total and proven bound kept, and the openings still to settle."""
    from moocow.optimal.openings import opening_order
    from moocow.optimal.wide import WideSearch

    with sqlite3.connect(store) as connection:
        settled = connection.execute("SELECT count(*) FROM guess_values").fetchone()[0]
        kept = connection.execute("SELECT value FROM meta WHERE key = 'best'").fetchone()[0]
    best, lower, _ = json.loads(kept)
    search = WideSearch(load_game(GAME), max_depth)
    _, bounds = opening_order(search, max_depth - 1)
    left = int((bounds < best).sum()) - settled
    return settled, best, lower, max(left, 0)


if __name__ == "__main__":  # python -m bench.selby OPENING [hard]: one row, printed
    row = SelbyWorkload(sys.argv[1], hard="hard" in sys.argv[2:], repeats=1).run()[0]
    print(json.dumps(row.to_dict(), indent=2))
