"""Pack the proof's store for the repository: a consistent copy (even while a search writes it),
gzipped, as ``store.db.gz`` beside it. Run: ``python proofs/bottles-7/pack.py``."""

import gzip
import shutil
import sqlite3
import tempfile
from pathlib import Path


def consistent_copy(store: Path, copy: Path) -> None:
    """Copy ``store`` as one transaction sees it: what a running search had committed so far."""
    source = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        source.execute(f"VACUUM INTO '{copy}'")
    finally:
        source.close()


def main() -> None:
    here = Path(__file__).parent
    packed = here / "store.db.gz"
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "store.db"
        consistent_copy(here / "store.db", copy)
        with copy.open("rb") as plain, gzip.open(packed, "wb", compresslevel=9) as zipped:
            shutil.copyfileobj(plain, zipped)
    print(f"packed {packed} ({packed.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
