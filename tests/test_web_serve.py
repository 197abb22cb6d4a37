"""``moocow serve`` as a user starts it: the address printed, pages answered, mistakes in one line."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
import segno
from typer.testing import CliRunner

from moocow.cli import app, serve

STARTER = "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()"


def test_serve_prints_its_address_and_answers_pages() -> None:
    """The whole process: the printed address serves the first page and the assistant."""
    process = subprocess.Popen(
        [sys.executable, "-c", STARTER, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("moocow serving on http://127.0.0.1:")
        address = line.split(" on ")[1].split()[0]
        with urllib.request.urlopen(address, timeout=60) as response:
            assert response.status == 200 and b"bottles:n=7" in response.read()
        with urllib.request.urlopen(address + "assist.json?game=bottles%3An%3D5", timeout=60) as response:
            assert b'"remaining": 120' in response.read().replace(b'":120', b'": 120')
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_every_interface_prints_the_lan_addresses_and_a_qr_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 0.0.0.0 each address a phone can open is printed, the first as a QR code of it."""
    monkeypatch.setattr(serve, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    lines = serve.addresses("0.0.0.0", 8000)
    assert "  open on a phone on the same network: http://192.168.1.20:8000/" in lines
    assert "  open on a phone on the same network: http://10.0.0.5:8000/" in lines
    drawn = [line for line in lines if not line.isascii()]
    side = segno.make("http://192.168.1.20:8000/", error="L").symbol_size(border=4)[0]
    assert len(drawn) == (side + 1) // 2 and all(len(line) == side for line in drawn)
    alone = serve.addresses("127.0.0.1", 8000)
    assert alone == ["moocow serving on http://127.0.0.1:8000/ (Ctrl-C stops it)"]


def test_no_lan_address_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine with no network prints where it can be opened on the machine itself."""
    monkeypatch.setattr(serve, "lan_addresses", list)
    assert serve.addresses("0.0.0.0", 8000)[-1].startswith("no network address found")


def test_lan_addresses_leave_out_loopback() -> None:
    """Whatever this machine has, loopback is never offered to a phone."""
    assert all(not address.startswith("127.") for address in serve.lan_addresses())


def test_a_port_in_use_or_a_missing_file_is_one_line(tmp_path: Path) -> None:
    """A port already taken, a port out of range, a results file that is not there: one line, status 2."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2 and result.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}")
    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "port 70000 is not between 0 and 65535" in result.stderr
    result = CliRunner().invoke(app, ["serve", "--results", str(tmp_path / "none.jsonl")])
    assert result.exit_code == 2 and "cannot read results file" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_web_manual_says_which_issue_it_means() -> None:
    """docs/web.md spoke of "the issue" to a reader who has no issue in front of them."""
    manual = (Path(__file__).parent.parent / "docs" / "web.md").read_text()
    assert "the issue" not in " ".join(manual.split())
