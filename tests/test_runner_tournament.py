"""Tournaments: every kind of player, serial and parallel alike, results appended at once, resumed exactly."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import moocow
from moocow.cli import app
from moocow.cli.runner import tournament as tournament_command
from moocow.engine.errors import MoocowError
from moocow.referee.decks import load_deck
from moocow.runner.results import header
from moocow.runner.resultsfile import read_results
from moocow.runner.tournament import Tournament, build_tournament, run_tournament, tournament_from
from moocow.sandbox.limits import Limits
from tests.results_helpers import round_rows

PLAYERS = Path(__file__).parent / "players"
LIMITS = Limits(guess_seconds=5, setup_seconds=20)
needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def small(players: list[str], games: list[str], rounds: int = 4, seed: int = 7) -> Tournament:
    return build_tournament(
        {"players": players, "games": games, "rounds": rounds, "seed": seed, "limits": LIMITS}
    )


def comparable(results: object) -> list[dict[str, object]]:
    """Results without their timing fields, in tournament order."""
    return [result.without_timing() for result in results.results]  # type: ignore[attr-defined]


@needs_bash
def test_one_strategy_in_three_places_makes_the_same_guesses() -> None:
    """First consistent code, played by the engine, a Python module and a bash program: the same guesses."""
    chosen = small(["first", str(PLAYERS / "first_candidate.py"), str(PLAYERS / "mastermind.sh")],
                   ["mastermind:pegs=3,colors=4"], rounds=6)  # fmt: skip
    results = run_tournament(chosen).results
    by_player = [[result.guesses for result in results if result.player == p.name] for p in chosen.players]
    assert by_player[0] == by_player[1] == by_player[2]
    assert all(result.solved for result in results)


def test_parallel_workers_give_the_serial_results(tmp_path: Path) -> None:
    """Four workers, the same results as one, misbehaving players included; results file has every round."""
    chosen = small(["minmax", "parts", str(PLAYERS / "first_candidate.py"), str(PLAYERS / "crash.py")],
                   ["mastermind:pegs=3,colors=3", "bottles:n=4", "digits:length=3,symbols=6"])  # fmt: skip
    serial = run_tournament(chosen)
    parallel = run_tournament(chosen, results=tmp_path / "results.jsonl", workers=4)
    assert comparable(parallel) == comparable(serial)
    assert len(serial.results) == 4 * 3 * 4 and parallel.played == 48
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["tournament"] == chosen.describe()
    rows = [line for line in lines[1:] if '"identity": {' not in line]  # who each player said it was, once
    assert len(lines) - 1 - len(rows) == 1  # first_candidate.py's: engine strategies and crash.py name no one
    assert sorted(rows) == sorted(json.dumps(r.to_dict(), ensure_ascii=False) for r in parallel.results)


def test_secrets_are_drawn_from_a_keyed_hash_of_the_seed_and_the_entry() -> None:
    """Round k's secret is HMAC-SHA256(seed, domain, entry's spec, k) modulo the number of secrets,
    in the game's canonical order: a transcription of the rule in docs/runner.md."""
    import hashlib
    import hmac

    game = moocow.load_game("digits:length=3,symbols=6")
    expected = []
    for k in range(5):
        message = b"moocow deal v1\0" + game.spec.encode() + b"\0" + str(k).encode()
        drawn = int.from_bytes(hmac.new(b"11", message, hashlib.sha256).digest(), "big")
        expected.append(game.format_code(game.secrets[drawn % len(game.secrets)]))
    results = run_tournament(small(["minmax"], [game.spec], rounds=5, seed=11)).results
    assert [result.secret for result in results] == expected


def one_stream_for_all(spec: str, seed: int, rounds: int) -> list[int]:
    """How every entry was dealt before it had a stream of its own: one ``random.Random(seed)``."""
    import random

    rng = random.Random(seed)
    return [rng.choice(range(len(moocow.load_game(spec).secrets))) for _ in range(rounds)]


def first_guess_hits(known: list[int], other: list[int], known_size: int, other_size: int) -> float:
    """How often a player told one entry's secrets guesses another's at once, reading them as
    ``random.choice`` draws its bits: the top bits of one 32-bit output, an output kept when it
    falls in range. Where every output the known game keeps, the other keeps too, the other's rounds
    are the known rounds with a few more in between: guess the next known one, move on when right."""
    shift = known_size.bit_length() - other_size.bit_length()
    hits = 0
    for secret in other:
        if known[hits] >> shift == secret:
            hits += 1
    return hits / len(other)


@pytest.mark.parametrize(("known", "other"), [("mastermind", "words"), ("digits", "bottles")])
def test_one_entrys_secrets_no_longer_predict_anothers(known: str, other: str) -> None:
    """With one stream for every entry, one game's secrets named another's in most rounds (a student's
    note of one game's secrets, or one seed reused over two graded games, made one-guess rounds); now
    the first guess so made is right about as often as a guess at random."""
    sizes = [len(moocow.load_game(spec).secrets) for spec in (known, other)]
    rounds = 400
    before = first_guess_hits(*(one_stream_for_all(spec, 2024, rounds) for spec in (known, other)), *sizes)
    dealt = [[deal.secret for deal in load_deck(spec).deal(2024, rounds)] for spec in (known, other)]
    now = first_guess_hits(*dealt, *sizes)
    assert before > 0.5
    assert now < 5 / sizes[1] + 0.01  # chance is 1 / sizes[1]


def test_resume_checks_each_secret_against_the_entrys_own_stream(tmp_path: Path) -> None:
    """A row naming the secret one ``random.Random(seed)`` for every entry would have dealt (the
    dealing before entries had streams of their own) is refused on resume, naming the line."""
    path = tmp_path / "results.jsonl"
    game = "mastermind:pegs=3,colors=3"
    chosen = small(["first"], [game], rounds=3, seed=7)
    run_tournament(chosen, results=path)
    lines = path.read_text().splitlines()
    old = moocow.load_game(game)
    old_secret = old.format_code(old.secrets[one_stream_for_all(game, 7, 3)[2]])
    row = json.loads(lines[3])
    assert row["secret"] != old_secret  # the streams differ at this round
    row |= {"secret": old_secret, "guesses": [old_secret], "solved": True, "score": 1}
    path.write_text("\n".join([*lines[:3], json.dumps(row)]) + "\n")
    with pytest.raises(MoocowError, match=r"line 4: secret '.*' is not the one the seed deals for round 2"):
        run_tournament(chosen, results=path, resume=True)


def test_an_existing_results_file_is_not_overwritten(tmp_path: Path) -> None:
    """Without --resume a results file that has content is refused; with a different tournament too."""
    path = tmp_path / "results.jsonl"
    run_tournament(small(["first"], ["bottles:n=4"], rounds=2), results=path)
    with pytest.raises(MoocowError, match="--resume finishes it"):
        run_tournament(small(["first"], ["bottles:n=4"], rounds=2), results=path)
    with pytest.raises(MoocowError, match="belongs to another tournament"):
        run_tournament(small(["first"], ["bottles:n=4"], rounds=3), results=path, resume=True)


def test_resume_cuts_a_torn_line_and_plays_only_what_is_missing(tmp_path: Path) -> None:
    """A results file ending in half a line is finished: the torn round is played again, nothing else."""
    path = tmp_path / "results.jsonl"
    chosen = small(["first", "minmax"], ["mastermind:pegs=3,colors=3"], rounds=3)
    full = run_tournament(chosen, results=path)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:4]) + lines[4][:20])
    resumed = run_tournament(chosen, results=path, resume=True)
    assert resumed.played == 3
    assert comparable(resumed) == comparable(full)
    assert len(path.read_text().splitlines()) == 1 + 6


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid``, from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_bytes().rpartition(b")")[2].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines() if path.exists() else []


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[0] != b"Z"
    except OSError:
        return False


@needs_bash
@needs_proc
def test_killed_tournament_resumes_to_the_uninterrupted_results(tmp_path: Path) -> None:
    """Kill a parallel tournament midway: nothing it started survives it, and resuming finishes it exactly."""
    settings = {
        "players": [str(PLAYERS / "slow_first.py"), str(PLAYERS / "mastermind.sh"), "minmax"],
        "games": ["mastermind:pegs=3,colors=3", "mastermind:pegs=2,colors=5"],
        "rounds": 8,
        "seed": 5,
        "limits": LIMITS.to_dict(),
    }
    results = tmp_path / "results.jsonl"
    script = tmp_path / "run.py"
    script.write_text(
        "import json, sys\n"
        "from moocow.runner.tournament import build_tournament, run_tournament\n"
        "if __name__ == '__main__':\n"
        "    run_tournament(build_tournament(json.loads(sys.argv[1])), results=sys.argv[2], workers=2)\n"
    )
    root = str(Path(moocow.__file__).resolve().parents[1])
    scratch = tmp_path / "scratch"  # a killed runner cannot remove its players' homes: keep them here
    scratch.mkdir()
    environment = {**os.environ, "PYTHONPATH": root, "TMPDIR": str(scratch)}
    runner = subprocess.Popen([sys.executable, script, json.dumps(settings), results], env=environment)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(_lines(results)) < 8:
        time.sleep(0.01)
    started = _descendants(runner.pid)
    os.kill(runner.pid, signal.SIGKILL)
    runner.wait()
    total = 3 * 2 * 8
    chosen = build_tournament(settings)
    finished = len(read_results(results, header(chosen.describe())).rounds)
    assert 7 <= finished < total, "the tournament was not killed midway"
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in started), "workers or players outlived the runner"

    resumed = run_tournament(chosen, results=results, resume=True, workers=2)
    uninterrupted = run_tournament(chosen)
    assert comparable(resumed) == comparable(uninterrupted)
    assert resumed.played == total - finished
    keys = [tuple(row[k] for k in ("player", "game", "round")) for row in round_rows(results)]
    assert len(keys) == len(set(keys)) == total


def test_tournament_file_with_options_laid_over_it(tmp_path: Path) -> None:
    """A TOML file gives players, games, rounds, seed, limits and workers; options replace what they name."""
    config = tmp_path / "tournament.toml"
    config.write_text(
        'players = ["minmax", {name = "naive", player = "first"}]\n'
        'games = ["bottles:n=4"]\nrounds = 3\nseed = 2\nworkers = 2\n'
        "[limits]\nguess_seconds = 1.5\n"
    )
    setup = tournament_from(config, ["memory_mb=512"], rounds=5, games=None)
    chosen, workers = setup.tournament, setup.workers
    assert [player.name for player in chosen.players] == ["minmax", "naive"]
    assert (chosen.games, chosen.rounds, chosen.seed, workers) == (("bottles:n=4",), 5, 2, 2)
    assert (chosen.limits.guess_seconds, chosen.limits.memory_mb) == (1.5, 512)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"players": ["minmax", "minmax"], "games": ["bottles:n=4"]}, "player 'minmax' is listed twice"),
        ({"players": ["minmax"], "games": ["nosuchgame"]}, "unknown game 'nosuchgame'"),
        ({"players": ["minmax:first=99"], "games": ["bottles:n=4"]}, "'99'"),
        ({"players": ["nosuchplayer"], "games": ["bottles:n=4"]}, "is not a strategy"),
        ({"players": ["missing.py"], "games": ["bottles:n=4"]}, "player file 'missing.py' not found"),
        ({"players": ["minmax"], "games": ["bottles:n=4"], "rounds": 0}, "rounds must be at least 1"),
        ({"players": ["minmax"], "games": ["bottles:n=4"], "colour": 1}, "unknown tournament setting"),
    ],
)
def test_bad_tournaments_fail_before_the_first_round(settings: dict[str, object], message: str) -> None:
    """Mistakes in players, games or numbers are one-line errors, raised before anything is played."""
    with pytest.raises(MoocowError, match=message.replace("(", r"\(")):
        build_tournament(settings)


def test_tournament_cli_prints_leaderboards_and_writes_results(tmp_path: Path) -> None:
    """`moocow tournament`: a leaderboard per game and overall, every round in the results file."""
    app = typer.Typer()
    app.command()(tournament_command)
    path = tmp_path / "results.jsonl"
    arguments = ["-p", "minmax", "-p", "first", "-g", "mastermind:pegs=3,colors=3", "-g", "bottles:n=4",
                 "--rounds", "3", "--seed", "4", "--results", str(path), "--workers", "2"]  # fmt: skip
    outcome = CliRunner().invoke(app, arguments)
    assert outcome.exit_code == 0, outcome.output
    for title in ("mastermind:pegs=3,colors=3", "bottles:n=4", "all games", "12 rounds played"):
        assert title in outcome.stdout
    assert len(path.read_text().splitlines()) == 1 + 12
    again = CliRunner().invoke(app, [*arguments, "--resume"])
    assert again.exit_code == 0 and "All 12 rounds were already played" in again.stdout


def test_tournament_cli_error_is_one_line() -> None:
    """An unknown game is one line on stderr and exit status 2."""
    app = typer.Typer()
    app.command()(tournament_command)
    outcome = CliRunner().invoke(app, ["-p", "minmax", "-g", "nosuchgame"])
    assert outcome.exit_code == 2
    assert outcome.output.strip().startswith("error: unknown game 'nosuchgame'")
    assert len(outcome.output.strip().splitlines()) == 1


def test_a_python_player_knows_the_games_of_the_runners_plugin_files() -> None:
    """A game loaded with --plugin is known inside the player's sandbox: the player plays it."""
    jotto = Path(__file__).parents[1] / "examples" / "jotto" / "moocow_jotto" / "__init__.py"
    player = str(PLAYERS / "first_candidate.py")
    arguments = ["--plugin", str(jotto), "tournament", "-p", player, "-g", "jotto", "-r", "2"]
    outcome = CliRunner().invoke(app, arguments)
    assert outcome.exit_code == 0, outcome.output
    assert "2 rounds played" in outcome.output
    assert "lost" not in outcome.output


def test_ctrl_c_says_how_many_rounds_are_saved_and_how_to_finish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Interrupted after three rounds: a fresh line with the count and the resume command, exit 130."""
    from moocow.runner import tournament as running

    real = running.run_tournament

    def interrupted(*arguments: object) -> object:
        progress = arguments[4]
        original = progress.advance  # type: ignore[attr-defined]

        def advance(result: object) -> None:
            original(result)
            if progress.saved == 3:  # type: ignore[attr-defined]
                raise KeyboardInterrupt

        progress.advance = advance  # type: ignore[attr-defined]
        return real(*arguments)

    monkeypatch.setattr(running, "run_tournament", interrupted)
    results = tmp_path / "r.jsonl"
    arguments = ["tournament", "-p", "minmax", "-g", "bottles:n=4", "-r", "5", "--results", str(results)]
    monkeypatch.setattr(sys, "argv", ["moocow", *arguments])
    outcome = CliRunner().invoke(app, arguments)
    assert outcome.exit_code == 130, outcome.stderr
    assert [line for line in outcome.stderr.splitlines() if line][-2:] == [
        f"interrupted: 3 rounds saved in {results}; finish with:",
        f"  moocow {' '.join(arguments)} --resume",
    ]
    assert len(results.read_text().splitlines()) == 4
    no_file = CliRunner().invoke(app, arguments[:-2])
    assert "no round was saved" in no_file.stderr and "see --results" not in no_file.stderr
