"""The README's first command, a tournament of the built-in strategies, builds nothing ahead of
time and loads none of the exact search (issue 47): it printed "building the exact search's
compiled code ... about a minute" on a fresh install. The relabellings minmax uses on Bulls and
Cows (``engine.kernel.relabel``) were being built ahead of time, beside the greedy engine's
kernels that numba serves in the same process anyway."""

from __future__ import annotations

import json
import subprocess
import sys

PROGRAM = """
import json, sys
from typer.testing import CliRunner
from moocow.engine import progress
from moocow.engine.kernel import ahead
from moocow.cli import app

builds, said = [], []
real = ahead.load
def load(entry, kind, build=True):
    if build:
        builds.append(entry.function)
    return real(entry, kind, build=False)  # nothing is built for real here, whatever is asked
ahead.load = load
progress.listen(said.append)
arguments = ["tournament", "-g", "digits", "-g", "words", "-p", "minmax", "-r", "2", "--seed", "1"]
done = CliRunner().invoke(app, arguments)
print(json.dumps({
    "status": done.exit_code,
    "builds": builds,
    "said": said,
    "search": sorted(name for name in sys.modules if name.startswith("moocow.optimal")),
}))
"""


def test_a_tournament_of_the_built_in_strategies_builds_none_of_the_search() -> None:
    """The tournament's own process warms the relabellings minmax takes on digits before its
    workers start (``engine.opening.warm_up_relabellings``): numba serves them there, as it serves
    the greedy kernels, and nothing is built ahead of time or said to be."""
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["status"] == 0
    assert found["builds"] == [] and found["search"] == [], found
    assert not any("exact search" in line for line in found["said"]), found["said"]
