"""The server's one queue of worker processes: a page on a game the cost model does not call cheap
is worked out in a worker, bounded in memory, and a full queue is a one-line 503."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from moocow.plugins import PLUGINS
from moocow.web import specs, workers
from tests.web_helpers import client

BIG = "mastermind:pegs=7,colors=9"


@pytest.fixture(autouse=True)
def a_fresh_server() -> Iterator[None]:
    """No game built or priced yet, as in a server just started, whatever tests ran before in this
    process (the caches are the process's: an earlier test that built a game made it look cheap)."""
    games, known = dict(PLUGINS.games), specs._known.copy()
    PLUGINS.games.clear()
    specs._known.clear()
    yield
    PLUGINS.games.update(games)
    specs._known.update(known)


def built_here(spec: str) -> bool:
    return any(key[1] == spec for key in PLUGINS.games)


def test_a_game_not_known_to_be_cheap_is_worked_out_in_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first page on a game never seen is a worker's, which tells the server what the game
    costs: a cheap one is then done here, a big one never is."""
    web = client()
    spec = "mastermind:pegs=2,colors=5"
    first = web.get("/assist.json", params={"game": spec, "g": "12"}).json()
    assert not built_here(spec) and isinstance(specs._known[spec], float)
    again = web.get("/assist.json", params={"game": spec, "g": "12"}).json()
    assert built_here(spec) and again == first
    monkeypatch.setattr(specs, "INLINE_SECONDS", -1.0)  # every game big: the same page from a worker
    assert web.get("/assist.json", params={"game": spec, "g": "12"}).json() == first


def test_a_worker_past_its_memory_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker may map at most ``workers.MEMORY`` bytes; past them the page says so, and the
    server has built nothing (unbounded, six such pages took 2 GB of the server)."""
    monkeypatch.setattr(workers, "MEMORY", 600 << 20)
    response = client().get("/assist.json", params={"game": BIG})
    assert response.status_code == 400
    assert response.json()["error"] == (
        "this needs more than the 600 MB a page's work may use: the command line has no such limit"
    )
    assert not built_here(BIG)


def test_a_full_queue_is_a_one_line_503(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond the running and waiting tasks, a big page, an evaluation and a game are refused
    with 503 and one line, on the page and in its twin."""
    monkeypatch.setattr(specs, "INLINE_SECONDS", -1.0)
    web = client()
    web.app.state.workers = workers.ProcessQueue(running=0, waiting=0)
    web.app.state.jobs.workers = web.app.state.workers
    for path, params in [
        ("/assist", {"game": "mastermind"}),
        ("/play", {"game": "mastermind"}),
        ("/evaluate", {"game": "bottles:n=4"}),
    ]:
        for twin in (path, path + ".json"):
            response = web.get(twin, params=params)
            assert response.status_code == 503, (twin, response.text)
            assert "the server is busy (0 big tasks running or waiting)" in response.text
    assert web.get("/").status_code == 200


def test_the_queue_as_shipped_runs_one_task_a_core_and_lets_eight_wait() -> None:
    """The server's own queue, with the defaults it ships with (every other test sets its own):
    a place for each core this process may use and eight more, and the next is refused."""
    queue = client().app.state.workers
    cores = len(os.sched_getaffinity(0))
    for _ in range(cores + 8):
        queue.reserve()
    with pytest.raises(
        workers.Busy, match=rf"^the server is busy \({cores + 8} big tasks running or waiting\)"
    ):
        queue.reserve()
