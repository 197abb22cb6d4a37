"""Work too big for a request's own thread: one queue, a few processes, bounded memory each.

Every evaluation, and every page whose game the cost model (``specs.page_seconds``) puts past
``specs.INLINE_SECONDS`` or does not know yet, runs in a process forked for it from a small server
process that imported moocow once (multiprocessing's ``forkserver``: a fork, not a fresh
interpreter's start and imports). At most one a core runs at once (``running_places``) and
``WAITING`` more wait; beyond that a visitor gets a one-line 503. Each process may map at most
``MEMORY`` bytes (``RLIMIT_AS``) and ends with its task, so whatever it held goes back to the
system. It loads the server's plugins (its ``--plugin`` files, the entry points
``MOOCOW_LOAD_PLUGINS`` allows), so a plugin's game works there as in the server.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any

from moocow.engine.errors import MoocowError, one_line
from moocow.engine.switches import SWITCHES

WAITING = 8
"""Tasks that may wait for a process; more is refused with 503."""
MEMORY = 3 << 29
"""Bytes of address space each process may map (1.5 GiB: numpy and numba map part of it, and a
quarter is the feedback table a process may hold, its ``engine.switches``; bigger ones are computed
as needed). ``bench/flood.py`` measures what the largest pages hold, bounded and not."""
PRELOADED = ["moocow.web.worker_tasks", "moocow.engine.kernel.greedy"]
"""Modules the fork server imports once, so each process starts with them."""


def running_places() -> int:
    """Processes at work at once: one for each core this process may run on (each does one
    search, which keeps one core busy)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class Busy(Exception):
    """The queue is full: one line, status 503."""


class ProcessQueue:
    """One server's queue of processes."""

    def __init__(self, running: int | None = None, waiting: int | None = None) -> None:
        self.running = running_places() if running is None else running
        self.waiting = WAITING if waiting is None else waiting
        self._slots = threading.Semaphore(max(1, self.running))
        self._lock = threading.Lock()
        self.pending = 0
        """Tasks running or waiting."""

    def reserve(self) -> Place:
        """A place in the queue, or ``Busy`` when it is full."""
        with self._lock:
            if self.pending >= self.running + self.waiting:
                raise Busy(
                    f"the server is busy ({self.pending} big tasks running or waiting): try again in a while"
                )
            self.pending += 1
        return Place(self)

    def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a process of its own, through the queue: its result, or its
        refusal raised again as a ``MoocowError``. What the process learned of games' costs
        (``specs.learned``) is kept here too."""
        from moocow.web import specs

        with self.reserve():
            for kind, payload in self.messages("moocow.web.worker_tasks:returned", (function, *args)):
                if kind == "result":
                    result, learned = payload
                    specs.learn(learned)
                    return result
                if kind == "error":
                    message, learned = payload
                    specs.learn(learned)
                    raise MoocowError(message)
        raise MoocowError("the worker process ended without an answer")

    @contextmanager
    def process(self, target: str, args: tuple[Any, ...]) -> Iterator[Connection]:
        """A process running ``target`` (``module:function``, called with ``args`` and the pipe it
        writes to), and the pipe's end to read; the process is ended when the block is left."""
        context = _context()
        parent, child = context.Pipe(duplex=False)
        settings = _settings()
        worker = context.Process(target=_start, args=(settings, target, args, child), daemon=True)
        worker.start()
        child.close()
        try:
            yield parent
        finally:
            parent.close()
            worker.join(timeout=5)
            if worker.is_alive():
                worker.kill()
                worker.join()

    def messages(self, target: str, args: tuple[Any, ...]) -> Iterator[tuple[str, Any]]:
        """The messages a task's process sends, ending with its end (``EOFError``: it died)."""
        with self.process(target, args) as pipe:
            try:
                while True:
                    yield pipe.recv()
            except (EOFError, OSError):
                return


class Place:
    """A reserved place in the queue: entered, it waits for a process slot; left, it frees both."""

    def __init__(self, workers: ProcessQueue) -> None:
        self.workers = workers

    def __enter__(self) -> Place:
        self.workers._slots.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.workers._slots.release()
        with self.workers._lock:
            self.workers.pending -= 1


_lock = threading.Lock()


def _context() -> Any:
    """The fork server's context, its preloaded modules set once."""
    with _lock:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOADED)
        return context


def _settings() -> dict[str, Any]:
    """What a process needs to see the games the server sees."""
    from moocow.plugins import LOAD_PLUGINS_VARIABLE, local_plugin_files

    return {
        "plugins": local_plugin_files(),
        "selection": os.environ.get(LOAD_PLUGINS_VARIABLE),
        "memory": MEMORY,
    }


def _start(settings: dict[str, Any], target: str, args: tuple[Any, ...], pipe: Connection) -> None:
    """In the process: bound its memory, load the server's plugins, run the task."""
    import importlib
    import resource

    from moocow.plugins import LOAD_PLUGINS_VARIABLE, load_plugin_file, reset_plugins

    memory = settings["memory"]
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    SWITCHES.set(replace(SWITCHES.current, table_budget=memory // 4))
    if settings["selection"] is None:
        os.environ.pop(LOAD_PLUGINS_VARIABLE, None)
    else:
        os.environ[LOAD_PLUGINS_VARIABLE] = settings["selection"]
    try:
        reset_plugins()
        for path in settings["plugins"]:
            load_plugin_file(path)
        module, _, name = target.partition(":")
        getattr(importlib.import_module(module), name)(*args, pipe)
    except MemoryError:
        limit = memory >> 20
        message = (
            f"this needs more than the {limit} MB a page's work may use: the command line has no such limit"
        )
        sent(pipe, ("error", (message, {})))
    except OSError:  # the pipe: the server is gone, and nobody is left to tell
        pass
    except Exception as error:  # a bug: one line, like every refusal
        sent(pipe, ("error", (f"internal error: {one_line(error)}", {})))
    finally:
        pipe.close()


def sent(pipe: Connection, message: tuple[str, Any]) -> None:
    """Send ``message`` if the server still listens."""
    with contextlib.suppress(OSError):
        pipe.send(message)
