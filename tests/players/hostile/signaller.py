"""Tries every way one player could signal another that runs at the same time through state both
see: a file both see read-only (moocow's own source) locked with ``flock``, a record lock
(``lockf``) or an open file description lock, watched by inotify or dnotify; a keyring joined by
name; the machine's count of terminals. Two colluding players passed secrets this way, one bit
per locked file. It answers the handshake with how each went: ``moocow 1 channels
flock:refused ...``."""

import errno
import fcntl
import os
import struct
import sys
from pathlib import Path

import moocow

SHARED = moocow.__file__
F_OFD_SETLK = 37


def attempt(name, call):
    try:
        call()
    except OSError as error:
        return f"{name}:{refused(error)}"
    return f"{name}:open"


def refused(error):
    return "refused" if error.errno in (errno.EPERM, errno.EACCES) else errno.errorcode[error.errno]


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
        attempt("keyring", _named_keyring),
        attempt("terminals", lambda: Path("/proc/sys/kernel/pty/nr").read_text()),
    ]
    sys.stdin.readline()
    print("moocow 1 channels", *outcomes, flush=True)
    for line in sys.stdin:
        if line.startswith("quit"):
            break
        print("111", flush=True)


def _named_keyring():
    """Join (or make) a keyring by name: any user's player may join it, and it outlives the player."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    keyctl = {"x86_64": 250, "aarch64": 219}[os.uname().machine]
    if libc.syscall(ctypes.c_long(keyctl), ctypes.c_long(1), ctypes.c_char_p(b"moocow-drop")) < 0:
        raise OSError(ctypes.get_errno(), "keyctl")


def _inotify():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1")
    return fd


main()
