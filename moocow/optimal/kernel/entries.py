"""The exact search's entry points as Python calls them, served as the engine's are
(``engine.kernel.entries``: built ahead of time where they can be, else numba's cache)."""

from __future__ import annotations

import numpy as np

from moocow.engine.kernel.entries import ENGINE_ENTRIES, INT64, Entry, array_kind

SEARCH = Entry("moocow.optimal.kernel.branch", "search", returns=INT64)
LOOKUP = Entry("moocow.optimal.kernel.store", "lookup", returns=("tuple", (INT64, INT64)))
REHASH = Entry("moocow.optimal.kernel.store", "_rehash", returns=("none",))
WIDE_LEAST_TOTAL = Entry("moocow.optimal.kernel.wide", "least_total", returns=INT64, releases_gil=True)
WIDE_KEY = Entry("moocow.optimal.kernel.wide", "_key", returns=array_kind(np.int32, 1))
FIND = Entry("moocow.optimal.kernel.store", "find", returns=INT64)
STILL_LEGAL = Entry("moocow.optimal.kernel.hard", "still_legal", returns=array_kind(np.int32, 1))
MOST_ANSWERS = Entry("moocow.optimal.kernel.patterns", "most_answers", returns=INT64)
ALL_ENTRIES = (
    SEARCH,
    LOOKUP,
    REHASH,
    WIDE_LEAST_TOTAL,
    WIDE_KEY,
    FIND,
    STILL_LEGAL,
    MOST_ANSWERS,
    *ENGINE_ENTRIES,
)
"""The functions Python calls: the search (``branch.search``), its store's lookup and rehash; the
wide search (``wide.least_total``, run in a thread of its own, so it releases the GIL), its memo's key
and lookup, hard mode's filter and the most answers a guess gets (``patterns``); and the
engine's loops over every guess that the search's symmetry runs too (``engine.kernel.relabel``)."""
