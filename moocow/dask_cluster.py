"""The connection to a Dask cluster, for the runner's sessions and the exact search's guesses alike.

moocow imports ``distributed`` only when given a scheduler's address, and asks the address who it
is before making a client, so a wrong one is one line within ``CONNECT_SECONDS``, not a hang or a
traceback. Work sent to a worker names the plugin files loaded here, and the worker loads them,
so a game or player from a local plugin plays there as here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from moocow.engine.errors import MoocowError
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
        except (OSError, TimeoutError) as error:
            raise MoocowError(f"the Dask scheduler at {scheduler!r} has no worker: {error}") from None
        yield client


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


def load_plugins(plugins: list[str]) -> None:
    """On a worker: load the plugin files the client had loaded (each once: a worker runs many tasks)."""
    loaded = set(local_plugin_files())
    for path in plugins:
        if path not in loaded:
            load_plugin_file(path)
