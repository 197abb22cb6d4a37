"""``python -m bench.worker NAME OUTPUT``: one workload in a process of its own, its rows as JSON in OUTPUT.

A process per workload keeps one workload's memory (a 1.6 GB feedback table) and caches (games,
strategy decisions) from showing up in the next one's numbers. The rows go to a file, not to
stdout, so nothing a player or a library prints can garble them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bench.workloads import find


def main(argv: list[str]) -> None:
    """Run the workload named by the first argument and write its rows, a JSON list, to the second."""
    name, output = argv
    rows = find(name).run()
    Path(output).write_text(json.dumps([row.to_dict() for row in rows]))


if __name__ == "__main__":
    main(sys.argv[1:])
