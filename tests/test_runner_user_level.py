"""The attacks on the ``user`` level, Gradescope's, each tried for real and shown contained.

moocow is run as root with ``CAP_SYS_ADMIN`` dropped from its bounding set (``setpriv
--bounding-set -sys_admin``), as Docker's default profile drops it: bubblewrap cannot make its
namespaces, so moocow chooses ``user`` and each player runs under an unprivileged user id of its
own, seeing the machine's processes and files as any other user would. The hostile player is
``tests/players/hostile/cmdline_thief.py``, standard library only, run by a ``python3`` that
other users can read (the runner's own may be under ``/root``). Skipped, saying why, where this
machine cannot give that level.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from moocow.referee.bacrunner import header_line
from moocow.runner.grading import grade
from moocow.runner.seeds import fingerprint
from moocow.sandbox import mounts, sandbox
from tests.gradescope_helpers import system_venv
from tests.results_helpers import round_rows

HOSTILE = Path(__file__).parent / "players" / "hostile"
GAME = "mastermind:pegs=3,colors=3"
SEED = 81726354453627
ROUNDS = 4
MOOCOW = [sys.executable, "-c", "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()"]
DROPPED = ["setpriv", "--bounding-set", "-sys_admin"]
"""Root without ``CAP_SYS_ADMIN``, as in a Docker container with the default profile."""


def open_python() -> str | None:
    """A ``python3`` that an unprivileged user id can run (every folder on the way open)."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3", shutil.which("python3")):
        if candidate and mounts.readable_by_others(Path(candidate).resolve(), along=True):
            return candidate
    return None


def user_level_here() -> str | None:
    """Why this machine cannot run moocow at the ``user`` level under ``setpriv``, or ``None``."""
    if not sandbox.running_as_root():
        return "the user level is root's: run the tests as root (CI does)"
    if shutil.which("setpriv") is None:
        return "no setpriv (util-linux) to drop CAP_SYS_ADMIN"
    probe = "from moocow.sandbox.sandbox import strongest; print(strongest()[0])"
    done = subprocess.run(
        [*DROPPED, sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    if done.stdout.strip() != "user":
        return f"without CAP_SYS_ADMIN moocow chose {done.stdout.strip() or done.stderr.strip()!r}, not user"
    if open_python() is None:
        return "no python3 that other users can run, for the hostile player"
    return None


WHY_NOT = user_level_here()
pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=f"needs the user level: {WHY_NOT}")


@pytest.fixture
def course() -> Iterator[Path]:
    """An instructor's folder other users can reach (pytest's own is under a private folder): a
    student's thief in ``students/ada``, a seed file and a tournament file in ``private``, both
    ``chmod 600``."""
    folder = Path(tempfile.mkdtemp(prefix="moocow-course-", dir="/tmp"))
    try:
        folder.chmod(0o755)
        (folder / "students" / "ada").mkdir(parents=True)
        (folder / "private").mkdir()
        for made in (folder / "students", folder / "students" / "ada", folder / "private"):
            made.chmod(0o755)
        shutil.copyfile(HOSTILE / "cmdline_thief.py", folder / "students" / "ada" / "cmdline_thief.py")
        (folder / "students" / "ada" / "cmdline_thief.py").chmod(0o644)
        thief = f"{open_python()} students/ada/cmdline_thief.py"
        (folder / "private" / "seed.txt").write_text(f"{SEED}\n")
        (folder / "private" / "t.toml").write_text(
            f'players = ["first", {{name = "thief", player = "{thief}"}}]\n'
            f'games = ["{GAME}"]\nrounds = {ROUNDS}\nseed = {SEED}\n'
        )
        for secret in ("seed.txt", "t.toml"):
            (folder / "private" / secret).chmod(0o600)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def moocow(course: Path, *args: str, dropped: bool = True) -> subprocess.CompletedProcess[str]:
    """``moocow ARGS`` in the course folder, as root without CAP_SYS_ADMIN (``dropped``) or with it."""
    command = [*(DROPPED if dropped else []), *MOOCOW, *args]
    return subprocess.run(command, cwd=course, capture_output=True, text=True, timeout=300, check=False)


def thief_command() -> str:
    """The thief as a course names it: relative to the course folder, the runner's working directory."""
    return f"{open_python()} students/ada/cmdline_thief.py"


def scores(results: Path, player: str) -> list[int]:
    """A player's score in each round of a results file."""

    rows = round_rows(results)
    return [row["score"] for row in rows if row["player"] == player]


def test_a_player_starts_in_its_own_empty_home_and_its_relative_paths_still_work(course: Path) -> None:
    """The player started in the runner's working directory and listed it; now it starts in its
    private home, empty, and a command naming its file relative to the runner's folder still runs."""
    done = moocow(course, "grade", thief_command(), "--game", GAME, "--rounds", str(ROUNDS), "--seed-file",
                  "private/seed.txt")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "players sandboxed: user" in done.stderr
    first, *log, total = done.stdout.splitlines()
    honest = grade("first", game=GAME, seed=SEED, rounds=ROUNDS)
    assert first == header_line(f"fingerprint:{fingerprint(SEED)}")  # a seed file's seed is not shown
    assert log == honest.log_lines()[1:-1]
    assert total == f"{honest.total} found:nothing cwd:0"


def test_command_lines_lead_a_thief_to_no_secret(course: Path) -> None:
    """Every process's command line is in ``/proc`` at this level: the thief reads the runner's,
    finds ``private/t.toml``, the seed file and the results file named there, and reads what it can.
    All are private, so it plays as ``first`` does; run unconfined (the control), the same thief
    finds the seed through the command line alone and guesses every secret at once."""
    args = ["tournament", "-c", "private/t.toml"]
    control = moocow(
        course, *args, "--results", "control.jsonl", "--no-sandbox"
    )  # nothing else in its folder
    assert control.returncode == 0, control.stderr
    assert scores(course / "control.jsonl", "thief") == [1] * ROUNDS
    done = moocow(course, *args, "--results", "r.jsonl")
    assert done.returncode == 0, done.stderr
    assert "players sandboxed: user" in done.stderr
    assert scores(course / "r.jsonl", "thief") == scores(course / "r.jsonl", "first")


@pytest.mark.parametrize("what", ["tournament file", "seed file", "key file", "results file"])
def test_a_secret_file_others_can_read_is_refused_before_round_one(course: Path, what: str) -> None:
    """A tournament file with ``seed``, a seed file, a key file, or a results file being resumed,
    that other users can read, is refused in one line naming it and the fix: players here are
    other users. The same tournament file plays when only engine strategies play (the repository's
    own ``tournament.toml`` has a public seed)."""
    private = course / "private"
    thief = ["-p", "first", "-p", thief_command(), "-g", GAME, "-r", str(ROUNDS)]
    named, args = {
        "tournament file": ("private/t.toml", ["tournament", "-c", "private/t.toml"]),
        "seed file": ("private/seed.txt", ["grade", thief_command(), "--game", GAME, "--seed-file",
                                           "private/seed.txt"]),
        "key file": ("private/k.key", ["tournament", *thief, "--seed-file", "private/seed.txt",
                                       "--results", "r.jsonl", "--key-file", "private/k.key"]),
        "results file": ("r.jsonl", ["tournament", *thief, "--seed-file", "private/seed.txt",
                                     "--results", "r.jsonl", "--resume"]),
    }[what]  # fmt: skip
    (private / "k.key").write_text("a course's signing key\n")
    (private / "k.key").chmod(0o600)
    if what == "results file":
        first = moocow(course, *args[:-1])
        assert first.returncode == 0, first.stderr
    (course / named).chmod(0o644)
    done = moocow(course, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"error: {what} '{named}' holds a secret and other users can read it, so players can "
        f"(they run as other users here): chmod 600 {named}"
    ]
    if what == "tournament file":
        engine_only = moocow(course, "tournament", "-c", named, "-p", "first", "-p", "minmax")
        assert engine_only.returncode == 0, engine_only.stderr


def test_a_runner_at_the_user_level_plays_no_player_on_a_cluster(course: Path) -> None:
    """At this level a player shares its worker's network, and Dask's scheduler runs the code of
    anyone who reaches it (by default, unauthenticated) as the worker's user, root, with the
    session's seed in its memory: players outside the engine go to a cluster only at the
    namespaces level, and this is one line before anything is played or connected to."""
    args = ["tournament", "-p", "first", "-p", thief_command(), "-g", GAME, "--seed-file", "private/seed.txt"]
    done = moocow(course, *args, "--scheduler", "tcp://127.0.0.1:9", "--results", "r.jsonl")
    assert done.returncode == 2 and not (course / "r.jsonl").exists()
    assert done.stderr.splitlines() == [
        "error: on a Dask cluster players outside the engine run only at the namespaces level, whose network "
        "namespace keeps them off the scheduler; this machine gives user (bubblewrap cannot make namespaces "
        "here: bwrap: Creating new namespace failed: Operation not permitted): install bubblewrap where it "
        "works, or play here"
    ]


@pytest.fixture
def weak_worker() -> Iterator[str]:
    """A Dask scheduler whose one worker runs without CAP_SYS_ADMIN, so at best at the user level."""
    distributed = pytest.importorskip("distributed")
    if sandbox.strongest()[0] is not sandbox.Confinement.NAMESPACES:
        pytest.skip("the runner itself needs namespaces here")
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0") as cluster:
        address = cluster.scheduler_address
        worker = subprocess.Popen(
            [*DROPPED, sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
             "--no-dashboard"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            with distributed.Client(address, set_as_default=False) as client:
                client.wait_for_workers(1, timeout=60)
            yield address
        finally:
            worker.terminate()
            worker.wait(timeout=30)


def test_a_worker_that_cannot_give_the_runners_level_refuses_the_session(
    course: Path, weak_worker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner chose namespaces and its header says so; a worker without bubblewrap's namespaces
    ran the players at the user level anyway. The level travels with the session: the worker
    refuses it, and the run says so in one line."""
    from typer.testing import CliRunner

    from moocow.cli import app

    monkeypatch.chdir(course)
    args = ["tournament", "-p", "first", "-p", thief_command(), "-g", GAME, "--seed-file", "private/seed.txt"]
    done = CliRunner().invoke(app, [*args, "--scheduler", weak_worker])
    assert done.exit_code == 2
    (line,) = done.output.splitlines()  # where it ran is said after results, which a refused run has none of
    assert line.startswith("error: the Dask worker tcp://") and line.endswith(
        "cannot run players at the namespaces level this run chose (bubblewrap cannot make namespaces here: "
        "bwrap: Creating new namespace failed: Operation not permitted); install moocow there as here, "
        "bubblewrap included"
    )


def test_a_seed_on_the_runners_command_line_is_blanked_before_the_first_player_starts(course: Path) -> None:
    """``--seed N`` (warned about) was the thief's for the reading in ``/proc/PID/cmdline``: the runner
    now blanks its command line there before its first player starts. The warning stays: the
    processes that started it keep theirs."""
    done = moocow(
        course, "grade", thief_command(), "--game", GAME, "--rounds", str(ROUNDS), "--seed", str(SEED)
    )
    assert done.returncode == 0, done.stderr
    *log, total = done.stdout.splitlines()
    honest = grade("first", game=GAME, seed=SEED, rounds=ROUNDS)
    assert log == honest.log_lines()[:-1] and total == f"{honest.total} found:nothing cwd:0"
    assert f"warning: --seed {SEED} is on the command line" in done.stderr
    unconfined = moocow(course, "grade", thief_command(), "--game", GAME, "--rounds", str(ROUNDS), "--seed",
                        str(SEED), "--no-sandbox")  # fmt: skip
    assert unconfined.stdout.splitlines()[-1] == f"{ROUNDS} found:seed cwd:2"


@pytest.fixture
def closed_venv() -> Iterator[Path]:
    """A venv of the system's Python, importing this moocow, inside a folder other users cannot
    reach (mode 0700): its ``bin/python`` links to an interpreter anyone can run."""
    folder = Path(tempfile.mkdtemp(prefix="moocow-closed-", dir="/tmp"))  # mkdtemp: mode 0700
    try:
        system_venv(folder)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_venv_in_a_folder_others_cannot_reach_is_one_line_before_round_one(
    course: Path, closed_venv: Path
) -> None:
    """The interpreter was checked by its real path only: a venv's ``bin/python`` links to an open
    ``/usr/bin/python3``, so the check passed, and every round was disqualified with "Permission
    denied" (a silent wrong grade). The player runs it by the venv's name: the closed folder on
    that way is named in one line, before round one."""
    python = closed_venv / "venv" / "bin" / "python"
    args = ["-m", "moocow", "grade", "students/ada/cmdline_thief.py", "--game", GAME, "--rounds", "2"]
    done = subprocess.run([*DROPPED, str(python), *args], cwd=course, capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip
    assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
    assert done.stderr.splitlines() == [
        f"error: player 'students/ada/cmdline_thief.py': '{python}' is not reachable by other users: the "
        f"folder '{closed_venv}' is closed to them, and the sandbox runs players under an unprivileged "
        f"user id (chmod o+x {closed_venv}, or install where every user can reach)"
    ]


IPC_LEFT_BEHIND = """
import ctypes, os, sys
from moocow.sandbox.cleanup import _ipc_objects_of, remove_left_behind
uid = int(sys.argv[1])
child = os.fork()
if child == 0:  # a player's process: its own user id, shared memory and a queue made for the next one
    os.setresuid(uid, uid, uid)
    libc = ctypes.CDLL(None)
    libc.shmget(0xA6B7, 4096, 0o1666)
    libc.msgget(0xA6B8, 0o1666)
    os._exit(0)
os.waitpid(child, 0)
count = lambda: sum(len(_ipc_objects_of(kind, uid)) for kind in ("shm", "msg"))
made = count()
remove_left_behind(uid)
print(made, count())
"""


def test_a_players_system_v_objects_are_removed_without_cap_sys_admin() -> None:
    """Root without ``CAP_SYS_ADMIN`` may not remove another user's System V objects, so the sweep
    after a session left a player's shared memory and queues for the next player at exactly the
    level Gradescope gives: they are removed as their owner."""
    uid = 2_147_000_001
    done = subprocess.run(
        [*DROPPED, sys.executable, "-c", IPC_LEFT_BEHIND, str(uid)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "0"]
