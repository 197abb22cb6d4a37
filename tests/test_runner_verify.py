"""``moocow verify RESULTS [--key-file KEY]``: every line's HMAC and place in the chain, and every
round as ``--resume`` checks them, one line per problem; exit status 0 (sound), 1 (problems), 2
(bad input). A results file is a chain: a line removed, moved, repeated or taken from another file,
and a file cut short, are refused by ``verify`` (1) and ``--resume`` (2), naming the line."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from moocow.cli import app
from moocow.runner import signing
from moocow.runner.results import most_row_bytes
from moocow.runner.tournament import build_tournament, run_tournament
from tests.players.hostile import flood
from tests.results_helpers import interrupted, resigned

KEY = b"the course's key"
GAME = "bottles:n=4"
PLAY = ["tournament", "-p", "first", "-p", "minmax", "-g", GAME, "-r", "3", "--seed", "5"]
"""A tournament of 2 players x 3 rounds: a results file of a header, 6 rows and a closing line."""
PLAYERS = Path(__file__).parent / "players"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def signed(tmp_path: Path) -> tuple[Path, Path]:
    """A finished, signed results file of 2 players x 3 rounds, and its key file."""
    key_file, results = tmp_path / "key", tmp_path / "results.jsonl"
    key_file.write_bytes(KEY + b"\n")
    played = run(*PLAY, "--results", str(results), "--key-file", str(key_file))
    assert played.exit_code == 0, played.stderr
    return results, key_file


def resume(results: Path, key_file: Path | None) -> Result:
    return run(
        *PLAY, "--results", str(results), "--resume", *(["--key-file", str(key_file)] if key_file else [])
    )


def lines_of(results: Path) -> list[bytes]:
    return results.read_bytes().splitlines(keepends=True)


def test_each_line_signs_the_one_before_it_as_docs_runner_md_says(signed: tuple[Path, Path]) -> None:
    """The chain worked out here with ``hmac`` alone, as docs/runner.md describes it: a line's
    signature is HMAC-SHA256 under the key of the previous line's signature (empty for the first),
    a newline, and the line up to its ``"hmac"`` field, closed with ``}``. A file whose lines are
    signed without the one before would pass every check that reads the file with moocow's own
    code."""
    results, _ = signed
    before = ""
    for line in lines_of(results):
        text = line.decode("utf-8").rstrip("\n")
        body, separator, tail = text.rpartition(', "hmac": "')
        assert separator and tail.endswith('"}'), text
        expected = hmac.new(KEY, f"{before}\n{body}}}".encode(), hashlib.sha256).hexdigest()
        assert tail[:-2] == expected, text
        before = expected


def test_a_sound_file_verifies_and_resumes(signed: tuple[Path, Path]) -> None:
    results, key_file = signed
    result = run("verify", str(results), "--key-file", str(key_file))
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines() == [
        f"{results}: every line is signed with this key and checks out, 6 of 6 rounds, closed"
    ]
    assert json.loads(lines_of(results)[-1])["end"] == {"rounds": 6}
    finished = resume(results, key_file)
    assert finished.exit_code == 0 and "All 6 rounds were already played" in finished.stdout, finished.output


def test_every_problem_is_a_line_of_its_own(signed: tuple[Path, Path]) -> None:
    """An edited row (its HMAC fails), a row re-signed by a forger with a score its guesses do not
    make (the resume checks) and the chain re-signed after it (the recorded head tells), a round
    repeated, a torn last line: a line each, status 1; the chain goes on after each problem, so
    that one bad line is one problem."""
    results, key_file = signed
    lines = lines_of(results)
    lines[1] = lines[1].replace(b'"seconds": ', b'"seconds": 1')
    for number in range(3, len(lines) + 1):  # the forger signs the chain again from line 3
        row = json.loads(lines[number - 1])
        if number == 3:
            row["score"] = 1
        text = [line.decode() for line in lines]
        lines[number - 1] = resigned(text, number, row, KEY).encode() + b"\n"
    results.write_bytes(b"".join([*lines[:7], lines[4], lines[7], b'{"player": "fir']))
    result = run("verify", str(results), "--key-file", str(key_file))
    assert result.exit_code == 1
    found = result.stdout.splitlines()
    assert found[0] == f"{results}, line 2: its hmac does not match: the row was changed, forged, or " + (
        "signed with another key"
    )
    assert found[1].startswith(f"{results}, line 3: score 1 does not match its guesses")
    assert found[2:] == [
        f"{results}, line 8: repeats line 5",
        f"{results}, line 9: not the line the runner recorded writing as line 8: the file was replaced",
        f"{results}, line 10: torn (no end of line): the run was stopped while writing it",
        f"{results}: 5 problems; 4 of 6 rounds check out",
    ]


def test_another_key_fails_every_line(signed: tuple[Path, Path], tmp_path: Path) -> None:
    results, _ = signed
    other = tmp_path / "other"
    other.write_text("another key\n")
    result = run("verify", str(results), "--key-file", str(other))
    assert result.exit_code == 1
    assert len([line for line in result.stdout.splitlines() if "hmac does not match" in line]) == 8


def tampered(results: Path, how: str) -> None:
    """``results`` tampered with by someone who can write it but holds no key."""
    lines = lines_of(results)
    other = results.with_name("other.jsonl")
    if how == "foreign":  # another file of the same tournament and key: line 4 of it for line 4
        assert run(*PLAY, "--results", str(other), "--key-file", str(results.with_name("key"))).exit_code == 0
    edits = {
        "deleted": lambda: lines[:2] + lines[3:],
        "moved": lambda: [*lines[:2], *lines[3:6], lines[2], *lines[6:]],
        "repeated": lambda: [*lines[:5], lines[3], *lines[5:]],
        "foreign": lambda: [*lines[:3], lines_of(other)[3], *lines[4:]],
        "lone header": lambda: lines[:1],
        "cut short": lambda: lines[:5],
    }
    results.write_bytes(b"".join(edits[how]()))


TAMPERING = {
    "deleted": "line 3: line 3 is missing before it (removed, or moved further down)",
    "moved": "line 3: line 3 is missing before it",
    "repeated": "line 6: repeats line 4",
    "foreign": "line 4: comes from another results file (its chain is",
    "lone header": "line 2: missing: the runner wrote 8 lines, and the file ends at line 1: every line after",
    "cut short": "line 6: missing: the runner wrote 8 lines, and the file ends at line 5: lines 6 to 8 cut",
}


@pytest.mark.parametrize("how", TAMPERING)
def test_each_kind_of_tampering_is_refused_by_verify_and_resume(signed: tuple[Path, Path], how: str) -> None:
    """Each once verified (exit 0) and resumed, replaying exactly the rounds removed: now verify
    exits 1 naming the line, and --resume refuses the file in one line, leaving it as it was."""
    results, key_file = signed
    tampered(results, how)
    before = results.read_bytes()
    checked = run("verify", str(results), "--key-file", str(key_file))
    assert checked.exit_code == 1, checked.stdout
    assert f"{results}, {TAMPERING[how]}" in checked.stdout.splitlines()[0], checked.stdout
    refused = resume(results, key_file)
    (line,) = [line for line in refused.stderr.splitlines() if not line.startswith("warning")]
    assert refused.exit_code == 2 and line.startswith(f"error: results file {str(results)!r}, ")
    assert TAMPERING[how] in line, line
    assert "Traceback" not in refused.output and results.read_bytes() == before


def test_an_emptied_file_is_refused_on_resume(signed: tuple[Path, Path]) -> None:
    """Emptied, a file once resumed as a new tournament: every round played again."""
    results, key_file = signed
    results.write_bytes(b"")
    refused = resume(results, key_file)
    assert refused.exit_code == 2 and "it is empty now: it was cut, not interrupted" in refused.stderr


class Stop(Exception):
    """A run stopped after some rounds (as by Ctrl-C or a kill)."""


class StopAfter:
    def __init__(self, rounds: int) -> None:
        self.left = rounds

    def begin(self, total: int, done: int) -> None:
        pass

    def advance(self, result: object) -> None:
        self.left -= 1
        if not self.left:
            raise Stop


def test_an_interrupted_file_resumes_after_its_last_line(tmp_path: Path) -> None:
    """Stopped after 4 rounds, a file is unfinished (verify: exit 0); resumed, it plays the other 2
    and closes, with the rounds of an uninterrupted run."""
    key_file, results = tmp_path / "key", tmp_path / "results.jsonl"
    key_file.write_bytes(KEY)
    tournament = build_tournament({"players": ["first", "minmax"], "games": [GAME], "rounds": 3, "seed": 5})
    with pytest.raises(Stop):
        run_tournament(tournament, results, progress=StopAfter(4), key=KEY, key_file=key_file)
    assert len(lines_of(results)) == 5
    checked = run("verify", str(results), "--key-file", str(key_file))
    assert checked.exit_code == 0 and "4 of 6 rounds (unfinished: --resume plays the rest)" in checked.stdout
    resumed = run_tournament(tournament, results, resume=True, key=KEY, key_file=key_file)
    whole = run_tournament(tournament)
    assert resumed.played == 2
    assert [r.without_timing() for r in resumed.results] == [r.without_timing() for r in whole.results]
    checked = run("verify", str(results), "--key-file", str(key_file))
    assert checked.exit_code == 0 and checked.stdout.endswith("6 of 6 rounds, closed\n"), checked.stdout


def test_an_unsigned_file_says_that_nothing_protects_it(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    assert run(*PLAY, "--results", str(results)).exit_code == 0
    checked = run("verify", str(results))
    assert checked.exit_code == 0
    assert checked.stdout.splitlines() == [
        f"{results}: not signed: nothing protects it (whoever can write it could change, remove or add "
        "rounds that still check out); sign results with --key-file",
        f"{results}: every round checks out, 6 of 6 rounds; nothing protects them (not signed)",
    ]
    key_file = tmp_path / "key"
    key_file.write_bytes(KEY)
    assert run("verify", str(results), "--key-file", str(key_file)).exit_code == 1


def version_1(tmp_path: Path, rounds: int) -> Path:
    """A signed results file as version 1 wrote it (every line signed alone), its first rounds."""
    tournament = build_tournament({"players": ["first", "minmax"], "games": [GAME], "rounds": 3, "seed": 5})
    first = {"format": "moocow-tournament", "version": 1, "tournament": tournament.describe(), "signed": True}
    first["referee"] = tournament.referee()
    rows = [result.to_dict() for result in run_tournament(tournament).results[:rounds]]
    results = tmp_path / "old.jsonl"
    results.write_text("".join(json.dumps(signing.signed(row, KEY)) + "\n" for row in [first, *rows]))
    results.chmod(0o600)
    return results


def test_a_version_1_file_reads_and_resumes_as_before_and_says_it_is_not_chained(tmp_path: Path) -> None:
    results, key_file = version_1(tmp_path, 4), tmp_path / "key"
    key_file.write_bytes(KEY)
    checked = run("verify", str(results), "--key-file", str(key_file))
    assert checked.exit_code == 0, checked.stdout
    assert f"{results}: version 1: its lines are signed one by one, not chained" in checked.stdout
    assert resume(results, key_file).exit_code == 0
    rows = [json.loads(line) for line in lines_of(results)]
    assert len(rows) == 7 and all(signing.verified(row, KEY) for row in rows), "version 1, as before"
    assert run("verify", str(results), "--key-file", str(key_file)).exit_code == 0


def test_a_number_too_big_for_a_float_is_a_one_line_refusal(tmp_path: Path) -> None:
    """A 400-digit ``seconds`` ended --resume in an OverflowError traceback (``math.isfinite``)."""
    results = tmp_path / "results.jsonl"
    assert run(*PLAY, "--results", str(results)).exit_code == 0
    lines = lines_of(results)
    row = json.loads(lines[-1])
    row["seconds"] = 10**400
    results.write_bytes(b"".join(lines[:-1]) + json.dumps(row).encode() + b"\n")
    message = "line 7: seconds 1000000000000000000000000000000000000... is not a time"
    checked = run("verify", str(results))
    assert checked.exit_code == 1 and f"{results}, {message}" in checked.stdout
    refused = resume(results, None)
    assert refused.exit_code == 2 and message in refused.stderr and "Traceback" not in refused.output


def test_a_line_longer_than_any_row_is_one_problem_and_is_not_read_whole(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    assert run(*PLAY, "--results", str(results)).exit_code == 0
    results.write_bytes(results.read_bytes() + b'{"player": "' + b"x" * (4 << 20) + b'"}\n')
    checked = run("verify", str(results))
    assert checked.exit_code == 1
    assert f"{results}, line 8: longer than any line the runner writes in this tournament" in checked.stdout
    assert "line 8: longer than any line" in resume(results, None).stderr


def test_a_course_player_flooding_long_guesses_leaves_a_bounded_results_file(tmp_path: Path) -> None:
    """Guesses of 65,535 characters were stored whole (26 MB in 20 rounds): now each is cut, with
    its length and digest, and every row is under ``most_row_bytes``; the file verifies and resumes."""
    results, player = tmp_path / "results.jsonl", str(PLAYERS / "hostile" / "flood.py")
    play = ["tournament", "-p", player, "-g", "bacrunner", "-r", "2", "--seed", "5", "--mercy", "4"]
    play += ["--results", str(results)]
    assert run(*play).exit_code == 0
    header, named, *rows = lines_of(results)
    description = json.loads(header)["tournament"]
    names = len(json.dumps(description["players"][0]["name"])) + len(json.dumps(description["games"][0]))
    assert len(rows) == 2 and all(len(row) <= most_row_bytes(4, names) for row in rows)
    assert len(named) <= most_row_bytes(0, names)  # who it says it is: 300 characters of each at most
    assert results.stat().st_size < len(header) + 3 * most_row_bytes(4, names)
    long, sent = json.loads(rows[0])["guesses"][0], flood.LONG
    assert long == {"cut": sent[:200], "length": 65_535, "sha256": hashlib.sha256(sent.encode()).hexdigest()}
    assert run("verify", str(results)).exit_code == 0
    interrupted(results, 1)
    resumed = run(*play, "--resume")
    assert resumed.exit_code == 0 and "1 rounds played" in resumed.stdout, resumed.output


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("no key", "verify needs the key it was signed with"),
        ("not a results file", "is not a moocow results file"),
        ("missing", "cannot read results file"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    signed: tuple[Path, Path], tmp_path: Path, case: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    results, key_file = signed
    monkeypatch.delenv(signing.KEY_VARIABLE, raising=False)
    if case == "not a results file":
        results.write_text("hello\n")
    arguments = {
        "no key": [str(results)],
        "not a results file": [str(results), "--key-file", str(key_file)],
        "missing": [str(tmp_path / "nowhere.jsonl"), "--key-file", str(key_file)],
    }[case]
    result = run("verify", *arguments)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and message in line
