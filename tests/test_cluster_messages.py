"""What a run on a Dask cluster says about the cluster (issue 30): where it runs, a refused port
at once, and a cluster with no worker in moocow's words."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner, Result

from moocow.cli import app

distributed = pytest.importorskip("distributed")

TOURNAMENT = ("tournament", "-p", "first", "-g", "bottles:n=3", "-r", "2", "--seed", "1")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def test_a_run_on_the_cluster_says_where_it_runs() -> None:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        result = run(*TOURNAMENT, "--scheduler", cluster.scheduler_address)
        as_json = run(*TOURNAMENT, "--json", "--scheduler", cluster.scheduler_address)
    said = f"on the Dask cluster at {cluster.scheduler_address}, 2 workers"
    assert result.exit_code == 0, result.stderr
    assert said in result.stderr.splitlines()
    assert json.loads(as_json.stdout)["cluster"] == said


def test_a_refused_port_is_said_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Said by moocow's own probe ("connection refused"), not after the ten seconds Dask keeps
    trying a port where nothing listens (it then says it timed out)."""
    from moocow.cluster import connection as dask_cluster

    monkeypatch.setattr(dask_cluster, "CONNECT_SECONDS", 2.0)
    result = run(*TOURNAMENT, "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 2, result.stderr
    assert "connection refused (is 'dask scheduler' running there" in result.stderr


def test_a_cluster_with_no_worker_is_said_in_moocows_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from moocow.cluster import connection as dask_cluster

    monkeypatch.setattr(dask_cluster, "CONNECT_SECONDS", 1.0)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster:
        result = run(*TOURNAMENT, "--scheduler", cluster.scheduler_address)
    (line,) = result.stderr.splitlines()
    assert result.exit_code == 2
    assert line == (
        f"error: the Dask scheduler at {cluster.scheduler_address!r} has no worker after 1 s: "
        f"start one with 'dask worker {cluster.scheduler_address} --nthreads 1'"
    )
