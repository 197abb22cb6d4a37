"""The two scripts Gradescope runs: ``setup.sh`` once per zip, ``run_autograder`` once per submission.

``setup.sh`` must give Python 3.11 or newer on every base image Gradescope offers (Ubuntu 22.04,
the default, has 3.10: its universe has 3.11; newer images have their own ``python3``) and put
moocow in a virtual environment other users can read, since players run under their own user
ids and need the interpreter. ``run_autograder`` takes its root from ``$AUTOGRADER_ROOT`` so that
``gradescope try`` runs it unchanged, re-applies the modes unzipping may have lost, and runs
``python -I -m moocow gradescope run`` (isolated: no environment variables or folders of the
container on its import path), whose command line holds no secret.
"""

from __future__ import annotations

VENV = "/opt/moocow"
"""Where setup.sh installs moocow: readable by every user, not under /root."""
PYTHON_VARIABLE = "MOOCOW_PYTHON"
"""The interpreter run_autograder uses, if set (``gradescope try``: the one running it); else the venv's."""

SETUP = f"""\
#!/usr/bin/env bash
# Written by `moocow gradescope build`: Python 3.11 or newer, then this moocow from the wheel beside
# this script, with its dependencies from the package index, in {VENV} (readable by every user).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export DEBIAN_FRONTEND=noninteractive
usable() {{ "$1" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }}
python=""
for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && usable "$candidate"; then
        python="$(command -v "$candidate")"
        break
    fi
done
if [ -z "$python" ]; then
    apt-get update
    if python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        minor="$(python3 -c 'import sys; print(sys.version_info[1])')"
        apt-get install -y --no-install-recommends "python3.$minor-venv" || apt-get install -y python3-venv
        python="$(command -v python3)"
    else  # Ubuntu 22.04: python3 is 3.10; 3.11 is in universe
        apt-get install -y --no-install-recommends python3.11 python3.11-venv
        python=/usr/bin/python3.11
    fi
fi
"$python" -m venv {VENV}
{VENV}/bin/python -m pip install --quiet "$here"/moocow-*.whl
chmod -R a+rX {VENV}
ln -sf {VENV}/bin/moocow /usr/local/bin/moocow
{VENV}/bin/moocow --version
"""

RUN_AUTOGRADER = f"""\
#!/usr/bin/env bash
# Written by `moocow gradescope build`: grade the submission by the course in source/.
set -euo pipefail
root="${{AUTOGRADER_ROOT:-/autograder}}"
# Unzipping may lose modes: the seed is root's alone, and so are earlier submissions' results.
chmod 600 "$root/source/seed"
if [ -e "$root/submission_metadata.json" ]; then chmod 600 "$root/submission_metadata.json"; fi
cd "$root"
exec "${{{PYTHON_VARIABLE}:-{VENV}/bin/python}}" -I -m moocow gradescope run "$root"
"""
