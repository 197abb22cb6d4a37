"""A results path that moves: the emptied-file guard finds the chain's record by the file's path, so
a path led elsewhere (a symbolic link, a swapped folder link, a second name) must not let
``--resume`` start a fresh chain over a recorded one, nor ``verify`` pass what it leads to."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from moocow.cli import app
from tests.results_helpers import interrupted

KEY = b"the course's key"
PLAY = ["tournament", "-p", "first", "-p", "minmax", "-g", "bottles:n=4", "-r", "3", "--seed", "5"]
"""A tournament of 2 players x 3 rounds: a header, 6 rows and a closing line."""


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def play(results: Path, key_file: Path, *more: str) -> Result:
    return run(*PLAY, "--results", str(results), "--key-file", str(key_file), *more)


def verify(results: Path, key_file: Path) -> Result:
    return run("verify", str(results), "--key-file", str(key_file))


def refused(outcome: Result, *parts: str) -> None:
    """Exit status 2, one ``error:`` line naming every part, no traceback."""
    lines = [line for line in outcome.stderr.splitlines() if line.strip() and not line.startswith("warning")]
    assert outcome.exit_code == 2, outcome.output
    assert len(lines) == 1 and lines[0].startswith("error: "), outcome.stderr
    assert all(part in lines[0] for part in parts), lines[0]
    assert "Traceback" not in outcome.output


@pytest.fixture
def key_file(tmp_path: Path) -> Path:
    key = tmp_path / "key"
    key.write_bytes(KEY + b"\n")
    return key


@pytest.fixture
def finished(tmp_path: Path, key_file: Path) -> Path:
    """A finished, signed results file, its chain recorded beside the key."""
    results = tmp_path / "results.jsonl"
    assert play(results, key_file).exit_code == 0
    return results


def another_run(tmp_path: Path, key_file: Path) -> Path:
    """Another file of the same tournament and key, stopped after 2 rounds: a chain of its own."""
    other = tmp_path / "other.jsonl"
    assert play(other, key_file).exit_code == 0
    interrupted(other, 2, key_file)
    return other


def test_a_results_path_linked_to_an_empty_file_is_refused(finished: Path, key_file: Path) -> None:
    """Made a link to an empty file, the path found no record: --resume played all 6 rounds again
    under a new chain (exit 0), which verify then passed; now both refuse the link."""
    blank = finished.with_name("blank.jsonl")
    blank.touch()
    finished.rename(finished.with_name("kept.jsonl"))
    finished.symlink_to(blank)
    refused(play(finished, key_file, "--resume"), repr(str(finished)), "is a symbolic link")
    assert blank.read_bytes() == b""
    refused(verify(finished, key_file), repr(str(finished)), "is a symbolic link")


def test_a_results_path_linked_to_another_results_file_is_refused(
    finished: Path, key_file: Path, tmp_path: Path
) -> None:
    """Made a link to another run's file of the same key, the path's rounds became that run's:
    --resume finished it and verify passed it; now both refuse the link."""
    other = another_run(tmp_path, key_file)
    before = other.read_bytes()
    finished.unlink()
    finished.symlink_to(other)
    refused(play(finished, key_file, "--resume"), repr(str(finished)), "is a symbolic link")
    assert other.read_bytes() == before
    refused(verify(finished, key_file), repr(str(finished)), "is a symbolic link")


@pytest.mark.parametrize("how", ["linked from the start", "moved aside and linked"])
def test_a_results_folder_link_repointed_at_an_empty_folder_is_refused(
    tmp_path: Path, key_file: Path, how: str
) -> None:
    """A folder reached through a link is harmless (it resumes and verifies); repointed at an
    empty folder, the file's resolved path found no record and --resume started a fresh chain (exit
    0), which verify passed: the record now holds the path as given too, and the run is refused."""
    course, store = tmp_path / "course", tmp_path / "store"
    if how == "linked from the start":
        store.mkdir()
        course.symlink_to(store)
    else:  # the course's own folder, which the attacker moves aside and links in its place
        course.mkdir()
    results = course / "results.jsonl"
    assert play(results, key_file).exit_code == 0
    interrupted(results, 4, key_file)
    if how == "moved aside and linked":
        course.rename(store)
        course.symlink_to(store)
    resumed = play(results, key_file, "--resume")
    assert resumed.exit_code == 0 and "2 rounds played" in resumed.stdout, resumed.output
    assert verify(results, key_file).exit_code == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    course.unlink()
    course.symlink_to(empty)
    refused(play(results, key_file, "--resume"), repr(str(results)), "it was cut, not interrupted")
    assert not (empty / "results.jsonl").exists() or (empty / "results.jsonl").read_bytes() == b""
    assert verify(results, key_file).exit_code == 2, "nothing was written there to verify"


def test_a_results_file_with_a_second_name_is_refused(finished: Path, key_file: Path) -> None:
    """A second name (a hard link), refused by --resume already (it could show in a player's
    folder), was passed by verify under either name: now both refuse either name."""
    second = finished.with_name("second.jsonl")
    os.link(finished, second)
    for name in (finished, second):
        refused(play(name, key_file, "--resume"), repr(str(name)), "has another name (a hard link)")
        refused(verify(name, key_file), repr(str(name)), "has another name (a hard link)")


@pytest.mark.parametrize("target", ["an empty file", "another results file"])
def test_a_results_file_replaced_by_a_hard_link_is_refused(
    finished: Path, key_file: Path, tmp_path: Path, target: str
) -> None:
    """Replaced by a hard link to an empty file or to another run's file of the same key: --resume
    refused both already, but verify passed the other run's file and called the empty one not a
    results file: both now refuse the second name."""
    if target == "an empty file":
        other = tmp_path / "blank.jsonl"
        other.touch()
    else:
        other = another_run(tmp_path, key_file)
    before = other.read_bytes()
    finished.unlink()
    os.link(other, finished)
    refused(play(finished, key_file, "--resume"), repr(str(finished)), "has another name (a hard link)")
    assert other.read_bytes() == before
    refused(verify(finished, key_file), repr(str(finished)), "has another name (a hard link)")


def test_a_record_keeps_both_paths_and_no_tail_of_a_longer_one(tmp_path: Path, key_file: Path) -> None:
    """The record holds the path as given and as resolved; rewritten in place under a shorter path,
    it kept the longer one's tail, so that it named no path at all and guarded nothing."""
    long, short = tmp_path / ("a-long-folder-name" * 4), tmp_path / "s"
    long.mkdir()
    results = long / "results.jsonl"
    assert play(results, key_file).exit_code == 0
    interrupted(results, 4, key_file)
    long.rename(short)
    long.symlink_to(short)
    assert play(results, key_file, "--resume").exit_code == 0
    (record,) = (tmp_path / "key.chains").iterdir()
    paths = json.loads(record.read_text().splitlines()[1])
    assert paths == [str(results), str(short / "results.jsonl")], record.read_text()
    assert len(record.read_text().splitlines()) == 2
