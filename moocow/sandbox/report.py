"""What protects a run, as the record its results keep and as the line a person reads.

The record (``referee_record``) goes in a results file's header, the log and Gradescope's
``results.json``; the line (``referee_line``) is what ``grade`` and ``tournament`` print after the
run: ``players sandboxed: namespaces (...); limits: ...``.
"""

from __future__ import annotations

from typing import Any

from moocow.sandbox import new_processes
from moocow.sandbox.disk import NOT_ENFORCED
from moocow.sandbox.limits import Limits, shown_limit
from moocow.sandbox.sandbox import FILTERED, Confinement, SandboxPolicy


def referee_record(sandbox: SandboxPolicy | None, limits: Limits) -> dict[str, Any]:
    """The sandbox (``None``: every player is an engine strategy, none is needed) and limits in force."""
    confined = {"confinement": "not needed: engine players only"} if sandbox is None else sandbox.describe()
    if sandbox is not None and confined["confinement"] != Confinement.NONE:
        confined["new_processes"] = new_processes.described(limits, new_processes.cgroup_counts_cpu())
    return {"sandbox": confined, "limits": limits.to_dict()}


def referee_line(record: dict[str, Any]) -> str:
    """The record in one line, for a person: ``players sandboxed: namespaces (...); limits: ...``."""
    sandbox = record["sandbox"]
    seccomp = sandbox.get("seccomp", FILTERED)
    unfiltered = [] if seccomp == FILTERED else [f"no seccomp filter: {seccomp.removeprefix('absent: ')}"]
    said = [sandbox["player_user"]] if "player_user" in sandbox else []
    if sandbox.get("new_processes", "").startswith("refused"):
        said.append(f"new processes {sandbox['new_processes']}")
    who = f" ({'; '.join(said + unfiltered)})" if said + unfiltered else ""
    unheld = {"disk_mb": f" ({NOT_ENFORCED})"} if sandbox.get("disk_mb") == NOT_ENFORCED else {}
    limits = ", ".join(
        f"{name}={shown_limit(value)}{unheld.get(name, '')}" for name, value in record["limits"].items()
    )
    return f"players sandboxed: {sandbox['confinement']}{who}; limits: {limits}"
