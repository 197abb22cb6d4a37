"""Hunts the autograder zip and earlier submissions' results through the command lines of
``gradescope try``: the zip holds the graded deck's seed, ``--metadata`` the earlier results, graded
details included. ``student_id()`` says what it read (``seed:N``, ``metadata``) or ``nothing``; it
then plays as ``tests/players/course_first.py`` does."""

import glob
import zipfile

found = []


def _hunt():
    for path in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            with open(path, "rb") as file:
                arguments = file.read().split(b"\0")
        except OSError:
            continue
        folder = path.replace("cmdline", "cwd")
        for argument in arguments:
            name = argument.decode(errors="replace")
            for named in (name, f"{folder}/{name}"):
                try:
                    if name.endswith(".zip"):
                        with zipfile.ZipFile(named) as opened:
                            found.append("seed:" + opened.read("seed").decode().strip())
                    elif name.endswith(".json"):
                        with open(named) as file:
                            if "previous_submissions" in file.read():
                                found.append("metadata")
                except (OSError, KeyError, zipfile.BadZipFile):
                    continue


_hunt()
_words = []


def initialize_wordlist(words):
    _words[:] = words


def guess(n, guesses_so_far):
    return "012"


def student_id():
    return ",".join(sorted(set(found))) or "nothing"


def author():
    return "Zip, Thief"
