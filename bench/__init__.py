"""moocow's benchmark suite: every hot path timed against the pure-Python baseline, side by side.

``python -m bench`` runs it (``--quick``, ``--only TEXT``, ``--json PATH``); ``bench/README.md``
says what each column means and holds the latest table.
"""
