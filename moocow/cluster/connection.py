"""The connection to a Dask cluster, for the runner's sessions and the exact search's guesses alike.

moocow imports ``distributed`` only when given a scheduler's address, and asks the address who it
is before making a client, so a wrong one is one line within ``CONNECT_SECONDS``, not a hang or a
traceback. Work sent to a worker names the plugin files loaded here, and the worker loads them,
so a game or player from a local plugin plays there as here.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import Callable, Iterator
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.wording import plural
from moocow.plugins import load_plugin_file, local_plugin_files

CONNECT_SECONDS = 10.0
"""How long to wait for the scheduler, and for its first worker, before saying so in one line."""


@contextlib.contextmanager
def connected(scheduler: str) -> Iterator[Any]:
    """A client of the scheduler with a worker to play on, or one line saying why there is none."""
    check_scheduler(scheduler)
    from distributed import Client

    try:
        client = Client(scheduler, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise MoocowError(f"cannot reach the Dask scheduler at {scheduler!r}: {error}") from None
    with client, client.as_current():
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError):
            raise MoocowError(
                f"the Dask scheduler at {scheduler!r} has no worker after {CONNECT_SECONDS:g} s: start one "
                f"with 'dask worker {scheduler} --nthreads 1'"
            ) from None
        yield client


@contextlib.contextmanager
def scheduler_kept(lost: str) -> Iterator[None]:
    """A scheduler lost during a run (a tournament's, a proof's) stops it in one line, ``lost``. Dask's
    client would log each reconnection it tries on stderr, then raise a traceback."""
    from concurrent.futures import CancelledError  # a future's, or all of them (distributed's kinds)

    from distributed.comm.core import CommClosedError

    client_log = logging.getLogger("distributed.client")
    level = client_log.level
    client_log.setLevel(logging.CRITICAL)
    try:
        yield
    except (CancelledError, CommClosedError, OSError):
        raise MoocowError(lost) from None
    finally:
        client_log.setLevel(level)


def where(client: Any) -> str:
    """Where a run is, for it to say (a run on a cluster looked like one on this machine):
    ``on the Dask cluster at tcp://HOST:PORT, N workers``."""
    info = client.scheduler_info()
    workers = info.get("workers") or {}
    count = f"{len(workers)} {plural(len(workers), 'worker')}"
    return f"on the Dask cluster at {info.get('address', '?')}, {count}"


def threads(client: Any) -> int:
    """The threads the cluster has now (at least one): how many tasks a search keeps out at once."""
    return max(1, sum(client.nthreads().values()))


def check_scheduler(scheduler: str) -> None:
    """One line unless a Dask scheduler answers at the address, asked once before a client is made.

    A ``Client`` at a wrong address does not fail in one line: a web server there (the dashboard's
    port, a proxy) answers bytes Dask reads as a frame of exabytes, a worker's address half works,
    and a client that never started waits twenty seconds on its way out with a traceback.
    """
    import asyncio

    try:
        from distributed.comm import connect
        from distributed.core import send_recv
        from distributed.security import Security
    except ImportError:
        raise MoocowError("--scheduler needs Dask: pip install distributed") from None

    async def identity() -> Any:
        comm = await connect(scheduler, CONNECT_SECONDS, **Security().get_connection_args("client"))
        try:
            return await send_recv(comm, op="identity")
        finally:
            comm.abort()

    refused_at_once(scheduler)
    try:
        answer = asyncio.run(asyncio.wait_for(identity(), CONNECT_SECONDS))
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        reason = str(error) or f"no answer within {CONNECT_SECONDS:g} s"
        raise MoocowError(f"cannot reach the Dask scheduler at {scheduler!r}: {reason}") from None
    except Exception:  # whatever answered does not speak Dask (an HTTP 400 read as a frame's length)
        answer = None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind.lower()}" if isinstance(kind, str) else "not Dask"
        raise MoocowError(f"{scheduler!r} is not a Dask scheduler (what answers there is {what})")


def refused_at_once(scheduler: str) -> None:
    """One line at once where nothing listens at a TCP address: Dask's ``connect`` tries again
    and again until its timeout, so a refused port took the full ten seconds to be said."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(scheduler)
        host, port = parse_host_port(location)
    except (ValueError, TypeError):
        return  # not host:port: Dask says what is wrong with it
    if scheme not in ("tcp", "tls"):
        return
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except ConnectionRefusedError:
        raise MoocowError(
            f"cannot reach the Dask scheduler at {scheduler!r}: connection refused (is 'dask scheduler' "
            "running there, on that port?)"
        ) from None
    except OSError:
        return  # a timeout or an unreachable network: Dask's own try says so


def load_plugins(plugins: list[str]) -> None:
    """On a worker: load the plugin files the client had loaded (each once: a worker runs many tasks)."""
    loaded = set(local_plugin_files())
    for path in plugins:
        if path not in loaded:
            load_plugin_file(path)


def task_cancelled() -> Callable[[], bool]:
    """On a worker, in a task: a check of whether the task is no longer wanted, which costs no
    message (the worker's own record of it). Its client cancelled it, or left (stopped, killed):
    Dask lets a running task run on, so the task must ask."""
    from distributed import get_worker

    worker = get_worker()
    key = worker.get_current_task()

    def cancelled() -> bool:
        task = worker.state.tasks.get(key)
        return task is None or task.state in ("cancelled", "released", "forgotten")

    return cancelled
