"""Tries every way one player could signal another that runs at the same time through a file both
see read-only (moocow's own source): ``flock``, a record lock (``lockf``), an open file description
lock, inotify and dnotify watches. Two colluding players passed secrets this way, one bit per
locked file. It answers the handshake with how each went: ``moocow 1 channels flock:refused ...``."""

import errno
import fcntl
import os
import struct
import sys

import moocow

SHARED = moocow.__file__
F_OFD_SETLK = 37


def attempt(name, call):
    try:
        call()
    except OSError as error:
        return f"{name}:{'refused' if error.errno == errno.EPERM else errno.errorcode[error.errno]}"
    return f"{name}:open"


def main():
    shared = os.open(SHARED, os.O_RDONLY)
    folder = os.open(os.path.dirname(SHARED), os.O_RDONLY)
    lock = struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 0, 0)
    outcomes = [
        attempt("flock", lambda: fcntl.flock(shared, fcntl.LOCK_SH | fcntl.LOCK_NB)),
        attempt("lockf", lambda: fcntl.fcntl(shared, fcntl.F_SETLK, lock)),
        attempt("ofd", lambda: fcntl.fcntl(shared, F_OFD_SETLK, lock)),
        attempt("dnotify", lambda: fcntl.fcntl(folder, fcntl.F_NOTIFY, fcntl.DN_ACCESS)),
        attempt("inotify", lambda: os.close(_inotify())),
    ]
    sys.stdin.readline()
    print("moocow 1 channels", *outcomes, flush=True)
    for line in sys.stdin:
        if line.startswith("quit"):
            break
        print("111", flush=True)


def _inotify():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1")
    return fd


main()
