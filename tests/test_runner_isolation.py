"""The runner is the referee: every kind of misbehaviour is contained, recorded, and costs only that round."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from moocow.referee import bacrunner
from moocow.runner.grading import grade
from moocow.runner.tournament import TournamentResult as Played
from moocow.runner.tournament import build_tournament, run_tournament
from moocow.sandbox.limits import MB, Limits
from moocow.sandbox.process import ErrorOutput
from moocow.sandbox.sandbox import Confinement, SandboxPolicy, running_as_root

PLAYERS = Path(__file__).parent / "players"
GAME = "mastermind:pegs=3,colors=3"
needs_root = pytest.mark.skipif(not running_as_root(), reason="only root can run a player as another user")
FAST = Limits(
    guess_seconds=0.5, guess_cpu=0.3, round_seconds=5, round_cpu=5, setup_seconds=10,
    memory_mb=256, output_mb=1, line_bytes=1000,
)  # fmt: skip


def play(players: list[str], rounds: int = 2, games: tuple[str, ...] = (GAME,), **more: object) -> Played:
    """A small tournament, limits tight enough that a misbehaving player costs under a second."""
    settings = {"players": players, "games": list(games), "rounds": rounds, "seed": 3, "limits": FAST}
    return run_tournament(build_tournament({**settings, **more}))


def module(name: str) -> str:
    return str(PLAYERS / name)


MISBEHAVIOUR = [
    (module("crash.py"), "crash", "exited with status 1: ZeroDivisionError: division by zero"),
    (module("exits.py"), "crash", "exited with status 3"),
    (module("hang.py"), "timeout", "no answer within 0.5 s per guess"),
    (module("hog.py"), "memory", "MemoryError"),
    (module("garbage.py"), "invalid", "'hello, runner' is not a guess of mastermind:pegs=3,colors=3"),
    (module("wrong_type.py"), "crash", "a guess must be a str, not int: 111"),
    (module("long_line.py"), "output", "more than 1000 bytes"),
    (module("stderr_flood.py"), "output", "the output limit"),
    (module("hostile/stderr_unreadable.py"), "crash", "exited with status 1: about to crash"),
    (module("hostile/stderr_fallocate.py"), "crash", "fallocate refused: Illegal seek"),
    (module("import_error.py"), "disqualified", "setup failed (crash): exited with status 1: ImportError"),
    ("sh -c 'read x; echo hello'", "disqualified", "answered the handshake with 'hello', not 'moocow 1'"),
    ("sh -c 'read x; echo moocow 3; cat'", "disqualified", "speaks protocol version '3'"),
    ("sh -c 'read x; echo moocow 1; read y; exec 1>&-; sleep 5'", "crash", "closed its output but kept"),
    ("sh -c 'read x; echo moocow 1; read y; kill -SEGV $$'", "crash", "killed by SIGSEGV"),
    ("sh -c 'read x; echo moocow 1; read y; printf \"\\377\\n\"'", "output", "not UTF-8"),
    ("sh -c 'read x; echo moocow 1; read y; echo 1111'", "invalid", "'1111' is not a guess"),
]


@pytest.mark.parametrize(("player", "failure", "reason"), MISBEHAVIOUR, ids=[m[2][:40] for m in MISBEHAVIOUR])
def test_misbehaviour_loses_the_round_with_its_reason(player: str, failure: str, reason: str) -> None:
    """Each of the offender's rounds is lost with its reason; the engine player beside it is untouched."""
    outcome = play([player, "minmax"])
    offender = [result for result in outcome.results if result.player == player]
    assert [result.round for result in offender] == [0, 1]
    for result in offender:
        assert (result.solved, result.score, result.failure) == (False, 20, failure)
        assert reason in (result.reason or "")
    assert [result.solved for result in outcome.results if result.player == "minmax"] == [True, True]


def test_exactly_the_output_limit_on_stderr_is_allowed() -> None:
    """``output_mb`` may be written, as a file of that size may; one byte more is the foul above."""
    outcome = play([module("stderr_exactly.py"), module("first_candidate.py")])
    scores = {
        player: [r.score for r in outcome.results if r.player == player]
        for player in {r.player for r in outcome.results}
    }
    assert all(r.failure is None for r in outcome.results), outcome.results
    assert scores[module("stderr_exactly.py")] == scores[module("first_candidate.py")]


def test_a_player_holds_at_most_a_thousand_descriptors_a_process() -> None:
    """The runner lists every descriptor of the player's processes to count their memory: a player
    raising its limit to the runner's (20,000) and holding them in children stalled the referee."""
    identity = grade(
        f"{sys.executable} {module('hostile/descriptors.py')}", game=GAME, rounds=1, limits=FAST
    ).identity
    assert (identity.student_id, identity.author) == ("files:1024:1024", "raised:no")


def test_the_rounds_time_counts_every_answer_however_quick() -> None:
    """A player answering each guess well within its time still runs out of the round's: the round
    ends on time, not at the mercy limit."""
    dawdler = "sh -c 'read x; echo moocow 1; while read y; do sleep 0.1; echo 111; done'"
    outcome = play([dawdler], rounds=1, mercy=200, limits=replace(FAST, round_seconds=1, guess_seconds=0.5))
    (result,) = outcome.results
    assert result.failure == "timeout" and "1 s per round" in (result.reason or ""), result
    assert len(result.guesses) < 200


def test_cpu_limit_trips_before_a_generous_wall_clock() -> None:
    """A player burning CPU is stopped by its CPU allowance, with ten times as long on the clock: a
    ``cpu`` failure, not a ``timeout`` (a wall-clock bound here would fail on a loaded machine)."""
    outcome = play([module("spin.py")], rounds=1, limits=replace(FAST, guess_seconds=3))
    (result,) = outcome.results
    assert result.failure == "cpu" and "over 0.3 s of CPU per guess" in (result.reason or "")


def test_mercy_limit_ends_a_round_that_never_finds_the_secret() -> None:
    """A player that always guesses 111 loses every other round after exactly ``mercy`` guesses."""
    stubborn = "sh -c 'read x; echo moocow 1; while read y; do echo 111; done'"
    outcome = play([stubborn], rounds=4, mercy=3)
    for result in outcome.results:
        if result.secret == "111":
            assert (result.solved, result.score, result.guesses) == (True, 1, ("111",))
        else:
            assert (result.failure, result.score, result.guesses) == ("mercy", 3, ("111",) * 3)


def test_near_misses_follow_the_one_rule(tmp_path: Path) -> None:
    """Surrounding spaces are forgiven; another case is not a guess, and the reason spells the right one."""
    spaced = tmp_path / "spaced.py"
    spaced.write_text("def next_guess(game, history):\n    return ' \\tABCD  '\n")
    lower = tmp_path / "lower.py"
    lower.write_text("def next_guess(game, history):\n    return 'abcd'\n")
    outcome = play([str(spaced), str(lower)], rounds=1, games=("bottles:n=4",), mercy=1)
    spaced_result, lower_result = outcome.results
    assert spaced_result.guesses == ("ABCD",) and spaced_result.failure in (None, "mercy")
    assert lower_result.failure == "invalid"
    assert lower_result.reason == "'abcd' is not written as bottles:n=4 writes it: 'ABCD'"


def test_player_runs_under_limits_in_a_scrubbed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The player sees its memory limit, a private home and none of the runner's environment."""
    monkeypatch.setenv("MOOCOW_TEST_SEED", "888")
    reporter = (
        "sh -c 'read x; echo \"moocow 1 $(ulimit -v) home=$HOME seed=${MOOCOW_TEST_SEED:-unset}\"; cat'"
    )
    identity = grade(reporter, game=GAME, rounds=1, limits=FAST).identity
    assert identity.student_id == str(FAST.memory_mb * 1024)
    home, seed = identity.author.split()
    assert home == "home=/tmp"  # the sandbox's own tmpfs
    assert seed == "seed=unset"


def _alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[0]
    except OSError:
        return False
    return state != b"Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_background_processes_die_with_the_player() -> None:
    """A process the player started is killed with the player when the round ends."""
    outcome = play([module("forker.py")], rounds=1)
    assert outcome.results[0].failure == "timeout"
    assert not processes_running("sleep 313.25")


def processes_running(command_line: str) -> list[int]:
    """The live processes whose command line is ``command_line``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            words = (entry / "cmdline").read_bytes().replace(b"\0", b" ").strip()
        except OSError:
            continue
        if entry.name.isdigit() and words == command_line.encode() and _alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def course_deck(folder: Path) -> str:
    """The course's deck over a small word file written in ``folder``."""
    words = folder / "words.txt"
    words.write_text("\n".join(["bravo", "cider", "dwarf", "fjords", "glyphs", "nymph", "quartz", "wizard"]))
    return bacrunner.WordSource(str(words)).spec


def test_tampering_with_frames_and_random_gets_nothing(tmp_path: Path) -> None:
    """A course player hunting the secret in its frames and patching random finds and changes nothing."""
    deck = course_deck(tmp_path)
    honest = module("course_first.py")
    both = play([module("tamper.py"), honest], rounds=4, games=(deck,))
    alone = play([honest], rounds=4, games=(deck,))
    secrets = bacrunner.draw_secrets(bacrunner.WordSource.from_spec(deck).words(), 3, 4)
    tampered = [result for result in both.results if result.player.endswith("tamper.py")]
    assert all(r.failure == "crash" and "no secret in reach" in (r.reason or "") for r in tampered)
    assert [r.secret for r in tampered] == secrets
    untouched = [result.without_timing() for result in both.results if result.player == honest]
    assert untouched == [result.without_timing() for result in alone.results]


def test_course_rounds_take_any_text_but_still_foul_on_what_is_not_a_line(tmp_path: Path) -> None:
    """Chatter is a course guess, scored and recorded; control characters, long lines, hangs still foul."""
    escape = "sh -c 'read x; echo moocow 1; while read y; do printf \"\\033[31mbravo\\n\"; done'"
    players = [module("garbage.py"), escape, module("long_line.py"), module("hang.py")]
    outcome = play(players, rounds=1, games=(course_deck(tmp_path),), mercy=2)
    assert [(result.failure, result.guesses) for result in outcome.results] == [
        ("mercy", ("hello, runner", "hello, runner")), ("invalid", ()), ("output", ()), ("timeout", ()),
    ]  # fmt: skip
    assert outcome.results[1].reason == "'\\x1b[31mbravo' is not a line of printable text"


@pytest.mark.parametrize("level", [Confinement.NONE, pytest.param(Confinement.USER, marks=needs_root)])
def test_no_player_home_is_left_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, level: Confinement
) -> None:
    """Outside bubblewrap a player has a home folder; after a crash, a hang, a swapped home: none is left."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    swap = "sh -c 'read x; rm -rf $HOME; ln -s / $HOME; echo moocow 1; cat'"
    hang = "sh -c 'read x; echo moocow 1; touch $HOME/a; sleep 30'"
    players = ["sh -c 'read x; echo moocow 1; touch $HOME/a; exit 3'", hang, swap]
    if level is Confinement.NONE:
        players.append(module("first_candidate.py"))  # as root, the interpreter under /root is out of reach
    policy = SandboxPolicy(unconfined=level is Confinement.NONE, level=level)
    outcome = play(players, rounds=1, sandbox=policy)
    assert len(outcome.results) == len(players)
    assert list(tmp_path.iterdir()) == []


def test_stderr_is_read_no_further_than_just_past_the_output_limit() -> None:
    """A writer as fast as the runner reads: read on to the end, a flood went 321 MB past
    ``output_mb=1`` (``bench/referee_bounds.py``, at a load of 4). Past the limit nothing more is
    read, so the writer waits on a full pipe: at most one read (64 KiB) past it."""
    stderr = ErrorOutput(most=MB)
    writer = threading.Thread(target=flood, args=(stderr.writing, 20 * MB), daemon=True)
    writer.start()
    deadline = time.monotonic() + 30
    while not stderr.over() and time.monotonic() < deadline:
        stderr.drain()
    for _ in range(50):  # the writer has all the time it wants; nothing more is read
        stderr.drain()
        time.sleep(0.002)
    assert MB < stderr.size <= MB + 65536
    stderr.close()


def flood(fd: int | None, size: int) -> None:
    """Write ``size`` bytes into ``fd`` as fast as it takes them (until it is closed)."""
    assert fd is not None
    block = b"x" * 65536
    with contextlib.suppress(OSError):
        for _ in range(size // len(block)):
            os.write(fd, block)
