"""The seccomp filter really refuses file locks and watches, keys, io_uring and reads that do not
wait, and nothing a player needs.

A child Python installs the filter itself (``prctl``) and tries each refused call and a few ordinary
ones, reporting as JSON; the same child without the filter shows the refused calls work otherwise.
Then bubblewrap installs it from ``--seccomp FD``, as the sandbox will.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from moocow.sandbox import sandbox, seccomp
from moocow.sandbox.limits import Limits
from moocow.sandbox.report import referee_line, referee_record
from moocow.sandbox.sandbox import Confinement, SandboxPolicy, bwrap_program

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or seccomp.denied_calls_filter() is None,
    reason="the filter is for Linux on x86_64 and aarch64",
)

ATTEMPT = """
def attempt(call):
    try:
        call()
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))
    return "ok"
"""
"""What a child script reports of a call: ``ok``, or the name of the error it got."""

CHILD = (
    r"""
import ctypes, errno, fcntl, json, mmap, os, platform, signal, socket, struct, subprocess, sys

from moocow.sandbox.launch import install_filter
from moocow.sandbox.seccomp import ARCHES, X32_SYSCALL_BIT, denied_calls_filter

mode, work = sys.argv[1:]
signal.signal(signal.SIGIO, signal.SIG_IGN)  # what dnotify sends, when it works
x86_64 = platform.machine() == "x86_64"
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
libc.fanotify_mark.argtypes = [ctypes.c_int, ctypes.c_uint, ctypes.c_uint64, ctypes.c_int, ctypes.c_char_p]
lock = struct.pack("hhqqi4x", fcntl.F_RDLCK, os.SEEK_SET, 0, 0, 0)  # struct flock: a read lock on all
lock_buffer = ctypes.create_string_buffer(lock, len(lock))


def checked(result):
    if result < 0:
        raise OSError(ctypes.get_errno(), "")
    return result


"""
    + ATTEMPT
    + r"""

shared = os.path.join(work, "shared")
with open(shared, "w") as file:
    file.write("shared")
fd, folder = os.open(shared, os.O_RDONLY), os.open(work, os.O_RDONLY)
inotify = libc.inotify_init1(os.O_CLOEXEC)  # made before the filter, to try inotify_add_watch after
fanotify = libc.fanotify_init(0, os.O_RDONLY)  # -1 without CAP_SYS_ADMIN: then fanotify_mark gets EBADF

if mode == "filtered":
    install_filter(denied_calls_filter())  # as the launcher does at the user level

denied = {
    "flock": lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB),
    "inotify_init1": lambda: checked(libc.inotify_init1(os.O_CLOEXEC)),
    "inotify_add_watch": lambda: checked(libc.inotify_add_watch(inotify, shared.encode(), 1)),
    "fanotify_init": lambda: checked(libc.fanotify_init(0, os.O_RDONLY)),
    "fanotify_mark": lambda: checked(libc.fanotify_mark(fanotify, 1, 1, -100, shared.encode())),
    "F_NOTIFY": lambda: fcntl.fcntl(folder, fcntl.F_NOTIFY, fcntl.DN_ACCESS | fcntl.DN_MULTISHOT),
    "F_SETLEASE": lambda: fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK),
    "F_GETLEASE": lambda: fcntl.fcntl(fd, fcntl.F_GETLEASE),
    "fcntl with high bits": lambda: checked(
        libc.syscall(
            ctypes.c_long(ARCHES[platform.machine()].fcntl), ctypes.c_long(fd),
            ctypes.c_long((1 << 32) | fcntl.F_SETLK), ctypes.c_void_p(ctypes.addressof(lock_buffer)),
        )
    ),
}
for name in ("F_GETLK", "F_SETLK", "F_SETLKW", "F_OFD_GETLK", "F_OFD_SETLK", "F_OFD_SETLKW"):
    denied[name] = lambda command=getattr(fcntl, name): fcntl.fcntl(fd, command, lock)
denied["socketpair (descriptors in flight)"] = lambda: socket.socketpair()
denied["socket (unix)"] = lambda: socket.socket(socket.AF_UNIX).close()
denied["socket (loopback)"] = lambda: socket.socket(socket.AF_INET).close()

def syscall(name, *arguments):
    number = {"x86_64": X86_64_CALLS, "aarch64": AARCH64_CALLS}[platform.machine()][name]
    return checked(libc.syscall(ctypes.c_long(number), *(ctypes.c_long(a) for a in arguments)))


X86_64_CALLS = {"add_key": 248, "keyctl": 250, "io_uring_setup": 425, "preadv2": 327, "io_setup": 206}
AARCH64_CALLS = {"add_key": 217, "keyctl": 219, "io_uring_setup": 425, "preadv2": 286, "io_setup": 0}
aio_context = ctypes.c_ulong(0)
page = ctypes.create_string_buffer(4096)
iovec = (ctypes.c_void_p * 2)(ctypes.addressof(page), 4096)  # struct iovec: base, length
io_params = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed


def preadv2(flags):
    return syscall("preadv2", fd, ctypes.addressof(iovec), 1, 0, 0, flags)


texts = (b"user", b"k", b"v", b"drop")
key_type, key_name, key_value, ring_name = (ctypes.create_string_buffer(text) for text in texts)
denied.update({
    "keyctl (join a named keyring)": lambda: syscall("keyctl", 1, ctypes.addressof(ring_name)),
    "add_key": lambda: syscall(
        "add_key", *(ctypes.addressof(text) for text in (key_type, key_name, key_value)), 1, -2
    ),
    "io_uring_setup": lambda: syscall("io_uring_setup", 1, ctypes.addressof(io_params)),
    "io_setup (Linux AIO)": lambda: syscall("io_setup", 1, ctypes.addressof(aio_context)),
    "preadv2 RWF_NOWAIT": lambda: preadv2(8),
})
if x86_64:
    denied["inotify_init"] = lambda: checked(libc.inotify_init())
    denied["x32 getpid"] = lambda: checked(libc.syscall(ctypes.c_long(X32_SYSCALL_BIT | 39)))


def write_and_read():
    path = os.path.join(work, "own")
    with open(path, "w") as file:
        file.write("hello")
    with open(path) as file:
        assert file.read() == "hello"


def file_flags():
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    assert fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK
    fcntl.fcntl(fd, fcntl.F_SETFD, fcntl.fcntl(fd, fcntl.F_GETFD) | fcntl.FD_CLOEXEC)
    os.close(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))


def pipe():
    read, write = os.pipe()
    os.write(write, b"x")
    assert os.read(read, 1) == b"x"


def numpy():
    import numpy

    assert int(numpy.arange(10).sum()) == 45


def mappings():
    with mmap.mmap(fd, 0, access=mmap.ACCESS_READ) as shared:  # as the JVM maps its modules
        assert shared[:6] == b"shared"
    with mmap.mmap(fd, 0, access=mmap.ACCESS_COPY) as copy:  # MAP_PRIVATE of a read-only file
        assert copy[:6] == b"shared"
    with mmap.mmap(-1, 4096) as anonymous:  # MAP_SHARED, writable: multiprocessing's memory
        anonymous[:1] = b"x"


def threads():
    import threading

    done = threading.Event()  # a private futex
    threading.Thread(target=done.set).start()
    assert done.wait(5)


def process_lock():
    import multiprocessing

    lock = multiprocessing.get_context("fork").Lock()  # a semaphore in the player's own /dev/shm
    with lock:
        pass


allowed = {
    "write and read": write_and_read,
    "preadv2 waiting": lambda: preadv2(0),
    "mappings": mappings,
    "threads": threads,
    "multiprocessing lock": process_lock,
    "fcntl flags": file_flags,
    "pipe": pipe,
    "subprocess": lambda: subprocess.run(["true"], check=True),
    "numpy": numpy,
}
print(json.dumps({
    "denied": {name: attempt(call) for name, call in denied.items()},
    "allowed": {name: attempt(call) for name, call in allowed.items()},
}))
"""
)

INSIDE_BWRAP = r"""
import errno, fcntl, json, os, subprocess, numpy

results = {"numpy": int(numpy.arange(10).sum()), "true": subprocess.run(["true"]).returncode}
with open(os.__file__, "rb") as library:  # a file every sandbox sees read-only
    for name, call in {"flock": fcntl.flock, "lockf": fcntl.lockf}.items():
        try:
            call(library, fcntl.LOCK_SH | fcntl.LOCK_NB)
            results[name] = "ok"
        except OSError as error:
            results[name] = errno.errorcode[error.errno]
print(json.dumps(results))
"""


def run_child(mode: str, work: Path) -> dict[str, Any]:
    """What the child reports, with the filter (``filtered``) or without (``plain``)."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(work)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_filter_refuses_each_channel_and_nothing_ordinary(tmp_path: Path) -> None:
    report = run_child("filtered", tmp_path)
    assert report["denied"] == dict.fromkeys(report["denied"], "EPERM")
    assert report["allowed"] == dict.fromkeys(report["allowed"], "ok")
    assert len(report["denied"]) == (25 if platform.machine() == "x86_64" else 23)


def test_without_the_filter_the_same_calls_are_not_refused(tmp_path: Path) -> None:
    """The control: each EPERM above comes from the filter, not from the machine."""
    report = run_child("plain", tmp_path)
    denied = report["denied"]
    if os.geteuid() != 0:  # fanotify needs CAP_SYS_ADMIN
        del denied["fanotify_init"], denied["fanotify_mark"]
    assert denied.pop("x32 getpid", "ok") in ("ok", "ENOSYS")  # kernels may leave x32 out
    assert denied == dict.fromkeys(denied, "ok")
    assert report["allowed"] == dict.fromkeys(report["allowed"], "ok")


@pytest.mark.skipif(platform.machine() != "x86_64", reason="the 32-bit convention is x86's")
def test_32_bit_calls_are_refused() -> None:
    """``int 0x80`` reports the i386 arch, whose numbers the filter does not know: getpid gets EPERM."""
    script = (
        "import ctypes, mmap, os, sys\n"
        "code = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
        "code.write(bytes.fromhex('b814000000cd80c3'))  # mov eax, 20 (getpid); int 0x80; ret\n"
        "call = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(code)))\n"
        "if sys.argv[1] == 'filtered':\n"
        "    from moocow.sandbox.launch import install_filter\n"
        "    from moocow.sandbox.seccomp import denied_calls_filter\n"
        "    install_filter(denied_calls_filter())\n"
        "print(call() == os.getpid(), call())\n"
    )
    plain = subprocess.run([sys.executable, "-c", script, "plain"], capture_output=True, text=True)
    if plain.returncode != 0 or not plain.stdout.startswith("True"):
        pytest.skip(f"no 32-bit system calls on this kernel: {plain.stdout}{plain.stderr}")
    filtered = subprocess.run([sys.executable, "-c", script, "filtered"], capture_output=True, text=True)
    assert filtered.stdout.split() == ["False", "-1"], filtered.stderr  # -EPERM


def test_the_descriptor_holds_the_program_from_its_start() -> None:
    fd = seccomp.filter_descriptor()
    assert fd is not None
    try:
        assert os.read(fd, 1 << 16) == seccomp.denied_calls_filter()
    finally:
        os.close(fd)


def test_no_filter_on_other_architectures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platform, "machine", lambda: "riscv64")
    assert seccomp.denied_calls_filter() is None
    assert seccomp.filter_descriptor() is None


@pytest.mark.parametrize("new_processes", [True, False])
@pytest.mark.parametrize("machine", sorted(seccomp.ARCHES))
def test_every_jump_lands_inside_the_program(
    monkeypatch: pytest.MonkeyPatch, machine: str, new_processes: bool
) -> None:
    monkeypatch.setattr(platform, "machine", lambda: machine)
    program = seccomp.denied_calls_filter(new_processes)
    assert program is not None and len(program) % seccomp.INSTRUCTION.size == 0
    instructions = list(seccomp.INSTRUCTION.iter_unpack(program))
    assert instructions[0] == (seccomp.LOAD_WORD, 0, 0, seccomp.ARCH_OFFSET)
    assert instructions[1][3] == seccomp.ARCHES[machine].audit_arch
    assert instructions[-3:] == [
        (seccomp.RETURN, 0, 0, seccomp.ALLOW),
        (seccomp.RETURN, 0, 0, seccomp.REFUSE),
        (seccomp.RETURN, 0, 0, seccomp.UNKNOWN),
    ]
    jumps = (seccomp.JUMP_IF_EQUAL, seccomp.JUMP_IF_AT_LEAST, seccomp.JUMP_IF_ANY_BIT)
    for index, (code, true, false, _) in enumerate(instructions):
        if code in jumps:
            assert index + 1 + max(true, false) < len(instructions)


MAKING = (
    r"""
import ctypes, errno, json, os, platform, subprocess, sys, threading

from moocow.sandbox.launch import install_filter
from moocow.sandbox.seccomp import ARCHES, denied_calls_filter

install_filter(denied_calls_filter(new_processes=sys.argv[1] == "allowed"))
libc = ctypes.CDLL(None, use_errno=True)
arch = ARCHES[platform.machine()]


"""
    + ATTEMPT
    + r"""

def raw(number, *arguments):
    made = libc.syscall(ctypes.c_long(number), *(ctypes.c_long(a) for a in arguments))
    if made < 0:
        raise OSError(ctypes.get_errno(), "")
    if made == 0:
        os._exit(0)
    os.waitpid(made, 0)


def fork():
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)


def thread():
    done = threading.Event()
    threading.Thread(target=done.set).start()
    assert done.wait(5)


SIGCHLD = 17
calls = {
    "fork": fork,
    "subprocess (vfork)": lambda: subprocess.run(["true"], check=True),
    "posix_spawn": lambda: os.waitpid(os.posix_spawn("/bin/true", ["true"], os.environ), 0),
    "clone": lambda: raw(arch.clone, SIGCHLD, 0, 0, 0, 0),
    "thread": thread,
}
if arch.forks:
    calls["fork (the call)"] = lambda: raw(arch.forks[0])
clone_args = (ctypes.c_uint64 * 11)(0, 0, 0, 0, SIGCHLD)  # struct clone_args (88 bytes): exit_signal fifth
calls["clone3"] = lambda: raw(arch.clone3, ctypes.addressof(clone_args), ctypes.sizeof(clone_args))
print(json.dumps({name: attempt(call) for name, call in calls.items()}))
"""
)


@pytest.mark.parametrize("making", ["allowed", "refused"])
def test_where_children_are_not_counted_making_a_process_is_refused_and_a_thread_is_not(making: str) -> None:
    """``SA_NOCLDWAIT`` (which no ``/proc`` file shows) had the kernel reap a player's children at
    once, their CPU time counted nowhere without a cgroup. There the filter refuses every way of
    making a process with ``EPERM``, and ``clone3`` (its flags out of the filter's sight) with
    ``ENOSYS``, on which the C library makes its threads with ``clone``: threads still start."""
    done = subprocess.run(
        [sys.executable, "-c", MAKING, making], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report.pop("thread") == "ok"
    if making == "allowed":
        assert report == dict.fromkeys(report, "ok")
    else:
        assert report.pop("clone3") == "ENOSYS"
        assert report == dict.fromkeys(report, "EPERM")


@pytest.mark.skipif(bwrap_program() is None, reason="no bubblewrap")
def test_bubblewrap_installs_the_filter(tmp_path: Path) -> None:
    def run(with_filter: bool) -> subprocess.CompletedProcess[str]:
        fd = seccomp.filter_descriptor() if with_filter else None
        options = ["--seccomp", str(fd)] if fd is not None else []
        command = [
            str(bwrap_program()), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--unshare-pid", "--die-with-parent", *options, sys.executable, "-c", INSIDE_BWRAP,
        ]  # fmt: skip
        try:
            return subprocess.run(
                command, capture_output=True, text=True, timeout=60, pass_fds=() if fd is None else (fd,)
            )
        finally:
            if fd is not None:
                os.close(fd)

    plain = run(with_filter=False)
    if plain.returncode != 0:
        pytest.skip(f"bubblewrap cannot make a sandbox here: {plain.stderr}")
    assert json.loads(plain.stdout) == {"numpy": 45, "true": 0, "flock": "ok", "lockf": "ok"}
    filtered = run(with_filter=True)
    assert filtered.returncode == 0, filtered.stderr
    assert json.loads(filtered.stdout) == {"numpy": 45, "true": 0, "flock": "EPERM", "lockf": "EPERM"}


def test_where_there_is_no_filter_the_record_and_the_printed_line_say_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A machine the filter does not know: players at either level run without it, and the record
    says so, not a silence that reads as the filter being there."""
    monkeypatch.setattr(platform, "machine", lambda: "riscv64")
    sandbox.filter_absence.cache_clear()
    monkeypatch.setattr(sandbox, "strongest", lambda: (Confinement.USER, "no namespaces"))
    try:
        record = referee_record(SandboxPolicy(level=Confinement.USER), Limits())
    finally:
        sandbox.filter_absence.cache_clear()
    assert record["sandbox"]["seccomp"] == "absent: no filter for this machine's architecture (riscv64)"
    assert referee_line(record).startswith(
        "players sandboxed: user (an unprivileged uid of its own; no seccomp filter: no filter for this "
        "machine's architecture (riscv64)); limits: "
    )


def test_a_filter_the_kernel_refuses_is_found_before_any_player_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The launcher tried once with a program the kernel refuses (an unknown instruction): the
    absence is the kernel's own words in the record, and the launcher itself starts no player
    without the filter it was given."""

    def refused() -> int:
        fd = os.memfd_create("refused")
        os.write(fd, seccomp.INSTRUCTION.pack(0xFFFF, 0, 0, 0))
        os.lseek(fd, 0, os.SEEK_SET)
        return fd

    monkeypatch.setattr(sandbox, "filter_descriptor", refused)
    sandbox.filter_absence.cache_clear()
    try:
        absent = sandbox.filter_absence(Confinement.USER)
    finally:
        sandbox.filter_absence.cache_clear()
    assert absent == "cannot install the seccomp filter: Invalid argument"
    fd = refused()
    try:
        started = subprocess.run(
            sandbox.launcher_command([f"seccomp={fd}"], ["echo", "started"]),
            capture_output=True, text=True, timeout=60, pass_fds=[fd],
        )  # fmt: skip
    finally:
        os.close(fd)
    assert (started.returncode, started.stdout) == (126, "")
    monkeypatch.undo()
    assert sandbox.filter_absence(Confinement.USER) is None  # the real filter installs here


# ---------------------------------------------------------------------- the deny list, by name
REFUSED_BY_NAME = [
    *["flock", "inotify_init", "inotify_add_watch", "inotify_init1", "fanotify_init", "fanotify_mark"],
    *["add_key", "request_key", "keyctl"],  # named keyrings
    *["io_uring_setup", "io_uring_enter", "io_uring_register", "io_setup", "io_submit"],  # no waiting
    *["shmget", "shmat", "shmctl", "shmdt", "semget", "semop", "semctl", "semtimedop"],  # System V
    *["msgget", "msgsnd", "msgrcv", "msgctl"],  # System V's queues
    *["socket", "socketpair"],  # descriptors in flight, socket buffers
]
"""Every call the filter refuses whatever its arguments, by name: docs/runner.md's channels."""
CALL_NUMBERS = {
    "x86_64": dict(
        flock=73, inotify_init=253, inotify_add_watch=254, inotify_init1=294, fanotify_init=300,
        fanotify_mark=301, add_key=248, request_key=249, keyctl=250, io_uring_setup=425,
        io_uring_enter=426, io_uring_register=427, io_setup=206, io_submit=209, shmget=29, shmat=30,
        shmctl=31, shmdt=67, semget=64, semop=65, semctl=66, semtimedop=220, msgget=68, msgsnd=69,
        msgrcv=70, msgctl=71, socket=41, socketpair=53, fcntl=72, preadv2=327, pwritev2=328, fork=57,
        vfork=58, clone=56, clone3=435,
    ),
    "aarch64": dict(
        flock=32, inotify_add_watch=27, inotify_init1=26, fanotify_init=262, fanotify_mark=263,
        add_key=217, request_key=218, keyctl=219, io_uring_setup=425, io_uring_enter=426,
        io_uring_register=427, io_setup=0, io_submit=2, shmget=194, shmat=196, shmctl=195, shmdt=197,
        semget=190, semop=193, semctl=191, semtimedop=192, msgget=186, msgsnd=189, msgrcv=188,
        msgctl=187, socket=198, socketpair=199, fcntl=25, preadv2=286, pwritev2=287, clone=220,
        clone3=435,
    ),
}  # fmt: skip
"""The kernel's numbers (asm/unistd_64.h, asm-generic/unistd.h; aarch64 has no inotify_init, fork
or vfork), checked against the headers where the machine has them."""
HEADERS = {
    "x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    "aarch64": Path("/usr/include/asm-generic/unistd.h"),
}


@pytest.mark.parametrize("arch", sorted(seccomp.ARCHES))
def test_the_deny_list_is_every_named_call_and_no_other(arch: str) -> None:
    """Read by name, not by trying: a call dropped from the list (System V's, say) is caught here
    even where the end-to-end tests have no way to try it."""
    numbers, refused = CALL_NUMBERS[arch], seccomp.ARCHES[arch]
    assert sorted(refused.refused) == sorted(numbers[name] for name in REFUSED_BY_NAME if name in numbers)
    assert (refused.fcntl, refused.nowait_io) == (numbers["fcntl"], (numbers["preadv2"], numbers["pwritev2"]))
    assert refused.forks == tuple(numbers[name] for name in ("fork", "vfork") if name in numbers)
    assert (refused.clone, refused.clone3) == (numbers["clone"], numbers["clone3"])


@pytest.mark.parametrize("arch", sorted(seccomp.ARCHES))
def test_the_numbers_are_the_kernel_headers(arch: str) -> None:
    if not HEADERS[arch].exists():
        pytest.skip(f"no {HEADERS[arch]} on this machine")
    text = HEADERS[arch].read_text()
    found = re.findall(r"#define __NR(?:3264)?_(\w+)\s+(\d+)\b", text)  # fcntl is __NR3264_fcntl
    defined = {name: int(number) for name, number in found}
    assert {name: defined.get(name) for name in CALL_NUMBERS[arch]} == CALL_NUMBERS[arch]
