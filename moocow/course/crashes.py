"""Where a practice round crashed, in the student's own files: the last frames of its traceback.

A practice round lost to a crash showed the student one line (``RuntimeError: oops``), while
``moocow grade`` shows the traceback. The student's copy of Gradescope's results now names, under
the practice log, the last frames of the traceback that are in the submission's own files: file
(by its name in the submission, not the container's path), line, function and code line, each cut
as other player text is (``runner/shown.py``). The runner keeps the last lines a player wrote to
stderr in each round (``RoundResult.stderr``); the frames are read from a lost round's. Graded
rounds are never looked at: what a player prints there could carry a graded secret.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path, PurePath

from moocow.runner.shown import cut

FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<function>.+))?$')
"""A traceback's frame line, as Python writes it (a SyntaxError's has no function)."""
MOST_FRAMES = 3
"""Frames shown for a round: the last ones in the student's files."""


def own_frames(stderr: Sequence[str], folders: Sequence[Path]) -> list[str]:
    """The last ``MOST_FRAMES`` frames in ``stderr`` whose file is below one of ``folders`` (the
    player's folder, as named and as resolved): ``bacplayer.py, line 6, in helper: raise ...``."""
    frames = []
    for at, line in enumerate(stderr):
        found = FRAME.match(line)
        name = None if found is None else _below(found["file"], folders)
        if found is None or name is None:
            continue
        following = stderr[at + 1] if at + 1 < len(stderr) else ""
        code = following.strip() if _is_code(following) else ""
        where = f"{name}, line {found['line']}" + (f", in {found['function']}" if found["function"] else "")
        frames.append(cut(f"{where}: {code}" if code else where))
    return frames[-MOST_FRAMES:]


def _below(file: str, folders: Sequence[Path]) -> str | None:
    """``file``'s name below the first of ``folders`` that holds it, or ``None`` (not the student's)."""
    path = PurePath(file)
    for folder in folders:
        if path.is_relative_to(folder):
            return str(path.relative_to(folder))
    return None


def _is_code(line: str) -> bool:
    """A frame's code line: indented, and not the carets that point into it nor another frame."""
    text = line.strip()
    return line.startswith("    ") and not set(text) <= set("^~ ") and not FRAME.match(line)


def crash_lines(rounds: Sequence[tuple[int, Sequence[str]]], folder: Path) -> list[str]:
    """For each lost practice round (its number from 0 and its stderr lines), where it crashed in
    the student's files; a round that crashed where one before it did says so in a line."""
    folders = list(dict.fromkeys([folder, folder.resolve()]))
    lines: list[str] = []
    seen: dict[tuple[str, ...], int] = {}
    for number, stderr in rounds:
        frames = tuple(own_frames(stderr, folders))
        if not frames:
            continue
        if frames in seen:
            lines.append(f"Round {number + 1} crashed where round {seen[frames] + 1} did.")
            continue
        seen[frames] = number
        lines.append(f"Where round {number + 1} crashed, in your files (the traceback's last frames):")
        lines += [f"  {frame}" for frame in frames]
    return lines


def named_in_submission(lines: Sequence[str], folder: Path) -> list[str]:
    """``lines`` with the player's folder (as named and as resolved) left out of every path they
    hold: a file is named as in the submission (``bacplayer.py``), not by the container's scratch
    folder, which changes with every run."""
    prefixes = [f"{path}/" for path in dict.fromkeys([folder, folder.resolve()])]
    shown = []
    for line in lines:
        for prefix in prefixes:
            line = line.replace(prefix, "")
        shown.append(line)
    return shown
