"""Pack the proof's store for the repository: a consistent copy (even while a search writes it),
gzipped, as ``store.db.gz`` beside it. Run: ``python proofs/bottles-7/pack.py``."""

import gzip
import shutil
import sqlite3
import tempfile
from pathlib import Path

here = Path(__file__).parent
with tempfile.TemporaryDirectory() as scratch:
    copy = Path(scratch) / "store.db"
    source = sqlite3.connect(here / "store.db")
    source.execute(f"VACUUM INTO '{copy}'")  # one transaction: what a running search committed so far
    source.close()
    with copy.open("rb") as plain, gzip.open(here / "store.db.gz", "wb", compresslevel=9) as packed:
        shutil.copyfileobj(plain, packed)
print(f"packed {here / 'store.db.gz'} ({(here / 'store.db.gz').stat().st_size:,} bytes)")
