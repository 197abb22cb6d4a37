"""Results files as a run leaves them: interrupted after some rounds, the chain's record with it."""

from __future__ import annotations

import json
import os
from pathlib import Path

from moocow.runner import chain
from moocow.runner.results import IDENTITY


def round_rows(results: Path) -> list[dict]:
    """The rows of a results file after its header, the closing line included, without the lines
    that record who each player said it was (one a player, written before its first round)."""
    found = (json.loads(line) for line in results.read_text().splitlines()[1:])
    return [row for row in found if set(row) != {IDENTITY}]


def interrupted(results: Path, rounds: int, key_file: str | os.PathLike[str] | None = None) -> None:
    """Leave ``results`` as a run stopped after its first ``rounds`` rounds leaves it: those lines,
    no closing line, and for a chained file the record of its head at the last of them (a file
    merely cut short keeps the record of its whole length, and is refused)."""
    every = results.read_bytes().splitlines(keepends=True)
    ends = [number for number, line in enumerate(every) if number and not line.startswith(b'{"identity"')]
    lines = every[: ends[rounds - 1] + 1 if rounds else 1]  # identity lines are not rounds
    results.write_bytes(b"".join(lines))
    chain_id = json.loads(lines[0]).get(chain.CHAIN)
    if chain_id is not None:
        record = chain.HeadRecord(chain.record_folders(key_file), chain_id, results)
        record.write(len(lines), json.loads(lines[-1])[chain.FIELD])
        record.close()


def resigned(lines: list[str], number: int, row: dict[str, object], key: bytes) -> str:
    """Line ``number`` (from 1) holding ``row`` (read from the file, envelope and all), signed
    again in its chain by a forger who holds the key: the line it follows is unchanged."""
    fields = {
        name: value for name, value in row.items() if name not in (chain.NUMBER, chain.CHAIN, chain.FIELD)
    }
    before = json.loads(lines[number - 2])[chain.FIELD]
    line, _ = chain.signed_line(fields, key, before, number, str(row[chain.CHAIN]))
    return line.decode("utf-8").rstrip("\n")
