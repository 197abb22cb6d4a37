"""A roster an instructor can use (issue 47): a secret seed shown nowhere, only its fingerprint;
each player's student id and author kept and shown; a grades export that is the join an
instructor would make by hand; one game's leaderboard shown once, with a way to find a student;
a course round replayed with its bulls and cows."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.runner.seeds import fingerprint
from tests.web_helpers import as_json, client

SEED = 8039218040137103518
"""A seed of 19 digits: no fingerprint, count or time holds its digits by chance."""
GAME = "mastermind:pegs=3,colors=4"
PLAYERS = Path(__file__).parent / "players"


def run(*args: str, env: dict[str, str] | None = None) -> Any:
    """``moocow ARGS`` through typer's runner, stdout and stderr apart."""
    return CliRunner().invoke(app, list(args), env=env)


def class_of_three(folder: Path) -> list[str]:
    """Three submissions, each in a folder of its own: two that name themselves, one that crashes."""
    named = []
    for student, source in (("ada", "first_candidate.py"), ("bob", "crash.py"), ("cy", "first_candidate.py")):
        place = folder / student
        place.mkdir()
        place.chmod(0o755)
        shutil.copy(PLAYERS / source, place / "bot.py")
        named += ["-p", str(place / "bot.py")]
    return named


def every_output(
    results: Path, env: dict[str, str], seed_arguments: list[str], folder: Path
) -> dict[str, str]:
    """What a seed file's run shows anywhere: the tournament's outputs (text and JSON, played and
    resumed), the results file, verify, the export, grade (its log and Gradescope's file), and every
    results page and file the server offers."""
    players = class_of_three(folder)
    arguments = ["tournament", *players, "-g", GAME, "-r", "2", *seed_arguments, "--results", str(results)]
    shown: dict[str, str] = {}
    played = run(*arguments, env=env)
    assert played.exit_code == 0, played.output
    shown["tournament"] = played.output
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:4]))  # interrupted: resumed with the seed given again
    resumed = run(*arguments, "--resume", "--json", env=env)
    assert resumed.exit_code == 0, resumed.output
    shown["resumed --json"], shown["resumed stdout"] = resumed.output, resumed.stdout
    shown["results file"] = results.read_text()
    for name, command in {
        "verify": ["verify", str(results), *seed_arguments],
        "export csv": ["export", str(results)],
        "export json": ["export", str(results), "--format", "json"],
    }.items():
        outcome = run(*command, env=env)
        assert outcome.exit_code == 0, outcome.output
        shown[name] = outcome.output
    gradescope = folder / "results.json"
    graded = run(
        "grade",
        players[1],
        "--game",
        GAME,
        "-r",
        "2",
        *seed_arguments,
        "--gradescope",
        str(gradescope),
        env=env,
    )
    assert graded.exit_code == 0, graded.output
    shown["grade"], shown["grade stdout"] = graded.output, graded.stdout
    shown["grade --gradescope"] = gradescope.read_text()
    web = client(results=[results])
    player = json.loads(shown["resumed stdout"])["standings"][0]["player"]
    a_round = {"player": player, "game": GAME, "round": 1}
    pages = {"/results": {}, "/results/0": {}, "/results/0.csv": {}, "/results/0/grades.json": {}}
    pages |= {"/results/0/player": {"name": player}, "/results/0/round": a_round}
    for path, params in pages.items():
        for address in {path, path if "." in path else path + ".json"}:
            response = web.get(address, params=params)
            assert response.status_code == 200, (address, response.text)
            shown[address] = response.text
    return shown


@pytest.mark.parametrize("how", ["--seed-file", "MOOCOW_SEED"])
def test_a_secret_seed_appears_in_no_page_file_or_output(tmp_path: Path, how: str) -> None:
    """Given by a file or the environment, the seed's digits are in no output of any command, no
    page or JSON of the server, and not in the results file; its fingerprint is shown instead, and
    --resume and verify (given the seed again) still work."""
    seed_file = tmp_path / "seed"
    seed_file.write_text(f"{SEED}\n")
    seed_file.chmod(0o600)
    seed_arguments, env = (
        (["--seed-file", str(seed_file)], {}) if how == "--seed-file" else ([], {"MOOCOW_SEED": str(SEED)})
    )
    shown = every_output(tmp_path / "results.jsonl", env, seed_arguments, tmp_path)
    showing = [name for name, text in shown.items() if str(SEED) in text]
    assert not showing, f"the seed is shown by {showing}"
    shown_fingerprint = fingerprint(SEED)
    assert f"seed fingerprint {shown_fingerprint}, mercy 20." in shown["tournament"]
    assert json.loads(shown["resumed stdout"])["seed_fingerprint"] == shown_fingerprint
    assert shown["grade stdout"].startswith(f"BACRunner Python with seed=fingerprint:{shown_fingerprint}.\n")
    assert f"Seed fingerprint {shown_fingerprint}" in shown["/results/0"]
    assert (
        "every round checks out, 6 of 6 rounds" in shown["verify"]
        and "its seed is secret" not in shown["verify"]
    )


def test_a_seed_on_the_command_line_is_shown_as_before() -> None:
    """``--seed`` is visible to other processes anyway: its digits stay in the summary and the log."""
    played = run("tournament", "-p", "first", "-g", GAME, "-r", "1", "--seed", "9")
    assert "1 rounds played, seed 9, mercy 20." in played.stdout
    graded = run("grade", "first", "--game", GAME, "-r", "1", "--seed", "9")
    assert graded.stdout.startswith("BACRunner Python with seed=9.\n")


def test_resuming_a_secret_seeds_file_needs_that_seed(tmp_path: Path) -> None:
    """The file holds only the fingerprint: a resume without the seed, or with another, is one line."""
    seed_file = tmp_path / "seed"
    seed_file.write_text(f"{SEED}\n")
    results = tmp_path / "r.jsonl"
    arguments = ["tournament", "-p", "first", "-g", GAME, "-r", "2", "--results", str(results)]
    assert run(*arguments, "--seed-file", str(seed_file)).exit_code == 0
    results.write_text("".join(results.read_text().splitlines(keepends=True)[:2]))
    alone = run(*arguments, "--resume")
    assert alone.exit_code == 2 and "was played on a secret seed" in alone.stderr
    other = run(*arguments, "--resume", env={"MOOCOW_SEED": str(SEED + 1)})
    assert other.exit_code == 2 and "was played on another seed" in other.stderr
    again = run(*arguments, "--resume", env={"MOOCOW_SEED": str(SEED)})
    assert again.exit_code == 0 and "1 rounds played" in again.stdout
    unchecked = run("verify", str(results))
    assert unchecked.exit_code == 0 and "its seed is secret" in unchecked.stdout
    wrong = run("verify", str(results), env={"MOOCOW_SEED": "12345678901234"})
    assert wrong.exit_code == 1 and "the seed given is not the one this file was played on" in wrong.stdout


@pytest.fixture(scope="module")
def roster(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A class of three played on one game, signed-off as a run leaves it."""
    folder = tmp_path_factory.mktemp("roster")
    results = folder / "results.jsonl"
    arguments = ["tournament", *class_of_three(folder), "-p", "minmax", "-g", GAME, "-r", "3", "--seed", "5"]
    played = run(*arguments, "--results", str(results))
    assert played.exit_code == 0, played.output
    return results


def by_hand(results: Path) -> list[dict[str, Any]]:
    """The grades an instructor computes from the file: each player's rounds added up, ranked by
    total, then failures, then name; joined with the identity lines."""
    lines = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    named = {line["identity"]["player"]: line["identity"] for line in lines if "identity" in line}
    rows: dict[str, dict[str, Any]] = {}
    for line in lines:
        if "player" not in line:
            continue
        row = rows.setdefault(
            line["player"],
            {"name": line["player"], "rounds": 0, "total": 0, "worst": 0, "failures": 0, "kinds": {}},
        )
        row["rounds"] += 1
        row["total"] += line["score"]
        row["worst"] = max(row["worst"], line["score"])
        if line["failure"]:
            row["failures"] += 1
            row["kinds"][line["failure"]] = row["kinds"].get(line["failure"], 0) + 1
    ranked = sorted(rows.values(), key=lambda row: (row["total"], row["failures"], row["name"]))
    return [
        {
            "rank": rank,
            "name": row["name"],
            "student_id": named.get(row["name"], {}).get("student_id", ""),
            "author": named.get(row["name"], {}).get("author", ""),
            "rounds": row["rounds"],
            "total": row["total"],
            "average": round(row["total"] / row["rounds"], 3),
            "worst": row["worst"],
            "failures": row["failures"],
            "failure_kinds": ", ".join(f"{kind}: {count}" for kind, count in sorted(row["kinds"].items())),
        }
        for rank, row in enumerate(ranked, 1)
    ]


def test_identities_are_kept_in_the_file_and_shown_beside_each_entry(roster: Path) -> None:
    """``student_id()`` and ``author()`` are recorded once per player that says them (not the
    crashing one, nor an engine strategy) and shown in ``--json``, the summary table, the
    leaderboard page and the player's page."""
    text = roster.read_text()
    assert text.count('"identity"') == 2 and text.count('"first-candidate"') == 2
    resumed = run(
        "tournament", *["-p", str(roster.parent / "ada" / "bot.py")], "-g", GAME, "-r", "1", "--json"
    )
    (row,) = json.loads(resumed.stdout)["standings"]
    assert (row["student_id"], row["author"]) == ("first-candidate", "Test Player")
    table = run(
        "tournament", "-p", str(roster.parent / "ada" / "bot.py"), "-g", GAME, "-r", "1", "--seed", "2"
    )
    assert (
        "student id" in table.stdout and "first-candidate" in table.stdout and "Test Player" in table.stdout
    )
    web = client(results=[roster])
    rows = web.get("/results/0.json").json()["overall"]
    ada = next(row for row in rows if row["player"].endswith("ada/bot.py"))
    assert (ada["student_id"], ada["author"]) == ("first-candidate", "Test Player")
    assert "first-candidate" in web.get("/results/0").text
    player = web.get("/results/0/player", params={"name": ada["player"]}).text
    assert "Student id first-candidate, author Test Player." in player


def test_the_grades_export_is_the_join_done_by_hand(roster: Path) -> None:
    """CSV and JSON, from the command line and from the results page, all equal the grades an
    instructor computes from the file's rows and identity lines."""
    expected = by_hand(roster)
    assert any(row["failure_kinds"] == "crash: 3" for row in expected)
    as_text = [{key: str(value) for key, value in row.items()} for row in expected]
    exported = run("export", str(roster))
    assert exported.exit_code == 0 and list(csv.DictReader(io.StringIO(exported.stdout))) == as_text
    assert json.loads(run("export", str(roster), "--format", "json").stdout) == expected
    web = client(results=[roster])
    page_csv = web.get("/results/0.csv")
    assert page_csv.headers["content-type"].startswith("text/csv")
    assert page_csv.text == exported.stdout
    assert web.get("/results/0/grades.json").json() == expected
    assert 'href="/results/0.csv"' in web.get("/results/0").text
    refused = run("export", str(roster), "--format", "xls")
    assert refused.exit_code == 2 and refused.stderr.startswith("error: --format is one of csv, json")


def test_a_formula_from_a_student_is_not_run_by_a_spreadsheet() -> None:
    """A name starting ``=`` is written after a quote, so a spreadsheet shows it as text."""
    from moocow.runner.grades import grades_csv

    row = {"rank": 1, "name": "=HYPERLINK(1)", "student_id": "+1", "author": "a", "rounds": 1, "total": 3}
    row |= {"average": 3.0, "worst": 3, "failures": 0, "failure_kinds": ""}
    assert grades_csv([row]).splitlines()[1].startswith("1,'=HYPERLINK(1),'+1,a,")


def test_one_games_leaderboard_is_shown_once_and_a_student_is_found(roster: Path) -> None:
    """With one game the page has one table, titled by the game; ``?find=`` (a plain GET form)
    keeps the matching rows with their ranks; every row has an anchor."""
    web = client(results=[roster])
    page = web.get("/results/0").text
    assert page.count('<table class="standings">') == 1 and "Over all games" not in page
    assert f"<h2>{GAME}</h2>" in page and '<form class="find row" method="get"' in page
    assert len(re.findall(r'<tr id="p\d+">', page)) == 4
    everyone = web.get("/results/0.json").json()["overall"]
    found = web.get("/results/0.json", params={"find": "BOB/"}).json()
    assert [row["player"] for row in found["overall"]] == [
        row["player"] for row in everyone if "bob/" in row["player"]
    ]
    assert found["overall"][0]["rank"] == next(row["rank"] for row in everyone if "bob/" in row["player"])
    by_author = web.get("/results/0", params={"find": "test player"}).text
    assert "2 of 4 players match" in by_author and by_author.count('<tr id="p') == 2


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course deck's tournament: the course's player on a small word file."""
    folder = tmp_path_factory.mktemp("course")
    words = folder / "words.txt"
    words.write_text("crane\nslate\nplumb\nfight\nbrown\nquick\n")
    results = folder / "results.jsonl"
    deck = f"bacrunner:file={words},minlen=5,maxlen=5"
    arguments = ["tournament", "-p", str(PLAYERS / "course_first.py"), "-g", deck, "-r", "3", "--seed", "4"]
    played = run(*arguments, "--results", str(results))
    assert played.exit_code == 0, played.output
    return results


def test_a_course_rounds_replay_shows_its_bulls_and_cows(course: Path) -> None:
    """Each guess with its bulls and cows as the course scores them; no empty engine columns."""
    from moocow.referee.bacrunner import count_bulls_and_cows

    web = client(results=[course])
    rows = web.get("/results/0/player.json", params={"name": str(PLAYERS / "course_first.py")}).json()[
        "rounds"
    ]
    played = next(row for row in rows if row["guesses"] > 1)
    replay = web.get(as_json(played["link"])).json()
    assert [step["feedback"] for step in replay["steps"]] == [
        "{}B{}C".format(*count_bulls_and_cows(step["guess"], replay["secret"])) for step in replay["steps"]
    ]
    page = web.get(played["link"]).text
    assert "bulls and cows" in page and "engine (minmax)" not in page and "<td></td>" not in page


def test_results_tables_have_44_px_targets_and_a_course_replay_fits_a_phone(
    roster: Path, course: Path
) -> None:
    """At 390 px in chromium: every link in a leaderboard and a player's rounds is at least 44 x 44
    px, and so is every row (they were 36 x 21 and 34); the find form works without JavaScript; a
    course round's replay is as wide as the phone, its bulls and cows in every row."""
    from tests.browser import chromium, need_browser, new_phone, overflow, served

    need_browser()
    with chromium() as browser, served("--results", str(roster), "--results", str(course)) as address:
        page = new_phone(browser, width=390)
        player = json.loads(run("export", str(roster), "--format", "json").stdout)[0]["name"]
        for path, table in (
            ("results/0", "standings"),
            (f"results/0/player?name={quote(player, safe='')}", "rounds"),
        ):
            page.goto(address + path)
            links = [link.bounding_box() for link in page.locator(f"table.{table} tbody a").all()]
            rows = [row.bounding_box() for row in page.locator(f"table.{table} tbody tr:not(.reason)").all()]
            assert links and all(box["height"] >= 44 and box["width"] >= 44 for box in links), (path, links)
            assert rows and all(box["height"] >= 44 for box in rows), (path, rows)
            assert not overflow(page)
        still = new_phone(browser, width=390, script=False)
        still.goto(address + "results/0")
        still.get_by_label("Find a player").fill("bob/")
        still.get_by_role("button", name="Find").click()
        still.wait_for_url("**find=bob*")
        assert still.locator("table.standings tbody tr").count() == 1
        rounds = client(results=[roster, course]).get(
            "/results/1/player.json", params={"name": str(PLAYERS / "course_first.py")}
        )
        page.goto(address + rounds.json()["rounds"][0]["link"].lstrip("/"))
        cells = page.locator("table.review tbody tr td:last-child").all_inner_texts()
        assert cells and all(re.fullmatch(r"\d+B\d+C", cell) for cell in cells)
        assert not overflow(page)
