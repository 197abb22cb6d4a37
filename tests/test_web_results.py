"""Tournament results on the web: leaderboards, a player's rounds, a round replayed, a file still
being written, and damaged or hostile files."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow import api
from moocow.cli import app
from moocow.runner.leaderboard import standings
from moocow.runner.shown_results import read_shown
from tests.web_helpers import client

HOSTILE = "<script>alert(1)</script>"
REASON = "<img src=x onerror=alert(2)>"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real tournament's file: three players, two games, a mercy limit that fails some rounds."""
    path = tmp_path_factory.mktemp("results") / "results.jsonl"
    arguments = ["tournament", "-p", "minmax", "-p", "first", "-p", "random", "-g", "bottles:n=4"]
    arguments += ["-g", "mastermind:pegs=3,colors=4", "-r", "3", "--seed", "42", "--mercy", "3"]
    result = CliRunner().invoke(app, [*arguments, "--results", str(path)])
    assert result.exit_code == 0, result.output
    return path


def hostile_copy(played: Path, folder: Path) -> Path:
    """The same file with a student's player name and a failure reason written to break the page."""
    lines = [json.loads(line) for line in played.read_text().splitlines()]
    for player in lines[0]["tournament"]["players"]:
        if player["name"] == "random":
            player["name"] = HOSTILE
    for row in lines[1:]:
        if row["player"] == "random":
            row["player"] = HOSTILE
        if row["reason"] is not None:
            row["reason"] = REASON
    path = folder / "hostile.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_the_leaderboards_are_the_runners(played: Path) -> None:
    """Over all games and per game, the standings are those ``leaderboard.standings`` computes."""
    data = client(results=[played]).get("/results/0.json").json()
    rounds = read_shown(played).rounds
    assert [row["player"] for row in data["overall"]] == [s.player for s in standings(rounds)]
    assert [row["total"] for row in data["overall"]] == [s.total for s in standings(rounds)]
    for per_game in data["per_game"]:
        assert [row["total"] for row in per_game["standings"]] == [
            s.total for s in standings(rounds, per_game["game"])
        ]
    assert data["finished"] and data["poll"] is None and data["rounds"] == data["expected"] == 18


def test_a_players_rounds_show_failures_with_their_reasons(played: Path) -> None:
    """Each round of the player, a lost one with its failure kind and reason."""
    web = client(results=[played])
    rounds = web.get("/results/0/player.json", params={"name": "random"}).json()["rounds"]
    assert len(rounds) == 6
    lost = [r for r in rounds if not r["solved"]]
    assert lost and all(r["failure"] == "mercy" and r["reason"] for r in lost)
    assert lost[0]["reason"] in web.get("/results/0/player", params={"name": "random"}).text


def test_a_round_is_replayed_guess_by_guess_with_the_engines_choice(played: Path) -> None:
    """Each step: the score against the secret, the codes left, the engine's choice before it."""
    web = client(results=[played])
    rounds = web.get("/results/0/player.json", params={"name": "first"}).json()["rounds"]
    solved = next(r for r in rounds if r["solved"] and r["guesses"] > 1)
    replay = web.get(solved["link"].replace("/round?", "/round.json?")).json()
    steps = replay["steps"]
    assert (
        len(steps) == solved["guesses"] and steps[-1]["guess"] == replay["secret"] and steps[-1]["left"] == 1
    )
    assert all(a["left"] >= b["left"] for a, b in itertools.pairwise(steps))
    assert steps[0]["engine"] == api.assistant(replay["game"]).suggestion()
    assert "engine (minmax)" in web.get(solved["link"]).text


def test_names_and_reasons_from_students_are_escaped(played: Path, tmp_path: Path) -> None:
    """A player named with a script and a reason with markup are shown as text on every page."""
    web = client(results=[hostile_copy(played, tmp_path)])
    pages = [
        web.get("/results/0").text,
        web.get("/results/0/player", params={"name": HOSTILE}).text,
        web.get("/results/0/round", params={"player": HOSTILE, "game": "bottles:n=4", "round": "0"}).text,
    ]
    assert all("<script>alert" not in text and "<img src=x" not in text for text in pages)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0] and "&lt;img src=x" in pages[1]


def test_a_file_still_being_written_is_followed(played: Path, tmp_path: Path) -> None:
    """Half the rounds and a torn line being written: the page polls, shows what is complete and
    leaves the file alone; once more rounds are in, the next request shows them."""
    lines = played.read_bytes().splitlines(keepends=True)
    path = tmp_path / "live.jsonl"
    path.write_bytes(b"".join(lines[:8]) + lines[8][:20])
    web = client(results=[path])
    data = web.get("/results/0.json").json()
    assert data["rounds"] == 7 and not data["finished"] and data["poll"]
    assert path.read_bytes().endswith(lines[8][:20])  # nothing cut: the runner is writing it
    assert 'hx-trigger="every' in web.get("/results/0").text
    path.write_bytes(b"".join(lines))
    assert web.get("/results/0.json").json()["finished"]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda lines: [lines[0], lines[1].replace('"secret": "', '"secret": "X')], "line 2: secret"),
        (lambda lines: [lines[0], "{not json\n"], "line 2: not JSON"),
        (lambda lines: ["hello\n"], "is not a moocow results file"),
        (lambda lines: [lines[0], lines[1], lines[1]], "line 3: round 0"),
    ],
)
def test_a_damaged_file_is_one_line_with_status_400(played: Path, tmp_path: Path, damage, message) -> None:  # type: ignore[no-untyped-def]
    """A forged secret, a line that is not JSON, a file that is not results, a round twice."""
    path = tmp_path / "damaged.jsonl"
    path.write_text("".join(damage(played.read_text().splitlines(keepends=True))))
    web = client(results=[path])
    response = web.get("/results/0.json")
    assert response.status_code == 400 and message in response.json()["error"]
    assert web.get("/results/0").status_code == 400
    assert "error" in web.get("/results.json").json()["files"][0]


def test_only_the_files_named_are_opened(played: Path, tmp_path: Path) -> None:
    """Files are numbered from the command line: no other number, name or spec opens anything."""
    web = client(results=[played])
    assert web.get("/results/1.json").status_code == 400
    assert web.get("/results/x.json").status_code == 404
    round_page = web.get(
        "/results/0/round.json", params={"player": "first", "game": "words:file=/etc/passwd"}
    )
    assert round_page.status_code == 400 and "no round" in round_page.json()["error"]
    gone = tmp_path / "gone.jsonl"
    gone.write_bytes(played.read_bytes())
    later = client(results=[gone])
    gone.unlink()
    assert later.get("/results/0.json").status_code == 400


def test_a_signed_file_is_shown_saying_its_signatures_are_not_checked(tmp_path: Path) -> None:
    """The key stays with the runner: the page shows the rounds and says it did not check them."""
    key = tmp_path / "key"
    key.write_text("a course's secret key\n")
    path = tmp_path / "signed.jsonl"
    arguments = ["tournament", "-p", "first", "-g", "bottles:n=4", "-r", "2", "--seed", "5"]
    result = CliRunner().invoke(app, [*arguments, "--results", str(path), "--key-file", str(key)])
    assert result.exit_code == 0, result.output
    assert '"hmac"' in path.read_text()
    web = client(results=[path])
    data = web.get("/results/0.json").json()
    assert data["signed"] and data["rounds"] == 2 and data["finished"]
    assert "signatures not checked here" in web.get("/results/0").text
