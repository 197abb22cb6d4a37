"""Ctrl-C, sent as a real SIGINT to a real ``moocow``: one rule everywhere, status 130.

A session broken off at a prompt, and a search stopped before its proof, must not look to a
script like one that ended (both exited 0)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.signal_helpers import hears_ctrl_c

MOOCOW = [sys.executable, "-c", "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()"]


def read_until(process: subprocess.Popen[bytes], text: bytes, seconds: float = 120) -> bytes:
    """What ``process`` wrote on stdout up to and including ``text`` (a prompt has no line end)."""
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + seconds
    while text not in seen:
        ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no {text!r} in {seen!r}"
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, f"the output ended before {text!r}: {seen!r}"
        seen += chunk
    return seen


READ = {"x86_64": 0, "aarch64": 63}.get(os.uname().machine)
"""The ``read`` system call's number here (``/proc/PID/syscall`` gives it first)."""


def wait_reading_stdin(pid: int, seconds: float = 30) -> None:
    """Until ``pid`` sits in ``read`` on its stdin. A prompt is written before the read starts: a
    SIGINT sent between the two left the read waiting, and the EOF that ``communicate`` sends then
    ended the session as if the player had closed the input, on a loaded machine now and then.
    Where the system call cannot be seen (another architecture, no ``/proc``), it returns at once."""
    deadline = time.monotonic() + seconds
    while READ is not None and time.monotonic() < deadline:
        try:
            fields = Path(f"/proc/{pid}/syscall").read_text().split()
        except OSError:
            return
        if fields[:2] == [str(READ), "0x0"]:
            return
        time.sleep(0.01)


@contextlib.contextmanager
def started(*arguments: str, program: list[str] = MOOCOW) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [*program, *arguments],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=hears_ctrl_c,
    )
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.mark.parametrize(
    ("command", "prompt", "said"),
    [
        (("play", "bottles:n=3", "--seed", "1"), b"guess 1>", b"The secret was"),
        (("assist", "bottles:n=3"), b"guess 1 and score>", b""),
    ],
)
def test_ctrl_c_at_a_prompt_ends_the_session_with_status_130(
    command: tuple[str, ...], prompt: bytes, said: bytes
) -> None:
    with started(*command) as process:
        read_until(process, prompt)
        wait_reading_stdin(process.pid)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert out.startswith(b"\n") and said in out and b"Traceback" not in err


SLOW_SEARCH = """
import sys, time
from moocow.optimal import parallel, search

def a_guess_of_minutes(task):
    time.sleep(300)

parallel._guess_value = a_guess_of_minutes
search.PARALLEL_SECONDS = 0.0
from moocow.cli import main
sys.argv[0] = "moocow"
main()
"""
"""``moocow`` whose exact search's every guess shared out to a worker takes minutes."""


def children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux: reads the workers from /proc")
@pytest.mark.parametrize(("sent", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_search_never_exits_as_a_proof(sent: signal.Signals, status: int) -> None:
    """``optimal`` stopped reports its best and bound, and exits 128 + the signal's number."""
    program = [sys.executable, "-c", SLOW_SEARCH]
    with started("optimal", "mastermind", "--workers", "2", program=program) as process:
        deadline = time.monotonic() + 120
        while len(children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(children(process.pid)) >= 2, "the search never started its workers"
        process.send_signal(sent)
        out, err = process.communicate(timeout=30)
    assert process.returncode == status, err
    assert b"interrupted after" in out and b"proven optimal" not in out
