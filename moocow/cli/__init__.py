"""The ``moocow`` command line: each command's module beside the others.

- ``commands``: the app, and the small commands (``games``, ``evaluate``, ``solve``, ``play``...);
- ``group``: how the command line behaves as a whole (errors, help, Ctrl-C, lazy commands);
- ``values``: reading option values; ``terminal``: printing, progress bars, one-line errors;
- ``interactive``: the ``play`` and ``assist`` conversations;
- ``runner`` (``tournament``, ``grade``, ``verify``), ``optimal``, ``tree`` with ``tree_output``,
  ``serve``, ``gradescope`` and ``platforms`` (``prairielearn``, ``classroom``): the larger commands,
  each loaded only when used.

Nothing below the command line imports this room (the layer contract in ``pyproject.toml``).
"""

from __future__ import annotations

from typing import Any


def main() -> None:
    """The ``moocow`` console script."""
    from moocow.cli.commands import main as run

    run()


def __getattr__(name: str) -> Any:
    # ``app`` is built on first use, so importing one command's module does not build them all.
    if name == "app":
        from moocow.cli.commands import app

        return app
    raise AttributeError(f"module 'moocow.cli' has no attribute {name!r}")
