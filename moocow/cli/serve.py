"""``moocow serve``: open the socket, print where to point a browser, run the app under uvicorn.

The socket is bound here, before uvicorn starts, so a port in use is the CLI's one line and
``--port 0`` prints the port the system chose. With a host that listens on every interface the
addresses a phone on the same network can open are printed, the first one as a QR code. Only
typer is imported when the module loads (not even the socket module): ``moocow --help`` lists
this command for free.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular

if TYPE_CHECKING:
    import socket

EVERYWHERE = frozenset({"0.0.0.0", "::", ""})
"""Hosts that listen on every interface."""


def serve(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on; 0.0.0.0 lets phones on the network in.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on (0: any free one).")] = 8000,
    results: Annotated[
        list[Path] | None,
        typer.Option("--results", metavar="FILE", help="A tournament's results file to show (repeatable)."),
    ] = None,
    trees: Annotated[
        list[Path] | None,
        typer.Option("--tree", metavar="FILE", help="A strategy tree file to show (repeatable)."),
    ] = None,
) -> None:
    """Serve the assistant, games against the computer and tournament results as web pages."""
    from moocow.cli.terminal import one_line_errors

    with one_line_errors():
        files = [_readable(path, "results file") for path in results or []]
        tree_files = [_readable(path, "tree file") for path in trees or []]
        listening = listen(host, port)
    actual = listening.getsockname()[1]
    for line in addresses(host, actual):
        print(line, flush=True)
    run(listening, files, tree_files)


def _readable(path: Path, what: str) -> Path:
    """A file that can be opened now (it is read again when it changes)."""
    with open_regular(path, what):
        return path


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening, or a one-line reason it cannot be."""
    import socket

    if not 0 <= port <= 65535:
        raise MoocowError(f"port {port} is not between 0 and 65535")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as error:
        raise MoocowError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return sock


def addresses(host: str, port: int) -> list[str]:
    """What ``serve`` prints: the address, or for every interface each one a phone can open."""
    if host not in EVERYWHERE:
        shown = f"[{host}]" if ":" in host else host
        return [f"moocow serving on http://{shown}:{port}/ (Ctrl-C stops it)"]
    lan = [f"http://{address}:{port}/" for address in lan_addresses()]
    lines = [f"moocow serving on every interface, port {port} (Ctrl-C stops it)"]
    if not lan:
        return [*lines, f"no network address found; on this machine: http://127.0.0.1:{port}/"]
    lines += [f"  open on a phone on the same network: {url}" for url in lan]
    return [*lines, *qr_lines(lan[0])]


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback: the one its default route leaves from
    (a UDP socket connected to a private address: nothing is sent) and those its name resolves to."""
    import ipaddress
    import socket

    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            found.append(probe.getsockname()[0])
        except OSError:
            pass
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    usable = [a for a in found if not ipaddress.ip_address(a).is_loopback and a != "0.0.0.0"]
    return list(dict.fromkeys(usable))


def qr_lines(url: str) -> list[str]:
    """``url`` as a QR code drawn with half blocks, two rows of modules a line."""
    import io

    import segno

    drawn = io.StringIO()
    segno.make(url, error="L").terminal(out=drawn, compact=True)
    return drawn.getvalue().rstrip("\n").splitlines()


def run(listening: socket.socket, results: list[Path], trees: list[Path]) -> None:
    """Serve until Ctrl-C; uvicorn's access log stays off (the terminal shows the QR code)."""
    import uvicorn

    from moocow.web.app import create_app

    config = uvicorn.Config(
        create_app(results, trees=trees), log_level="warning", access_log=False, lifespan="off"
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[listening])
    finally:
        listening.close()
    sys.stdout.flush()
