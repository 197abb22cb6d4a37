"""Tries every way one player could signal another that runs at the same time through state both
see: a file both see read-only (moocow's own source) locked with ``flock``, a record lock
(``lockf``) or an open file description lock, watched by inotify or dnotify; a keyring joined by
name, a key added to its user's keyring (counted in ``/proc/key-users``, which all may read); the
file's page read without waiting (``RWF_NOWAIT``: whether it is cached); the machine's count of
terminals. Two colluding players passed secrets this way, one bit per locked file. It answers the
handshake with how each went: ``moocow 1 channels flock:refused ...``."""

import errno
import fcntl
import os
import signal
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
    signal.signal(signal.SIGIO, signal.SIG_IGN)  # what dnotify sends, where it works
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
        attempt("add_key", _add_key),
        attempt("nowait", lambda: _read_without_waiting(shared)),
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


def _add_key():
    """A key in its user's keyring: one more in that user's count in ``/proc/key-users``."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    add_key = {"x86_64": 248, "aarch64": 217}[os.uname().machine]
    texts = (b"user", b"moocow-drop", b"1")
    if libc.syscall(ctypes.c_long(add_key), *texts, ctypes.c_long(1), ctypes.c_long(-4)) < 0:
        raise OSError(ctypes.get_errno(), "add_key")


def _read_without_waiting(fd):
    """Read a page just read again, without waiting: answered at once only while it is cached."""
    os.pread(fd, 64, 0)
    os.preadv(fd, [bytearray(64)], 0, os.RWF_NOWAIT)


def _inotify():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1")
    return fd


main()
