"""The exact search's entry points as Python calls them, served as the engine's are
(``engine.kernel.entries``: built ahead of time where they can be, else numba's cache)."""

from __future__ import annotations

from moocow.engine.kernel.entries import ENGINE_ENTRIES, INT64, Entry

SEARCH = Entry("moocow.optimal.kernel.branch", "search", returns=INT64)
LOOKUP = Entry("moocow.optimal.kernel.store", "lookup", returns=("tuple", (INT64, INT64)))
REHASH = Entry("moocow.optimal.kernel.store", "_rehash", returns=("none",))
ALL_ENTRIES = (SEARCH, LOOKUP, REHASH, *ENGINE_ENTRIES)
"""The functions Python calls: the search (``branch.search``), its store's lookup and rehash, and
the engine's loops over every guess that the search's symmetry runs too (``engine.kernel.relabel``)."""
