"""Leaves a note for a later submission where it may outlive this one: in a folder of its own
submission that was uploaded world-writable, found by the root on ``gradescope run``'s command line.
A later player on the same machine (``gradescope try`` keeps its folders with ``--out``) reads it
there: a graded secret, once one is known. ``student_id()`` says ``wrote`` or ``refused``."""

import glob

said = ["refused"]


def _leave():
    for path in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            with open(path, "rb") as file:
                arguments = file.read().split(b"\0")
        except OSError:
            continue
        if b"run" in arguments and b"gradescope" in arguments:
            root = arguments[arguments.index(b"run") + 1].decode()
            try:
                with open(f"{root}/submission/shared/note.txt", "w") as note:
                    note.write("a graded secret\n")
                said[0] = "wrote"
            except OSError:
                pass


_leave()


def initialize_wordlist(words):
    pass


def guess(n, guesses_so_far):
    return "012"


def student_id():
    return said[0]


def author():
    return "Note, Leaver"
