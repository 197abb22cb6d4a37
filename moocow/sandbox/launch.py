"""Start a player under its limits: ``python -I -S launch.py KEY=VALUE... -- COMMAND...``.

Runs between the runner and the player's program (inside the sandbox, when there is one), so the
limits hold from the player's first instruction. A separate program rather than ``preexec_fn``,
which may deadlock when the runner has threads (a progress bar has one). Standard library only;
``-I -S`` keeps it fast and deaf to the environment. Keys (bytes, seconds, counts; 0 or absent
means no limit):

- ``memory``, ``output``, ``cpu``, ``processes``: ``RLIMIT_AS``, ``RLIMIT_FSIZE``, ``RLIMIT_CPU``
  and ``RLIMIT_NPROC``, each with the hard limit equal to the soft one, so the player cannot
  raise it again (``RLIMIT_NOFILE`` is always ``OPEN_FILES``, ``RLIMIT_CORE`` 0);
- ``cgroup``: join the cgroup whose ``cgroup.procs`` this is first, so every process started from
  here on is counted in it;
- ``uid``: as root, become this unprivileged user id (and group id), with no other groups and
  its keyrings emptied (every player also gets a new session keyring, not the runner's);
- ``parent``: Linux, have the kernel kill the player when this process dies;
- ``seccomp``: a descriptor holding a seccomp filter (``sandbox/seccomp.py``), installed last, just
  before the player starts, so that it binds the player and not the launcher's own calls
  (``keyctl``); where the kernel refuses it the player does not start (the runner tried it first);
- ``stdin``, ``stdout``: descriptors to become the player's standard input and output;
- ``keeper``: stay, as root, the player's parent and the reaper of every process it orphans
  (``PR_SET_CHILD_SUBREAPER``), and end as it ends. At the ``user`` level, with no cgroup to
  count them, the CPU time of what the player orphans went to ``init``, which reaped it unseen;
  reaped here, it is in this process's own count of its children's time, which the runner reads.

Always: the player is the first process the kernel's OOM killer picks (``oom_score_adj`` 1000,
which any process may raise), so that under memory pressure it dies and the runner lives to
write the results; and ``SIGCHLD`` starts at its default action (an ignored one is inherited
across ``exec``, and would have the kernel reap the player's children unseen).
"""

from __future__ import annotations

import ctypes
import functools
import os
import resource
import signal
import sys
import warnings  # noqa: F401 - os.execvp imports it, after become(): the library may be out of the user's reach

PR_SET_PDEATHSIG = 1
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37
OOM_SCORE_ADJ = "/proc/self/oom_score_adj"
MOST_LIKELY_KILLED = b"1000"
"""The highest ``oom_score_adj``: killed first when memory runs out."""
OPEN_FILES = 1024
"""Descriptors a player's process may hold (the common default): measuring memory lists them all,
and a player holding 20,000 in each of many processes kept the runner busy for minutes a round."""
LIMITS = {
    "memory": resource.RLIMIT_AS,
    "output": resource.RLIMIT_FSIZE,
    "cpu": resource.RLIMIT_CPU,
    "processes": getattr(resource, "RLIMIT_NPROC", None),
}


def limit(kind: int, value: int) -> None:
    """Set soft and hard limit, so that the player cannot raise it again (unless it is root)."""
    resource.setrlimit(kind, (value, value))


def die_with_parent(parent: int) -> None:
    """Linux: have the kernel kill this process when ``parent`` dies, so nothing outlives the runner."""
    if not sys.platform.startswith("linux"):
        return
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(137)


@functools.cache
def libc() -> ctypes.CDLL:
    """The C library, through this process's own symbols (no search for the file: a millisecond)."""
    return ctypes.CDLL(None, use_errno=True)


def _prctl(option: int, value: int) -> None:
    if sys.platform.startswith("linux"):
        libc().prctl(option, value, 0, 0, 0)


def become_subreaper() -> None:
    """Linux: processes a player orphans (a double fork) become this process's children, to be killed."""
    _prctl(PR_SET_CHILD_SUBREAPER, 1)


def is_subreaper() -> bool:
    """Linux: whether orphans of this process's descendants come to it (else they go to init)."""
    if not sys.platform.startswith("linux"):
        return False
    flag = ctypes.c_int(0)
    libc().prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0)
    return bool(flag.value)


class FilterProgram(ctypes.Structure):
    """``struct sock_fprog``: the count of 8-byte instructions, and where they are."""

    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_filter(program: bytes) -> None:
    """Linux: have the kernel check every call of this process and its children against ``program``
    (classic BPF, as ``seccomp.denied_calls_filter`` assembles it), for good; ``OSError`` where it
    refuses. No new privileges first: an unprivileged process may install a filter only so (and no
    setuid program it runs could then shed it)."""
    code = ctypes.create_string_buffer(program, len(program))
    fprog = FilterProgram(len(program) // 8, ctypes.addressof(code))
    for option, value, address in (
        (PR_SET_NO_NEW_PRIVS, 1, 0),
        (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog)),
    ):
        arguments = (ctypes.c_ulong(number) for number in (value, address, 0, 0))
        if libc().prctl(ctypes.c_int(option), *arguments) != 0:
            number = ctypes.get_errno()
            raise OSError(number, os.strerror(number))


def read_filter(fd: int) -> bytes:
    """The filter the runner passed in descriptor ``fd``, which is then closed (not the player's)."""
    with open(fd, "rb") as source:
        return source.read()


def first_to_die() -> None:
    """Linux: be the OOM killer's first choice (where ``/proc`` is there to say so)."""
    try:
        fd = os.open(OOM_SCORE_ADJ, os.O_WRONLY)
    except OSError:
        return
    try:
        os.write(fd, MOST_LIKELY_KILLED)
    except OSError:
        pass
    finally:
        os.close(fd)


def become(uid: int) -> None:
    """Drop root for good: no other groups, then the group, then the user (which clears capabilities)."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


KEYCTL = {"x86_64": 250, "aarch64": 219, "i686": 288, "armv7l": 311, "ppc64le": 281, "s390x": 280}
"""The ``keyctl`` system call's number on each machine (libc has no wrapper for it)."""
KEYCTL_JOIN_SESSION_KEYRING, KEYCTL_CLEAR = 1, 7
KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING = -4, -5


def fresh_keyrings(own_user: bool) -> None:
    """Linux: leave the runner's session keyring for a new empty one, which no namespace separates;
    with a user id of its own, empty that user's keyrings too, where an earlier player could have
    left a solved secret for the next (keys outlive processes)."""
    number = KEYCTL.get(os.uname().machine)
    if not sys.platform.startswith("linux") or number is None:
        return
    libc().syscall(number, KEYCTL_JOIN_SESSION_KEYRING, None)
    if own_user:
        for keyring in (KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING):
            libc().syscall(number, KEYCTL_CLEAR, keyring)


def keep(player: int) -> None:
    """Reap every child until the player is gone, then end as it did (never returns). Holds none
    of the player's descriptors: its closing its output must be the end of it."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(0)
        except InterruptedError:
            continue
        if pid != player:
            continue
        if os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
            os._exit(128 + number)
        os._exit(os.waitstatus_to_exitcode(status))


def main(argv: list[str]) -> None:
    """Apply the limits, drop to the player's user, install the filter, then become the player."""
    split = argv.index("--")
    settings = dict(item.split("=", 1) for item in argv[1:split])
    command = argv[split + 1 :]
    program = read_filter(int(settings["seccomp"])) if "seccomp" in settings else None
    for fd, key in ((0, "stdin"), (1, "stdout")):
        if key in settings:
            os.dup2(int(settings[key]), fd)
            os.close(int(settings[key]))
    if "cgroup" in settings:
        with open(settings["cgroup"], "w") as procs:
            procs.write(str(os.getpid()))
    first_to_die()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    limit(resource.RLIMIT_CORE, 0)
    if "keeper" in settings:
        if "parent" in settings:
            die_with_parent(int(settings["parent"]))
        become_subreaper()
        keeper = os.getpid()
        player = os.fork()
        if player:
            keep(player)
        settings["parent"] = str(keeper)
    limit(resource.RLIMIT_NOFILE, min(OPEN_FILES, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    for key, kind in LIMITS.items():
        value = int(settings.get(key, 0))
        if value and kind is not None:
            limit(kind, value)
    if "uid" in settings:
        become(int(settings["uid"]))
    fresh_keyrings(own_user="uid" in settings)
    if "parent" in settings:  # after become(): a change of user clears the parent-death signal
        die_with_parent(int(settings["parent"]))
    if program is not None:
        try:
            install_filter(program)
        except OSError as error:
            sys.stderr.write(f"cannot install the seccomp filter: {error.strerror}\n")
            os._exit(126)
    try:
        os.execvp(command[0], command)
    except OSError as error:
        sys.stderr.write(f"cannot run {command[0]!r}: {error.strerror}\n")
        os._exit(127)


if __name__ == "__main__":
    main(sys.argv)
