"""``moocow verify RESULTS --key-file KEY``: every line's HMAC and every round as ``--resume``
checks them, one line per problem; exit status 0 (sound), 1 (problems), 2 (bad input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from moocow.cli import app
from moocow.runner import signing

KEY = b"the course's key"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def signed(tmp_path: Path) -> tuple[Path, Path]:
    """A finished, signed results file of 2 players x 3 rounds, and its key file."""
    key_file, results = tmp_path / "key", tmp_path / "results.jsonl"
    key_file.write_bytes(KEY + b"\n")
    played = run(
        "tournament", "-p", "first", "-p", "minmax", "-g", "bottles:n=4", "-r", "3", "--seed", "5",
        "--results", str(results), "--key-file", str(key_file),
    )  # fmt: skip
    assert played.exit_code == 0, played.stderr
    return results, key_file


def rewrite(results: Path, number: int, change, key: bytes | None = KEY) -> None:
    """Apply ``change`` to the row on line ``number``; sign it again with ``key`` (a forger who
    holds it), or with ``None`` leave its old signature."""
    lines = results.read_text().splitlines()
    row = json.loads(lines[number - 1])
    change(row)
    lines[number - 1] = json.dumps(row if key is None else signing.signed(row, key))
    results.write_text("\n".join(lines) + "\n")


def test_a_sound_file_verifies(signed: tuple[Path, Path]) -> None:
    results, key_file = signed
    result = run("verify", str(results), "--key-file", str(key_file))
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines() == [
        f"{results}: every line is signed with this key and checks out, 6 of 6 rounds"
    ]


def test_every_problem_is_a_line_of_its_own(signed: tuple[Path, Path]) -> None:
    """An edited row (its HMAC fails), a row re-signed with a score its guesses do not make (the
    resume checks), a round twice, a torn last line: four lines, status 1."""
    results, key_file = signed

    def score(row):
        row["score"] = 1

    rewrite(results, 2, lambda row: row.update(seconds=0.5), key=None)
    rewrite(results, 3, score)
    with results.open("a") as file:
        file.write(results.read_text().splitlines()[4] + "\n")
        file.write('{"player": "fir')
    result = run("verify", str(results), "--key-file", str(key_file))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"{results}, line 2: its hmac does not match: the row was changed, forged, or " + (
        "signed with another key"
    )
    assert lines[1].startswith(f"{results}, line 3: score 1 does not match its guesses")
    assert lines[2].startswith(f"{results}, line 8: round ") and "is on line 5 too" in lines[2]
    assert lines[3] == f"{results}, line 9: torn (no end of line): the run was stopped while writing it"
    assert lines[4] == f"{results}: 4 problems; 4 of 6 rounds check out"


def test_another_key_fails_every_line(signed: tuple[Path, Path], tmp_path: Path) -> None:
    results, _ = signed
    other = tmp_path / "other"
    other.write_text("another key\n")
    result = run("verify", str(results), "--key-file", str(other))
    assert result.exit_code == 1
    assert len([line for line in result.stdout.splitlines() if "hmac does not match" in line]) == 7


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("no key", "verify needs the key the file was signed with"),
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
