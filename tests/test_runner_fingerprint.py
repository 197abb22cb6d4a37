"""A player's digest changes with anything the player could tell apart in its files, and with
nothing else: the results file kept beside it, where its folder is, the time."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from moocow.referee.players import parse_player
from moocow.runner import fingerprint
from moocow.runner.fingerprint import player_digest
from moocow.sandbox.cleanup import remove_tree


@pytest.fixture
def bot(tmp_path: Path) -> Path:
    """A module player with a helper, a data folder and a link, in a folder of its own."""
    folder = tmp_path / "ada"
    (folder / "data").mkdir(parents=True)
    (folder / "sub1").mkdir()
    (folder / "sub2").mkdir()
    (folder / "helper.py").write_text("def guess(game, history):\n    return '111'\n")
    (folder / "bot.py").write_text("from helper import guess as next_guess  # noqa: F401\n")
    (folder / "data" / "words.txt").write_text("alpha\nbravo\n")
    (folder / "lib").symlink_to("sub1")
    return folder / "bot.py"


def digest(bot: Path) -> str | None:
    return player_digest(parse_player(str(bot)), hidden=[str(bot.parent / "results.jsonl")])


CHANGES: dict[str, Callable[[Path], object]] = {
    "the module": lambda folder: (folder / "bot.py").write_text("# another\n"),
    "a helper": lambda folder: (folder / "helper.py").write_text("# another\n"),
    "data, same length": lambda folder: (folder / "data" / "words.txt").write_text("alpha\nbrava\n"),
    "a folder link retargeted": lambda folder: (
        (folder / "lib").unlink(),
        (folder / "lib").symlink_to("sub2"),
    ),
    "an empty folder renamed": lambda folder: (folder / "sub2").rename(folder / "sub3"),
    "a mode": lambda folder: (folder / "helper.py").chmod(0o755),
}


@pytest.mark.parametrize("change", CHANGES)
def test_anything_the_player_could_tell_apart_changes_the_digest(bot: Path, change: str) -> None:
    """A retargeted link to a folder, an empty folder or a mode were not hashed: a player reading
    them behaved differently under the same digest."""
    before = digest(bot)
    CHANGES[change](bot.parent)
    assert digest(bot) != before


def test_a_large_file_cannot_crowd_the_code_out(bot: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sparse file as large as the budget, sorted first, left the code counted by its size: small
    files are always read whole, large ones smallest first."""
    monkeypatch.setattr(fingerprint, "CONTENT_BUDGET", 4 << 20)
    with (bot.parent / "a.bin").open("wb") as blob:
        blob.truncate((4 << 20) - 16)  # all but 16 bytes of the budget
    before = digest(bot)
    bot.write_text(bot.read_text().replace("helper", "helpEr"))  # the same length
    assert digest(bot) != before


def test_the_results_file_beside_it_its_place_and_times_do_not(bot: Path, tmp_path: Path) -> None:
    """The results file written beside the player grows as the run goes; a copy elsewhere, touched
    later, is the same player."""
    before = digest(bot)
    (bot.parent / "results.jsonl").write_text('{"format": "moocow-tournament"}\n')
    os.utime(bot.parent / "helper.py", (0, 0))
    assert digest(bot) == before
    copy = tmp_path / "elsewhere"
    shutil.copytree(bot.parent, copy, symlinks=True)
    (copy / "results.jsonl").unlink()
    assert digest(copy / "bot.py") == before


def test_engine_strategies_and_the_machines_programs_have_none() -> None:
    assert player_digest(parse_player("minmax")) is None
    assert player_digest(parse_player("sh -c 'read x'")) is None


def test_a_folder_deeper_than_python_recurses_is_fingerprinted(bot: Path) -> None:
    """``os.walk`` recurses: 1,500 nested folders in a student's folder crashed the run's start."""
    before = digest(bot)
    deep = bot.parent / "deep"
    for _ in range(1500):  # os.makedirs recurses too
        deep = deep / "d"
        deep.parent.mkdir(exist_ok=True)
    try:
        assert digest(bot) not in (None, before)
    finally:
        remove_tree(bot.parent / "deep")  # pytest's own clean-up of old folders would recurse
