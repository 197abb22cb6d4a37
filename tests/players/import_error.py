"""Fails at import: it never gets through its setup."""

raise ImportError("no module named 'numpyy'")
