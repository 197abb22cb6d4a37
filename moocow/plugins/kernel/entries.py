"""The games' compiled loops as Python calls them, served as the engine's are (``engine.kernel.entries``)."""

from __future__ import annotations

from moocow.engine.kernel.entries import Entry

MARKS_INTO = Entry("moocow.plugins.kernel.marking", "marks_into", returns=("none",))
"""Wordle's marks for every pair of a table (``marking.marks_into``)."""
