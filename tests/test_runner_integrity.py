"""Integrity: resumed results checked row by row, signed rows verified, secret seeds, printed text escaped."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.engine.errors import MoocowError
from moocow.engine.wording import printable
from moocow.runner import resultsfile as results_module
from moocow.runner import signing
from moocow.runner.results import RoundResult
from moocow.runner.rowcheck import KINDS
from moocow.runner.seeds import fingerprint
from moocow.runner.tournament import build_tournament, run_tournament
from moocow.runner.verify import verify_results
from tests.results_helpers import interrupted

GAME = "mastermind:pegs=3,colors=3"
EVIL = (
    'sh -c \'read x; printf "moocow 1 id[red] evil\\r\\033[2J\\n"; '
    'read y; printf "\\033[31mboom\\033[0m\\n" >&2; exit 1\''
)
"""A player whose author holds a carriage return and a clear-screen, and whose crash reason is coloured."""


def run(*args: str, env: dict[str, str] | None = None):
    """``moocow ARGS`` through typer's runner, stdout and stderr apart."""
    return CliRunner().invoke(app, list(args), env=env)


def assert_one_line_error(outcome, *parts: str) -> None:
    """Exit status 2, one ``error:`` line on stderr naming every part, no traceback."""
    lines = [line for line in outcome.stderr.splitlines() if line.strip()]
    assert outcome.exit_code == 2, outcome.output
    assert len(lines) == 1 and lines[0].startswith("error: "), outcome.stderr
    for part in parts:
        assert part in lines[0], lines[0]
    assert "Traceback" not in outcome.output


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Ada Lovelace", "Ada Lovelace"),
        ("José Ñúñez 李小龍", "José Ñúñez 李小龍"),
        ("evil\r\x1b[2J", "evil\\r\\x1b[2J"),
        ("tab\there", "tab\\there"),
        ("line\u2028para\u2029", "line\\u2028para\\u2029"),
        ("bidi\u202eevil", "bidi\\u202eevil"),
    ],
)
def test_printable_escapes_only_what_is_not_printable(text: str, shown: str) -> None:
    """Controls, separators and format characters are escaped as repr does; letters of any script stay."""
    assert printable(text) == shown


def test_grade_escapes_the_author_and_the_crash_reason() -> None:
    """A \\r and a clear-screen in the author, ANSI colours in a crash reason: printed escaped, not raw."""
    outcome = run("grade", EVIL, "--game", GAME, "--rounds", "2", "--seed", "4")
    assert outcome.exit_code == 0, outcome.output
    assert outcome.stdout.splitlines()[-1] == "40 id[red] evil\\r\\x1b[2J"
    assert "crash: exited with status 1: \\x1b[31mboom\\x1b[0m" in outcome.stderr
    assert "\x1b" not in outcome.output and "\r" not in outcome.output


def test_tournament_escapes_names_and_reasons(tmp_path: Path) -> None:
    """Leaderboard names (rich markup shown as typed) and foul reasons are printed escaped, never raw."""
    config = tmp_path / "t.toml"
    config.write_text(
        f"players = [{{name = \"boss\\r\\u001b[2J[red]x\", player = \"first\"}}, '''{EVIL}''']\n"
        f'games = ["{GAME}"]\nrounds = 2\nseed = 3\n',
        encoding="utf-8",
    )
    outcome = run("tournament", "--config", str(config))
    assert outcome.exit_code == 0, outcome.output
    assert "boss\\r\\x1b[2J[red]x" in outcome.stdout
    assert "crash: exited with status 1: \\x1b[31mboom\\x1b[0m" in outcome.stderr
    assert "\x1b" not in outcome.output and "\r" not in outcome.output


SETTINGS = {"players": ["minmax", "first"], "games": [GAME], "rounds": 3, "seed": 7}


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, Path]:
    """A tournament file and the results file of its honest run, its last row cut off to be forged."""
    config = tmp_path / "t.toml"
    config.write_text(f'players = ["minmax", "first"]\ngames = ["{GAME}"]\nrounds = 3\nseed = 7\n')
    results = tmp_path / "r.jsonl"
    run_tournament(build_tournament(SETTINGS), results=results)
    lines = results.read_bytes().splitlines(keepends=True)
    assert len(lines) == 1 + 6
    results.write_bytes(b"".join(lines[:-1]))
    return config, results


def last_row() -> dict[str, object]:
    """The row of the round the fixture cut off, rebuilt honestly."""
    honest = run_tournament(build_tournament(SETTINGS)).results[-1]
    return honest.to_dict()


def forge(row: dict[str, object], **changes: object) -> bytes:
    return (json.dumps({**row, **changes}) + "\n").encode()


FORGERIES = {
    "score -1000": (lambda row: forge(row, score=-1000), "score -1000 is not between 1 and 20"),
    "round 999": (lambda row: forge(row, round=999), "round 999 is not between 0 and 2"),
    "unknown player": (lambda row: forge(row, player="eve"), "unknown player 'eve'"),
    "unknown game": (lambda row: forge(row, game="bottles:n=4"), "unknown game 'bottles:n=4'"),
    "wrong secret": (
        lambda row: forge(row, secret="111" if row["secret"] != "111" else "222"),
        "is not the one the seed deals for round 2",
    ),
    "score off its guesses": (
        lambda row: forge(row, score=1 if len(row["guesses"]) != 1 else 2),
        "does not match its guesses",
    ),
    "solved without the secret": (
        lambda row: forge(row, guesses=["111"] * 2, score=2, solved=True),
        "the last guess is not the secret",
    ),
    "too many guesses": (
        lambda row: forge(row, guesses=["111"] * 21, score=20, solved=False, failure="mercy"),
        "21 guesses, more than the mercy limit 20",
    ),
    "unknown failure": (
        lambda row: forge(row, guesses=[], score=20, solved=False, failure="cheat", reason="x"),
        "failure 'cheat' is not one of mercy",
    ),
    "a guess that is no code": (
        lambda row: forge(
            row, guesses=["1111", row["secret"]], score=2, solved=True, failure=None, reason=None
        ),
        "guess '1111' could not have been played: '1111' is not a guess of mastermind:pegs=3,colors=3",
    ),
    "a guess written otherwise": (
        lambda row: forge(
            row, guesses=[" 111", row["secret"]], score=2, solved=True, failure=None, reason=None
        ),
        "guess ' 111' is not written as the referee writes it",
    ),
    "a failure without its reason": (
        lambda row: forge(row, guesses=[], score=20, solved=False, failure="crash", reason=""),
        "a failure and its reason are recorded exactly when a round is not solved",
    ),
    "solved as text": (lambda row: forge(row, solved="yes"), 'solved must be true or false, not "yes"'),
    "round as true": (lambda row: forge(row, round=True), "round must be a whole number, not true"),
    "guess not a string": (lambda row: forge(row, guesses=[122]), "guess 1 must be a string, not 122"),
    "extra field": (lambda row: forge(row, bonus=1), "unknown field 'bonus'"),
    "missing field": (
        lambda row: json.dumps({k: v for k, v in row.items() if k != "score"}).encode() + b"\n",
        "no 'score'",
    ),
    "not JSON": (lambda row: b"{'player': 'x'}\n", "not JSON"),
    "NaN seconds": (lambda row: forge(row).replace(b'"seconds": ', b'"seconds": NaN, "x": '), "not JSON"),
    "not UTF-8": (
        lambda row: forge(row, player="first").replace(b"first", b"f\xffrst"),
        "not UTF-8 text (byte 0xff)",
    ),
}


@pytest.mark.parametrize("forgery", FORGERIES, ids=str)
def test_resume_refuses_a_forged_row_in_one_line(played: tuple[Path, Path], forgery: str) -> None:
    """Each kind of forged row makes --resume refuse the file: one line naming the file and line 7."""
    config, results = played
    make, message = FORGERIES[forgery]
    before = results.read_bytes() + make(last_row())
    results.write_bytes(before)
    outcome = run("tournament", "--config", str(config), "--results", str(results), "--resume")
    assert_one_line_error(outcome, f"error: results file {str(results)!r}, line 7: ", message)
    assert results.read_bytes() == before, "a refused file is left as it was"


def test_a_results_file_another_run_is_writing_is_refused(played: tuple[Path, Path]) -> None:
    """Two runs on one file (a second --resume while the first still played) wrote rounds twice or
    spliced lines, both exiting 0: the file is held by the run writing it."""
    config, results = played
    before = results.read_bytes()
    description = build_tournament(SETTINGS).describe()
    with results_module.ResultsFile(results, description, resume=True):
        outcome = run("tournament", "--config", str(config), "--results", str(results), "--resume")
        assert_one_line_error(outcome, repr(str(results)), "is being written by another run")
    assert results.read_bytes() == before
    finished = run("tournament", "--config", str(config), "--results", str(results), "--resume")
    assert finished.exit_code == 0 and len(results.read_bytes().splitlines()) == 7, finished.output


@pytest.mark.parametrize("changed", ["module", "its helper", "a program's script", "a program's folder"])
def test_a_player_changed_since_its_rounds_were_played_does_not_resume(tmp_path: Path, changed: str) -> None:
    """An edited player, resumed, mixed two programs' rounds under one name, exit 0: the module, a
    helper it imports from its folder, or a folder its command names (a Java class path)."""
    folder = tmp_path / "ada"
    folder.mkdir()
    (folder / "helper.py").write_text((Path(__file__).parent / "players" / "first_candidate.py").read_text())
    bot = folder / "bot.py"
    bot.write_text("from helper import next_guess  # noqa: F401\n")
    player = {
        "module": str(bot),
        "its helper": str(bot),
        "a program's script": f"{sys.executable} -c pass {bot}",
        "a program's folder": f"{sys.executable} -c pass {folder}",
    }[changed]
    edited = folder / "helper.py" if changed in ("its helper", "a program's folder") else bot
    results = folder / "r.jsonl"  # in the player's folder: its growth is not a change of the player
    arguments = ["tournament", "-p", player, "-p", "minmax", "-g", GAME, "-r", "2", "--seed", "7"]
    arguments += ["--results", str(results), "--no-sandbox"]
    assert run(*arguments).exit_code == 0
    results.write_bytes(b"".join(results.read_bytes().splitlines(keepends=True)[:-1]))
    honest = results.read_bytes()
    edited.write_text(edited.read_text() + "\n# changed\n")
    outcome = run(*arguments, "--resume")
    assert_one_line_error(outcome, "has changed since its rounds were played (its files differ")
    edited.write_text(edited.read_text().removesuffix("\n# changed\n"))
    assert results.read_bytes() == honest and run(*arguments, "--resume").exit_code == 0


def test_a_run_sandboxed_does_not_resume_unconfined(tmp_path: Path) -> None:
    """The header says how players were confined: rounds of a --no-sandbox run do not join it."""
    player = str(Path(__file__).parent / "players" / "first_candidate.py")
    results = tmp_path / "r.jsonl"
    arguments = ["tournament", "-p", player, "-g", GAME, "-r", "2", "--seed", "7", "--results", str(results)]
    assert run(*arguments).exit_code == 0
    results.write_bytes(b"".join(results.read_bytes().splitlines(keepends=True)[:-1]))
    outcome = run(*arguments, "--resume", "--no-sandbox")
    assert_one_line_error(outcome, "was played with players sandboxed: resume it so")
    assert run(*arguments, "--resume").exit_code == 0


def test_resume_refuses_a_duplicate_round(played: tuple[Path, Path]) -> None:
    """A round already in the file, appended again, is refused, naming both lines."""
    config, results = played
    lines = results.read_bytes().splitlines(keepends=True)
    results.write_bytes(b"".join(lines) + lines[1])
    outcome = run("tournament", "--config", str(config), "--results", str(results), "--resume")
    assert_one_line_error(
        outcome, "line 7: round 0 of 'minmax' in mastermind:pegs=3,colors=3 is on line 2 too"
    )


def test_an_honest_file_resumes_and_a_torn_line_is_cut(played: tuple[Path, Path]) -> None:
    """The cut-off file with half a row after it resumes: the torn line is dropped, the round replayed."""
    config, results = played
    results.write_bytes(results.read_bytes() + forge(last_row())[:30])
    outcome = run("tournament", "--config", str(config), "--results", str(results), "--resume")
    assert outcome.exit_code == 0, outcome.output
    assert "1 rounds played, seed 7, mercy 20." in outcome.stdout
    rows = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    assert rows[-1]["seconds"] >= 0 and {k: v for k, v in rows[-1].items() if k != "seconds"} == {
        k: v for k, v in last_row().items() if k != "seconds"
    }


def test_the_schema_is_exactly_the_round_result_fields() -> None:
    """The checked fields are RoundResult's written ones: a new field cannot slip past the resume check."""
    written = [field.name for field in fields(RoundResult) if field.name not in RoundResult.UNWRITTEN_FIELDS]
    assert list(KINDS) == written


KEY = b"correct horse battery staple"


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    """A key file as an operator writes one: the key and a newline."""
    path = tmp_path / "results.key"
    path.write_bytes(KEY + b"\n")
    return path


def signed_run(tmp_path: Path) -> Path:
    """A signed results file of the small tournament, its last row cut off."""
    results = tmp_path / "signed.jsonl"
    run_tournament(build_tournament(SETTINGS), results=results, key=KEY)
    interrupted(results, 5)
    return results


def test_signed_rows_resume_to_the_unsigned_results(tmp_path: Path) -> None:
    """Every line of a signed file carries a valid hmac, the key is nowhere in it, and it resumes exactly."""
    results = signed_run(tmp_path)
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert lines[0]["signed"] is True
    assert all(line["hmac"] for line in lines) and verify_results(results, KEY).sound
    assert KEY not in results.read_bytes() and KEY.hex().encode() not in results.read_bytes()
    resumed = run_tournament(build_tournament(SETTINGS), results=results, resume=True, key=KEY)
    unsigned = run_tournament(build_tournament(SETTINGS))
    assert resumed.played == 1
    assert [r.without_timing() for r in resumed.results] == [r.without_timing() for r in unsigned.results]
    assert all(json.loads(line)["hmac"] for line in results.read_text().splitlines())


@pytest.mark.parametrize("hmac", [None, "00" * 32], ids=["no hmac", "wrong hmac"])
def test_a_forged_row_in_a_signed_file_is_refused(tmp_path: Path, key_file: Path, hmac: str | None) -> None:
    """A well-formed, consistent perfect round without a valid hmac: refused in one line naming it."""
    results = signed_run(tmp_path)
    row = last_row()
    forged = {**row, "guesses": [row["secret"]], "solved": True, "score": 1, "failure": None, "reason": None}
    if hmac is not None:
        forged["hmac"] = hmac
    results.write_bytes(results.read_bytes() + (json.dumps(forged) + "\n").encode())
    config = tmp_path / "t.toml"
    config.write_text(f'players = ["minmax", "first"]\ngames = ["{GAME}"]\nrounds = 3\nseed = 7\n')
    arguments = ["--config", str(config), "--results", str(results), "--resume", "--key-file", str(key_file)]
    outcome = run("tournament", *arguments)
    assert_one_line_error(outcome, "line 7: ", "hmac")


def test_an_edited_signed_header_is_refused(tmp_path: Path) -> None:
    """Changing the seed recorded in a signed header breaks its signature: line 1 is named."""
    results = signed_run(tmp_path)
    lines = results.read_text().splitlines(keepends=True)
    first = json.loads(lines[0])
    first["tournament"]["seed"] = 8
    results.write_text(json.dumps(first) + "\n" + "".join(lines[1:]))
    with pytest.raises(MoocowError, match="line 1: its hmac does not match"):
        run_tournament(build_tournament({**SETTINGS, "seed": 8}), results=results, resume=True, key=KEY)


def test_a_signed_file_needs_its_key_and_a_key_needs_a_signed_file(tmp_path: Path) -> None:
    """Resuming a signed file without the key, or an unsigned one with a key, is refused."""
    results = signed_run(tmp_path)
    with pytest.raises(MoocowError, match="needs the key it was signed with"):
        run_tournament(build_tournament(SETTINGS), results=results, resume=True)
    with pytest.raises(MoocowError, match="another key"):
        run_tournament(build_tournament(SETTINGS), results=results, resume=True, key=b"other")
    unsigned = tmp_path / "unsigned.jsonl"
    run_tournament(build_tournament(SETTINGS), results=unsigned)
    with pytest.raises(MoocowError, match="is not signed: resume it without a key"):
        run_tournament(build_tournament(SETTINGS), results=unsigned, resume=True, key=KEY)


def test_the_key_comes_from_the_environment_or_the_tournament_file(tmp_path: Path, key_file: Path) -> None:
    """MOOCOW_RESULTS_KEY and the TOML key_file both sign; the key is printed nowhere."""
    for how in ("environment", "toml"):
        config = tmp_path / f"{how}.toml"
        extra = f"key_file = '{key_file}'\n" if how == "toml" else ""
        config.write_text(f'players = ["first"]\ngames = ["{GAME}"]\nrounds = 2\nseed = 7\n{extra}')
        results = tmp_path / f"{how}.jsonl"
        env = {signing.KEY_VARIABLE: KEY.decode()} if how == "environment" else {}
        outcome = run("tournament", "--config", str(config), "--results", str(results), env=env)
        assert outcome.exit_code == 0, outcome.output
        assert KEY.decode() not in outcome.output
        found = verify_results(results, KEY, key_file if how == "toml" else None, seed=7)
        assert found.sound and found.closed and not found.notes, found
    assert len(list((tmp_path / "results.key.chains").iterdir())) == 1, "the record is kept beside the key"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda path: None, "cannot read key file"),
        (lambda path: path.write_bytes(b" \n"), "is empty"),
        (lambda path: path.mkdir(), "is a folder"),
    ],
    ids=["missing", "empty", "folder"],
)
def test_a_bad_key_file_is_one_line(tmp_path: Path, make, message: str) -> None:
    """A key file that is missing, empty or a folder stops the tournament before round one."""
    key = tmp_path / "k"
    make(key)
    outcome = run("tournament", "-p", "first", "-g", GAME, "--key-file", str(key), "--seed", "1")
    assert_one_line_error(outcome, message, repr(str(key)))
    assert "rounds played" not in outcome.stdout


def test_grade_signs_gradescope_results(tmp_path: Path, key_file: Path) -> None:
    """With a key, results.json carries extra_data.hmac over the rest; without one it has no hmac."""
    written = tmp_path / "results.json"
    arguments = ["grade", "first", "--game", GAME, "--rounds", "2", "--gradescope", str(written)]
    outcome = run(*arguments, "--key-file", str(key_file))
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(written.read_text())
    claimed = data["extra_data"].pop("hmac")
    assert claimed == signing.signature(data, KEY)
    assert run(*arguments).exit_code == 0 and "hmac" not in json.loads(written.read_text())["extra_data"]


def test_the_results_file_is_private(tmp_path: Path) -> None:
    """A new results file is readable and writable by its owner only (mode 0600)."""
    results = tmp_path / "r.jsonl"
    run_tournament(build_tournament(SETTINGS), results=results)
    assert results.stat().st_mode & 0o777 == 0o600


def test_gradescope_results_replace_the_old_file_whole(tmp_path: Path) -> None:
    """results.json is renamed into place: a reader of the old file keeps it whole, no temporary is left."""
    written = tmp_path / "results.json"
    written.write_text('{"old": true}\n')
    reader = tmp_path / "reader.json"
    os.link(written, reader)  # a reader that opened the old file
    outcome = run(
        "grade", "first", "--game", GAME, "--rounds", "2", "--seed", "1", "--gradescope", str(written)
    )
    assert outcome.exit_code == 0, outcome.output
    assert json.loads(reader.read_text()) == {"old": True}
    assert len(json.loads(written.read_text())["tests"]) == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["reader.json", "results.json"]


@pytest.mark.parametrize("where", ["missing folder", "folder"])
@pytest.mark.parametrize("command", ["grade", "tournament"])
def test_an_output_path_that_cannot_be_written_is_refused_first(
    tmp_path: Path, where: str, command: str
) -> None:
    """--gradescope or --results in a missing folder, or naming a folder: one line before round one."""
    path = tmp_path / "nowhere" / "out.json" if where == "missing folder" else tmp_path
    message = "does not exist" if where == "missing folder" else "is a folder"
    if command == "grade":
        outcome = run("grade", "first", "--game", GAME, "--seed", "1", "--gradescope", str(path))
    else:
        outcome = run("tournament", "-p", "first", "-g", GAME, "--seed", "1", "--results", str(path))
    assert_one_line_error(outcome, repr(str(path)), message)
    assert outcome.stdout == ""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("command", ["grade", "tournament"])
def test_an_output_that_is_not_a_regular_file_is_refused_first(tmp_path: Path, command: str) -> None:
    """A pipe (or a device) as --gradescope or --results: refused in one line and left as it is.
    A FIFO hung the run, and ``--results /dev/null`` once made ``/dev/null`` private to root."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    pipe.chmod(0o666)  # past the umask: a mode the runner must not change
    if command == "grade":
        outcome = run("grade", "first", "--game", GAME, "--seed", "1", "--gradescope", str(pipe))
    else:
        outcome = run("tournament", "-p", "first", "-g", GAME, "--seed", "1", "--results", str(pipe))
    assert_one_line_error(outcome, repr(str(pipe)), "is not a regular file")
    assert pipe.is_fifo() and pipe.stat().st_mode & 0o777 == 0o666


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="Linux: /proc takes no new file")
def test_an_output_folder_that_takes_no_file_is_refused_first() -> None:
    """The folder exists but cannot hold a new file: refused before round one, not after the last."""
    outcome = run("grade", "first", "--game", GAME, "--seed", "1", "--gradescope", "/proc/results.json")
    assert_one_line_error(outcome, "'/proc/results.json'", "cannot write in '/proc'")
    assert outcome.stdout == ""


def test_a_linked_output_is_written_through_its_link(tmp_path: Path) -> None:
    """--gradescope naming a link: the file it points to gets the results, and the link stays."""
    target, link = tmp_path / "results.json", tmp_path / "latest.json"
    target.write_text("{}\n")
    link.symlink_to(target)
    outcome = run("grade", "first", "--game", GAME, "--rounds", "2", "--seed", "1", "--gradescope", str(link))
    assert outcome.exit_code == 0, outcome.output
    assert link.is_symlink() and len(json.loads(target.read_text())["tests"]) == 2


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="Linux: /dev/full is a full disk")
def test_a_full_disk_under_the_results_file_stops_the_run_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every write fails with ENOSPC: one line naming the file and how to go on, no traceback."""
    monkeypatch.setattr(results_module, "create_private", lambda path: os.open("/dev/full", os.O_WRONLY))
    results = tmp_path / "results.jsonl"
    outcome = run("tournament", "-p", "first", "-g", GAME, "--seed", "1", "--results", str(results))
    assert_one_line_error(outcome, repr(str(results)), "No space left on device", "--resume")


def header_seed(results: Path) -> int:
    return json.loads(results.read_text().splitlines()[0])["tournament"]["seed"]


def test_a_seed_file_or_the_environment_keeps_the_seed_off_the_command_line(tmp_path: Path) -> None:
    """--seed-file's first line, or MOOCOW_SEED, seeds the run: no warning, and the summary, the
    header and grade's first line show its fingerprint alone."""
    seed_file = tmp_path / "seed"
    seed_file.write_text("5\nanything after the first line\n")
    for how, arguments, env in [
        ("file", ["--seed-file", str(seed_file)], {}),
        ("environment", [], {"MOOCOW_SEED": " 5 "}),
    ]:
        results = tmp_path / f"{how}.jsonl"
        outcome = run("tournament", "-p", "first", "-g", GAME, "--results", str(results), *arguments, env=env)
        assert outcome.exit_code == 0, outcome.output
        assert f"seed fingerprint {fingerprint(5)}, mercy 20." in outcome.stdout
        header = json.loads(results.read_text().splitlines()[0])["tournament"]
        assert "seed" not in header and header["seed_fingerprint"] == fingerprint(5)
        assert "warning" not in outcome.stderr
    graded = run("grade", "first", "--game", GAME, "--rounds", "2", env={"MOOCOW_SEED": "5"})
    assert graded.stdout.splitlines()[0] == f"BACRunner Python with seed=fingerprint:{fingerprint(5)}."
    assert "warning" not in graded.stderr


def test_the_seed_precedence(tmp_path: Path) -> None:
    """--seed (or --seed-file: given both, the file was ignored, so that is one line) beats
    MOOCOW_SEED beats the tournament file's seed."""
    config = tmp_path / "t.toml"
    config.write_text(f'players = ["first"]\ngames = ["{GAME}"]\nrounds = 1\nseed = 1\n')
    seed_file = tmp_path / "seed"
    seed_file.write_text("2")
    both = run("tournament", "--config", str(config), "--seed", "3", "--seed-file", str(seed_file))
    assert_one_line_error(both, "give the seed once: --seed or --seed-file, not both")
    cases = [
        (["--seed", "3"], {"MOOCOW_SEED": "4"}, 3),
        (["--seed-file", str(seed_file)], {"MOOCOW_SEED": "4"}, 2),
        ([], {"MOOCOW_SEED": "4"}, 4),
        ([], {}, 1),
    ]
    for arguments, env, seed in cases:
        outcome = run("tournament", "--config", str(config), *arguments, env=env)
        assert outcome.exit_code == 0, outcome.output
        shown = str(seed) if "--seed" in arguments else f"fingerprint {fingerprint(seed)}"  # --seed is public
        assert f"seed {shown}, mercy 20." in outcome.stdout


def test_a_tournament_without_a_seed_draws_one_and_says_so_after_the_run(tmp_path: Path) -> None:
    """No seed: a fresh one, recorded in the header, printed after the leaderboard; resume reuses it."""
    results = tmp_path / "r.jsonl"
    arguments = [
        "tournament",
        "-p",
        "first",
        "-p",
        "minmax",
        "-g",
        GAME,
        "-r",
        "3",
        "--results",
        str(results),
    ]
    outcome = run(*arguments)
    assert outcome.exit_code == 0, outcome.output
    seed = header_seed(results)
    assert outcome.stdout.splitlines()[-2:] == [
        f"6 rounds played, seed {seed}, mercy 20.",
        f"seed {seed}, drawn at random.",
    ]
    other = run("tournament", "-p", "first", "-g", GAME, "-r", "3")
    assert other.stdout.splitlines()[-1] != outcome.stdout.splitlines()[-1], "the same seed drawn twice"
    results.write_bytes(b"".join(results.read_bytes().splitlines(keepends=True)[:-2]))
    resumed = run(*arguments, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert (
        f"2 rounds played, seed {seed}, mercy 20." in resumed.stdout
        and "drawn at random" not in resumed.stdout
    )
    expected = run_tournament(build_tournament({**SETTINGS, "players": ["first", "minmax"], "seed": seed}))
    rows = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    assert sorted(json.dumps({k: v for k, v in row.items() if k != "seconds"}) for row in rows) == sorted(
        json.dumps(result.without_timing()) for result in expected.results
    )


def test_grade_keeps_the_course_seed_and_warns_that_it_is_public() -> None:
    """No seed given: 888, as the course; the log is the --seed 888 log, and stderr says 888 is public."""
    arguments = ["grade", "first", "--game", GAME, "--rounds", "3"]
    default, explicit = run(*arguments), run(*arguments, "--seed", "888")
    assert default.exit_code == explicit.exit_code == 0, default.output
    assert default.stdout == explicit.stdout and default.stdout.startswith(
        "BACRunner Python with seed=888.\n"
    )
    assert default.stderr.splitlines()[-1] == (
        "warning: seed 888 is public: a student can precompute every secret; "
        "give --seed-file or MOOCOW_SEED to keep it secret"
    )
    assert "--seed 888 is on the command line, visible to other processes" in explicit.stderr


def test_a_seed_on_the_tournament_command_line_is_warned_about() -> None:
    """--seed N works, with a warning that other processes can read it."""
    outcome = run("tournament", "-p", "first", "-g", GAME, "-r", "1", "--seed", "9")
    assert outcome.exit_code == 0 and "seed 9, mercy 20." in outcome.stdout
    assert "warning: --seed 9 is on the command line, visible to other processes" in outcome.stderr


SHORT_SEED = (
    "warning: the seed from MOOCOW_SEED is short: a player that has seen a few of its secrets can find it"
)


@pytest.mark.parametrize("command", ["grade", "tournament"])
def test_a_short_seed_is_warned_about_where_outside_players_play(command: str) -> None:
    """A player that has seen three secrets found a seed of 4242 by trying every seed up to it in
    seconds, then won every later round at once. Engine strategies cannot, so they are not warned."""
    outsider = str(Path(__file__).parent / "players" / "first_candidate.py")
    for player, warned in [(outsider, True), ("first", False)]:
        named = [player] if command == "grade" else ["-p", player]
        outcome = run(command, *named, "-g", GAME, "-r", "1", env={"MOOCOW_SEED": "4242"})
        assert outcome.exit_code == 0, outcome.output
        assert (SHORT_SEED in outcome.stderr) is warned, outcome.stderr
    long_seed = run(command, *(["-p"] if command == "tournament" else []), outsider, "-g", GAME, "-r", "1",
                    env={"MOOCOW_SEED": "4242424242424"})  # fmt: skip
    assert long_seed.exit_code == 0 and "warning" not in long_seed.stderr, long_seed.stderr


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("--seed", "--seed: a seed is 0 or more, not -888 (it would deal the secrets of 888)"),
        ("MOOCOW_SEED", "MOOCOW_SEED: a seed is 0 or more, not -888"),
        ("--seed-file", "a seed is 0 or more, not -888"),
        ("the tournament file", "the tournament file's seed: a seed is 0 or more, not -888"),
        ("many digits", "MOOCOW_SEED: a seed has at most 100 digits"),
    ],
)
def test_a_negative_or_enormous_seed_is_one_line(tmp_path: Path, how: str, message: str) -> None:
    """``random.Random`` takes -N as N: seed -888 dealt the course's public 888 with no warning. A
    seed of 5,000 digits in MOOCOW_SEED was a traceback (Python reads no number of over 4,300)."""
    (tmp_path / "seed").write_text("-888\n")
    (tmp_path / "t.toml").write_text("seed = -888\n")
    arguments, env = {
        "--seed": (["--seed=-888"], {}),
        "MOOCOW_SEED": ([], {"MOOCOW_SEED": "-888"}),
        "--seed-file": (["--seed-file", str(tmp_path / "seed")], {}),
        "the tournament file": (["-c", str(tmp_path / "t.toml")], {}),
        "many digits": ([], {"MOOCOW_SEED": "9" * 5000}),
    }[how]
    assert_one_line_error(run("tournament", "-p", "first", "-g", GAME, *arguments, env=env), message)
    with pytest.raises(MoocowError, match="a seed is 0 or more"):
        build_tournament({**SETTINGS, "seed": -888})


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read seed file"),
        ("", "is empty"),
        ("\n5\n", "is empty"),
        ("five\n", "should hold a whole number, not 'five'"),
        ("1.5", "should hold a whole number"),
        (b"\xff\xfe5", "is not UTF-8 text"),
        ("folder", "is a folder"),
    ],
    ids=["missing", "empty", "blank first line", "word", "fraction", "binary", "folder"],
)
@pytest.mark.parametrize("command", ["grade", "tournament"])
def test_a_bad_seed_file_is_one_line(
    tmp_path: Path, content: str | bytes | None, message: str, command: str
) -> None:
    """A seed file that is missing, empty, not a whole number, binary or a folder: one line, no play."""
    seed_file = tmp_path / "seed"
    if content == "folder":
        seed_file.mkdir()
    elif isinstance(content, bytes):
        seed_file.write_bytes(content)
    elif content is not None:
        seed_file.write_text(content)
    player = ["first"] if command == "grade" else ["-p", "first"]
    outcome = run(command, *player, "-g", GAME, "--seed-file", str(seed_file))
    assert_one_line_error(outcome, repr(str(seed_file)), message)


def test_a_bad_moocow_seed_is_one_line() -> None:
    """MOOCOW_SEED that is not a whole number stops the run in one line."""
    outcome = run("tournament", "-p", "first", "-g", GAME, env={"MOOCOW_SEED": "0x10"})
    assert_one_line_error(outcome, "MOOCOW_SEED should hold a whole number, not '0x10'")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("folder", "is a folder"),
        (b"alpha\nbravo\x00\x01\x02\ncider\n", "is binary (a NUL byte at offset 11)"),
        (b"alpha\nbravo\n" + "cidér\n".encode("latin-1"), "is not UTF-8 text (a byte 0xe9)"),
    ],
    ids=["folder", "binary", "latin-1"],
)
@pytest.mark.parametrize("command", ["grade", "tournament"])
def test_a_bad_word_file_is_one_line(
    tmp_path: Path, content: str | bytes, message: str, command: str
) -> None:
    """The course deck's word file as a folder, binary, or not UTF-8: one line saying so, before round one."""
    words = tmp_path / "words.txt"
    if content == "folder":
        words.mkdir()
    else:
        assert isinstance(content, bytes)
        words.write_bytes(content)
    if command == "grade":
        outcome = run("grade", "first", "--words", str(words), "--seed", "1")
    else:
        outcome = run("tournament", "-p", "first", "-g", f"bacrunner:file={words}", "--seed", "1")
    assert_one_line_error(outcome, f"word file {str(words)!r} {message}")
    assert outcome.stdout == ""


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('players = ["first"]\n# caf\xe9\n'.encode("latin-1"), "is not UTF-8 text"),
        (
            f'players = ["first"]\ngames = ["{GAME}"]\nlimits = 5\n'.encode(),
            "limits must be a table ([limits]), not 5",
        ),
        (f'players = ["first"]\ngames = ["{GAME}"]\nlimits = "fast"\n'.encode(), "limits must be a table"),
    ],
    ids=["latin-1", "limits a number", "limits a string"],
)
def test_a_bad_tournament_file_is_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    """A tournament file that is not UTF-8, or whose limits is not a table: one line, no traceback."""
    config = tmp_path / "t.toml"
    config.write_bytes(content)
    outcome = run("tournament", "--config", str(config), "--seed", "1")
    assert_one_line_error(outcome, f"tournament file {str(config)!r}", message)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('players = [{name = 5, player = "first"}]', "a player's name must be non-empty text, not 5"),
        ('players = [{name = "", player = "first"}]', "a player's name must be non-empty text, not ''"),
        ("players = [{player = 5}]", "a player's player must be non-empty text, not 5"),
        ('players = ["first"]\nkey_file = 5', "key_file must be the path of a key file, not 5"),
    ],
    ids=["name a number", "name empty", "player a number", "key_file a number"],
)
def test_a_value_of_the_wrong_type_in_a_tournament_file_is_one_line(
    tmp_path: Path, line: str, message: str
) -> None:
    """Once a traceback after every round was played (a name that was a number), a misreading (an
    empty name), or a traceback before (a key file that was a number)."""
    config = tmp_path / "t.toml"
    config.write_text(f'{line}\ngames = ["{GAME}"]\nrounds = 2\n')
    outcome = run("tournament", "--config", str(config), "--seed", "1")
    assert_one_line_error(outcome, message)
    assert outcome.stdout == ""


def test_runner_cli_findings_of_the_fuzz_are_one_line(tmp_path: Path) -> None:
    """Huge round counts, a results file that is no results file, lengths with --game: each one line."""
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"\x00\x01 not json\n")
    huge = run("tournament", "-p", "minmax", "-g", GAME, "-r", "99999999999999999999")
    assert huge.exit_code == 2 and "rounds must be at most 1,000,000" in huge.stderr
    resumed = run("tournament", "-p", "minmax", "-g", GAME, "--results", str(junk), "--resume")
    assert resumed.exit_code == 2 and "is not a moocow results file" in resumed.stderr
    lengths = run("grade", "first", "--game", GAME, "--min-length", "6")
    assert lengths.exit_code == 2 and "not with --game" in lengths.stderr
