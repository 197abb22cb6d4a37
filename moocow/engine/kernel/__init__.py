"""The engine's compiled kernels (numba) and how every compiled kernel of moocow is served.

- ``greedy``: the greedy strategies' scoring, feedback computed and counted in one pass (loaded
  only for games of enough work: ``engine.partitions``);
- ``relabel``: the relabellings that fix the guesses played, one guess per class (the engine's
  ``symmetry``, and the exact search's kernel inlines them);
- ``entries``: the functions Python calls, served by ``ahead`` (built ahead of time, loaded
  without numba) or else by ``loading`` (numba's cache, checked against every kernel's source);
- ``stamp``: the hash of those sources, without loading numba.
"""
