"""Starting a child that must hear Ctrl-C whatever the test run's own parent ignores."""

from __future__ import annotations

import signal


def hears_ctrl_c() -> None:
    """``preexec_fn`` for a child sent SIGINT: a test run started as a background job of a shell
    without job control inherits SIGINT ignored, and a Python that starts so never raises
    ``KeyboardInterrupt``; at a terminal, Ctrl-C reaches the program in the foreground."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
