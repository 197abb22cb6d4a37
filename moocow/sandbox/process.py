"""One player program in its sandbox: lines in and out under time, CPU, memory and size limits.

The player is started in the sandbox ``sandbox.py`` describes, through ``launch.py`` (limits set
before the player runs), as the leader of a new session, with a scrubbed environment and a home of
its own. Every read waits with a wall-clock deadline and watches the CPU time and memory of all
the player's processes together (``usage.py``, read by ``meter.py``): once per answer, when it
comes, and every ``POLL_SECONDS`` while the runner waits; the reading at the end of one answer is
the start of the next answer's and round's. Every failure is raised as a ``Foul`` naming the limit
or the exit status, with the last line of the player's stderr (``stderr_tail.py`` keeps its last
lines, for the rounds a student may see). ``close`` kills every process of the player, whatever
it started, and removes what it leaves.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from moocow.sandbox.cleanup import remove_left_behind, remove_tree
from moocow.sandbox.disk import DiskScan, shared_folders
from moocow.sandbox.fouls import Failure, Foul
from moocow.sandbox.limits import MB, Allowance
from moocow.sandbox.meter import Meter
from moocow.sandbox.orphans import Orphans
from moocow.sandbox.sandbox import Confinement, Launch, confined_command, player_uid
from moocow.sandbox.stderr_tail import ErrorOutput, RoundStderr
from moocow.sandbox.stopping import SessionStopped, Stopped, never
from moocow.sandbox.uids import PlayerUid
from moocow.sandbox.usage import CgroupGroup, ProcessGroup, ScannedGroup, Usage

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
SANDBOX_HOME = "/tmp"
"""A sandboxed player's home and temp: its own size-capped tmpfs."""
POLL_SECONDS = 0.05
"""How often CPU time (and memory, where the kernel counts it) is read while waiting for an answer."""
NOTHING_USED = Usage(0.0, 0, 0)
"""The reading of a player not started yet: its cgroup is new, its processes are not there."""
EXIT_GRACE_SECONDS = 0.5
"""How long a player that closed its output gets to exit before it is described as still running."""
HIDING = "ignored SIGCHLD, which has the kernel drop its children's CPU time from every count"
MEMORY_WORDS = ("MemoryError", "bad_alloc", "out of memory", "Cannot allocate memory", "OutOfMemoryError")


def player_environment(home: str, given: Sequence[tuple[str, str]] = ()) -> dict[str, str]:
    """What a player sees of the environment: a path, a private home, fixed hashing, one thread.

    Nothing of the runner's own environment leaks (seeds or paths an instructor keeps there);
    ``PYTHONHASHSEED=0`` makes Python players that iterate over sets repeat themselves exactly;
    ``given`` is what the referee names for the player (its ``--plugin`` files, for the adapter).
    """
    return {
        **dict(given),
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONPATH": str(PACKAGE_ROOT),
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        # The JVM flocks a file of its performance data; refused (sandbox/seccomp.py), it warns on stdout.
        "JAVA_TOOL_OPTIONS": "-XX:-UsePerfData",
    }


class PlayerProcess:
    """A running player program; ``send`` and ``receive`` raise ``Foul`` on any misbehaviour."""

    def __init__(self, launch: Launch, stopped: Stopped = never) -> None:
        self.limits = launch.limits
        self.confinement = launch.sandbox.confinement()
        self._stopped = stopped
        self._stderr = ErrorOutput(
            self.limits.output_mb * MB
        )  # first: the only thing to undo if it cannot be had
        self._bubblewrap = self.confinement is Confinement.NAMESPACES
        self._uid: PlayerUid | None = None
        self._shared_writer: int | None = None
        """The player's user id outside bubblewrap: what it leaves where anyone may write is removed."""
        self._home: Path | None = None
        self._group: ProcessGroup | None = None
        self._meter: Meter | None = None
        self._pidfd: int | None = None
        self._orphans: Orphans | None = None
        self._ends: list[int] = []
        """The runner's ends of the protocol's pipes, closed once, by ``_release``."""
        self._closed = False
        try:
            self._uid = player_uid() if self.confinement is not Confinement.NONE else None
            uid = None if self._uid is None else self._uid.uid
            self._shared_writer = uid if not self._bubblewrap else None
            self._popen = self._start(launch, uid)
        except OSError as error:  # out of processes or file descriptors: the runner's trouble, reported
            self._release()
            raise Foul(Failure.CRASH, f"could not be started: {error.strerror or error}") from None
        except BaseException:
            self._release()
            raise
        if self._group is None:
            self._group = ScannedGroup(self._popen.pid, uid)
        homes: list[str] = [] if self._home is None else [str(self._home)]
        writer, files = self._shared_writer, self.limits.files
        disk = DiskScan(writer, homes, shared_folders(), files) if writer is not None else None
        self._meter = Meter(self._group, disk, self.limits.disk_mb * MB)
        self.reading: Usage | None = NOTHING_USED
        """What the player had used at the last reading: the start of its next answer and round."""
        with contextlib.suppress(AttributeError, OSError):  # Linux 5.3 and later: a descriptor to wait on
            self._pidfd = os.pidfd_open(self._popen.pid)
        os.set_blocking(self._in, False)
        self._buffer = bytearray()

    def _start(self, launch: Launch, uid: int | None) -> subprocess.Popen[bytes]:
        """The player's home, cgroup and pipes, and its sandbox's first process started. The player's
        ends of the pipes are closed here once it has them (or has failed to start): each descriptor
        has one owner, who closes it once, for in a Dask worker's threads a number closed twice may
        be another session's by then."""
        scratch = launch.sandbox.scratch  # the run's folder, which the runner removes however the run ends
        if not self._bubblewrap:
            self._home = Path(tempfile.mkdtemp(prefix="player-", dir=scratch))
            if uid is not None:
                os.chown(self._home, uid, uid)
        self._group = CgroupGroup.make(self.limits.memory_mb * MB, self.limits.processes)
        self._orphans = Orphans()
        passed: list[int] = []
        """The player's ends, and what else goes to its sandbox (``confined_command`` adds to them)."""
        try:
            # The protocol's pipes go in as extra descriptors that the launcher moves to 0 and 1: bubblewrap's
            # own processes keep their standard descriptors, so a player closing its output must not
            # share them.
            player_in, self._in = os.pipe()
            self._ends.append(self._in)
            passed.append(player_in)
            self._out, player_out = os.pipe()
            self._ends.append(self._out)
            passed.append(player_out)
            cgroup = self._group.path if isinstance(self._group, CgroupGroup) else None
            command = confined_command(launch, self.confinement, uid, cgroup, passed)
            return subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._stderr.writing,
                env=player_environment(str(self._home or SANDBOX_HOME), launch.environment),
                # at the user level, its home, not the runner's folder (its command's paths are absolute)
                cwd=self._home if self.confinement is Confinement.USER else None,
                start_new_session=True,
                pass_fds=passed,
            )
        finally:
            for fd in passed:
                os.close(fd)
            self._stderr.started()

    @property
    def pid(self) -> int:
        """The process id of the sandbox's first process (also its process group id)."""
        return self._popen.pid

    # ------------------------------------------------------------------ usage
    def usage(self) -> Usage | None:
        """What the player's processes use together now (``None`` where it cannot be read), kept as
        the last reading."""
        assert self._meter is not None
        self.reading = self._meter.read()
        return self.reading

    def cpu_seconds(self) -> float | None:
        """CPU time used by all the player's processes at the last reading (``None`` off Linux)."""
        return None if self.reading is None else self.reading.cpu_seconds

    @property
    def measuring_seconds(self) -> float:
        """Time the runner has spent measuring this player: the referee's, never the player's."""
        return 0.0 if self._meter is None else self._meter.seconds

    @property
    def scans(self) -> int:
        """How many times all of the player's processes (and files) were looked at."""
        return 0 if self._meter is None else self._meter.scans

    # ------------------------------------------------------------------ lines
    def send(self, line: str, allowance: Allowance) -> None:
        """Write one line; a player that does not read its input runs out of time."""
        data = (line + "\n").encode("utf-8")
        deadline = time.monotonic() + allowance.seconds
        while data:
            try:
                data = data[os.write(self._in, data) :]
            except BlockingIOError:
                ready = select.select(self._stderr.watched(), [self._in], [], self._poll(deadline))
                if ready[0]:
                    self._drain_stderr()
                if not ready[1] and time.monotonic() >= deadline:
                    reason = f"did not read its input within {allowance.seconds_rule}"
                    raise Foul(Failure.TIMEOUT, reason) from None
            except (BrokenPipeError, ConnectionResetError):
                raise self._ended("stopped reading its input") from None

    def receive(self, allowance: Allowance) -> str:
        """The next line the player writes, without its line end.

        Usage is read when the line is complete, and every ``POLL_SECONDS`` while waiting; the CPU
        time of the answer counts from the last reading, the one that ended the answer before. The
        time spent reading moves the deadline on: the referee's time is not the player's."""
        deadline = time.monotonic() + allowance.seconds
        cpu_start = self.cpu_seconds()
        cap = self.limits.line_bytes
        read_at = time.monotonic()
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                self._check_usage(cpu_start, allowance)
                return self._decoded(raw, cap)
            if len(self._buffer) > cap:
                raise Foul(Failure.OUTPUT, f"sent more than {cap} bytes without a line end")
            ready = select.select([self._out, *self._stderr.watched()], [], [], self._poll(deadline))[0]
            now = time.monotonic()
            if self._stderr.reading in ready:
                self._drain_stderr()
            if not ready or now - read_at >= POLL_SECONDS:
                if self._stopped():
                    raise SessionStopped("the run stopped while its player was thinking")
                deadline += self._check_usage(cpu_start, allowance)
                read_at = time.monotonic()
            if not ready and now >= deadline:
                raise Foul(Failure.TIMEOUT, f"no answer within {allowance.seconds_rule}")
            if self._out in ready:
                chunk = os.read(self._out, 65536)
                if not chunk:
                    raise self._ended("closed its output")
                self._buffer += chunk

    def stderr_mark(self) -> int:
        """Lines the player has ended on stderr so far (a mark for ``stderr_since``)."""
        self._drain_stderr_quietly()
        return self._stderr.tail.count

    def stderr_since(self, mark: int) -> RoundStderr:
        """The last lines the player wrote to stderr after ``mark`` (before ``close``)."""
        self._drain_stderr_quietly()
        return self._stderr.tail.since(mark)

    def _drain_stderr_quietly(self) -> None:
        if not self._closed:
            self._stderr.drain()

    def _drain_stderr(self) -> None:
        """Take in what the player wrote to stderr; past the output limit, that is its foul."""
        self._stderr.drain()
        if self._over_output():
            raise Foul(
                Failure.OUTPUT, f"wrote more than {self.limits.output_mb} MB to stderr, the output limit"
            )

    def _over_output(self) -> bool:
        """Past the limit: ``output_mb`` itself may be written, as to a file."""
        return self._stderr.over()

    @staticmethod
    def _poll(deadline: float) -> float:
        """How long the next ``select`` may sleep: until the deadline, at most one usage poll."""
        return min(POLL_SECONDS, max(0.0, deadline - time.monotonic()))

    def _check_usage(self, cpu_start: float | None, allowance: Allowance) -> float:
        """CPU time, memory and disk over all the player's processes, against the allowance and the
        limits; returns the time the reading took."""
        measured = self.measuring_seconds
        used = self.usage()
        spent = self.measuring_seconds - measured
        if used is None:
            return spent
        if (
            allowance.cpu is not None
            and cpu_start is not None
            and used.cpu_seconds - cpu_start > allowance.cpu
        ):
            cpu = used.cpu_seconds - cpu_start
            raise Foul(Failure.CPU, f"used {cpu:.2f} s of CPU time, over {allowance.cpu_rule}")
        if used.hiding is not None and allowance.cpu is not None:
            raise Foul(Failure.CPU, HIDING)
        memory = self.limits.memory_mb
        if memory and used.memory_bytes > memory * MB:
            held = used.memory_bytes / MB
            raise Foul(
                Failure.MEMORY, f"its processes held {held:.0f} MB together, over the {memory} MB limit"
            )
        disk = self.limits.disk_mb
        if used.disk_bytes is not None and used.disk_bytes > disk * MB:
            held = used.disk_bytes / MB
            raise Foul(
                Failure.DISK,
                f"its files held {held:.0f} MB in its home and the folders anyone may write to, "
                f"over the {disk} MB disk limit",
            )
        return spent

    @staticmethod
    def _decoded(raw: bytes, cap: int) -> str:
        if len(raw) > cap:
            raise Foul(Failure.OUTPUT, f"sent a line of {len(raw)} bytes, more than {cap}")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Foul(Failure.OUTPUT, f"sent bytes that are not UTF-8: {raw[:40]!r}") from None

    # ------------------------------------------------------------------ ending
    def _ended(self, what: str) -> Foul:
        """The foul for a player whose pipes closed: how it exited, and the last line it wrote to stderr."""
        status = self._exit_status(EXIT_GRACE_SECONDS)
        self._stderr.drain_until_closed(EXIT_GRACE_SECONDS if status is not None else 0.0)
        tail = said = self._stderr.last_line()
        kind = Failure.MEMORY if any(word in tail for word in MEMORY_WORDS) else Failure.CRASH
        if self._over_output():
            kind, said = Failure.OUTPUT, ""
            tail = f"wrote more than {self.limits.output_mb} MB to stderr, the output limit"
        if (
            status is not None and self._bubblewrap and status > 128
        ):  # bubblewrap reports a signal as 128 + it
            status = 128 - status
        if status is None:
            described = f"{what} but kept running"
        elif status >= 0:
            described = f"exited with status {status}"
        else:
            described, kind = describe_signal(-status, kind)
        return Foul(kind, f"{described}: {tail}" if tail else described, said)

    def _exit_status(self, wait: float) -> int | None:
        """The exit status (negative: signal) without reaping, so the process group stays ours to kill.

        Waits on the process itself (its pidfd) for at most ``wait`` seconds."""
        if not hasattr(os, "waitid"):  # macOS: reap; the group is killed right after anyway
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._popen.wait(wait)
            return self._popen.returncode
        if self._pidfd is not None:
            select.select([self._pidfd], [], [], wait)
        elif wait > 0:  # no pidfd (Linux before 5.3): wait, without reaping, until it is gone
            self._wait_without_pidfd(wait)
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self._popen.returncode
        if info is None:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status

    def _wait_without_pidfd(self, wait: float) -> None:
        """Check for the exit in waits that double from 1 ms, for at most ``wait`` seconds."""
        deadline, pause = time.monotonic() + wait, 0.001
        while time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError):
                if os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                    return
            time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause *= 2

    def close(self, goodbye: str | None = None) -> None:
        """Say ``goodbye`` if given, then kill all the player's processes and clean up; safe to call twice.

        Nothing waits for the player to exit by itself: whatever it would do after ``quit`` goes with
        its sandbox, and waiting for an interpreter's own exit was most of a close (``bench/rounds.py``
        times rounds, each player's start and close included)."""
        if self._closed:
            return
        self._closed = True
        with alarm_deferred():
            self._close(goodbye)

    def _close(self, goodbye: str | None) -> None:
        if goodbye is not None:
            with contextlib.suppress(OSError, Foul):
                self.send(goodbye, Allowance(0.1, "0.1 s"))
        assert self._group is not None and self._orphans is not None
        self._orphans.note(self.pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        self._group.kill()
        self._wait_ended()
        cgroup = self._group.path if isinstance(self._group, CgroupGroup) else None
        self._orphans.end(self.pid, None if self._uid is None else self._uid.uid, cgroup)
        self._popen.wait()
        self._release()

    def _wait_ended(self) -> None:
        """Wait for the sandbox's first process to be dead, without reaping it: until it is reaped its
        id is no one else's, so what runs in its process group or session is the player's."""
        if hasattr(os, "waitid"):
            with contextlib.suppress(ChildProcessError):
                os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT)

    def _release(self) -> None:
        """Close the runner's descriptors, remove the private home and the cgroup, whatever the
        player left in them, and what it left where anyone may write (outside bubblewrap); then give
        its user id back, nothing of the player being left under it."""
        for end in self._ends:
            os.close(end)
        self._ends.clear()
        self._stderr.close()
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        if self._home is not None:
            remove_tree(self._home)
        if self._shared_writer is not None:
            remove_left_behind(self._shared_writer)
        if self._group is not None:
            self._group.close()
        if self._uid is not None:
            self._uid.release()


@contextlib.contextmanager
def alarm_deferred() -> Iterator[None]:
    """Hold ``SIGALRM`` (``gradescope run``'s time budget) until the block is done: raised while a
    player was being cleaned up, it left its processes and its files in ``/tmp`` behind, and a
    player could time its end for that. Delivered at the block's end, it is raised there."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def describe_signal(number: int, kind: Failure) -> tuple[str, Failure]:
    """``killed by SIGXCPU (CPU time limit)`` and the failure kind a signal stands for."""
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    if number == signal.SIGXCPU:
        return f"killed by {name} (CPU time limit)", Failure.CPU
    if number == signal.SIGXFSZ:
        return f"killed by {name} (output limit)", Failure.OUTPUT
    return f"killed by {name}", kind
