"""The proofs kept in ``proofs/wordle/``: Wordle's whole games, read back without searching again.

Each store holds every opening a proof over all openings settled (its exact total and tree, or
the bound that refuted it) and the best strategy. Read back with the same command, it must name
the best opening and its proven total, Selby's published values, searching no set (the proof
is the store's), and its tree must take that many guesses over every answer."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from moocow.optimal.prove import prove_optimal
from moocow.plugins import load_game
from moocow.trees.files import tree_stats
from tests.test_optimal_wide import needs_lists

PROOFS = Path(__file__).resolve().parents[1] / "proofs" / "wordle"


@needs_lists
@pytest.mark.parametrize(("name", "spec", "total"), [("normal", "", 7920), ("hard", ",hard=true", 8122)])
def test_a_kept_proof_reads_back_its_best_opening_and_total(
    name: str, spec: str, total: int, tmp_path: Path
) -> None:
    kept = PROOFS / f"{name}.db"
    assert kept.stat().st_size < 25 << 20
    copy = tmp_path / kept.name  # a store is written as it is read (its seconds): never the kept file
    shutil.copyfile(kept, copy)
    game = load_game(f"wordle:list=official{spec}")
    result = prove_optimal(game, max_depth=6, store=copy, workers=1)
    assert result.proven and result.total == result.lower_bound == total
    assert result.opening == "salet" and result.stats.nodes == 0
    assert result.root is not None and tree_stats(result.root).total == total


@needs_lists
def test_the_command_names_the_best_opening_from_the_kept_proof(tmp_path: Path) -> None:
    copy = tmp_path / "normal.db"
    shutil.copyfile(PROOFS / "normal.db", copy)
    command = [sys.executable, "-m", "moocow", "optimal", "wordle:list=official", "--max-depth", "6"]
    done = subprocess.run([*command, "--store", str(copy)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "7920 guesses in total, best opening salet, proven optimal" in done.stdout
