"""Tournaments on a Dask cluster: a real ``distributed.LocalCluster``, results equal to this machine's."""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.runner.tournament import Tournament, build_tournament, run_tournament
from tests.test_runner_grade_stderr import PRINTER
from tests.test_runner_wordle import BREACH, VERSION_2, write_lists

distributed = pytest.importorskip("distributed")

PLAYERS = Path(__file__).with_name("players")


@pytest.fixture(scope="module")
def cluster() -> Iterator[object]:
    """Two worker processes of one thread each."""
    with local_cluster(workers=2, threads=1) as local:
        yield local


def local_cluster(workers: int, threads: int) -> Any:
    """A cluster of worker processes on this machine (with nannies, which restart a killed worker)."""
    return distributed.LocalCluster(
        n_workers=workers, threads_per_worker=threads, processes=True, dashboard_address=":0"
    )


def tournament(player: str, rounds: int) -> Tournament:
    return build_tournament(
        {"players": ["minmax", player], "games": ["mastermind:pegs=3,colors=4", "bottles:n=4"],
         "rounds": rounds, "seed": 7}
    )  # fmt: skip


def rows(outcome: object) -> list[dict[str, object]]:
    return [result.without_timing() for result in outcome.results]  # type: ignore[attr-defined]


class KillWorkersOnFirstSession:
    """A progress that kills the given worker processes when the first session's rounds come in."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids
        self.killed = False

    def begin(self, total: int, done: int) -> None:
        pass

    def advance(self, result: object) -> None:
        if not self.killed:
            self.killed = True
            for pid in self.pids.values():
                os.kill(pid, signal.SIGKILL)


def test_a_tournament_on_the_cluster_equals_one_played_here(cluster: object, tmp_path: Path) -> None:
    """Every round, sandboxed module player included, is what the local pool plays; the file has them."""
    chosen = tournament(str(PLAYERS / "first_candidate.py"), rounds=4)
    here = run_tournament(chosen, workers=1)
    there = run_tournament(chosen, tmp_path / "r.jsonl", scheduler=cluster.scheduler_address)  # type: ignore[attr-defined]
    assert rows(there) == rows(here) and len(rows(here)) == 16
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 1 + 16  # header, who the module player said it was, then every round


def test_wordle_on_the_cluster_equals_wordle_played_here(cluster: object, tmp_path: Path) -> None:
    """Marks reach a version-2 program on a worker as here, and hard mode refuses the same guess there."""
    write_lists(tmp_path)
    spec = f"wordle:answers={tmp_path / 'answers.txt'},guesses={tmp_path / 'guesses.txt'},hard=true"
    chosen = build_tournament({"players": [VERSION_2, BREACH], "games": [spec], "rounds": 2, "seed": 3})
    here = run_tournament(chosen, workers=1)
    there = run_tournament(chosen, scheduler=cluster.scheduler_address)  # type: ignore[attr-defined]
    assert rows(there) == rows(here)
    # zzzzz breaks hard mode exactly where aahed revealed a letter (the secrets follow the spec's path)
    breached = [None] * 2 + [
        "invalid" if set(row["secret"]) & set("aahed") else "mercy" for row in rows(here)[2:]
    ]
    assert [row["failure"] for row in rows(here)] == breached


def test_a_worker_killed_mid_run_costs_nothing(cluster: object) -> None:
    """Both workers killed when the first session is in: Dask plays the sessions under way again."""
    chosen = tournament(str(PLAYERS / "slow_first.py"), rounds=6)
    client = distributed.Client(cluster.scheduler_address, set_as_default=False)  # type: ignore[attr-defined]
    before = client.run(os.getpid)  # worker address -> process id

    killer = KillWorkersOnFirstSession(before)
    try:
        there = run_tournament(chosen, scheduler=cluster.scheduler_address, progress=killer)  # type: ignore[attr-defined]
        client.wait_for_workers(2, timeout=60)
        after = client.run(os.getpid)
    finally:
        client.close()
    assert killer.killed and not set(before.values()) & set(after.values())  # nannies started new ones
    assert rows(there) == rows(run_tournament(chosen, workers=1))


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("tcp://127.0.0.1:9", "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"),
        ("", "scheduler must be"),
    ],
)
def test_a_scheduler_that_cannot_be_used_is_one_line(
    address: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No scheduler there, or no address: one line, exit 2, before any round."""
    from moocow.cluster import connection as on_dask

    monkeypatch.setattr(on_dask, "CONNECT_SECONDS", 1.0)
    result = CliRunner().invoke(
        app,
        ["tournament", "-p", "minmax", "-g", "bottles:n=4", "-r", "2", "--seed", "1", "--scheduler", address],
    )
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and message in errors[0]


@pytest.mark.parametrize(
    ("line", "options", "message"),
    [
        ('scheduler = "foo://bar"', [], "cannot reach the Dask scheduler at 'foo://bar'"),
        ("scheduler = 8786", [], "scheduler must be a Dask address"),
        ('scheduler = "tcp://127.0.0.1:9"', ["--scheduler", "foo://baz"], "at 'foo://baz'"),
    ],
)
def test_the_toml_file_names_the_scheduler_and_the_option_overrides_it(
    line: str, options: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``scheduler`` in the tournament file is the cluster to use (here a wrong one, said in one line)."""
    config = tmp_path / "course.toml"
    config.write_text(f'players = ["minmax"]\ngames = ["bottles:n=4"]\nrounds = 2\n{line}\n')
    monkeypatch.setenv("MOOCOW_SEED", "1")
    result = CliRunner().invoke(app, ["tournament", "--config", str(config), *options])
    assert result.exit_code == 2, result.output
    errors = result.stderr.splitlines()
    assert len(errors) == 1 and errors[0].startswith("error: ") and message in errors[0]


@pytest.fixture
def web_server() -> Iterator[str]:
    """An HTTP server, as at a dashboard's port: it answers Dask's greeting with a 400."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("where", ["bad scheme", "web server", "a worker"])
def test_an_address_that_is_not_a_scheduler_is_one_line_at_once(
    where: str, cluster: object, web_server: str
) -> None:
    """A wrong address, an HTTP server, a worker's address: one line, exit 2, no traceback on the way
    out, and at once: no Dask client is made (one that never started took twenty seconds to close,
    then printed a traceback), so making one ends the run with another message."""
    workers = cluster.scheduler_info["workers"]  # type: ignore[attr-defined]
    address = {"bad scheme": "foo://bar", "web server": web_server, "a worker": next(iter(workers))}[where]
    command = [sys.executable, "-c", NO_CLIENT + "main()", "tournament", "-p", "minmax", "-g", "bottles:n=4",
               "-r", "2", "--scheduler", address]  # fmt: skip
    completed = subprocess.run(
        command, capture_output=True, text=True, timeout=120, env={**os.environ, "MOOCOW_SEED": "1"}
    )
    lines = completed.stderr.splitlines()
    assert completed.returncode == 2 and len(lines) == 1, completed.stderr
    assert lines[0].startswith("error: ") and repr(address) in lines[0]
    if where == "a worker":
        assert "what answers there is a Dask worker" in lines[0]


NO_CLIENT = """import sys, distributed
from moocow.cli import main
def made(*args, **kwargs):
    raise SystemExit("a Dask client was made for an address that is not a scheduler's")
distributed.Client.__init__ = made
sys.argv[0] = "moocow"
"""
"""moocow's command line, in a process where making a Dask client ends it with a message."""


def test_the_run_leaves_no_queue_on_the_scheduler(cluster: object) -> None:
    """The rounds' queue is dropped once the run is over: a course's scheduler does not grow per run."""
    client = distributed.Client(cluster.scheduler_address, set_as_default=False)  # type: ignore[attr-defined]

    def queues() -> set[str]:
        return set(
            client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.extensions["queues"].queues))
        )

    try:
        before = queues()
        run_tournament(tournament("first", rounds=2), scheduler=cluster.scheduler_address)  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while queues() - before and time.monotonic() < deadline:
            time.sleep(0.05)  # the closes travel on Dask's batched stream
        assert not queues() - before
    finally:
        client.close()


def test_a_killed_client_resumes_on_the_cluster(cluster: object, tmp_path: Path) -> None:
    """The runner killed once some sessions are in the file; --resume plays only the rest, same results."""
    address = cluster.scheduler_address  # type: ignore[attr-defined]
    player = str(PLAYERS / "slow_first.py")
    results = tmp_path / "r.jsonl"
    command = [
        sys.executable, "-c", "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()",
        "tournament", "-p", "minmax", "-p", player, "-g", "mastermind:pegs=3,colors=4", "-g", "bottles:n=4",
        "-r", "12", "--seed", "7", "--results", str(results), "--scheduler", address,
    ]  # fmt: skip
    runner = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and runner.poll() is None:
        if results.exists() and len(results.read_text().splitlines()) > 1:
            break
        time.sleep(0.05)
    runner.kill()
    runner.wait()
    saved = len(results.read_text().splitlines()) - 1
    assert 0 < saved < 48, "the runner was to be killed with some rounds saved and some not"
    chosen = tournament(player, rounds=12)
    resumed = run_tournament(chosen, results, resume=True, scheduler=address)
    assert resumed.played == 48 - saved
    assert rows(resumed) == rows(run_tournament(chosen, workers=1))


def test_grading_on_the_cluster_gives_the_course_log_of_this_machine(cluster: object) -> None:
    """``grade --scheduler``: the same log, the player's identity included, as a local grade."""
    from moocow.runner.grading import grade

    player = str(PLAYERS / "first_candidate.py")
    here = grade(player, game="mastermind:pegs=3,colors=4", seed=3, rounds=5)
    there = grade(
        player, game="mastermind:pegs=3,colors=4", seed=3, rounds=5, scheduler=cluster.scheduler_address
    )  # type: ignore[attr-defined]
    assert there.log_lines() == here.log_lines() and there.identity == here.identity


def test_grading_on_the_cluster_shows_the_players_stderr_as_here(cluster: object, tmp_path: Path) -> None:
    """``grade --scheduler`` shows under each lost round the lines the player wrote to stderr, as a
    local grade does (rounds came back from workers without them)."""
    from moocow.runner.grading import grade

    player = tmp_path / "printer.py"
    player.write_text(PRINTER)
    here = grade(str(player), game="mastermind", seed=3, rounds=1)
    there = grade(str(player), game="mastermind", seed=3, rounds=1, scheduler=cluster.scheduler_address)  # type: ignore[attr-defined]
    assert "  stderr: giving up \\x1b[2J here" in here.failures(stderr=True)
    assert there.failures(stderr=True) == here.failures(stderr=True)


def test_a_session_lost_more_often_than_allowed_loses_its_rounds_with_the_reason() -> None:
    """With allowed-failures 0, a worker killed under a session loses its rounds, recorded; the rest play."""
    import dask

    chosen = tournament(str(PLAYERS / "slow_first.py"), rounds=6)
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        local_cluster(workers=2, threads=1) as local,
        distributed.Client(local.scheduler_address, set_as_default=False) as client,
    ):
        victim = dict([next(iter(client.run(os.getpid).items()))])  # one worker; the other goes on
        outcome = run_tournament(
            chosen, scheduler=local.scheduler_address, progress=KillWorkersOnFirstSession(victim)
        )
    lost = [result for result in outcome.results if result.failure == "crash"]
    assert len(outcome.results) == 24 and lost
    assert all("allowed-failures" in result.reason and result.score == 20 for result in lost)


def test_rounds_reach_the_runner_one_by_one_not_a_session_at_once(cluster: object) -> None:
    """Each round is recorded as its worker finishes it: one session's rounds arrive over its whole run."""
    player = str(PLAYERS / "slow_first.py")
    settings = {"players": [player], "games": ["mastermind:pegs=3,colors=4"], "rounds": 12, "seed": 7}

    class Arrivals:
        def __init__(self) -> None:
            self.times: list[float] = []

        def begin(self, total: int, done: int) -> None:
            pass

        def advance(self, result: object) -> None:
            self.times.append(time.monotonic())

    arrivals = Arrivals()
    run_tournament(build_tournament(settings), scheduler=cluster.scheduler_address, progress=arrivals)  # type: ignore[attr-defined]
    assert len(arrivals.times) == 12
    assert arrivals.times[-1] - arrivals.times[0] > 0.2  # 12 rounds of 10 ms guesses, not one batch


def test_a_worker_sweeps_the_folders_of_workers_killed_under_a_session(cluster: object) -> None:
    """A worker killed under a session leaves its folder; the next session on that machine removes it."""
    import tempfile

    from moocow.runner.cluster import RUN_FOLDER

    gone = subprocess.Popen(["true"])
    gone.wait()
    left = Path(tempfile.gettempdir()) / f"{RUN_FOLDER}{gone.pid}-left"
    (left / "player").mkdir(parents=True)
    (left / "player" / "bot.py").write_text("secret work\n")
    run_tournament(tournament("first", rounds=1), scheduler=cluster.scheduler_address)  # type: ignore[attr-defined]
    assert not left.exists()


class KillOnFirstRound:
    """A progress that kills a process when the first round comes in."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    def begin(self, total: int, done: int) -> None:
        pass

    def advance(self, result: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def test_a_scheduler_lost_mid_run_is_one_line_and_the_rounds_stay(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The scheduler killed mid-run: the client logged every reconnection it tried, then a traceback
    (99 lines, exit 1). It is one line saying how to go on, and the rounds played are in the file."""
    from moocow.engine.errors import MoocowError

    file = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(file)], **quiet,
    )  # fmt: skip
    worker = None
    try:
        for _ in range(300):
            if file.exists() and file.stat().st_size:
                break
            time.sleep(0.1)
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(file),
             "--nthreads", "1", "--no-dashboard"], **quiet,
        )  # fmt: skip
        address = json.loads(file.read_text())["address"]
        results = tmp_path / "r.jsonl"
        with pytest.raises(MoocowError, match="lost the Dask scheduler during the run; --resume finishes it"):
            run_tournament(
                tournament(str(PLAYERS / "slow_first.py"), rounds=40),
                scheduler=address, progress=KillOnFirstRound(scheduler), results=results,
            )  # fmt: skip
        assert len(results.read_text().splitlines()) >= 2
        assert "distributed.client - ERROR" not in capfd.readouterr().err
    finally:
        for process in (scheduler, worker):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()


# ------------------------------------------------------------------ sessions side by side on one worker
@pytest.fixture(scope="module")
def threaded() -> Iterator[object]:
    """One worker process of four threads: sessions side by side in one process, as Dask's default."""
    with local_cluster(workers=1, threads=4) as local:
        yield local


SMALL = "mastermind:pegs=2,colors=2"
FOULER = "sh -c 'read x; echo moocow 1; while read y; do echo x; done'"
"""Answers ``x`` at once, every round: each round starts and ends a fresh sandboxed process."""
SCRIBBLER = "sh -c 'read x; echo moocow 1; while read y; do echo 1; done'"
"""Another fouler: a guess too short."""
HONEST = str(PLAYERS / "first_candidate.py")


def by_player(outcome: object, player: str) -> list[dict[str, object]]:
    """A player's rounds, in entry and round order."""
    played = [r for r in outcome.results if r.player == player]  # type: ignore[attr-defined]
    return [r.without_timing() for r in sorted(played, key=lambda r: (r.game, r.round))]


def fouls(outcome: object, player: str) -> set[tuple[str | None, str | None]]:
    return {(r.failure, r.reason) for r in outcome.results if r.player == player}  # type: ignore[attr-defined]


def test_a_fouler_beside_an_honest_player_on_a_threaded_worker_leaves_its_results_alone(
    threaded: object,
) -> None:
    """200 rounds of a fouler beside an honest player on one worker's threads: the honest player's
    results are its results alone, and the fouler's every round is its own foul. A session's end
    once killed every process its worker had started meanwhile: the honest player lost 60 rounds of
    60 ("closed its output but kept running"), or the fouler was killed at setup."""
    settings = {"players": [FOULER, HONEST], "games": [SMALL], "rounds": 200, "seed": 11}
    together = run_tournament(build_tournament(settings), scheduler=threaded.scheduler_address)  # type: ignore[attr-defined]
    alone = run_tournament(build_tournament({**settings, "players": [HONEST]}), workers=1)
    assert by_player(together, HONEST) == by_player(alone, HONEST)
    assert fouls(together, FOULER) == {("invalid", f"'x' is not a guess of {SMALL}")}


def test_many_short_sessions_side_by_side_touch_nothing_of_each_other(threaded: object) -> None:
    """Two foulers and two honest players on three entries, four rounds each: twelve sessions on four
    threads, a fresh sandbox every fouled round; every player's rounds are what it plays alone."""
    games = [SMALL, "mastermind:pegs=2,colors=3", "mastermind:pegs=3,colors=2"]
    settings = {"players": [FOULER, HONEST, SCRIBBLER, str(PLAYERS / "mastermind.sh")], "games": games,
                "rounds": 4, "seed": 12}  # fmt: skip
    together = run_tournament(build_tournament(settings), scheduler=threaded.scheduler_address)  # type: ignore[attr-defined]
    honest = settings["players"][1::2]
    alone = run_tournament(build_tournament({**settings, "players": honest}), workers=1)
    for player in honest:
        assert by_player(together, player) == by_player(alone, player)
    assert {reason for _, reason in fouls(together, FOULER)} == {
        f"'x' is not a guess of {game}" for game in games
    }
    assert {failure for failure, _ in fouls(together, SCRIBBLER)} == {"invalid"}


def processes_marked(mark: str) -> list[int]:
    """The processes whose command line holds ``mark`` (a sandbox's, bubblewrap's and its launcher's)."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and mark.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
    return found


def slow_player(mark: str) -> str:
    """A player taking 50 ms a guess, ``mark`` in the command line of each of its processes."""
    return f"sh -c 'read x; echo moocow 1; while read y; do sleep 0.05; echo 11; done' {mark}"


def gone(mark: str) -> bool:
    """Whether the processes of the player marked ``mark`` are gone, waiting at most a minute for it
    (a bound for a hang: the stop arrives in a fraction of a second; the session would play on for
    500 rounds of about a second)."""
    deadline = time.monotonic() + 60
    while processes_marked(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not processes_marked(mark)


class InterruptOnFirstRound:
    """A progress that raises ``KeyboardInterrupt`` (Ctrl-C) when the first round comes in."""

    def __init__(self, mark: str) -> None:
        self.mark = mark
        self.playing = False

    def begin(self, total: int, done: int) -> None:
        pass

    def advance(self, result: object) -> None:
        self.playing = bool(processes_marked(self.mark))
        raise KeyboardInterrupt


def test_an_interrupted_run_stops_its_sessions_on_the_workers(threaded: object) -> None:
    """Ctrl-C once a round is in: the session its worker was playing ends at once, its player's
    processes gone (128 processes of one player were alive minutes after a stopped run)."""
    mark = f"moocow-stop-{os.getpid()}-interrupted"
    settings = {"players": [slow_player(mark)], "games": [SMALL], "rounds": 500, "seed": 1}
    interrupt = InterruptOnFirstRound(mark)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(build_tournament(settings), scheduler=threaded.scheduler_address, progress=interrupt)  # type: ignore[attr-defined]
    assert interrupt.playing and gone(mark)


def test_a_killed_runner_stops_its_sessions_on_the_workers(threaded: object, tmp_path: Path) -> None:
    """The runner killed once a round is in, its client gone without a word: the scheduler drops its
    tasks, and the session its worker was playing ends, its player's processes gone."""
    mark = f"moocow-stop-{os.getpid()}-killed"
    results = tmp_path / "r.jsonl"
    command = [
        sys.executable, "-c", "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()",
        "tournament", "-p", slow_player(mark), "-g", SMALL, "-r", "500", "--seed", "1", "--results",
        str(results), "--scheduler", threaded.scheduler_address,  # type: ignore[attr-defined]
    ]  # fmt: skip
    runner = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (results.exists() and len(results.read_text().splitlines()) > 1):
            assert runner.poll() is None and time.monotonic() < deadline, "no round was played"
            time.sleep(0.05)
        assert processes_marked(mark), "the player was to be playing"
    finally:
        runner.kill()
        runner.wait()
    assert gone(mark)
