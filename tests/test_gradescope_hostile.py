"""A hostile student against ``gradescope try``/``run`` at the level Gradescope gives (the ``user``
level: root without CAP_SYS_ADMIN): every path ends with a results.json that says what happened.

Gradescope stops an autograder at the assignment's timeout and then has no results at all ("The
autograder failed to execute correctly": no grade), and an autograder that stops on an error
leaves none either. Each attack here is run for real with ``gradescope try``.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from moocow.course.dry_run import DROP, can_drop
from moocow.platforms.gradescope.grading import FAILED
from moocow.platforms.gradescope.tryout import default_metadata, unzip
from tests.gradescope_helpers import PLAYERS, check_specification, moocow

pytestmark = pytest.mark.skipif(not can_drop(), reason="needs root and setpriv, for Gradescope's level")

GAME = "mastermind:pegs=3,colors=3"
NOTE = Path("/tmp/moocow-slowpoke-note")
"""Where the slow player leaves a file, which its session's end must remove, out of time or not."""
SLOWPOKE = f"""\
import time

with open("{NOTE}", "w") as note:
    note.write("left behind")


def initialize_wordlist(words):
    pass


def guess(n, guesses_so_far):
    time.sleep(2)  # well inside its 10 s a guess, every guess, every round
    return "012"


def student_id():
    return "1"


def author():
    return "Slow, Poke"
"""


def build(folder: Path, course: str) -> Path:
    (folder / "course.toml").write_text(f'[gradescope]\ngames = ["{GAME}"]\npractice_rounds = 0\n{course}')
    done = moocow(sys.executable, "gradescope", "build", "course.toml", "-o", "a.zip", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "a.zip"


def running(name: str) -> list[str]:
    """The command lines of this machine's processes that name ``name``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if name in line and entry.name != str(os.getpid()):
            found.append(line)
    return found


def test_a_player_slower_than_the_time_budget_gets_results_that_say_so(
    readable_python: str, reachable: Path
) -> None:
    """A player taking 2 s of its 10 s on every guess of 20 rounds of 20 guesses runs for 13
    minutes: past Gradescope's default timeout of 10, which leaves no results. The course's
    time budget (``seconds``) stops it and the results say why, with no player left running; the
    stop counts toward the submission limit."""
    limit = "[gradescope.submissions]\nmost = 1\n"
    archive = build(reachable, f'files = ["slowpoke.py"]\nrounds = 4\nseconds = 3\n{limit}')
    (reachable / "submission").mkdir()
    (reachable / "submission" / "slowpoke.py").write_text(SLOWPOKE)
    out = reachable / "out"
    done = moocow(readable_python, "gradescope", "try", str(archive), "submission", "--out", str(out),
                  cwd=reachable)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((out / "results" / "results.json").read_text())
    check_specification(results)
    assert results["score"] == 0 and results["output"].startswith(
        "Not graded: the rounds took longer than this assignment's time budget, 3 s for all of them"
    )
    assert not running("slowpoke.py") and not NOTE.exists()
    # Stopped after graded rounds began, its player chose when: it counts toward the submission
    # limit, or running out of time on purpose would be unlimited tries, a bit of the deck each.
    metadata = default_metadata()
    metadata["previous_submissions"] = [{"submission_time": metadata["created_at"], "results": results}]
    (reachable / "metadata.json").write_text(json.dumps(metadata))
    (reachable / "metadata.json").chmod(0o600)
    again = moocow(readable_python, "gradescope", "try", str(archive), "submission", "--metadata",
                   "metadata.json", cwd=reachable)  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Not graded: at most 1 graded submissions in 24 hours" in again.stdout


def test_an_autograder_that_stops_on_an_error_still_writes_results_saying_so(
    readable_python: str, reachable: Path
) -> None:
    """run_autograder refused to play (here: the course's word file is closed to the player's user,
    as a zip that packed it with mode 0600 leaves it) and wrote no results.json, so the submission
    had no grade and no word why. Now the results say the autograder failed, the error is in a test
    only instructors see, and run's status and ``try``'s line still report it."""
    (reachable / "words.txt").write_text("apple\nbread\ncider\n")
    course = '[gradescope]\nwords = "words.txt"\nrounds = 2\npractice_rounds = 0\n'
    (reachable / "course.toml").write_text(course)
    built = moocow(sys.executable, "gradescope", "build", "course.toml", "-o", "built.zip", cwd=reachable)
    assert built.returncode == 0, built.stderr
    archive = reachable / "a.zip"
    with zipfile.ZipFile(reachable / "built.zip") as opened, zipfile.ZipFile(archive, "w") as closed:
        for info in opened.infolist():
            data = opened.read(info)
            if info.filename == "words.txt":
                info.external_attr = (stat.S_IFREG | 0o600) << 16
            closed.writestr(info, data)
    archive.chmod(0o600)
    (reachable / "submission").mkdir()
    (reachable / "submission" / "bacplayer.py").write_text(SLOWPOKE)
    out = reachable / "out"
    done = moocow(readable_python, "gradescope", "try", str(archive), "submission", "--out", str(out),
                  cwd=reachable)  # fmt: skip
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: game 'bacrunner:file=") and "is not readable by other users" in line
    results = json.loads((out / "results" / "results.json").read_text())
    check_specification(results)
    assert results["score"] == 0 and results["output"] == FAILED
    (error,) = results["tests"]
    assert error["visibility"] == "hidden" and error["output"] == line.removeprefix("error: ")


def test_a_zip_or_earlier_results_others_can_read_are_refused_before_a_player_starts(
    readable_python: str, reachable: Path
) -> None:
    """``try``'s command line names the zip, which holds the seed, and ``--metadata``, whose earlier
    results hold graded details; a player reads command lines at this level. With both left
    readable (a zip checked into a course repository is 0644), tests/players/hostile/try_thief.py
    put the seed in its student id. Each is now refused in one line naming it and the fix."""
    archive = build(reachable, "rounds = 2\n")
    (reachable / "submission").mkdir()
    (reachable / "submission" / "bacplayer.py").write_bytes(
        (PLAYERS / "hostile" / "try_thief.py").read_bytes()
    )
    metadata = reachable / "metadata.json"
    metadata.write_text(json.dumps(default_metadata()))
    try_it = ["gradescope", "try", str(archive), "submission", "--metadata", str(metadata)]
    for named, what in ((archive, "autograder zip"), (metadata, "--metadata")):
        named.chmod(0o644)
        done = moocow(readable_python, *try_it, cwd=reachable)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.splitlines() == [
            f"error: {what} '{named}' holds a secret and other users can read it, so players can (they run "
            f"as other users here): chmod 600 {named}"
        ]
        named.chmod(0o600)
    done = moocow(readable_python, *try_it, cwd=reachable)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(student id nothing, author Try, Thief)" in done.stdout


def test_the_seed_is_never_open_to_others_while_a_dry_run_lays_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unzipping wrote each file and then set its mode: the seed was 0644 for a moment, and a
    player of another dry run on this machine, polling for it, could open it then and keep it (the
    same zip: the same deck). Each file is now made with no bit for others until its mode is set."""
    archive = build(tmp_path, "rounds = 2\n")
    seen: dict[str, int] = {}
    chmod = Path.chmod

    def watched(path: Path, mode: int, **options: object) -> None:
        seen.setdefault(path.name, stat.S_IMODE(path.stat().st_mode))  # what others saw until now
        chmod(path, mode, **options)

    monkeypatch.setattr(Path, "chmod", watched)
    unzip(archive, tmp_path / "source")
    assert seen["seed"] & 0o077 == 0 and stat.S_IMODE((tmp_path / "source" / "seed").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "source" / "run_autograder").stat().st_mode) == 0o755


def test_a_submitted_folder_open_to_all_takes_no_note_that_outlives_the_run(
    readable_python: str, reachable: Path
) -> None:
    """A student's zip may carry a folder of mode 0777; ``try`` copied the submission with its
    modes, so tests/players/hostile/try_thief.py wrote into it (found by the root on ``run``'s
    command line), where the note outlived the run with ``--out``, for a later submission tried on
    this machine. The copy is now writable by root alone."""
    archive = build(reachable, "rounds = 1\n")
    submission = reachable / "submission"
    (submission / "shared").mkdir(parents=True)
    (submission / "shared").chmod(0o777)
    (submission / "bacplayer.py").write_bytes((PLAYERS / "hostile" / "try_thief.py").read_bytes())
    out = reachable / "out"
    done = moocow(readable_python, "gradescope", "try", str(archive), "submission", "--out", str(out),
                  cwd=reachable)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(student id nothing, author Try, Thief)" in done.stdout
    assert not (out / "submission" / "shared" / "note.txt").exists()


CLEANUP_RACE = """\
import signal, sys
from pathlib import Path
from moocow.course.budget import OutOfTime, time_budget
from moocow.sandbox import process
from moocow.runner.grading import grade

original, alarms = process.remove_tree, []


def alarmed(folder):  # the budget runs out while the runner cleans up after the player
    if not alarms:
        alarms.append(folder)
        signal.raise_signal(signal.SIGALRM)
    original(folder)


process.remove_tree = alarmed
try:
    with time_budget(600):
        grade(sys.argv[1], "mastermind:pegs=3,colors=3", rounds=1)
except OutOfTime:
    print("out of time")
print(Path(sys.argv[2]).exists())
"""


def test_the_time_budget_running_out_during_a_players_cleanup_waits_for_it(
    readable_python: str, reachable: Path
) -> None:
    """A player can time its end to the budget's (course.toml and the runner's start time are in
    view), and make its cleanup long (many files). Raised while the runner cleaned up after it, the
    budget's signal left the player's files in /tmp, and its processes, for what runs next on the
    machine. The signal now waits until the cleanup is done."""
    note = Path(tempfile.mktemp(prefix="moocow-cleanup-note-", dir="/tmp"))
    player = reachable / "leaver.py"
    player.write_text(
        f"with open({str(note)!r}, 'w') as file:\n    file.write('left')\n\n\n"
        "def next_guess(game, history):\n    return '111'\n"
    )
    player.chmod(0o644)
    try:
        done = subprocess.run([*DROP, readable_python, "-c", CLEANUP_RACE, str(player), str(note)],
                              capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
        assert done.stdout.splitlines() == ["out of time", "False"], done.stdout + done.stderr
    finally:
        note.unlink(missing_ok=True)


IDENTITY_CHANGER = """\
import os
from moocow import load_game

NOTE = {note!r}
said = open(NOTE).read() if os.path.exists(NOTE) else "first"
last = []
_games = {{}}


def student_id():
    return said


def author():
    return "Identity, Changer"


def next_guess(game, history):
    if not history and last:  # the last round's last guess: its secret, once solved
        with open(NOTE, "w") as note:
            note.write("secret " + last[-1])
        os._exit(1)  # restarted next round, it greets the runner again, with the secret
    played = _games.setdefault(game, load_game(game))
    candidates = played.secrets
    for guess, counts in history:
        code = played.guesses[played.guess_index(guess)][None, :]
        value = played.feedback_model.encode(tuple(counts))
        candidates = candidates[played.feedback(code, candidates)[0] == value]
    last.append(played.format_code(candidates[0]))
    return last[-1]
"""


def test_a_restarted_player_cannot_rename_itself_with_a_secret_it_learnt(
    readable_python: str, reachable: Path
) -> None:
    """Who a player says it is shows where students look (Gradescope's top-level output, from the
    graded rounds when there are no practice ones). A player that solved a graded round wrote the
    secret where it outlives its process (a folder open to all, which the user level does not
    clean), crashed, and greeted the runner again as the secret. Who it is is its first greeting."""
    drop = reachable / "drop"
    drop.mkdir(mode=0o777)
    drop.chmod(0o777)
    player = reachable / "changer.py"
    player.write_text(IDENTITY_CHANGER.format(note=str(drop / "note")))
    player.chmod(0o644)
    args = ["-m", "moocow", "grade", str(player), "--game", GAME, "--rounds", "3", "--seed", "4242"]
    done = subprocess.run([*DROP, readable_python, *args], capture_output=True, text=True, timeout=300,
                          check=False, cwd=reachable)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "players sandboxed: user" in done.stderr and (drop / "note").read_text().startswith("secret ")
    assert done.stdout.splitlines()[-1].endswith(" first Identity, Changer"), done.stdout
