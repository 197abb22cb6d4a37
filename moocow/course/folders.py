"""A submission's folder copied whatever its depth: a walk with a list of its own, never recursion.

``shutil.copytree`` and ``Path.rglob`` recurse, so a submission 1,100 folders deep ended in a
``RecursionError``: a traceback from ``gradescope try`` and, in ``run_autograder``, no grade. Here
the walk keeps its own list of folders still to copy; what cannot be copied (a path past the
system's longest, say) is ``Uncopied``, which the autograder turns into results that say why.
Nothing a link points to is ever read: a link is copied as a link or left out.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from moocow.engine.errors import MoocowError


class Uncopied(MoocowError):
    """The submission could not be copied: the message says which path and why, in one line."""


def copy_folder(source: Path, target: Path, links: bool, mode: int | None = None) -> int:
    """Copy ``source``'s folders and regular files into the new folder ``target``; its links too
    (as links, never followed) with ``links``, else they are left out, as are devices, pipes and
    sockets. With ``mode`` (``0o755``), folders get that mode and files ``0o644``, or ``mode`` if
    their owner could run them; else each keeps its own. Returns the number of entries copied."""
    copied = 0
    waiting = [Path()]
    while waiting:
        below = waiting.pop()
        into = target / below
        try:
            status = (source / below).stat(follow_symlinks=not below.parts)  # the top by its link
            into.mkdir(mode=0o700)
            with os.scandir(source / below) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
            for entry in entries:
                found = entry.stat(follow_symlinks=False)
                name = below / entry.name
                if stat.S_ISDIR(found.st_mode):
                    waiting.append(name)
                elif stat.S_ISREG(found.st_mode):
                    shutil.copyfile(entry.path, target / name, follow_symlinks=False)
                    _set_mode(target / name, found.st_mode, mode)
                elif links and stat.S_ISLNK(found.st_mode):
                    (target / name).symlink_to(os.readlink(entry.path))
                else:
                    continue
                copied += 1
            _set_mode(into, status.st_mode, mode)
        except OSError as error:
            raise Uncopied(unreachable_part(below, error)) from None
    return copied


def unreachable_part(below: Path, error: OSError) -> str:
    """Which folder of a submission could not be walked, and why, in one line (its name cut short)."""
    shown = str(below)[:120] + ("..." if len(str(below)) > 120 else "")
    depth = len(below.parts)
    return f"the submission's folder {shown!r} ({depth} deep) cannot be copied: {error.strerror or error}"


def _set_mode(path: Path, found: int, mode: int | None) -> None:
    if mode is None:
        path.chmod(stat.S_IMODE(found))
    elif stat.S_ISDIR(found):
        path.chmod(mode)
    else:
        path.chmod(mode if found & stat.S_IXUSR else 0o644)
