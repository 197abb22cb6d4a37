"""Each level of confinement does what it says; a machine that can confine no one says so before round one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.engine.errors import MoocowError
from moocow.runner.grading import grade
from moocow.runner.tournament import build_tournament
from moocow.sandbox import cleanup, sandbox, usage
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import Confinement, SandboxPolicy

PLAYERS = Path(__file__).parent / "players"
GAME = "mastermind:pegs=3,colors=3"
FAST = Limits(guess_seconds=2, setup_seconds=10, round_seconds=10)
needs_root = pytest.mark.skipif(not sandbox.running_as_root(), reason="the runner is not root here")
LEVEL, WHY = sandbox.strongest()
needs_namespaces = pytest.mark.skipif(LEVEL is not Confinement.NAMESPACES, reason=f"no namespaces: {WHY}")


def identity_of(command: str, level: Confinement | None = None) -> list[str]:
    """What a shell player reports in its handshake, run at ``level``."""
    policy = SandboxPolicy(level=level)
    found = grade(command, game=GAME, rounds=1, limits=FAST, sandbox=policy).identity
    return [found.student_id, *found.author.split()]


@needs_root
@pytest.mark.parametrize(
    "level", [Confinement.USER, pytest.param(Confinement.NAMESPACES, marks=needs_namespaces)]
)
def test_as_root_a_player_is_an_unprivileged_user_that_cannot_read_or_signal_the_runner(
    tmp_path: Path, level: Confinement
) -> None:
    """Its uid is its own, a file only root may read stays closed, and the runner cannot be signalled."""
    private = tmp_path / "private.txt"
    private.write_text("TOPSECRET")
    private.chmod(0o600)
    report = (
        f"sh -c 'read x; echo moocow 1 $(id -u) $(cat {private} 2>/dev/null || echo unread)"
        f" $(kill -0 {os.getpid()} 2>/dev/null && echo signalled || echo untouched); cat'"
    )
    uid, *rest = identity_of(report, level)
    assert int(uid) >= sandbox.PLAYER_UID_BASE and rest == ["unread", "untouched"]


@needs_namespaces
def test_a_player_can_neither_lock_nor_watch_the_files_other_players_see() -> None:
    """Players running at once see the same read-only files; two colluding players passed secrets
    through locks on them, one bit per file. Locks and watches are refused (``sandbox/seccomp.py``)."""
    channels = identity_of(f"{sys.executable} {PLAYERS / 'hostile' / 'signaller.py'}")
    assert channels == [
        "channels", "flock:refused", "lockf:refused", "ofd:refused", "dnotify:refused", "inotify:refused",
        "keyring:refused", "add_key:refused", "nowait:refused", "terminals:refused",
    ]  # fmt: skip


@needs_root
def test_as_root_a_player_file_its_user_cannot_read_is_refused_before_round_one(tmp_path: Path) -> None:
    """A player in a folder closed to other users is one line naming it, not a disqualification later."""
    folder = tmp_path / "closed"
    folder.mkdir(mode=0o700)
    (folder / "bot.py").write_text("def next_guess(game, history):\n    return '111'\n")
    with pytest.raises(MoocowError, match=r"closed' is not readable by other users.*chmod o\+rX"):
        build_tournament({"players": [str(folder / "bot.py")], "games": [GAME]})


def test_without_any_confinement_players_outside_the_engine_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No namespaces and not root: one line and exit 2, unless --no-sandbox; strategies still play."""
    monkeypatch.setattr(sandbox, "strongest", lambda: (Confinement.NONE, "no bubblewrap"))
    player = str(PLAYERS / "first_candidate.py")
    refused = CliRunner().invoke(app, ["tournament", "-p", player, "-g", GAME, "-r", "1"])
    assert refused.exit_code == 2
    assert refused.output.strip().splitlines() == [
        "error: cannot sandbox players on this machine (no bubblewrap); --no-sandbox runs them unconfined, "
        "as your own user, which a hostile player can exploit"
    ]
    allowed = CliRunner().invoke(app, ["tournament", "-p", player, "-g", GAME, "-r", "1", "--no-sandbox"])
    assert allowed.exit_code == 0, allowed.output
    engine_only = CliRunner().invoke(app, ["tournament", "-p", "minmax", "-g", GAME, "-r", "1"])
    assert engine_only.exit_code == 0, engine_only.output
    tree = ["tree", "mastermind:pegs=2,colors=2", "--player", player, "--show", "1"]
    assert CliRunner().invoke(app, tree).exit_code == 2
    assert CliRunner().invoke(app, [*tree, "--no-sandbox"]).exit_code == 0


def test_a_level_stronger_than_the_machine_allows_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Insisting on namespaces where only a user id can be had is an error, not a weaker sandbox."""
    monkeypatch.setattr(sandbox, "strongest", lambda: (Confinement.USER, "seccomp forbids namespaces"))
    with pytest.raises(MoocowError, match="seccomp forbids namespaces"):
        SandboxPolicy(level=Confinement.NAMESPACES).confinement()
    assert SandboxPolicy(level=Confinement.USER).confinement() is Confinement.USER
    assert SandboxPolicy(unconfined=True).confinement() is Confinement.NONE


@needs_namespaces
def test_in_namespaces_the_player_sees_only_its_own_processes_and_no_network() -> None:
    """A fresh /proc: a handful of processes, the runner's pid not among them; loopback its only interface."""
    report = (
        'sh -c \'read x; echo moocow 1 $(ls /proc | grep -c "^[0-9]") '
        f"$(test -e /proc/{os.getpid()} && echo runner-seen || echo runner-unseen) "
        '$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "); cat\''
    )
    processes, runner, interfaces = identity_of(report)
    assert int(processes) < 10
    assert (runner, interfaces) == ("runner-unseen", "lo")


def test_what_protected_the_run_is_recorded_in_the_results_header_and_for_gradescope(tmp_path: Path) -> None:
    """The results header and results.json name the sandbox and the limits in force; resume takes
    them as a record, except --no-sandbox where players were sandboxed."""
    player = str(PLAYERS / "first_candidate.py")
    results, gradescope = tmp_path / "r.jsonl", tmp_path / "results.json"
    arguments = ["tournament", "-p", player, "-g", GAME, "-r", "2", "--results", str(results)]
    assert CliRunner().invoke(app, arguments).exit_code == 0
    referee = json.loads(results.read_text().splitlines()[0])["referee"]
    assert referee["sandbox"]["confinement"] == str(LEVEL) and referee["limits"] == Limits().to_dict()
    unconfined = CliRunner().invoke(app, [*arguments, "--resume", "-r", "2", "--no-sandbox"])
    assert unconfined.exit_code == 2 and "was played with players sandboxed" in unconfined.output
    resumed = CliRunner().invoke(app, [*arguments, "--resume", "-r", "2"])
    assert resumed.exit_code == 0, resumed.output
    graded = ["grade", player, "--game", GAME, "--rounds", "1", "--gradescope", str(gradescope)]
    outcome = CliRunner().invoke(app, graded)
    assert outcome.exit_code == 0, outcome.output
    assert json.loads(gradescope.read_text())["extra_data"]["referee"] == referee
    assert f"players sandboxed: {LEVEL}" in outcome.stderr


GROUPS = ["cgroup", "scan"]
"""How a sandbox's processes are counted: a cgroup v2 where one can be made, a scan of /proc anywhere."""


@pytest.fixture(params=GROUPS)
def counting(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Count the player's processes one way or the other (serial play: the runner's own process counts)."""
    if request.param == "scan":
        monkeypatch.setattr(usage.CgroupGroup, "make", classmethod(lambda cls, memory, processes: None))
    else:
        group = usage.CgroupGroup.make(0, 0)
        if group is None:
            pytest.skip("no cgroup v2 can be made here")
        group.close()
    return str(request.param)


def test_cpu_spread_over_children_is_counted_together(counting: str) -> None:
    """Four spinning children of an idle parent trip the CPU limit, not the clock."""
    spinner = "sh -c 'read x; echo moocow 1; read y; for i in 1 2 3 4; do (while :; do :; done) & done; wait'"
    limits = Limits(guess_seconds=5, guess_cpu=0.3, setup_seconds=10, forks=True)  # counted, or not: try both
    result = grade(spinner, game=GAME, rounds=1, limits=limits).rounds[0]
    assert result.failure == "cpu", result.reason
    assert "over 0.3 s of CPU per guess" in (result.reason or "")


@needs_namespaces
def test_memory_spread_over_children_is_counted_together(counting: str) -> None:
    """Four children holding 120 MB each: within the 256 MB each may have, over the 256 MB all may hold."""
    limits = Limits(guess_seconds=10, memory_mb=256, setup_seconds=10, forks=True)
    result = grade(str(PLAYERS / "spread_memory.py"), game=GAME, rounds=1, limits=limits).rounds[0]
    assert result.failure == "memory", result.reason
    assert "together, over the 256 MB limit" in (result.reason or "")


JAVA_PLAYER = """
import java.io.*;
public class Bot {
  public static void main(String[] a) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    in.readLine();
    System.out.println("moocow 1 java");
    String line;
    while ((line = in.readLine()) != null && !line.startsWith("quit")) System.out.println("111");
  }
}
"""


@needs_namespaces
@pytest.mark.skipif(shutil.which("javac") is None, reason="no Java here")
def test_a_java_player_runs_in_the_sandbox_under_the_default_limits(tmp_path: Path) -> None:
    """The sandbox made /etc 0700, so `java` (a link through /etc/alternatives) could not run; the
    JVM must also start under the seccomp filter (it maps its modules shared and read-only)."""
    (tmp_path / "Bot.java").write_text(JAVA_PLAYER)
    subprocess.run(["javac", "Bot.java"], cwd=tmp_path, check=True, timeout=120)
    for path in (tmp_path, tmp_path / "Bot.class"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    player = f"java -Xmx512m -XX:CompressedClassSpaceSize=64m -cp {tmp_path} Bot"
    identity = grade(player, game=GAME, rounds=1, limits=replace(FAST, setup_seconds=60)).identity
    assert identity.student_id == "java"


@needs_namespaces
@pytest.mark.parametrize("named", ["/proc", "/", "/tmp"])
def test_a_command_naming_a_kernel_view_or_a_folder_above_is_not_shown_the_hosts(named: str) -> None:
    """A command naming /proc had the host's /proc bound over the sandbox's (every process, the
    runner's command line with its seed); naming / bound the whole host; and the digest of the
    player's files then read /proc/kmsg and waited forever."""
    marker = Path(tempfile.gettempdir()) / f"moocow-host-only-{os.getpid()}"
    marker.write_text("the host's /tmp\n")
    try:
        seen = f"$(test -e {marker} && echo seen || echo unseen)"
        report = f"sh -c 'read x; echo moocow 1 $(ls /proc | grep -c \"^[0-9]\") {seen}; cat' {named}"
        processes, host_tmp = identity_of(report)[:2]
    finally:
        marker.unlink()
    assert int(processes) < 10 and host_tmp == "unseen"
    described = threading.Thread(
        target=lambda: build_tournament({"players": [report], "games": [GAME]}).describe(), daemon=True
    )
    described.start()
    described.join(30)
    assert not described.is_alive(), "the player's digest is reading a kernel file"


@needs_root
def test_outside_bubblewrap_what_a_player_leaves_where_anyone_may_write_is_removed() -> None:
    """At the ``user`` level a player may write in /tmp, /var/tmp and /dev/shm: notes left there
    reached the next player, who plays the same secrets, and stayed after the run."""
    note = f"moocow-note-{os.getpid()}"
    writer = (
        f"sh -c 'read x; for d in /tmp /var/tmp /dev/shm; do echo solved > $d/{note}; done; "
        f"mkdir -p /tmp/{note}.d; echo moocow 1; cat'"
    )
    identity_of(writer, Confinement.USER)
    left = [path for folder in ("/tmp", "/var/tmp", "/dev/shm") for path in Path(folder).glob(f"{note}*")]
    assert left == []


def test_whatever_a_player_made_of_a_folder_is_removed_without_blocking(tmp_path: Path) -> None:
    """A FIFO where a folder was (rmtree opened it and waited forever) and 3,000 nested folders
    (rmtree recursed into RecursionError, a traceback that ended the tournament) both go."""
    fifo = tmp_path / "home"
    os.mkfifo(fifo)
    deep = tmp_path / "deep"
    os.makedirs("/".join([str(deep), *["d"] * 200]))
    for _ in range(14):  # deeper than any path: nest by moving the tree into a fresh child
        (tmp_path / "next").mkdir()
        deep.rename(tmp_path / "next" / "d")
        (tmp_path / "next").rename(deep)
    done = threading.Thread(
        target=lambda: (cleanup.remove_tree(fifo), cleanup.remove_tree(deep)), daemon=True
    )
    done.start()
    done.join(60)
    assert not done.is_alive() and not fifo.exists() and not deep.exists()


@needs_root
def test_outside_bubblewrap_a_players_system_v_objects_are_removed() -> None:
    """Without an IPC namespace, shared memory and message queues a player made carried notes to
    the next player: they go with its session, as its files in /tmp do."""
    maker = (
        "import ctypes, sys; libc = ctypes.CDLL(None); libc.shmget(0xA6A7, 4096, 0o1666); "
        "libc.msgget(0xA6A8, 0o1666); sys.stdin.readline(); print('moocow 1', flush=True); sys.stdin.read()"
    )
    identity_of(f'/usr/bin/python3 -c "{maker}"', Confinement.USER)
    tables = [Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:] for kind in ("shm", "msg")]
    keys = {int(line.split()[0]) for table in tables for line in table}
    assert not keys & {0xA6A7, 0xA6A8}
