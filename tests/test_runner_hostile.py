"""Hostile players, one per attack a student could make on the runner, each tried for real.

Every test runs a player from ``tests/players/hostile/`` that makes the attack and checks what
matters: the cheater gains nothing (it scores exactly what honest play scores, or loses the round
with the right failure), the runner finishes and records every round, nothing outside the sandbox
changes, and nothing of the player is left running (an autouse fixture looks after every test).
Where a thief could come back empty-handed for a reason of its own, an unconfined control run shows
that the same player does find and use the secrets without the sandbox.

They need bubblewrap's namespaces; elsewhere they are skipped, saying why. The memfd and keyring
attacks worked until the runner counted memfd files and gave each player fresh keyrings.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.engine.errors import MoocowError
from moocow.referee import bacrunner
from moocow.runner.grading import grade
from moocow.runner.results import RoundResult
from moocow.runner.tournament import build_tournament, run_tournament
from moocow.sandbox import sandbox, usage
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import PACKAGE, PLAYER_UID_BASE, Confinement, SandboxPolicy
from tests.results_helpers import round_rows

HOSTILE = Path(__file__).parent / "players" / "hostile"
HONEST = Path(__file__).parent / "players" / "first_candidate.py"
GAME = "mastermind:pegs=3,colors=3"
BIGGER = "mastermind:pegs=4,colors=4"
WORDS = ["quartz", "glyphs", "bravo", "cider", "dwarf", "nymph", "fjords", "wizard", "jumpy", "blitz"]
FAST = Limits(
    guess_seconds=2, guess_cpu=1, round_seconds=10, round_cpu=5, setup_seconds=10,
    memory_mb=256, output_mb=1, line_bytes=1000, processes=32, disk_mb=4,
)  # fmt: skip
SEED = 4242
TOKEN = "hunter2"
LEVEL, WHY = sandbox.strongest()
pytestmark = pytest.mark.skipif(
    LEVEL is not Confinement.NAMESPACES,
    reason=f"needs bubblewrap's namespaces (user namespaces, or root), which this machine lacks: {WHY}",
)
MOOCOW = [sys.executable, "-c", "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()"]
"""The ``moocow`` command, run from this interpreter."""


# ---------------------------------------------------------------------------------------- helpers
def live_processes(*markers: str) -> list[str]:
    """Live processes whose command line holds any of ``markers``: pid and command line. A process
    another test runner started (an xdist worker beside this one, playing the same hostile players)
    is not this test's: it is left out (``started_beside``), while one that escaped to init is not."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = (entry / "stat").read_bytes().rpartition(b")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if (
            state != b"Z"
            and any(marker in line for marker in markers)
            and not started_beside(int(entry.name))
        ):
            found.append(f"{entry.name}: {line}")
    return found


def _parent(pid: int) -> int:
    try:
        return int((Path("/proc") / str(pid) / "stat").read_bytes().rpartition(b")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def started_beside(pid: int) -> bool:
    """Whether ``pid`` descends from a sibling of this process (another xdist worker of the same
    run), not from this process: its players are that worker's test's to clean up."""
    ours, shared = os.getpid(), os.getppid()
    while pid > 1:
        parent = _parent(pid)
        if parent == shared:
            return pid != ours
        pid = parent
    return False


def gone(*markers: str, within: float = 3.0) -> bool:
    """Whether every process holding a marker is gone (at once, or within ``within`` seconds)."""
    deadline = time.monotonic() + within
    while live_processes(*markers):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def own_cgroups() -> list[Path]:
    """The cgroups this process has made for its players and not removed."""
    return [
        path
        for root in usage.CGROUP_ROOTS
        if (root / "cgroup.procs").exists()
        for path in (root / usage.own_cgroup(root)).glob(f"moocow-{os.getpid()}-*")
    ]


MARKS = ("vandal-was-here", "daemon-was-here", "moocow-hostile-drop", "fill-*", "hoard*")
"""Names the hostile players write, in their own /tmp when contained: never in the host's."""


def players_files_in(folder: Path) -> set[str]:
    """Entries of ``folder`` owned by a player's user id: a sandboxed player wrote there. Entries
    that go between the listing and their ``lstat`` (another run's scratch folders in the shared
    ``/tmp``) are not a player's."""
    owned = set()
    for entry in folder.iterdir():
        with contextlib.suppress(FileNotFoundError):
            if entry.lstat().st_uid >= PLAYER_UID_BASE:
                owned.add(entry.name)
    return owned


def tree(folder: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every path under ``folder`` with its mode and, for a file, its bytes."""
    return {
        str(path.relative_to(folder)): (path.lstat().st_mode, path.read_bytes() if path.is_file() else None)
        for path in sorted(folder.rglob("*"))
    }


def install(name: str, folder: Path) -> Path:
    """A copy of a hostile player in ``folder`` (open to the player's user id), as a student hands it in."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o755)
    target = folder / name
    shutil.copyfile(HOSTILE / name, target)
    target.chmod(0o644)
    return target


def moocow(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``moocow ARGS`` as a process of its own: its command line is in ``/proc`` for every process to read."""
    return subprocess.run([*MOOCOW, *args], capture_output=True, text=True, timeout=timeout, check=False)


def limit_options(limits: Limits) -> list[str]:
    """``--limit=KEY=VALUE`` for each of ``limits``."""
    return [f"--limit={name}={value}" for name, value in limits.to_dict().items()]


Played = list[tuple[int, tuple[str, ...], int, str | None]]


def played(results: tuple[RoundResult, ...], player: str) -> Played:
    """A player's rounds as the leaderboard counts them: round, guesses, score, failure."""
    return [(r.round, r.guesses, r.score, r.failure) for r in results if r.player == player]


def rows(results: Path) -> list[dict]:
    """The rounds in a results file (its header and the players' identities left out)."""
    return round_rows(results)


# ---------------------------------------------------------------------------------------- fixtures
@pytest.fixture(autouse=True)
def nothing_left_running(tmp_path: Path) -> Iterator[None]:
    """After every test: no process of its players is alive, no cgroup of theirs is left, and the host's
    ``/tmp`` holds nothing new of a player's user id."""
    host_tmp = Path(tempfile.gettempdir())
    before = players_files_in(host_tmp)
    yield
    assert gone(str(HOSTILE), str(tmp_path)), live_processes(str(HOSTILE), str(tmp_path))
    assert own_cgroups() == []
    assert {name for name in players_files_in(host_tmp) - before if not name.startswith("player-")} == set()
    assert [name for name in MARKS if list(host_tmp.glob(name))] == []


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An instructor's folder, the runner's working directory: word list, tournament file with the seed and
    a token, a seed file, students' folders side by side; the runner's environment holds the seed and an
    API token."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text("\n".join(WORDS) + "\n")
    (tmp_path / "tournament.toml").write_text(f"seed = {SEED}\n# the course's API token: {TOKEN}\n")
    (tmp_path / "seed.txt").write_text(f"{SEED}\n")
    (tmp_path / "students" / "bob").mkdir(parents=True, mode=0o755)
    (tmp_path / "students").chmod(0o755)
    (tmp_path / "students" / "bob" / "notes.txt").write_text(f"seed = {SEED}, token {TOKEN}\n")
    monkeypatch.setenv("MOOCOW_TEST_TOKEN", TOKEN)
    monkeypatch.setenv("MOOCOW_SEED", str(SEED))
    return tmp_path


# ---------------------------------------------------------------------------------------- 1, 2: secrets
@pytest.mark.parametrize("confined", [True, False], ids=["sandboxed", "unconfined-control"])
def test_the_seed_the_token_and_the_runners_memory_are_out_of_reach(course: Path, confined: bool) -> None:
    """Under ``moocow grade --seed``, a thief hunting every command line, environment, memory and file
    finds nothing and scores what honest play scores (unconfined, it finds them all and wins at once)."""
    thief = install("seed_thief.py", course / "students" / "ada")
    args = ["grade", str(thief), "--words", "words.txt", "--seed", str(SEED), "--rounds", "4"]
    args += limit_options(FAST)
    done = moocow(*args, *([] if confined else ["--no-sandbox"]))
    assert done.returncode == 0, done.stderr
    *log, total = done.stdout.splitlines()
    if not confined:
        assert {"seed", "token", "mem"} <= set(total.split()[1].removeprefix("found:").split(","))
        assert total.split()[0] == "4"  # a score of 1 in each of the four rounds
        return
    honest = grade(str(HONEST), words="words.txt", seed=SEED, rounds=4, limits=FAST)
    assert log == honest.log_lines()[:-1]
    assert total == f"{honest.total} found:nothing Thief, Seed"
    assert TOKEN not in done.stdout + done.stderr


@pytest.mark.parametrize("confined", [True, False], ids=["sandboxed", "unconfined-control"])
def test_finished_rounds_in_the_results_file_are_out_of_reach(course: Path, confined: bool) -> None:
    """A thief playing after an honest player cannot read that player's rounds, with the same secrets, in
    the results file beside it (unconfined, it reads them and scores 1 every round)."""
    thief = install("seed_thief.py", course)  # kept in the runner's folder: shown only its own file
    settings = {"players": [str(HONEST), str(thief)], "games": [BIGGER], "rounds": 4, "seed": SEED}
    settings |= {"limits": FAST, "sandbox": SandboxPolicy(unconfined=not confined)}
    outcome = run_tournament(build_tournament(settings), results=course / "results.jsonl")
    honest, stolen = played(outcome.results, str(HONEST)), played(outcome.results, str(thief))
    assert len(rows(course / "results.jsonl")) == 8
    if confined:
        assert stolen == honest
    else:
        assert [score for _, _, score, _ in stolen] == [1, 1, 1, 1] != [s for _, _, s, _ in honest]


@pytest.mark.parametrize("name", ["notes.txt", "café notes.txt"])
def test_the_seed_file_bind_mounted_into_a_players_folder_is_masked(course: Path, name: str) -> None:
    """An operator's bind mount of the seed file into a student's folder showed the player the seed
    under that name (and a name that is not ASCII, or has a space, escaped the first fix)."""
    thief = install("seed_thief.py", course / "students" / "ada")
    other = thief.parent / name
    other.write_text("")
    mounted = subprocess.run(["mount", "--bind", str(course / "seed.txt"), str(other)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot bind mount here: {mounted.stderr.decode().strip()}")
    try:
        args = ["tournament", "-p", str(HONEST), "-p", str(thief), "-g", BIGGER, "-r", "4"]
        done = moocow(*args, "--seed-file", "seed.txt", "--results", "results.jsonl", *limit_options(FAST))
    finally:
        subprocess.run(["umount", str(other)], capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    found = rows(course / "results.jsonl")
    by = {
        p: [(r["guesses"], r["score"]) for r in found if r["player"] == p] for p in (str(HONEST), str(thief))
    }
    assert len(found) == 8 and by[str(thief)] == by[str(HONEST)]


def test_a_seed_file_with_another_name_is_refused_before_round_one(course: Path) -> None:
    """A hard link of the seed file in a student's folder showed the player the seed; finding such a
    name means walking every folder a player is shown (it crashed on a folder 1,500 deep), so a
    runner's file with a second name is refused in one line."""
    os.link(course / "seed.txt", course / "students" / "bob" / "seed-copy.txt")
    done = moocow("tournament", "-p", str(HONEST), "-g", BIGGER, "-r", "1", "--seed-file", "seed.txt")
    assert done.returncode == 2 and done.stderr.startswith("error: 'seed.txt' has another name (a hard link)")
    assert len(done.stderr.splitlines()) == 1


def test_a_tournament_run_by_hand_keeps_its_seed_config_and_results_from_a_thief(course: Path) -> None:
    """``moocow tournament -c tournament.toml --seed N --results``: seed on the command line, in the
    config and in the results header, secrets in its rows; the thief scores what honest play scores."""
    thief = install("seed_thief.py", course / "students" / "ada")
    limits = "\n".join(f"{name} = {json.dumps(value)}" for name, value in FAST.to_dict().items())
    (course / "tournament.toml").write_text(
        f'players = ["{HONEST}", "{thief}"]\ngames = ["{BIGGER}"]\nrounds = 4\nseed = {SEED}\n'
        f"# the course's API token: {TOKEN}\n[limits]\n{limits}\n"
    )
    done = moocow("tournament", "-c", "tournament.toml", "--seed", str(SEED), "--results", "results.jsonl")
    assert done.returncode == 0, done.stderr
    found = rows(course / "results.jsonl")
    by = {
        name: [(r["guesses"], r["score"]) for r in found if r["player"] == str(name)]
        for name in (HONEST, thief)
    }
    assert len(found) == 8 and by[thief] == by[HONEST]


@pytest.fixture
def alias(tmp_path: Path) -> Iterator[Path]:
    """A folder a bind mount will give a second name to (root only); unmounted after the test."""
    folder = tmp_path / "alias"
    folder.mkdir()
    yield folder
    subprocess.run(["umount", str(folder)], capture_output=True, check=False)


@pytest.mark.parametrize("named", ["through ..", "through a link", "through a bind mount"])
def test_a_thief_named_through_a_link_or_dots_still_sees_no_runner_file(
    course: Path, named: str, alias: Path
) -> None:
    """A player named ``../course/thief.py`` from the course folder had the whole folder bound (its
    tournament file, seed and token in view); one named ``link/thief.py``, the link leading to the
    folder of the tournament file, or by a second name a bind mount gives the course folder, had
    that file unmasked. Folders are now compared by device and inode, not by name."""
    if named == "through ..":
        folder, thief = course, install("seed_thief.py", course)
        name = f"../{course.name}/{thief.name}"
    elif named == "through a bind mount":
        folder, thief = course, install("seed_thief.py", course)
        mounted = subprocess.run(
            ["mount", "--bind", str(course), str(alias)], capture_output=True, check=False
        )
        if mounted.returncode != 0:
            pytest.skip(f"cannot bind mount here: {mounted.stderr.decode().strip()}")
        name = str(alias / thief.name)
    else:
        folder = course / "subs"
        thief = install("seed_thief.py", folder)
        (course / "link").symlink_to(folder)
        name = f"link/{thief.name}"
    limits = "\n".join(f"{key} = {json.dumps(value)}" for key, value in FAST.to_dict().items())
    config = folder / "t.toml"
    config.write_text(
        f'players = ["{HONEST}", "{name}"]\ngames = ["{BIGGER}"]\nrounds = 4\nseed = {SEED}\n'
        f"# the course's API token: {TOKEN}\n[limits]\n{limits}\n"
    )
    done = moocow("tournament", "-c", str(config.relative_to(course)), "--results", "results.jsonl")
    assert done.returncode == 0, done.stderr
    found = rows(course / "results.jsonl")
    by = {
        player: [(r["guesses"], r["score"]) for r in found if r["player"] == player]
        for player in (str(HONEST), name)
    }
    assert len(found) == 8 and by[name] == by[str(HONEST)], done.stdout


# ---------------------------------------------------------------------------------------- 3, 4, 8: writes
def test_nothing_outside_the_sandbox_changes(course: Path) -> None:
    """Writes to the runner's folder, the host's /tmp, the word file between rounds, moocow's source, its
    own folder, the results file, a kernel setting (also from a user namespace) and its home all fail."""
    vandal = install("vandal.py", course / "students" / "ada")
    deck = bacrunner.WordSource("words.txt").spec
    results = course / "results.jsonl"
    source = PACKAGE / "referee" / "referee.py"
    before = (tree(course), source.read_bytes(), source.stat().st_mode, tree(HOSTILE))
    sysctl = Path("/proc/sys/kernel/printk_ratelimit").read_text()
    settings = {"players": [str(HONEST), str(vandal)], "games": [deck], "rounds": 4, "seed": SEED}
    outcome = run_tournament(build_tournament({**settings, "limits": FAST}), results=results)
    # No crash, so nothing was written: it plays exactly as the honest player.
    assert played(outcome.results, str(vandal)) == played(outcome.results, str(HONEST))
    assert len(rows(results)) == 8 and {row["player"] for row in rows(results)} == {str(HONEST), str(vandal)}
    results.unlink()
    assert (tree(course), source.read_bytes(), source.stat().st_mode, tree(HOSTILE)) == before
    assert Path("/proc/sys/kernel/printk_ratelimit").read_text() == sysctl
    assert not (Path(tempfile.gettempdir()) / "vandal-was-here").exists()
    identity = grade(str(vandal), words="words.txt", seed=SEED, rounds=1, limits=FAST).identity
    assert identity.student_id == "wrote:nothing"


def test_a_daemon_outlives_nothing_rewrites_nothing_and_serves_no_friend(course: Path) -> None:
    """A double-forked daemon serving TCP, an abstract socket, /dev/shm and /tmp beside a friend (two
    workers), then writing late: the friend is alone, the files stay, and the daemon dies with its session."""
    ada = install("daemon.py", course / "students" / "ada")
    bob = install("friend.py", course / "students" / "bob")
    results = course / "results.jsonl"
    settings = {"players": [str(ada), str(bob)], "games": [GAME], "rounds": 2, "seed": 1, "mercy": 4}
    outcome = run_tournament(build_tournament({**settings, "limits": FAST}), results=results, workers=2)
    ended = time.monotonic()
    # A crash is the daemon missing a channel to serve, or the friend reaching one: its reason says which.
    assert [r.failure for r in outcome.results].count("crash") == 0, [r.reason for r in outcome.results]
    written = results.read_bytes()
    later = grade(str(bob), game=GAME, rounds=1, limits=FAST).identity  # after the daemon's session
    time.sleep(max(0.0, ended + 3 - time.monotonic()))  # the daemon writes two seconds in
    assert later.student_id == "alone"
    assert results.read_bytes() == written and len(rows(results)) == 4
    assert (
        not (course / "daemon-was-here").exists() and ada.read_bytes() == (HOSTILE / "daemon.py").read_bytes()
    )
    assert gone(f"sleep 313.5 0.{zlib.crc32(str(ada.parent).encode())}", within=0)


def test_forged_rows_in_the_results_file_are_refused_on_resume(course: Path) -> None:
    """Rows a player could have appended (none can reach the file) are refused on resume, naming the line."""
    results = course / "results.jsonl"
    settings = {"players": [str(HONEST)], "games": [GAME], "rounds": 3, "seed": 5, "limits": FAST}
    run_tournament(build_tournament(settings), results=results)
    row = round_rows(results)[0]
    with results.open("a") as file:
        file.write(json.dumps({**row, "round": 2, "score": -1000}) + "\n")
    with pytest.raises(MoocowError, match="line 6"):  # a header, the player's identity, 3 rounds
        run_tournament(build_tournament(settings), results=results, resume=True)
    assert os.stat(results).st_mode & 0o777 == 0o600


# ---------------------------------------------------------------------------------------- 5: harm
def test_a_player_killing_stopping_and_writing_into_all_it_sees_harms_no_one(course: Path) -> None:
    """SIGKILL to its parent, SIGSTOP and SIGKILL to every pid in view, ptrace, garbage into every
    ``/proc/PID/fd``, beside an honest player (two workers): it hits nothing, and the rest play as alone."""
    killer = str(HOSTILE / "killer.py")
    settings = {"players": [killer, str(HONEST), "minmax"], "games": [GAME], "rounds": 3, "seed": 1}
    settings["limits"] = FAST
    together = run_tournament(build_tournament(settings), workers=2)
    alone = run_tournament(build_tournament({**settings, "players": [str(HONEST), "minmax"]}))
    assert [r.without_timing() for r in together.results if r.player != killer] == [
        r.without_timing() for r in alone.results
    ]
    assert played(together.results, killer) == played(alone.results, str(HONEST))  # no crash: it hit nothing
    assert grade(killer, game=GAME, rounds=1, limits=FAST).identity.student_id == "hit:nothing"


# ---------------------------------------------------------------------------------------- 6: limits
def limits_player(mode: str) -> tuple[str, str]:
    """The command line of ``limits.py`` in ``mode``, and the mark its processes carry."""
    mark = f"{os.getpid()}{time.monotonic_ns() % 10**9}"
    return f"{sys.executable} {HOSTILE / 'limits.py'} {mode} {mark}", mark


def play_limits(mode: str, limits: Limits = FAST) -> tuple[list[RoundResult], list[RoundResult], str]:
    """Two rounds of ``limits.py MODE`` then two of an honest player; its results, the honest's, its mark."""
    player, mark = limits_player(mode)
    settings = {"players": [player, str(HONEST)], "games": [GAME], "rounds": 2, "seed": 2, "mercy": 3}
    outcome = run_tournament(build_tournament({**settings, "limits": limits}))
    assert gone(mark), live_processes(mark)
    mine = [r for r in outcome.results if r.player == player]
    honest = [r for r in outcome.results if r.player == str(HONEST)]
    assert [r.round for r in mine] == [0, 1] and all(r.solved for r in honest)
    return mine, honest, mark


def test_memory_spread_over_children_loses_the_round_as_memory(course: Path) -> None:
    """Four children holding 100 MB each, under a 256 MB limit: every round is lost as ``memory``."""
    mine, _, _ = play_limits("memory")
    assert [r.failure for r in mine] == ["memory", "memory"]


def test_cpu_spread_over_children_loses_the_round_as_cpu_before_the_clock(course: Path) -> None:
    """Four spinning children, 0.3 s of CPU per guess, ten times that on the clock: lost as ``cpu``,
    so the CPU the children spent was seen before the clock ran out (however loaded the machine)."""
    mine, _, _ = play_limits("cpu", replace(FAST, guess_cpu=0.3, guess_seconds=3))
    assert [r.failure for r in mine] == ["cpu", "cpu"]
    assert all("over 0.3 s of CPU per guess" in (r.reason or "") for r in mine), mine


def test_a_fork_bomb_is_bounded_by_the_process_limit(course: Path) -> None:
    """Forking until it cannot: it never holds more than ``processes``, and the round goes on to the next."""
    mine, _, _ = play_limits("bomb")
    for result in mine:
        assert result.failure == "crash"
        assert int((result.reason or "").split("bomb: ")[1].split()[0]) <= FAST.processes


def test_filling_the_disk_stops_at_its_own_small_tmpfs(course: Path) -> None:
    """Filling the disk: at most ``disk_mb`` in /tmp, 1 MB in /dev/shm, nothing in the runner's folder."""
    mine, _, _ = play_limits("disk")
    for result in mine:
        amounts = dict(part.split("=") for part in (result.reason or "").split("disk: ")[1].split())
        assert int(amounts["/tmp"].removesuffix("MB")) <= FAST.disk_mb
        assert int(amounts["/dev/shm"].removesuffix("MB")) <= 1
        assert amounts[str(course)] == "0MB"
    assert list(course.glob("fill-*")) == []


def test_memory_hidden_in_memfd_files_loses_the_round_as_memory(course: Path) -> None:
    """Memory kept in memfd files, written but never mapped, three times the limit: lost as ``memory``."""
    mine, _, _ = play_limits("memfd", replace(FAST, guess_cpu=3, guess_seconds=4, output_mb=16))
    assert [r.failure for r in mine] == ["memory", "memory"]


def test_children_in_sessions_of_their_own_die_with_the_session(course: Path) -> None:
    """Double-forked ``sleep`` children that ignore hang-ups are gone when the tournament ends."""
    _, _, mark = play_limits("outlive")
    assert gone(f"sleep 313.5 0.{mark}", within=0)


def test_children_die_with_a_runner_that_is_killed(course: Path) -> None:
    """The runner SIGKILLed mid-round: the player and its double-forked children die with it."""
    player, mark = limits_player("hang")
    runner = subprocess.Popen(
        [
            *MOOCOW,
            "grade",
            player,
            "--game",
            GAME,
            "--rounds",
            "1",
            *limit_options(replace(FAST, guess_seconds=60)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while not live_processes(f"sleep 313.5 0.{mark}") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live_processes(f"sleep 313.5 0.{mark}"), "the player never started its children"
    finally:
        runner.kill()
        runner.wait()
    assert gone(mark), live_processes(mark)


# ---------------------------------------------------------------------------------------- 7: display
EVIL_PROTOCOL = (
    'sh -c \'read x; printf "moocow 1 forger Forger\\r\\033[2J\\033[H1 Perfect\\n"; '
    'read y; printf "\\033[31mboom\\r\\033[1A\\033[2K\\n" >&2; exit 1\''
)


@pytest.mark.parametrize("player", [str(HOSTILE / "forger.py"), EVIL_PROTOCOL], ids=["module", "protocol"])
def test_the_printed_log_cannot_be_forged_with_control_characters(player: str) -> None:
    """A ``\\r`` and ANSI escapes in its name and crash message reach ``moocow grade``'s output escaped."""
    outcome = CliRunner().invoke(
        app, ["grade", player, "--game", GAME, "--rounds", "1", *limit_options(FAST)]
    )
    assert outcome.exit_code == 0, outcome.output
    assert "\r" not in outcome.stdout + outcome.stderr and "\x1b" not in outcome.stdout + outcome.stderr
    assert outcome.stdout.splitlines()[-1].startswith("20 forger")
    assert "crash: exited with status 1" in outcome.stderr


# ---------------------------------------------------------------------------------------- 9: the key store
KEYCTL_JOIN_SESSION_KEYRING = 1
x86_64 = pytest.mark.skipif(os.uname().machine != "x86_64", reason="the keyring player calls x86_64 syscalls")


@x86_64
def test_the_kernel_keyring_carries_no_secret_from_one_player_to_the_next(course: Path) -> None:
    """Two students' players leave and pick up secrets in the kernel's keyring: the second gains nothing."""
    ada = install("keyring.py", course / "students" / "ada")
    bob = install("keyring.py", course / "students" / "bob")
    settings = {"players": [str(ada), str(bob)], "games": [BIGGER], "rounds": 4, "seed": 7, "limits": FAST}
    outcome = run_tournament(build_tournament(settings))
    assert played(outcome.results, str(bob)) == played(outcome.results, str(ada))


@x86_64
def test_the_runners_session_keyring_is_out_of_reach(course: Path) -> None:
    """A key the runner keeps in its session keyring (a fresh one, here) is out of a player's reach."""
    thief = install("keyring.py", course / "students" / "ada")
    runner = (
        "import ctypes, sys\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.syscall.restype = ctypes.c_long\n"
        f"assert libc.syscall(250, {KEYCTL_JOIN_SESSION_KEYRING}, None) > 0\n"
        f"key = libc.syscall(248, b'user', b'moocow-test-token', b'{TOKEN}', {len(TOKEN)}, -3)\n"
        "libc.syscall(250, 15, key, 120)\n"
        "from moocow.cli import main\n"
        "sys.argv[0] = 'moocow'\n"
        "main()\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            runner,
            "grade",
            str(thief),
            "--game",
            GAME,
            "--rounds",
            "1",
            *limit_options(FAST),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].split()[1] == "keys:nothing"
