"""Hostile players, one per attack that once worked against the runner, each shown contained.

Each test runs a real player that tries the attack and checks what matters: the cheater gains
nothing, the runner finishes and records every round, nothing outside the sandbox changes, and
nothing of the player is left running. They need the namespaces sandbox (bubblewrap), which the
project's machines have; elsewhere they are skipped, saying why.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from moocow.runner import bacrunner, sandbox
from moocow.runner.grading import grade
from moocow.runner.limits import Limits
from moocow.runner.sandbox import PACKAGE, Confinement
from moocow.runner.tournament import build_tournament, run_tournament

HOSTILE = Path(__file__).parent / "players" / "hostile"
HONEST = Path(__file__).parent / "players" / "first_candidate.py"
GAME = "mastermind:pegs=3,colors=3"
FAST = Limits(guess_seconds=2, round_seconds=10, setup_seconds=10, memory_mb=512, disk_mb=4, processes=32)
LEVEL, WHY = sandbox.strongest()
pytestmark = pytest.mark.skipif(LEVEL is not Confinement.NAMESPACES, reason=f"no namespaces here: {WHY}")


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A runner's folder as an instructor keeps it: word list, tournament file with the seed, results."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text(
        "\n".join(["bravo", "cider", "dwarf", "nymph", "quartz", "glyphs"]) + "\n"
    )
    (tmp_path / "tournament.toml").write_text('seed = 4242\nsecret = "hunter2"\n')
    monkeypatch.setenv("MOOCOW_TEST_TOKEN", "hunter2")
    return tmp_path


def leftovers(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = (entry / "stat").read_bytes().rpartition(b")")[2].split()[0]
        except OSError:
            continue
        if entry.name.isdigit() and marker in line and state != b"Z":
            found.append(int(entry.name))
    return found


def test_the_seed_the_secrets_the_environment_and_the_runners_memory_are_out_of_reach(course: Path) -> None:
    """Every process's command line, environment and memory, the tournament and results files: nothing."""
    deck = bacrunner.WordSource("words.txt").spec
    settings = {"players": [str(HOSTILE / "seed_thief.py")], "games": [deck], "rounds": 4, "seed": 4242}
    results = course / "results.jsonl"
    outcome = run_tournament(build_tournament({**settings, "limits": FAST}), results=results)
    graded = grade(str(HOSTILE / "seed_thief.py"), words="words.txt", rounds=2, seed=4242, limits=FAST)
    assert graded.identity.student_id == "found:nothing"
    assert len(outcome.results) == 4 and len(results.read_text().splitlines()) == 5


def test_nothing_outside_the_sandbox_changes(course: Path) -> None:
    """Writes to the runner's folder, /tmp, its own folder, moocow's source, the word list, /proc/sys fail."""
    moocow_source = (PACKAGE / "runner" / "referee.py").read_bytes()
    words = (course / "words.txt").read_bytes()
    vandal = f"sh {HOSTILE / 'vandal.sh'} {course} {PACKAGE}"
    graded = grade(vandal, words="words.txt", rounds=2, limits=FAST)
    assert [result.failure for result in graded.rounds] == ["mercy", "mercy"]
    assert graded.identity.student_id == "sysctl-refused"
    for place in (course, Path("/tmp"), HOSTILE, course.parent):
        assert not (place / "vandal-was-here").exists()
    assert (PACKAGE / "runner" / "referee.py").read_bytes() == moocow_source
    assert (course / "words.txt").read_bytes() == words


def test_a_player_killing_and_stopping_all_it_sees_harms_only_itself(course: Path) -> None:
    """Its parent and every process in view killed or stopped: the runner and the honest player go on."""
    killer = f"sh {HOSTILE / 'killer.sh'}"
    settings = {
        "players": [killer, str(HONEST), "minmax"],
        "games": [GAME],
        "rounds": 3,
        "seed": 1,
        "limits": FAST,
    }
    together = run_tournament(build_tournament(settings), workers=2)
    alone = run_tournament(build_tournament({**settings, "players": [str(HONEST), "minmax"]}))
    honest = [r.without_timing() for r in together.results if r.player != killer]
    assert honest == [r.without_timing() for r in alone.results]
    assert all(not r.solved for r in together.results if r.player == killer)


def test_a_daemon_dies_with_its_session_and_serves_no_friend(course: Path) -> None:
    """A double-forked daemon in its own session neither outlives the run, nor writes late, nor is reached."""
    settings = {"players": [str(HOSTILE / "daemon.py")], "games": [GAME], "rounds": 2, "limits": FAST}
    run_tournament(build_tournament(settings))
    friend = grade(str(HOSTILE / "friend.py"), game=GAME, rounds=1, limits=FAST)
    time.sleep(2.5)  # the daemon would have written by now
    assert not leftovers("313.75")
    assert not (course / "daemon-was-here").exists() and not Path("/tmp/daemon-was-here").exists()
    assert friend.identity.student_id == "alone"


def test_a_fork_bomb_and_a_full_disk_are_stopped_by_the_limits(course: Path) -> None:
    """The disk fills at disk_mb, the bomb at the process limit; the round is lost and the next plays."""
    bomb = f"sh {HOSTILE / 'bomb.sh'}"
    settings = {"players": [bomb, "minmax"], "games": [GAME], "rounds": 2, "seed": 2, "limits": FAST}
    started = time.monotonic()
    outcome = run_tournament(build_tournament(settings))
    assert time.monotonic() - started < 30
    assert all(r.failure in ("timeout", "crash") for r in outcome.results if r.player == bomb)
    assert all(r.solved for r in outcome.results if r.player == "minmax")
    assert not leftovers("bomb.sh")


def test_forged_rows_in_the_results_file_are_refused_on_resume(course: Path) -> None:
    """Rows a player could have appended (it cannot reach the file) are refused, naming the line."""
    results = course / "results.jsonl"
    settings = {"players": [str(HONEST)], "games": [GAME], "rounds": 3, "seed": 5, "limits": FAST}
    run_tournament(build_tournament(settings), results=results)
    row = json.loads(results.read_text().splitlines()[1])
    with results.open("a") as file:
        file.write(json.dumps({**row, "round": 2, "score": -1000}) + "\n")
    with pytest.raises(Exception, match="line 5"):
        run_tournament(build_tournament(settings), results=results, resume=True)
    assert os.stat(results).st_mode & 0o777 == 0o600
