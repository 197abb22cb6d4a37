"""A stop asked for by a signal (SIGTERM, Ctrl-C), kept until the search has seen it.

Python runs a signal's handler between two bytecodes of whatever the main thread is running, and
an exception raised there can be lost: inside a ``__del__`` or a weakref callback, Python prints
"Exception ignored" and goes on. (A test's SIGTERM once went unseen and its search ran to the end;
the cause was not found.) So the handler also leaves a flag, and the search checks it whenever it
waits for a worker or marks its progress.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

_asked = 0
"""The signal that asked to stop, 0 if none has."""
_listening = False


class Stop:
    """What stopped a search: the number of the signal that asked it to, 0 if none did."""

    signal = 0


def _ask_to_stop(signum: int, frame: FrameType | None) -> None:
    global _asked
    _asked = signum
    raise KeyboardInterrupt


def listening() -> bool:
    """Whether a signal may stop the search now (inside ``stopped_by_signals``): then even one
    worker searches in a forked process, so that a stop does not wait for the compiled search."""
    return _listening


def stop_if_asked() -> None:
    """Raise ``KeyboardInterrupt`` if a signal asked to stop (its own raise may have been lost)."""
    if _asked:
        raise KeyboardInterrupt


@contextlib.contextmanager
def stopped_by_signals() -> Iterator[Stop]:
    """SIGTERM stops the search as Ctrl-C does, keeping the best tree (and the store) for a job a
    batch system or a session ends; a background job started by a shell ignores Ctrl-C's SIGINT,
    and so it still does. Yields a ``Stop`` that names the signal once the block is left."""
    global _asked, _listening
    _asked = 0
    stop = Stop()
    ours = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        ours.append(signal.SIGINT)
    previous = {number: signal.signal(number, _ask_to_stop) for number in ours}
    _listening = True
    try:
        yield stop
    finally:
        _listening = False
        stop.signal = _asked
        for number, handler in previous.items():
            signal.signal(number, handler)
        _asked = 0
